"""Embeddings from an Ollama server (e.g. nomic-embed-text) through the `ollama` client.

Owns batching, the request time-out, discovery of the dimension from the first response, and
the translation of every client or transport failure into ragixd.errors.Unavailable, so callers
can fall back to lexical recall when the model server is absent, slow or broken. It never
retries on its own: the caller decides when to try again.
"""

from __future__ import annotations

import threading

import httpx
import numpy as np
import ollama

from ragixd.embed.protocol import normalise_rows
from ragixd.errors import Unavailable

DEFAULT_MODEL = "nomic-embed-text"
DEFAULT_URL = "http://127.0.0.1:11434"
_PROBE_TEXT = "dimension probe"


class OllamaEmbedder:
    """Calls POST /api/embed in batches; the vectors are L2-normalised here, whatever the server."""

    def __init__(
        self,
        model: str = DEFAULT_MODEL,
        url: str = DEFAULT_URL,
        timeout: float = 10.0,
        batch_size: int = 64,
        dimension: int | None = None,
    ) -> None:
        if batch_size < 1:
            raise ValueError("batch_size must be at least 1")
        if timeout <= 0:
            raise ValueError("timeout must be positive")
        self.model = model
        self.model_name = model
        self.url = url
        self.batch_size = batch_size
        self._dimension = dimension
        self._lock = threading.Lock()
        self.last_error = ""  # why the last call failed ("" once one succeeds): said by a search that fell back
        # trust_env=False: a proxy from the environment must never see loopback model traffic.
        self._client = ollama.Client(host=url, timeout=timeout, trust_env=False)

    @property
    def dimension(self) -> int:
        """The vector size; asks the server once (a one-text probe) if no response came yet."""
        if self._dimension is None:
            self.embed_batch([_PROBE_TEXT])
        assert self._dimension is not None
        return self._dimension

    def embed_batch(self, texts: list[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dimension), dtype=np.float32)
        parts = [
            self._embed_chunk(texts[i : i + self.batch_size])
            for i in range(0, len(texts), self.batch_size)
        ]
        return normalise_rows(np.vstack(parts))

    def available(self) -> bool:
        """True when the server answers and lists this model (GET /api/tags); never raises."""
        try:
            listed = self._client.list()
        except (ConnectionError, httpx.HTTPError, ollama.ResponseError, ollama.RequestError):
            return False
        names = {m.model for m in listed.models if m.model}
        return self.model in names or f"{self.model}:latest" in names

    def _embed_chunk(self, chunk: list[str]) -> np.ndarray:
        try:
            response = self._client.embed(model=self.model, input=chunk)
        except ConnectionError as exc:
            raise self._unavailable("cannot connect", "connect") from exc
        except httpx.TimeoutException as exc:
            raise self._unavailable("timed out", "timeout") from exc
        except httpx.HTTPError as exc:
            raise self._unavailable(f"transport error ({exc})", "transport") from exc
        except ollama.ResponseError as exc:
            raise self._unavailable(
                f"answered {exc.status_code}: {exc.error}", "http_status", status=exc.status_code
            ) from exc
        except ollama.RequestError as exc:
            raise self._unavailable(f"rejected the request: {exc.error}", "request") from exc
        except ValueError as exc:  # undecodable JSON or a body of the wrong shape
            raise self._unavailable(f"sent a malformed reply ({exc})", "bad_response") from exc
        with np.errstate(over="ignore", invalid="ignore"):  # overflow is refused just below
            vectors = np.asarray(response.embeddings, dtype=np.float32)
            lengths = np.linalg.norm(vectors, axis=1) if vectors.ndim == 2 else np.zeros(0)
        if vectors.ndim != 2 or vectors.shape[0] != len(chunk) or vectors.shape[1] == 0:
            raise self._unavailable(
                f"returned {vectors.shape} embeddings for {len(chunk)} texts", "bad_response"
            )
        if not np.isfinite(vectors).all() or not np.isfinite(lengths).all():
            # NaN or infinite values (or ones whose length overflows float32, where they are
            # normalised) would be stored as the item's vector for good and rank it first or
            # last for every query.
            raise self._unavailable("returned embeddings with NaN or infinite values", "bad_response")
        self._check_dimension(vectors.shape[1])
        self.last_error = ""
        return vectors

    def _check_dimension(self, found: int) -> None:
        """A model that changes its vector size is out of service, as a server that is down:
        searches fall back to full text and say why, writes are back-filled once it is
        fixed (the index keeps the first size it saw)."""
        with self._lock:
            if self._dimension is None:
                self._dimension = found
                return
            expected = self._dimension
        if expected != found:
            raise self._unavailable(
                f"returned {found}-d vectors, expected {expected}: a different model now answers "
                "under this name (pull the model the index was built with)",
                "dimension", expected=expected, found=found)

    def _unavailable(self, what: str, reason: str, **details: object) -> Unavailable:
        self.last_error = f"ollama at {self.url} (model {self.model!r}) {what}"
        return Unavailable(
            self.last_error,
            url=self.url,
            model=self.model,
            reason=reason,
            **details,
        )
