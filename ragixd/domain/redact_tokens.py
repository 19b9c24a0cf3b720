"""What a token is, for redaction: host names, ports, IP addresses, file names and paths.

Pure predicates and splitters over strings, used by the Redactor's passes (redact.py, whose
docstring states the rules in full). A host name is two or more DNS labels whose last label
is alphabetic, with a suffix strong enough (or a port, or numbered labels) to tell it from a
version number, a file name or a code attribute chain.
"""

from __future__ import annotations

import ipaddress
import re

from .redact_patterns import (FILE_EXTS, IDN_SUFFIXES, LABEL_RE, PLACEHOLDER_RE, SLASHES,
                              STRONG_SUFFIXES, WEAK_SUFFIXES)

_HOME_RE = re.compile(r"~[\w.\-]*/|\$\{?[A-Za-z_]\w*\}?/")
_TRAILING = ".,;:!?*'\""


def is_port(number: str) -> bool:
    return 0 < int(number) <= 65535


def is_file_name(labels: list[str]) -> bool:
    return len(labels) >= 2 and bool(labels[0]) and labels[-1].lower() in FILE_EXTS


def is_hostname(labels: list[str], port: bool = False) -> bool:
    """Whether dotted labels name a host by the rules in redact.py's docstring (`port`: one
    follows)."""
    suffix = labels[-1].lower()
    if len(labels) < 2 or suffix in FILE_EXTS:
        return False
    if not all(LABEL_RE.fullmatch(label) for label in labels) or "_" in suffix:
        return False
    if all(len(label) == 1 for label in labels):
        return False
    # An IDN: a non-ASCII top-level domain, or a label in its ASCII (punycode) form, xn--….
    if suffix in IDN_SUFFIXES or (any(label[:4].lower() == "xn--" for label in labels)
                                  and (suffix.isascii() and suffix.isalpha() or suffix[:4] == "xn--")):
        return True
    if not suffix.isascii() or not suffix.isalpha():
        return False
    numbered = [any(ch.isdigit() for ch in label) or "-" in label for label in labels[:-1]]
    if port or suffix in STRONG_SUFFIXES:
        return True
    if suffix in WEAK_SUFFIXES:
        return len(labels) >= 3 or numbered[0]
    return len(labels) >= 3 and any(numbered)


def strip_trailing(text: str) -> tuple[str, str]:
    """Split sentence punctuation (and an unbalanced ")") off the end of a URL or path."""
    opened, closed = text.count("("), text.count(")")
    end = len(text)
    while end:
        ch = text[end - 1]
        if ch in _TRAILING or (ch == ")" and closed > opened):
            closed -= ch == ")"
            end -= 1
        else:
            break
    return text[:end], text[end:]


def is_ip(text: str) -> bool:
    try:
        ipaddress.ip_address(text.split("%", 1)[0])
    except ValueError:
        return False
    return True


def inet_aton(text: str) -> int | None:
    """The address inet_aton(3) reads in `text` (1 to 4 dotted parts, each decimal, 0-led
    octal or 0x hex, the last filling the remaining bytes), or None."""
    parts = text.split(".")
    if not 1 <= len(parts) <= 4:
        return None
    values = []
    for part in parts:
        try:
            if part[:2].lower() == "0x":
                values.append(int(part[2:], 16))
            elif len(part) > 1 and part[0] == "0":
                values.append(int(part, 8))
            else:
                values.append(int(part, 10))
        except ValueError:
            return None
    *head, last = values
    if any(v > 255 for v in head) or last >= 1 << (8 * (4 - len(head))):
        return None
    address = 0
    for v in head:
        address = address << 8 | v
    return address << (8 * (4 - len(head))) | last


def split_hostport(hostport: str) -> tuple[str, str | None]:
    if hostport.startswith("["):
        close = hostport.find("]")
        rest = hostport[close + 1:] if close >= 0 else ""
        if close >= 0 and (not rest or rest.startswith(":")):
            return hostport[: close + 1], rest[1:] if rest else None
        return hostport, None
    host, colon, port = hostport.rpartition(":")
    if colon and (port.isdigit() or PLACEHOLDER_RE.fullmatch(port)):
        return host, port
    return hostport, None


def looks_like_path(path: str) -> bool:
    # Drive and UNC paths come from their own alternatives; ":" cannot occur in a POSIX match.
    if path[1:2] == ":" or path.startswith(("\\\\", "/", "./", "../")) or _HOME_RE.match(path):
        return True
    if path.startswith("%") and "%\\" in path:  # %APPDATA%\Acme\vault: its own alternative
        return True
    last = path.rstrip("/").rsplit("/", 1)[-1]
    return len(SLASHES.findall(path.rstrip("/"))) >= 2 or is_file_name(last.split("."))
