"""ragixctl: the command line for ragixd. One subcommand per op of the catalog, plus init,
keys and service. Human output by default, --json everywhere.

Exit codes: 0 success; 1 the daemon answered with an error (or verify found a problem);
2 bad usage or invalid input; 3 the daemon (or a model server a vector search needs) could not be
reached or timed out; 130 Ctrl-C.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from pathlib import Path
from collections import Counter
from collections.abc import Iterator
from typing import Any, Callable

from ragixd.domain.ids import is_item_id, not_an_item_id
from ragixd.domain.item import MAX_USE_COUNT
from ragixd.errors import ConfigError, InvalidInput, NotFound, PolicyRejected, RagixError, Timeout, TooLarge
from ragixd.ops.catalog import BY_NAME

from . import render
from .client import Client
from .ctl_output import EXIT_FAILED, EXIT_INTERRUPTED, EXIT_OK, EXIT_USAGE, prepare_streams, stdout_gone
from .ctl_output import error as _error
from .ctl_output import out_quietly as _out_quietly
from .ctl_pipe import budget_hint
from .itemtypes import KNOWN, check_filter, unknown_type_note
from .inputs import read_stdin
from .progress import Redraw, still_working, with_progress

DESCRIPTION = """\
ragixctl: talk to the ragix memory daemon (ragixd).

Start the daemon first (`ragixd`, or `make run` in a checkout), then for example:
  ragixctl write --title "Deploy window" --content "Fridays 14-16h" --tags ops,deploy
  ragixctl search "deploy window" --k 5
  ragixctl verify
"""
EPILOG = """\
exit codes: 0 ok, 1 error answered by the daemon (or verify failed), 2 bad usage or input,
3 daemon (or a vector search's model server) unreachable or timed out,
130 interrupted (Ctrl-C; tail stops with 0).
endpoint: --endpoint, else $RAGIX_ENDPOINT, else ipc://$XDG_RUNTIME_DIR/ragix/ragixd.sock
(/tmp/ragix-$UID/ragixd.sock when XDG_RUNTIME_DIR is unset), as the daemon's default.
"""


def csv(value: str) -> list[str]:
    return [v.strip() for v in value.split(",") if v.strip()]


def _filters(p: argparse.ArgumentParser) -> None:
    p.add_argument("--tier", help="stm, mtm or ltm (comma-separated for several)")
    p.add_argument("--type", help=f"{KNOWN} (comma-separated for several)")
    p.add_argument("--tags", type=csv, help="comma-separated; items must carry every one")
    p.add_argument("--scope", help="project or domain scope")
    p.add_argument("--store", help="private, shared or social (comma-separated for several)")
    p.add_argument("--after", help="created at or after this ISO-8601 time")
    p.add_argument("--before", help="created before this ISO-8601 time")
    p.add_argument("--include-archived", action="store_true", help="also return archived items")


def _item_fields(p: argparse.ArgumentParser, required: bool) -> None:
    p.add_argument("--title", required=required, help="at most 200 characters")
    p.add_argument("--content", help="the memory itself (at most 3000 characters unless --type pointer); "
                   "'-' reads standard input")
    replacing = "" if required else ", replacing the item's ('' removes them all)"
    p.add_argument("--tags", type=csv, help="comma-separated tags" + replacing)
    p.add_argument("--entities", type=csv, help="comma-separated entities (people, systems)" + replacing)
    p.add_argument("--type", help=f"{KNOWN}" + (" (default note)" if required else "")
                   + "; an unknown type is stored as note, with a warning")
    p.add_argument("--tier", help="stm, mtm or ltm (mtm/ltm need --source)" + (" (default stm)" if required else ""))
    p.add_argument("--scope", help="project or domain scope" + (" (default: project)" if required else ""))
    p.add_argument("--store", help="private, shared or social" + (" (default private; over tcp://, shared for "
                                                                 "an inner key, social for a familiar one)"
                                                                 if required else ""))
    p.add_argument("--source", help="provenance source id, e.g. notes.md:3")
    p.add_argument("--source-kind", choices=["chat", "doc", "tool", "mixed"],
                   help="where the memory came from: a chat turn, a document, a tool's output, or mixed"
                   + (" (default chat)" if required else ""))
    p.add_argument("--confidence", type=float,
                   help="how sure the memory is, from 0 to 1" + (" (default 0.5)" if required else ""))


FILTER_KEYS = ("tier", "type", "tags", "scope", "store", "after", "before")


def _pick(ns: argparse.Namespace, keys: tuple[str, ...]) -> dict[str, Any]:
    return {k: getattr(ns, k) for k in keys if getattr(ns, k, None) not in (None, [], "")}


def _refuse_blank(ns: argparse.Namespace, names: tuple[str, ...]) -> None:
    """A label option given empty or blank is a usage error naming it (not the default)."""
    for name in names:
        value = getattr(ns, name)
        if value is not None and not value.strip():
            raise InvalidInput(f"--{name.replace('_', '-')}", "is empty: give a value, or leave the option out")


def _item_args(ns: argparse.Namespace, new: bool = False) -> dict[str, Any]:
    """The item fields given on the command line; a title or content given empty or blank is
    a usage error naming its option (the daemon's schema error would not), as is a new item
    without content."""
    if new and ns.content is None:
        raise InvalidInput("--content", "is required: give the memory's text (or '-' to read standard input)")
    if ns.title is not None and not ns.title.strip():
        raise InvalidInput("--title", "is empty: give a title of at most 200 characters")
    _refuse_blank(ns, ("type", "tier", "scope", "store", "source"))  # '' would be dropped, or a blank label
    fields = _pick(ns, ("title", "content", "tags", "entities", "type", "tier", "scope", "store",
                        "confidence"))
    fields.update({k: [] for k in ("tags", "entities") if getattr(ns, k) == []})  # given as '': none
    if ns.content == "-":
        # Without its trailing line ends, as a shell's $(...) reads it: `echo X | … --content -`
        # is the same memory as `--content X` (a duplicate, not a second item).
        fields["content"] = read_stdin().rstrip("\r\n")
        if not fields["content"].strip():
            raise InvalidInput("--content", "nothing to store: standard input was empty")
    elif ns.content is not None and not ns.content.strip():
        raise InvalidInput("--content", "is empty: give the memory's text (or '-' to read standard input)")
    if ns.source or ns.source_kind:
        fields["provenance"] = {k: v for k, v in (("source_id", ns.source), ("source_kind", ns.source_kind)) if v}
    return fields


def _awaiting(c: Client, ns: argparse.Namespace, call: Callable[[], dict[str, Any]]) -> dict[str, Any]:
    """Run a query that may wait for --min-seq. The client's time-out coming first is said as
    the daemon says its own, when the daemon still answers: the seq was not reached. The
    daemon's time-out (min_seq_timeout_s, when it comes first) is passed on as it is."""
    try:
        return call()
    except Timeout as err:
        if "head_seq" in err.details:  # the daemon's own time-out: said as it says it, with its seqs
            raise
        if not ns.min_seq or not _answers(c):
            raise
        raise Timeout(f"seq {ns.min_seq} was not reached in time (waited --timeout {ns.timeout:g} s)",
                      min_seq=ns.min_seq) from None


def _answers(c: Client) -> bool:
    try:
        c.stats(timeout=min(c.timeout, 5.0))
        return True
    except RagixError:
        return False


# -- subcommand bodies: (client, namespace) -> (result, human text) ---------------------------

def _warn_type(ns: argparse.Namespace) -> None:
    note = unknown_type_note(ns.type)
    if note:  # stored all the same, as the domain does with any unknown type: said, not refused
        print(note, file=sys.stderr)


def cmd_write(c: Client, ns) -> tuple[Any, str]:
    with _source_hint(ns):
        r = c.write(**_item_args(ns, new=True))
    _warn_type(ns)
    _say_duplicate(r)  # stdout keeps its promised form: the bare id, or {"id", "seq"}
    return {"id": r["id"], "seq": r["seq"]}, r["id"]


@contextlib.contextmanager
def _source_hint(ns) -> Iterator[None]:
    """A durable tier refused for want of a source: say which option gives one."""
    try:
        yield
    except PolicyRejected as err:
        if "provenance.missing_for_tier" in str(err.details.get("rules", "")) and not ns.source:
            err.message += " (give one with --source, e.g. --source notes.md:3)"
        raise


def _say_duplicate(r: dict[str, Any]) -> None:
    """On stderr, what the bare id does not say: the text was already held, or the write
    was quarantined (a caller below full trust without a reason or a source)."""
    if r["status"] == "quarantined":
        reasons = "; ".join((r.get("policy") or {}).get("reasons", [])) or "the write policy's soft rules"
        print(f"ragixctl: {r['id']} was quarantined (tier stm, unverified, expires {r.get('expires_at')}): "
              f"{reasons}", file=sys.stderr)
    if r["status"] == "duplicate":
        counted = ("its mention was counted" if r.get("mentioned", True)
                   else "from the same source, so not counted as a new mention")
        print(f"ragixctl: {r['id']} already held this text: {counted}", file=sys.stderr)


def cmd_update(c: Client, ns) -> tuple[Any, str]:
    patch = _item_args(ns)
    if ns.validation:
        patch["validation"] = ns.validation
    if ns.no_expiry:
        patch["expires_at"] = None
    elif ns.expires_at is not None:
        if not ns.expires_at.strip():
            raise InvalidInput("--expires-at", "is empty: give an ISO-8601 time, or --no-expiry to clear it")
        patch["expires_at"] = ns.expires_at
    if not patch:
        raise InvalidInput("patch", "give at least one field to change (e.g. --content)")
    with _source_hint(ns):
        r = c.update(ns.id, patch=patch, reason=ns.reason)
    _warn_type(ns)
    return r, f"{r['id']}  {r['status']} (seq {r['seq']})"


def cmd_archive(c: Client, ns) -> tuple[Any, str]:
    r = c.archive(ns.id, reason=ns.reason)
    return r, f"{r['id']}  {r['status']} (seq {r['seq']})"


def cmd_link(c: Client, ns) -> tuple[Any, str]:
    r = c.link(src=ns.src, dst=ns.dst, rel=ns.rel)
    return r, f"{r['src']} --{r['rel']}--> {r['dst']}  {r['status']}"


# The read op takes at most this many ids (schemas/ops/read.json maxItems): more are read a
# page at a time, so that `ragixctl read $(cat ids)` works for any number the shell can pass.
READ_PAGE = 1000


def _read_page(c: Client, ns, page: list[str]) -> list[dict[str, Any]]:
    """The items of one page of ids; a page whose answer is over the daemon's limit (large
    pointers) is read in halves, down to one item at a time."""
    try:
        return _awaiting(c, ns, lambda: c.read(*page, min_seq=ns.min_seq))["items"]
    except TooLarge:
        if len(page) == 1:
            raise
    half = len(page) // 2
    return _read_page(c, ns, page[:half]) + _read_page(c, ns, page[half:])


def cmd_read(c: Client, ns) -> tuple[Any, str]:
    items: list[dict[str, Any]] = []
    ids = list(dict.fromkeys(ns.ids))  # each item once, as the read op gives it
    for start in range(0, len(ids), READ_PAGE):
        items += _read_page(c, ns, ids[start:start + READ_PAGE])
    r = {"items": items, "count": len(items)}
    missing = set(ns.ids) - {i["id"] for i in r["items"]}
    if missing:
        raise _NotFoundAll(r, missing)
    return r, render.render_items(r)


# The use op takes at most this many ids (schemas/ops/use.json maxProperties): more are sent a
# batch at a time, and said as one answer.
USE_BATCH = 10000


def cmd_use(c: Client, ns) -> tuple[Any, str]:
    times = Counter(ns.ids)  # an id given twice was used twice
    ids = list(times)
    if len(ids) > USE_BATCH:
        _check_all_there(c, ids)
    r = {"recorded": 0, "seq": 0}
    for start in range(0, len(ids), USE_BATCH):
        batch = c.use(uses={i: min(ns.count * times[i], MAX_USE_COUNT) for i in ids[start:start + USE_BATCH]})
        r = {"recorded": r["recorded"] + batch["recorded"], "seq": max(r["seq"], batch["seq"])}
    return r, f"recorded usage of {r['recorded']} item(s) (seq {r['seq']})"


def _check_all_there(c: Client, ids: list[str]) -> None:
    """Before a use sent in several batches: every id well formed and an item the caller can
    see, as one op checks its own, so that a bad id leaves no batch recorded (items are never
    deleted: one found here is still there for its batch)."""
    bad = next((i for i in ids if not is_item_id(i)), None)
    if bad is not None:
        raise InvalidInput("uses", not_an_item_id(bad))
    found: set[str] = set()
    for start in range(0, len(ids), READ_PAGE):
        found |= {i["id"] for i in c.read(*ids[start:start + READ_PAGE])["items"]}
    missing = [i for i in ids if i not in found]
    if missing:
        raise NotFound(f"no item {', '.join(missing[:10])}" + (f" (and {len(missing) - 10} more)"
                                                              if len(missing) > 10 else ""), ids=missing)


def _filter_args(ns: argparse.Namespace) -> dict[str, Any]:
    """The filters given; one given empty or blank (`--tags ""`, `--scope " "`) is a usage
    error naming it, not taken for no filter."""
    check_filter(ns.type)
    if ns.tags == []:
        raise InvalidInput("--tags", "is empty: give at least one tag, or leave the option out")
    _refuse_blank(ns, ("type", "tier", "scope", "store", "after", "before"))
    return _pick(ns, FILTER_KEYS)


def cmd_search(c: Client, ns) -> tuple[Any, str]:
    args = {"query": ns.query, "k": ns.k, **_filter_args(ns), "min_seq": ns.min_seq}
    if ns.include_archived:
        args["include_archived"] = True
    if ns.mode:
        args["mode"] = ns.mode
    r = _awaiting(c, ns, lambda: c.search(**args))
    _say_fallback(r)
    return r, render.render_search(r)


def cmd_recall(c: Client, ns) -> tuple[Any, str]:
    args = {"query": ns.query, "budget": ns.budget, "mode": ns.mode, "k": ns.k,
            **_filter_args(ns), "min_seq": ns.min_seq}
    r = _awaiting(c, ns, lambda: c.recall(**args))
    parts = [r["text"]] if r.get("text") else []
    if "catalog_text" in r:
        parts.append(r["catalog_text"])
    if not r.get("text") and ns.mode != "catalog" and not ns.json:
        parts.insert(0, f"({budget_hint(c, args)})")
    _say_withheld(r)
    _say_fallback(r)
    return r, "\n".join(parts)


def _say_fallback(r: dict[str, Any]) -> None:
    """A hybrid search whose model server failed ran on full text alone: said on stderr, so
    that missing semantic matches are not taken for an absence."""
    if r.get("vectors_unavailable"):
        print(f"ragixctl: vector search is unavailable ({r['vectors_unavailable']}): full-text results only",
              file=sys.stderr)


def _say_withheld(r: dict[str, Any]) -> None:
    """Memories recall left out because the write policy now refuses their text (stderr: stdout
    may be a prompt)."""
    if r.get("withheld"):
        print(f"ragixctl: withheld {len(r['withheld'])} matching memory(ies) the write policy now refuses "
              f"(stored before a rule existed; archive or correct them): {', '.join(r['withheld'])}",
              file=sys.stderr)


_LAYOUT_WORDS = {"flat": "flat table", "scan": "column-scan table", "graph": "HNSW graph"}


def _layout_words(entry: dict[str, Any]) -> str:
    """" (column-scan table, numba)", " (HNSW graph)", or "" for an unknown layout."""
    words = _LAYOUT_WORDS.get(entry.get("layout", ""))
    if not words:
        return ""
    return f" ({words}, {entry['kernel']})" if entry.get("kernel") else f" ({words})"


def cmd_embedders(c: Client, ns) -> tuple[Any, str]:
    r = c.embedders()
    width = max([24, *(len(str(e["model"])) for e in r["embedders"])])  # columns line up whatever the names
    return r, "\n".join(_embedder_row(e, width) for e in r["embedders"]) or "(no embedders: lexical search only)"


def _embedder_row(e: dict[str, Any], width: int = 24) -> str:
    # Below full trust the daemon leaves out the counts: they are over every store.
    counts = (f"{e['embedded']}/{e['items']} items embedded, {e['indexed']} indexed" if "items" in e
              else "(counts are for the owner)")
    unavailable = "" if e["available"] else "  UNAVAILABLE: " + e.get("error", "")
    return (f"{'*' if e['serving'] else ' '} {e['model']:<{width}} dim {e['dimension'] or '?':<5} "
            f"{counts}{_layout_words(e)}{unavailable}")


def cmd_pipe(c: Client, ns) -> tuple[Any, str]:
    from .ctl_pipe import pipe
    line = Redraw()  # where the ingest is, on a terminal: a large file is thousands of writes
    try:
        r = pipe(c, ns.query, ns.source or [], ns.budget, ns.tags or [], ns.k, line.show)
    finally:
        line.clear()
    for s in r["skipped"]:  # stdout carries the memory blocks to the next program
        where = s["file"] + (f" (chunk {s['chunk']})" if s["chunk"] else "")
        print(f"ragixctl: skipped {where}: {s['code']}: {s['message']}", file=sys.stderr)
    _say_withheld(r)
    _say_fallback(r)
    if not r.get("text"):
        hint = budget_hint(c, {"query": ns.query, "budget": ns.budget, "k": ns.k})  # ingest applied by now
        print(f"ragixctl: {hint}", file=sys.stderr)
    return r, r.get("text", "")


def cmd_retire(c: Client, ns) -> tuple[Any, str]:
    from .ctl_pipe import retire
    archived = retire(c, ns.files)
    return {"archived": archived}, "\n".join(archived) or "(nothing to retire)"


def cmd_pull(c: Client, ns) -> tuple[Any, str]:
    from .ctl_pipe import pull
    _refuse_blank(ns, ("type",))  # as write: not silently the default type
    written = pull(c, read_stdin(), ns.title, ns.tags or [], ns.type)
    _warn_type(ns)
    for r in written:
        _say_duplicate(r)
    return {"items": written}, "\n".join(w["id"] for w in written)


def _govern(name: str) -> Callable[[Client, argparse.Namespace], tuple[Any, str]]:
    def body(c: Client, ns) -> tuple[Any, str]:
        from . import ctl_govern
        return getattr(ctl_govern, name)(c, ns)
    return body


def cmd_timeline(c: Client, ns) -> tuple[Any, str]:
    r = _awaiting(c, ns, lambda: c.timeline(ns.anchor, before=ns.before, after=ns.after, min_seq=ns.min_seq))
    return r, render.render_timeline(r, ns.anchor)


def cmd_history(c: Client, ns) -> tuple[Any, str]:
    """Every revision, page after page (the daemon pages a long history)."""
    r = _awaiting(c, ns, lambda: c.history(ns.id, min_seq=ns.min_seq))
    revisions = list(r["revisions"])
    while r["next"] is not None:
        r = c.history(ns.id, after=r["next"], min_seq=ns.min_seq)
        revisions.extend(r["revisions"])
    whole = {"id": r["id"], "revisions": revisions, "next": None}
    return whole, render.render_history(whole)


def cmd_entities(c: Client, ns) -> tuple[Any, str]:
    r = c.entities(query=ns.query or "", limit=ns.limit)
    return r, render.render_entities(r)


def cmd_stats(c: Client, ns) -> tuple[Any, str]:
    r = c.stats()
    return r, render.render_kv(r)


def cmd_status(c: Client, ns) -> tuple[Any, str]:
    r = c.status()
    return r, render.render_kv(r)


def _long_op(c: Client, ns, op: str) -> dict[str, Any]:
    """verify or rebuild: --timeout is how long the daemon may go without working on it, not
    how long it may take (minutes on a large log)."""
    keys = _curve_keys(ns)  # the probes connect as the command does (over CURVE for tcp://)
    with Client(ns.endpoint, timeout=min(ns.timeout, 5.0), **keys) as probe:
        return with_progress(ns.endpoint, op, lambda: c.call(op, {}, timeout=ns.timeout,
                                                             keep_waiting=still_working(probe, op)),
                             client_args=keys)


def cmd_verify(c: Client, ns) -> tuple[Any, str]:
    r = _long_op(c, ns, "verify")
    return r, render.render_verify(r)


def cmd_rebuild(c: Client, ns) -> tuple[Any, str]:
    r = _long_op(c, ns, "rebuild")
    return r, f"rebuilt every projection from {r['events']} events (head seq {r['seq']})"


def cmd_palace(c: Client, ns) -> tuple[Any, str]:
    if ns.palace_cmd == "list":
        r = c.palace_list(ns.path or "")
    elif ns.palace_cmd == "get":
        r = c.palace_get(ns.id)
    else:
        location = None
        if ns.location is not None:  # "" is not taken for no location (the derived one)
            parts = ns.location.strip("/").split("/")
            if len(parts) != 3:
                raise InvalidInput("location", "give domain/room/shelf")
            location = dict(zip(("domain", "room", "shelf"), parts))
        r = c.palace_assign(ns.id, **({"location": location} if location else {}))
        return r, "/".join(r["location"][k] for k in ("domain", "room", "shelf", "card"))
    return r, render.render_palace(r)


class _NotFoundAll(Exception):
    def __init__(self, result: dict, missing: set[str]) -> None:
        self.result, self.missing = result, missing


BODIES: dict[str, Callable[[Client, argparse.Namespace], tuple[Any, str]]] = {
    "write": cmd_write, "update": cmd_update, "archive": cmd_archive, "link": cmd_link,
    "use": cmd_use, "read": cmd_read, "search": cmd_search, "timeline": cmd_timeline,
    "history": cmd_history, "entities": cmd_entities, "stats": cmd_stats, "status": cmd_status,
    "verify": cmd_verify, "rebuild": cmd_rebuild, "palace": cmd_palace, "recall": cmd_recall,
    "embedders": cmd_embedders, "pipe": cmd_pipe, "retire": cmd_retire, "pull": cmd_pull,
    "propose": _govern("propose"), "parse": _govern("parse"), "export": _govern("export"),
    "import": _govern("import_"), "policy": _govern("policy"),
}


def main(argv: list[str] | None = None) -> int:
    prepare_streams()
    try:
        return _main(argv)
    except BrokenPipeError:
        # Whoever read the output went away (`| head`) while a command streamed it (export,
        # tail): stop quietly, as other tools do.
        stdout_gone()
        return EXIT_OK
    except OSError as err:
        # Output that cannot be written (a full disk, a file size limit, an I/O error): one line,
        # exit 1. Files ragixctl reads are said as usage errors where they are read.
        where = f" ({err.filename})" if err.filename else ""
        print(f"ragixctl: cannot write the output{where}: {err.strerror or err}", file=sys.stderr)
        with contextlib.suppress(OSError):
            stdout_gone()  # what is left in stdout's buffer must not fail again at exit
        return EXIT_FAILED
    except KeyboardInterrupt:
        # Ctrl-C: one line, not a traceback. The daemon keeps what it had acknowledged (a pipe's
        # chunks written so far) and finishes a rebuild or verify it had begun.
        print("\nragixctl: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED


def _main(argv: list[str] | None) -> int:
    from .ctl_parser import UsageError, build_parser
    from .ctl_local import LOCAL_COMMANDS
    parser = build_parser()
    args = sys.argv[1:] if argv is None else argv
    try:
        ns = parser.parse_args(args)
    except UsageError as err:
        return _error(InvalidInput("command line", str(err)), "--json" in args)
    if ns.command is None:
        if ns.json:  # the documented error shape on stdout, not the help text
            return _error(InvalidInput("command line", "give a command (ragixctl --help lists them)"), True)
        parser.print_help()
        return EXIT_USAGE
    if ns.command in LOCAL_COMMANDS:
        try:
            return LOCAL_COMMANDS[ns.command](ns)
        except RagixError as err:
            return _error(err, ns.json)
    try:
        # `--endpoint "$EP"` with EP unset would otherwise reach the default daemon, not the one meant
        _refuse_blank(ns, ("endpoint",))
        client = Client(ns.endpoint, timeout=ns.timeout, **_curve_keys(ns))
    except RagixError as err:
        return _error(err, ns.json)
    try:
        if ns.command == "tail":
            from .ctl_local import tail
            return tail(client, ns)
        result, text = BODIES[ns.command](client, ns)
    except _NotFoundAll as err:
        missing = sorted(err.missing)
        if ns.json:  # the documented error shape; the items that were found travel in its details
            return _error(NotFound(f"{', '.join(missing)} not found", ids=missing,
                                   items=err.result["items"]), as_json=True)
        _out_quietly(ns, err.result, render.render_items(err.result) if err.result["items"] else "")
        print(f"ragixctl: not found: {', '.join(missing)}", file=sys.stderr)
        return EXIT_FAILED
    except RagixError as err:
        return _error(err, ns.json)
    finally:
        client.close()
    _out_quietly(ns, result, text)
    if ns.command == "verify" and not result.get("ok"):
        return EXIT_FAILED
    if ns.command == "policy" and _policy_failed(ns, result):
        return EXIT_FAILED
    if ns.command == "pipe" and result.get("skipped"):  # printed, but not everything was ingested
        return EXIT_FAILED
    if ns.command == "import" and any(result.get(k) for k in ("conflict", "refused", "invalid")):
        return EXIT_FAILED  # a restore that left lines out is not a success to a script
    if ns.command in ("propose", "parse"):
        from .ctl_govern import not_all_stored
        if not_all_stored(result):
            return EXIT_FAILED  # as a write the policy refuses: not everything proposed was stored
    return EXIT_OK


def _policy_failed(ns: argparse.Namespace, result: dict[str, Any]) -> bool:
    """A check whose text is not accepted; an audit that leaves refused items live."""
    if ns.policy_cmd == "audit":
        return len(result["archived"]) < len(result["flagged"])
    return result.get("decision") != "accept"


def _curve_keys(ns: argparse.Namespace) -> dict[str, bytes]:
    """Client arguments for CURVE from --server-key / --client-key (or the environment)."""
    server = ns.server_key or os.environ.get("RAGIX_SERVER_KEY")
    mine = ns.client_key or os.environ.get("RAGIX_CLIENT_KEY")
    if not server and not mine:
        return {}
    if not (server and mine):
        raise ConfigError("a CURVE connection needs both --server-key (the daemon's NAME.key) and "
                          "--client-key (this client's NAME.key_secret)")
    from ragixd.curve import load_keys
    server_public, _ = load_keys(Path(server).expanduser())
    public, secret = load_keys(Path(mine).expanduser())
    if secret is None:
        raise ConfigError(f"{mine} holds no secret key: give the NAME.key_secret file", path=mine)
    return {"server_public_key": server_public, "public_key": public, "secret_key": secret}


def spec_help(name: str) -> tuple[str, str]:
    spec = BY_NAME[name]
    return spec.summary, f"example:\n  {spec.example}"


if __name__ == "__main__":
    sys.exit(main())
