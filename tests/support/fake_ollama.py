"""A tiny fake Ollama HTTP server on loopback, so tests exercise the real `ollama` client.

Implements POST /api/embed ({model, input: str | list} -> {model, embeddings}) with
deterministic vectors derived from sha256 of each text, and GET /api/tags. It can be made slow
(`delay`), fail with an HTTP status (`fail_status`), answer garbage (`malformed`) or put a
value such as NaN into every vector (`poison`, sent as JSON's non-standard NaN/Infinity), and it
records every request. Binds 127.0.0.1 on an OS-assigned port; never anything else.

    with FakeOllama(dimension=16) as fake:
        client = ollama.Client(host=fake.url)
"""

from __future__ import annotations

import hashlib
import json
import socket
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Self

import numpy as np


def fake_vector(text: str, dimension: int) -> list[float]:
    """The deterministic, deliberately un-normalised vector the fake returns for a text."""
    seed = int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest()[:8], "little")
    values = np.random.default_rng(seed).uniform(-3.0, 3.0, size=dimension)
    return [float(v) for v in values]


def unused_loopback_port() -> int:
    """A port on 127.0.0.1 that nothing listens on (for 'server absent' tests)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class FakeOllama:
    """Start with `with FakeOllama() as fake:`; `fake.url` is the base URL for the client."""

    def __init__(
        self,
        dimension: int = 16,
        models: tuple[str, ...] = ("nomic-embed-text:latest",),
    ) -> None:
        self.dimension = dimension
        self.models = list(models)
        self.delay = 0.0
        self.fail_status: int | None = None
        self.malformed = False
        self.poison: float | None = None
        self.requests: list[tuple[str, str, dict]] = []
        self._stopping = threading.Event()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler_class())
        self._server.daemon_threads = True
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )

    @property
    def url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}"

    def embed_calls(self) -> list[list[str]]:
        """The input lists of every /api/embed request, in order."""
        return [body["input"] for method, path, body in self.requests if path == "/api/embed"]

    def knows(self, model: str) -> bool:
        return model in self.models or f"{model}:latest" in self.models

    def __enter__(self) -> Self:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stopping.set()  # wakes handlers sleeping in `delay`
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)

    def _handler_class(self) -> type[BaseHTTPRequestHandler]:
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: object) -> None:  # keep test output quiet
                pass

            def do_GET(self) -> None:
                fake.requests.append(("GET", self.path, {}))
                if self.path != "/api/tags":
                    return self._reply(404, {"error": "not found"})
                models = [
                    {"name": m, "model": m, "size": 1, "digest": "0" * 12} for m in fake.models
                ]
                self._reply(200, {"models": models})

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = json.loads(self.rfile.read(length) or b"{}")
                fake.requests.append(("POST", self.path, body))
                if fake.delay and fake._stopping.wait(fake.delay):
                    return
                if self.path != "/api/embed":
                    return self._reply(404, {"error": "not found"})
                if fake.fail_status is not None:
                    return self._reply(fake.fail_status, {"error": "simulated failure"})
                if not fake.knows(body.get("model", "")):
                    error = f'model "{body.get("model")}" not found, try pulling it first'
                    return self._reply(404, {"error": error})
                if fake.malformed:
                    return self._raw(200, b'{"embeddings": [[1.0, 2')
                texts = body.get("input", [])
                texts = [texts] if isinstance(texts, str) else texts
                vectors = [fake_vector(t, fake.dimension) for t in texts]
                if fake.poison is not None:
                    vectors = [[fake.poison, *v[1:]] for v in vectors]
                self._reply(200, {"model": body["model"], "embeddings": vectors})

            def _reply(self, status: int, payload: dict) -> None:
                self._raw(status, json.dumps(payload).encode("utf-8"))

            def _raw(self, status: int, data: bytes) -> None:
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        return Handler
