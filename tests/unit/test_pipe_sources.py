"""Which files `ragixctl pipe --source` ingests, and why it leaves the others (each noted)."""

import os

import pytest

from ragix_client import ctl_pipe
from ragixd.errors import InvalidInput


@pytest.fixture
def tree(tmp_path):
    docs = tmp_path / "docs"
    (docs / "sub").mkdir(parents=True)
    (docs / ".git").mkdir()
    (docs / ".hidden").mkdir()
    (docs / "a.md").write_text("alpha")
    (docs / "sub" / "b.md").write_text("beta")
    (docs / ".git" / "HEAD").write_text("ref: refs/heads/main")
    (docs / ".hidden" / "inner.md").write_text("hidden")
    (docs / ".env").write_text("X=1")
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "c.md").write_text("gamma")
    os.symlink(outside, docs / "linked-dir")
    os.symlink(docs / "a.md", docs / "link-to-a.md")
    return docs


def test_a_directory_walk_leaves_hidden_paths_out_and_notes_links(tree, monkeypatch):
    monkeypatch.chdir(tree.parent)
    skipped = []
    files = ctl_pipe.source_files(["docs"], skipped)
    assert files == [tree / "a.md", tree / "sub" / "b.md"]
    assert all(f.is_absolute() for f in files)  # provenance does not depend on the working dir
    noted = sorted(os.path.basename(s["file"]) for s in skipped)
    assert noted == ["link-to-a.md", "linked-dir"]
    assert all("symbolic link" in s["message"] for s in skipped)


def test_a_file_named_is_taken_even_through_a_link(tree):
    skipped = []
    assert ctl_pipe.source_files([str(tree / "link-to-a.md")], skipped) == [tree / "link-to-a.md"]
    assert skipped == []
    # A source that does not exist is noted and skipped, like an unreadable file; the rest is taken.
    assert ctl_pipe.source_files([str(tree / "missing.md"), str(tree / "link-to-a.md")], skipped) == \
        [tree / "link-to-a.md"]
    assert [(os.path.basename(s["file"]), "no such file" in s["message"]) for s in skipped] == [("missing.md", True)]


def test_files_that_are_not_utf8_text_or_too_large_are_refused_with_the_reason(tmp_path, monkeypatch):
    latin = tmp_path / "latin.txt"
    latin.write_bytes("café crème".encode("latin-1"))
    with pytest.raises(InvalidInput, match="not UTF-8"):
        ctl_pipe.read_text_file(latin)
    binary = tmp_path / "blob.bin"
    binary.write_bytes(b"ab\x00cd")
    with pytest.raises(InvalidInput, match="binary"):
        ctl_pipe.read_text_file(binary)
    big = tmp_path / "big.txt"
    big.write_text("x" * 2048)
    monkeypatch.setattr(ctl_pipe, "MAX_FILE_BYTES", 1024)
    with pytest.raises(InvalidInput, match="a file may have"):
        ctl_pipe.read_text_file(big)
    good = tmp_path / "good.md"
    good.write_text("naïve café", encoding="utf-8")
    assert ctl_pipe.read_text_file(good) == "naïve café"


def test_long_paragraphs_are_cut_between_words_never_inside_one():
    words = [f"w{n:04d}" for n in range(2000)]  # one paragraph of ~12,000 characters
    text = " ".join(words)
    parts = list(ctl_pipe.chunks(text, size=1000))
    assert all(len(p) <= 1000 for p in parts)
    assert " ".join(parts).split() == words  # every word whole, in order, none lost
    key = "AKIA" + "Q" * 16
    near_edge = "x" * 990 + " " + key + " tail"
    first, second = list(ctl_pipe.chunks(near_edge, size=1000))
    assert key in second and key not in first
    solid = "y" * 2500  # no break at all: cut at the limit
    assert [len(p) for p in ctl_pipe.chunks(solid, size=1000)] == [1000, 1000, 500]


def _whole(key: str, parts: list[str]) -> bool:
    return any(key in p for p in parts) and not any(key[:6] in p and key not in p for p in parts)


@pytest.mark.parametrize("offset", range(0, 40, 3))
def test_a_key_near_the_cut_stays_whole_in_minified_json_config_lines_and_prose(offset):
    key = "AKIA" + "QZ7X" * 4
    pairs = ",".join(f'"k{n}":"value{n}"' for n in range(120))
    minified = "{" + pairs[:960 + offset] + f'","aws_access_key_id":"{key}","region":"eu-west-1"' + "}"
    parts = list(ctl_pipe.chunks(minified, size=1000))
    assert len(parts) > 1 and _whole(key, parts) and all(len(p) <= 1000 for p in parts)
    # a config file with single line breaks: a name and its value are not parted
    lines = "\n".join(f"option_{n}: value number {n}" for n in range(60))
    config = lines[:970 + offset] + f"\ndb_password: {key}\nport: 5432"
    parts = list(ctl_pipe.chunks(config, size=1000))
    assert any(f"db_password: {key}" in p for p in parts)
    # prose: the sentence holding the password stays whole
    prose = ("The weekly deploy went fine and nobody was paged. " * 20)[:950 + offset]
    prose += f" For the record my password is {key} until Friday. Then it rotates."
    parts = list(ctl_pipe.chunks(prose, size=1000))
    assert any(f"my password is {key}" in p for p in parts)
