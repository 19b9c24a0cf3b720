"""Session 27's review of the S2/S0 export redaction: the gaps it closed, each pinned with the
look-alikes that must survive (versions, dates, times, decimals, abbreviations, code)."""

from __future__ import annotations

import threading

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


# -- 6. digests of other lengths, abbreviated object names, base64 digests --------------------

@pytest.mark.parametrize("text", [
    "0123456789abcdef0123456789abcdef01",  # 34
    "0123456789abcdef0123456789abcdef0123",  # 36
    "0123456789abcdef0123456789abcdef0123456789abcdef01234567",  # 56: SHA-224
    "1220" + "ab12" * 16,  # a sha2-256 multihash, 68
    "3f2a1bc9d8e7",  # an abbreviated commit or image id, 12
    "9c0d1e2f3a4b5c6d7e8f",  # 20
])
def test_s2_redacts_hex_runs_of_any_digest_length(text):
    assert s2(f"id {text}, done") == "id [HASH], done"


@pytest.mark.parametrize("text, expected", [
    ("commit 3f2a1bc", "commit [HASH]"),
    ("git checkout a1b2c3d;", "git checkout [HASH];"),
    ("reverted 4e5f6a7..8b9c0d1", "reverted [HASH]..[HASH]"),
    ("Commit: 1234567", "Commit: [HASH]"),
    ("git reset --hard 0e1d2c3b", "git reset --hard [HASH]"),
    ("fixup! 5a6b7c8 typo", "fixup! [HASH] typo"),
])
def test_s2_redacts_short_git_object_names_after_a_word_that_names_one(text, expected):
    assert s2(text) == expected


@pytest.mark.parametrize("text", [
    "sha256 47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU= ok",
    'etag="1B2M2Y8AsgTpgAmY7PhCfg=="',
    "sha1 2jmj7l5rSw0yVb/vlWAYkK/YBwk= ok",
    "x " + "Ab1/" * 21 + "Ab==",
])
def test_s2_redacts_padded_base64_digests(text):
    out = s2(text)
    assert "[HASH]" in out and "=" not in out.replace('etag="', ""), out


@pytest.mark.parametrize("text", [
    "uuid 550e8400-e29b-41d4-a716-446655440000", "ptr 0x7ffd5a2b3c40", "word deadbeefcafe",
    "account 123456789012", "commit the change", "commit 3 files", "revision 12", "abcdef1234",
    "show 1234567 rows", '"dGhpcyBpcyBhIHRlc3Q="', "padding== A=B x==y base64=", "1e100",
    "odd length " + "a" * 33, "color #ff00aa", "isbn 9780306406157", "commit deadbee",
    "1920x1080", "a" * 24 + "==", "Python 3.12.1 on 2024-01-02 at 12:30",
])
def test_s2_keeps_hex_and_base64_look_alikes(text):
    assert s2(text) == text


# -- 7. ports named by a key or a listen/EXPOSE directive ----------------------------------------

@pytest.mark.parametrize("text, expected", [
    ("PGPORT=5432", "PGPORT=[PORT]"),
    ("httpPort: 8080", "httpPort: [PORT]"),
    ('"targetPort": 443,', '"targetPort": [PORT],'),
    ("containerPort: 8080\nnodePort: 30080", "containerPort: [PORT]\nnodePort: [PORT]"),
    ("listen 80;", "listen [PORT];"),
    ("listen 443 ssl http2;", "listen [PORT] ssl http2;"),
    ("the API listens on 8443.", "the API listens on [PORT]."),
    ("EXPOSE 8080 8443", "EXPOSE [PORT] [PORT]"),
    ("listening at port 5000", "listening at port [PORT]"),
])
def test_s2_redacts_ports_named_by_a_key_or_a_directive(text, expected):
    assert s2(text) == expected


@pytest.mark.parametrize("text", [
    "import: 3", "report: 2024", "Report=2024", "support: 365 days", "Passport: 12345", "supportPort",
    "listening on 16 threads", "exposes 3 methods", "listen to 45 songs", "listened at 10 am",
    "on 8443 days", "transport=2", "EXPOSE the API", "listen 1.5 hours",
])
def test_s2_keeps_numbers_after_look_alike_keys_and_verbs(text):
    assert s2(text) == text


# -- 8. single-label hosts where a key names them; UNC servers -----------------------------------

@pytest.mark.parametrize("text, expected", [
    ("DB_HOST=db01", "DB_HOST=[HOST]"),
    ("PGHOST=db01 psql", "PGHOST=[HOST] psql"),
    ("--host intranet", "--host [HOST]"),
    ("--hostname=cache-1", "--hostname=[HOST]"),
    ("REDIS_HOSTNAME=cache-1", "REDIS_HOSTNAME=[HOST]"),
    ("dbHost: db01", "dbHost: [HOST]"),
    ("db:\n  host: db01\n  port: 5432", "db:\n  host: [HOST]\n  port: [PORT]"),
    ('{"host": "intranet", "port": 5432}', '{"host": "[HOST]", "port": [PORT]}'),
    ("Host *\n  HostName bastion\n", "Host *\n  HostName [HOST]\n"),
    ("host=db01.acme:5432", "host=[HOST]:[PORT]"),
    ("\\\\fs01\\hr\\salaries.xlsx", "\\\\[HOST]\\hr\\salaries.xlsx"),
    ("\\\\fs01.acme.com\\share", "\\\\[HOST]\\share"),
])
def test_s2_redacts_single_label_hosts_named_by_a_key_and_unc_servers(text, expected):
    assert s2(text) == expected


@pytest.mark.parametrize("text", [
    "connect to db01 then intranet", "host=localhost", "ghost=spooky", "Host: the machine is down",
    "hostname=${HOSTNAME}", "host: null", "the host: it failed, then", 'r"C:\\\\Users\\\\bob"',
    "b'\\\\x41\\\\x42'", "print('\\\\n\\\\t')", "host=config.yaml", "hostname: 3.12.1",
])
def test_s2_keeps_single_labels_no_key_names_and_escapes(text):
    assert s2(text) == text


def test_s0_redacts_a_unc_path_whose_server_is_an_address():
    assert s0("\\\\10.0.0.5\\finance\\payroll.xlsx") == "[PATH]"
    assert s0("open \\\\[IP]\\finance\\q3.xlsx now") == "open [PATH] now"



def test_a_quoted_port_key_is_a_port_key():
    assert s2("\"port\": \"5432\", 'ports': 80") == "\"port\": \"[PORT]\", 'ports': [PORT]"


# -- the new passes stay linear -------------------------------------------------------------------

@pytest.mark.parametrize("chunk", ["host_", "a。", "a[.]", "0x1.", "ab12", "Ab1/", "commit ", "listen 80 ",
                                   "\\\\a", "服务器a.b", "xn--a.", "Port: 1 ", "_host"])
def test_long_adversarial_text_for_the_new_passes_does_not_hang(chunk):
    # A pass that retries inside a run is quadratic: 60,000 repeats take minutes, not seconds.
    text = chunk * 60_000 + "=x"
    box: list[str] = []
    worker = threading.Thread(target=lambda: box.append(redact_text(text, "S0", ["x1"])), daemon=True)
    worker.start()
    worker.join(20)
    assert box, f"redacting {chunk!r} * 60000 did not finish in 20 s"


# -- 10. wildcard names, zero-padded IPv4, connection strings ---------------------

@pytest.mark.parametrize("text, expected", [
    ("cert for *.acme.com", "cert for *.[HOST]"),
    ("192.168.001.010", "[IP]"),
    ("10.00.0.5:22", "[IP]:[PORT]"),
    ("192.168.01.08", "[IP]"),
    ("Server=db01;Database=payroll;", "Server=[HOST];Database=payroll;"),
    ("Data Source=db01\\SQLEXPRESS;", "Data Source=[HOST]\\SQLEXPRESS;"),
    ("Host *\n  ProxyJump bastion\n", "Host *\n  ProxyJump [HOST]\n"),
])
def test_s2_redacts_wildcards_padded_addresses_and_connection_strings(text, expected):
    assert s2(text) == expected


@pytest.mark.parametrize("text", [
    "01.02.03.04", "file:/etc/x", "PATH=/usr/bin:/bin", "C:/Users", "Server: nginx", "a*.b",
    "server=${DB}", "server=1", "12.05.2024",
])
def test_s2_keeps_look_alikes_of_wildcards_padded_addresses_and_key_values(text):
    assert s2(text) == text
