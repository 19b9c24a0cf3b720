"""ragixctl's argument parser: every subcommand with its summary and an example, taken from
the op catalog so that --help cannot drift from the daemon's ops."""

from __future__ import annotations

import argparse
import sys

from ragixd import __version__
from ragixd.domain.item import MAX_USE_COUNT

from .ctl import DESCRIPTION, EPILOG, READ_PAGE, USE_BATCH, _filters, _item_fields, csv, spec_help

RAW = argparse.RawDescriptionHelpFormatter


def positive(cast):
    """An argparse type: a number above zero."""
    def parse(text: str):
        value = cast(text)
        if not value > 0:
            raise argparse.ArgumentTypeError(f"must be above 0, not {text}")
        return value
    parse.__name__ = cast.__name__
    return parse



def between(low: int, high: int):
    """An argparse type: a whole number from `low` to `high`."""
    def parse(text: str) -> int:
        value = int(text)
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"must be from {low} to {high}, not {text}")
        return value
    parse.__name__ = "int"
    return parse


def at_least(low: int):
    """An argparse type: a whole number of at least `low`."""
    def parse(text: str) -> int:
        value = int(text)
        if value < low:
            raise argparse.ArgumentTypeError(f"must be at least {low}, not {text}")
        return value
    parse.__name__ = "int"
    return parse


SERVER_KEY_HELP = ("for a tcp:// endpoint: the daemon's public key file (NAME.key from `ragixctl keys`; "
                   "env RAGIX_SERVER_KEY)")
CLIENT_KEY_HELP = ("for a tcp:// endpoint: this client's secret key file (NAME.key_secret; env RAGIX_CLIENT_KEY), "
                   "whose public key the daemon's [trust] table lists")


def _common(json_default: bool = False) -> argparse.ArgumentParser:
    """Options accepted both before and after the subcommand."""
    p = argparse.ArgumentParser(add_help=False)
    p.add_argument("--json", action="store_true", default=argparse.SUPPRESS,
                   help="print the daemon's answer as JSON")
    p.add_argument("--endpoint", default=argparse.SUPPRESS, help="daemon endpoint (ipc:// or tcp://)")
    p.add_argument("--timeout", type=positive(float), default=argparse.SUPPRESS, help="seconds to wait for an answer")
    p.add_argument("--server-key", default=argparse.SUPPRESS, help=SERVER_KEY_HELP)
    p.add_argument("--client-key", default=argparse.SUPPRESS, help=CLIENT_KEY_HELP)
    return p


def _op(sub, name: str, common, cli_name: str | None = None, summary: str | None = None,
        **kw) -> argparse.ArgumentParser:
    """A subcommand for an op: its summary (the catalog's, unless the command's output needs
    its own words) and example from the catalog."""
    op_summary, example = spec_help(name)
    summary = summary or op_summary
    return sub.add_parser(cli_name or name, help=summary, description=summary, epilog=example,
                          formatter_class=RAW, parents=[common], **kw)


PROPOSAL_HELP = """\
a proposal is an item's fields, why it is worth keeping, and where it came from:
  [{"title": "Release day", "content": "Releases ship on Tuesdays after the stand-up",
    "type": "decision", "tags": ["release"], "why_store": "asked twice this week",
    "provenance": {"source_kind": "chat", "source_id": "chat-2024-05-02:14"}}]
one without why_store or a provenance source_id is quarantined (tier stm, unverified,
expires in 24 h); one the write policy refuses (a secret, an injection) is not stored."""

QUERY_HELP = "words, as typed (quotes, *, -, AND/OR are plain words)"

MIN_SEQ_HELP = "first wait until the daemon has applied this seq (the one a write answered with)"


def _local(sub, name: str, summary: str, example: str, common) -> argparse.ArgumentParser:
    return sub.add_parser(name, help=summary, description=summary, epilog=f"example:\n  {example}",
                          formatter_class=RAW, parents=[common])


class UsageError(Exception):
    """A command line argparse refused, with its message (raised instead of exiting)."""


class _Parser(argparse.ArgumentParser):
    """Reports a usage error to the caller (who prints it, as JSON too under --json) instead of
    exiting from inside argparse; subcommand parsers are made of the same class."""

    def error(self, message: str):  # type: ignore[override]
        self.print_usage(sys.stderr)
        raise UsageError(f"{self.prog}: {message}")


def build_parser() -> argparse.ArgumentParser:
    common = _common()
    parser = _Parser(prog="ragixctl", description=DESCRIPTION, epilog=EPILOG, formatter_class=RAW)
    parser.add_argument("--json", action="store_true", help="print the daemon's answer as JSON")
    parser.add_argument("--endpoint", help="daemon endpoint (default: $RAGIX_ENDPOINT or the XDG ipc socket)")
    parser.add_argument("--timeout", type=positive(float), default=60.0, help="seconds to wait for an answer (default 60; verify and rebuild wait as long as the "
                             "daemon reports them in progress)")
    parser.add_argument("--server-key", help=SERVER_KEY_HELP)
    parser.add_argument("--client-key", help=CLIENT_KEY_HELP)
    parser.add_argument("--version", action="version", version=f"ragixctl {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    _op(sub, "status", common)
    p = _op(sub, "write", common)
    _item_fields(p, required=True)
    p = _op(sub, "update", common)
    p.add_argument("id", help="the item's id (MEM-…)")
    _item_fields(p, required=False)
    p.add_argument("--validation", choices=["unverified", "verified", "contested", "retracted"],
                   help="the owner's judgement of the item (a quarantined proposal is unverified)")
    expiry = p.add_mutually_exclusive_group()
    expiry.add_argument("--expires-at", help="ISO-8601 time after which search and recall no longer serve it")
    expiry.add_argument("--no-expiry", action="store_true",
                        help="clear its expiry (with --validation verified: lift a quarantine)")
    p.add_argument("--reason", default="update", help="why (kept in the revision history)")
    p = _op(sub, "archive", common)
    p.add_argument("id", help="the item's id (MEM-…)")
    p.add_argument("--reason", default="archive", help="why (kept in the revision history; default archive)")
    p = _op(sub, "link", common)
    p.add_argument("src", help="the id of the item the link starts from")
    p.add_argument("dst", help="the id of the item it points to")
    p.add_argument("--rel", default="related",
                   help="supports, contradicts, refines, supersedes, depends_on, references, derived_from, related "
                   "(default related)")
    p = _op(sub, "use", common)
    p.add_argument("ids", nargs="+", metavar="ID", help="ids of the items used (any number: they are "
                   f"sent {USE_BATCH:,} to a request; an id given twice is counted twice)")
    p.add_argument("--count", type=between(1, MAX_USE_COUNT), default=1,
                   help=f"uses to record for each id (default 1, at most {MAX_USE_COUNT})")
    p = _op(sub, "read", common)
    p.add_argument("ids", nargs="+", metavar="ID", help="ids of the items to print (MEM-…; any number: they "
                   f"are read {READ_PAGE:,} to a request)")
    p.add_argument("--min-seq", type=int, default=0, help=MIN_SEQ_HELP)
    p = _op(sub, "search", common)
    p.add_argument("query", help=QUERY_HELP)
    p.add_argument("--k", type=positive(int), default=10, help="how many results (default 10, at most 1000)")
    p.add_argument("--mode", choices=["fts", "vector", "hybrid"], help="default hybrid")
    p.add_argument("--min-seq", type=int, default=0, help=MIN_SEQ_HELP)
    _filters(p)
    p = _op(sub, "recall", common)
    p.add_argument("query", help="what the prompt is about: " + QUERY_HELP)
    p.add_argument("--budget", type=positive(int), default=2000,
                   help="token budget (tokens = ceil(chars/4); default 2000)")
    p.add_argument("--mode", choices=["inject", "catalog", "hybrid"], default="inject",
                   help="inject: [MEMORY: ...] blocks within the budget; catalog: a JSON list of the 10 best "
                   "matches (id, title, tags, tier, type, score); hybrid: both (default inject)")
    p.add_argument("--k", type=positive(int), default=20, help="candidates considered (default 20, at most 500)")
    p.add_argument("--min-seq", type=int, default=0, help=MIN_SEQ_HELP)
    _filters(p)
    _op(sub, "embedders", common)
    p = _local(sub, "pipe", "Ingest files (optional) and print the memory for a topic as inject blocks.",
               'ragixctl pipe "summarize" --source docs/ --budget 3000 | ollama run llama3.2', common)
    p.add_argument("query", help="what the prompt is about: " + QUERY_HELP)
    p.add_argument("--source", nargs="+", help="files or directories to ingest first")
    p.add_argument("--budget", type=positive(int), default=3000,
                   help="token budget of the printed memory (tokens = ceil(chars/4); default 3000)")
    p.add_argument("--tags", type=csv, help="tags for ingested chunks")
    p.add_argument("--k", type=positive(int), default=20, help="candidates considered (default 20)")
    p = _local(sub, "retire", "Archive every live chunk ingested from these files (deleted or renamed "
               "ones; a file ingested again by pipe has its stale chunks archived already).",
               "ragixctl retire docs/old-runbook.md", common)
    p.add_argument("files", nargs="+", help="files as given to pipe --source (they need not exist any more)")
    p = _local(sub, "pull", "Store standard input as memory (e.g. an LLM's answer).",
               'ragixctl pipe "topic" | ollama run mistral | ragixctl pull --title "Topic summary" --tags summary',
               common)
    p.add_argument("--title", help="default: the first line of the input")
    p.add_argument("--tags", type=csv, help="comma-separated tags")
    p.add_argument("--type", help="memory type (default note)")
    p = _op(sub, "timeline", common)
    p.add_argument("anchor", metavar="ID", help="the item to look around")
    p.add_argument("--before", type=int, default=5, help="items created just before the anchor (default 5)")
    p.add_argument("--after", type=int, default=5, help="items created just after the anchor (default 5)")
    p.add_argument("--min-seq", type=int, default=0, help=MIN_SEQ_HELP)
    p = _op(sub, "history", common, summary="Every revision of an item, one line each (revision, seq, time, "
            "reason, actor, title); --json gives each revision's full snapshot.")
    p.add_argument("id", help="the item's id (MEM-…)")
    p.add_argument("--min-seq", type=int, default=0, help=MIN_SEQ_HELP)
    p = _op(sub, "entities", common)
    p.add_argument("--query", help="substring of the entity name")
    p.add_argument("--limit", type=int, default=50, help="at most this many entities (default 50)")
    _op(sub, "stats", common)
    _op(sub, "verify", common)
    _op(sub, "rebuild", common)
    p = _op(sub, "tail", common, summary="Print committed events as they happen, in seq order, each once "
            "(stored ones first with --from; what the live stream misses is read back from the log).")
    p.add_argument("--from", dest="from_seq", type=at_least(0), default=None,
                   help="first print the stored events after this seq (0: the whole log)")
    p.add_argument("--count", type=positive(int), default=None, help="stop after this many events")
    p.add_argument("--idle", type=positive(float), default=None, help="stop after this many idle seconds")

    p = _op(sub, "propose", common)
    p.epilog += "\n\n" + PROPOSAL_HELP
    p.add_argument("--file", help="JSON list of proposals, or {\"items\": [...]} (default: stdin)")
    p = _op(sub, "proposals.parse", common, "parse")
    p.epilog += ("\n\nproposals in the answer: a <MEMORY_PROPOSALS_JSON>[…]</MEMORY_PROPOSALS_JSON> "
                 "block holding\na JSON list of proposals, as for `ragixctl propose --help`; "
                 "each block is removed from the\nanswer printed.")
    p.add_argument("--file", help="the LLM answer (default: stdin); the cleaned answer is printed")
    p.add_argument("--tool-calls", metavar="FILE",
                   help="the answer's tool calls, as a JSON list (a model's API returns them apart from "
                        "the text): each memory.propose call's arguments are proposals too")
    p = _op(sub, "export", common)
    p.add_argument("--tier", choices=["S3", "S2", "S0"], default="S3",
                   help="S3 full detail; S2 redacts hosts, IPs, hashes, ports; S0 also paths, files, e-mails, entities")
    p.add_argument("-o", "--output", help="file to write (default: stdout)")
    p.add_argument("--include-archived", action="store_true",
                   help="export archived items too (by default only live ones)")
    p = _op(sub, "import", common)
    p.add_argument("file", nargs="?", default="-", help="JSONL written by export (default: stdin)")
    policy = sub.add_parser("policy", help="The write policy.", description="The write policy.",
                            epilog='examples:\n  ragixctl policy check "password: hunter2"\n'
                                   '  ragixctl policy audit --archive',
                            formatter_class=RAW, parents=[common])
    psub = policy.add_subparsers(dest="policy_cmd", metavar="ACTION", required=True)
    p = _op(psub, "policy.check", common, "check",
            summary="Dry-run the write policy on a text: verdict and the rules that fired (exit 1 unless "
                    "accepted).")
    p.add_argument("text", nargs="?", help="the text to check (or --file)")
    p.add_argument("--file", help="read the text from a file ('-' for stdin)")
    p = _op(psub, "policy.audit", common, "audit")
    p.epilog = ("Walks every live item you can see (progress on stderr) and lists, by id and rule,\n"
                "those holding a secret or an injection the policy now refuses: stored before a rule\n"
                "existed. Their text is never printed. Exit code 1 while any is left live.\n\n"
                "examples:\n  ragixctl policy audit\n  ragixctl policy audit --store shared --archive")
    p.add_argument("--store", help="only this store (default: every store you can see)")
    p.add_argument("--archive", action="store_true",
                   help="archive each item found (reason: the rules; kept in its history, never deleted)")

    palace = sub.add_parser("palace", help="Browse and assign memory palace locations.",
                            description="The memory palace: domain/room/shelf/card.",
                            epilog="examples:\n  ragixctl palace list\n  ragixctl palace list project/ops\n"
                                   "  ragixctl palace get MEM-0123456789abcdef\n"
                                   "  ragixctl palace assign MEM-0123456789abcdef --location project/ops/decision",
                            formatter_class=RAW, parents=[common])
    psub = palace.add_subparsers(dest="palace_cmd", metavar="ACTION", required=True)
    p = _op(psub, "palace.list", common, "list")
    p.add_argument("path", nargs="?", default="",
                   help="domain, domain/room or domain/room/shelf (default: list the domains)")
    p = _op(psub, "palace.get", common, "get")
    p.add_argument("id", help="the item's id (MEM-…)")
    p = _op(psub, "palace.assign", common, "assign")
    p.add_argument("id", help="the item's id (MEM-…)")
    p.add_argument("--location", help="domain/room/shelf (default: derived from the item)")

    p = _local(sub, "init", "Create the data home and a commented config file (--home and --endpoint, if "
               "given, are written as settings).", "ragixctl init --home ~/ragix-data", common)
    p.add_argument("--home", help="data directory (default $RAGIX_HOME or $XDG_DATA_HOME/ragix)")
    p.add_argument("--config", help="config file to write (default $XDG_CONFIG_HOME/ragix/ragixd.toml)")
    p = _local(sub, "keys", "Make a CURVE key pair for TCP clients or the server.",
               "ragixctl keys --name laptop --dir ~/.config/ragix/keys", common)
    p.add_argument("--name", default="client", help="file name of the pair: NAME.key and NAME.key_secret "
                   "(default client)")
    p.add_argument("--dir", help="where to write them (default $XDG_CONFIG_HOME/ragix/keys: "
                   "~/.config/ragix/keys)")
    p.add_argument("--force", action="store_true", help="replace an existing pair of that name (its secret "
                   "key is lost)")
    p = _local(sub, "service", "Install, remove or inspect the systemd user unit.",
               "ragixctl service install", common)
    p.add_argument("action", choices=["install", "uninstall", "status"],
                   help="install writes the user unit (and prints the systemctl command that starts it), "
                        "uninstall removes it, status says whether it is installed and running")
    p.add_argument("--unit-dir", help="where the unit file goes (default $XDG_CONFIG_HOME/systemd/user: "
                   "~/.config/systemd/user); systemctl is asked only for that default")
    return parser
