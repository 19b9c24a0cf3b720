"""Realistic benchmark text: a word-bigram chain trained on the MS MARCO sample in ../shared.

Items are 40-60 words with a natural (Zipfian) vocabulary, not random words. Deterministic
for a given seed. Falls back to a small built-in paragraph when the data is absent.
"""

from __future__ import annotations

import json
import random
import re
from collections import defaultdict
from pathlib import Path

CORPUS = Path(__file__).resolve().parents[1] / ".." / "shared" / "data" / "beir-msmarco-5k" / "corpus.jsonl"
FALLBACK = (
    "the service stores memories for agents and recalls them later when a question needs "
    "context from earlier sessions so that decisions about deployment databases and security "
    "policies are not lost between conversations with the local model running on the laptop"
)


class TextGen:
    def __init__(self, seed: int = 7) -> None:
        self.rng = random.Random(seed)
        self.next: dict[str, list[str]] = defaultdict(list)
        texts = []
        if CORPUS.is_file():
            with CORPUS.open() as fh:
                texts = [json.loads(line)["text"] for line in fh]
        for text in texts or [FALLBACK]:
            words = re.findall(r"[A-Za-z][A-Za-z'-]*|\d+", text.lower())
            for a, b in zip(words, words[1:]):
                self.next[a].append(b)
        self.starts = list(self.next)

    def words(self, n: int) -> list[str]:
        word = self.rng.choice(self.starts)
        out = [word]
        while len(out) < n:
            followers = self.next.get(word)
            word = self.rng.choice(followers) if followers else self.rng.choice(self.starts)
            out.append(word)
        return out

    def item(self) -> tuple[str, str]:
        words = self.words(self.rng.randint(40, 60))
        title = " ".join(words[:6])
        return title, " ".join(words)

    def query(self, terms: int) -> str:
        """A query of `terms` words drawn from real text (so it usually matches something)."""
        return " ".join([w for w in self.words(terms * 4) if len(w) > 3][:terms])


TAGS = ["ops", "db", "security", "ml", "frontend", "infra", "docs", "team"]


def populate(execute, items: int, seed: int = 7, group: int = 1000, report=None) -> float:
    """Write `items` realistic items through `execute(commands)` in groups; return seconds."""
    import time

    from ragixd.domain import commands as c

    gen = TextGen(seed)
    start = time.perf_counter()
    for base in range(0, items, group):
        batch = []
        for i in range(base, min(items, base + group)):
            title, content = gen.item()
            batch.append(c.CreateItem({"title": title, "content": content, "tags": [TAGS[i % 8]]}))
        execute(batch)
        if report and base and base % 20_000 == 0:
            report(f"  {base} items ({base / (time.perf_counter() - start):.0f}/s)")
    return time.perf_counter() - start
