"""What ragixctl writes and how it exits: its standard streams made always writable (closed
ones, encodings that cannot hold a character, a reader that went away), a command's answer as
text or JSON, and an error as one line on stderr (and the documented JSON shape on stdout with
--json) with its exit code.

Exit codes: 0 success; 1 the daemon answered with an error (or verify found a problem);
2 bad usage or invalid input; 3 the daemon (or a model server a vector search needs) could not be
reached or timed out; 130 Ctrl-C.
"""

from __future__ import annotations

import argparse
import codecs
import os
import sys
from typing import Any

from ragixd.errors import ConfigError, InvalidInput, ProtocolError, RagixError, Timeout, TooLarge, Unavailable

from . import render

EXIT_OK, EXIT_FAILED, EXIT_USAGE, EXIT_UNAVAILABLE = 0, 1, 2, 3
EXIT_INTERRUPTED = 130  # 128 + SIGINT, as shells report a command stopped by Ctrl-C


def stdout_gone() -> None:
    """The reader of stdout went away: stdout is pointed at /dev/null, so that what is still
    printed, and the interpreter's final flush, raise nothing."""
    os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


def prepare_streams() -> None:
    """Standard streams ragixctl can always write to. Started with stdout or stderr closed
    (`>&-`, `2>&-`), Python sets it to None, and print(file=None) writes to stdout, so that
    stderr's lines would end up in the --json output. A closed one is /dev/null instead:
    output nobody reads, as into a closed pipe. A closed stdin stays None: reading it is said
    as a usage error (inputs.read_stdin)."""
    if sys.stdout is None:
        sys.stdout = open(os.devnull, "w")
    if sys.stderr is None:
        sys.stderr = open(os.devnull, "w")
    # A stdout whose encoding cannot hold every character (a latin-1 locale, PYTHONIOENCODING):
    # what it cannot hold is written as JSON's own escape (\u2603), so that --json output stays
    # valid JSON with the exact text and human output shows an escape, not a traceback.
    encoding = getattr(sys.stdout, "encoding", None) or "utf-8"
    if codecs.lookup(encoding).name != "utf-8" and hasattr(sys.stdout, "reconfigure"):
        codecs.register_error("ragixctl-json-escape", _json_escape_error)
        sys.stdout.reconfigure(errors="ragixctl-json-escape")


def _json_escape_error(err: UnicodeError) -> tuple[str, int]:
    """Characters an encoding cannot hold, as JSON \\u escapes (a surrogate pair past U+FFFF);
    in JSON output such a character can only be inside a string, where the escape means it."""
    if not isinstance(err, UnicodeEncodeError):
        raise err
    escaped = []
    for char in err.object[err.start:err.end]:
        code = ord(char)
        if code > 0xFFFF:
            code -= 0x10000
            escaped.append(f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}")
        else:
            escaped.append(f"\\u{code:04x}")
    return "".join(escaped), err.end


def out(ns: argparse.Namespace, result: Any, text: str | None) -> None:
    if text is None:  # the command wrote its own output to stdout (export): the summary goes aside
        print(render.as_json(result) if ns.json else render.render_kv(result), file=sys.stderr)
        return
    if not text and not ns.json:  # nothing to print (pipe with nothing recalled): not even a blank line
        return
    if not ns.json and sys.stdout.isatty():  # stored text is shown, never run by the terminal
        text = render.for_terminal(text)
    print(render.as_json(result) if ns.json else text)


def out_quietly(ns: argparse.Namespace, result: Any, text: str | None) -> None:
    """out, into a pipe that may be closed already (`| true`): read by nobody, the output is
    dropped quietly, but the exit code still says how the command went (it was 0 whatever
    happened, a failed verify or a missing id included)."""
    try:
        out(ns, result, text)
        sys.stdout.flush()
    except BrokenPipeError:
        stdout_gone()


def error(err: RagixError, as_json: bool = False) -> int:
    if as_json:  # a script reading --json output gets the failure in the same form
        try:
            print(render.as_json({"ok": False, "error": err.to_wire()}), flush=True)
        except BrokenPipeError:  # nobody reads stdout: the line below and the exit code still say it
            stdout_gone()
    print(f"ragixctl: {err.code}: {err.message}", file=sys.stderr)
    if isinstance(err, (Unavailable, Timeout)):
        return EXIT_UNAVAILABLE
    if isinstance(err, (InvalidInput, ProtocolError, ConfigError, TooLarge)):
        return EXIT_USAGE
    return EXIT_FAILED
