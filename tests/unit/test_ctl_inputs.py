"""What ragixctl reads from standard input: said when it waits on a terminal, exact otherwise."""

import io
import sys

import pytest

from ragix_client import inputs
from ragixd.errors import InvalidInput


class Stdin:
    def __init__(self, data: bytes, tty: bool) -> None:
        self.buffer, self.tty = io.BytesIO(data), tty

    def isatty(self) -> bool:
        return self.tty


def test_reading_a_terminal_says_how_to_end_and_a_pipe_is_read_silently(monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdin", Stdin("café\n".encode(), tty=True))
    assert inputs.read_stdin() == "café\n"
    assert "Ctrl-D" in capsys.readouterr().err
    monkeypatch.setattr(sys, "stdin", Stdin(b"piped", tty=False))
    assert inputs.read_stdin() == "piped"
    assert capsys.readouterr().err == ""


def test_a_named_file_is_read_exactly_or_refused_naming_the_byte(tmp_path):
    good, bad = tmp_path / "good.txt", tmp_path / "bad.txt"
    good.write_bytes("naïve\r\n".encode())
    bad.write_bytes(b"caf\xe9")
    assert inputs.read_file(str(good)) == "naïve\r\n"
    with pytest.raises(InvalidInput, match="0xe9 at offset 3"):
        inputs.read_file(str(bad))
    with pytest.raises(InvalidInput, match="cannot read"):
        inputs.read_file(str(tmp_path / "missing.txt"))
