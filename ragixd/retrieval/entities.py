"""The entity signal of a search: does a hit's item list an entity the query names?

A question about someone or something is mostly answered by the items about it: on LoCoMo,
where each turn lists its speaker, 97 % of the evidence of a question naming one of the two
speakers is that speaker's own turns, while the name in the text (every turn opens with the
speaker's name, and the other speaker's replies call them by it) weighs next to nothing in
BM25 and in a sentence vector. The signal reads the `entities` of the few hundred hits a
ranking scored, never the store: read with the candidates' rows, or (for the neighbours lent
context) one indexed read by row id.
"""

from __future__ import annotations

import json
from collections.abc import Iterable

import apsw

from ..domain.text import STOP_WORDS, fold, words

_CHUNK = 500
_loads = json.JSONDecoder().decode


def query_words(query: str) -> frozenset[str]:
    """The folded words of a query, against which entities are matched."""
    return frozenset(fold(w) for w in words(query))


def entity_words(entity: str) -> frozenset[str]:
    """The folded content words of an entity (stop words and single characters left out)."""
    return frozenset(w for w in (fold(t) for t in words(entity)) if len(w) > 1 and w not in STOP_WORDS)


def names_any(query: frozenset[str], entities: Iterable[str]) -> bool:
    """Whether the query names one of `entities`: every content word of it is a query word
    ("Alice" in "what did Alice say?", "New York" only with both words). An entity of stop
    words alone is never named."""
    for entity in entities:
        wanted = entity_words(entity)
        if wanted and wanted <= query:
            return True
    return False


def entities_by_rid(conn: apsw.Connection, rids: list[int]) -> dict[int, str]:
    """The stored entities (a JSON array) of each item of `rids`, by row id."""
    out: dict[int, str] = {}
    for start in range(0, len(rids), _CHUNK):
        chunk = rids[start:start + _CHUNK]
        marks = ",".join("?" * len(chunk))
        out.update(conn.execute(f"SELECT rid, entities FROM memory_items WHERE rid IN ({marks})", chunk))
    return out


def named(conn: apsw.Connection, query: str, rids: list[int]) -> set[int]:
    """The row ids among `rids` whose item lists an entity the query names (none read when the
    query has no word that could name one)."""
    if not rids or not query_words(query) - STOP_WORDS:
        return set()
    return named_among(query, entities_by_rid(conn, rids).items())


def named_among(query: str, stored: Iterable[tuple[int, str]]) -> set[int]:
    """The row ids of the (rid, stored entities) pairs whose entities the query names: for
    candidates whose entities were read with their rows."""
    said = query_words(query)
    if not said - STOP_WORDS:
        return set()
    verdicts: dict[str, bool] = {}  # items share entity lists (the speakers of a chat)
    out = set()
    for rid, entities in stored:
        verdict = verdicts.get(entities)
        if verdict is None:
            verdict = verdicts[entities] = names_any(said, _loads(entities)) if entities not in ("", "[]") else False
        if verdict:
            out.add(rid)
    return out
