"""Governed writes from agents: propose (items given directly), proposals.parse (proposals
found in an LLM answer), policy.check (a dry run) and policy.audit (stored items the current
policy refuses). Every item goes through the policy as an untrusted proposal; refusals are
audited by the store without their content."""

from __future__ import annotations

from typing import Any

from ..domain import commands as c
from ..domain.item import validate_create
from ..domain.policy import Policy
from ..domain.proposals import Proposal, parse_answer, validate_proposal
from ..domain.trust import Caller
from ..errors import InvalidInput, RagixError
from ..retrieval.guard import RecallGuard
from ..store import queries
from ..store.filters import Filters, stores_of
from .handlers import Plan, QueryContext


def _create(proposal: Proposal, caller: Caller, op: str) -> c.CreateItem:
    fields = dict(proposal.fields)
    fields.setdefault("store", caller.default_store())
    caller.check_store(str(fields["store"]).strip().lower())
    return c.CreateItem(fields, trusted=False, why_store=proposal.why_store, op=op, sees=caller.stores)


def _summarise(entries: list[dict[str, Any]], results: list[Any]) -> dict[str, Any]:
    """Per-item outcomes (accepted, quarantined, duplicate, rejected, invalid) and counts."""
    items = []
    at = 0
    seq = 0
    for entry in entries:
        if "error" in entry:
            items.append({**entry, "status": "invalid"})
            continue
        result = results[at]
        at += 1
        if isinstance(result, RagixError):
            items.append({"index": entry["index"], "status": "invalid", "error": result.message,
                          "code": result.code})
            continue
        seq = max(seq, result.get("seq", 0))
        status = {"created": "accepted", "duplicate": "duplicate"}.get(result["status"], result["status"])
        out = {"index": entry["index"], "status": status}
        for key in ("id", "rules", "reasons", "expires_at", "content_hash"):
            if key in result:
                out[key] = result[key]
        if isinstance(result.get("policy"), dict):  # a quarantine says which soft blocks held it
            out.setdefault("rules", list(result["policy"].get("rules", ())))
            out.setdefault("reasons", list(result["policy"].get("reasons", ())))
        items.append(out)
    counts = {k: sum(1 for i in items if i["status"] == k)
              for k in ("accepted", "quarantined", "duplicate", "refused", "invalid")}
    return {"items": items, "seq": seq, **counts}


def plan_propose(args: dict[str, Any], caller: Caller) -> Plan:
    entries: list[dict[str, Any]] = []
    commands = []
    for n, raw in enumerate(args["items"]):
        try:
            commands.append(_create(validate_proposal(raw, index=n), caller, "propose"))
            entries.append({"index": n})
        except RagixError as err:
            entries.append({"index": n, "error": err.message, "field": getattr(err, "field", "")})
    return Plan(commands, lambda results: _summarise(entries, results))


def plan_parse(args: dict[str, Any], caller: Caller) -> Plan:
    parsed = parse_answer(args["text"], args.get("tool_calls"))
    entries: list[dict[str, Any]] = []
    commands = []
    for n, proposal in enumerate(parsed.proposals):
        try:
            commands.append(_create(proposal, caller, "proposals.parse"))
            entries.append({"index": n})
        except RagixError as err:
            entries.append({"index": n, "error": err.message})

    def finish(results: list[Any]) -> dict[str, Any]:
        summary = _summarise(entries, results)
        return {"text": parsed.cleaned_text, "errors": parsed.errors, **summary}
    return Plan(commands, finish)


def query_policy_check(q: QueryContext, args: dict[str, Any]) -> dict[str, Any]:
    policy: Policy = q.extra.get("policy") or c.default_policy()
    if "item" in args:
        # An item a write would refuse as malformed is said so, not given the policy's verdict.
        validate_create(args["item"])
        verdict = policy.evaluate(args["item"], trusted=bool(args.get("trusted", False)))
    elif "text" in args:
        verdict = policy.check_text(args["text"])
    else:
        raise InvalidInput("text", "give text or item")
    return verdict.to_dict()


def query_policy_audit(q: QueryContext, args: dict[str, Any]) -> dict[str, Any]:
    """One page of the live items the caller can see, checked against the current policy's
    secret and injection rules: those it would refuse now (stored before a rule existed), by
    id and rules, never their text. Recall already withholds them; this finds them for their
    owner to correct or archive."""
    guard = q.extra.get("recall_guard") or RecallGuard(c.default_policy())
    chosen = stores_of(args)
    limit = args.get("limit", 1000)
    page = queries.items_after(q.conn, args.get("after", 0), limit,
                               Filters(stores=chosen, visible_stores=q.caller.stores))
    flagged = []
    for _, item in page:
        rules = guard.refusing_rules(item)
        if rules:
            flagged.append({"id": item.id, "store": item.store, "tier": item.tier,
                            "updated_at": item.updated_at, "rules": list(rules)})
    return {"checked": len(page), "flagged": flagged, "next": page[-1][0] if len(page) == limit else None}
