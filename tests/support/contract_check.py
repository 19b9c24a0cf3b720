"""The contract as the tests hold the daemon to it: every answer it sends (errors included) and
every event it publishes or logs must match schemas/.

The daemons the tests start (support/daemon.py) run through support/checked_ragixd.py, which
checks each answer and published event as it leaves and appends any mismatch to a file; after
each test, conftest.py reads those files and every event in the daemons' logs. A new op or event
type is covered as soon as it exists: nothing here names one.
"""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any

import apsw

from ragixd import contract
from ragixd.store import log

_lock = threading.Lock()


def answer_problem(op: str | None, answer: dict[str, Any]) -> str | None:
    """What is wrong with an answer envelope (and its result, for op `op`), or None."""
    problem = contract.first_error("envelope#answer", answer)
    if problem is not None:
        return f"envelope: {problem}"
    if answer.get("ok") and op is not None and contract.schema_exists(f"ops/{op}"):
        problem = contract.first_error(f"ops/{op}#answer", answer["result"])
        if problem is not None:
            return f"ops/{op}#answer: {problem}"
    return None


def event_problem(event: dict[str, Any]) -> str | None:
    if not contract.schema_exists(f"events/{event.get('type')}"):
        return f"event type {event.get('type')!r} has no schema"
    problem = contract.first_error(f"events/{event['type']}", event)
    return None if problem is None else f"events/{event['type']}: {problem}"


def record(path: str | Path, what: str, problem: str, instance: Any) -> None:
    line = json.dumps({"what": what, "problem": problem, "instance": repr(instance)[:2000]})
    with _lock, open(path, "a") as f:
        f.write(line + "\n")


def recorded(path: Path) -> list[str]:
    if not path.exists():
        return []
    return [line for line in path.read_text().splitlines() if line]


def log_problems(db_path: Path) -> list[str]:
    """Every event of a home's log that does not match its schema."""
    if not db_path.exists():
        return []
    conn = apsw.Connection(str(db_path), flags=apsw.SQLITE_OPEN_READONLY)
    try:
        try:
            conn.execute("SELECT 1 FROM memory_events LIMIT 1").fetchall()
        except apsw.SQLError:
            return []  # no log table yet: the daemon never got as far as creating one
        problems = []
        for event in log.read(conn):
            problem = event_problem(event.to_dict())
            if problem is not None:
                problems.append(f"seq {event.seq}: {problem}")
        return problems
    finally:
        conn.close()
