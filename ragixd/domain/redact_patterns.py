"""The vocabulary and patterns of secrecy-tier redaction (ragixd.domain.redact): tiers,
placeholder kinds, the fields kept verbatim, file extensions and host suffixes, and the regular
expressions that find hosts, addresses, hashes, ports, paths, files and e-mail addresses."""

from __future__ import annotations

import re

TIERS = ("S3", "S2", "S0")
KINDS = ("HOST", "IP", "HASH", "PORT", "PATH", "FILE", "EMAIL", "ENTITY", "USER")
PH = r"\[(?:" + "|".join(KINDS) + r")(?:-\d+)?\]"
PLACEHOLDER_RE = re.compile(PH)
# Item fields that carry no free text: identity, lifecycle, enums, numbers and timestamps.
# Item fields that hold an item id: kept, or replaced by the id's pseudonym (see item_id).
ID_FIELDS = ("id", "superseded_by")
KEPT_FIELDS = frozenset({
    "id", "created_at", "updated_at", "tier", "type", "store", "validation", "confidence",
    "expires_at", "usage_count", "last_used_at", "mention_count", "superseded_by", "archived",
    "content_hash",
})

FILE_EXTS = frozenset("""
txt md rst adoc py pyi pyc pyx ipynb js mjs cjs ts tsx jsx json jsonl ndjson yaml yml toml
ini cfg conf env lock log csv tsv xml html htm css scss sass less sql sh bash zsh fish ps1 bat
cmd c h cc cpp hpp cxx hh java kt kts scala go rs rb php pl pm lua r swift mm cs fs vb dart ex
exs erl hs ml clj el vim tf tfvars hcl proto graphql gql pem key crt cer csr der p12 pfx pub
jks gpg asc sig db sqlite sqlite3 bak tmp swp pid sock out dat bin exe dll so dylib o obj
class jar war whl egg gem deb rpm apk dmg iso img zip tar gz tgz bz2 xz zst 7z rar pdf doc
docx xls xlsx ppt pptx odt png jpg jpeg gif svg webp ico bmp tiff mp3 mp4 wav avi mov mkv
webm ttf woff woff2 otf map wasm parquet avro npy npz pkl pickle pt pth onnx h5 ckpt
safetensors gguf mdx vue svelte patch diff orig in j2 tpl service timer socket mount desktop
cnf
""".split())
DOTFILES = ("env|envrc|bashrc|bash_profile|bash_history|zshrc|profile|netrc|pgpass|npmrc|"
            "pypirc|gitconfig|gitignore|dockerignore|ssh|aws|kube|docker|vimrc|htpasswd|"
            "htaccess|git|gnupg|config|local|cache|git-credentials|vault-token|vault_pass|s3cfg|boto|"
            "dockercfg|azure|password-store|my\\.cnf|mylogin\\.cnf|[a-z][\\w\\-]+rc")
# Key and config files that have no extension, so neither the file-name nor the dotfile rule sees them.
KEY_FILES = r"id_(?:rsa|dsa|ecdsa|ed25519)(?:_sk)?(?:-cert)?|authorized_keys2?|known_hosts2?"
_COUNTRY = ("uk de fr eu ch nl es ca au jp cn ru br se fi dk cz ie nz sg hk kr tw za mx ar gr "
            "hu ro lu ua tr vn th cl sk si hr lt lv ee bg il eg ng ke pk ph kz by ge")
STRONG_SUFFIXES = frozenset(("com net org edu gov mil int io ai arpa onion local localdomain "
                             "internal intranet lan corp " + _COUNTRY).split())
WEAK_SUFFIXES = frozenset("""
co dev app cloud biz info tech xyz online site me us be at it is no to id my home prod
production staging stage test example invalid svc cluster dmz priv private vpn infra ops mgmt
office
""".split())

# Scripts written without spaces between words (Han, kana, hangul): a letter of these next
# to an address or a host is the sentence around it (服务器db01.acme.com已经宕机), not part of it.
CJK = ("\u2e80-\u2fdf\u3040-\u30ff\u3100-\u31ff\u3400-\u4dbf\u4e00-\u9fff\ua960-\ua97f"
       "\uac00-\ud7ff\uf900-\ufaff")
_W = rf"[^\W{CJK}]"  # a word character that is not of those scripts
_PORT_END = rf"(?!{_W}|:|\.\d)"  # a port's last digit: no word, colon or decimal part follows
# DNS labels, internationalised ones (bücher, münchen) included: letters of any script.
LABEL_RE = re.compile(r"[^\W](?:[\w\-]{0,61}[^\W_])?")
# Non-ASCII top-level domains (IDN ccTLDs and gTLDs) that prose does not use as a word.
IDN_SUFFIXES = frozenset("рф рус укр бел срб мкд қаз мон 中国 中國 公司 网络 網絡 香港 台灣 台湾 "
                         "新加坡 한국 ελ бг გე".split())
HAS_LETTER = re.compile(r"[^\W\d_]")
_OCT = r"(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)"
_ALGO = r"(?i:sha(?:1|224|256|384|512)|sha3-(?:224|256|384|512)|md5|blake2[bs]?|blake3|xxh(?:32|64|128))"
# Every pattern starts with a lookbehind that fails inside the run its body consumes, and
# bodies use possessive quantifiers: each run is tried once, so a pass is linear in the text.
URL_RE = re.compile(r"(?<![\w+.\-\]])([A-Za-z][A-Za-z0-9+.\-]{0,15}+)://([^\s<>\"'`]*+)")
# A domain's last label is never a digest's algorithm prefix (a@b.com.sha256:… is the address
# a@b.com then a digest, which the hash rule takes whole).
# The local part may be quoted ("john doe"@…) or hold an apostrophe (o'brien@…); the domain's
# labels may be internationalised (jöran@bücher.de).
_DL = rf"(?:[^\W_{CJK}]|-)"
EMAIL_RE = re.compile(
    r"(?<![\w.+%\-\]])((?:\"[^\"\n]{1,64}+\"|[\w+%\-][\w.+%\-']*+)@"
    rf"(?:(?:{_DL}++\.)+(?!{_ALGO}[:=\-])[^\W\d_{CJK}]{_DL}*+|\d{{1,3}}+(?:\.\d{{1,3}}+){{3}}"
    r"|\[\d{1,3}+(?:\.\d{1,3}+){3}\]))"
    rf"(?::(\d{{1,5}}+){_PORT_END})?")
IPV6_RE = re.compile(
    rf"\[(?:IPv6:)?([0-9A-Fa-f:]++(?:(?:\.\d{{1,3}}+){{3}})?(?:%[\w.\-]++)?)\](?::(\d{{1,5}}+){_PORT_END})?"
    rf"|(?<!{_W})(?<![:.%\-\]])((?=[0-9A-Fa-f]*+:[0-9A-Fa-f]*+:)[0-9A-Fa-f:]++(?:(?:\.\d{{1,3}}+){{3}})?"
    rf")(?:(%(?:{_W}|-)++)(?::(\d{{1,5}}+){_PORT_END})?)?(?:/\d{{1,3}}+)?(?!{_W}|[:\[])")
IPV4_RE = re.compile(
    rf"(?<!{_W})(?<![.\]])({_OCT}(?:\.{_OCT}){{3}})(?:/(?:3[0-2]|[12]?\d)(?!\d))?"
    rf"(?::(\d{{1,5}}+){_PORT_END})?(?!{_W}|\[|\.[\d\[])")
# A host or IPv4 address whose dots are written as look-alikes: the ideographic full stop
# (。, which IDNA reads as a dot; ．and ｡ become "." and "。" in NFKC) or a defanged dot
# ([.], (.), {.}, [dot], (dot)) — db01。acme。com, 10[.]0[.]0[.]5.
LOOKALIKE_DOT = r"(?:。|\[\.\]|\(\.\)|\{\.\}|(?i:\[dot\]|\(dot\)))"
_LBL = rf"(?:{_W}|-)++"
LOOKALIKE_DOT_RE = re.compile(
    rf"(?<!{_W})(?<![.\-\]])({_LBL}(?:\.{_LBL})*+{LOOKALIKE_DOT}{_LBL}(?:(?:\.|{LOOKALIKE_DOT}){_LBL})*+)"
    rf"(?::(\d{{1,5}}+){_PORT_END})?")
LOOKALIKE_DOT_SEP = re.compile(LOOKALIKE_DOT)
IPV4_FULL = re.compile(rf"{_OCT}(?:\.{_OCT}){{3}}")
# IPv4 in the other forms inet_aton(3) reads (and browsers, curl, ping accept): 2 to 4 dotted
# parts, each decimal, octal (0-led) or hex (0x), the last filling the remaining bytes. Taken
# when a part is hex (0x7f.0.0.1, 0xc0.0xa8.1) or, with four parts, octal of three digits or
# more (0300.0250.0.1); plain decimals with fewer parts (127.1, 10.0.1) are read as versions.
_AT_PART = r"(?:0[xX][0-9A-Fa-f]{1,8}|\d{1,10})"
IPV4_ATON_RE = re.compile(
    rf"(?<!{_W})(?<![.\]])({_AT_PART}(?:\.{_AT_PART}){{1,3}})(?::(\d{{1,5}}+){_PORT_END})?"
    rf"(?!{_W}|\[|\.[\w\[])")
HASH_RE = re.compile(
    rf"(?<![0-9A-Za-z\]]){_ALGO}[:=\-](?:0x)?[A-Za-z0-9+/]{{16,}}+={{0,2}}"
    # crypt(3)-style password hashes: bcrypt $2b$12$…, sha-crypt $6$salt$…, $argon2id$v=19$…
    r"|(?<![\w$])\$(?:2[abxy]?|1|5|6|y|gy|7|argon2(?:id|i|d))\$[A-Za-z0-9./+=,$]{20,}+"
    r"|(?<![0-9A-Za-z\]])(?:0x)?([0-9A-Fa-f]{32,}+)(?![0-9A-Za-z\[])")
# A shorter hex run that is neither a word nor a number: 12 to 31 hex digits mixing digits and
# letters, standalone (abbreviated commits, image and object ids: 3f2a1bc9d8e7). A 0x prefix
# (a constant, an address) or a hyphen on either side (a UUID's groups) keeps it.
SHORT_HEX_RE = re.compile(r"(?<![\w\-.\]/])([0-9A-Fa-f]{12,31}+)(?![\w\-\[]|\.\w)")
# A git object name of 7 hex digits or more after a word that names one (commit 3f2a1bc,
# git checkout 3f2a1bc, revert 3f2a1bc..9e8d7c6); alone, 7 hex digits are too often a word
# or a number.
GIT_REF_RE = re.compile(
    r"(?i)(?<![\w\-])((?:commit(?:ted|s)?|revisions?|revs?|sha-?1?|changesets?|cherry-pick(?:ed)?"
    r"|revert(?:ed|s)?|checked\s++out|fixup!?|squash!?|amend(?:ed)?|git\s++(?:show|checkout|reset(?:\s++--\w++)?|log|diff"
    r"|rebase(?:\s++-i)?|switch\s++--detach|bisect\s++(?:good|bad)|cat-file\s++-p))\s*+[:#=@]?\s*+)"
    r"([0-9a-f]{7,40}+(?:\.{2,3}+[0-9a-f]{7,40}+)?)(?![\w\-]|\.\w)")
# A digest in base64 with its padding: MD5 (22+"=="), SHA-1 (27+"="), SHA-256 (43+"="),
# SHA-512 (86+"=="); prose has no 24-character run of mixed case and digits ending in "=".
B64_DIGEST_RE = re.compile(
    r"(?<![A-Za-z0-9+/])([A-Za-z0-9+/]{22}==|[A-Za-z0-9+/]{27}=|[A-Za-z0-9+/]{43}=|[A-Za-z0-9+/]{86}==)"
    r"(?![A-Za-z0-9+/=])")
_SEG = r"[\w.\-+@%=~$]"
# A Windows path goes on past a space when the word after it leads to another separator
# (C:\Program Files\Acme Corp\payroll.exe), and ends at one that does not (C:\temp is full).
_WIN_REST = r"(?:[^\s\"'<>|*?]|[ \t](?=[^\s\"'<>|*?\\/]++[\\/]))*+"
PATH_RE = re.compile(
    rf"(?<![A-Za-z0-9])[A-Za-z]:[\\/]{_WIN_REST}"
    rf"|\\\\(?:[\w.$\-]++|{PH})\\{_WIN_REST}"
    r"|%\w++%\\[^\s\"'<>|*?]*+"
    rf"|(?<![\w.~/\\\]<>@$%+=\-])(?:\$\{{\w++\}})?{_SEG}*+(?:/++{_SEG}++)++/?")
DOTFILE_RE = re.compile(rf"(?<![\w.\-/~\\\]])\.(?:{DOTFILES})(?:\.[\w\-]++)*+(?![\w\-])", re.IGNORECASE)
KEY_FILE_RE = re.compile(rf"(?<![\w.\-/~\\\]])(?:{KEY_FILES})(?![\w\-]|\.\w)")
# user@host where host is one label (alice@localhost, deploy@db01); dotted ones are the
# e-mail and host rules' own. It runs after the address rules, so ::1:3.11.7@x keeps its [IP].
USER_HOST_RE = re.compile(
    r"(?<![\w.+%\-\]])([\w+%\-][\w.+%\-']*+@)"
    rf"([A-Za-z][A-Za-z0-9\-]++(?!{_W}|-|\.[A-Za-z0-9])|\[(?:HOST|IP)(?:-\d+)?\])")
# At S0, what follows host: or host/ (scp, rsync, host-prefixed scopes) is a path, once the
# host is a placeholder.
AFTER_HOST_RE = re.compile(
    rf"(\[(?:HOST|IP|EMAIL)(?:-\d+)?\](?::\[PORT(?:-\d+)?\])?(?::|/++))"
    rf"(?=[^\s\"'<>|*?\[:])((?:[^\s\"'<>|*?\[:]++|{PH})++)(?!:)")
# A token may follow the "*." of a wildcard name (*.acme.com), no other dot.
DOTTED_RE = re.compile(rf"(?<![\w\-\]])(?<!(?<!\*)\.)([\w\-]++(?:\.[\w\-]++)++)(?::(\d{{1,5}}+){_PORT_END})?")
# A dotted token's letters of CJK scripts at either end (the sentence it is written into).
CJK_EDGES = re.compile(rf"([{CJK}]*+)(.*?)([{CJK}]*+)", re.S)
LABEL_PORT_RE = re.compile(
    rf"(?<!{_W})(?<![.\-\]])([A-Za-z](?:{_W}|-)*+|\[(?:HOST|IP|EMAIL|USER|PATH|FILE)(?:-\d+)?\])"
    rf":(\d{{2,5}}+){_PORT_END}")
# "port" in English and the CJK scripts (端口 zh, ポート ja, 포트 ko).
PORT_WORD_RE = re.compile(
    r"(?i)(?:(?<![a-z0-9\]])ports?|端口|ポート|포트)(?:\s++number)?[\"']?\s*+[:=]?\s*+[\"']?"
    rf"(\d{{1,5}}+(?:\s*+(?:,|/|&|and|or)\s*+\d{{1,5}}+)*+)(?!{_W}|\.\d)")
# Port flags of ssh, scp, mysql, redis-cli, docker… (-p 2222, -P 3306, -p 8080:80) and a bare
# ":8443" standing alone; one digit after -p is more often a count than a port.
PORT_FLAG_RE = re.compile(
    r"(?<![\w\-])-[pP][\s=]?+((?:\[IP(?:-\d+)?\]:)?)(\d{2,5}+)(?::(\d{1,5}+))?(?![\w:/\-]|\.\d)")
BARE_PORT_RE = re.compile(rf"(?:(?<![^\s(,=*])|(?<=\[::\])):(\d{{2,5}}+){_PORT_END}")
# ssh -L/-R forwarding: the first number of 8080:localhost:80 (the rest is host:port).
FORWARD_RE = re.compile(r"(?<![\w\-])(-[LR]\s?+(?:(?:[\w.\-]++|\[[^\]\s]*+\]):)?)(\d{1,5}+)(?=:)")
PORT_PROTO_RE = re.compile(
    r"(?i)(?<![\w.:/\-\]])\d{1,5}+(?:[:\-]\d{1,5}+)?/(?:tcp|udp|sctp)(?![a-z0-9])")
# Ports named by a key: camelCase and libpq's (containerPort: 8080, "targetPort": 443,
# PGPORT=5432; port=, DB_PORT= and --port are PORT_WORD_RE's); a server told to listen
# (listen 80; listens on 8443, listen 443 ssl) or a Dockerfile's EXPOSE 8080 8443, when no
# word follows the numbers (listening on 16 threads stays).
PORT_KEY_RE = re.compile(
    rf"(?:(?<=[a-z0-9])Ports?|(?<![\w\-])PGPORT)[\"']?\s*+[:=]\s*+[\"']?(\d{{1,5}}+)(?!{_W}|\.\d)")
_NGINX_PARAMS = r"(?:ssl|http2|default_server|default|quic|reuseport|proxy_protocol|udp|deferred|bind)\b"
LISTEN_RE = re.compile(
    r"(?i)(?<![\w\-])((?:listen(?:s|ing|ed)?(?:\s++(?:on|at))?(?:\s++port)?|expose)\s++)"
    rf"(\d{{2,5}}+(?:[ \t,]++\d{{2,5}}+)*+)(?![^\S\n]*+(?!{_NGINX_PARAMS})[^\W\d_]|{_W}|\.\d|:)")
# A single-label host (db01, intranet) is told from a word only where a key names it: an
# assignment (DB_HOST=db01, PGHOST=db01, host=db01, --host db01, dbHost: db01, and a
# connection string's Server=db01 or Data Source=db01), a YAML or JSON key host/hostname
# whose value ends the line or item, or ssh_config's HostName and ProxyJump.
HOST_KEY_RE = re.compile(
    r"(?m)((?:--host(?:name)?(?:[ \t]++|=)|(?<![\w\-])(?:[A-Za-z0-9]++_)*+(?i:host(?:name)?)[ \t]*+=[ \t]*+"
    r"|(?<![\w\-])(?:PGHOST|(?i:server|data[ \t]source))[ \t]*+=[ \t]*+|(?<=[a-z0-9])Host(?:[Nn]ame)?[\"']?[ \t]*+[:=][ \t]*+[\"']?"
    r"|^[ \t]*+(?:HostName|ProxyJump)[ \t]++)[\"']?)"
    r"([A-Za-z][\w\-]*+(?:\.[\w\-]++)*+)(?![\w\-]|\.\w)"
    r"|(?<![\w\-])([\"']?(?i:host(?:name)?)[\"']?[ \t]*+:[ \t]*+[\"']?)"
    r"([A-Za-z][\w\-]*+(?:\.[\w\-]++)*+)(?=[\"']?[ \t]*+(?:$|[,;}\]#]))")
HOST_VALUES_KEPT = frozenset("localhost null none true false nil undefined yes no".split())
# A server's name in a UNC path (\\fs01\share): a host whatever it looks like. Escapes in
# code (\\x41\\n) are not servers.
UNC_HOST_RE = re.compile(r"(?<![\w\\:/])\\\\([A-Za-z0-9][\w.\-$]*+)(?=\\[\w$.])")
UNC_ESCAPE = re.compile(r"[xuUN][0-9A-Fa-f]*+|\d++")
DIGITS = re.compile(r"\d+")
PORT_PREFIX = re.compile(r"\d{1,5}/+")
SLASHES = re.compile(r"/+")
# The ids ragix makes itself (ids.new_item_id): 16 random hex digits, nothing to redact.
GENERATED_ID_RE = re.compile(r"MEM-[0-9a-f]{16}")
ID_IN_TEXT_RE = re.compile(r"(?<![\w\-])MEM-[0-9A-Za-z_\-]{4,64}+(?![\w\-])")
