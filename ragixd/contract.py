"""The JSON Schema contract in schemas/: loading it and validating events and messages.

The daemon validates every request against schemas/ops/; tests validate every event and
answer against schemas/events/ and schemas/ops/.
"""

from __future__ import annotations

import json
import re
from functools import lru_cache
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator, ValidationError, validators
from referencing import Registry, Resource

from .domain.ids import ITEM_ID_RE, not_an_item_id
from .errors import InvalidInput, shown
from .quickcheck import Check, compile_schema, python_pattern

SCHEMA_DIR = Path(__file__).resolve().parent.parent / "schemas"


@lru_cache(maxsize=1)
def registry() -> Registry:
    resources = []
    for path in sorted(SCHEMA_DIR.rglob("*.json")):
        doc = json.loads(path.read_text())
        uri = path.relative_to(SCHEMA_DIR).as_posix()
        resources.append((uri, Resource.from_contents(doc)))
    return Registry().with_resources(resources)


def _schema(name: str) -> dict[str, Any]:
    path, _, part = name.partition("#")
    doc = registry().get_or_retrieve(f"{path}.json").value.contents
    return {"$id": doc["$id"], **doc[part]} if part else doc


def _whole_number(_checker: Any, instance: Any) -> bool:
    return isinstance(instance, int) and not isinstance(instance, bool)


def _pattern(validator: Any, pattern: str, instance: Any, schema: Any) -> Any:
    """`pattern` with JSON Schema's `$` (the end of the string, not before a final newline),
    and an item id that is not one said as such, by every op alike."""
    if validator.is_type(instance, "string") and not re.search(python_pattern(pattern), instance):
        if pattern == ITEM_ID_PATTERN:
            yield ValidationError(not_an_item_id(instance))
        else:
            yield ValidationError(f"{shown(instance)} does not match {pattern!r}")


# schemas/'s item id pattern: ITEM_ID_RE with JSON Schema's `$` for Python's `\Z`
ITEM_ID_PATTERN = ITEM_ID_RE.pattern.removesuffix("\\Z") + "$"

# JSON Schema counts 5.0 as an integer; Python slices and SQLite row ids do not, and a request
# id of 1.0 could not be echoed as sent. The contract's integers are whole-number types only.
StrictValidator = validators.extend(
    Draft202012Validator, validators={"pattern": _pattern},
    type_checker=Draft202012Validator.TYPE_CHECKER.redefine("integer", _whole_number))


@lru_cache(maxsize=None)
def validator(name: str) -> Draft202012Validator:
    """A validator for schemas/<name>.json, or for one part of it with 'file#part'
    (e.g. 'events/item.created', 'ops/write#request', 'envelope#answer')."""
    return StrictValidator(_schema(name), registry=registry())


@lru_cache(maxsize=None)
def quick(name: str) -> Check:
    """The fast check of schema `name`: True only for certainly valid instances."""
    return compile_schema(_schema(name))


def schema_exists(name: str) -> bool:
    return (SCHEMA_DIR / f"{name.partition('#')[0]}.json").is_file()


def first_error(name: str, instance: Any) -> str | None:
    """The most relevant validation error message, or None when `instance` is valid."""
    try:
        if quick(name)(instance):
            return None
        errors = sorted(validator(name).iter_errors(instance), key=lambda e: (len(e.path), e.message))
    except RecursionError:
        return "(root): nested too deeply to be checked"
    if not errors:
        return None
    err = errors[0]
    where = "/".join(str(p) for p in err.absolute_path) or "(root)"
    return f"{where}: {_wording(err)}"


# Limits said by the limit: jsonschema's own message repeats the whole value (a list of 1,500
# ids, 20,000 characters of query) and the reason would be cut off with it.
_LIMITS = {"maxItems": ("at most", "item", "items"), "minItems": ("at least", "item", "items"),
           "maxLength": ("at most", "character", "characters"),
           "minLength": ("at least", "character", "characters"),
           "maxProperties": ("at most", "entry", "entries")}


def _wording(err: Any) -> str:
    limit = _LIMITS.get(err.validator)
    if limit is not None and isinstance(err.instance, (str, list, dict)):
        bound, one, many = limit
        n = err.validator_value
        return f"{bound} {n} {one if n == 1 else many}, not {len(err.instance)}"
    # jsonschema's own messages repeat the value given, which may be a key pasted into the
    # wrong field: the value is said as errors.shown says it (short and digit-free, or its size).
    if err.validator == "enum":
        return f"must be one of {', '.join(map(str, err.validator_value))}; got {_got(err.instance)}"
    if err.validator == "const":
        return f"must be {err.validator_value!r}; got {_got(err.instance)}"
    if err.validator == "type":
        want = err.validator_value
        return f"must be {' or '.join(want) if isinstance(want, list) else want}; got {_got(err.instance)}"
    if err.validator in ("anyOf", "oneOf"):
        return f"{_got(err.instance)} is not of any form this field takes"
    if err.validator in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"):
        bound = {"minimum": "at least", "maximum": "at most", "exclusiveMinimum": "more than",
                 "exclusiveMaximum": "less than"}[err.validator]
        return f"must be {bound} {err.validator_value}; got {_got(err.instance)}"
    if err.validator == "additionalProperties" and isinstance(err.instance, dict):
        known = err.schema.get("properties", {})
        extra = [_got(k) for k in err.instance if k not in known][:5]
        return f"unexpected {'field' if len(extra) == 1 else 'fields'} {', '.join(extra)}"
    return err.message


def _got(value: Any) -> str:
    """What a value given is called in a message (see errors.shown)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    if isinstance(value, (int, float)):
        return repr(value) if len(repr(value)) <= 24 else f"a number of {len(repr(value))} digits"
    if isinstance(value, (list, tuple)):
        return "an array"
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, (bytes, bytearray)):
        return "binary data"
    return shown(value)


def check(name: str, instance: Any) -> None:
    """Raise InvalidInput naming the field when `instance` does not match schema `name`."""
    message = first_error(name, instance)
    if message is not None:
        field, _, text = message.partition(": ")
        raise InvalidInput(field, text[:500])


def check_event(event: dict[str, Any]) -> None:
    check(f"events/{event['type']}", event)
