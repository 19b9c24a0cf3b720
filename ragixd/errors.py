"""The one exception tree of ragix and its stable wire codes.

Every error a caller can see is a RagixError subclass with a `code` that never changes once
published: the server sends the code, the client raises the same class again. Driver errors
(apsw, zmq, ollama) are wrapped at the boundary, never leaked.
"""

from __future__ import annotations

import re
from typing import Any


# A date, or a date and time (`2026-13-01`, `2026-01-01T25:00Z`): worth seeing whole. Not any
# run of digits and separators, which a card or phone number also is.
_TIME_LIKE = re.compile(r"\d{4}-\d{1,2}(?:-\d{1,2}(?:[T ][0-9:.,]{0,18}(?:Z|[+-][0-9:]{1,6})?)?)?")


def shown(value: object) -> str:
    """A value as an error message may name it: quoted when short and without digits (a typo
    worth seeing, `'ltmm'`) or shaped like a time, else only its length. The caller's input
    may be a key pasted into the wrong field, and error text is printed and kept in logs."""
    if isinstance(value, str) and ((len(value) <= 24 and not any(ch.isdigit() for ch in value))
                                   or _TIME_LIKE.fullmatch(value)):
        return repr(value)
    if isinstance(value, str):
        return f"a value of {len(value)} characters"
    return f"a {type(value).__name__}"


class RagixError(Exception):
    """Root of every ragix error."""

    code = "internal"

    def __init__(self, message: str, **details: Any) -> None:
        super().__init__(message)
        self.message = message
        self.details = details

    def to_wire(self) -> dict[str, Any]:
        return {"code": self.code, "message": self.message, "details": self.details}


class InvalidInput(RagixError):
    """A request or command field is missing, of the wrong type or out of range."""

    code = "invalid_input"

    def __init__(self, field: str, message: str, **details: Any) -> None:
        super().__init__(f"{field}: {message}", field=field, **details)
        self.field = field


class NotFound(RagixError):
    """The item (or other object) named does not exist, or the caller may not see it."""

    code = "not_found"


class Conflict(RagixError):
    """The command contradicts the current state (e.g. updating an archived item)."""

    code = "conflict"


class PolicyRejected(RagixError):
    """The write policy refused the content; nothing was stored."""

    code = "policy_rejected"


class Forbidden(RagixError):
    """The caller's trust level does not allow this operation or store."""

    code = "forbidden"


class StoreError(RagixError):
    """The storage layer failed (disk, SQLite); the write was not acknowledged."""

    code = "store_error"


class IntegrityError(RagixError):
    """The event log's hash chain or a projection does not match what the log implies."""

    code = "integrity_error"


class ProtocolError(RagixError):
    """A frame could not be decoded or does not follow the request envelope."""

    code = "protocol_error"


class UnknownOp(RagixError):
    """The request names an op the daemon does not have."""

    code = "unknown_op"


class TooLarge(RagixError):
    """A message is over the configured size cap."""

    code = "too_large"


class Timeout(RagixError):
    """The operation did not finish in time (e.g. min_seq was not reached)."""

    code = "timeout"


class Unavailable(RagixError):
    """A dependency (daemon, model server) cannot be reached."""

    code = "unavailable"


class ConfigError(RagixError):
    """Configuration is missing or invalid."""

    code = "config_error"


class Busy(RagixError):
    """The daemon is shutting down or its queue is full; retry later."""

    code = "busy"


def all_error_classes() -> list[type[RagixError]]:
    """Every concrete error class, for the client's code → class table."""
    seen: list[type[RagixError]] = []
    stack: list[type[RagixError]] = [RagixError]
    while stack:
        cls = stack.pop()
        seen.append(cls)
        stack.extend(cls.__subclasses__())
    return seen


def error_for_code(code: str) -> type[RagixError]:
    for cls in all_error_classes():
        if cls.code == code:
            return cls
    return RagixError


def from_wire(data: dict[str, Any]) -> RagixError:
    """Rebuild the exception a server sent as {code, message, details}."""
    cls = error_for_code(str(data.get("code", "internal")))
    details = data.get("details") or {}
    err = cls.__new__(cls)
    RagixError.__init__(err, str(data.get("message", "")), **details)
    if isinstance(err, InvalidInput):
        err.field = details.get("field", "")
    return err
