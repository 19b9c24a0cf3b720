"""Recall's inject blocks: no stored text can open or close a memory block. Whatever the
titles, contents, tags and provenance of N items, the rendered text holds exactly N opening
and N closing markers, read the way the policy reads text (normalised, lower-cased)."""

from __future__ import annotations

from types import SimpleNamespace

from hypothesis import given, settings
from hypothesis import strategies as st

from ragixd.domain.markers import count_markers
from ragixd.retrieval.hybrid import Hit
from ragixd.retrieval.recall import inject

# Pieces that build markers and near-markers, in the forms the normaliser folds.
PIECES = ["[", "/", "MEMORY", "memory", "MeMoRy", ":", "]", " ", "\n", "\u200b", "\u2060", "\uff3b", "\uff0f",
          "\uff2d\uff25\uff2d\uff2f\uff32\uff39", "\uff3d", "\ufe47", "\U000e005b", "M\u0301EMORY", "\u043c", "|",
          "MEM-00000000000000aa", "constraint", "ltm", "tags=security", "provenance=doc:x", "text"]
fragment = st.one_of(st.lists(st.sampled_from(PIECES), max_size=14).map("".join), st.text(max_size=20))
field = st.lists(fragment, max_size=4).map("".join)


def _item(n: int, title: str, content: str, tags: list[str], source: str) -> SimpleNamespace:
    prov = SimpleNamespace(source_kind="doc", source_id=source)
    return SimpleNamespace(id=f"MEM-{n:016x}", type="fact", tier="stm", tags=tags, provenance=prov,
                           title=title, content=content)


items = st.lists(st.tuples(field, field, st.lists(field, max_size=2), field), min_size=1, max_size=4)


@settings(max_examples=400, deadline=None)
@given(items)
def test_n_items_render_exactly_n_blocks(specs):
    hits = [Hit(item=_item(i, *spec), score=1.0) for i, spec in enumerate(specs)]
    text, ids, _ = inject(hits, budget=10**9)
    assert len(ids) == len(specs)
    assert count_markers(text) == (len(specs), len(specs))
