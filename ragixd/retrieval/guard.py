"""What recall may put into a prompt: items the current write policy still accepts.

A memory stored before a rule existed (an older release, a rule added to the config since)
can hold a secret or an injection the policy now refuses; recall withholds it from the blocks
and the catalog it hands to a model, and names it. Search still returns it to its owner, who
can archive or correct it. Each item is checked once per revision (the verdict is cached by id
and updated_at), and only the items recall is about to render.
"""

from __future__ import annotations

import threading
from typing import Any

from ..domain.commands import GOVERNED_FIELDS
from ..domain.policy import HARD, INJECTION, SECRET, Policy
from .recall import header_fields

# Only these speak to what a text holds; a structure rule (size, provenance) is not a reason to
# withhold a memory that was stored under it.
_CONTENT_KINDS = (SECRET, INJECTION)
_CACHE_LIMIT = 50_000


def _fields(item: Any) -> dict[str, Any]:
    """The item as the policy read it on write: the fields callers write text into."""
    stored = item.to_dict()
    return {k: stored[k] for k in GOVERNED_FIELDS if stored.get(k) is not None}


class RecallGuard:
    """Decides, for the current policy, whether an item may be rendered into a prompt."""

    def __init__(self, policy: Policy) -> None:
        self.policy = policy
        self._verdicts: dict[tuple[str, str], tuple[str, ...]] = {}
        self._lock = threading.Lock()

    def admits(self, item: Any) -> bool:
        return not self.refusing_rules(item)

    def refusing_rules(self, item: Any) -> tuple[str, ...]:
        """The secret and injection rules the current policy refuses this item by (none: it
        may be rendered)."""
        key = (item.id, item.updated_at)
        known = self._verdicts.get(key)
        if known is not None:
            return known
        verdict = self.policy.evaluate(_fields(item), trusted=True)
        # and the block's header as recall renders it: its tags and source joined on one line
        # read differently from the fields apart
        rendered = self.policy.check_text(header_fields(item))
        rules = tuple(sorted({h.rule_id for h in (*verdict.hits, *rendered.hits)
                              if h.kind in _CONTENT_KINDS and h.severity == HARD}))
        with self._lock:
            if len(self._verdicts) >= _CACHE_LIMIT:
                self._verdicts.clear()
            self._verdicts[key] = rules
        return rules
