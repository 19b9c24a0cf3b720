"""Human-readable output for ragixctl: one small function per kind of answer."""

from __future__ import annotations

import json
import re
from typing import Any, Callable

# What a terminal would obey rather than show: C0 controls but line feed and tab (ESC starts the
# sequences that move the cursor, erase lines, set the title or the clipboard; a carriage return
# writes over its line), DEL, C1 controls (U+009B is an 8-bit ESC [) and the bidi controls that
# reorder a line. Stored text may hold them (the policy reads through them).
_TERMINAL_CONTROLS = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def _flat(text: str) -> str:
    """A stored text inside a one-line row (search, history, timeline): a line break written
    `\\n`, so that each row stays one line for the eye and for line-oriented tools."""
    return text.replace("\r\n", "\n").replace("\n", "\\n")


def _line(*parts: Any) -> str:
    return "  ".join(str(p) for p in parts if p not in (None, ""))


def item_block(item: dict[str, Any]) -> str:
    tags = ",".join(item.get("tags", []))
    head = _line(item["id"], f"[{item['tier']}/{item['type']}]", f"store={item['store']}",
                 f"tags={tags}" if tags else "", "(archived)" if item.get("archived") else "")
    lines = [head, "  title:   " + item["title"].replace("\n", "\n           ")]
    if item.get("content"):
        lines.append("  content: " + item["content"].replace("\n", "\n           "))
    if item.get("entities"):
        lines.append("  entities: " + ", ".join(item["entities"]))
    prov = item.get("provenance") or {}
    if prov.get("source_id"):
        lines.append(f"  source:  {prov.get('source_kind')}:{prov['source_id']}")
    lines.append(f"  created: {item['created_at']}  updated: {item['updated_at']}  "
                 f"used: {item['usage_count']}  mentions: {item['mention_count']}")
    return "\n".join(lines)


def render_items(result: dict[str, Any]) -> str:
    items = result.get("items", [])
    return "\n\n".join(item_block(i) for i in items) if items else "(no items)"


def render_search(result: dict[str, Any]) -> str:
    if not result["items"]:
        return "(no matches)"
    rows = [f"{hit['score']:>9.4f}  {hit['id']}  {_flat(hit['title'])}"
            + ("  (archived)" if hit.get("item", {}).get("archived") else "") for hit in result["items"]]
    return "\n".join(["    score  id                    title", *rows])


def render_history(result: dict[str, Any]) -> str:
    rows = []
    for rev in result["revisions"]:
        snap = rev["snapshot"]
        rows.append(f"#{rev['revision']:<3} seq {rev['seq']:<6} {rev['changed_at']}  {_flat(rev['reason']):<10} "
                    f"by {rev['actor']}: {_flat(snap['title'])}")
    return "\n".join(rows) or "(no revisions)"


def render_timeline(result: dict[str, Any], anchor: str = "") -> str:
    rows = []
    for item in result["items"]:
        mark = ">" if item["id"] == anchor else " "
        rows.append(f"{mark} {item['created_at']}  {item['id']}  {_flat(item['title'])}"
                    + ("  (archived)" if item.get("archived") else ""))
    return "\n".join(rows)


def render_kv(result: dict[str, Any], indent: str = "") -> str:
    rows = []
    for key, value in result.items():
        if isinstance(value, dict):
            rows.append(f"{indent}{key}:")
            rows.append(render_kv(value, indent + "  ") if value else f"{indent}  (none)")
        elif isinstance(value, bool):
            rows.append(f"{indent}{key}: {'yes' if value else 'no'}")
        else:
            rows.append(f"{indent}{key}: {value}")
    return "\n".join(rows)


def render_verify(result: dict[str, Any]) -> str:
    if result.get("ok"):
        return f"ok: hash chain verified over {result['events']} events; projections match a replay"
    if not result.get("chain_ok"):
        return (f"FAILED: the hash chain breaks at seq {result.get('broken_seq')}: "
                f"{result.get('reason')}")
    parts = []
    if not result.get("fts_ok", True):
        parts.append("the full-text index does not match the items")
    if result.get("mismatched_tables"):
        parts.append("projections differ from a replay: " + ", ".join(result["mismatched_tables"]))
    return "FAILED: " + "; ".join(parts) + " (run `ragixctl rebuild`)"


def render_entities(result: dict[str, Any]) -> str:
    rows = [f"{e['mention_count']:>5}  {e['name']}  ({e['store']}, {_count(len(e['item_ids']), 'item')})"
            for e in result["entities"]]
    return "\n".join(rows) or "(no entities)"


def _count(n: int, noun: str) -> str:
    return f"{n:,} {noun}{'' if n == 1 else 's'}"


def render_palace(result: dict[str, Any]) -> str:
    if "children" in result:
        plural = {"shelf": "shelves"}.get(result["level"], result["level"] + "s")
        if result["path"].count("/") == 3:  # a card's own path: the card, not what is under it
            head = f"card /{result['path']} ({_count(result['count'], 'item')})"
        else:
            head = f"{plural} under /{result['path']} ({_count(result['count'], 'item')})"
        return "\n".join([head, *(f"  {c['name']}  ({c['count']})" for c in result["children"])])
    loc = result.get("location")
    where = "/".join(loc[k] for k in ("domain", "room", "shelf", "card")) if loc else "(not placed)"
    return f"{where}\n{item_block(result['item'])}"


def render_event(event: dict[str, Any]) -> str:
    payload = event.get("payload", {})
    target = payload.get("id") or payload.get("item", {}).get("id") or payload.get("src") or ""
    return f"{event['seq']:>7}  {event['ts']}  {event['type']:<16} {target}  by {event['actor']}"


def for_terminal(text: str) -> str:
    """`text` with each terminal control written out as an escape (`\\x1b`, `\\u202e`)."""
    return _TERMINAL_CONTROLS.sub(_escape, text)


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


# What json.dumps leaves raw that a terminal would obey (it escapes C0 itself): DEL, C1 and the
# bidi controls, plus the line and paragraph separators. Written as \u escapes, the JSON is the
# same to any parser and harmless on a screen.
# Also lone surrogates: bytes that were not UTF-8 in an argument or a path, decoded as Python
# does (surrogateescape), would be written raw and make the output no longer UTF-8.
_JSON_RAW_CONTROLS = re.compile("[\x7f-\x9f\u202a-\u202e\u2066-\u2069\u2028\u2029\ud800-\udfff]")


def _json_escape(match: re.Match[str]) -> str:
    return f"\\u{ord(match.group()):04x}"


def as_json(result: Any) -> str:
    return _JSON_RAW_CONTROLS.sub(_json_escape, json.dumps(result, ensure_ascii=False, indent=2, default=_bytes_hex))


def as_json_line(result: Any) -> str:
    """Compact JSON on one line (newlines in strings stay escaped): one JSONL record."""
    return _JSON_RAW_CONTROLS.sub(_json_escape, json.dumps(result, ensure_ascii=False, separators=(",", ":"),
                                                           default=_bytes_hex))


def _bytes_hex(value: Any) -> Any:
    if isinstance(value, (bytes, bytearray)):
        return value.hex()
    raise TypeError(f"not JSON serialisable: {type(value).__name__}")


RENDERERS: dict[str, Callable[[dict[str, Any]], str]] = {
    "read": render_items,
    "search": render_search,
    "history": render_history,
    "verify": render_verify,
    "entities": render_entities,
    "palace": render_palace,
    "status": render_kv,
    "stats": render_kv,
}
