"""Views of a text that undo a split meant to slip past the rules: a key broken by a line
break (`joined_lines`), and words joined by punctuation or underscores (`spaced_words`).

Each returns "" when the text has nothing to undo, so most texts cost one byte-class pass.
The scan (scan.py) reads these views with the rules that can fire on them only: the
distinctive secret shapes (JOINABLE_RULES) on joined lines, the injection rules on spaced
words. Pure functions of the text, no state.
"""

from __future__ import annotations

import itertools

from .assignments import PASSWORD_KEYWORDS
from .lazy import lazy_compile
from .providers import PROVIDER_TOKENS
from .rules import LONG_TOKEN
from .secret_rules import strip_public_blocks

# The secret rules whose shapes are distinctive enough to read across a joined line break:
# prefixed provider keys, URLs with credentials and password assignments. The generic ones
# (high-entropy tokens, token assignments) would see two ordinary lines as one token.
JOINABLE_RULES = frozenset({f"secret.{row[0]}" for row in PROVIDER_TOKENS}
                           | {"secret.url_credentials", "secret.password_assignment"})
# One line break, optionally with spaces or tabs around it, between two token characters.
# The regex starts with the line break, a literal the regex engine skips to (a look-behind
# at every position costs ~5x more); the character before the break is tested apart.
_BREAK = lazy_compile(r"\n[ \t]*(?=[A-Za-z0-9_+/=\-])")
_TOKEN_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_+/=-")
# A break is worth joining when the join could complete what a rule of JOINABLE_RULES reads:
# a key (the runs of key characters on both sides make LONG_TOKEN or more with a digit), a
# URL with credentials (a "://" before the break and an "@" around it) or a password
# assignment (a password word earlier on the line). Wrapped prose and code lines
# (`…the\nend`, `x = f(a)\ny = 2`) are not joined, which keeps the view small.
_KEY_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_+/-")
_KEY_CLASSES = bytes(0x6B if chr(c) in _KEY_CHARS else 0x20 for c in range(256))
_DIGIT_CLASSES = bytes(0x64 if chr(c) in "0123456789" else 0x20 for c in range(256))
_REACH = 256  # characters looked at on each side of a break
# A YAML block scalar (`password: |-`, `secret: >`): the value starts on the next, indented line.
# After a password word, the indicator and that line break are cut, as a break inside a key is,
# so that the value is read after its key (`password: hunter2…`).
_BLOCK_SCALAR = lazy_compile(r":[ \t]*[|>][-+1-9]{0,2}[ \t]*\r?\n[ \t]*(?=\S)")


def _worth_joining(text: str, keys: bytes, digits: bytes, a: int, b: int, password_words: tuple[str, ...]) -> bool:
    left = keys.rfind(b" ", max(0, a - _REACH), a) + 1
    right = keys.find(b" ", b, b + _REACH)
    right = min(len(text), b + _REACH) if right == -1 else right
    if (a - left) + (right - b) >= LONG_TOKEN and (b"d" in digits[left:a] or b"d" in digits[b:right]):
        return True
    line = text.rfind("\n", max(0, a - _REACH), a) + 1
    if text.find("://", line, a) != -1 and text.find("@", line, b + _REACH) != -1:
        return True
    if password_words:
        before = text[line:a].lower()
        return any(word in before for word in password_words)
    return False


def joined_lines(text: str) -> str:
    """The lines around each line break that splits a key-looking run, with those breaks
    removed (`AKIA…\n…` -> `AKIA……`), one block a line; "" when there is none. Tags are
    joined by line breaks when scanned, so a key split across tags reads whole here too."""
    if "\n" not in text:
        return ""
    breaks = _BREAK.finditer(text)
    first = next(breaks, None)
    if first is None:
        return ""
    text = strip_public_blocks(text)  # public keys and certificates: random, wrapped, not secret
    if text is not first.string:
        breaks = _BREAK.finditer(text)
    else:
        breaks = itertools.chain((first,), breaks)
    cuts: list[tuple[int, int]] = []
    raw = text.encode("ascii", "replace")  # one byte per character: positions are the text's
    keys, digits = raw.translate(_KEY_CLASSES), raw.translate(_DIGIT_CLASSES)
    lower = text.lower()
    password_words = tuple(w for w in PASSWORD_KEYWORDS if w in lower)
    always = bool(password_words) or "://" in text  # else a break needs a digit near it
    for m in breaks:
        a, b = m.span()
        while a > 0 and text[a - 1] in " \t\r":
            a -= 1
        if not a or text[a - 1] not in _TOKEN_CHARS:
            continue
        if (always or b"d" in digits[max(0, a - _REACH):b + _REACH]) and _worth_joining(
                text, keys, digits, a, b, password_words):
            cuts.append((a, b))
    if password_words and (": |" in text or ": >" in text or ":|" in text or ":>" in text):
        cuts = _with_block_scalars(text, lower, password_words, cuts)
    if not cuts:
        return ""
    blocks: list[str] = []
    pieces: list[str] = []
    block_end = pos = -1
    for a, b in cuts:
        line_start = text.rfind("\n", 0, a) + 1
        if pieces and line_start > block_end:  # a new block: close the previous one
            blocks.append("".join(pieces) + text[pos:block_end])
            pieces = []
        if not pieces:
            pos = line_start
        pieces.append(text[pos:a])
        pos = b
        block_end = text.find("\n", b)
        if block_end == -1:
            block_end = len(text)
    blocks.append("".join(pieces) + text[pos:block_end])
    return "\n".join(blocks)


def _with_block_scalars(text: str, lower: str, password_words: tuple[str, ...],
                        cuts: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """`cuts` and the YAML block scalars opened after a password word on their line (the key
    kept with ': ', the indicator and the break cut), in order, none overlapping."""
    extra = []
    for m in _BLOCK_SCALAR.finditer(text):
        line = text.rfind("\n", 0, m.start()) + 1
        if any(word in lower[line:m.start()] for word in password_words):
            extra.append((m.start() + 1, m.end()))
    merged: list[tuple[int, int]] = []
    for a, b in sorted(cuts + extra):
        if merged and a < merged[-1][1]:
            continue
        merged.append((a, b))
    return merged


# Letters joined by these (`ignore-all-previous-instructions`, `ignore.all.previous…`,
# `ignore_all_previous_instructions`) read as words separated by spaces for the injection rules.
_WORD_JOINER = lazy_compile(r"(?<=[A-Za-z])[\-./](?=[A-Za-z])")
# Three words or more joined so, found in the text's bytes with every ASCII letter read as
# "a" and every joiner as "-" (one C-level pass; a regex over the text itself is ~10x slower).
_WORD_CLASSES = bytes(0x61 if chr(c).isascii() and chr(c).isalpha() else 0x2D if chr(c) in "-./_" else 0x20
                      for c in range(256))
_JOINED_CHAIN = lazy_compile(rb"a-a+-a")
_CHAIN_CONTEXT = (80, 120)  # characters kept before and after a chain, on its line
# Underscores also join the words of code identifiers (`ignore_previous_rules=False`): a chain
# with one is read as words only where it stands as prose, not touching code punctuation.
_CODE_BEFORE = frozenset(".=(,[`'\"")
_CODE_AFTER = frozenset("(=[`'\"")


def _code_identifier(text: str, a: int, b: int) -> bool:
    """Does the underscore chain text[a:b] stand as an identifier in code (an assignment, a
    call, an argument, an attribute path, a quoted name, a `def …:` or `if …:` line)?"""
    if "." in text[a:b]:
        return True  # an attribute path: `cfg.ignore_previous_rules`
    before = text[:a].rstrip(" \t")[-1:]
    rest = text[b:b + 40].lstrip(" \t")
    after = rest[:1]
    return (before in _CODE_BEFORE or after in _CODE_AFTER
            or (after == ":" and rest[1:2] in ("", "\n", "\r")))


def spaced_words(text: str) -> str:
    """Each run of three or more words joined by `-`, `.`, `/` or `_`, with its context on its
    line (a phrase rule needs what leads to the words and what follows them), the joiners read
    as spaces, one a line; "" when there is none."""
    # One byte per character (non-ASCII ones read "?"), so positions are the text's.
    classes = text.encode("ascii", "replace").translate(_WORD_CLASSES)
    chain = _JOINED_CHAIN.search(classes)
    if chain is None:
        return ""
    before, after = _CHAIN_CONTEXT
    windows: list[tuple[int, int]] = []
    source = text
    while chain is not None:
        a, b = chain.span()
        while b < len(classes) and classes[b] in b"a-":  # the rest of the chain
            b += 1
        chain = _JOINED_CHAIN.search(classes, b)
        if "_" in text[a:b]:
            if _code_identifier(text, a, b):
                continue
            source = source[:a] + source[a:b].replace("_", " ") + source[b:]  # same length
        lo = max(a - before, text.rfind("\n", max(0, a - before), a) + 1)
        line_end = text.find("\n", b, b + after)
        hi = min(len(text), b + after) if line_end == -1 else line_end
        if windows and lo <= windows[-1][1]:
            windows[-1] = (windows[-1][0], hi)
        else:
            windows.append((lo, hi))
    return _WORD_JOINER.sub(" ", "\n".join(source[lo:hi] for lo, hi in windows))


# A key or password spelt one character at a time (`s k _ l i v e _ …`, `password is S M K s % 0
# …`): eight or more single characters, each followed by one space, read with the spaces taken
# out, with what leads to them on their line. Such a run puts seven spaces in a row among the
# characters of one parity (`text[1::2]` or `text[::2]`): two slices and two substring tests
# rule most texts out (a search for the run's shape in a translated text is 3x dearer, its
# partial matches being at every space); the rest are read in the text's bytes with every
# non-space character read as "a".
_SPELL_CLASSES = bytes(0x20 if c == 0x20 else 0x0A if chr(c).isspace() else 0x61 for c in range(256))
_SPELL_RUN = lazy_compile(rb"(?<= )a(?: a){7,}(?= )")
_SPELL_CONTEXT = 80  # characters kept before a run, on its line


def spelled_out(text: str) -> str:
    """Each run of eight or more single characters separated by single spaces, joined, after
    up to 80 characters of its line, one a line; "" when there is none."""
    if "       " not in text[1::2] and "       " not in text[::2]:
        return ""
    classes = b" " + text.encode("ascii", "replace").translate(_SPELL_CLASSES) + b" "
    out: list[str] = []
    for m in _SPELL_RUN.finditer(classes):
        a, b = m.start() - 1, m.end() - 1  # positions in the text (one byte was prepended)
        lo = max(a - _SPELL_CONTEXT, text.rfind("\n", max(0, a - _SPELL_CONTEXT), a) + 1)
        out.append(text[lo:a] + text[a:b].replace(" ", ""))
    return "\n".join(out)
