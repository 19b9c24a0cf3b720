"""Session 27, secrets: credential layouts a red-team pass found accepted, now refused, each
with the look-alikes that stay accepted, on the native and the pure-Python path alike.

1. the password of a `key=value;` connection string (ADO.NET, ODBC, JDBC properties);
2. a `.netrc` entry, on one line or over several;
3. a password hash: crypt(3) strings, htpasswd and shadow lines, LDAP `{SSHA}` values;
4. a password or token as a name/value pair (`- name: DB_PASS` / `value: "…"`);
5. a `user / password` pair after a login word ("identifiants : admin / …").

Passwords and hashes are built at test time (random bodies).
"""

from __future__ import annotations

import random
import string

import pytest

from support.policy_paths import accepted, refused_by



RNG = random.Random(27)
ALNUM = string.ascii_letters + string.digits
CRYPT = ALNUM + "./"


def _rand(n: int, alphabet: str = ALNUM) -> str:
    return "".join(RNG.choice(alphabet) for _ in range(n))


def password() -> str:
    """A typed password: letters, digits and a symbol that ends a bare value elsewhere (`&`, `#`)."""
    return _rand(4, string.ascii_lowercase) + _rand(3, string.digits) + RNG.choice("&#!%*") + _rand(4)


# -- 1. a connection string's password ---------------------------------------------------------

CONNECTION_SHAPES = [
    "Server=tcp:sql01.example.net,1433;Database=orders;User ID=sa;Password={p};",
    "Data Source=db01;Initial Catalog=app;User Id=app;Password={p}",
    'conn = "Driver={{ODBC Driver 18 for SQL Server}};Server=db;Uid=svc;Pwd={{{p}}};"',
    "jdbc:sqlserver://db:1433;databaseName=app;user=svc;password={p};encrypt=true",
    "Host=pg;Port=5432;Username=app;Password={p};Database=app",
    "  <add name=\"Main\" connectionString=\"Server=db;Database=shop;User Id=web;Password={p};\" />",
]


@pytest.mark.parametrize("shape", CONNECTION_SHAPES)
@pytest.mark.parametrize("value", ["random", "hunter2", "correct-horse-battery"])
def test_connection_string_password_is_refused(shape: str, value: str) -> None:
    p = password() if value == "random" else value
    refused_by(shape.format(p=p), "secret.connection_string_password")


@pytest.mark.parametrize("text", [
    "Server=db;User ID=sa;Password=;",
    "Server=db;User ID=sa;Password={0};",
    "Server=db;User ID=sa;Password=<password>;",
    "Server=db;User ID=sa;Password=$(DB_PASSWORD);",
    "Server=db;Database=app;User ID=sa;Password=${SA_PASSWORD};",
    "Server=db;User ID=sa;Password=****;",
    "Server=db;User ID=sa;Password=your_password;",
    "Server=myServerAddress;Database=myDataBase;User Id=myUsername;Password=myPassword;",
    "Data Source=db;User Id=demo;Password=demo;",  # a demo's default: the user name again
    "Server=db;Integrated Security=true;Database=app;",
    "The format is Server=<host>;Database=<db>;User Id=<user>;Password=<password>;",
    'builder["Password"] = pw; builder["Server"] = host;',
    "set the Password= field and the Server= field in the dialog",
])
def test_connection_string_look_alikes_are_accepted(text: str) -> None:
    accepted(text)


# -- 2. a .netrc entry -------------------------------------------------------------------------

@pytest.mark.parametrize("shape", [
    "machine api.example.com login bob password {p}",
    "machine ftp.example.org\n  login bob\n  password {p}",
    "# ~/.netrc\nmachine 10.0.0.5\nlogin deploy\npassword {p}\n",
    "machine git.internal.example:8443 login ci account ops password {p}",
    "cat ~/.netrc\nmachine buildbox\n    login jenkins\n    password {p}",
])
def test_netrc_entry_is_refused(shape: str) -> None:
    refused_by(shape.format(p=password()), "secret.netrc_entry")


def test_netrc_entry_with_a_plain_word_and_a_host_is_refused() -> None:
    refused_by("machine nas.home.lan login admin password sunshine", "secret.netrc_entry")


@pytest.mark.parametrize("text", [
    "The machine learning login page password reset link expired.",
    "machine learning\nlogin page\npassword reset",
    "machine api.example.com login bob password $NETRC_PASSWORD",
    "machine example.com login USERNAME password PASSWORD",
    "machine example.com login <user> password <token>",
    "Each machine needs a login and a password before it joins the domain.",
])
def test_netrc_look_alikes_are_accepted(text: str) -> None:
    accepted(text)


# -- 3. a password hash ------------------------------------------------------------------------

@pytest.mark.parametrize("make", [
    lambda: f"admin:$apr1${_rand(8, CRYPT)}${_rand(22, CRYPT)}",
    lambda: f"web:$1${_rand(8, CRYPT)}${_rand(22, CRYPT)}",
    lambda: f"root:$6${_rand(16, CRYPT)}${_rand(86, CRYPT)}:19000:0:99999:7:::",
    lambda: f"bob:$y$j9T${_rand(22, CRYPT)}${_rand(43, CRYPT)}:19500:0:99999:7:::",
    lambda: f"the hash is $5$rounds=5000${_rand(16, CRYPT)}${_rand(43, CRYPT)}",
    lambda: f"admin:{{SHA}}{_rand(27)}=",
    lambda: f"dn: uid=ann,ou=people\nuserPassword: {{SSHA}}{_rand(32)}",
])
def test_password_hash_is_refused(make) -> None:
    refused_by(make(), "secret.password_hash")


@pytest.mark.parametrize("text", [
    "$6$salt$hash",
    "$6$rounds=5000$usesomesillystri$" + "x" * 43,
    "echo $1$2$3",
    "prices went from $5$ to $6$",
    "admin:{SHA}<base64 digest>",
    "Use {SHA} or {SSHA} as the scheme.",
    "root:x:0:0:root:/root:/bin/bash",
    "root:*:19000:0:99999:7:::",
    "bob:!:19000::::::",
])
def test_password_hash_look_alikes_are_accepted(text: str) -> None:
    accepted(text)


# -- 4. a name/value pair (written after a check batch found the Kubernetes env list accepted) ----

@pytest.mark.parametrize("make", [
    lambda: f"- name: DB_PASS\n  value: \"{password()}\"",
    lambda: f"env:\n  - name: API_TOKEN\n    value: {_rand(32)}",
    lambda: '{"name": "STRIPE_SECRET", "value": "%s"}' % _rand(32),
    lambda: "- name: POSTGRES_PASSWORD\n  value: sunshine42",
])
def test_name_value_secret_is_refused(make) -> None:
    refused_by(make(), "secret.name_value_pair")


@pytest.mark.parametrize("text", [
    "- name: DB_PASS\n  valueFrom:\n    secretKeyRef:\n      name: db\n      key: password",
    "- name: DB_PASS\n  value: ${DB_PASS}",
    '- name: DB_PASS\n  value: ""',
    "- name: API_TOKEN\n  value: $(API_TOKEN)",
    "- name: LOG_LEVEL\n  value: debug",
    '{"name": "color", "value": "#ff0000"}',
    "- name: DB_PASSWORD\n  value: changeme",
    '- name: PASSWORD_MIN_LENGTH\n  value: "12"',
])
def test_name_value_look_alikes_are_accepted(text: str) -> None:
    accepted(text)


# -- 5. a user / password pair after a login word --------------------------------------------------

@pytest.mark.parametrize("shape", [
    "identifiants : admin / {p}",
    "credentials: deploy/{p}",
    "login root / {r}",
    "Username/Password: svc_backup / {p}",
    "Les identifiants du NAS sont admin / {p}",
])
def test_slash_login_pair_is_refused(shape: str) -> None:
    refused_by(shape.format(p=password(), r=_rand(16)), "secret.slash_login_pair")


@pytest.mark.parametrize("text", [
    "login: yes / no",
    "credentials: see vault / 1Password",
    "login page / portal",
    "Login / Logout buttons",
    "credentials: username / password",
    "login: admin / <password>",
    "creds: user/pass",
    "compte : 12 / 15 ok",
    "login 2024/2025 season",
    "The account credentials are stored in 1Password / Bitwarden.",
])
def test_slash_login_pair_look_alikes_are_accepted(text: str) -> None:
    accepted(text)
