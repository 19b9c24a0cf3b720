"""Memory proposals in an LLM answer: find them, strip them, and check their shape.

Owns the proposal schema and its parsing from delimiter blocks
(<MEMORY_PROPOSALS_JSON>…</MEMORY_PROPOSALS_JSON>) and `memory.propose` tool calls. It must
never raise on any answer, never store anything, and never take more than linear time:
problems become entries of ParseResult.errors and the valid proposals are still returned.

Shape checks only: value limits (lengths, enums, confidence range, timestamps) are left to
ragixd.domain.item.validate_create, which the caller runs on Proposal.fields. A proposal
may not choose its store, validation state, corpus or id; such keys and any other unknown
key are dropped and listed in Proposal.ignored.

Errors are dicts {"source": "block"|"tool", "index": n, "item": j?, "field": f?, "error": …}
where `index` counts blocks (or tool calls) from 0 and `item` is the position of the item
inside that block or call (absent for errors about the whole block or call).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..errors import InvalidInput

OPEN_TAG = "<MEMORY_PROPOSALS_JSON>"
CLOSE_TAG = "</MEMORY_PROPOSALS_JSON>"
MAX_PROPOSALS = 100
MAX_ERRORS = 200
PROPOSE_NAMES = ("memory.propose", "memory_propose")
TEXT_FIELDS = ("type", "scope", "tier", "expires_at", "rule_id")
PROVENANCE_KEYS = ("source_kind", "source_id", "chunk_ids", "content_hashes", "created_at")
# Keys that describe a proposal rather than the item: the model does not get to set them.
REFUSED_KEYS = ("id", "store", "validation", "corpus_id", "created_at", "updated_at")

_FENCE_RE = re.compile(r"(?m)^[ \t]*+(?:```|~~~)[^\n]*+")
_WS_RE = re.compile(r"\s*+")


@dataclass(frozen=True)
class Proposal:
    """One well-shaped proposal: `fields` go to validate_create, why_store to the policy."""

    fields: dict[str, Any]
    why_store: str = ""
    source: str = "direct"
    index: int = 0
    item: int = 0
    ignored: tuple[str, ...] = ()


@dataclass
class ParseResult:
    cleaned_text: str
    proposals: list[Proposal] = field(default_factory=list)
    errors: list[dict[str, Any]] = field(default_factory=list)


# -- one proposal --------------------------------------------------------------------------

def _check_str(value: Any, name: str) -> str:
    if not isinstance(value, str):
        raise InvalidInput(name, f"must be a string, got {type(value).__name__}")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise InvalidInput(name, "is not valid UTF-8 (unpaired surrogate)") from None
    return value


def _str_list(value: Any, name: str, split_commas: bool = False) -> list[str]:
    if isinstance(value, str) and split_commas:
        value = [part.strip() for part in value.split(",") if part.strip()]
    if not isinstance(value, list):
        raise InvalidInput(name, f"must be a list of strings, got {type(value).__name__}")
    return [_check_str(entry, name) for entry in value]


def _confidence(value: Any) -> float:
    if isinstance(value, str):
        try:
            return float(value.strip())
        except ValueError:
            raise InvalidInput("confidence", "must be a number") from None
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise InvalidInput("confidence", f"must be a number, got {type(value).__name__}")
    return float(value)


def _provenance(value: Any, ignored: list[str]) -> dict[str, Any]:
    if not isinstance(value, Mapping):
        raise InvalidInput("provenance", f"must be an object, got {type(value).__name__}")
    out: dict[str, Any] = {}
    for key, entry in value.items():
        name = f"provenance.{key}"
        if key not in PROVENANCE_KEYS:
            ignored.append(name if isinstance(key, str) else "provenance.?")
        elif entry is None:
            continue
        elif key in ("chunk_ids", "content_hashes"):
            out[key] = _str_list(entry, name)
        else:
            out[key] = _check_str(entry, name)
    return out


def _links(value: Any) -> list[dict[str, str]]:
    if not isinstance(value, list):
        raise InvalidInput("links", f"must be a list, got {type(value).__name__}")
    out = []
    for link in value:
        if not isinstance(link, Mapping):
            raise InvalidInput("links", "entries must be {rel, to} objects")
        out.append({"rel": _check_str(link.get("rel", "related"), "links.rel"),
                    "to": _check_str(link.get("to"), "links.to")})
    return out


def validate_proposal(obj: Any, *, source: str = "direct", index: int = 0, item: int = 0) -> Proposal:
    """Check one proposal's shape; raise InvalidInput naming the first bad field."""
    if not isinstance(obj, Mapping):
        raise InvalidInput("item", f"must be an object, got {type(obj).__name__}")
    if obj.get("title") is None and obj.get("content") is None:
        raise InvalidInput("content", "is missing, and so is the title: a proposal needs one of them")
    # Either may be left out or empty (a chat turn has no title, a short memo no content), as
    # in a write; the create command refuses one whose title and content are both blank.
    fields: dict[str, Any] = {name: "" if obj.get(name) is None else _check_str(obj[name], name)
                              for name in ("title", "content")}
    ignored: list[str] = []
    for key, value in obj.items():
        if key in ("title", "content") or value is None:
            continue
        if key in TEXT_FIELDS:
            fields[key] = _check_str(value, key)
        elif key == "tags":
            fields["tags"] = _str_list(value, "tags", split_commas=True)
        elif key == "entities":
            fields["entities"] = _str_list(value, "entities")
        elif key == "confidence":
            fields["confidence"] = _confidence(value)
        elif key == "links":
            fields["links"] = _links(value)
        elif key == "provenance" or (key == "provenance_hint" and obj.get("provenance") is None):
            fields["provenance"] = _provenance(value, ignored)
        elif key != "why_store":
            ignored.append(key if isinstance(key, str) else "?")
    why = obj.get("why_store")
    why_store = "" if why is None else _check_str(why, "why_store")
    return Proposal(fields, why_store, source, index, item, tuple(ignored))


# -- where proposals come from -------------------------------------------------------------

class _Collector:
    """Accumulates proposals and errors across one answer, enforcing the caps."""

    def __init__(self) -> None:
        self.proposals: list[Proposal] = []
        self.errors: list[dict[str, Any]] = []
        self.seen = 0
        self.dropped_errors = 0

    def error(self, source: str, index: int, message: str, **extra: Any) -> None:
        if len(self.errors) >= MAX_ERRORS:
            self.dropped_errors += 1
            return
        self.errors.append({"source": source, "index": index, **extra, "error": message})

    def items(self, items: list[Any], source: str, index: int) -> None:
        room = max(0, MAX_PROPOSALS - self.seen)
        for j, obj in enumerate(items[:room]):
            try:
                self.proposals.append(validate_proposal(obj, source=source, index=index, item=j))
            except InvalidInput as e:
                self.error(source, index, e.message, item=j, field=e.field)
            except Exception as e:  # noqa: BLE001 - a pathological value must not sink the answer
                self.error(source, index, f"item could not be read ({type(e).__name__})", item=j)
        self.seen += min(room, len(items))
        if len(items) > room:
            self.error(source, index, f"over the limit of {MAX_PROPOSALS} proposals per answer; "
                       f"{len(items) - room} items dropped", item=room)

    def value(self, value: Any, source: str, index: int) -> None:
        """A decoded JSON value: an array of proposals, {items: [...]}, or one proposal."""
        if isinstance(value, list):
            self.items(value, source, index)
        elif isinstance(value, Mapping) and "items" in value:
            if isinstance(value["items"], list):
                self.items(value["items"], source, index)
            else:
                self.error(source, index, "'items' must be a list", field="items")
        elif isinstance(value, Mapping) and ("title" in value or "content" in value):
            self.items([value], source, index)
        else:
            self.seen += 1  # junk counts against the cap, so a flood of it stays cheap
            self.error(source, index, "expected a JSON array of proposals or an object "
                       "with an 'items' array")

    def full(self, source: str, index: int) -> bool:
        """True (and reported) once the cap is reached: later values are not read."""
        if self.seen < MAX_PROPOSALS:
            return False
        self.error(source, index, f"over the limit of {MAX_PROPOSALS} proposals per answer; "
                   "the rest is ignored")
        return True

    def finish(self, cleaned_text: str) -> ParseResult:
        if self.dropped_errors:
            self.errors.append({"source": "answer", "index": 0,
                                "error": f"{self.dropped_errors} further errors not shown"})
        return ParseResult(cleaned_text, self.proposals, self.errors)


def _decode_all(text: str) -> Iterator[Any]:
    """Every JSON value in `text`, one after another; raises ValueError at the first bad one."""
    decoder = json.JSONDecoder()
    pos = _WS_RE.match(text).end()
    while pos < len(text):
        try:
            value, pos = decoder.raw_decode(text, pos)
        except json.JSONDecodeError as e:
            raise ValueError(f"malformed JSON at line {e.lineno} column {e.colno}: {e.msg}") from None
        except RecursionError:
            raise ValueError("malformed JSON: nested too deeply") from None
        except ValueError as e:  # e.g. an integer over the digit limit
            raise ValueError(f"malformed JSON: {e}") from None
        yield value
        pos = _WS_RE.match(text, pos).end()


def _read_block(content: str, index: int, out: _Collector) -> None:
    # Fence lines are blanked rather than removed so that JSON line numbers stay true.
    body = _FENCE_RE.sub("", content)
    if not body.strip():
        out.error("block", index, "empty proposals block")
        return
    try:
        for value in _decode_all(body):
            if out.full("block", index):
                return
            out.value(value, "block", index)
    except ValueError as e:
        out.error("block", index, str(e))


def _call_parts(call: Mapping[str, Any]) -> tuple[Any, Any]:
    """(name, payload) of a tool call in any of the accepted shapes: OpenAI's and Ollama's
    {"function": {name, arguments}}, Gemini's {"functionCall": {name, args}}, Anthropic's
    {"type": "tool_use", name, input}, and {name|action|tool, arguments|args|items}."""
    for key in ("function", "functionCall", "function_call"):
        function = call.get(key)
        if isinstance(function, Mapping):
            return function.get("name"), function.get("arguments", function.get("args"))
    name = call.get("action", call.get("name", call.get("tool")))
    if "items" in call:
        return name, {"items": call["items"]}
    return name, call.get("arguments", call.get("args", call.get("input")))


def _read_tool_call(call: Any, index: int, out: _Collector) -> None:
    if not isinstance(call, Mapping):
        out.error("tool", index, f"tool call must be an object, got {type(call).__name__}")
        return
    name, payload = _call_parts(call)
    if not isinstance(name, str) or name.strip().lower() not in PROPOSE_NAMES:
        return  # another tool's call: not ours to judge
    if isinstance(payload, str):
        try:
            values = list(_decode_all(payload))
        except ValueError as e:
            out.error("tool", index, f"arguments: {e}")
            return
    else:
        values = [] if payload is None else [payload]
    if not values:
        out.error("tool", index, "memory.propose call without items", field="items")
    for value in values:
        if out.full("tool", index):
            return
        out.value(value, "tool", index)


def _tag_pattern(open_tag: str, close_tag: str) -> re.Pattern[str]:
    return re.compile(f"({re.escape(open_tag)})|{re.escape(close_tag)}", re.IGNORECASE)


def _split_blocks(text: str, tags: re.Pattern[str], out: _Collector) -> tuple[list[str], list[str]]:
    """(kept segments, block contents); nested blocks count as one, tags inside blanked."""
    segments: list[str] = []
    blocks: list[str] = []
    depth, last, start = 0, 0, 0
    for m in tags.finditer(text):
        if m.group(1) is not None:
            if depth == 0:
                segments.append(text[last:m.start()])
                start = m.end()
            elif depth == 1:
                out.error("block", len(blocks), "nested opening tag inside a proposals block")
            depth += 1
        elif depth == 0:
            out.error("block", len(blocks), "closing tag without an opening tag; removed")
            segments.append(text[last:m.start()])
            last = m.end()
        else:
            depth -= 1
            if depth == 0:
                blocks.append(text[start:m.start()])
                last = m.end()
    if depth:
        out.error("block", len(blocks), "block is never closed; removed to the end of the answer")
        blocks.append(text[start:])
        last = len(text)
    segments.append(text[last:])
    return segments, [tags.sub(lambda t: " " * len(t.group(0)), b) for b in blocks]


def _stitch(segments: list[str]) -> str:
    """Join the text around removed blocks, folding the whitespace at each cut into one gap."""
    if len(segments) == 1:
        return segments[0]
    parts: list[str] = []
    gap = 0  # the most newlines in one whitespace run at the current cut
    for i, segment in enumerate(segments):
        body = segment
        if i > 0:
            stripped = body.lstrip()
            gap = max(gap, body.count("\n", 0, len(body) - len(stripped)))
            body = stripped
        trail = ""
        if i < len(segments) - 1:
            stripped = body.rstrip()
            trail, body = body[len(stripped):], stripped
        if body:
            if parts:
                parts.append("\n\n" if gap >= 2 else "\n" if gap else " ")
            parts.append(body)
            gap = 0
        gap = max(gap, trail.count("\n"))
    return "".join(parts)


def parse_answer(text: str, tool_calls: list[Any] | None = None, open_tag: str = OPEN_TAG,
                 close_tag: str = CLOSE_TAG) -> ParseResult:
    """Proposals from tool calls, then from delimiter blocks; the answer without the blocks."""
    out = _Collector()
    if not isinstance(text, str):
        out.error("block", 0, f"answer must be a string, got {type(text).__name__}")
        text = ""
    calls = [tool_calls] if isinstance(tool_calls, Mapping) else tool_calls or []
    if not isinstance(calls, (list, tuple)):
        out.error("tool", 0, f"tool_calls must be a list, got {type(calls).__name__}")
        calls = []
    for i, call in enumerate(calls):
        _read_tool_call(call, i, out)
    if not open_tag or not close_tag:
        out.error("block", 0, "open and close tags must not be empty")
        return out.finish(text)
    segments, blocks = _split_blocks(text, _tag_pattern(open_tag, close_tag), out)
    for i, content in enumerate(blocks):
        _read_block(content, i, out)
    return out.finish(_stitch(segments))
