"""Text that ragixctl reads from standard input: UTF-8, said clearly when it is not."""

from __future__ import annotations

import sys

from ragixd.errors import InvalidInput


def read_stdin() -> str:
    data = sys.stdin.buffer.read()
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise InvalidInput("stdin", f"is not valid UTF-8 text (byte 0x{data[e.start]:02x} at offset {e.start}); "
                           "convert it first, e.g. with iconv -f latin1 -t utf-8") from None
