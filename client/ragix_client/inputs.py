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


# The most standard input ragixctl reads for one command (import excepted: an export of a large
# home is read whole): far above any request the daemon takes, so that an endless stream
# (`yes | ragixctl write --content -`, `< /dev/zero`) ends with an error, not with the memory full.
STDIN_LIMIT = 64 * 1024 * 1024


def read_stdin(limit: int | None = STDIN_LIMIT) -> str:
    if sys.stdin is None:  # started with standard input closed (`<&-`)
        raise InvalidInput("stdin", "standard input is closed: give the text on a pipe or from a file "
                           "(< FILE), or as an option where there is one (--content, --file)")
    if sys.stdin.isatty():  # typed by hand, or forgotten: say what is awaited rather than hang
        print("ragixctl: reading standard input; end it with Ctrl-D", file=sys.stderr)
    data = sys.stdin.buffer.read() if limit is None else sys.stdin.buffer.read(limit + 1)
    if limit is not None and len(data) > limit:
        raise InvalidInput("stdin", f"is over {limit // (1024 * 1024)} MiB, more than any request takes: "
                           "is it an endless stream? (import reads any size)")
    return _decode(data, "stdin")


def read_file(path: str) -> str:
    """A file's text, never with its letters replaced: the daemon would store what it was sent."""
    try:
        data = Path(path).expanduser().read_bytes()
    except OSError as e:
        raise InvalidInput("file", f"cannot read {path}: {e.strerror}") from None
    return _decode(data, f"file {path}")
