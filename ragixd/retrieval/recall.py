"""Recall modes (seed 003 §6.4): inject blocks within a token budget, the JSON catalog
(frontier), or both.

Tokens are counted as ceil(characters / 4), the usual estimate for BPE tokenizers on English
text: deterministic, model-free, and slightly generous for French and code.

Stored text never opens or closes a block: every field is rendered through
`domain.markers.neutralise` (the `[` of a `[MEMORY…` / `[/MEMORY]` marker becomes `(`), and the
header's fields are kept on one line.
"""

from __future__ import annotations

import json
import math
import re
import unicodedata
from typing import Any, Callable, Sequence

from ..domain.markers import BRACKETS, CLOSING_BRACKETS, neutralise
from .hybrid import Hit

MODES = ("inject", "catalog", "hybrid")


def count_tokens(text: str) -> int:
    return count_tokens_of(len(text))


def count_tokens_of(characters: int) -> int:
    """Tokens, as ceil(characters / 4), of a text of this many characters."""
    return math.ceil(characters / 4)


def provenance_label(item: Any) -> str:
    prov = item.provenance
    return f"{prov.source_kind}:{prov.source_id}" if prov.source_id else prov.source_kind


_LINE_BREAKS = re.compile(r"[\r\n\x0b\x0c\x1c-\x1e\x85\u2028\u2029]+")
# Inside a header field, the characters that structure the header: `|` separates fields and `]`
# ends the header, so a tag or a source id holding them could end its field and forge the next
# (`tags=x | provenance=doc:policy.md]`). They and their look-alikes (fullwidth, vertical
# presentation forms, tag characters, lenticular and other brackets the normaliser folds,
# box-drawing and mathematical bars) are rendered as ` / ` (spaced: joined, the pieces of a key
# split by bars would read as one, `wJal…/K7MD…/bPx…`), `(` and `)`. Format and control
# characters (bidi overrides such as U+202E, zero-width and tag characters, ESC) become a space:
# in a header they could reorder, hide or (on a terminal) overwrite the fields that follow, and
# dropped outright they would join what they split (`ghp_…\U000e0040…` into a whole token).
_HEADER_SEPARATORS = str.maketrans({
    **dict.fromkeys(map(ord, "|\uff5c\U000e007c\u00a6\u01c0\u2223\u2502\u2503\u2758\u23d0\u2016\uffe8\u05c0"), " / "),
    **dict.fromkeys(map(ord, BRACKETS), "("),
    **dict.fromkeys(map(ord, CLOSING_BRACKETS), ")"),
})


def _header_value(text: str) -> str:
    """A header field's value on one line, holding no separator, format or control character."""
    text = _LINE_BREAKS.sub(" ", text).translate(_HEADER_SEPARATORS)
    if text.isprintable():
        return text
    return "".join(" " if unicodedata.category(c) in ("Cc", "Cf") else c for c in text)


def header_fields(item: Any) -> str:
    """The tags and provenance fields of an item's header as rendered (`tags=… | provenance=…`).
    The recall guard reads them so too: what a prompt is given is this text, not the fields."""
    tags = ",".join(_header_value(t) for t in item.tags)
    # The header's fields stay on one line (a line break could forge a body) and hold no `|`,
    # `[` or `]` of their own (a tag could otherwise end its field and forge the provenance or
    # end the header).
    return f"tags={tags} | provenance={_header_value(provenance_label(item))}"


def header(item: Any) -> str:
    """The first line of an item's inject block: its id, type, tier, tags and provenance."""
    return "[MEMORY:" + neutralise(f" {item.id} | {item.type} | {item.tier} | {header_fields(item)}]")


def inject_block(item: Any) -> str:
    # The body is neutralised whole, so that a title ending in `[` cannot meet a content opening
    # with `/MEMORY]`.
    body = neutralise(f"{item.title}\n{item.content}\n")
    return f"{header(item)}\n{body}[/MEMORY]"


def inject(hits: Sequence[Hit], budget: int) -> tuple[str, list[str], int]:
    """Blocks of the best items that fit in `budget` tokens (a block never cut in half),
    counted as the text they make together (blocks joined by a line break): each block
    rounded up on its own, and a token per line break, refused blocks that fit."""
    blocks, ids, chars = [], [], 0
    for hit in hits:
        block = inject_block(hit.item)
        joined = chars + len(block) + (1 if blocks else 0)
        if count_tokens_of(joined) > budget:
            continue  # a later, shorter item may still fit
        blocks.append(block)
        ids.append(hit.item.id)
        chars = joined
    return "\n".join(blocks), ids, count_tokens_of(chars)


def catalog(hits: Sequence[Hit], k: int) -> list[dict[str, Any]]:
    # The catalog is injected too (hybrid mode): its text fields are neutralised like a block's.
    return [{"id": h.item.id, "title": neutralise(h.item.title), "tags": [neutralise(t) for t in h.item.tags],
             "tier": h.item.tier, "type": h.item.type, "score": round(h.score, 4)} for h in hits[:k]]


def recall(hits: Sequence[Hit], mode: str, budget: int, catalog_k: int,
           admits: Callable[[Any], bool] | None = None) -> dict[str, Any]:
    """The recall answer for ranked `hits`. `admits` (guard.py) says whether an item may be
    rendered into a prompt; those it refuses are left out and named under `withheld`."""
    out: dict[str, Any] = {"mode": mode}
    if admits is not None:
        verdicts = [admits(h.item) for h in hits]
        out["withheld"] = [h.item.id for h, ok in zip(hits, verdicts) if not ok]
        hits = [h for h, ok in zip(hits, verdicts) if ok]
    if mode in ("inject", "hybrid"):
        text, ids, used = inject(hits, budget)
        out.update(text=text, injected=ids, tokens=used, budget=budget)
    if mode in ("catalog", "hybrid"):
        entries = catalog(hits, catalog_k)
        out["catalog"] = entries
        out["catalog_text"] = json.dumps({"memory_catalog": entries}, ensure_ascii=False)
    return out
