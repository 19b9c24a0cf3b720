"""Rules as data: what a rule is, what a hit records, and rules built from config dicts.

A Rule says which family it belongs to and how it matches (a regex, optionally confirmed
per match, or a callable on the whole text). A RuleHit names the rule and the field, with a
human reason; neither ever carries the text that matched, so a refused secret is not echoed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Callable, Mapping

from ...errors import ConfigError

HARD = "hard"
SOFT = "soft"
SEVERITIES = (HARD, SOFT)

SECRET = "secret"
INJECTION = "injection"
STRUCTURE = "structure"
PROVENANCE = "provenance"
KINDS = (SECRET, INJECTION, STRUCTURE, PROVENANCE)
VIEWS = ("", "text", "lower", "prose", "long")
# Keys and tokens are at least this long: shorter words never need the secret scan.
LONG_TOKEN = 16


@dataclass(frozen=True)
class Rule:
    """One detection rule.

    `pattern` is searched in the rule's view; `accept`, if given, must confirm a match
    (placeholder filtering, entropy, checksums). `check` replaces the pattern with a callable
    on the whole view. Two cheap prefilters keep the cost per text low:

    - `needles`: the rule runs only if one of these lower-case literals is in the view
      (for anchored rules without needles, the anchors serve as needles);
    - `anchors`: once the needles passed, the pattern is only searched in windows around
      occurrences of these literals (`window` = characters before, after), never over the
      whole text.

    `prefilter`, optional, is a cheap necessary condition on the view for a rule that has no
    literal to gate on: the rule only runs where it returns True, and a text on which every
    rule's gate and prefilter fails is accepted without running any rule.

    `shape`, optional, for a rule given as a `check` on the lower-case or prose view: a regex
    that matches wherever the rule can fire (a necessary condition on its view, prefilter
    included). It is never run in Python; the native prefilter rules the rule out where the
    shape is not found, so neither its prefilter nor its check runs there.

    `native`: whether the native prefilter may compile the looser form of `pattern` and rule
    the rule out where it is not found. False for a pattern whose looser form takes the native
    compiler long (large alternations between wide gaps): the rule is then gated by its needles
    and anchors alone, as without the native prefilter.

    `finder`, optional, is a regex that matches wherever `pattern` does (typically `pattern`
    without its leading look-behind, which stops the regex engine from skipping ahead to a
    literal prefix): it is searched first, and `pattern` only from its first match on.

    `view` picks the text the rule reads: "text" (normalised, case kept), "lower",
    "prose" (lower case, accents stripped) or "long" (only the long whitespace-free tokens,
    case kept: where keys and tokens live). Empty means "long" for secrets, "prose" for
    injections.
    """

    id: str
    kind: str
    description: str
    pattern: re.Pattern[str] | None = None
    accept: Callable[[re.Match[str]], bool] | None = None
    check: Callable[[str], bool] | None = None
    severity: str = HARD
    family: str = ""
    needles: tuple[str, ...] = ()
    anchors: tuple[str, ...] = ()
    window: tuple[int, int] = (120, 240)
    view: str = ""
    finder: re.Pattern[str] | None = None
    prefilter: Callable[[str], bool] | None = None
    shape: re.Pattern[str] | None = None
    native: bool = True

    def __post_init__(self) -> None:
        if self.severity not in SEVERITIES:
            raise ConfigError(f"rule {self.id}: severity must be one of {SEVERITIES}")
        if (self.pattern is None) == (self.check is None):
            raise ConfigError(f"rule {self.id}: give exactly one of pattern or check")
        if self.view not in VIEWS:
            raise ConfigError(f"rule {self.id}: view must be one of {VIEWS}")
        if self.anchors and (self.pattern is None or self.reads not in ("lower", "prose")):
            raise ConfigError(f"rule {self.id}: anchors need a pattern on the lower or prose view")

    @property
    def reads(self) -> str:
        """The view this rule is matched against."""
        return self.view or ("prose" if self.kind == INJECTION else "long")

    def matches(self, text: str, pos: int = 0, endpos: int | None = None) -> bool:
        assert self.pattern is not None
        end = len(text) if endpos is None else endpos
        if self.finder is not None:
            # No match of `pattern` starts before the finder's first match: finditer from
            # there yields the same matches.
            first = self.finder.search(text, pos, end)
            if first is None:
                return False
            pos = first.start()
        if self.accept is None:
            return self.pattern.search(text, pos, end) is not None
        return any(self.accept(m) for m in self.pattern.finditer(text, pos, end))

    def fires(self, text: str) -> bool:
        """Does the rule match `text` (its view)? Prefilters are applied here too."""
        if self.needles and not any(n in text.lower() for n in self.needles):
            return False
        if self.prefilter is not None and not self.prefilter(text):
            return False
        if self.check is not None:
            return self.check(text)
        if not self.anchors:
            return self.matches(text)
        return any(self.matches(text, a, b) for a, b in self.windows(text.lower()))

    def windows(self, lowered: str) -> list[tuple[int, int]]:
        """Merged [start, end) windows around anchor occurrences in the lower-cased view."""
        back, ahead = self.window
        spans: list[tuple[int, int]] = []
        for anchor in self.anchors:
            at = lowered.find(anchor)
            while at != -1:
                spans.append((max(0, at - back), at + len(anchor) + ahead))
                at = lowered.find(anchor, at + 1)
        spans.sort()
        merged: list[tuple[int, int]] = []
        for a, b in spans:
            if merged and a <= merged[-1][1]:
                merged[-1] = (merged[-1][0], max(b, merged[-1][1]))
            else:
                merged.append((a, b))
        return merged


@dataclass(frozen=True)
class RuleHit:
    """A rule that fired: which rule, of what kind and severity, why, and in which field."""

    rule_id: str
    kind: str
    severity: str
    reason: str
    field: str = "content"

    def to_dict(self) -> dict[str, str]:
        return {"rule": self.rule_id, "kind": self.kind, "severity": self.severity,
                "reason": self.reason, "field": self.field}


_FLAG_LETTERS = {"i": re.IGNORECASE, "m": re.MULTILINE, "s": re.DOTALL, "x": re.VERBOSE}


def rule_from_dict(spec: Mapping[str, Any]) -> Rule:
    """Build a regex rule from config: {id, kind, pattern, severity, description[, flags]}.

    Patterns for kind "injection" are matched against the lower-case prose view, so they
    are compiled case-insensitively; secret patterns see the whole normalised text (view
    "text") unless `view` says otherwise, and honour `flags`.
    """
    missing = [k for k in ("id", "pattern") if not spec.get(k)]
    if missing:
        raise ConfigError(f"extra rule is missing {', '.join(missing)}")
    kind = str(spec.get("kind", SECRET))
    if kind not in (SECRET, INJECTION):
        raise ConfigError(f"extra rule {spec['id']}: kind must be 'secret' or 'injection'")
    flags = 0
    for letter in str(spec.get("flags", "")):
        flags |= _FLAG_LETTERS.get(letter, 0)
    if kind == INJECTION:
        flags |= re.IGNORECASE
    try:
        pattern = re.compile(str(spec["pattern"]), flags)
    except re.error as e:
        raise ConfigError(f"extra rule {spec['id']}: bad pattern: {e}") from e
    return Rule(
        id=str(spec["id"]),
        kind=kind,
        view=str(spec.get("view") or ("prose" if kind == INJECTION else "text")),
        description=str(spec.get("description") or f"matches configured rule {spec['id']}"),
        pattern=pattern,
        severity=str(spec.get("severity", HARD)),
        family=str(spec.get("family", "config")),
    )
