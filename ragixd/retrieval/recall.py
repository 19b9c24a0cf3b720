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
from typing import Any, Sequence

from ..domain.markers import neutralise
from .hybrid import Hit

MODES = ("inject", "catalog", "hybrid")


def count_tokens(text: str) -> int:
    return math.ceil(len(text) / 4)


def provenance_label(item: Any) -> str:
    prov = item.provenance
    return f"{prov.source_kind}:{prov.source_id}" if prov.source_id else prov.source_kind


_LINE_BREAKS = re.compile(r"[\r\n\x0b\x0c\x1c-\x1e\x85\u2028\u2029]+")


def inject_block(item: Any) -> str:
    tags = ",".join(item.tags)
    # The header's fields stay on one line (a line break could forge a body), and each part is
    # neutralised whole, with the text around it, so that a field ending in `[MEMORY` cannot
    # meet the header's `]`, nor a title ending in `[` a content opening with `/MEMORY]`.
    fields = f" {item.id} | {item.type} | {item.tier} | tags={tags} | provenance={provenance_label(item)}]"
    head = "[MEMORY:" + neutralise(_LINE_BREAKS.sub(" ", fields))
    body = neutralise(f"{item.title}\n{item.content}\n")
    return f"{head}\n{body}[/MEMORY]"


def inject(hits: Sequence[Hit], budget: int) -> tuple[str, list[str], int]:
    """Blocks of the best items that fit in `budget` tokens (a block never cut in half)."""
    blocks, ids, used = [], [], 0
    for hit in hits:
        block = inject_block(hit.item)
        cost = count_tokens(block) + (1 if blocks else 0)
        if used + cost > budget:
            continue  # a later, shorter item may still fit
        blocks.append(block)
        ids.append(hit.item.id)
        used += cost
    return "\n".join(blocks), ids, used


def catalog(hits: Sequence[Hit], k: int) -> list[dict[str, Any]]:
    # The catalog is injected too (hybrid mode): its text fields are neutralised like a block's.
    return [{"id": h.item.id, "title": neutralise(h.item.title), "tags": [neutralise(t) for t in h.item.tags],
             "tier": h.item.tier, "type": h.item.type, "score": round(h.score, 4)} for h in hits[:k]]


def recall(hits: Sequence[Hit], mode: str, budget: int, catalog_k: int) -> dict[str, Any]:
    out: dict[str, Any] = {"mode": mode}
    if mode in ("inject", "hybrid"):
        text, ids, used = inject(hits, budget)
        out.update(text=text, injected=ids, tokens=used, budget=budget)
    if mode in ("catalog", "hybrid"):
        entries = catalog(hits, catalog_k)
        out["catalog"] = entries
        out["catalog_text"] = json.dumps({"memory_catalog": entries}, ensure_ascii=False)
    return out
