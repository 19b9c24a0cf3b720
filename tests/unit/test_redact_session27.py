"""Session 27's review of the S2/S0 export redaction: the gaps it closed, each pinned with the
look-alikes that must survive (versions, dates, times, decimals, abbreviations, code)."""

from __future__ import annotations

import pytest

from ragixd.domain.redact import redact_text


def s2(text: str) -> str:
    return redact_text(text, "S2")


def s0(text: str, entities=()) -> str:
    return redact_text(text, "S0", entities)


# -- 1. text in scripts written without spaces (Han, kana, hangul) ------------------------------

@pytest.mark.parametrize("text, expected", [
    ("服务器db01.acme.com已经宕机", "服务器[HOST]已经宕机"),
    ("地址10.0.0.5端口5432", "地址[IP]端口[PORT]"),
    ("サーバーdb01.acme.comに接続、IPは192.168.1.10です", "サーバー[HOST]に接続、IPは[IP]です"),
    ("接続先db01.acme.com:5432です", "接続先[HOST]:[PORT]です"),
    ("redis:6379です", "redis:[PORT]です"),
    ("地址fe80::1%eth0已经", "地址[IP]已经"),
    ("ポート8080 포트 22", "ポート[PORT] 포트 [PORT]"),
    ("root@db01です", "root@[HOST]です"),
])
def test_s2_redacts_addresses_written_into_cjk_text(text, expected):
    assert s2(text) == expected


def test_s0_redacts_cjk_adjacent_emails_and_files_and_keeps_cjk_prose():
    assert s0("联系alice@acme.com谢谢").endswith("谢谢") and "alice" not in s0("联系alice@acme.com谢谢")
    assert s0("请看main.py文件 和 报告.pdf") == "请看[FILE]文件 和 [FILE]"
    for text in ("我们用Python3.12开发。版本1.2.3已经发布。", "会议在12:30开始、比例0.75。",
                 "端口号很重要", "東京タワー.日本"):
        assert s0(text) == text


# -- 2. internationalised host names and e-mail domains ---------------------------------------

@pytest.mark.parametrize("text", [
    "bücher.de", "münchen.example.com", "xn--bcher-kva.de", "xn--mnchen-3ya.example.com",
    "пример.рф", "xn--e1afmkfd.xn--p1ai", "Straße.de:8443",
])
def test_s2_redacts_idn_hosts_in_both_forms(text):
    out = s2(f"mirror at {text}, then")
    assert out.startswith("mirror at [HOST]") and out.endswith(", then"), out


@pytest.mark.parametrize("text", [
    "C'est ça.Voilà la suite", "résumé.pdf est là", "Привет.Как дела", "café.au.lait", "naïve.rb",
])
def test_s2_keeps_unicode_prose_that_is_not_a_host(text):
    assert s2(text) == text


@pytest.mark.parametrize("text", [
    "jöran@bücher.de", "user@xn--bcher-kva.de", '"john doe"@acme.com', "o'brien@acme.com",
    "alice+tag@acme.com", "ALICE@ACME.COM", "a.b-c@sub.acme.co.uk", "alice@[IPv6:2001:db8::1]",
])
def test_s0_redacts_every_form_of_email_address(text):
    assert s0(f"write to {text}.") == "write to [EMAIL]."


def test_s2_redacts_the_address_literal_of_an_email_and_keeps_the_user():
    assert s2("alice@[IPv6:2001:db8::1]") == "alice@[IP]"
    assert s2('"john doe"@acme.com') == '"john doe"@[HOST]'


# -- 3. IPv6 zone ids ---------------------------------------------------------------------------

@pytest.mark.parametrize("text, expected", [
    ("fe80::1%eth0:8080", "[IP]:[PORT]"),
    ("[fe80::1%25eth0]:8080", "[IP]:[PORT]"),
    ("fe80::1ff:fe23:4567:890a%3", "[IP]"),
    ("::ffff:10.0.0.5 and 64:ff9b::10.0.0.5", "[IP] and [IP]"),
    ("[::ffff:10.0.0.5]:443", "[IP]:[PORT]"),
])
def test_s2_redacts_ipv6_with_zone_ids_and_embedded_ipv4(text, expected):
    assert s2(text) == expected


# -- 4. dot look-alikes as separators -----------------------------------------------------------

@pytest.mark.parametrize("text, expected", [
    ("db01。acme。com", "[HOST]"),
    ("db01．acme．com", "[HOST]"),  # fullwidth full stop (NFKC: ".")
    ("db01｡acme｡com", "[HOST]"),  # halfwidth ideographic full stop (NFKC: "。")
    ("10。0。0。5", "[IP]"),
    ("地址是db01。acme。com。然后", "地址是[HOST]。然后"),
    ("db01[.]acme[.]com", "[HOST]"),
    ("10[.]0[.]0[.]5:443", "[IP]:[PORT]"),
    ("evil(.)com", "[HOST]"),
    ("acme[dot]co[DoT]uk", "[HOST]"),
    ("db01.acme[.]com", "[HOST]"),
    ("db01{.}prod:8443", "[HOST]:[PORT]"),
])
def test_s2_redacts_hosts_and_addresses_with_look_alike_dots(text, expected):
    assert s2(text) == expected


@pytest.mark.parametrize("text", [
    "我用Python。Java也行。版本3。2。", "a[.]b", "(.)\\1 matches a pair", "x[.] [.]", "e.g。这样",
    "i。e。", "see list[.] then", "Done。Thanks", "1[.]2[.]3", "re.sub(r'[.]', '', s)",
])
def test_s2_keeps_look_alike_dots_that_join_no_host(text):
    assert s2(text) == text


# -- 5. IPv4 in the other forms inet_aton reads -------------------------------------------------

@pytest.mark.parametrize("text, expected", [
    ("0300.0250.0.1", "[IP]"),
    ("0x7f.0.0.1", "[IP]"),
    ("0xc0.0xa8.1", "[IP]"),
    ("0x7f.1", "[IP]"),
    ("010.0.0.1:22", "[IP]:[PORT]"),
    ("0xC0.0xA8.0x01.0x01", "[IP]"),
    ("http://3232235777/", "http://[IP]/"),
    ("http://0x7f.1:8080/x", "http://[IP]:[PORT]/x"),
    ("http://0xc0a80001/", "http://[IP]/"),
])
def test_s2_redacts_ipv4_in_hex_and_octal_forms(text, expected):
    assert s2(text) == expected


@pytest.mark.parametrize("text", [
    "127.1", "10.1", "10.0.1", "01.02.03.04", "0x1.8p3", "3.12.1", "0.5", "0x10", "2024.01.02",
    "1.0.0.0.0", "0x1.0x2.3.4.5", "0300.0250.0.1.2", "0x100.1.2.3", "0999.1.2.3", "v0x7f.1",
])
def test_s2_keeps_numbers_that_are_not_inet_aton_addresses(text):
    assert s2(f"see {text} here") == f"see {text} here"


def test_a_url_host_that_is_a_plain_number_is_an_ip_and_an_ordinary_name_a_host():
    assert s2("http://99999999999/") == "http://[HOST]/"  # > 2**32: not an address
    assert s2("http://intranet/wiki") == "http://[HOST]/wiki"
