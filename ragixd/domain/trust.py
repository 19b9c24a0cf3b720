"""Trust levels and the stores each may see (seed 001's trust gating)."""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import Forbidden

LEVELS = ("full", "inner", "familiar", "public")
VISIBLE = {
    "full": ("private", "shared", "social"),
    "inner": ("shared", "social"),
    "familiar": ("social",),
    "public": (),
}
DEFAULT_STORE = {"full": "private", "inner": "shared", "familiar": "social", "public": "social"}


@dataclass(frozen=True)
class Caller:
    """Who sent a request: their trust level and a label for the audit trail."""

    trust: str = "full"
    label: str = "local"

    @property
    def stores(self) -> tuple[str, ...]:
        return VISIBLE[self.trust]

    def default_store(self) -> str:
        return DEFAULT_STORE[self.trust]

    def check_store(self, store: str) -> None:
        if store not in self.stores:
            raise Forbidden(f"trust level {self.trust} may not write to store {store}", store=store)
