"""Memory: the store plus retrieval (embedders, the usearch projection, back-fill, hybrid
search), behind the interface the writer and the server use. Also usable in process.

The first embedder is the one that serves queries; every configured embedder is kept
complete by a back-filler, and fast ones (the hash embedder) also embed inline as writes
are decided, so their vectors commit with the write.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any, Callable, Sequence

from .domain.policy import Policy
from .embed.protocol import Embedder
from .embed.registry import make_embedder
from .errors import ConfigError, InvalidInput, RagixError
from .logs import get
from .retrieval.backfill import Backfiller, embed_commands, missing, progress
from .retrieval.embedding import InlineEmbedding
from .retrieval.hybrid import HybridSearch, RecallConfig
from .retrieval.vector_store import VectorStore
from .store.log import Progress
from .store.store import GroupResult, Store
from .vectors import kernels

logger = get("ragixd.memory")
INLINE_BACKENDS = ("hash",)
DEFAULT_IDLE_S = 0.5   # how often an idle back-filler looks for items without vectors
INLINE_IDLE_S = 30.0


def build_embedders(specs: Sequence[dict[str, Any]]) -> list[tuple[Embedder, bool]]:
    """(embedder, inline?) for each spec; a spec with backend 'none' disables vectors."""
    out = []
    for spec in specs:
        backend = spec.get("backend", "hash")
        if backend == "none":
            continue
        out.append((make_embedder(dict(spec)), backend in INLINE_BACKENDS))
    names = [e.model_name for e, _ in out]
    if len(set(names)) != len(names):
        raise ConfigError(f"two embedders share a model name: {names}")
    return out


class Memory:
    def __init__(self, home: Path, *, synchronous: str = "FULL",
                 embedders: Sequence[dict[str, Any]] = ({"backend": "hash"},),
                 recall: RecallConfig | None = None, backfill: bool = True,
                 policy: Policy | None = None, vector_layout: str = "auto") -> None:
        self.home = Path(home)
        self.home.mkdir(parents=True, exist_ok=True)
        self.embedders = build_embedders(embedders)
        inline = [InlineEmbedding(e) for e, is_inline in self.embedders if is_inline]
        self.store = Store(self.home / "ragix.db", synchronous=synchronous, enrichers=inline, policy=policy)
        self.policy = self.store.policy
        self.vectors = VectorStore(self.home / "vectors", layout=vector_layout)
        self.vectors.open(self.store.reader())
        serving = self.embedders[0][0] if self.embedders else None
        self.search = HybridSearch(recall or RecallConfig(), self.vectors, serving)
        self.submit: Callable[[list[Any]], list[Any]] = self._submit_direct
        self.backfillers: list[Backfiller] = []
        self._backfill = backfill
        self.applied = threading.Condition()
        self._progress_memo: dict[str, tuple[int, dict[str, int]]] = {}  # model -> (head seq, counts)

    # -- the interface the writer uses --------------------------------------------------------

    @property
    def head_seq(self) -> int:
        return self.store.head_seq

    def execute_attributed(self, pairs: Sequence[tuple[Any, str]], *,
                           settle: bool = True) -> GroupResult:
        """Commit a group; with settle=False the caller answers first and settles after."""
        group = self.store.execute_attributed(pairs)
        if group.events and settle:
            self.settle(group.events)
        return group

    def settle(self, events: list[Any]) -> None:
        """After a commit: bring the vector indexes up to it and wake the back-fillers."""
        self.vectors.apply(self.store.reader(), events)
        for backfiller in self.backfillers:
            # Inline embedders' vectors came with the commit: waking their back-filler would
            # only make it look for missing vectors (a query per write, and a GIL hand-off).
            if not _is_inline(backfiller.embedder, self.embedders):
                backfiller.wake()
        with self.applied:
            self.applied.notify_all()

    def wait_applied(self, seq: int, timeout: float) -> bool:
        """Wait up to `timeout` for applied_seq() to reach `seq` (woken by every settle)."""
        with self.applied:
            return self.applied.wait_for(lambda: self.applied_seq() >= seq, timeout)

    def execute(self, commands: Sequence[Any], actor: str = "local") -> GroupResult:
        return self.execute_attributed([(c, actor) for c in commands])

    def rebuild(self, progress: Progress | None = None) -> dict[str, Any]:
        result = self.store.rebuild(progress)
        self.vectors.reset()
        self.vectors.catch_up(self.store.reader(), progress=progress)
        return result

    # -- back-fill ---------------------------------------------------------------------------

    def start_backfill(self, submit: Callable[[list[Any]], list[Any]] | None = None) -> None:
        """Start one back-filler per embedder; `submit` sends commands through the writer."""
        if not self._backfill:
            return
        self.submit = submit or self._submit_direct
        for embedder, inline in self.embedders:
            filler = self._backfiller(embedder, inline)
            filler.start()
            self.backfillers.append(filler)

    def _backfiller(self, embedder: Embedder, inline: bool) -> Backfiller:
        # An inline embedder's vectors come with each write: its back-filler only catches up
        # a model added later or a write that failed to embed, so it looks rarely when idle.
        return Backfiller(embedder, self.store.reader, lambda: self.store.head_seq, self.submit,
                          idle_s=INLINE_IDLE_S if inline else DEFAULT_IDLE_S)

    def fill_vectors(self, batch: int = 256) -> int:
        """Embed every item that lacks a vector, synchronously (tests, benchmarks, import)."""
        total = 0
        conn = self.store.reader()
        for embedder, _inline in self.embedders:
            while True:
                todo = missing(conn, embedder.model_name, batch)
                if not todo:
                    break
                self._submit_direct(embed_commands(embedder, todo))
                total += len(todo)
        return total

    def reconfigure(self, specs: Sequence[dict[str, Any]]) -> list[str]:
        """Switch embedders without downtime: models new to the list are added and back-filled,
        the first one serves queries from now on (its index fills as the back-fill runs; until
        then full-text candidates carry the search). Returns the models added."""
        wanted = build_embedders(specs)
        known = {e.model_name: (e, inline) for e, inline in self.embedders}
        added = []
        merged = []
        for embedder, inline in wanted:
            if embedder.model_name in known:
                merged.append(known[embedder.model_name])
            else:
                merged.append((embedder, inline))
                added.append(embedder.model_name)
        self.embedders = merged
        self.store.enrichers = [InlineEmbedding(e) for e, inline in merged if inline]
        self.search.embedder = merged[0][0] if merged else None
        if self.backfillers or not self._backfill:
            for embedder, inline in merged:
                if embedder.model_name in added and self._backfill:
                    filler = self._backfiller(embedder, inline)
                    filler.start()
                    self.backfillers.append(filler)
        logger.info("memory.embedders", serving=self.search.embedder.model_name if self.search.embedder else None,
                    added=added)
        return added

    def _submit_direct(self, commands: list[Any]) -> list[Any]:
        return self.execute(commands, actor="backfill").results

    def applied_seq(self) -> int:
        """The seq every projection has reached, vectors and available back-fills included.

        A back-filler caught up at seq c has committed a vector, at a seq up to c, for every
        item written up to c; those items are searchable by vector only once the index has
        applied c. So a filler counts with the last c the index had reached when seen, not
        with the c it reports (the index applies the filler's commit just after answering it).
        """
        vectors_seq = max(self.vectors.seq, 0)
        seq = min(self.store.head_seq, vectors_seq if self.embedders else self.store.head_seq)
        for filler in self.backfillers:
            if filler.available and not _is_inline(filler.embedder, self.embedders):
                caught_up = filler.caught_up_seq
                if vectors_seq >= caught_up > filler.indexed_seq:
                    filler.indexed_seq = caught_up
                seq = min(seq, filler.indexed_seq)
        return seq

    def cheap_query_embedding(self) -> bool:
        """Whether embedding a query is local CPU work (no model server, no big model)."""
        serving = self.search.embedder
        return serving is None or _is_inline(serving, self.embedders)

    def check_vector_search(self, query: str) -> None:
        """Raise what keeps a `vector` search from being made: no embedder, or (nothing indexed
        yet for the serving model) a model server that cannot embed the query. An empty index
        would otherwise answer 'no matches' for a server that is down and never embedded
        anything; with vectors indexed, embedding the query raises it the same way."""
        serving = self.search.embedder
        if serving is None:
            raise no_embedder()
        if query.strip() and not self.vectors.counts().get(serving.model_name):
            serving.embed_batch([query])

    def vector_trouble(self, query: str = "") -> str:
        """Why the serving model's vectors cannot be had now ("" when nothing is known to be
        wrong): its last failure to embed, for a search or its back-fill.

        With vectors indexed, the search that asks has just embedded its query, so a failure
        is this search's own. With none (an empty store, or nothing embedded yet), no search
        embeds and an empty store has nothing to back-fill: a failure seen once would be
        repeated after the server came back. So the query is embedded again here, only while
        a failure is on record; one that succeeds clears it."""
        serving = self.search.embedder
        if serving is None:
            return ""
        filler = next((f for f in self.backfillers if f.embedder is serving), None)
        known = getattr(serving, "last_error", "") or (filler.last_error if filler and not filler.available else "")
        if not known or not query.strip() or self.vectors.counts().get(serving.model_name):
            return known
        try:
            serving.embed_batch([query])
        except RagixError as err:
            return err.message
        return ""

    def embedder_status(self) -> list[dict[str, Any]]:
        conn = self.store.reader()
        serving = self.search.embedder.model_name if self.search.embedder else None
        out = []
        for embedder, inline in self.embedders:
            filler = next((f for f in self.backfillers if f.embedder is embedder), None)
            layout = self.vectors.current_layout(embedder.model_name)
            out.append({
                "model": embedder.model_name, "dimension": _dimension(embedder), "inline": inline,
                "serving": embedder.model_name == serving,
                "indexed": self.vectors.counts().get(embedder.model_name, 0),
                "layout": layout,
                **({"kernel": kernels.backend()} if layout == "scan" else {}),
                **self._progress(conn, embedder.model_name),
                "available": filler.available if filler else True,
                "error": filler.last_error if filler else "",
            })
        return out

    def _progress(self, conn: Any, model: str) -> dict[str, int]:
        """Back-fill progress of a model, counted again only when the log has moved (the count
        joins every item with its vector: ~100 ms at 100k items)."""
        head = self.store.head_seq
        memo = self._progress_memo.get(model)
        if memo is None or memo[0] != head:
            memo = self._progress_memo[model] = (head, progress(conn, model))
        return dict(memo[1])

    def close(self) -> None:
        for filler in self.backfillers:
            filler.stop()
        self.search.close()
        self.vectors.save()
        self.store.close()


def _dimension(embedder: Embedder) -> int | None:
    """The model's vector size, or None while it cannot be known: a model server that has not
    answered yet would be asked, and one that is down must not fail the listing meant to say so."""
    try:
        return embedder.dimension
    except RagixError:
        return None


def _is_inline(embedder: Embedder, embedders: list[tuple[Embedder, bool]]) -> bool:
    return any(e is embedder and inline for e, inline in embedders)


def no_embedder() -> InvalidInput:
    """What a `vector` search is told when no embedder is configured."""
    return InvalidInput("mode", "vector search needs an embedder, and none is configured "
                        "(use --mode fts or hybrid)")
