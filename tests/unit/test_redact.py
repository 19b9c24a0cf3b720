"""Secrecy tiers: each redaction family at each tier, look-alikes that must survive, and
every string field of an exported item."""

from __future__ import annotations

import threading

import pytest

from ragixd.domain.encoding import content_hash
from ragixd.domain.item import build_item, validate_create
from ragixd.domain.redact import (
    Redactor,
    redact_item,
    redact_text,
    redacted_content_hash,
)
from ragixd.errors import InvalidInput

SHA = "ab" * 32


def s2(text: str) -> str:
    return redact_text(text, "S2")


def s0(text: str, entities=()) -> str:
    return redact_text(text, "S0", entities)


@pytest.mark.parametrize("text, expected", [
    ("connect to db1.prod.example.com now", "connect to [HOST] now"),
    ("deployed on web01.dc2.acme.", "deployed on [HOST]."),
    ("the db1.prod replica", "the [HOST] replica"),
    ("kafka-0.kafka-headless.svc.cluster.local", "[HOST]"),
    ("see github.com and Example.COM", "see [HOST] and [HOST]"),
    ("name.internal:8080", "[HOST]:[PORT]"),
    ("(host db1.example.org)", "(host [HOST])"),
])
def test_s2_redacts_host_names(text, expected):
    assert s2(text) == expected


@pytest.mark.parametrize("text", [
    "Python 3.11.7 and numpy 1.26.4 are pinned",
    "a ratio of 0.5, or 12.75 percent",
    "e.g. this, i.e. that, U.S.A. and a.m. times",
    "It works. Then it stops.",
    "call os.path.join() and ragixd.domain.item then self.value",
    "edit item.py, README.md and archive.tar.gz",
    "v2.0 and version 10.0.19041 are fine",
])
def test_s2_keeps_look_alikes_of_hosts(text):
    assert s2(text) == text


@pytest.mark.parametrize("text, expected", [
    ("from 10.0.0.1 to 192.168.1.254.", "from [IP] to [IP]."),
    ("subnet 10.0.0.0/8 and 172.16.0.0/12", "subnet [IP] and [IP]"),
    ("listen 127.0.0.1:8080", "listen [IP]:[PORT]"),
    ("v6 2001:db8::1 and fe80::1%eth0", "v6 [IP] and [IP]"),
    ("net 2001:db8::/32 loopback ::1", "net [IP] loopback [IP]"),
    ("mapped ::ffff:192.0.2.1", "mapped [IP]"),
    ("bracketed [2001:db8::2]:443", "bracketed [IP]:[PORT]"),
])
def test_s2_redacts_ip_addresses(text, expected):
    assert s2(text) == expected


@pytest.mark.parametrize("text", [
    "build 1.2.3.4.5 and 256.1.1.1",
    "at 10:30:45 we met",
    "std::vector and Foo::bar",
    "a MAC 00:1A:2B:3C:4D:5E is not an address",
])
def test_s2_keeps_look_alikes_of_ip_addresses(text):
    assert s2(text) == text


@pytest.mark.parametrize("text, expected", [
    (f"digest sha256:{SHA}.", "digest [HASH]."),
    ("md5 " + "0f" * 16 + " sha1 " + "a1" * 20, "md5 [HASH] sha1 [HASH]"),
    ("sha512 " + "c" * 128, "sha512 [HASH]"),
    ("integrity sha384-" + "A1b2" * 16, "integrity [HASH]"),
    ("raw 0x" + "ff" * 16, "raw [HASH]"),
])
def test_s2_redacts_hashes(text, expected):
    assert s2(text) == expected


@pytest.mark.parametrize("text", [
    "short " + "ab" * 10, "odd length " + "a" * 33, "word deadbeefcafe", "MEM-0123456789abcdef",
])
def test_s2_keeps_hex_that_is_not_a_hash(text):
    assert s2(text) == text


@pytest.mark.parametrize("text, expected", [
    ("port 5432 and Port: 22", "port [PORT] and Port: [PORT]"),
    ("ports 80, 443 and 8080", "ports [PORT], [PORT] and [PORT]"),
    ("DB_PORT=6379 --port=9000", "DB_PORT=[PORT] --port=[PORT]"),
    ("expose 8080/tcp and 53/udp", "expose [PORT]/tcp and [PORT]/udp"),
    ("map 8080:80/tcp", "map [PORT]:[PORT]/tcp"),
    ("localhost:3000 and redis-master:6379", "localhost:[PORT] and redis-master:[PORT]"),
])
def test_s2_redacts_ports(text, expected):
    assert s2(text) == expected


@pytest.mark.parametrize("text", [
    "image postgres:16 and python:3.11", "at 10:30 sharp", "see item.py:42",
    "support 5 users", "report 2024", "port 70000",
])
def test_s2_keeps_look_alikes_of_ports(text):
    assert s2(text) == text


def test_urls_keep_scheme_and_path_at_s2_and_lose_them_at_s0():
    url = "see https://bob:pw@db1.example.com:8443/api/v1/items?id=3."
    assert s2(url) == "see https://bob:pw@[HOST]:[PORT]/api/v1/items?id=3."
    assert s0(url) == "see https://[USER]@[HOST]:[PORT]/[PATH]."
    assert s2("(http://[::1]:8080/x)") == "(http://[IP]:[PORT]/x)"
    assert s2("http://localhost/") == "http://[HOST]/"
    assert s0("file:///etc/passwd") == "file:///[PATH]"


def test_s2_leaves_s0_families_alone():
    text = "mail bob@corp.example.com, edit /etc/hosts and main.py for Acme"
    assert redact_text(text, "S2", ["Acme"]) == "mail bob@[HOST], edit /etc/hosts and main.py for Acme"


@pytest.mark.parametrize("text, expected", [
    ("/etc/nginx/nginx.conf.", "[PATH]."),
    ("~/projects/x and $HOME/.ssh", "[PATH] and [PATH]"),
    ("C:\\Users\\bob\\notes.txt", "[PATH]"),
    ("\\\\fileserver\\share\\q3", "[PATH]"),
    ("src/app/main.py and ./run.sh and ../up", "[PATH] and [PATH] and [PATH]"),
    ("docs/index.md", "[PATH]"),
])
def test_s0_redacts_paths(text, expected):
    assert s0(text) == expected


@pytest.mark.parametrize("text", ["and/or", "TCP/IP", "24/7", "2024/01/02", "1/2 cup"])
def test_s0_keeps_look_alikes_of_paths(text):
    assert s0(text) == text


def test_s0_redacts_file_names_emails_and_entities():
    assert s0("open config.yaml, .env and backup.tar.gz") == "open [FILE], [FILE] and [FILE]"
    assert s0("write to bob.smith@corp.example.com.") == "write to [EMAIL]."
    assert s0("Acme and ACME Corp use acme-api", ["ACME Corp", "Acme"]) == \
        "[ENTITY] and [ENTITY] use [ENTITY]-api"
    assert s0("Acmeville is another word", ["Acme"]) == "Acmeville is another word"


def test_s0_keeps_ordinary_text():
    text = "Python 3.11.7 is fast, e.g. for loops. It costs 0.5 units."
    assert s0(text) == text


def test_entities_do_not_touch_placeholders_and_short_labels_are_ignored():
    assert s0("Host db1.example.com on a box", ["host", "a"]) == "[ENTITY] [HOST] on a box"


def test_numbered_placeholders_are_consistent_within_one_redactor():
    r = Redactor("S2", numbered=True)
    assert r.text("a.example.com b.example.com A.example.com") == "[HOST-1] [HOST-2] [HOST-1]"
    assert r.text("b.example.com 10.0.0.1") == "[HOST-2] [IP-1]"


@pytest.mark.parametrize("tier", ["S1", "s2", "", None, 2])
def test_invalid_tier_is_refused(tier):
    with pytest.raises(InvalidInput) as err:
        redact_text("x", tier)
    assert err.value.field == "tier"
    with pytest.raises(InvalidInput):
        redact_item({}, tier)


def _item() -> dict:
    fields = validate_create({
        "title": "Move db1.prod.example.com",
        "content": "Acme moves 10.0.0.5:5432 to /srv/pg with backup.tar.gz, mail ops@acme.io",
        "tags": ["db1.prod.example.com", "acme", "db"],
        "entities": ["Acme", "db1.prod.example.com"],
        "links": [{"rel": "supports", "to": "MEM-0123456789abcdef"}],
        "provenance": {"source_kind": "doc", "source_id": "/srv/docs/acme-runbook.md",
                       "chunk_ids": ["chunk-" + "c" * 40], "content_hashes": ["sha256:" + SHA]},
        "scope": "project:acme", "rule_id": "rule at 10.1.1.1", "corpus_id": "corpus-web01.dc2.acme",
    })
    return build_item("MEM-fedcba9876543210", fields, "2026-01-01T00:00:00Z").to_dict()


def test_s3_returns_an_equal_copy():
    item = _item()
    out = redact_item(item, "S3")
    assert out == item and out is not item and out["tags"] is not item["tags"]


def test_s2_redacts_every_string_field_and_keeps_identity():
    item = _item()
    out = redact_item(item, "S2")
    assert out["title"] == "Move [HOST]"
    assert out["content"] == "Acme moves [IP]:[PORT] to /srv/pg with backup.tar.gz, mail ops@[HOST]"
    assert out["tags"] == ["[HOST]", "acme", "db"]
    assert out["entities"] == ["Acme", "[HOST]"]
    assert out["links"] == item["links"]
    assert out["provenance"] == {"source_kind": "doc", "source_id": "/srv/docs/acme-runbook.md",
                                 "chunk_ids": ["chunk-[HASH]"], "content_hashes": ["[HASH]"]}
    assert (out["scope"], out["rule_id"], out["corpus_id"]) == ("project:acme", "rule at [IP]", "[HOST]")
    for key in ("id", "created_at", "updated_at", "tier", "type", "store", "usage_count",
                "mention_count", "confidence", "validation"):
        assert out[key] == item[key]
    assert out["content_hash"] == content_hash(out["title"], out["content"])
    assert out["content_hash"] == redacted_content_hash(out)
    assert out["content_hash"] != item["content_hash"]
    assert item["title"] == "Move db1.prod.example.com"  # the input is not modified


def test_s0_replaces_entities_everywhere_and_redacts_paths_and_files():
    out = redact_item(_item(), "S0")
    assert out["entities"] == ["[ENTITY]"]
    assert out["content"] == "[ENTITY] moves [IP]:[PORT] to [PATH] with [FILE], mail [EMAIL]"
    assert out["tags"] == ["[HOST]", "[ENTITY]", "db"]
    assert out["provenance"]["source_id"] == "[PATH]"
    assert out["scope"] == "project:[ENTITY]"
    assert out["links"][0]["to"] == "MEM-0123456789abcdef"


def test_s0_numbered_entities_are_distinct_and_match_text():
    out = redact_item(_item(), "S0", numbered=True)
    assert out["entities"] == ["[ENTITY-1]", "[ENTITY-2]"]
    assert out["content"].startswith("[ENTITY-1] moves")
    assert out["title"] == "Move [HOST-1]"


def test_unknown_string_fields_are_redacted_and_non_items_refused():
    assert redact_item({"note": "at 10.0.0.1", "n": 3}, "S2") == {"note": "at [IP]", "n": 3}
    with pytest.raises(InvalidInput):
        redact_item(["not", "an", "item"], "S2")
    with pytest.raises(InvalidInput):
        redact_text(b"bytes", "S2")


def test_long_adversarial_text_does_not_hang():
    # A backtracking pattern would run for hours on these; the redactor's linear passes end.
    # The wait is a hang guard, not a speed figure (speed is measured in bench/).
    for chunk in ("a.", "1.", "a", "a:", "/a", "_a", "::", "a@", "[", "0" * 31 + " "):
        text = chunk * 20_000
        box: list[str] = []
        worker = threading.Thread(target=lambda: box.append(redact_text(text, "S0", ["x1"])), daemon=True)
        worker.start()
        worker.join(120)
        assert box, f"redacting {chunk!r} * 20000 did not finish"
        assert len(box[0]) <= len(text) * 2


def test_an_address_run_into_a_digest_leaves_the_digest_to_the_hash_rule():
    """a@b.com.sha256:… is an address, then a digest: S0 must not take `sha256` for the
    address's last label and leave the digits behind (S2, which keeps addresses, removes them)."""
    text = "see 00@a.com.sha256:" + "0" * 32 + "0.0.0.0 later"
    s2, s0 = redact_text(text, "S2"), redact_text(text, "S0")
    assert "0" * 32 not in s2 and "0" * 32 not in s0
    assert s0 == "see [EMAIL].[HASH].0.0.0 later"
