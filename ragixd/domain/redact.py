"""Secrecy tiers for export: replace infrastructure details with typed placeholders.

Owns `redact_text` and `redact_item` (the patterns they use live in redact_patterns, what
counts as a host, port, address or path in redact_tokens); it
never reads or writes anything and never changes an item's timestamps, tier/type/store,
validation or counters. An item id is kept unless it would
itself leak at the tier (see *Item ids*).

Tiers: S3 leaves text as it is. S2 replaces URLs' hosts and ports, host names, IPv4/IPv6
addresses (with CIDR suffixes), hashes (crypt-style password hashes too) and port numbers. S0 does all of S2 and also replaces
e-mail addresses, URL user names and paths, file-system paths, file names and entity labels.

Rules, chosen to generalise rather than to list cases:

- A *host name* is a dotted token of at least two DNS labels whose last label is alphabetic.
  It counts as a host when the last label is a well-known public or internal suffix (com,
  io, local, internal, lan, corp, most country codes…); when it is a weaker suffix (dev,
  app, prod, svc, cluster, …) with three labels or a numbered first label (db1.prod); when
  it has three labels or more, an unknown suffix and a numbered or hyphenated label
  (web01.dc2.acme); or whenever a port follows it (name.x:8080). Tokens whose last label
  is numeric (3.11.7, 0.5), a file extension (item.py, archive.tar.gz), made only of single
  letters (e.g, i.e, U.S.A) or followed by "(" (os.path.join()) are never hosts, so code
  attribute chains such as ragixd.domain.item stay readable. A sentence's final period is
  never part of a token. Labels may be internationalised (bücher.de, and xn--… punycode
  labels make a host whatever its alphabetic suffix); a wildcard's "*." may precede a name. Dots may be
  written as look-alikes (。, [.], (.), {.}, [dot], (dot)). Letters of scripts written without
  spaces (Han, kana, hangul) at a token's ends are the sentence's, not the host's
  (服务器db01.acme.com已经). A single label (redis-master) is a host only where a key names it
  (DB_HOST=db01, PGHOST=, host=, --host db01, dbHost:, Server=/Data Source= in a connection
  string, a YAML/JSON host: whose value ends the line or item, ssh_config HostName/ProxyJump)
  or as a UNC path's server (\\\\fs01\\share); otherwise only a port after it is redacted,
  when the label is numbered or hyphenated, is localhost, or the port >= 1024.
- *URLs* (scheme://…) always have their host and port redacted, whatever the host looks
  like; at S0 the user name becomes [USER] and everything after the authority [PATH].
- *IPv4* is four dotted octets 0-255 without leading zeros, not part of a longer dotted
  number (so 1.2.3.4.5 stays, but a four-part version 1.2.3.4 is read as an address); also
  the forms inet_aton reads when a part is hex (0x7f.0.0.1, 0xc0.0xa8.1) or four parts hold a
  3-digit octal (0300.0250.0.1), and zero-padded decimals whose first part is not (10.00.0.5;
  01.02.03.04 stays). A URL's host that is one number (http://3232235777/) is an [IP].
  *IPv6* candidates must hold a digit and parse with the ipaddress module (so 10:30:45 and
  C++'s std::vector stay).
- A *hash* is a standalone hex string of exactly 32, 40, 64 or 128 characters (optionally
  0x-prefixed), or of 12 characters or more mixing digits and letters (not 0x-prefixed or
  hyphen-joined under 32, so constants and UUIDs stay); 7 hex digits or more after a word that
  names a git object (commit, revert, git checkout…); a padded base64 digest (22+"==",
  27+"=", 43+"=", 86+"==" characters mixing case and digits); or any value prefixed with a
  hash algorithm name (sha256:…, md5=…).
- *Ports*: the number after a host, IP, bracketed IPv6 or placeholder (":8080"); the
  numbers after the word port/ports (port 5432, PORT=5432, ports 80, 443); N/tcp, N/udp
  (and 8080:80/tcp). After a path or file name only numbers >= 1024 count as ports; smaller
  ones are read as line numbers (item.py:42) and stay. Port flags (-p 2222, -P 3306, -p=6379,
  -p 8080:80; two digits at least, so "mkdir -p 3" stays), ssh forwards (-L 8080:host:80) and a
  bare ":8443" after a space, "(", ",", "=", "*" or "[::]" (so 10:30 and x[:10] stay); a
  quoted "port" key, camelCase keys (containerPort: 8080) and PGPORT; the numbers after
  listen/listens on/EXPOSE when no word follows them (listen 443 ssl, but not "listening on
  16 threads"); 端口/ポート/포트 as "port".
- *user@host* with a one-label host (alice@localhost, deploy@db01): S2 redacts the host when
  it is localhost, numbered or hyphenated, or followed by ":" (scp); S0 makes any such form,
  and user@[IP], an [EMAIL] (so react@latest goes too; a@b and x@W, one letter, stay).
- *Paths* (S0): C:\\… and \\\\server\\… up to whitespace (a space is crossed when the word
  after it leads to another separator: C:\\Program Files\\Acme\\x.exe), %VAR%\\…; POSIX tokens with a slash that are
  absolute (/etc/x), home- or variable-relative (~/x, $HOME/x), ./ or ../ relative, or
  relative with two or more slashes or a file extension (src/app/main.py). They must hold
  a letter, so dates (2024/01/02) and fractions stay; and/or, TCP/IP and 24/7 stay. A path may
  follow ":" (db01:/srv/x) and hold doubled slashes (host//etc/x); after a host, IP or e-mail
  placeholder, whatever follows ":" or "/" (scp's user@host:dir/file, host:8443/api) is a path.
- *File names* (S0): dotted tokens ending in a common extension, well-known dotfiles (*rc
  files included) and key files without an extension (id_rsa, authorized_keys, known_hosts).
- *Entities* (S0): every entity label of two characters or more is matched
  case-insensitively as a whole word, its words apart by any run of spaces, underscores, dots
  or hyphens (`carol_danvers_notes`), longest first, after every other rule.
- *E-mail addresses* (S0) include quoted local parts ("john doe"@…), apostrophes (o'brien@…)
  and internationalised domains (jöran@bücher.de); [IPv6:…] address literals are [IP] at S2.
- *Compatibility forms* (S2, S0): a text that is not ASCII is read in NFKC first, so fullwidth
  hosts, addresses and at signs are redacted as the plain ones.

- *Item ids* (id, superseded_by, links' `to`, MEM-… in text): ids ragix generates
  (MEM-<16 random hex>) are kept. Below S3 a caller-chosen id is replaced by a pseudonym of the
  generated shape, HMAC-SHA256 of the id under a key (one random key per process by default):
  at S0 always, at S2 when the S2 rules would change it (a hash in it). One id, one pseudonym,
  so links stay consistent across an export's items and pages; without the key a guessed id
  cannot be confirmed.

Placeholders are never redacted again, so every tier is idempotent. With `numbered=True`
the same value gets the same number within one Redactor (one item): [HOST-1], [HOST-2].
`redact_item` recomputes content_hash from the redacted title and content: a hash of the
original text would let a reader confirm a guess of what was removed.
"""

from __future__ import annotations

import copy
import hashlib
import hmac
import re
import unicodedata
import secrets
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from ..errors import InvalidInput
from .encoding import content_hash
from .ids import is_item_id
from .item import LINK_RELS, SOURCE_KINDS
from .redact_tokens import (inet_aton, is_file_name, is_hostname, is_ip, is_port, looks_like_path,
                            split_hostport, strip_trailing)
from .redact_patterns import (  # noqa: F401 (some are this module's API too)
    TIERS, KINDS, PH, PLACEHOLDER_RE, ID_FIELDS, KEPT_FIELDS, FILE_EXTS, DOTFILES, KEY_FILES,
    STRONG_SUFFIXES, WEAK_SUFFIXES, LABEL_RE, HAS_LETTER, URL_RE, EMAIL_RE, IPV6_RE, IPV4_RE,
    HASH_RE, PATH_RE, CJK_EDGES, PORT_KEY_RE, LISTEN_RE, HOST_KEY_RE, HOST_VALUES_KEPT, UNC_HOST_RE,
    UNC_ESCAPE, SHORT_HEX_RE, GIT_REF_RE, B64_DIGEST_RE, IPV4_ATON_RE, LOOKALIKE_DOT_RE, LOOKALIKE_DOT_SEP, IPV4_FULL, DOTFILE_RE, KEY_FILE_RE, USER_HOST_RE, AFTER_HOST_RE, DOTTED_RE,
    LABEL_PORT_RE, PORT_WORD_RE, PORT_FLAG_RE, BARE_PORT_RE, FORWARD_RE, PORT_PROTO_RE,
    DIGITS, PORT_PREFIX, SLASHES, GENERATED_ID_RE, ID_IN_TEXT_RE,
)

# Keys the pseudonyms of ids when the caller gives none: the same id gets the same pseudonym
# for the daemon's lifetime (every page of one export), and no one outside can recompute it
# to confirm a guessed id.
_PROCESS_ID_KEY = secrets.token_bytes(32)


def check_tier(tier: Any) -> str:
    if tier not in TIERS:
        raise InvalidInput("tier", f"must be one of {', '.join(TIERS)}; got {tier!r:.40}")
    return tier


class Redactor:
    """Applies one tier to many strings, numbering placeholders consistently if asked."""

    def __init__(self, tier: str, entities: Iterable[Any] = (), numbered: bool = False,
                 id_key: bytes | None = None, *, ids: bool = True) -> None:
        self.tier = check_tier(tier)
        self.numbered = numbered
        self._id_key = _PROCESS_ID_KEY if id_key is None else id_key
        self._ids = ids
        self._numbers: dict[tuple[str, str], int] = {}
        self._counts: dict[str, int] = {}
        self._entity_re = _entity_pattern(entities or ()) if tier == "S0" else None
        self._passes = self._build_passes()

    def _build_passes(self) -> list[tuple[re.Pattern[str], Callable[[re.Match[str]], str], tuple[str, ...]]]:
        """(pattern, replacement, what a text must hold for the pattern to match: one of these
        substrings, or () for no such test) in order. The substrings are necessary for the
        pattern, so skipping a text without them changes nothing, and most prose lacks
        `@`, `://`, `/`, `:` or `MEM-`: each pass it skips is one scan of the text less."""
        if self.tier == "S3":
            return []
        s0 = self.tier == "S0"
        # IPv6 before e-mail (so ::1:0.0.0.0@x keeps its address whole), IPv4 after it (so
        # root@10.0.0.5 is one e-mail address).
        passes = [(ID_IN_TEXT_RE, self._id_in_text, ("MEM-",))] if self._ids else []
        passes += [(URL_RE, self._url, ("://",)),
                   (LOOKALIKE_DOT_RE, self._lookalike_dots, ("。", ".]", ".)", ".}", "t]", "t)", "T]", "T)")),
                   (IPV6_RE, self._ipv6, ("[", ":"))]
        passes += [(EMAIL_RE, self._email, ("@",))] if s0 else []
        passes += [(IPV4_RE, self._ipv4, (".",)), (IPV4_ATON_RE, self._ipv4_aton, (".",)),
                   (HASH_RE, self._hash, ()), (GIT_REF_RE, self._git_ref, ()),
                   (SHORT_HEX_RE, self._short_hex, ()), (B64_DIGEST_RE, self._b64_digest, ("=",)),
                   (UNC_HOST_RE, self._unc_host, ("\\\\",))]
        if s0:
            passes += [(PATH_RE, self._path, ("/", "\\")), (DOTFILE_RE, self._file, (".",)),
                       (KEY_FILE_RE, self._file, ("id_", "authorized_keys", "known_hosts"))]
        passes += [(USER_HOST_RE, self._user_host, ("@",)), (DOTTED_RE, self._dotted, (".",)),
                   (HOST_KEY_RE, self._host_key, ()), (PORT_KEY_RE, self._port_key, ("Port", "PGPORT")),
                   (LISTEN_RE, self._listen, ()), (LABEL_PORT_RE, self._label_port, (":",)), (PORT_WORD_RE, self._port_list, ()),
                   (PORT_PROTO_RE, self._port_list, ("/",)), (PORT_FLAG_RE, self._port_flag, ("-p", "-P")),
                   (FORWARD_RE, self._forward, ("-L", "-R")), (BARE_PORT_RE, self._bare_port, (":",))]
        passes += [(AFTER_HOST_RE, self._after_host, ("[",))] if s0 else []
        if self._entity_re is not None:
            passes.append((self._entity_re, self._entity, ()))
        return passes

    def token(self, kind: str, value: str) -> str:
        """The placeholder for `value`; numbered per kind when the Redactor is numbered."""
        if not self.numbered:
            return f"[{kind}]"
        key = (kind, value.casefold())
        if key not in self._numbers:
            self._counts[kind] = self._counts.get(kind, 0) + 1
            self._numbers[key] = self._counts[kind]
        return f"[{kind}-{self._numbers[key]}]"

    def text(self, text: str) -> str:
        if self._passes and not text.isascii():
            # compatibility forms read as what they stand for: a fullwidth host, address or
            # at sign (ｄｂ０１.acme.com, alice＠example.com) is redacted as the plain one
            text = unicodedata.normalize("NFKC", text)
        for pattern, replace, needs in self._passes:
            if not needs or any(part in text for part in needs):
                text = pattern.sub(replace, text)
        return text

    def value(self, value: Any) -> Any:
        """Redact strings, and strings inside lists and maps; other values pass unchanged."""
        if isinstance(value, str):
            return self.text(value)
        if isinstance(value, (list, tuple)):
            return [self.value(v) for v in value]
        if isinstance(value, Mapping):
            return {k: self.value(v) for k, v in value.items()}
        return value

    def item_id(self, item_id: str) -> str:
        """`item_id`, or its pseudonym when the id would itself leak at this tier.

        Ids ragix generates are random and kept. Any other id was chosen by a caller (import
        takes any MEM-[0-9A-Za-z_-]{4,64}): at S0 it is replaced, at S2 when the S2 rules
        would change it (a hash in it). The pseudonym has the generated shape, so it is kept
        if redacted again, and depends on the id and the key only, so links and superseded_by
        still point at the right item in one export.
        """
        if self.tier == "S3" or GENERATED_ID_RE.fullmatch(item_id):
            return item_id
        if self.tier == "S2" and _S2_ID_CHECK.text(item_id) == item_id:
            return item_id
        digest = hmac.new(self._id_key, item_id.encode(), hashlib.sha256).hexdigest()
        return "MEM-" + digest[:16]

    def entity_list(self, entities: Any) -> Any:
        if not isinstance(entities, (list, tuple)):
            return self.value(entities)
        if self.tier != "S0":
            return _unique(self.value(list(entities)))
        return _unique([self._entity_label(e) if isinstance(e, str) else e for e in entities])

    def _entity_label(self, label: str) -> str:
        label = label.strip()
        return label if PLACEHOLDER_RE.fullmatch(label) else self.token("ENTITY", label)

    # -- one callback per pass -------------------------------------------------------------

    def _id_in_text(self, m: re.Match[str]) -> str:
        return self.item_id(m.group(0))

    def _url(self, m: re.Match[str]) -> str:
        rest, trailing = strip_trailing(m.group(2))
        cut = min((i for i in (rest.find(c) for c in "/?#") if i >= 0), default=len(rest))
        authority, tail = rest[:cut], rest[cut:]
        user, at, hostport = authority.rpartition("@")
        if at and self.tier == "S0" and not PLACEHOLDER_RE.fullmatch(user):
            user = self.token("USER", user)
        host, port = split_hostport(hostport)
        out = m.group(1) + "://" + user + at + self._url_host(host)
        if port is not None:
            out += ":" + (self.token("PORT", port) if port.isdigit() else port)
        if self.tier == "S0" and tail and tail != "/" and not PLACEHOLDER_RE.fullmatch(tail[1:]):
            tail = tail[0] + self.token("PATH", tail[1:])
        return out + tail + trailing

    def _url_host(self, host: str) -> str:
        if not host or PLACEHOLDER_RE.fullmatch(host):
            return host
        bare = host[1:-1] if host.startswith("[") and host.endswith("]") else host
        # http://3232235777/, http://0x7f.1/: an address in a form inet_aton reads
        address = is_ip(bare) or (bare[:1].isdigit() and inet_aton(bare) is not None)
        return self.token("IP", bare) if address else self.token("HOST", host)

    def _email(self, m: re.Match[str]) -> str:
        out = self.token("EMAIL", m.group(1))
        return out + ":" + self.token("PORT", m.group(2)) if m.group(2) else out

    def _lookalike_dots(self, m: re.Match[str]) -> str:
        dotted, port = LOOKALIKE_DOT_SEP.sub(".", m.group(1)), m.group(2)
        after = "" if port is None else ":" + (self.token("PORT", port) if is_port(port) else port)
        if IPV4_FULL.fullmatch(dotted):
            return self.token("IP", dotted) + after
        if is_hostname(dotted.split("."), port=port is not None and is_port(port)):
            return self.token("HOST", dotted) + after
        return m.group(0)

    def _ipv6(self, m: re.Match[str]) -> str:
        address = m.group(1) or m.group(3) + (m.group(4) or "")
        if not any(ch.isdigit() for ch in address) or not is_ip(address) or ":" not in address:
            return m.group(0)
        out = self.token("IP", address)
        port = m.group(2) or m.group(5)
        if port:
            out += ":" + (self.token("PORT", port) if is_port(port) else port)
        return out

    def _ipv4(self, m: re.Match[str]) -> str:
        out = self.token("IP", m.group(1))
        port = m.group(2)
        return out + ":" + (self.token("PORT", port) if is_port(port) else port) if port else out

    def _ipv4_aton(self, m: re.Match[str]) -> str:
        parts = m.group(1).split(".")
        if any(p[:2].lower() == "0x" for p in parts):  # 0x7f.0.0.1, 0xc0.0xa8.1
            address = inet_aton(m.group(1)) is not None
        elif len(parts) == 4 and any(len(p) > 1 and p[0] == "0" for p in parts):
            # octal as inet_aton reads it (0300.0250.0.1), or decimals padded with zeros
            # (192.168.001.010, 10.00.0.5) when the first part is not: 01.02.03.04 stays
            octal = any(len(p) >= 3 and p[0] == "0" for p in parts) and inet_aton(m.group(1)) is not None
            padded = parts[0][0] != "0" and all(p.isdigit() and int(p) <= 255 for p in parts)
            address = octal or padded
        else:
            address = False
        return self._ipv4(m) if address else m.group(0)

    def _unc_host(self, m: re.Match[str]) -> str:
        name = m.group(1)
        if len(name) < 2 or not HAS_LETTER.search(name) or UNC_ESCAPE.fullmatch(name):
            return m.group(0)
        return "\\\\" + self.token("HOST", name)

    def _host_key(self, m: re.Match[str]) -> str:
        key, host = (m.group(1), m.group(2)) if m.group(2) is not None else (m.group(3), m.group(4))
        labels = host.split(".")
        if host.lower() in HOST_VALUES_KEPT or (len(labels) > 1 and (
                labels[-1].isdigit() or is_file_name(labels) or not all(labels))):
            return m.group(0)
        return key + self.token("HOST", host)

    def _port_key(self, m: re.Match[str]) -> str:
        port = m.group(1)
        if not is_port(port):
            return m.group(0)
        cut = m.start(1) - m.start(0)
        return m.group(0)[:cut] + self.token("PORT", port)

    def _listen(self, m: re.Match[str]) -> str:
        def one(d: re.Match[str]) -> str:
            return self.token("PORT", d.group(0)) if is_port(d.group(0)) else d.group(0)

        return m.group(1) + DIGITS.sub(one, m.group(2))

    def _hash(self, m: re.Match[str]) -> str:
        hexes = m.group(1)
        # A digest's usual lengths always; any other run of 32 hex digits or more (a digest
        # cut or joined, a multihash, a hex-encoded key) when it mixes digits and letters.
        if hexes is not None and len(hexes) not in (32, 40, 64, 128) and not _mixed_hex(hexes):
            return m.group(0)
        return self.token("HASH", m.group(0))

    def _short_hex(self, m: re.Match[str]) -> str:
        return self.token("HASH", m.group(1)) if _mixed_hex(m.group(1)) else m.group(0)

    def _git_ref(self, m: re.Match[str]) -> str:
        def one(ref: re.Match[str]) -> str:
            name = ref.group(0)
            return self.token("HASH", name) if any(c.isdigit() for c in name) else name

        return m.group(1) + _HEX_RUN.sub(one, m.group(2))

    def _b64_digest(self, m: re.Match[str]) -> str:
        body = m.group(1)
        mixed = (any(c.isdigit() or c in "+/" for c in body) and any(c.isupper() for c in body)
                 and any(c.islower() for c in body))
        return self.token("HASH", body) if mixed else m.group(0)

    def _path(self, m: re.Match[str]) -> str:
        path, trailing = strip_trailing(m.group(0))
        port = PORT_PREFIX.match(path) if m.string[m.start() - 1: m.start()] == ":" else None
        if port:  # db01:8443/srv/x: the number is the host's port, left to the port rules
            rest = path[port.end():]
            if HAS_LETTER.search(rest) and looks_like_path(rest):
                return port.group(0) + self.token("PATH", rest) + trailing
            return m.group(0)
        if not HAS_LETTER.search(path) or not looks_like_path(path):
            return m.group(0)
        return self.token("PATH", path) + trailing

    def _after_host(self, m: re.Match[str]) -> str:
        path, trailing = strip_trailing(m.group(2))
        if not HAS_LETTER.search(PLACEHOLDER_RE.sub("", path)):
            return m.group(0)
        return m.group(1) + self.token("PATH", path) + trailing

    def _file(self, m: re.Match[str]) -> str:
        return self.token("FILE", m.group(0))

    def _dotted(self, m: re.Match[str]) -> str:
        token, port = m.group(1), m.group(2)
        called = port is None and m.string.startswith("(", m.end())
        # 服务器db01.acme.com已经宕机: CJK letters at either end are the sentence's, so the
        # token without them is tried first (one written in CJK only, 例子.公司, is tried whole)
        before, core, after = CJK_EDGES.fullmatch(token).groups()
        if (before or after) and "." in core.strip("."):
            inner = self._dotted_token(core, None if after else port, called)
            if inner is not None:
                return before + inner + after + ("" if port is None or not after else ":" + port)
        out = self._dotted_token(token, port, called)
        return m.group(0) if out is None else out

    def _dotted_token(self, token: str, port: str | None, called: bool) -> str | None:
        """A dotted token (and the port after it) redacted, or None when it is neither a host
        nor (at S0) a file name."""
        core = token.strip("-")
        labels = core.split(".")
        if not all(labels):
            return None
        lead = token[: len(token) - len(token.lstrip("-"))]
        tail = token[len(lead) + len(core):]
        after = "" if port is None else ":" + port
        if self.tier == "S0" and is_file_name(labels):
            return lead + self.token("FILE", core) + tail + after
        if called or not is_hostname(labels, port=port is not None and is_port(port)):
            return None
        if port is not None:
            after = ":" + self.token("PORT", port)
        return lead + self.token("HOST", core) + tail + after

    def _user_host(self, m: re.Match[str]) -> str:
        user, host = m.group(1), m.group(2)
        if self.tier == "S0":
            return self.token("EMAIL", m.group(0))
        if host.startswith("["):
            return m.group(0)
        numbered = "-" in host or any(c.isdigit() for c in host)
        scp = m.string.startswith(":", m.end())  # user@backup:/srv/x, user@backup:22
        if not (numbered or scp or host.lower() == "localhost"):
            return m.group(0)
        return user + self.token("HOST", host)

    def _port_flag(self, m: re.Match[str]) -> str:
        ip, port, inner = m.group(1), m.group(2), m.group(3)
        if not is_port(port) or (inner is not None and not is_port(inner)):
            return m.group(0)
        flag = m.group(0)[: m.start(1) - m.start(0)]
        out = flag + ip + self.token("PORT", port)
        return out + ":" + self.token("PORT", inner) if inner is not None else out

    def _forward(self, m: re.Match[str]) -> str:
        port = m.group(2)
        return m.group(1) + self.token("PORT", port) if is_port(port) else m.group(0)

    def _bare_port(self, m: re.Match[str]) -> str:
        port = m.group(1)
        return ":" + self.token("PORT", port) if is_port(port) else m.group(0)

    def _label_port(self, m: re.Match[str]) -> str:
        label, port = m.group(1), m.group(2)
        if label.startswith("["):
            # After a path or file name a small number is more often a line (item.py:42).
            strong = not label.startswith(("[PATH", "[FILE"))
        else:
            strong = label.lower() == "localhost" or "-" in label or any(c.isdigit() for c in label)
        if not is_port(port) or not (strong or int(port) >= 1024):
            return m.group(0)
        return label + ":" + self.token("PORT", port)

    def _port_list(self, m: re.Match[str]) -> str:
        def one(d: re.Match[str]) -> str:
            return self.token("PORT", d.group(0)) if is_port(d.group(0)) else d.group(0)

        start = m.start(1) - m.start(0) if m.re is PORT_WORD_RE else 0
        text = m.group(0)
        end = len(text) if m.re is PORT_WORD_RE else text.rindex("/")
        return text[:start] + DIGITS.sub(one, text[start:end]) + text[end:]

    def _entity(self, m: re.Match[str]) -> str:
        if m.group("ph") is not None:
            return m.group(0)
        return self.token("ENTITY", m.group(0))


_S2_ID_CHECK = Redactor("S2", ids=False)
_HEX_RUN = re.compile(r"[0-9a-fA-F]+")


def _mixed_hex(hexes: str) -> bool:
    return any(c.isdigit() for c in hexes) and any(not c.isdigit() for c in hexes)


def _entity_pattern(entities: Iterable[Any]) -> re.Pattern[str] | None:
    labels = {e.strip().casefold(): e.strip() for e in entities if isinstance(e, str)}
    labels = {k: v for k, v in labels.items() if len(k) >= 2 and not PLACEHOLDER_RE.fullmatch(v)}
    if not labels:
        return None
    # A label's words apart by any run of spaces, underscores, dots or hyphens ("Carol Danvers",
    # "CAROL  DANVERS", "carol_danvers_notes", "Carol\nDanvers"); its edges are letters and
    # digits, so an underscore next to it does not hide it.
    alternatives = "|".join(r"[\s_.\-]+".join(map(re.escape, v.split()))
                            for v in sorted(labels.values(), key=len, reverse=True))
    # Placeholders are matched first and kept, so an entity named "host" cannot touch [HOST].
    return re.compile(rf"(?P<ph>{PH})|(?<![^\W_])(?:{alternatives})(?![^\W_])", re.IGNORECASE)


def _unique(values: list[Any]) -> list[Any]:
    out: list[Any] = []
    for value in values:
        if value not in out:
            out.append(value)
    return out


def redact_text(text: str, tier: str, entities: Iterable[Any] = (), numbered: bool = False,
                id_key: bytes | None = None) -> str:
    """`text` at secrecy tier `tier`; at S0 the given entity labels are replaced too."""
    check_tier(tier)
    if not isinstance(text, str):
        raise InvalidInput("text", f"must be a string, got {type(text).__name__}")
    return Redactor(tier, entities, numbered, id_key).text(text)


def redacted_content_hash(item: Mapping[str, Any]) -> str:
    """content_hash of a (redacted) item dict, from its title and content."""
    return content_hash(str(item.get("title") or ""), str(item.get("content") or ""))


def redact_item(item: Mapping[str, Any], tier: str, numbered: bool = False,
                id_key: bytes | None = None) -> dict[str, Any]:
    """A copy of a MemoryItem.to_dict() dict with every free-text field redacted at `tier`.

    Enums, numbers and timestamps are kept; unknown keys are redacted like text. Item ids
    (id, superseded_by, links' `to`, and ids in text) are kept or pseudonymised by
    `Redactor.item_id`, keyed by `id_key` (default: one random key per process), so call it
    with the same key for every item of one export. content_hash is recomputed below S3.
    """
    check_tier(tier)
    if not isinstance(item, Mapping):
        raise InvalidInput("item", f"must be an object, got {type(item).__name__}")
    out = copy.deepcopy(dict(item))
    if tier == "S3":
        return out
    entities = item.get("entities") if isinstance(item.get("entities"), (list, tuple)) else ()
    r = Redactor(tier, entities, numbered, id_key)
    for key, value in out.items():
        if key in ID_FIELDS and is_item_id(value):
            out[key] = r.item_id(value)
        elif key in KEPT_FIELDS:
            continue
        if key == "entities":
            out[key] = r.entity_list(value)
        elif key == "tags" and isinstance(value, (list, tuple)):
            out[key] = _unique(r.value(list(value)))
        elif key == "links" and isinstance(value, (list, tuple)):
            out[key] = [_redact_link(link, r) for link in value]
        elif key == "provenance" and isinstance(value, Mapping):
            out[key] = _redact_provenance(value, r)
        else:
            out[key] = r.value(value)
    if "content_hash" in out:
        out["content_hash"] = redacted_content_hash(out)
    return out


def _redact_link(link: Any, r: Redactor) -> Any:
    if not isinstance(link, Mapping):
        return r.value(link)
    def one(key: str, value: Any) -> Any:
        if key == "to" and is_item_id(value):
            return r.item_id(value)
        return value if key == "rel" and value in LINK_RELS else r.value(value)

    return {k: one(k, v) for k, v in link.items()}


def _redact_provenance(prov: Mapping[str, Any], r: Redactor) -> dict[str, Any]:
    kept = {"source_kind": prov.get("source_kind") in SOURCE_KINDS, "created_at": True}
    return {k: v if kept.get(k) else r.value(v) for k, v in prov.items()}
