"""MemoryItem and its field rules: what a valid item is, independent of storage.

Validation raises InvalidInput naming the field, before anything is written.
"""

from __future__ import annotations

import math
import unicodedata
from dataclasses import MISSING, dataclass, field
from dataclasses import fields as dataclass_fields
from typing import Any, Mapping

from ..errors import InvalidInput, shown
from . import clock
from .encoding import content_hash
from .ids import is_item_id, not_an_item_id
from .policy.normalize import normalize
from .text import entity_key

TIERS = ("stm", "mtm", "ltm")
TYPES = ("fact", "decision", "definition", "constraint", "pattern", "todo", "pointer", "note")
MAX_USE_COUNT = 1_000_000  # the most uses one `use` command may record for an item
# Names LLMs commonly produce for the canonical types; anything else unknown becomes "note".
TYPE_ALIASES = {
    "process": "pattern",
    "procedure": "pattern",
    "rule": "constraint",
    "requirement": "constraint",
    "policy": "constraint",
    "task": "todo",
    "action": "todo",
    "reference": "pointer",
    "link": "pointer",
    "observation": "fact",
    "discovery": "fact",
    "choice": "decision",
    "term": "definition",
    "glossary": "definition",
}
VALIDATIONS = ("unverified", "verified", "contested", "retracted")
SOURCE_KINDS = ("chat", "doc", "tool", "mixed")
STORES = ("private", "shared", "social")
DEFAULT_STORE = "private"
LINK_RELS = (
    "supports", "contradicts", "refines", "supersedes", "depends_on", "references", "derived_from",
    "related",
)

MAX_TITLE = 200
MAX_CONTENT = 3000
MAX_POINTER_CONTENT = 100_000
MAX_TAGS = 64
MAX_TAG_LEN = 64
MAX_ENTITIES = 128
MAX_ENTITY_LEN = 200
MAX_SCOPE_LEN = 200
MAX_SHORT = 500


@dataclass(frozen=True)
class Provenance:
    source_kind: str = "chat"
    source_id: str = ""
    chunk_ids: tuple[str, ...] = ()
    content_hashes: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {
            "source_kind": self.source_kind,
            "source_id": self.source_id,
            "chunk_ids": list(self.chunk_ids),
            "content_hashes": list(self.content_hashes),
        }


def source_key(source_id: str) -> str | None:
    """The source an item was cut from: its provenance source_id up to the last ':'
    ("notes.md:3" -> "notes.md", "chat-7:S2:14" -> "chat-7:S2"); None without one."""
    return source_id.rsplit(":", 1)[0] if ":" in source_id else None


@dataclass(frozen=True)
class MemoryItem:
    id: str
    title: str
    content: str
    created_at: str
    updated_at: str
    tier: str = "stm"
    type: str = "note"
    tags: tuple[str, ...] = ()
    entities: tuple[str, ...] = ()
    links: tuple[tuple[str, str], ...] = ()  # (rel, to)
    provenance: Provenance = field(default_factory=Provenance)
    confidence: float = 0.5
    validation: str = "unverified"
    scope: str = "project"
    store: str = DEFAULT_STORE
    expires_at: str | None = None
    usage_count: int = 0
    last_used_at: str | None = None
    mention_count: int = 1
    rule_id: str | None = None
    corpus_id: str | None = None
    superseded_by: str | None = None
    archived: bool = False
    content_hash: str = ""

    def to_dict(self) -> dict[str, Any]:
        # Written out rather than dataclasses.asdict, which deep-copies and is slow on the
        # write path.
        return {
            "id": self.id, "title": self.title, "content": self.content,
            "created_at": self.created_at, "updated_at": self.updated_at, "tier": self.tier,
            "type": self.type, "tags": list(self.tags), "entities": list(self.entities),
            "links": [{"rel": rel, "to": to} for rel, to in self.links],
            "provenance": self.provenance.to_dict(), "confidence": self.confidence,
            "validation": self.validation, "scope": self.scope, "store": self.store,
            "expires_at": self.expires_at, "usage_count": self.usage_count,
            "last_used_at": self.last_used_at, "mention_count": self.mention_count,
            "rule_id": self.rule_id, "corpus_id": self.corpus_id,
            "superseded_by": self.superseded_by, "archived": self.archived,
            "content_hash": self.content_hash,
        }

    def evolve(self, **changes: Any) -> "MemoryItem":
        """A copy with some fields changed. Copies the instance dict directly: dataclasses.replace
        re-runs __init__ field by field, which the write and replay paths felt."""
        unknown = changes.keys() - _ITEM_FIELDS
        if unknown:
            raise TypeError(f"MemoryItem has no field {sorted(unknown)[0]!r}")
        copy = object.__new__(MemoryItem)
        state = copy.__dict__
        state.update(self.__dict__)
        state.update(changes)
        return copy


ITEM_FIELD_ORDER = tuple(f.name for f in dataclass_fields(MemoryItem))
_ITEM_FIELDS = frozenset(ITEM_FIELD_ORDER)
_REQUIRED = frozenset(f.name for f in dataclass_fields(MemoryItem)
                      if f.default is MISSING and f.default_factory is MISSING)
# Every field in declaration order with its default (None for the required ones, which a
# caller always gives). A factory's value is made once: its type is frozen, so it is shared.
_TEMPLATE = {f.name: (f.default if f.default is not MISSING else
                      f.default_factory() if f.default_factory is not MISSING else None)
             for f in dataclass_fields(MemoryItem)}


def item_of_fields(values: tuple) -> MemoryItem:
    """MemoryItem(*values), every field given in declaration order, without __init__ (see
    assemble)."""
    if len(values) != len(ITEM_FIELD_ORDER):
        return MemoryItem(*values)
    item = object.__new__(MemoryItem)
    item.__dict__.update(zip(ITEM_FIELD_ORDER, values))
    return item


def assemble(values: Mapping[str, Any]) -> MemoryItem:
    """MemoryItem(**values), without the frozen dataclass's __init__, which sets its 25 fields
    one object.__setattr__ at a time (~9 µs, of ~14 for a whole item read back or replayed).
    Unknown or missing fields go to __init__, which raises its usual TypeError."""
    if not _REQUIRED <= values.keys() <= _ITEM_FIELDS:
        return MemoryItem(**values)
    item = object.__new__(MemoryItem)
    state = item.__dict__
    state.update(_TEMPLATE)
    state.update(values)
    return item

# Fields a caller may set at creation; the rest are derived.
CREATE_FIELDS = (
    "title", "content", "tier", "type", "tags", "entities", "links", "provenance", "confidence",
    "validation", "scope", "store", "expires_at", "rule_id", "corpus_id",
)
# Fields an update may patch. Identity, timestamps, counters and lifecycle are not patchable.
PATCH_FIELDS = (
    "title", "content", "tier", "type", "tags", "entities", "provenance", "confidence",
    "validation", "scope", "expires_at", "rule_id", "corpus_id",
)
NULLABLE_IN_PATCH = ("expires_at", "rule_id", "corpus_id")


def _str(fields: Mapping[str, Any], name: str, max_len: int, default: str = "") -> str:
    value = fields.get(name, default)
    if value is None:
        value = default
    if not isinstance(value, str):
        raise InvalidInput(name, f"must be a string, got {type(value).__name__}")
    if "\x00" in value:
        raise InvalidInput(name, "must not contain NUL characters")
    if len(value) > max_len:
        raise InvalidInput(name, f"is {len(value)} characters, over the limit of {max_len}")
    return value


def _opt_str(fields: Mapping[str, Any], name: str, max_len: int = MAX_SHORT) -> str | None:
    if fields.get(name) is None:
        return None
    return _str(fields, name, max_len)


def _choice(fields: Mapping[str, Any], name: str, allowed: tuple[str, ...], default: str) -> str:
    value = _str(fields, name, 64, default) or default
    value = value.strip().lower()
    if value not in allowed:
        raise InvalidInput(name, f"must be one of {', '.join(allowed)}; got {shown(value)}")
    return value


def normalize_type(value: Any) -> str:
    if value is None or value == "":
        return "note"
    if not isinstance(value, str):
        raise InvalidInput("type", f"must be a string, got {type(value).__name__}")
    name = value.strip().lower()
    if name in TYPES:
        return name
    return TYPE_ALIASES.get(name, "note")


def _str_list(fields: Mapping[str, Any], name: str, max_items: int, max_len: int) -> list[str]:
    value = fields.get(name) or []
    if isinstance(value, str):
        raise InvalidInput(name, "must be a list of strings, not a single string")
    if not isinstance(value, (list, tuple)):
        raise InvalidInput(name, f"must be a list of strings, got {type(value).__name__}")
    if len(value) > max_items:
        raise InvalidInput(name, f"has {len(value)} entries, over the limit of {max_items}")
    out: list[str] = []
    for entry in value:
        if not isinstance(entry, str):
            raise InvalidInput(name, f"entries must be strings, got {type(entry).__name__}")
        entry = entry.strip()
        if "\x00" in entry:
            raise InvalidInput(name, "entries must not contain NUL characters")
        if len(entry) > max_len:
            raise InvalidInput(name, f"an entry is over {max_len} characters")
        if entry and entry not in out:
            out.append(entry)
    return out


def normalize_tags(fields: Mapping[str, Any]) -> tuple[str, ...]:
    # Composed (NFC) as well as lower-cased: "sécurité" typed decomposed (macOS) is one tag.
    tags = [unicodedata.normalize("NFC", t).lower() for t in _str_list(fields, "tags", MAX_TAGS, MAX_TAG_LEN)]
    return tuple(dict.fromkeys(tags))


def normalize_entities(fields: Mapping[str, Any]) -> tuple[str, ...]:
    """The entities as given, less the later spellings of one already listed ("Alice" and
    "alice", "Zoë" and "Zoe" are one entity, counted once for the item)."""
    first: dict[str, str] = {}
    for name in _str_list(fields, "entities", MAX_ENTITIES, MAX_ENTITY_LEN):
        first.setdefault(entity_key(name), name)
    return tuple(first.values())


def normalize_links(fields: Mapping[str, Any]) -> tuple[tuple[str, str], ...]:
    value = fields.get("links") or []
    if not isinstance(value, (list, tuple)):
        raise InvalidInput("links", "must be a list of {rel, to} objects")
    out: list[tuple[str, str]] = []
    for entry in value:
        if not isinstance(entry, Mapping):
            raise InvalidInput("links", "entries must be {rel, to} objects")
        rel = _choice(entry, "rel", LINK_RELS, "related")
        to = entry.get("to")
        if not is_item_id(to):
            raise InvalidInput("links", f"'to' must be an item id (MEM-…), got {shown(to)}")
        if (rel, to) not in out:
            out.append((rel, to))
    return tuple(out)


def normalize_provenance(fields: Mapping[str, Any]) -> Provenance:
    value = fields.get("provenance") or {}
    if not isinstance(value, Mapping):
        raise InvalidInput("provenance", "must be an object")
    unknown = set(value) - {"source_kind", "source_id", "chunk_ids", "content_hashes", "created_at"}
    if unknown:
        raise InvalidInput("provenance", f"unknown keys: {', '.join(sorted(map(shown, unknown)))} (known: "
                                         "source_kind, source_id, chunk_ids, content_hashes, created_at)")
    try:
        source_id = _str(value, "source_id", MAX_SHORT)
        if source_id and not _visible(source_id):  # '' is how an item says it has none; spaces are a mistake
            raise InvalidInput("source_id", "is blank: give the source (e.g. notes.md:3), or leave it out")
        if value.get("created_at") is not None:  # accepted (seed 002's proposals carry it), not kept
            normalize_time(value, "created_at")
        return Provenance(
            source_kind=_choice(value, "source_kind", SOURCE_KINDS, "chat"),
            source_id=source_id,
            chunk_ids=tuple(_str_list(value, "chunk_ids", 1000, MAX_SHORT)),
            content_hashes=tuple(_str_list(value, "content_hashes", 1000, 80)),
        )
    except InvalidInput as err:  # named as the field it is in: provenance.source_kind
        field = err.details.get("field", "")
        raise InvalidInput(f"provenance.{field}", err.message.removeprefix(f"{field}: ")) from None


def normalize_confidence(fields: Mapping[str, Any], default: float = 0.5) -> float:
    value = fields.get("confidence", default)
    if value is None:
        value = default
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise InvalidInput("confidence", f"must be a number, got {type(value).__name__}")
    if not math.isfinite(value) or not 0.0 <= value <= 1.0:
        raise InvalidInput("confidence", "must be between 0.0 and 1.0")
    return float(value)


def normalize_time(fields: Mapping[str, Any], name: str) -> str | None:
    raw = _opt_str(fields, name, 64)
    if raw is None or raw == "":
        return None
    try:
        return clock.normalize_ts(raw)
    except ValueError:
        raise InvalidInput(name, f"is not an ISO-8601 timestamp: {shown(raw)}") from None


def check_content(content: str, type_: str) -> None:
    limit = MAX_POINTER_CONTENT if type_ == "pointer" else MAX_CONTENT
    if len(content) > limit:
        raise InvalidInput("content", f"is {len(content)} characters, over the limit of {limit} for type {type_}")


def check_not_blank(title: str, content: str, field: str) -> None:
    """An item must hold visible text in its title or its content (either may be empty: a chat
    turn or a document chunk has no title, a short memo no content), not both empty, spaces or
    invisible characters only; `field` is the one to name in the refusal."""
    if not _visible(title) and not _visible(content):
        raise InvalidInput(field, "is blank, and so is the other of title and content: an item needs "
                                  "visible text in one of them (not only spaces or invisible characters)")


def _visible(text: str) -> bool:
    return bool(text.strip()) and bool(normalize(text).strip())


# The labels an item gets by default when a caller leaves them out. Given blank ('' or spaces),
# one is refused rather than defaulted: a blank label is a mistake (an empty variable in a
# script), and filling it in would hide that. Leaving it out, or null, takes the default.
LABEL_DEFAULTS = {"tier": "stm", "type": "note", "scope": "project", "store": DEFAULT_STORE,
                  "validation": "unverified"}


def check_labels_not_blank(fields: Mapping[str, Any]) -> None:
    for name, default in LABEL_DEFAULTS.items():
        value = fields.get(name)
        if isinstance(value, str) and not _visible(value):
            raise InvalidInput(name, f"is blank: give a value, or leave it out for the default ({default})")


def _normalize(fields: Mapping[str, Any], names: tuple[str, ...]) -> dict[str, Any]:
    """Validate and normalise the given fields of `fields` (only those present)."""
    check_labels_not_blank(fields)
    handlers = {
        "title": lambda f: _str(f, "title", MAX_TITLE).strip(),
        "content": lambda f: _str(f, "content", MAX_POINTER_CONTENT),
        "tier": lambda f: _choice(f, "tier", TIERS, "stm"),
        "type": lambda f: normalize_type(f.get("type")),
        "tags": normalize_tags,
        "entities": normalize_entities,
        "links": normalize_links,
        "provenance": normalize_provenance,
        "confidence": normalize_confidence,
        "validation": lambda f: _choice(f, "validation", VALIDATIONS, "unverified"),
        "scope": lambda f: _str(f, "scope", MAX_SCOPE_LEN, "project").strip(),
        "store": lambda f: _choice(f, "store", STORES, DEFAULT_STORE),
        "expires_at": lambda f: normalize_time(f, "expires_at"),
        "rule_id": lambda f: _opt_str(f, "rule_id"),
        "corpus_id": lambda f: _opt_str(f, "corpus_id"),
    }
    return {name: handlers[name](fields) for name in names if name in fields}


def _said_field(name: str, where: str) -> str:
    """An unknown field named in an error as given when it reads as a field name (`colour`),
    else as its size within `where`: a key pasted as a field name is not repeated back."""
    return name if shown(name) == repr(name) and name.isidentifier() else f"{where} ({shown(name)})"


def validate_create(fields: Mapping[str, Any]) -> dict[str, Any]:
    """Check the caller's fields for a new item; return them normalised with defaults."""
    if not isinstance(fields, Mapping):
        raise InvalidInput("item", "must be an object")
    unknown = set(fields) - set(CREATE_FIELDS) - {"id", "why_store", "created_at"}
    if unknown:
        raise InvalidInput(_said_field(sorted(map(str, unknown))[0], "item"), "is not a field of a memory item")
    data = _normalize({"title": "", "content": "", **fields}, CREATE_FIELDS)
    check_not_blank(data["title"], data["content"], "content" if "content" in fields else "title")
    check_content(data["content"], data.get("type", "note"))
    # The fields beside the item's own (an import's id and time, a proposal's reason), checked
    # here too, so that every path that reads them refuses the same malformed values.
    if fields.get("id") is not None and not is_item_id(fields["id"]):
        raise InvalidInput("id", not_an_item_id(fields["id"]))
    normalize_time(fields, "created_at")
    if fields.get("why_store") is not None:
        _str(fields, "why_store", MAX_CONTENT)
    return data


def validate_patch(patch: Mapping[str, Any], current_type: str) -> dict[str, Any]:
    """Check an update patch; return it normalised. An empty patch is an error."""
    if not isinstance(patch, Mapping) or not patch:
        raise InvalidInput("patch", "must be a non-empty object")
    unknown = set(patch) - set(PATCH_FIELDS)
    if unknown:
        name = sorted(map(str, unknown))[0]
        raise InvalidInput(_said_field(name, "patch"), "cannot be changed by an update "
                           f"(fields: {', '.join(PATCH_FIELDS)})")
    for name in PATCH_FIELDS:
        # null would read as the field's default (content "", tier stm, type note): a patch
        # says what a field becomes; only an expiry or an id of a rule or corpus can be none.
        if name in patch and patch[name] is None and name not in NULLABLE_IN_PATCH:
            raise InvalidInput(name, "cannot be null in an update (give the value it should take"
                               + (", [] for none)" if name in ("tags", "entities") else ")"))
    data = _normalize(patch, PATCH_FIELDS)
    if "content" in data:
        check_content(data["content"], data.get("type", current_type))
    return data


def build_item(item_id: str, fields: Mapping[str, Any], ts: str, created_at: str | None = None,
               digest: str | None = None) -> MemoryItem:
    """A new item from normalised create fields (validate_create output) at time `ts`
    (`created_at` defaults to it; `digest`, the content hash, is computed when not given)."""
    data = dict(fields)
    data["tags"] = tuple(data.get("tags", ()))
    data["entities"] = tuple(data.get("entities", ()))
    data["links"] = tuple(tuple(link) for link in data.get("links", ()))
    if {"id", "created_at", "updated_at", "content_hash"} & data.keys():
        raise TypeError("create fields may not set id, created_at, updated_at or content_hash")
    data.update(id=item_id, created_at=created_at or ts, updated_at=ts,
                content_hash=digest or content_hash(data["title"], data["content"]))
    return assemble(data)


def item_from_dict(data: Mapping[str, Any]) -> MemoryItem:
    """Inverse of MemoryItem.to_dict (used by projections and event payloads)."""
    values = dict(data)
    values["tags"] = tuple(values.get("tags", ()))
    values["entities"] = tuple(values.get("entities", ()))
    values["links"] = tuple((link["rel"], link["to"]) for link in values.get("links", ()))
    prov = values.get("provenance") or {}
    values["provenance"] = Provenance(
        source_kind=prov.get("source_kind", "chat"),
        source_id=prov.get("source_id", ""),
        chunk_ids=tuple(prov.get("chunk_ids", ())),
        content_hashes=tuple(prov.get("content_hashes", ())),
    )
    return assemble(values)


def merged_provenance(current: Provenance, given: Any) -> Any:
    """An update's provenance over the item's: the fields given replace theirs, the others are
    kept (a new source_id keeps source_kind), except the chunk ids and content hashes, which
    belong to the old source and go when the source changes and they are not given again.
    Anything but an object is returned as is, for validation to refuse."""
    if not isinstance(given, Mapping):
        return given
    nulls = sorted(str(k) for k, v in given.items() if v is None)
    if nulls:  # as at the top of a patch: null would read as a default ('chat', no source)
        raise InvalidInput(f"provenance.{nulls[0]}", "cannot be null in an update (give the value it should take)")
    merged = {**current.to_dict(), **given}
    if "source_id" in given and given["source_id"] != current.source_id:
        for name in ("chunk_ids", "content_hashes"):
            if name not in given:
                merged[name] = []
    return merged


def apply_patch(item: MemoryItem, patch: Mapping[str, Any], ts: str) -> MemoryItem:
    """The item after a normalised patch, with its hash and updated_at recomputed."""
    changes = dict(patch)
    for key in ("tags", "entities"):
        if key in changes:
            changes[key] = tuple(changes[key])
    if "provenance" in changes and isinstance(changes["provenance"], Mapping):
        changes["provenance"] = normalize_provenance({"provenance": changes["provenance"]})
    updated = item.evolve(**changes, updated_at=ts)
    return updated.evolve(content_hash=content_hash(updated.title, updated.content))


def patch_to_wire(patch: Mapping[str, Any]) -> dict[str, Any]:
    """A normalised patch as plain data for an event payload."""
    out = {}
    for key, value in patch.items():
        if isinstance(value, Provenance):
            value = value.to_dict()
        elif isinstance(value, tuple):
            value = list(value)
        out[key] = value
    return out
