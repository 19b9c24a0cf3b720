"""Text normalisation before matching: what the rules see instead of the raw text.

Owns the canonical form (`normalize`: invisible characters removed, NFKC, combining marks
removed, look-alike letters folded to Latin), the lower-case "prose" form the phrase rules read (accents stripped) and
the "squeezed" form (letters only, leetspeak undone) that obfuscated phrases cannot escape.
Pure functions, no state.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from .lazy import lazy_compile

# Format characters (Unicode category Cf) and other invisibles that change nothing on screen.
_INVISIBLE_RANGES = (
    (0x00AD, 0x00AD), (0x034F, 0x034F), (0x061C, 0x061C), (0x115F, 0x1160), (0x17B4, 0x17B5),
    (0x180B, 0x180F), (0x200B, 0x200F), (0x202A, 0x202E), (0x2060, 0x206F), (0x3164, 0x3164),
    (0xFE00, 0xFE0F), (0xFEFF, 0xFEFF), (0xFFA0, 0xFFA0), (0xFFF9, 0xFFFB), (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A), (0x2800, 0x2800), (0xE0000, 0xE001F), (0xE0080, 0xE0FFF),
)
# Look-alike letters an attacker substitutes so that a keyword no longer matches.
_CONFUSABLES = {
    # Cyrillic
    "а": "a", "в": "b", "е": "e", "ё": "e", "к": "k", "м": "m", "н": "h", "о": "o", "р": "p",
    "с": "c", "т": "t", "у": "y", "х": "x", "і": "i", "ї": "i", "ј": "j", "ѕ": "s", "ԁ": "d",
    "ԛ": "q", "ԝ": "w", "һ": "h", "ӏ": "l", "ь": "b", "ʏ": "y", "ɡ": "g", "ɑ": "a", "ɩ": "i",
    "А": "A", "В": "B", "Е": "E", "Ё": "E", "Ѕ": "S", "І": "I", "Ї": "I", "Ј": "J", "К": "K",
    "М": "M", "Н": "H", "О": "O", "Р": "P", "С": "C", "Т": "T", "Х": "X", "У": "Y", "Ү": "Y",
    "Ԁ": "D", "Ԛ": "Q", "Ԝ": "W", "Ь": "b", "Ӏ": "l",
    # Greek
    "α": "a", "β": "b", "ε": "e", "ι": "i", "κ": "k", "ν": "v", "ο": "o", "ρ": "p", "τ": "t",
    "υ": "u", "χ": "x", "γ": "y", "ω": "w", "ϲ": "c", "ϳ": "j",
    "Α": "A", "Β": "B", "Ε": "E", "Ζ": "Z", "Η": "H", "Ι": "I", "Κ": "K", "Μ": "M", "Ν": "N",
    "Ο": "O", "Ρ": "P", "Τ": "T", "Υ": "Y", "Χ": "X", "Ϲ": "C",
    # Armenian and Latin small capitals / dotless forms
    "օ": "o", "ս": "u", "ց": "g", "հ": "h", "ո": "n", "ı": "i", "ȷ": "j",
    "ᴀ": "a", "ʙ": "b", "ᴄ": "c", "ᴅ": "d", "ᴇ": "e", "ꜰ": "f", "ʜ": "h", "ɪ": "i", "ᴊ": "j",
    "ᴋ": "k", "ʟ": "l", "ᴍ": "m", "ɴ": "n", "ᴏ": "o", "ᴘ": "p", "ʀ": "r", "ꜱ": "s", "ᴛ": "t",
    "ᴜ": "u", "ᴠ": "v", "ᴡ": "w", "ᴢ": "z",
    # Typographic punctuation
    "\u2018": "'", "\u2019": "'", "\u201a": "'", "\u201b": "'", "\u2032": "'",
    "\u201c": '"', "\u201d": '"', "\u201e": '"', "\u201f": '"', "\u2033": '"',
    "\u00ab": '"', "\u00bb": '"', "\u2010": "-", "\u2011": "-", "\u2012": "-", "\u2013": "-",
    "\u2014": "-", "\u2015": "-", "\u2212": "-", "\u2028": "\n", "\u2029": "\n",
    # Cherokee, Lisu and Coptic letters drawn like M, E, O, R, Y (capital and small forms)
    "Ꮇ": "M", "ꮇ": "m", "ꓟ": "M", "Ⲙ": "M", "ⲙ": "m", "Ꭼ": "E", "ꭼ": "e", "ꓰ": "E", "Ⲉ": "E", "ⲉ": "e",
    "Ⲟ": "O", "ⲟ": "o", "ꓳ": "O", "Ꭱ": "R", "ꭱ": "r", "Ꮢ": "R", "ꮢ": "r", "ꓣ": "R", "ꓬ": "Y",
    "Ꭹ": "Y", "ꭹ": "y", "Ⲩ": "Y", "ⲩ": "y", "ү": "y",
    # Square-bracket, solidus and colon look-alikes (lenticular, tortoise-shell, white and math
    # brackets; division, fraction and big solidus; ratio and modifier colons), which a reader
    # takes for the punctuation of markup such as recall's `[/MEMORY]`.
    "\u3010": "[", "\u3016": "[", "\u301a": "[", "\u27e6": "[", "\u2045": "[", "\u3014": "[", "\u3018": "[",
    "\u298b": "[", "\u298d": "[", "\u298f": "[", "\u27ec": "[", "\u2997": "[",
    "\u3011": "]", "\u3017": "]", "\u301b": "]", "\u27e7": "]", "\u2046": "]", "\u3015": "]", "\u3019": "]",
    "\u298c": "]", "\u298e": "]", "\u2990": "]", "\u27ed": "]", "\u2998": "]",
    "\u2215": "/", "\u2044": "/", "\u29f8": "/", "\u2571": "/", "\u27cb": "/",
    "\ua789": ":", "\u2236": ":", "\u02d0": ":", "\u02f8": ":", "\u05c3": ":", "\u205a": ":",
}


def _invisible_table() -> dict[int, str | None]:
    table: dict[int, str | None] = {}
    for lo, hi in _INVISIBLE_RANGES:
        for cp in range(lo, hi + 1):
            table[cp] = None
    for cp in range(0xE0020, 0xE007F):
        table[cp] = chr(cp - 0xE0000)  # Unicode tag characters smuggle ASCII: reveal it
    for cp in list(range(0x00, 0x09)) + [0x0B, 0x0C] + list(range(0x0E, 0x20)) + [0x7F]:
        table[cp] = None
    for cp in range(0x80, 0xA0):
        table[cp] = None
    return table


_INVISIBLE = _invisible_table()
_FOLD = {ord(k): v for k, v in _CONFUSABLES.items()}
# A terminal's control sequences (CSI, 7-bit `ESC [` or 8-bit U+009B: `ESC[8m` conceals, `ESC[2K`
# erases) go whole, parameters and final letter included: removing only the ESC left `8mIgnore
# all previous instructions`, one word that no phrase rule read. A bare `ESC[M` / `ESC[m` stays
# as `[M` when `emory` follows, so that it cannot hide the `[` of a memory-block marker.
_ANSI_CSI = lazy_compile(r"(?:\x1b\[|\x9b)(?:[0-9;?]+[A-Za-z]|[A-LN-Za-ln-z]|[Mm](?!\s*[Ee]\s*[Mm]\s*[Oo]\s*[Rr]\s*[Yy]))")
_ASCII_CONTROL = lazy_compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
# Bytes an ASCII text may hold without needing any normalisation: printable ASCII and layout.
_ASCII_PLAIN = bytes(range(0x20, 0x7F)) + b"\t\n\r"
# Translating with a dict costs a lookup per character of the whole text. Instead the distinct
# non-ASCII characters are collected once (_non_ascii_chars: usually a handful of characters)
# and only those found in a table are replaced, with str.replace: same result as translate,
# because no replacement is itself a key of its table.
_COMBINING = lazy_compile(r"[\u0300-\u036f\u0483-\u0489\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]")

# The squeezed view keeps letters only, with leetspeak digits read as letters, so that
# `1gn0re`, `i g n o r e` and `i-g-n-o-r-e` all read `ignore`.
_LEET, _LEET_AS = "0134578@$", "oieastbas"
_SQUEEZE_TABLE = bytes.maketrans(_LEET.encode("ascii"), _LEET_AS.encode("ascii"))
_SQUEEZE_DROP = bytes(c for c in range(256) if not (97 <= c <= 122) and chr(c) not in _LEET)


def _has_ascii_control(raw: bytes) -> bool:
    """Any C0 control other than tab, newline and carriage return, or DEL, in ASCII bytes."""
    return bool(raw.translate(None, _ASCII_PLAIN))


_ASCII_BYTES = bytes(range(128))


def _non_ascii_chars(text: str) -> set[str]:
    # Every byte of a non-ASCII character's UTF-8 is 0x80 or above: deleting the ASCII bytes
    # leaves those characters' bytes exactly (surrogates pass through as they are). Two C
    # passes, several times cheaper than a regex stepping through the text.
    raw = text.encode("utf-8", "surrogatepass").translate(None, _ASCII_BYTES)
    return set(raw.decode("utf-8", "surrogatepass"))


def _strip_controls(text: str) -> str:
    """The text without terminal control sequences and ASCII control characters; each regex
    only runs when what it removes can be there (ESC or CSI, a control byte)."""
    if "\x1b" in text or "\x9b" in text:
        text = _ANSI_CSI.sub("", text)
    if _has_ascii_control(text.encode("ascii", "ignore")):
        text = _ASCII_CONTROL.sub("", text)
    return text


def _replace_all(text: str, chars: list[str], table: dict[int, str | None]) -> str:
    for char in chars:
        text = text.replace(char, table[ord(char)] or "")
    return text


def normalize(text: str) -> str:
    """Canonical matching form; idempotent. Keeps case, so secrets keep their shape."""
    if text.isascii():
        # Fast path, most texts: only ASCII control characters can need removing.
        if text.isprintable() or not _has_ascii_control(text.encode("ascii")):
            return text
        return _ASCII_CONTROL.sub("", _ANSI_CSI.sub("", text))
    return normalize_unicode(text)


def normalize_unicode(text: str) -> str:
    """The general path of `normalize` (any text; for ASCII text it gives the same result)."""
    odd = _non_ascii_chars(text)
    invisible = [c for c in odd if ord(c) in _INVISIBLE]
    if invisible or _has_ascii_control(text.encode("ascii", "ignore")):
        text = _replace_all(_strip_controls(text), invisible, _INVISIBLE)
        odd = _non_ascii_chars(text)
    if not unicodedata.is_normalized("NFKC", text):
        text = unicodedata.normalize("NFKC", text)
        odd = _non_ascii_chars(text)
    marked = [c for c in odd if _carries_marks(c)]
    if marked:
        plain = {ord(c): _unmarked(c) for c in marked}
        text = _replace_all(text, marked, plain)
        odd = odd.difference(marked).union(_non_ascii_chars("".join(plain.values())))  # type: ignore[arg-type]
        if not unicodedata.is_normalized("NFKC", text):
            text = unicodedata.normalize("NFKC", text)
            odd = _non_ascii_chars(text)
    confusable = [c for c in odd if ord(c) in _FOLD]
    if confusable:
        text = _replace_all(text, confusable, _FOLD)
        if not unicodedata.is_normalized("NFKC", text):
            text = unicodedata.normalize("NFKC", text)
    return text


# Nonspacing and enclosing marks: accents, and the combining characters an attacker puts
# after each letter of a key (`A\u0301KIA…` composes to `ÁKIA…` and no longer reads `AKIA`).
_MARK_CATEGORIES = ("Mn", "Me")


@lru_cache(maxsize=4096)  # the distinct non-ASCII characters of texts: few, and they repeat
def _carries_marks(char: str) -> bool:
    """Is `char` a mark, or does it decompose canonically into one (é, Á, ǹ)?"""
    if unicodedata.category(char) in _MARK_CATEGORIES:
        return True
    decomposition = unicodedata.decomposition(char)
    return bool(decomposition) and not decomposition.startswith("<") and any(
        unicodedata.category(c) in _MARK_CATEGORIES for c in unicodedata.normalize("NFD", char))


@lru_cache(maxsize=4096)
def _unmarked(char: str) -> str:
    """`char` without its marks: NFKD, every nonspacing or enclosing mark dropped, NFKC (`Á`
    -> `A`, a lone U+0301 -> ""). Rules then read keys and keywords written with accents or
    combining marks as the plain letters. Per distinct character, so the text itself is
    neither decomposed nor recomposed (Hangul and other scripts stay as they are)."""
    bare = "".join(c for c in unicodedata.normalize("NFKD", char) if unicodedata.category(c) not in _MARK_CATEGORIES)
    return unicodedata.normalize("NFKC", bare)


def prose_view(normalized: str) -> str:
    """Lower-case form of already-normalised text with accents stripped, for phrase rules."""
    return prose_of_lower(normalized.lower())


def prose_of_lower(lower: str) -> str:
    """`prose_view` of a text already in lower case: `lower` itself, the same object, when
    nothing is stripped, so that a caller can tell the two views are one and scan it once."""
    if lower.isascii():
        return lower
    prose = _COMBINING.sub("", unicodedata.normalize("NFKD", lower))
    return lower if prose == lower else prose


def squeezed_shape(word: str) -> str:
    """A regex matching, in a view, exactly the runs that `squeeze` turns into `word` (a word
    of letters a-z): each letter or a leetspeak digit read as it, with anything squeeze drops
    (upper case, non-ASCII, punctuation, space) between them."""
    dropped = "[^a-z" + re.escape(_LEET) + "]*"
    return dropped.join("[" + re.escape(letter + "".join(d for d, a in zip(_LEET, _LEET_AS) if a == letter)) + "]"
                        for letter in word)


@lru_cache(maxsize=4)  # the obfuscation rule's prefilter and check squeeze the same view in a row
def squeeze(prose: str) -> str:
    """Letters only, leetspeak digits read as letters: the view obfuscation cannot split."""
    raw = prose.encode("ascii", "ignore").translate(_SQUEEZE_TABLE, _SQUEEZE_DROP)
    return raw.decode("ascii")
