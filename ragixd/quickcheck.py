"""A fast, conservative check of an instance against a JSON Schema, for the request path.

`compile_schema(schema)` turns a schema into a predicate that returns True only when the
instance is certainly valid under Draft 2020-12. It knows the keywords the request schemas
use (type, properties, required, additionalProperties, items, anyOf, enum, const, minimum, maximum,
minLength, maxLength, pattern, minItems, maxItems, minProperties, maxProperties, propertyNames) and answers
False for anything it does not know, or is not sure of (a float where an integer is asked,
a number that is not finite): the caller then asks the full validator, which also words the
error. Valid requests, nearly all of them, skip the full validator (~0.15 ms each).
"""

from __future__ import annotations

import math
import re
from typing import Any, Callable

Check = Callable[[Any], bool]

_KNOWN = {"type", "properties", "required", "additionalProperties", "items", "anyOf", "enum", "const",
          "minimum", "maximum", "minLength", "maxLength", "pattern", "minItems", "maxItems",
          "minProperties", "maxProperties", "propertyNames",
          # annotations, no effect on validity
          "description", "title", "$schema", "$id", "$comment", "examples", "default"}


def _never(_instance: Any) -> bool:
    return False


def _is_type(name: str) -> Check:
    if name == "string":
        return lambda v: type(v) is str
    if name == "integer":  # whole-number types only, as the full check (contract.StrictValidator)
        return lambda v: type(v) is int
    if name == "number":
        return lambda v: type(v) is int or (type(v) is float and math.isfinite(v))
    if name == "boolean":
        return lambda v: type(v) is bool
    if name == "null":
        return lambda v: v is None
    if name == "array":
        return lambda v: type(v) is list
    if name == "object":
        return lambda v: type(v) is dict
    return _never


def compile_schema(schema: Any) -> Check:
    """A predicate that is True only for instances certainly valid under `schema`."""
    if schema is True or schema == {}:
        return lambda _v: True
    if not isinstance(schema, dict) or not set(schema) <= _KNOWN:
        return _never
    checks: list[Check] = []
    kind = schema.get("type")
    if kind is not None:
        names = [kind] if isinstance(kind, str) else list(kind)
        tests = [_is_type(n) for n in names]
        checks.append(lambda v, tests=tests: any(t(v) for t in tests))
    for members in (schema["enum"] if "enum" in schema else None,
                    [schema["const"]] if "const" in schema else None):
        if members is not None:
            # Same type and equal value (True is not 1 here; the full check may still accept).
            allowed = [(type(e), e) for e in members if isinstance(e, (str, int, float, bool)) or e is None]
            checks.append(lambda v, allowed=allowed: any(type(v) is t and v == e for t, e in allowed))
    checks += _number_checks(schema) + _string_checks(schema) + _array_checks(schema) + _object_checks(schema)
    if "anyOf" in schema:
        options = [compile_schema(s) for s in schema["anyOf"]]
        checks.append(lambda v, options=options: any(o(v) for o in options))
    return lambda v, checks=tuple(checks): all(c(v) for c in checks)


def _number_checks(schema: dict[str, Any]) -> list[Check]:
    out: list[Check] = []
    numeric = (int, float)
    if "minimum" in schema:
        low = schema["minimum"]
        out.append(lambda v, low=low: not isinstance(v, numeric) or type(v) is bool
                   or (math.isfinite(v) and v >= low))
    if "maximum" in schema:
        high = schema["maximum"]
        out.append(lambda v, high=high: not isinstance(v, numeric) or type(v) is bool
                   or (math.isfinite(v) and v <= high))
    return out


def _size_checks(schema: dict[str, Any], kind: type, low: str, high: str) -> list[Check]:
    """minLength / maxLength and their like: bounds on len() of values of one kind."""
    out: list[Check] = []
    if low in schema:
        n = schema[low]
        out.append(lambda v, n=n: type(v) is not kind or len(v) >= n)
    if high in schema:
        n = schema[high]
        out.append(lambda v, n=n: type(v) is not kind or len(v) <= n)
    return out


def python_pattern(pattern: str) -> str:
    """A schema pattern as Python reads it with JSON Schema's meaning: a final `$` (ECMA-262,
    no multiline flag) matches only at the end, where Python's also matches before a final
    newline ("MEM-abcd\\n" would pass for an id)."""
    if pattern.endswith("$") and not pattern.endswith("\\$"):
        return pattern[:-1] + "\\Z"
    return pattern


def _string_checks(schema: dict[str, Any]) -> list[Check]:
    out = _size_checks(schema, str, "minLength", "maxLength")
    if "pattern" in schema:
        try:
            search = re.compile(python_pattern(schema["pattern"])).search
        except re.error:
            return [_never]
        out.append(lambda v, search=search: type(v) is not str or search(v) is not None)
    return out


def _array_checks(schema: dict[str, Any]) -> list[Check]:
    out: list[Check] = []
    if "items" in schema:
        item = compile_schema(schema["items"])
        out.append(lambda v, item=item: type(v) is not list or all(item(x) for x in v))
    return out + _size_checks(schema, list, "minItems", "maxItems")


def _object_checks(schema: dict[str, Any]) -> list[Check]:
    out: list[Check] = []
    props = {name: compile_schema(s) for name, s in (schema.get("properties") or {}).items()}
    extra = schema.get("additionalProperties", True)
    extra_check = None if extra is True else compile_schema(extra)
    required = tuple(schema.get("required") or ())

    def check_object(v: Any) -> bool:
        if type(v) is not dict:
            return True
        for name in required:
            if name not in v:
                return False
        for name, value in v.items():
            prop = props.get(name)
            if prop is not None:
                if not prop(value):
                    return False
            elif extra_check is not None and not extra_check(value):
                return False
        return True

    if props or required or extra_check is not None:
        out.append(check_object)
    if "propertyNames" in schema:
        name_check = compile_schema(schema["propertyNames"])
        out.append(lambda v, name_check=name_check: type(v) is not dict or all(name_check(k) for k in v))
    return out + _size_checks(schema, dict, "minProperties", "maxProperties")
