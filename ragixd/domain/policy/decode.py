"""Embedded encodings decoded once, so that an encoded secret or instruction is still seen.

Owns finding base64, hex, `\\xNN`, percent and HTML-entity encoded runs inside a text and
returning the decoded text when it is readable. Decoding is applied once, never recursively,
and bounded by the characters it reads and writes so that a hostile input cannot make it
expensive. Only the runs actually decoded count against the budget: runs skipped without
decoding (one-case words) cost nothing but the regex that found them, so no number of them
can push an encoded secret out of reach.
"""

from __future__ import annotations

import base64
import binascii
import html
import re
from collections.abc import Iterator
from urllib.parse import unquote

from .lazy import lazy_compile

# Characters of encoded runs decoded per text (well above any text but a large pointer's),
# and characters of decoded text kept: the work stays linear in these, whatever the text.
MAX_ENCODED_CHARS = 1 << 20
MAX_DECODED_CHARS = 1 << 18

_B64_RUN = lazy_compile(r"(?<![A-Za-z0-9+/=_\-])[A-Za-z0-9+/_\-]{16,}={0,2}")
_HEX_RUN = lazy_compile(r"(?<![0-9A-Za-z])(?:[0-9A-Fa-f]{2}){8,}(?![0-9A-Za-z])")
# The same matches, found faster: a match of _B64_RUN can only start where a run of its
# characters (and "=") starts, and there is at most one per run; a match of _HEX_RUN is a
# whole run of letters and digits. Finding the runs needs no look-behind at every position.
_B64_CHARS_RUN = lazy_compile(r"[A-Za-z0-9+/=_\-]{16,}")  # whole runs; shorter ones hold no token
_B64_TOKEN = lazy_compile(r"[A-Za-z0-9+/_\-]{16,}={0,2}")
_ALNUM_RUN = lazy_compile(r"[0-9A-Za-z]{16,}")
_HEX_TOKEN = lazy_compile(r"(?:[0-9A-Fa-f]{2}){8,}")
_ESCAPED_HEX = lazy_compile(r"(?:\\x[0-9A-Fa-f]{2}){4,}")
_PERCENT = lazy_compile(r"%[0-9A-Fa-f]{2}")
_NOT_LETTER = lazy_compile(r"[^A-Za-z]+")
_ENTITY = lazy_compile(r"&(?:#\d{2,7}|#x[0-9A-Fa-f]{2,6}|[A-Za-z]{2,8});")


_QP_SIGN = lazy_compile(r"=\r?\n|=[0-9A-F]{2}[^\n]*=[0-9A-F]{2}")
_QP_ESCAPE = lazy_compile(r"=([0-9A-F]{2})")


# UTF-7 (RFC 2152): "+" then modified base64 of UTF-16 code units, ended by "-" or any other
# character. ASCII letters so encoded start "+A" (their high byte is zero): `+AEk-gnore` is
# "Ignore". A run counts where it starts a word or ends with "-" (inside a base64 blob a "+"
# follows a base64 character and no "-" ends it), and only where it decodes to printable
# ASCII: "+AED 20", "C++ and +1" and a key's base64 stay what they are.
_UTF7_RUN = lazy_compile(r"(?<![A-Za-z0-9+/])\+(A[A-Za-z0-9+/]{2,256})-?|\+(A[A-Za-z0-9+/]{2,256})-")


def has_utf7(text: str) -> bool:
    """Whether `text` may hold a UTF-7 encoded run."""
    return "+A" in text and _UTF7_RUN.search(text) is not None


def _utf7(text: str) -> str:
    """`text` with its UTF-7 runs decoded where they decode to printable ASCII."""
    def one(m: re.Match[str]) -> str:
        body = m.group(1) or m.group(2)
        units = len(body) * 6 // 16
        usable = -(-units * 16 // 6)  # base64 characters that make whole code units
        try:
            decoded = ("+" + body[:usable] + "-").encode("ascii").decode("utf-7")
        except (UnicodeDecodeError, UnicodeEncodeError):
            return m.group(0)
        if not decoded or not decoded.isascii() or not decoded.isprintable():
            return m.group(0)
        return decoded + body[usable:]
    return _UTF7_RUN.sub(one, text)


def has_quoted_printable(text: str) -> bool:
    """Whether `text` shows a quoted-printable sign (a soft line break, or two escapes on a line)."""
    return "=" in text and _QP_SIGN.search(text) is not None


def _quoted_printable(text: str) -> str:
    """`text` with quoted-printable soft breaks joined and its escapes of printable ASCII
    decoded (others, and lower-case hex, which the encoding never writes, left as they are)."""
    joined = re.sub(r"=\r?\n", "", text)

    def one(m: re.Match[str]) -> str:
        code = int(m.group(1), 16)
        return chr(code) if 0x20 <= code < 0x7F else m.group(0)
    return _QP_ESCAPE.sub(one, joined)


def _readable(raw: bytes) -> str | None:
    """The bytes as text if they are UTF-8 and mostly printable, else None."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        return None
    if len(text) < 6:
        return None
    printable = len(text) if text.isprintable() else sum(1 for c in text if c.isprintable() or c in "\n\t\r")
    letters = len(_NOT_LETTER.sub("", text)) if text.isascii() else sum(1 for c in text if c.isalpha())
    if printable < 0.95 * len(text) or letters < 0.3 * len(text):
        return None
    return text


def readable_base64(token: str) -> str | None:
    """The text a base64 (or base64url) token encodes, if it encodes readable text."""
    body = token.rstrip("=")
    if len(body) % 4 == 1:
        return None
    padded = body + "=" * (-len(body) % 4)
    try:
        if "-" in body or "_" in body:
            raw = base64.urlsafe_b64decode(padded)
        else:
            raw = base64.b64decode(padded, validate=True)
    except (binascii.Error, ValueError):
        return None
    return _readable(raw)


def _hex(token: str) -> str | None:
    try:
        return _readable(bytes.fromhex(token.replace("\\x", "")))
    except ValueError:
        return None


def _tokens(kind: str, text: str) -> Iterator[str]:
    """The texts of _B64_RUN, _HEX_RUN or _ESCAPED_HEX's matches in `text`, in order."""
    if kind == "base64":
        for run in _B64_CHARS_RUN.findall(text):
            if run[0] != "=":
                token = _B64_TOKEN.match(run)
                if token:
                    yield token.group()
    elif kind == "hex":
        for run in _ALNUM_RUN.findall(text):
            token = _HEX_TOKEN.fullmatch(run)
            if token:
                yield run
    else:
        for match in _ESCAPED_HEX.finditer(text):
            yield match.group()


def decoded_views(text: str) -> list[str]:
    """Readable decodings of the encoded runs found in `text` (empty if none)."""
    out: list[str] = []
    budget = MAX_DECODED_CHARS  # decoded characters kept
    reads = MAX_ENCODED_CHARS  # encoded characters decoded
    for kind, decode in (("base64", readable_base64), ("hex", _hex), ("escaped", _hex)):
        for token in _tokens(kind, text):
            if kind == "base64" and (token.lower() == token or token.upper() == token):
                continue  # base64 of text always mixes cases; one-case runs are words or hex
            reads -= len(token)
            if reads < 0 or budget <= 0:
                break
            decoded = decode(token)
            if decoded:
                out.append(decoded[:budget])
                budget -= len(decoded)
    if "%" in text:
        escapes = len(_PERCENT.findall(text))
        if escapes >= 3:
            out.append(unquote(text)[:MAX_DECODED_CHARS])
        elif escapes:
            # One or two escapes (`ghp%5F…` in a URL): the runs that hold them, decoded once.
            runs = dict.fromkeys(run for run in text.split() if _PERCENT.search(run))
            out.extend(unquote(run)[:MAX_DECODED_CHARS] for run in runs)
    if has_quoted_printable(text):
        # Quoted-printable (a mail's body): `=3D` for '=', a line ending in '=' continued on the
        # next; read once decoded when it holds a soft break or two escapes.
        decoded = _quoted_printable(text)
        if decoded != text:
            out.append(decoded[:MAX_DECODED_CHARS])
    if has_utf7(text):
        decoded = _utf7(text)
        if decoded != text:
            out.append(decoded[:MAX_DECODED_CHARS])
    if "&" in text and _ENTITY.search(text):
        unescaped = html.unescape(text)
        if unescaped != text:
            out.append(unescaped[:MAX_DECODED_CHARS])
    return out
