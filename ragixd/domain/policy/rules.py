"""Rules as data: what a rule is, what a hit records, and rules built from config dicts.

A Rule says which family it belongs to and how it matches (a regex, optionally confirmed
per match, or a callable on the whole text). A RuleHit names the rule and the field, with a
human reason; neither ever carries the text that matched, so a refused secret is not echoed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
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


@dataclass(frozen=True)
class Rule:
    """One detection rule.

    `pattern` is searched in the text view for the rule's kind (secrets: normalised text,
    case kept; injections: the lower-case prose view). `accept`, if given, must confirm a
    match (placeholder filtering, entropy, checksums). `check` replaces the pattern with a
    callable on the whole view. `needles` is a cheap prefilter: the rule runs only if one of
    these lower-case substrings occurs in the lower-cased text.
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

    def __post_init__(self) -> None:
        if self.severity not in SEVERITIES:
            raise ConfigError(f"rule {self.id}: severity must be one of {SEVERITIES}")
        if (self.pattern is None) == (self.check is None):
            raise ConfigError(f"rule {self.id}: give exactly one of pattern or check")

    def applies(self, lowered: str) -> bool:
        return not self.needles or any(n in lowered for n in self.needles)

    def fires(self, text: str) -> bool:
        if self.check is not None:
            return self.check(text)
        assert self.pattern is not None
        if self.accept is None:
            return self.pattern.search(text) is not None
        return any(self.accept(m) for m in self.pattern.finditer(text))


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
    are compiled case-insensitively; other kinds see the normalised text and honour `flags`.
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
        description=str(spec.get("description") or f"matches configured rule {spec['id']}"),
        pattern=pattern,
        severity=str(spec.get("severity", HARD)),
        family=str(spec.get("family", "config")),
    )


@dataclass(frozen=True)
class RuleSet:
    """Rules grouped by the view they read."""

    secret: tuple[Rule, ...] = field(default_factory=tuple)
    injection: tuple[Rule, ...] = field(default_factory=tuple)
