"""Commands and the decisions that turn them into events, given a read-only view of state.

`decide` checks a command against the current state and returns the events to append and
the answer for the caller. It never writes: the store appends the events and applies them.
"""

from __future__ import annotations

import re
import secrets
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Callable, Mapping, Protocol

from ..errors import Conflict, InvalidInput, NotFound, PolicyRejected, shown
from . import events as ev
from .ids import is_item_id, new_item_id, not_an_item_id
from .item import (
    DEFAULT_STORE, LINK_RELS, MAX_USE_COUNT, STORES, TIERS, MemoryItem, apply_patch, build_item, check_content,
    check_not_blank,
    merged_provenance, normalize_time, patch_to_wire, validate_create, validate_patch,
)
from .clock import add_hours
from .encoding import content_hash, refusal_digest
from .palace import derive_location, validate_location
from .policy import Policy, PolicyConfig, Verdict


class StateView(Protocol):
    def get_item(self, item_id: str) -> MemoryItem | None: ...
    def exists(self, item_id: str) -> bool: ...
    def find_duplicate(self, store: str, content_hash: str, live_at: str,
                       until: str | None) -> MemoryItem | None: ...
    def link_exists(self, src: str, dst: str, rel: str) -> bool: ...
    def live_of_source(self, store: str, source: str) -> list[str]: ...
    def palace_location(self, item_id: str) -> dict[str, str] | None: ...


@lru_cache(maxsize=1)
def default_policy() -> Policy:
    """The policy of the embedded defaults, built on first use (building it takes about
    a third of a second; a daemon with its own configured policy never needs this one)."""
    return Policy(PolicyConfig())


# A context given no audit key (a decision outside any store) fingerprints refusals with this
# process's own: consistent within the process, and never a plain hash of the refused text.
_PROCESS_AUDIT_KEY = secrets.token_bytes(32)


@dataclass(frozen=True)
class Context:
    ts: str
    actor: str = "local"
    new_id: Callable[[], str] = new_item_id
    policy: Policy = field(default_factory=default_policy)
    audit_key: bytes = _PROCESS_AUDIT_KEY


@dataclass(frozen=True)
class CreateItem:
    """A new item. Every creation passes the policy: `trusted` (the owner's direct write)
    skips only the soft blocks; others are quarantined when they lack why_store or a source."""

    fields: Mapping[str, Any]
    dedup: bool = True
    trusted: bool = True
    why_store: str = ""
    op: str = "write"
    # The stores whose items the caller may name (its links' targets); None: every store. An
    # item in another store is not found, as one that does not exist (no existence oracle).
    sees: tuple[str, ...] | None = None


@dataclass(frozen=True)
class ImportItem:
    """An item from an export: its id and times are kept; an id already present is left
    alone (status exists when the content matches, conflict when it does not)."""

    fields: Mapping[str, Any]
    trusted: bool = True


@dataclass(frozen=True)
class IfImported:
    """What an import line makes after its item (a link, an archive mark, a supersession),
    applied only if the item holding its id is that line's: imported now, or already there
    with the same title and content. A line answered `conflict` changes nothing."""

    command: Any
    item_id: str
    title: str
    content: str


@dataclass(frozen=True)
class UpdateItem:
    id: str
    patch: Mapping[str, Any]
    reason: str = "update"
    op: str = "update"


@dataclass(frozen=True)
class ArchiveItem:
    id: str
    reason: str = "archive"


@dataclass(frozen=True)
class RetireSource:
    """A source file was ingested again: archive its live chunks (items of `store` whose
    source_id is `source`:N) that the new ingest did not write or find again (`keep`)."""
    source: str
    keep: tuple[str, ...]
    store: str = DEFAULT_STORE


RETIRED_REASON = "re-ingested: no longer in its source"


@dataclass(frozen=True)
class SupersedeItem:
    id: str
    by: str
    reason: str = "supersede"


@dataclass(frozen=True)
class RecordUse:
    counts: Mapping[str, int]


@dataclass(frozen=True)
class PromoteItem:
    id: str
    to: str
    reason: str = "promotion"


@dataclass(frozen=True)
class CreateLink:
    src: str
    dst: str
    rel: str = "related"


@dataclass(frozen=True)
class AssignPalace:
    id: str
    location: Mapping[str, str] | None = None


@dataclass(frozen=True)
class RecordRefusal:
    content_hash: str
    reasons: tuple[str, ...]
    rules: tuple[str, ...] = ()
    source: str = ""
    op: str = ""


@dataclass(frozen=True)
class RecordEmbedding:
    """A vector computed off the write path (slow embedders), for the content it was made from."""

    id: str
    model: str
    vector: bytes
    dimension: int
    content_hash: str


@dataclass
class Decision:
    events: list[ev.NewEvent] = field(default_factory=list)
    result: dict[str, Any] = field(default_factory=dict)


def _existing(view: StateView, item_id: Any, name: str = "id") -> MemoryItem:
    if not is_item_id(item_id):
        raise InvalidInput(name, not_an_item_id(item_id))
    item = view.get_item(item_id)
    if item is None:
        raise NotFound(f"no item {item_id}", id=item_id)
    return item


def _live(view: StateView, item_id: Any, name: str = "id") -> MemoryItem:
    item = _existing(view, item_id, name)
    if item.archived:
        raise Conflict(f"item {item_id} is archived", id=item_id)
    return item


def _reason(reason: Any, op: str, ctx: Context) -> str:
    if not isinstance(reason, str) or not reason.strip() or len(reason) > 200:
        raise InvalidInput("reason", "must be a non-empty string of at most 200 characters")
    if "\x00" in reason:  # as a title or a content may not
        raise InvalidInput("reason", "must not contain NUL characters")
    return _govern_text(reason.strip(), "reason", op, ctx)


def _refused(verdict: Verdict, fields: Mapping[str, Any], source: str, op: str, ctx: Context) -> Decision:
    """The audit of a refused write: a keyed fingerprint, rules and reasons, never the content
    itself — nor a source that would itself be refused (a token in a source_id or a file name)."""
    title, content = fields.get("title"), fields.get("content")
    digest = refusal_digest(ctx.audit_key, title if isinstance(title, str) else "",
                            content if isinstance(content, str) else "")
    source = source[:500]
    if not ctx.policy.check_text(source, "source").accepted:
        source = WITHHELD_SOURCE
    payload = {"content_hash": digest, "reasons": list(verdict.reasons), "rules": list(verdict.rule_ids),
               "source": source, "op": op}
    return Decision([ev.NewEvent(ev.WRITE_REFUSED, payload)],
                    {"status": "refused", "content_hash": digest, **verdict.to_dict()})


WITHHELD_SOURCE = "[withheld: the source itself was refused by the policy]"


class _RefusedText(Exception):
    """A text beside the item (a reason, a palace location) was refused: the command ends in
    the refusal's audit instead of its events."""

    def __init__(self, decision: Decision) -> None:
        super().__init__("refused")
        self.decision = decision


def _govern_text(text: str, field: str, op: str, ctx: Context) -> str:
    """`text` if the policy's content rules let it into the log, else _RefusedText: reasons and
    palace locations are stored and shown by history like any field, so no secret or injection
    may ride in them."""
    verdict = ctx.policy.check_text(text, field)
    if verdict.rejected:
        raise _RefusedText(_refused(verdict, {"title": "", "content": text}, ctx.actor, op, ctx))
    return text


# What the policy reads: every field a caller writes text into. Identifiers the system makes
# (ids, hashes, timestamps) are left out: random hex is not a secret.
GOVERNED_FIELDS = ("title", "content", "tags", "entities", "provenance", "scope", "rule_id",
                   "corpus_id", "type", "tier", "validation")


GENERATED_ID_RE = re.compile(r"^MEM-[0-9a-f]{12,32}\Z")


def _governed_view(fields: Mapping[str, Any], stored: Mapping[str, Any]) -> dict[str, Any]:
    """The fields as given (normalisation must not hide a secret) and, where they differ, the
    tags as `stored` keeps them (as stored.tags): lower-cased, `XOXB-…` would be kept as a
    token-shaped `xoxb-…`."""
    view = {k: fields[k] for k in GOVERNED_FIELDS if k in fields}
    item_id = fields.get("id")
    if isinstance(item_id, str) and not GENERATED_ID_RE.match(item_id):
        view["id"] = item_id  # an id a caller made up could carry a token: read it too
    given = list(view.get("tags") or ())
    lowered = [t for t in stored.get("tags") or () if t not in given]
    if lowered:
        # Read apart from the given ones: joined to them, a key split across two tags would be
        # read run on into its own lower-cased halves, one token too long for its rule.
        view["stored"] = {"tags": lowered}
    return view


def _governed(cmd: CreateItem, ctx: Context) -> tuple[dict[str, Any] | None, Decision | None]:
    """Validate and govern creation fields: (fields, None) to go on, (None, refusal) to stop."""
    raw = dict(cmd.fields)
    # Shape and size first: a malformed write is an error, not an audit. The reason to store
    # travels beside the fields (it is not kept on the item) and is bounded like them.
    fields = validate_create({**raw, "why_store": cmd.why_store} if cmd.why_store else raw)
    fields.pop("why_store", None)
    # The policy reads the fields as given: normalisation (lower-cased tags) must not hide a secret.
    verdict = ctx.policy.evaluate({**_governed_view(raw, fields), "why_store": cmd.why_store}, trusted=cmd.trusted)
    source = fields["provenance"].source_id if "provenance" in fields else ""
    if verdict.rejected:
        return None, _refused(verdict, raw, source or ctx.actor, cmd.op, ctx)
    if verdict.quarantined:
        fields.update(tier="stm", validation="unverified",
                      expires_at=add_hours(ctx.ts, verdict.quarantine_expiry_hours or 24))
        fields["_quarantine"] = verdict.to_dict()
    return fields, None


def _create(cmd: CreateItem, view: StateView, ctx: Context) -> Decision:
    fields, refusal = _governed(cmd, ctx)
    if refusal is not None:
        return refusal
    quarantine = fields.pop("_quarantine", None)
    digest = content_hash(fields["title"], fields["content"])
    if cmd.dedup:
        # Only an item that is served, and for as long as this one would be, can stand for it:
        # not one past its expiry, nor one expiring before this write would (an owner's lasting
        # write mentioning a pending proposal would expire with it).
        # A quarantine's expiry is the policy's, not a wish to keep the text for so long: a
        # pending proposal proposed again is a mention of the first, whichever expires first.
        until = ctx.ts if quarantine is not None else fields.get("expires_at")
        dup = view.find_duplicate(fields.get("store", DEFAULT_STORE), digest, ctx.ts, until=until)
        if dup is not None:
            source = fields["provenance"].source_id if "provenance" in fields else ""
            if source and source == dup.provenance.source_id:
                # The same source stating the same thing again (a file ingested once more) is
                # not a new mention: counting it would lift every chunk at each re-ingest.
                return Decision([], {"id": dup.id, "status": "duplicate", "mentioned": False})
            return Decision([ev.NewEvent(ev.ITEM_MENTIONED, {"id": dup.id})],
                            {"id": dup.id, "status": "duplicate", "mentioned": True})
    item_id = cmd.fields.get("id")
    if item_id is None:
        # 64 random bits: a collision is left to the table's unique constraint.
        item_id = ctx.new_id()
    elif not is_item_id(item_id):
        raise InvalidInput("id", not_an_item_id(item_id))
    elif view.exists(item_id):
        raise Conflict(f"item {item_id} already exists", id=item_id)
    for _rel, target in fields.get("links", ()):
        if _existing(view, target, "links").store not in (cmd.sees if cmd.sees is not None else STORES):
            raise NotFound(f"no item {target}", id=target)
    created_at = normalize_time(cmd.fields, "created_at") or ctx.ts
    item = build_item(item_id, fields, ctx.ts, created_at=created_at, digest=digest)
    result: dict[str, Any] = {"id": item_id, "status": "created"}
    if quarantine is not None:
        result.update(status="quarantined", policy=quarantine, expires_at=item.expires_at)
    return Decision([ev.NewEvent(ev.ITEM_CREATED, {"item": item.to_dict()})], result)


def _import(cmd: ImportItem, view: StateView, ctx: Context) -> Decision:
    item_id = cmd.fields.get("id")
    if not is_item_id(item_id):
        raise InvalidInput("id", f"an imported item needs an item id (MEM-…), got {shown(item_id)}")
    existing = view.get_item(item_id)
    if existing is not None:
        title, content = cmd.fields.get("title", ""), cmd.fields.get("content", "")
        same = isinstance(title, str) and isinstance(content, str) and \
            existing.content_hash == content_hash(title.strip(), content)
        if same:
            return Decision([], {"id": item_id, "status": "exists"})
        return Decision([], {"id": item_id, "status": "conflict",
                             "error": f"item {item_id} already exists here with another title or content; "
                                      "an import never overwrites an item"})
    create = CreateItem(cmd.fields, dedup=False, trusted=cmd.trusted, op="import")
    return _create(create, view, ctx)


def _if_imported(cmd: IfImported, view: StateView, ctx: Context) -> Decision:
    held = view.get_item(cmd.item_id) if is_item_id(cmd.item_id) else None
    if held is None or not isinstance(cmd.title, str) or not isinstance(cmd.content, str) or \
            held.content_hash != content_hash(cmd.title.strip(), cmd.content):
        raise Conflict(f"not applied: {cmd.item_id} was not imported from this line", id=cmd.item_id)
    return decide(cmd.command, view, ctx)


def _update(cmd: UpdateItem, view: StateView, ctx: Context) -> Decision:
    item = _live(view, cmd.id)
    given = cmd.patch
    if isinstance(given, Mapping) and "provenance" in given:
        given = {**given, "provenance": merged_provenance(item.provenance, given["provenance"])}
    patch = validate_patch(given, item.type)
    after = apply_patch(item, patch, ctx.ts)
    # What a write would refuse, an update may not make.
    check_not_blank(after.title, after.content, "content" if "content" in patch else "title")
    check_content(after.content, after.type)  # a pointer's long content made a note's is too long
    # The item as it would be is governed whole (an update is never a way around the policy);
    # soft blocks are for new proposals, so they do not apply here.
    # The patch as given is checked too: normalisation (lower-cased tags) must not hide a secret.
    stored = after.to_dict()
    verdict = ctx.policy.evaluate(_governed_view({**stored, **dict(cmd.patch)}, stored), trusted=True)
    if verdict.rejected:
        return _refused(verdict, stored, after.provenance.source_id or ctx.actor, cmd.op, ctx)
    if after.evolve(updated_at=item.updated_at) == item:
        return Decision([], {"id": item.id, "status": "unchanged"})
    payload = {"id": item.id, "patch": patch_to_wire(patch), "reason": _reason(cmd.reason, "update", ctx)}
    return Decision([ev.NewEvent(ev.ITEM_UPDATED, payload)], {"id": item.id, "status": "updated"})


def _archive(cmd: ArchiveItem, view: StateView, ctx: Context) -> Decision:
    item = _existing(view, cmd.id)
    if item.archived:
        return Decision([], {"id": item.id, "status": "unchanged"})
    payload = {"id": item.id, "reason": _reason(cmd.reason, "archive", ctx)}
    return Decision([ev.NewEvent(ev.ITEM_ARCHIVED, payload)], {"id": item.id, "status": "archived"})


def _retire(cmd: RetireSource, view: StateView, ctx: Context) -> Decision:
    if not isinstance(cmd.source, str) or not cmd.source.strip() or len(cmd.source) > 1000:
        raise InvalidInput("source", "must be a non-empty string of at most 1000 characters")
    keep = set(cmd.keep)
    stale = [item_id for item_id in view.live_of_source(cmd.store, cmd.source) if item_id not in keep]
    events = [ev.NewEvent(ev.ITEM_ARCHIVED, {"id": item_id, "reason": RETIRED_REASON}) for item_id in stale]
    return Decision(events, {"status": "retired" if stale else "unchanged", "archived": stale})


def _supersede(cmd: SupersedeItem, view: StateView, ctx: Context) -> Decision:
    item = _live(view, cmd.id)
    canonical = _live(view, cmd.by, "by")
    if canonical.id == item.id:
        raise InvalidInput("by", "an item cannot supersede itself")
    payload = {"id": item.id, "by": canonical.id, "reason": _reason(cmd.reason, "supersede", ctx)}
    return Decision([ev.NewEvent(ev.ITEM_SUPERSEDED, payload)],
                    {"id": item.id, "status": "superseded", "by": canonical.id})


def _use(cmd: RecordUse, view: StateView, ctx: Context) -> Decision:
    if not isinstance(cmd.counts, Mapping) or not cmd.counts:
        raise InvalidInput("uses", "must map at least one item id to a count")
    if not all(isinstance(item_id, str) for item_id in cmd.counts):
        raise InvalidInput("uses", "its keys must be item ids (MEM-…)")
    uses = []
    for item_id in sorted(cmd.counts):
        count = cmd.counts[item_id]
        if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= MAX_USE_COUNT:
            raise InvalidInput("uses", f"count for {item_id} must be a positive integer")
        _existing(view, item_id, "uses")
        uses.append({"id": item_id, "count": count})
    return Decision([ev.NewEvent(ev.ITEM_USED, {"uses": uses})], {"recorded": len(uses)})


def _promote(cmd: PromoteItem, view: StateView, ctx: Context) -> Decision:
    item = _live(view, cmd.id)
    if cmd.to not in TIERS:
        raise InvalidInput("to", f"must be one of {', '.join(TIERS)}")
    if TIERS.index(cmd.to) <= TIERS.index(item.tier):
        raise Conflict(f"item {item.id} is already {item.tier}", id=item.id)
    if cmd.to in ctx.policy.config.require_provenance_for and not item.provenance.source_id:
        raise PolicyRejected(f"item {item.id} has no provenance source: it cannot be {cmd.to}",
                             id=item.id, rules=["provenance.missing_for_tier"])
    payload = {"id": item.id, "from": item.tier, "to": cmd.to, "reason": _reason(cmd.reason, "promote", ctx)}
    return Decision([ev.NewEvent(ev.ITEM_PROMOTED, payload)],
                    {"id": item.id, "status": "promoted", "tier": cmd.to})


def _link(cmd: CreateLink, view: StateView, ctx: Context) -> Decision:
    # As an item's own links read it: SUPPORTS is supports (an import line may hold anything).
    rel = cmd.rel.strip().lower() if isinstance(cmd.rel, str) else cmd.rel
    if rel not in LINK_RELS:
        raise InvalidInput("rel", f"must be one of {', '.join(LINK_RELS)}; got {shown(cmd.rel)}")
    src = _existing(view, cmd.src, "src")
    dst = _existing(view, cmd.dst, "dst")
    if src.id == dst.id:
        raise InvalidInput("dst", "an item cannot link to itself")
    result = {"src": src.id, "dst": dst.id, "rel": rel}
    if view.link_exists(src.id, dst.id, rel):
        return Decision([], {**result, "status": "unchanged"})
    return Decision([ev.NewEvent(ev.LINK_CREATED, result)], {**result, "status": "created"})


def _palace(cmd: AssignPalace, view: StateView, ctx: Context) -> Decision:
    item = _existing(view, cmd.id)
    location = validate_location(cmd.location, item.id) if cmd.location else derive_location(item)
    if cmd.location:
        _govern_text("/".join(location[level] for level in ("domain", "room", "shelf")), "location",
                     "palace.assign", ctx)
    if view.palace_location(item.id) == location:  # already there: nothing to log (an import again)
        return Decision([], {"id": item.id, "location": location})
    payload = {"id": item.id, **location}
    return Decision([ev.NewEvent(ev.PALACE_ASSIGNED, payload)], {"id": item.id, "location": location})


def _refusal(cmd: RecordRefusal, view: StateView, ctx: Context) -> Decision:
    payload = {
        "content_hash": cmd.content_hash, "reasons": list(cmd.reasons), "rules": list(cmd.rules),
        "source": cmd.source, "op": cmd.op,
    }
    return Decision([ev.NewEvent(ev.WRITE_REFUSED, payload)], {"status": "refused"})


def _embedding(cmd: RecordEmbedding, view: StateView, ctx: Context) -> Decision:
    item = _existing(view, cmd.id)
    if len(cmd.vector) != 4 * cmd.dimension or cmd.dimension <= 0:
        raise InvalidInput("vector", f"must hold {cmd.dimension} float32 values")
    if item.archived or item.content_hash != cmd.content_hash:
        return Decision([], {"id": item.id, "status": "stale"})
    payload = {"id": item.id, "model": cmd.model, "dimension": cmd.dimension,
               "vector": bytes(cmd.vector), "content_hash": cmd.content_hash}
    return Decision([ev.NewEvent(ev.ITEM_EMBEDDED, payload)], {"id": item.id, "status": "embedded"})


DECIDERS: dict[type, Callable[[Any, StateView, Context], Decision]] = {
    CreateItem: _create,
    UpdateItem: _update,
    ArchiveItem: _archive,
    SupersedeItem: _supersede,
    RetireSource: _retire,
    RecordUse: _use,
    PromoteItem: _promote,
    CreateLink: _link,
    AssignPalace: _palace,
    RecordRefusal: _refusal,
    RecordEmbedding: _embedding,
    ImportItem: _import,
    IfImported: _if_imported,
}


def decide(cmd: Any, view: StateView, ctx: Context) -> Decision:
    try:
        decider = DECIDERS[type(cmd)]
    except KeyError:
        raise InvalidInput("command", f"unknown command {type(cmd).__name__}") from None
    try:
        return decider(cmd, view, ctx)
    except _RefusedText as refused:
        return refused.decision
