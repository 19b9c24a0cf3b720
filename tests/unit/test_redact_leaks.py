"""Leaks a QA pass found in `ragixctl export --tier`, each pinned with the look-alikes that
must survive: paths after a host, port flags and bare ports, user@host without a dot, and
key or config file names without an extension."""

from __future__ import annotations

import pytest

from ragixd.domain.redact import redact_text


def s2(text: str) -> str:
    return redact_text(text, "S2")


def s0(text: str, entities=()) -> str:
    return redact_text(text, "S0", entities)


# -- 1. paths after host:, user@host: and a host token ---------------------------------------

@pytest.mark.parametrize("text, expected", [
    ("scp dump.sql db01.acme.com:/srv/acme/payroll/dump.sql", "scp [FILE] [HOST]:[PATH]"),
    ("rsync root@10.0.0.5:/var/lib/payroll/data", "rsync [EMAIL]:[PATH]"),
    ("db01.acme.com//etc/acme/secrets.yaml", "[PATH]"),
    ("host//etc/acme/secrets.yaml", "[PATH]"),
    ("clone git@github.com:acme/payroll now", "clone [EMAIL]:[PATH] now"),
    ("copy to db01:/srv/payroll.", "copy to db01:[PATH]."),
    ("copy to db01:8443/srv/payroll/x", "copy to db01:[PORT]/[PATH]"),
    ("scp ops@db01:/srv/x .", "scp [EMAIL]:[PATH] ."),
    ("see web01.dc2.acme:8443/api/payroll", "see [HOST]:[PORT]/[PATH]"),
    ("from 10.0.0.5:backups/db.sql", "from [IP]:[PATH]"),
    ("mirror [2001:db8::1]:/srv/x", "mirror [IP]:[PATH]"),
    ("open example.com/acme-payroll", "open [HOST]/[PATH]"),
])
def test_s0_redacts_paths_after_a_host(text, expected):
    assert s0(text) == expected


@pytest.mark.parametrize("text", [
    "Note: the time is 10:30", "from 10:30/day on", "ratio 3:2 and 24/7", "image postgres:16",
    "and//or", "a // comment", "TCP/IP", "std::vector",
])
def test_s0_keeps_look_alikes_of_remote_paths(text):
    assert s0(text) == text


def test_s0_keeps_placeholders_after_a_host_and_line_numbers_after_files():
    assert s0("https://db1.example.com:8443/api/v1") == "https://[HOST]:[PORT]/[PATH]"
    assert s0("edit item.py:42") == "edit [FILE]:42"
    assert s0("db1.example.com:5432") == "[HOST]:[PORT]"


# -- 2. port flags and bare :PORT --------------------------------------------------------------

@pytest.mark.parametrize("text, expected", [
    ("mysql -h db -P 3306 -u app", "mysql -h db -P [PORT] -u app"),
    ("redis-cli -p 6379 ping", "redis-cli -p [PORT] ping"),
    ("ssh -p 2222 deploy", "ssh -p [PORT] deploy"),
    ("ssh -p2222 deploy", "ssh -p[PORT] deploy"),
    ("docker run -p 8080:80 app", "docker run -p [PORT]:[PORT] app"),
    ("it listens on :8443 now", "it listens on :[PORT] now"),
    ("(bind :80)", "(bind :[PORT])"),
    ("listen [::]:8443 and *:8080", "listen [::]:[PORT] and *:[PORT]"),
    ("ssh -L 8080:localhost:80 -R 127.0.0.1:9000:db:5432 bastion",
     "ssh -L [PORT]:localhost:[PORT] -R [IP]:[PORT]:db:[PORT] bastion"),
])
def test_s2_redacts_port_flags_and_bare_ports(text, expected):
    assert s2(text) == expected
    assert s0(text) == expected


@pytest.mark.parametrize("text", [
    "version 2.3 ships 3 items", "meet at 10:30, not 11:45:10", "pages 10-20", "x[:10] and y[1:20]",
    "ratio 3:2", "use -p for parents", "top -n 20 -d 5", "a 1-2 p. 300",
    "python -m pytest -p no:cacheprovider",
])
def test_s2_keeps_numbers_that_are_not_ports(text):
    assert s2(text) == text


# -- 3. user@host without a dot, key and config file names --------------------------------------

@pytest.mark.parametrize("text, at_s2, at_s0", [
    ("mail alice@localhost.", "mail alice@[HOST].", "mail [EMAIL]."),
    ("ssh deploy@db01 -p 2222", "ssh deploy@[HOST] -p [PORT]", "ssh [EMAIL] -p [PORT]"),
    ("log in as root@build-host", "log in as root@[HOST]", "log in as [EMAIL]"),
    ("ping alice@devbox", "ping alice@devbox", "ping [EMAIL]"),
])
def test_user_at_host_without_a_dot(text, at_s2, at_s0):
    assert s2(text) == at_s2
    assert s0(text) == at_s0


@pytest.mark.parametrize("text", ["npm i react@18", "y = x@W", "stash@{0}", "@decorator", "a@b"])
def test_user_at_host_look_alikes_survive(text):
    assert s2(text) == text and s0(text) == text


@pytest.mark.parametrize("text, expected", [
    ("copy id_rsa and id_ed25519_sk", "copy [FILE] and [FILE]"),
    ("keys: id_ecdsa, id_dsa-cert, authorized_keys, known_hosts.", "keys: [FILE], [FILE], [FILE], [FILE]."),
    ("send id_rsa.pub", "send [FILE]"),
    ("edit .bashrc, .curlrc, .my.cnf and .env.production", "edit [FILE], [FILE], [FILE] and [FILE]"),
    ("see .git-credentials and .vault-token", "see [FILE] and [FILE]"),
])
def test_s0_redacts_key_and_config_file_names(text, expected):
    assert s0(text) == expected
    assert s2(text) == text


@pytest.mark.parametrize("text", ["the id_card field", "known hosts", "rsa keys", ".NET and .5 units"])
def test_s0_keeps_words_like_key_file_names(text):
    assert s0(text) == text


def test_s0_removes_what_s2_removes_around_an_at_sign():
    # Found by the S2-to-S0 property: the e-mail rule used to eat 0.0.0.0@0.0.0.0 before the
    # IPv6 rule saw ::1:0.0.0.0, so S0 kept the "::1" that S2 removed.
    text = "at ::1:0.0.0.0@0.0.0.0 now"
    assert s2(text) == "at [IP]@[IP] now"
    assert "::1" not in s0(text)
    assert s2("root@[2001:db8::1]") == "root@[IP]" and s0("root@[2001:db8::1]") == "[EMAIL]"


def test_s0_entity_labels_in_other_spellings_and_fullwidth_hosts_are_redacted():
    from ragixd.domain.redact import redact_text
    text = "carol_danvers_notes, CAROL  DANVERS, Carol\nDanvers and carol-danvers wrote"
    out = redact_text(text, "S0", ["Carol Danvers"])
    assert "danvers" not in out.lower() and out.count("[ENTITY]") == 4
    assert "Danversky" in redact_text("Carol Danversky", "S0", ["Carol Danvers"])  # a longer name is another
    for tier in ("S2", "S0"):
        out = redact_text("db at ｄｂ０１.acme.com, ip １０.０.０.１", tier)
        assert "acme" not in out and "１０" not in out and "10.0.0.1" not in out, out
    assert "example" not in redact_text("mail alice＠example.com", "S0")


def test_an_address_at_a_bracketed_ip_is_an_email_address_at_s0():
    from ragixd.domain.redact import redact_text
    assert redact_text("write to carol@[10.1.2.3] today", "S0") == "write to [EMAIL] today"
    assert "10.1.2.3" not in redact_text("write to carol@[10.1.2.3] today", "S2")


def test_password_hashes_in_crypt_form_are_hashes_below_s3():
    from ragixd.domain.redact import redact_text
    for hashed in ("$2b$12$R9h/cIPz0gi.URNNX3kh2OPST9/PgBkqquzi.Ss7KIUgO2t0jWMUW",
                   "$6$rounds=5000$saltsalt$abcdefghijklmnopqrstuvwxyzABCDEF0123",
                   "$argon2id$v=19$m=65536,t=3,p=4$c29tZXNhbHQ$RdescudvJCsgt3ub+b+dWRWJTmaaJObG"):
        for tier in ("S2", "S0"):
            assert redact_text(f"stored as {hashed} here", tier) == "stored as [HASH] here"
    assert redact_text("costs $5 and $6 each, $2b$ cheap", "S2") == "costs $5 and $6 each, $2b$ cheap"


def test_windows_paths_with_spaces_and_variables_are_paths_at_s0():
    from ragixd.domain.redact import redact_text
    assert redact_text(r"run C:\Program Files\Acme Corp\payroll.exe now", "S0") == "run [PATH] now"
    assert redact_text(r"C:\temp is full", "S0") == "[PATH] is full"
    out = redact_text(r"from \\fs01.acme.corp\hr\Carol Danvers\review.docx, then", "S0")
    assert "Danvers" not in out and "review" not in out, out
    for path in (r"%APPDATA%\Acme\vault", r"%USERPROFILE%\Desktop\plan.docx"):
        assert redact_text(f"in {path} today", "S0") == "in [PATH] today"
    assert redact_text("100% sure, 50% off", "S0") == "100% sure, 50% off"
