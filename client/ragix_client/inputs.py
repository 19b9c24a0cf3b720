"""Text that ragixctl reads from standard input or a named file: UTF-8, said clearly when it is not."""

from __future__ import annotations

import sys
from pathlib import Path

from ragixd.errors import InvalidInput


def _decode(data: bytes, where: str) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise InvalidInput(where, f"is not valid UTF-8 text (byte 0x{data[e.start]:02x} at offset {e.start}); "
                           "convert it first, e.g. with iconv -f latin1 -t utf-8") from None


def read_stdin() -> str:
    if sys.stdin is None:  # started with standard input closed (`<&-`)
        raise InvalidInput("stdin", "standard input is closed: give the text on a pipe or from a file "
                           "(< FILE), or as an option where there is one (--content, --file)")
    if sys.stdin.isatty():  # typed by hand, or forgotten: say what is awaited rather than hang
        print("ragixctl: reading standard input; end it with Ctrl-D", file=sys.stderr)
    return _decode(sys.stdin.buffer.read(), "stdin")


def read_file(path: str) -> str:
    """A file's text, never with its letters replaced: the daemon would store what it was sent."""
    try:
        data = Path(path).expanduser().read_bytes()
    except OSError as e:
        raise InvalidInput("file", f"cannot read {path}: {e.strerror}") from None
    return _decode(data, f"file {path}")
