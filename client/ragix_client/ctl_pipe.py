"""ragixctl pipe and pull: the Unix-composable loop of seed 002,
`ragixctl pipe "topic" | ollama run model | ragixctl pull --title "Topic summary"`.

pipe optionally ingests files as document chunks, then prints the memory for the topic as
inject blocks within a token budget. pull stores what arrives on standard input.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any, Iterator

from ragixd.errors import InvalidInput, RagixError

from .client import Client

CHUNK_CHARS = 2800
MAX_FILE_BYTES = 20 * 1024 * 1024


def chunks(text: str, size: int = CHUNK_CHARS) -> Iterator[str]:
    """Paragraph-aligned pieces of at most `size` characters (long paragraphs are cut)."""
    current = ""
    for para in text.replace("\r\n", "\n").split("\n\n"):
        para = para.strip()
        while len(para) > size:
            if current:
                yield current
                current = ""
            yield para[:size]
            para = para[size:]
        if not para:
            continue
        if current and len(current) + 2 + len(para) > size:
            yield current
            current = ""
        current = f"{current}\n\n{para}" if current else para
    if current:
        yield current


def source_files(sources: list[str]) -> list[Path]:
    out: list[Path] = []
    for source in sources:
        path = Path(source).expanduser()
        if path.is_dir():
            out.extend(sorted(p for p in path.rglob("*") if p.is_file() and not p.name.startswith(".")))
        elif path.is_file():
            out.append(path)
        else:
            raise InvalidInput("source", f"no such file or directory: {source}")
    return out


def ingest_file(client: Client, path: Path, tags: list[str], skipped: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Write the file's chunks; a file that cannot be read or looks binary, and a chunk the
    daemon refuses (a secret, an injection), are noted in `skipped` and the rest goes on."""
    def skip(chunk: int | None, err: RagixError) -> None:
        skipped.append({"file": str(path), "chunk": chunk, "code": err.code, "message": err.message})

    try:
        data = path.read_bytes()[:MAX_FILE_BYTES]
    except OSError as e:
        skip(None, InvalidInput("source", f"cannot read {path}: {e.strerror}"))
        return []
    if b"\x00" in data[:8192]:
        skip(None, InvalidInput("source", f"{path} looks binary (it holds NUL bytes): not ingested"))
        return []
    text = data.decode("utf-8", errors="replace")
    digest = "sha256:" + hashlib.sha256(data).hexdigest()
    results = []
    parts = list(chunks(text))
    for n, part in enumerate(parts, start=1):
        title = f"{path.name}" + (f" ({n}/{len(parts)})" if len(parts) > 1 else "")
        try:
            results.append(client.write(
                title=title[:200], content=part, type="fact", tags=tags,
                provenance={"source_kind": "doc", "source_id": f"{path}:{n}", "chunk_ids": [f"chunk_{n}"],
                            "content_hashes": [digest]}))
        except RagixError as err:
            if err.code in ("unavailable", "timeout"):
                raise  # the daemon is gone: nothing else can be ingested either
            skip(n, err)
    return results


def pipe(client: Client, query: str, sources: list[str], budget: int, tags: list[str], k: int) -> dict[str, Any]:
    skipped: list[dict[str, Any]] = []
    written = [r for path in source_files(sources) for r in ingest_file(client, path, tags, skipped)]
    min_seq = max((r["seq"] for r in written), default=0)
    result = client.recall(query=query, budget=budget, mode="inject", k=k, min_seq=min_seq)
    result["ingested"] = len(written)
    result["skipped"] = skipped
    return result


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


