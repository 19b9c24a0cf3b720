"""Invariants of the secrecy tiers over random text: every tier is idempotent, S0 lets no
embedded address, e-mail or hash through, and whatever S2 removes S0 removes too."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from ragixd.domain.redact import redact_text

BENIGN = [
    "the", "Python", "3.11.7", "0.5", "e.g.", "i.e.", "It", "works.", "os.path.join()", "and/or",
    "24/7", "v2.0", "x", "sécurité", "—", "(", ")", ",", "Then", "ratio", "std::vector", "at",
    "10:30", "U.S.A.", "self.value", "port", "ports", "tcp", "MEM-0123456789abcdef", "[HOST]",
    "[PATH-2]", "host", "acme", "-", "_", "~", "$", "@", "=", "::", "[", "]",
]
SEPARATORS = [" ", "\n", ", ", ". ", "; ", " (", ") ", "", ":", "/", ".", "-", "@", "\\", "=", "'"]
SAFE_SEPARATORS = [" ", "\n", ", ", "; ", " (", ") ", ". ", " and "]
TLDS = ["com", "io", "net", "org", "local", "internal", "de", "corp"]

label = st.from_regex(r"[a-z][a-z0-9]{0,8}", fullmatch=True)
ipv4 = st.ip_addresses(v=4).map(str)
ipv6 = st.ip_addresses(v=6).map(str).filter(lambda a: any(c.isdigit() for c in a))
host = st.builds(lambda labels, tld: ".".join(labels + [tld]), st.lists(label, min_size=1, max_size=3),
                 st.sampled_from(TLDS))
email = st.builds(lambda user, domain: f"{user}@{domain}",
                  st.from_regex(r"[a-z0-9][a-z0-9._+\-]{0,10}[a-z0-9]", fullmatch=True), host)
hexes = st.sampled_from([32, 40, 64, 128]).flatmap(
    lambda n: st.text("0123456789abcdefABCDEF", min_size=n, max_size=n))
digest = st.one_of(hexes, hexes.map(lambda h: "sha256:" + h))
port_phrase = st.integers(1, 65535).map(lambda n: f"port {n}")
path = st.lists(label, min_size=1, max_size=3).map(lambda parts: "/" + "/".join(parts))
host_port = st.builds(lambda h, n: f"{h}:{n}", st.one_of(host, ipv4), st.integers(1, 65535))
url = st.builds(lambda h, p: f"https://{h}{p}", st.one_of(host, host_port), path)
secret = st.one_of(ipv4, ipv6, host, email, digest, port_phrase, path, host_port, url)
word = st.one_of(st.sampled_from(BENIGN), st.text(st.characters(categories=["L"]), max_size=6))


def _join(draw, pieces_strategy, separators):
    pieces = draw(st.lists(pieces_strategy, max_size=12))
    seps = draw(st.lists(st.sampled_from(separators), min_size=len(pieces), max_size=len(pieces)))
    return "".join(p + s for p, s in zip(pieces, seps))


@st.composite
def tangled_text(draw):
    """Secrets, look-alikes and placeholders glued by any separator, including none."""
    return _join(draw, st.one_of(word, secret, st.text(max_size=8)), SEPARATORS)


@st.composite
def embedded(draw):
    """Benign words with secrets embedded at word boundaries; returns (text, secrets)."""
    secrets = draw(st.lists(st.one_of(ipv4, email, digest), min_size=1, max_size=4))
    words = draw(st.lists(st.sampled_from(BENIGN[:20]), max_size=8))
    pieces = draw(st.permutations(words + secrets))
    seps = draw(st.lists(st.sampled_from(SAFE_SEPARATORS), min_size=len(pieces), max_size=len(pieces)))
    return " " + "".join(p + s for p, s in zip(pieces, seps)), secrets


@given(tangled_text(), st.sampled_from(["S3", "S2", "S0"]), st.booleans(),
       st.lists(st.sampled_from(["acme", "Host", "Python", "x", "db"]), max_size=3))
def test_every_tier_is_idempotent(text, tier, numbered, entities):
    once = redact_text(text, tier, entities, numbered=numbered)
    assert redact_text(once, tier, entities, numbered=numbered) == once


@given(st.text(), st.sampled_from(["S2", "S0"]))
def test_any_text_is_accepted_and_s3_is_identity(text, tier):
    assert redact_text(text, "S3") == text
    assert isinstance(redact_text(text, tier, ["ab"]), str)


IPV4_RE = re.compile(r"(?<![\d.])\d{1,3}(?:\.\d{1,3}){3}(?![\d.]|\.\d)")
EMAIL_RE = re.compile(r"[\w.+\-]+@[\w\-]+(?:\.[\w\-]+)+")
HEX_RE = re.compile(r"[0-9A-Fa-f]{32,}")


@given(embedded())
def test_s0_lets_no_embedded_address_email_or_hash_through(case):
    text, secrets = case
    out = redact_text(text, "S0")
    for value in secrets:
        assert value not in out
    assert not IPV4_RE.search(out) and not EMAIL_RE.search(out) and not HEX_RE.search(out)


@given(st.data())
def test_what_s2_removes_s0_removes_too(data):
    secrets = data.draw(st.lists(secret, min_size=1, max_size=4))
    words = data.draw(st.lists(word, max_size=8))
    pieces = data.draw(st.permutations(words + secrets))
    seps = data.draw(st.lists(st.sampled_from(SEPARATORS), min_size=len(pieces), max_size=len(pieces)))
    text = "".join(p + s for p, s in zip(pieces, seps))
    s2, s0 = redact_text(text, "S2"), redact_text(text, "S0")
    for value in secrets:
        if value not in s2:
            assert value not in s0, (value, s2, s0)


EXTRA = ["MEM-abcd_1234", "C:\\Users\\bob\\x.txt", "\\\\srv\\share\\f", "id_rsa", "~/.ssh/known_hosts",
         ".env", "-p 2222", "-P3306", "-L 8080:localhost:80", "-R 9000:[::1]:22", "443/tcp", ":8443",
         "[::1]:22", "[1234]", "root@db01", "Port: 22", "PORTS 80 and 443", "[HOST]:/var/log"]


@given(st.lists(st.one_of(tangled_text(), st.sampled_from(EXTRA)), max_size=4).map("".join),
       st.sampled_from(["S2", "S0"]), st.booleans(), st.lists(st.sampled_from(["acme", "bob"]), max_size=2))
def test_skipping_a_pass_whose_needed_text_is_absent_changes_nothing(text, tier, numbered, entities):
    guarded, every = _both(tier, entities, numbered)
    assert guarded.text(text) == every.text(text)


def _both(tier: str, entities: list[str], numbered: bool = False):
    from ragixd.domain.redact import Redactor
    guarded = Redactor(tier, entities, numbered=numbered)
    every = Redactor(tier, entities, numbered=numbered)
    every._passes = [(pattern, replace, ()) for pattern, replace, _needs in every._passes]
    return guarded, every


def test_each_shape_alone_in_prose_is_redacted_as_without_the_skips():
    for tier in ("S2", "S0"):
        for shape in EXTRA:
            text = f"Notes for the team: {shape} is what bob uses on Fridays"
            guarded, every = _both(tier, ["bob"])
            assert guarded.text(text) == every.text(text), (tier, shape)


def _octal(address: str) -> str:
    return ".".join(f"0{int(p):03o}" for p in address.split("."))


def _hexed(address: str) -> str:
    return ".".join(hex(int(p)) for p in address.split("."))


def _three_part_hex(address: str) -> str:
    a, b, c, d = map(int, address.split("."))
    return f"{hex(a)}.{hex(b)}.{c << 8 | d}"


IPV4_FORMS = [str, _octal, _hexed, _three_part_hex,
              lambda a: a.replace(".", "。"), lambda a: a.replace(".", "[.]"),
              lambda a: f"http://{int.from_bytes(bytes(map(int, a.split('.'))), 'big')}/x"]


@given(ipv4, st.sampled_from(IPV4_FORMS), st.lists(st.sampled_from(BENIGN[:20]), max_size=6),
       st.sampled_from(SAFE_SEPARATORS), st.integers(0, 6))
def test_s2_removes_any_ipv4_in_any_accepted_written_form(address, form, words, sep, at):
    written = form(address)
    text = sep.join(words[:at] + [written] + words[at:])
    out = redact_text(text, "S2")
    assert "[IP" in out and written not in out, (written, out)
