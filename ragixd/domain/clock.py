"""Timestamps: ISO-8601 UTC with microseconds and a trailing Z, so they sort as text."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone


def format_ts(dt: datetime) -> str:
    # isoformat of a UTC time ends in '+00:00'; it is several times cheaper than strftime.
    return dt.astimezone(timezone.utc).replace(tzinfo=None).isoformat(timespec="microseconds") + "Z"


def now_ts() -> str:
    return datetime.now(timezone.utc).replace(tzinfo=None).isoformat(timespec="microseconds") + "Z"


def parse_ts(value: str) -> datetime:
    """Parse any ISO-8601 form; naive values are taken as UTC."""
    try:
        dt = datetime.fromisoformat(value)  # Python 3.11 reads a trailing Z itself
    except ValueError:
        dt = datetime.fromisoformat(value.strip())
    if dt.tzinfo is None:
        dt = dt.replace(tzinfo=timezone.utc)
    return dt


def normalize_ts(value: str) -> str:
    """`value` in the stored form; ValueError for one that is not a time, or is out of range
    once in UTC (9999-12-31T23:00-05:00 would overflow the year)."""
    try:
        return format_ts(parse_ts(value))
    except OverflowError:
        raise ValueError(f"time out of range: {value!r}") from None


def add_hours(ts: str, hours: float) -> str:
    return format_ts(parse_ts(ts) + timedelta(hours=hours))
