"""Text normalisation before matching: what the rules see instead of the raw text.

Owns the canonical form (`normalize`: invisible characters removed, NFKC, look-alike letters
folded to Latin) and the lower-case "prose" form the injection rules read (accents stripped,
leetspeak and letter-splitting undone, whitespace collapsed). Pure functions, no state.
"""

from __future__ import annotations

import re
import unicodedata

# Format characters (Unicode category Cf) and other invisibles that change nothing on screen.
_INVISIBLE_RANGES = (
    (0x00AD, 0x00AD), (0x034F, 0x034F), (0x061C, 0x061C), (0x115F, 0x1160), (0x17B4, 0x17B5),
    (0x180B, 0x180F), (0x200B, 0x200F), (0x202A, 0x202E), (0x2060, 0x206F), (0x3164, 0x3164),
    (0xFE00, 0xFE0F), (0xFEFF, 0xFEFF), (0xFFA0, 0xFFA0), (0xFFF9, 0xFFFB), (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A), (0xE0000, 0xE001F), (0xE0080, 0xE0FFF),
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
_ASCII_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
_COMBINING = re.compile(r"[\u0300-\u036f\u0483-\u0489\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]")

_LEET_HINT = re.compile(r"[a-z][0134578@$|!]+[a-z]|\b[013457@$][a-z]{2,}")
_LEET_TOKEN = re.compile(r"[a-z0-9@$|!]*[a-z][a-z0-9@$|!]*")
_LEET_INSIDE = re.compile(r"[a-z][0134578@$|!]+[a-z]|^[013457@$|!][a-z]{2,}")
_LEET = str.maketrans({"0": "o", "1": "i", "3": "e", "4": "a", "5": "s", "7": "t", "8": "b",
                       "@": "a", "$": "s", "|": "l", "!": "i"})
_SPACED_LETTERS = re.compile(r"(?<![\w])(?:[a-z][ ._*\-]){3,}[a-z](?![\w])")
_SPLIT_SINGLE = re.compile(r"(?<![a-z])([a-z])[-_.*]([a-z]{2,})|([a-z]{2,})[-_.*]([a-z])(?![a-z])")
_HSPACE = re.compile(r"[ \t\f\v]+")
_NEWLINES = re.compile(r" ?\n[\s]*")


def normalize(text: str) -> str:
    """Canonical matching form; idempotent. Keeps case, so secrets keep their shape."""
    if text.isascii():
        return _ASCII_CONTROL.sub("", text) if _ASCII_CONTROL.search(text) else text
    text = unicodedata.normalize("NFKC", text.translate(_INVISIBLE))
    folded = text.translate(_FOLD)
    if folded != text:
        folded = unicodedata.normalize("NFKC", folded)
    return folded


def _unleet(match: re.Match[str]) -> str:
    token = match.group()
    # Only fold tokens where leet characters sit inside letters: `1gn0re`, not `mp3` or `x86`.
    if token.isalpha() or not _LEET_INSIDE.search(token):
        return token
    folded = token.translate(_LEET)
    return folded if folded.isalpha() else token


def _join_spaced(match: re.Match[str]) -> str:
    return re.sub(r"[ ._*\-]", "", match.group())


def _join_split(match: re.Match[str]) -> str:
    return "".join(g for g in match.groups() if g)


def prose_view(normalized: str) -> str:
    """Lower-case, de-obfuscated form of already-normalised text, for phrase rules."""
    text = normalized.lower()
    if not text.isascii():
        text = _COMBINING.sub("", unicodedata.normalize("NFKD", text))
    if _LEET_HINT.search(text):
        text = _LEET_TOKEN.sub(_unleet, text)
    text = _SPACED_LETTERS.sub(_join_spaced, text)
    for _ in range(3):  # `u-s-er` needs two passes; stop as soon as nothing changes
        joined = _SPLIT_SINGLE.sub(_join_split, text)
        if joined == text:
            break
        text = joined
    text = _HSPACE.sub(" ", text)
    return _NEWLINES.sub("\n", text)
