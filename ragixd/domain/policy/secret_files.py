"""Credentials in the layouts of connection strings and credential files (session 27).

Owns five detectors, each a file or string layout that says "credential" by its grammar
rather than by a provider prefix or an assignment in code:
- the password of a `key=value;` connection string (ADO.NET, ODBC, JDBC properties:
  `Server=db01;User ID=sa;Password=…;`), read up to its `;` (an `&` or `#` is part of it)
  and only where another connection key (server, data source, database, user id, …) sits
  beside it on the line;
- a `.netrc` entry, `machine HOST login USER password …`, on one line or several;
- a password hash in a passwd-style line or an LDAP attribute (`alice:$apr1$…`,
  `root:$6$…:19000:0:…`, `admin:{SHA}…`, `userPassword: {SSHA}…`) or a bare crypt(3) string
  with its salt and a hash of full length;
- a password or token name given its value as the next field of a name/value list
  (`- name: DB_PASS` / `value: "…"` in a Kubernetes env list, `{"name": …, "value": …}`);
- a `user / password` pair after a login word ("identifiants : admin / …", "creds: deploy/…").
Placeholders, references and masks stay accepted (`Password={0}`, `Pwd=%DB_PASS%`,
`Password=<password>`, `password $NETRC_PW`, `$6$salt$hash`), as does a password that only
repeats the connection's user or database name (a demo's `User Id=app;Password=app`).
"""

from __future__ import annotations

import re

from .lazy import lazy_compile
from .rules import SECRET, Rule
from .assignments import PASSWORD, credential_kind, judge
from .values import is_placeholder, is_plain_password, looks_like_password, looks_random

# -- the password of a connection string ------------------------------------------------------

# `Password=…` or `Pwd=…` as a field of a `;`-separated string: the value braced (ODBC),
# quoted, or bare up to the next `;`, quote or line end.
_CONN_PASSWORD = lazy_compile(
    r"(?i)(?:^|(?<=[;\"'\s]))(?:password|pwd|passwd)[ \t]*=[ \t]*"
    r"(?P<value>\{(?:[^}\n]|\}\})*\}|\"[^\"\n]*\"|'[^'\n]*'|[^;\"'\n]*)(?P<end>;|[ \t]*[\"'<\n]|[ \t]*$)")
# The other fields of a connection string: their key, `=`, a value, `;`.
_CONN_FIELD = lazy_compile(
    r"(?i)(?<![^;\"'\s])(?P<key>server|data[ \t]+source|datasource|host|hostname|address|addr|network[ \t]+address"
    r"|database|initial[ \t]+catalog|dbname|user[ \t]+id|userid|uid|user|username|user[ \t]+name|driver|provider"
    r"|dsn|port|trusted_connection|integrated[ \t]+security|encrypt|sslmode|servicename|service[ \t]+name"
    r"|protocol|endpoint)[ \t]*=[ \t]*(?P<value>[^;\n]*);")
_CONN_WINDOW = 400  # characters either side of a password where its string's other fields are sought
_USER_KEYS = frozenset({"user id", "userid", "uid", "user", "username", "user name", "database", "initial catalog",
                        "dbname"})


def _unwrap(value: str) -> str:
    value = value.strip()
    if len(value) >= 2 and value[0] + value[-1] in ("{}", "\"\"", "''"):
        value = value[1:-1].replace("}}", "}")
    return value.strip()


def _is_secret_value(value: str) -> bool:
    """A concrete password, not a placeholder, template, reference or mask."""
    if not value or value[0] in "$%{<[(*" or value.endswith(("%", "}", ">")):
        return False  # `$(DB_PW)`, `%DB_PASS%`, `{0}`, `<password>`, `***`
    if credential_kind(value) is not None:
        return False  # `Password=myPassword`, `pwd=DB_PASSWORD`: a label, not a value
    if is_plain_password(value):
        return True
    return not is_placeholder(value) and (looks_like_password(value) or looks_random(value))


def has_connection_string_password(text: str) -> bool:
    """`Password=…;` among the fields of a connection string."""
    if ";" not in text or "=" not in text:
        return False  # no field separator, no field: no connection string
    for match in _CONN_PASSWORD.finditer(text):
        value = _unwrap(match.group("value"))
        # The fields are sought on the password's line, within _CONN_WINDOW of it: a whole long
        # line read again at each of its passwords made `Password=x;Server=a;` repeated quadratic.
        line_start = max(text.rfind("\n", max(0, match.start() - _CONN_WINDOW), match.start()) + 1,
                         match.start() - _CONN_WINDOW)
        line_end = text.find("\n", match.end(), match.end() + _CONN_WINDOW)
        line = text[line_start:min(len(text), match.end() + _CONN_WINDOW) if line_end == -1 else line_end]
        fields = [(f.group("key").lower(), _unwrap(f.group("value"))) for f in _CONN_FIELD.finditer(line)]
        # A connection string: another field beside the password, and the password a field
        # too (ended by `;` or preceded by one).
        before = text[max(0, match.start() - _CONN_WINDOW):match.start()].rstrip()
        if not fields or not (match.group("end") == ";" or before.endswith(";")):
            continue
        names = {re.sub(r"[ \t]+", " ", key): val.lower() for key, val in fields}
        if any(key in _USER_KEYS and val == value.lower() for key, val in names.items()):
            continue  # `User Id=demo;Password=demo`: a demo's default, the name again
        if _is_secret_value(value):
            return True
    return False


# -- a .netrc entry ---------------------------------------------------------------------------

# `machine HOST`, then up to three `login|account|port VALUE` pairs, then
# `password VALUE`; tokens separated by white space only, as the file's grammar has them.
_NETRC = lazy_compile(
    r"(?i)machine[ \t]+(?P<host>\S+)(?P<gap>(?:\s+(?:login|account|port)[ \t]+\S+){1,3})"
    r"\s+password[ \t]+(?P<value>\S+)")
_HOSTLIKE = lazy_compile(r"(?i)^(?:localhost|[\w\-]+(?:\.[\w\-]+)+|\d{1,3}(?:\.\d{1,3}){3}|\[?[0-9a-f]*:[0-9a-f:]+\]?)(?::\d+)?$")


def _netrc_entries(text: str):
    """_NETRC's matches at each "machine" that starts a word (found by a plain search of the
    lower-cased text: cheaper than the regex sliding over prose that holds the word)."""
    lowered = text.lower()
    if len(lowered) != len(text):  # a letter whose lower case is longer: offsets would drift
        yield from (m for m in _NETRC.finditer(text) if m.start() == 0 or text[m.start() - 1].isspace())
        return
    at = lowered.find("machine")
    while at != -1:
        if at == 0 or text[at - 1].isspace():
            match = _NETRC.match(text, at)
            if match is not None:
                yield match
        at = lowered.find("machine", at + 7)


def has_netrc_entry(text: str) -> bool:
    for match in _netrc_entries(text):
        host = match.group("host")
        # A host name (`api.github.com`, `localhost`); else the entry laid out over lines as the
        # file has it, with a typed password ("machine learning login page password reset" is
        # prose).
        value = match.group("value").strip("\"'")
        if _HOSTLIKE.match(host):
            if _is_secret_value(value):
                return True
        elif "\n" in match.group() and _is_secret_value(value) and not is_placeholder(value) and (
                looks_like_password(value) or looks_random(value)):
            return True  # over lines, a host without a dot: a typed password, not a word
    return False


# -- a password hash --------------------------------------------------------------------------

# crypt(3)'s modular formats: `$id$[rounds=N$]salt$hash`, the hash at full length (MD5-crypt and
# bcrypt 22 and more characters of `./A-Za-z0-9`, SHA-crypt 43 or 86, yescrypt 43).
_CRYPT = (r"\$(?:1|5|6|apr1|md5|y|gy|7|sha1|2[abxy]?)\$(?:rounds=\d{1,9}\$)?(?:[./A-Za-z0-9]{1,64}\$){1,2}"
          r"[./A-Za-z0-9]{22,}")
# An LDAP or htpasswd scheme in braces before a base64 digest.
_SCHEME = r"\{(?:SHA|SSHA|SHA256|SSHA256|SHA512|SSHA512|MD5|SMD5|CRYPT|PBKDF2[\w\-]*|ARGON2)\}[A-Za-z0-9+/$.=\-]{20,}"
_PASSWORD_HASH = lazy_compile(
    rf"(?i)(?<![\w$])(?:{_CRYPT})(?![\w$])"
    rf"|(?:^|(?<=[\s,;]))(?:[a-z_][\w.\-]{{0,31}}:|userpassword[ \t]*:[ \t]*){_SCHEME}")


def _accept_hash(match: re.Match[str]) -> bool:
    token = match.group()
    digest = re.split(r"[$}]", token)[-1]
    low = digest.lower()
    # `$6$salt$xxxxxxxx…`, `{SHA}AAAA…`: a stand-in, not a digest.
    return len(set(low)) >= 8 and not is_placeholder(digest)


# -- a credential given as a name/value pair ---------------------------------------------------

# Kubernetes and compose `env:` lists, CI variables, JSON settings: `- name: DB_PASS` then
# `value: "…"` on the next line, or `{"name": "API_TOKEN", "value": "…"}`.
_NAME_VALUE = lazy_compile(
    r"(?im)^[ \t]*-?[ \t]*name[ \t]*:[ \t]*[\"']?(?P<name>[A-Za-z_][\w.\-]{0,80})[\"']?[ \t]*\r?\n"
    r"[ \t]*value[ \t]*:[ \t]*(?P<value>\"[^\"\n]*\"|'[^'\n]*'|[^\s#]+)"
    r"|\"name\"[ \t]*:[ \t]*\"(?P<jname>[A-Za-z_][\w.\-]{0,80})\"[ \t]*,[ \t]*\"value\"[ \t]*:[ \t]*"
    r"(?P<jvalue>\"[^\"\n]*\")")


def has_name_value_secret(text: str) -> bool:
    """A password or token name given its literal value as the next field (judged as an
    assignment of that name would be: `value: ${DB_PASS}`, `value: changeme` stay accepted)."""
    for match in _NAME_VALUE.finditer(text):
        name = match.group("name") or match.group("jname")
        raw = match.group("value") or match.group("jvalue")
        kind = credential_kind(name)
        if kind is None:
            continue
        quoted = raw[:1] in "\"'"
        value = raw[1:-1] if quoted else raw
        if value and value[0] not in "$%{<" and judge(kind, value, quoted, literal_context=True,
                                                     direct=kind == PASSWORD):
            return True
    return False


# -- a user / password pair after a login word -----------------------------------------------

# "identifiants : admin / Xk9#m2…", "credentials: deploy/Tr0ub4dor&3": the slash between a user
# name and a password, right after a word that says login (in English or French).
_SLASH_PAIR = lazy_compile(
    r"(?i)\b(?:identifiants?|credentials?|creds?|login|logon|log[ \t]+in[ \t]+with|u/p|user(?:name)?[ \t]*/[ \t]*"
    r"pass(?:word)?|compte)\b(?:(?:[ \t]+[\w'\-]{1,20}){0,3}?[ \t]*(?:[:=]|\bis\b|\bare\b|\bsont\b|\best\b)"
    r"|[ \t]*[:=\-]?)[ \t]*(?P<user>[\w.@\-]{2,64})"
    r"[ \t]*/[ \t]*(?P<password>[^\s/]{4,64})(?=\s|$)")


def has_slash_login_pair(text: str) -> bool:
    if "/" not in text:
        return False
    for match in _SLASH_PAIR.finditer(text):
        password = match.group("password").rstrip(".,;)")
        if password.lower() == match.group("user").lower() or is_placeholder(password):
            continue
        if looks_like_password(password) or looks_random(password):
            return True
    return False


def file_rules() -> list[Rule]:
    return [
        Rule(id="secret.connection_string_password", kind=SECRET, family="db_or_url_credentials",
             description="contains a connection string with its password (Password=…;)",
             check=has_connection_string_password, needles=("password", "pwd", "passwd"), view="text"),
        Rule(id="secret.netrc_entry", kind=SECRET, family="generic_password_or_key",
             description="contains a .netrc entry with its password",
             check=has_netrc_entry, needles=("machine",), view="text"),
        Rule(id="secret.name_value_pair", kind=SECRET, family="generic_password_or_key",
             description="gives a password or token as a name/value pair (env lists, CI variables)",
             check=has_name_value_secret, needles=("value:", "value :", "\"value\""), view="text"),
        Rule(id="secret.slash_login_pair", kind=SECRET, family="generic_password_or_key",
             description="gives a user / password pair after a login word",
             check=has_slash_login_pair, needles=("identifiant", "credential", "creds", "cred:", "cred ", "login",
                                                 "logon", "log in", "u/p", "user/pass", "username/pass", "user / pass",
                                                 "username / pass", "compte"), view="text"),
        Rule(id="secret.password_hash", kind=SECRET, family="generic_password_or_key",
             description="contains a password hash (crypt, htpasswd or LDAP form)",
             pattern=_PASSWORD_HASH, accept=_accept_hash,
             needles=("$1$", "$5$", "$6$", "$apr1$", "$md5$", "$y$", "$gy$", "$7$", "$sha1$", "$2$", "$2a$",
                      "$2b$", "$2x$", "$2y$", "{sha", "{ssha", "{md5", "{smd5", "{crypt", "{pbkdf2", "{argon2"),
             view="text"),
    ]
