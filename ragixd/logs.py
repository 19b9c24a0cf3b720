"""structlog set-up: key-value events, JSON when stdout is not a terminal."""

from __future__ import annotations

import logging
import sys
from collections.abc import Callable
from typing import Any

import structlog

_LEVELS = {"debug": logging.DEBUG, "info": logging.INFO, "warning": logging.WARNING, "error": logging.ERROR}


def configure(level: str = "info", json: bool | None = None) -> None:
    if json is None:
        json = not sys.stderr.isatty()
    renderer = structlog.processors.JSONRenderer() if json else structlog.dev.ConsoleRenderer(colors=False)
    structlog.configure(
        processors=[
            structlog.contextvars.merge_contextvars,
            structlog.processors.add_log_level,
            structlog.processors.TimeStamper(fmt="iso", utc=True),
            structlog.processors.format_exc_info,
            renderer,
        ],
        wrapper_class=structlog.make_filtering_bound_logger(_LEVELS.get(level, logging.INFO)),
        logger_factory=structlog.PrintLoggerFactory(file=sys.stderr),
        cache_logger_on_first_use=False,
    )


def call_safely(logger: Any, event: str, fn: Callable[..., Any], *args: Any) -> None:
    """Run a callback of a worker thread; a bug in it is logged as `event`, never fatal."""
    try:
        fn(*args)
    except Exception:
        logger.exception(event)


def get(name: str = "ragixd"):
    # Used as a library (tests, benchmarks), ragixd must never write logs to stdout.
    if not structlog.is_configured():
        configure("warning")
    return structlog.get_logger(name)
