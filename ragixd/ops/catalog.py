"""The catalog of ops: one entry per op, the single list that the server's dispatch, the
client's methods and ragixctl's help are all built from. Pure data: no I/O imports, so the
client library can import it.

Each op's request and answer are described by schemas/ops/<name>.json.
"""

from __future__ import annotations

import keyword
from dataclasses import dataclass

PROTOCOL_VERSION = 1

COMMAND = "command"  # changes state: goes through the single writer
QUERY = "query"      # reads only: runs on a reader connection, accepts min_seq
ADMIN = "admin"      # daemon management


@dataclass(frozen=True)
class OpSpec:
    name: str
    kind: str
    summary: str
    example: str

    @property
    def method(self) -> str:
        """The client method name: palace.list -> palace_list; a Python keyword takes a trailing
        underscore (import -> import_), so that it can be called as c.import_(lines=…)."""
        name = self.name.replace(".", "_")
        return f"{name}_" if keyword.iskeyword(name) else name


CATALOG: tuple[OpSpec, ...] = (
    OpSpec("write", COMMAND, "Store a new memory item (an exact duplicate bumps mention_count).",
           'ragixctl write --title "Deploy window" --content "Fridays 14-16h" --tags ops,deploy'),
    OpSpec("update", COMMAND, "Patch an item's fields; every update is a new revision.",
           'ragixctl update MEM-0123456789abcdef --content "Thursdays 14-16h" --reason "moved"'),
    OpSpec("archive", COMMAND, "Archive an item (it is hidden, never deleted).",
           "ragixctl archive MEM-0123456789abcdef --reason obsolete"),
    OpSpec("link", COMMAND, "Create a typed link between two items.",
           "ragixctl link MEM-aaaaaaaaaaaaaaaa MEM-bbbbbbbbbbbbbbbb --rel supports"),
    OpSpec("use", COMMAND, "Record explicit usage counts (a ranking signal in search; reads never count).",
           "ragixctl use MEM-0123456789abcdef"),
    OpSpec("palace.assign", COMMAND, "Place an item in the memory palace (derived or explicit).",
           "ragixctl palace assign MEM-0123456789abcdef"),
    OpSpec("source.retire", COMMAND, "Archive the live chunks of a source file that its re-ingest "
           "did not write again (ragixctl pipe --source does this after each file).",
           "ragixctl pipe topic --source docs/runbook.md"),
    OpSpec("propose", COMMAND, "Propose items as an agent: governed, quarantined or refused per item.",
           "ragixctl propose --file proposals.json"),
    OpSpec("proposals.parse", COMMAND, "Find, govern and store proposals in an LLM answer; return it cleaned.",
           "ollama run llama3.2 'plan the release' | ragixctl parse"),
    OpSpec("import", COMMAND, "Import JSONL export lines (owner only; through the policy; ids kept; idempotent).",
           "ragixctl import memory.jsonl"),
    OpSpec("policy.check", QUERY, "Dry-run the write policy on a text or an item: verdict and rules.",
           'ragixctl policy check "password: hunter2"'),
    OpSpec("policy.audit", QUERY, "Stored items the current policy would refuse (kept from before a "
           "rule existed; recall withholds them): ids and rules.", "ragixctl policy audit"),
    OpSpec("export", QUERY, "Export items as JSONL at a secrecy tier (S3 full, S2, S0 most redacted).",
           "ragixctl export --tier S2 -o memory.jsonl"),
    OpSpec("read", QUERY, "Read items by id.", "ragixctl read MEM-0123456789abcdef"),
    OpSpec("search", QUERY, "Hybrid search (full text + vectors) with filters; best first.",
           'ragixctl search "deploy window" --k 5 --tags ops'),
    OpSpec("recall", QUERY, "Memory for a prompt: inject blocks within a token budget, a catalog, or both.",
           'ragixctl recall "deploy policy" --budget 1500 --mode inject'),
    OpSpec("embedders", QUERY, "Embedding models, their vectors and back-fill progress.",
           "ragixctl embedders"),
    OpSpec("timeline", QUERY, "The items created just before and after an anchor item.",
           "ragixctl timeline MEM-0123456789abcdef --before 3 --after 3"),
    OpSpec("history", QUERY, "Every revision of an item, with full snapshots.",
           "ragixctl history MEM-0123456789abcdef"),
    OpSpec("entities", QUERY, "Entities (people, systems...) with mention counts.",
           "ragixctl entities --query alice"),
    OpSpec("palace.list", QUERY, "Browse the palace: domains, rooms, shelves, cards.",
           "ragixctl palace list project/ops"),
    OpSpec("palace.get", QUERY, "An item's palace location and the item.",
           "ragixctl palace get MEM-0123456789abcdef"),
    OpSpec("stats", QUERY, "Counts by tier, type and store; log size; head seq.", "ragixctl stats"),
    OpSpec("tail", QUERY, "Committed events after a seq (the PUB socket streams new ones).",
           "ragixctl tail --from 0"),
    OpSpec("status", ADMIN, "Daemon status: version, uptime, head seq, projectors, queue, clients.",
           "ragixctl status"),
    OpSpec("verify", ADMIN, "Check the hash chain and compare projections with a replay.",
           "ragixctl verify"),
    OpSpec("rebuild", ADMIN, "Drop every projection and replay the log.", "ragixctl rebuild"),
)

BY_NAME: dict[str, OpSpec] = {spec.name: spec for spec in CATALOG}
