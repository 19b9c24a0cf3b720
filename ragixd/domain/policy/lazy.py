"""Regular expressions compiled at their first use, not where they are written.

Owns lazy_compile. The write policy writes ~600 regular expressions; compiling them all took
~0.4 s of every daemon start (and of every process that builds a Policy), while a text seldom
reaches most of them: the native prefilter, or the rules' literal gates, rule a rule out before
its pattern runs. A LazyPattern answers `pattern` and `flags` (what the native prefilter's
cache key and translation read) without compiling, and compiles on the first search, match,
finditer, … ; from then on those are the compiled pattern's own bound methods, held in slots,
so a call costs what it costs on a re.Pattern. A pattern that does not compile fails at its
first use, not at import: `made()` lists every LazyPattern alive, so that a test compiles them
all.
"""

from __future__ import annotations

import re
import weakref
from typing import Any

# A global inline flag group, such as "(?i)" or "(?ms)".
_FLAG_GROUP = re.compile(r"\(\?([aiLmsux]+)\)")
_FLAG_LETTERS = {"a": re.ASCII, "i": re.IGNORECASE, "L": re.LOCALE, "m": re.MULTILINE, "s": re.DOTALL,
                 "u": re.UNICODE, "x": re.VERBOSE}
_METHODS = ("search", "match", "fullmatch", "finditer", "findall", "sub", "subn", "split")
_alive: "weakref.WeakSet[LazyPattern]" = weakref.WeakSet()


class LazyPattern:
    """A re.Pattern's interface, compiled at its first use (see the module's doc)."""

    __slots__ = ("pattern", "flags", "_given", "_compiled", "__weakref__", *_METHODS)

    def __init__(self, pattern: str, flags: int = 0) -> None:
        self.pattern = pattern
        self._given = flags
        self._compiled: re.Pattern[str] | None = None
        self.flags = _flags(pattern, flags)
        if self.flags < 0:  # flags the pattern sets where a quick read cannot tell: compile now
            self.flags = self.compiled().flags
        _alive.add(self)

    def compiled(self) -> re.Pattern[str]:
        compiled = self._compiled
        if compiled is None:
            compiled = re.compile(self.pattern, self._given)
            for name in _METHODS:
                setattr(self, name, getattr(compiled, name))
            self._compiled = compiled
        return compiled

    def __getattr__(self, name: str) -> Any:
        # Reached only for what the slots do not hold yet: the methods before the first use,
        # and the rest of re.Pattern's interface (groups, groupindex, scanner).
        if name.startswith("__"):
            raise AttributeError(name)
        return getattr(self.compiled(), name)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, LazyPattern):
            return (self.pattern, self._given) == (other.pattern, other._given)
        return NotImplemented

    def __hash__(self) -> int:
        return hash((self.pattern, self._given))

    def __reduce__(self) -> tuple[Any, ...]:
        return LazyPattern, (self.pattern, self._given)

    def __repr__(self) -> str:
        return f"LazyPattern({self.pattern!r}, {self._given})"


def lazy_compile(pattern: str, flags: int = 0) -> LazyPattern:
    """re.compile(pattern, flags), done at the first search, match, … instead of now."""
    return LazyPattern(pattern, flags)


def made() -> list[LazyPattern]:
    """Every LazyPattern alive in this process."""
    return list(_alive)


def _flags(pattern: str, flags: int) -> int:
    """re.compile(pattern, flags).flags read without compiling: the flags given, those of the
    global flag groups the pattern starts with, and UNICODE for a str pattern without ASCII;
    -1 when a flag group stands further in (a verbose pattern's leading space, say)."""
    if not isinstance(pattern, str):
        return -1
    pos = 0
    while (group := _FLAG_GROUP.match(pattern, pos)) is not None:
        for letter in group.group(1):
            flags |= _FLAG_LETTERS[letter]
        pos = group.end()
    if _FLAG_GROUP.search(pattern, pos) is not None:
        return -1
    if not flags & re.ASCII:
        flags |= re.UNICODE
    return flags
