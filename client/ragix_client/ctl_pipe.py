"""ragixctl pipe and pull: the Unix-composable loop of seed 002,
`ragixctl pipe "topic" | ollama run model | ragixctl pull --title "Topic summary"`.

pipe optionally ingests files as document chunks, then prints the memory for the topic as
inject blocks within a token budget. pull stores what arrives on standard input.
"""

from __future__ import annotations

import hashlib
import math
import os
import re
from pathlib import Path
from typing import Any, Callable, Iterator

from ragixd.errors import InvalidInput, RagixError

from .client import Client

CHUNK_CHARS = 2800
MAX_FILE_BYTES = 20 * 1024 * 1024


def chunks(text: str, size: int = CHUNK_CHARS) -> Iterator[str]:
    """Paragraph-aligned pieces of at most `size` characters; a longer paragraph is cut
    before the limit where no word, key or name/value pair is split across two chunks (see
    _break_before; cut hard only with no such place in its last half)."""
    current = ""
    for para in text.replace("\r\n", "\n").split("\n\n"):
        para = para.strip()
        while len(para) > size:
            if current:
                yield current
                current = ""
            cut = _break_before(para, size)
            yield para[:cut].rstrip()
            para = para[cut:].lstrip()
        if not para:
            continue
        if current and len(current) + 2 + len(para) > size:
            yield current
            current = ""
        current = f"{current}\n\n{para}" if current else para
    if current:
        yield current


# Characters a token (a key, a password, a word) is made of: never cut between two of them
# when there is another place to cut.
_TOKEN_CHARS = frozenset("_-+/=.%~")


def _break_before(text: str, size: int) -> int:
    """Where to cut `text` (longer than `size`), so that no key, password or name/value pair
    is split into halves the policy would each let through. In the last half of the limit,
    in this order: after the last line break (a config line stays whole); after the last
    space within the last quarter that ends a sentence, else that does not follow a name's
    ':' or '=' (`password:` and its value stay together); after the last ',' or ';' (between
    a minified file's pairs),
    or ')', ']', '}' or '>'; before the token the limit falls in. At the limit only with none."""
    low = size // 2
    at = text.rfind("\n", low, size)
    if at != -1:
        return at + 1
    for ends in (".!?", None):  # a sentence's end first: "my password is …" stays whole
        for at in range(size, size * 3 // 4, -1):
            if text[at - 1].isspace():
                before = at - 1
                while before > 0 and text[before - 1].isspace():
                    before -= 1
                last = text[before - 1:before]
                if last not in (":", "=") and (ends is None or (last and last in ends)):
                    return at
    for separators in (",;", ")]}>"):
        at = max(text.rfind(ch, low, size) for ch in separators)
        if at != -1:
            return at + 1
    start = size
    while start > low and (text[start - 1].isalnum() or text[start - 1] in _TOKEN_CHARS):
        start -= 1
    return start if start > low else size


def source_files(sources: list[str], skipped: list[dict[str, Any]]) -> list[Path]:
    """The files to ingest, as absolute paths: each file named, and the files under each
    directory named, in name order; a source that does not exist is noted in `skipped`. Under
    a directory, hidden files and directories (a name starting with '.', such as .git) and
    editors' backup copies are left out, and symbolic links are not followed (a link to a directory would be skipped silently
    by the walk, a link to a file would store the same text again under another name): those
    links are noted in `skipped`."""
    out: list[Path] = []
    for source in sources:
        path = absolute(source)
        if path.is_dir():
            for found in sorted(path.rglob("*")):
                inside = found.relative_to(path).parts
                if any(part.startswith(".") for part in inside) or _editor_backup(found.name):
                    continue
                if found.is_symlink():
                    skipped.append(_note(found, "symbolic link under a directory: not followed "
                                                "(name its target to ingest it)"))
                elif found.is_file():
                    out.append(found)
                elif not found.is_dir():
                    skipped.append(_note(found, _NOT_REGULAR))
        elif path.is_file():
            out.append(path)
        elif path.exists():
            skipped.append(_note(path, _NOT_REGULAR))
        else:  # skipped and named like an unreadable file: the other sources are still ingested
            skipped.append(_note(path, f"no such file or directory: {source}"))
    return out


def _editor_backup(name: str) -> bool:
    """An editor's backup or autosave copy ("notes.md~", "#notes.md#"): left out of a directory
    walk as hidden files are, or recall would serve a file's old text beside its new one."""
    return name.endswith("~") or (len(name) > 2 and name.startswith("#") and name.endswith("#"))


_NOT_REGULAR = "not a regular file (a pipe, socket or device): not read"


def absolute(name: str) -> Path:
    """`name` as the absolute path its chunks are recorded under: '~' expanded and '.' and '..'
    taken out (not links resolved), so that one file named from two directories is one source."""
    return Path(os.path.abspath(os.path.expanduser(name)))


def _note(path: Path, message: str, chunk: int | None = None, code: str = "invalid_input") -> dict[str, Any]:
    return {"file": str(path), "chunk": chunk, "code": code, "message": message}


def read_text_file(path: Path) -> str:
    """The file's text, or InvalidInput saying why it is not ingested: unreadable, larger than
    MAX_FILE_BYTES, binary (NUL bytes), or not UTF-8 (it would be stored with its letters lost)."""
    try:
        size = path.stat().st_size
        if size > MAX_FILE_BYTES:
            raise InvalidInput("source", f"{path} is {size / 2**20:.1f} MiB, over the "
                                         f"{MAX_FILE_BYTES // 2**20} MiB a file may have: not ingested "
                                         "(split it)")
        data = path.read_bytes()
    except OSError as e:
        raise InvalidInput("source", f"cannot read {path}: {e.strerror}") from None
    if b"\x00" in data[:8192]:
        raise InvalidInput("source", f"{path} looks binary (it holds NUL bytes): not ingested")
    try:
        return data.decode("utf-8-sig")  # a byte-order mark some editors write is not text
    except UnicodeDecodeError as e:
        raise InvalidInput("source", f"{path} is not UTF-8 text (byte {e.start}): not ingested "
                                     "(convert it, e.g. iconv -f latin1 -t utf-8)") from None


def ingest_file(client: Client, path: Path, tags: list[str], skipped: list[dict[str, Any]],
                retired: list[dict[str, Any]], progress: Callable[[str], None] | None = None) -> list[dict[str, Any]]:
    """Write the file's chunks; a file that cannot be read or is not UTF-8 text, and a chunk
    the daemon refuses (a secret, an injection), are noted in `skipped` and the rest goes on.
    Then the file's earlier chunks that this ingest did not write again are archived (the
    answer, with their ids, added to `retired`)."""
    try:
        str(path).encode("utf-8")
    except UnicodeEncodeError:  # its chunks' provenance names the file: it could not be sent
        shown = os.fsencode(path).decode("utf-8", "backslashreplace")
        skipped.append(_note(Path(shown), f"the file name {shown} is not UTF-8: not ingested (rename it)"))
        return []
    try:
        text = read_text_file(path)
    except InvalidInput as err:
        skipped.append(_note(path, err.message))
        return []
    digest = "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()
    results = []
    parts = list(chunks(text))
    if not parts:
        skipped.append(_note(path, f"{path} holds no text: nothing ingested"))
    for n, part in enumerate(parts, start=1):
        # Not "(n/N)": a chunk left as it was keeps its title when the file grows or shrinks
        # elsewhere, so it is found again (a duplicate) instead of stored anew.
        title = path.name if n == 1 else f"{path.name} (part {n})"
        if progress is not None:
            progress(f"{path.name}: chunk {n:,}/{len(parts):,}")
        try:
            results.append(client.write(
                title=title[:200], content=part, type="fact", tags=tags,
                provenance={"source_kind": "doc", "source_id": f"{path}:{n}", "chunk_ids": [f"chunk_{n}"],
                            "content_hashes": [digest]}))
        except RagixError as err:
            if err.code in ("unavailable", "timeout"):
                raise  # the daemon is gone: nothing else can be ingested either
            skipped.append(_note(path, err.message, n, err.code))
    # What the file held before and no longer holds (an edited chunk's old text, the chunks
    # past its new end) is archived, so that recall does not serve both versions.
    retired.append(client.source_retire(source=str(path), keep=sorted({r["id"] for r in results})))
    return results


def pipe(client: Client, query: str, sources: list[str], budget: int, tags: list[str], k: int,
         progress: Callable[[str], None] | None = None) -> dict[str, Any]:
    """`progress`, if given, is told where the ingest is (a file of many chunks takes a while)."""
    skipped: list[dict[str, Any]] = []
    retired: list[dict[str, Any]] = []
    files = source_files(sources, skipped)
    written = []
    for i, path in enumerate(files, start=1):
        told = None if progress is None else (lambda line, i=i: progress(f"pipe: file {i:,}/{len(files):,}, {line}"))
        written += ingest_file(client, path, tags, skipped, retired, told)
    min_seq = max((r["seq"] for r in [*written, *retired]), default=0)
    result = client.recall(query=query, budget=budget, mode="inject", k=k, min_seq=min_seq)
    result["ingested"] = len(written)
    result["retired"] = sum(len(r["archived"]) for r in retired)
    result["skipped"] = skipped
    return result


# recall's largest --budget (schemas/ops/recall.json): asked for to measure what would fit.
MAX_BUDGET = 200_000


def budget_hint(client: Client, args: dict[str, Any]) -> str:
    """Why recall injected nothing: no item matched, every matching item is withheld, or every
    matching item's block is larger than the budget (then the smallest block's size, a budget
    that would show it)."""
    full = client.recall(**{**args, "mode": "inject", "budget": MAX_BUDGET})
    blocks = re.split(r"(?<=\[/MEMORY\])\n(?=\[MEMORY: )", full.get("text") or "")
    sizes = [math.ceil(len(block) / 4) for block in blocks if block]  # the README's tokens = ceil(chars/4)
    if not sizes and full.get("withheld"):  # they matched: the write policy now refuses their text
        return (f"nothing to recall: the {len(full['withheld'])} matching item(s) are withheld, "
                "the write policy now refusing their text")
    if not sizes:
        return "nothing to recall: no item matches"
    return (f"nothing fits the budget of {args['budget']} tokens: {len(sizes)} matching item(s), the "
            f"smallest block is {min(sizes)} tokens; try --budget {min(sizes)}")


def retire(client: Client, files: list[str]) -> list[str]:
    """Archive every live chunk ingested from `files` (named as pipe --source names them: the
    absolute path; the files need not exist any more); the ids archived."""
    archived: list[str] = []
    for name in files:
        source = str(absolute(name))
        archived += client.source_retire(source=source, keep=[])["archived"]
    return archived


def pull(client: Client, text: str, title: str | None, tags: list[str], type_: str | None) -> list[dict[str, Any]]:
    text = text.strip()
    if not text:
        raise InvalidInput("stdin", "nothing to store: standard input was empty")
    base = (title or text.splitlines()[0]).strip()[:180]
    parts = list(chunks(text))
    out = []
    for n, part in enumerate(parts, start=1):
        name = base + (f" ({n}/{len(parts)})" if len(parts) > 1 else "")
        fields: dict[str, Any] = {"title": name, "content": part, "tags": tags,
                                  "provenance": {"source_kind": "tool", "source_id": "ragixctl pull"}}
        if type_:
            fields["type"] = type_
        out.append(client.write(**fields))
    return out


