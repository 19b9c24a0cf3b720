"""ragixctl propose, parse, export, import, policy check and policy audit."""

from __future__ import annotations

import json
import os
import stat
import sys
import tempfile
from pathlib import Path
from typing import IO, Any, Iterator, Sequence

from ragixd.errors import InvalidInput, TooLarge

from .client import Client
from .ctl import _refuse_blank
from .inputs import STDIN_LIMIT, read_file, read_stdin
from .progress import Redraw

BATCH = 500
BATCH_BYTES = 1_000_000  # characters of JSON in one import request (the daemon takes 4 MiB)
PROPOSE_BATCH = 100  # the most proposals one propose op takes (schemas/ops/propose.json)
IMPORT_COUNTS = ("created", "exists", "conflict", "refused", "quarantined", "invalid")


def _read(path: str | None, limit: int | None = STDIN_LIMIT) -> str:
    return read_stdin(limit) if path in (None, "-") else read_file(path)


def outcome_lines(result: dict[str, Any]) -> str:
    rows = [f"accepted {result['accepted']}, quarantined {result['quarantined']}, duplicate "
            f"{result['duplicate']}, refused {result['refused']}, invalid {result['invalid']}"]
    for item in result["items"]:
        detail = item.get("id") or item.get("error") or ""
        if item.get("reasons"):
            detail += " (" + "; ".join(item["reasons"]) + ")"
        if item["status"] == "quarantined" and item.get("expires_at"):
            detail += f", expires {item['expires_at']}"
        rows.append(f"  #{item.get('index', '?')}: {item['status']:<11} {detail}")
    return "\n".join(rows)


def not_all_stored(result: dict[str, Any]) -> bool:
    """Whether a propose or parse left a proposal out: refused by the policy, invalid, or (parse)
    not even readable as one. ragixctl exits 1 then, as for a write the policy refuses."""
    return any(result.get(k) for k in ("refused", "invalid")) or bool(result.get("errors"))


def propose(c: Client, ns) -> tuple[Any, str]:
    try:
        data = json.loads(_read(ns.file))
    except json.JSONDecodeError as e:
        raise InvalidInput("file", f"not JSON: {e}") from None
    items = data.get("items") if isinstance(data, dict) else data
    if not isinstance(items, list):
        raise InvalidInput("file", "expected a JSON list of proposals or {\"items\": [...]}")
    if not items:
        raise InvalidInput("file", "holds no proposals: the list is empty")
    total: dict[str, Any] = {"items": [], "seq": 0}
    for start in range(0, len(items), PROPOSE_BATCH):  # the op takes 100 at a time
        r = c.propose(items=items[start:start + PROPOSE_BATCH])
        total["items"] += [{**item, "index": item["index"] + start} if "index" in item else item
                           for item in r["items"]]
        total["seq"] = max(total["seq"], r["seq"])
        for key in ("accepted", "quarantined", "duplicate", "refused", "invalid"):
            total[key] = total.get(key, 0) + r[key]
    return total, outcome_lines(total)


def parse(c: Client, ns) -> tuple[Any, str]:
    args: dict[str, Any] = {"text": _read(ns.file)}
    if ns.tool_calls:
        try:
            calls = json.loads(read_file(ns.tool_calls))
        except json.JSONDecodeError as e:
            raise InvalidInput("--tool-calls", f"not JSON: {e}") from None
        except InvalidInput as e:  # the file cannot be read: said of this option, not of --file
            raise InvalidInput("--tool-calls", e.message.partition(": ")[2] or e.message) from None
        if isinstance(calls, dict):  # one call, as a model's API may give it
            calls = [calls]
        if not isinstance(calls, list):
            raise InvalidInput("--tool-calls", "expected a JSON list of tool calls (or one call)")
        args["tool_calls"] = calls
    r = c.proposals_parse(**args)
    if not ns.json:
        print(outcome_lines(r), file=sys.stderr)
        for err in r["errors"]:
            print(f"  proposal error: {err.get('error')}", file=sys.stderr)
    # printed with a line break after it: an answer that ends with one comes out as it went in
    return r, r["text"].removesuffix("\n")


def _open_output(path: str | None) -> tuple[IO[str], tuple[str, str] | None]:
    """The file export writes to, opened before the daemon is asked for anything, and (its own
    path, the path it takes once the export is complete). A regular file, or a new one, is
    written beside its final path and renamed over it at the end: an export that fails halfway
    (no daemon, a daemon stopped) leaves the file that was there, an earlier backup, as it
    was. A symbolic link keeps pointing where it did (its target is the file replaced, with its
    mode kept); a pipe, a device or `/dev/fd/N` is written straight, as given."""
    if path in (None, "-"):
        return sys.stdout, None
    final = Path(path).expanduser()
    try:
        try:
            found = os.stat(final)
        except FileNotFoundError:
            found = None
        if found is not None and stat.S_ISDIR(found.st_mode):
            raise IsADirectoryError(21, "Is a directory")
        if found is not None and not stat.S_ISREG(found.st_mode):
            fd = os.open(final, os.O_WRONLY | os.O_TRUNC)
            return os.fdopen(fd, "w", encoding="utf-8"), None
        target = os.path.realpath(final)
        # A new file is the user's alone (0600), as the daemon's home is: it holds their memory.
        fd, temp = tempfile.mkstemp(prefix=f".{os.path.basename(target)}.", suffix=".partial",
                                    dir=os.path.dirname(target))
        if found is not None:
            os.fchmod(fd, stat.S_IMODE(found.st_mode))
        return os.fdopen(fd, "w", encoding="utf-8"), (temp, target)
    except OSError as e:
        raise InvalidInput("--output", f"cannot write {path}: {e.strerror}") from None


def export(c: Client, ns) -> tuple[Any, str]:
    out, paths = _open_output(ns.output)
    written_to_stdout = out is not sys.stdout and paths is None and _is_stdout(out)
    count, after = 0, 0
    drawn = Redraw() if out is not sys.stdout else None  # not between the lines on a terminal
    complete = False
    try:
        while True:
            if drawn is not None:
                drawn.show(f"export: {count:,} items")
            page = c.export(tier=ns.tier, after=after, limit=BATCH, include_archived=ns.include_archived)
            for line in page["lines"]:
                out.write(json.dumps(line, ensure_ascii=False, sort_keys=True) + "\n")
                count += 1
            if page["next"] is None:
                break
            after = page["next"]
        complete = True
    finally:
        if drawn is not None:
            drawn.clear()
        try:
            if out is not sys.stdout:
                out.close()  # may fail too (a full disk): what it could not write is not complete
        except OSError:
            complete = False
            raise
        finally:
            if paths is not None:
                if complete:
                    os.replace(*paths)
                else:
                    os.unlink(paths[0])
    result = {"exported": count, "tier": ns.tier, "output": ns.output or "-"}
    if out is sys.stdout or written_to_stdout:  # the summary goes aside, not into the JSONL
        return result, None
    return result, f"exported {count} items at {ns.tier} to {ns.output}"


def _is_stdout(out) -> bool:
    """Is `out` the file standard output writes to (`-o /dev/stdout`, `-o /dev/fd/1`)?"""
    try:
        mine, theirs = os.fstat(out.fileno()), os.fstat(sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        return False
    return (mine.st_dev, mine.st_ino) == (theirs.st_dev, theirs.st_ino)


def import_(c: Client, ns) -> tuple[Any, str]:
    lines, numbers = [], []  # the parsed lines, and the file line (from 1) each came from
    for n, raw in enumerate(_read(ns.file, limit=None).splitlines(), start=1):
        if not raw.strip():
            continue
        try:
            lines.append(json.loads(raw))
        except json.JSONDecodeError as e:
            raise InvalidInput("file", f"line {n} is not JSON: {e}") from None
        numbers.append(n)
    totals = dict.fromkeys(IMPORT_COUNTS, 0)  # all said, an empty file's zeros too
    details: list[dict[str, Any]] = []
    # The items first, then what points from one to another (links, supersessions, archive
    # marks) once every item of the file is in: a link to a line in a later batch would
    # otherwise find no item, and the import would depend on the order of the file.
    items = [_without_follow_ups(line) for line in lines]
    statuses: list[str] = []
    drawn = Redraw()  # a large export takes a while to import: where it is, on a terminal
    try:
        for chosen in _batches(items, range(len(items))):
            drawn.show(f"import: line {numbers[chosen[0]]:,} of {numbers[-1]:,}")
            r = _import_batch(c, [items[i] for i in chosen])
            _add_up(r, chosen[0], numbers, totals, details)
            statuses += [d["status"] for d in r["lines"]]
        again = [i for i, (line, item) in enumerate(zip(lines, items))
                 if line is not item and statuses[i] in ("created", "exists")]
        for chosen in _batches(lines, again):
            drawn.show(f"import: links and marks, line {numbers[chosen[0]]:,} of {numbers[-1]:,}")
            r = _import_batch(c, [lines[i] for i in chosen])
            for d in r["lines"]:
                if d.get("error"):  # its links and marks not made at all (a line over the limit)
                    totals["invalid"] += 1
                    details.append({**d, "line": numbers[chosen[d["line"]]]})
                elif d.get("notes"):
                    details.append({**d, "status": statuses[chosen[d["line"]]], "line": numbers[chosen[d["line"]]]})
    finally:
        drawn.clear()
    details.sort(key=lambda d: d["line"])
    text = ", ".join(f"{k} {v}" for k, v in totals.items())
    text += "".join(f"\n  line {d['line']}: {d['status']}: {_why(d)}" for d in details[:50])
    return {**totals, "problems": details}, text


def _batches(lines: list[Any], indices: Sequence[int]) -> Iterator[list[int]]:
    """The indices of `lines` in runs of at most BATCH lines and about BATCH_BYTES of JSON: an
    export of large pointers (up to 100,000 characters each) would otherwise make requests over
    the daemon's message limit. A line larger than that goes alone."""
    run: list[int] = []
    size = 0
    for i in indices:
        length = len(json.dumps(lines[i], ensure_ascii=False))
        if run and (len(run) >= BATCH or size + length > BATCH_BYTES):
            yield run
            run, size = [], 0
        run.append(i)
        size += length
    if run:
        yield run


def _import_batch(c: Client, batch: list[Any]) -> dict[str, Any]:
    """One import request; a batch still over the daemon's limit (a lower max_message_bytes) is
    sent in halves, and a single line over it is counted invalid, the rest of the file going on."""
    try:
        return c.call("import", {"lines": batch})
    except TooLarge as err:
        if len(batch) == 1:
            counts = {**dict.fromkeys(IMPORT_COUNTS, 0), "invalid": 1}
            return {**counts, "lines": [{"line": 0, "status": "invalid", "error": err.message}]}
    half = len(batch) // 2
    first, second = _import_batch(c, batch[:half]), _import_batch(c, batch[half:])
    return {**{k: first[k] + second[k] for k in IMPORT_COUNTS},
            "lines": first["lines"] + [{**d, "line": d["line"] + half} for d in second["lines"]]}


_FOLLOW_UPS = ("links", "superseded_by", "archived")


def _without_follow_ups(line: Any) -> Any:
    """The line with its item alone (no links, supersession, archive mark or palace place), or
    the line itself when it has none of these (or is not an item line: the daemon says why)."""
    item = line.get("item") if isinstance(line, dict) else None
    if not isinstance(item, dict) or not (any(item.get(k) for k in _FOLLOW_UPS) or "palace" in line):
        return line
    alone = {k: v for k, v in line.items() if k != "palace"}
    return {**alone, "item": {k: v for k, v in item.items() if k not in _FOLLOW_UPS}}


def _add_up(r: dict[str, Any], start: int, numbers: list[int], totals: dict[str, int],
            details: list[dict[str, Any]]) -> None:
    """One batch's answer into the totals and the problems, each named by its file line."""
    for key in IMPORT_COUNTS:
        totals[key] += r[key]
    details.extend({**d, "line": numbers[d["line"] + start]} for d in r["lines"]
                   if d["status"] not in ("created", "exists") or d.get("notes"))


def _why(problem: dict[str, Any]) -> str:
    return ("; ".join(problem.get("reasons") or []) or problem.get("error") or problem.get("message")
            or "; ".join(problem.get("notes") or []) or "(no reason given)")


def policy_check(c: Client, ns) -> tuple[Any, str]:
    if ns.text is not None and ns.file is not None:
        raise InvalidInput("--file", "give the text to check or --file F, not both")
    text = ns.text if ns.text is not None else _read(ns.file)
    if not text.strip():
        raise InvalidInput("text", "nothing to check: give the text, or --file F ('-' for stdin)")
    r = c.policy_check(text=text)
    lines = [f"verdict: {r['decision']}"] + [f"  {rule}: {reason}" for rule, reason in zip(r["rules"], r["reasons"])]
    return r, "\n".join(lines)


def policy_audit(c: Client, ns) -> tuple[Any, str]:
    """Every page of the daemon's audit, progress on stderr; with --archive each item found is
    archived, its rules as the reason."""
    _refuse_blank(ns, ("store",))  # as every other filter: not "no filter"
    scope = {"store": ns.store} if ns.store else {}
    checked, after, flagged = 0, 0, []
    drawn = Redraw()
    while True:
        page = c.policy_audit(after=after, limit=BATCH, **scope)
        checked += page["checked"]
        flagged.extend(page["flagged"])
        drawn.show(f"policy audit: checked {checked} items, {len(flagged)} refused now")
        if page["next"] is None:
            break
        after = page["next"]
    drawn.clear()
    archived = []
    if ns.archive:
        for found in flagged:
            c.archive(found["id"], reason="policy audit: " + ", ".join(found["rules"]))
            archived.append(found["id"])
    result = {"checked": checked, "flagged": flagged, "archived": archived}
    return result, _audit_text(result)


def _audit_text(result: dict[str, Any]) -> str:
    flagged = result["flagged"]
    checked, held = result["checked"], len(flagged)
    lines = [f"checked {checked} item{'s' * (checked != 1)}: {held} "
             f"hold{'s' * (held == 1)} text the write policy now refuses"]
    for found in flagged:
        mark = " (archived)" if found["id"] in result["archived"] else ""
        lines.append(f"  {found['id']}  {found['store']}/{found['tier']}  {', '.join(found['rules'])}{mark}")
    if flagged and not result["archived"]:
        lines.append("recall already withholds them; correct one with `ragixctl update ID`, "
                     "or archive them all with `ragixctl policy audit --archive`")
    return "\n".join(lines)


def policy(c: Client, ns) -> tuple[Any, str]:
    return policy_audit(c, ns) if ns.policy_cmd == "audit" else policy_check(c, ns)
