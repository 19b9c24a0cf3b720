"""The ZeroMQ server: a ROUTER socket, request validation, and dispatch to the writer or readers.

Only the main thread touches the ROUTER. Workers (the writer and the reader pool) send their
answers through an inproc PUSH socket of their own to a PULL socket the main loop polls, so
every answer leaves through the ROUTER from one thread. No request can stop the loop: every
failure becomes an error answer or, for frames that cannot be answered, is dropped and logged.
"""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Callable

import msgpack
import zmq

from . import __version__, contract
from .config import Settings
from .domain.trust import Caller
from .errors import (Busy, InvalidInput, ProtocolError, RagixError, Timeout, TooLarge, UnknownOp)
from .logs import get
from .ops import handlers
from .ops.catalog import ADMIN, BY_NAME, COMMAND, PROTOCOL_VERSION
from .store.store import Store
from .writer import Writer

log = get("ragixd.server")
REPLIES = "inproc://ragixd-replies"
RECV_BATCH = 256


def encode_answer(req_id: Any, result: dict[str, Any] | None = None, error: RagixError | None = None) -> bytes:
    if error is not None:
        body = {"v": PROTOCOL_VERSION, "id": req_id, "ok": False, "error": error.to_wire()}
    else:
        body = {"v": PROTOCOL_VERSION, "id": req_id, "ok": True, "result": result}
    try:
        return msgpack.packb(body, use_bin_type=True)
    except (TypeError, ValueError, OverflowError) as e:
        fallback = RagixError(f"answer could not be encoded: {e}")
        return msgpack.packb({"v": PROTOCOL_VERSION, "id": req_id, "ok": False,
                              "error": fallback.to_wire()}, use_bin_type=True)


class Replier:
    """Per-thread PUSH sockets that hand answers back to the main loop."""

    def __init__(self, ctx: zmq.Context) -> None:
        self.ctx = ctx
        self.local = threading.local()
        self.sockets: list[zmq.Socket] = []
        self.lock = threading.Lock()

    def send(self, route: list[bytes], payload: bytes) -> None:
        sock = getattr(self.local, "sock", None)
        if sock is None:
            sock = self.ctx.socket(zmq.PUSH)
            sock.setsockopt(zmq.LINGER, 1000)
            sock.connect(REPLIES)
            self.local.sock = sock
            with self.lock:
                self.sockets.append(sock)
        sock.send_multipart([*route, payload])

    def close(self) -> None:
        with self.lock:
            for sock in self.sockets:
                sock.close()
            self.sockets.clear()


class Server:
    def __init__(self, settings: Settings, store: Store, ctx: zmq.Context | None = None) -> None:
        self.settings = settings
        self.store = store
        self.ctx = ctx or zmq.Context.instance()
        self.started = time.time()
        self.running = False
        self.clients = 0
        self.replier = Replier(self.ctx)
        self.pub: zmq.Socket | None = None
        self.readers = ThreadPoolExecutor(max_workers=settings.readers, thread_name_prefix="ragixd-reader")
        self.writer = Writer(store, settings.max_group, on_commit=self._publish,
                             on_start=self._open_pub, on_exit=self._close_pub)
        self._pub_ready = threading.Event()
        self.sockets: list[tuple[zmq.Socket, str]] = []  # (router, trust source)
        self.pull: zmq.Socket | None = None
        self.monitors: list[zmq.Socket] = []
        self.tick: Callable[[], None] | None = None
        self.authenticator = None
        self._loop_thread: threading.Thread | None = None

    # -- lifecycle ---------------------------------------------------------------------------

    def bind(self) -> None:
        self.pull = self.ctx.socket(zmq.PULL)
        self.pull.bind(REPLIES)
        self.sockets.append((self._router(self.settings.endpoint), "owner"))
        if self.settings.tcp_endpoint:
            from .curve import curve_router
            self.sockets.append((curve_router(self, self.settings), "curve"))
        self.writer.start()
        self._pub_ready.wait(10)
        self.running = True
        log.info("server.listening", endpoint=self.settings.endpoint, pub=self.settings.pub_endpoint,
                 tcp=self.settings.tcp_endpoint)

    def _router(self, endpoint: str, configure: Callable[[zmq.Socket], None] | None = None) -> zmq.Socket:
        sock = self.ctx.socket(zmq.ROUTER)
        sock.setsockopt(zmq.LINGER, 500)
        sock.setsockopt(zmq.MAXMSGSIZE, self.settings.max_message_bytes + 65536)
        sock.setsockopt(zmq.RCVHWM, 100_000)
        sock.setsockopt(zmq.SNDHWM, 100_000)
        if configure:
            configure(sock)
        sock.bind(endpoint)
        monitor = sock.get_monitor_socket(zmq.EVENT_ACCEPTED | zmq.EVENT_DISCONNECTED)
        self.monitors.append(monitor)
        return sock

    def _open_pub(self) -> None:
        endpoint = self.settings.pub_endpoint
        if endpoint:
            self.pub = self.ctx.socket(zmq.PUB)
            self.pub.setsockopt(zmq.LINGER, 0)
            self.pub.setsockopt(zmq.SNDHWM, 100_000)
            self.pub.bind(endpoint)
        self._pub_ready.set()

    def _close_pub(self) -> None:
        if self.pub is not None:
            self.pub.close()
            self.pub = None

    def _publish(self, events: list[Any]) -> None:
        if self.pub is None:
            return
        for event in events:
            self.pub.send_multipart([event.type.encode(), msgpack.packb(event.to_dict(), use_bin_type=True)])

    def stop(self) -> None:
        self.running = False

    def serve_forever(self) -> None:
        self._loop_thread = threading.current_thread()
        poller = zmq.Poller()
        for sock, _ in self.sockets:
            poller.register(sock, zmq.POLLIN)
        poller.register(self.pull, zmq.POLLIN)
        for monitor in self.monitors:
            poller.register(monitor, zmq.POLLIN)
        while self.running:
            ready = dict(poller.poll(100))
            if self.pull in ready:
                self._forward_replies()
            for sock, source in self.sockets:
                if sock in ready:
                    self._receive(sock, source)
            for monitor in self.monitors:
                if monitor in ready:
                    self._count_clients(monitor)
            if self.tick:
                self.tick()
        self._drain()

    def _drain(self) -> None:
        """Finish in-flight work, send its answers, then close."""
        self.writer.stop()
        self.readers.shutdown(wait=True)
        deadline = time.monotonic() + 2.0
        while time.monotonic() < deadline and self.pull.poll(50):
            self._forward_replies()
        self.replier.close()
        for monitor in self.monitors:
            monitor.close(linger=0)
        for sock, _ in self.sockets:
            sock.close()
        self.pull.close()
        if self.authenticator is not None:
            self.authenticator.stop()

    def _forward_replies(self) -> None:
        for _ in range(RECV_BATCH):
            try:
                frames = self.pull.recv_multipart(zmq.NOBLOCK)
            except zmq.Again:
                return
            route, payload = frames[:-1], frames[-1]
            sock = self.sockets[int(route[0])][0]
            try:
                sock.send_multipart([*route[1:], payload], zmq.NOBLOCK)
            except zmq.ZMQError:
                pass  # the client is gone or too slow: its answer is dropped

    def _count_clients(self, monitor: zmq.Socket) -> None:
        from zmq.utils.monitor import recv_monitor_message
        try:
            event = recv_monitor_message(monitor, zmq.NOBLOCK)
        except zmq.Again:
            return
        if event["event"] == zmq.EVENT_ACCEPTED:
            self.clients += 1
        elif event["event"] == zmq.EVENT_DISCONNECTED:
            self.clients = max(0, self.clients - 1)

    # -- requests ----------------------------------------------------------------------------

    def _receive(self, sock: zmq.Socket, source: str) -> None:
        index = next(i for i, (s, _) in enumerate(self.sockets) if s is sock)
        for _ in range(RECV_BATCH):
            try:
                frames = sock.recv_multipart(zmq.NOBLOCK, copy=False)
            except zmq.Again:
                return
            try:
                self._handle(index, source, frames)
            except Exception:  # never let one request stop the loop
                log.exception("server.request_crashed")

    def _handle(self, index: int, source: str, frames: list[zmq.Frame]) -> None:
        identity = frames[0].bytes
        body = frames[1:]
        delimiter = [b""] if body and len(body[0]) == 0 else []
        body = body[len(delimiter):]
        route = [str(index).encode(), identity, *delimiter]
        if len(body) != 1:
            return self._reply(route, None, error=ProtocolError(
                f"expected one message frame, got {len(body)}"))
        frame = body[0]
        if len(frame) > self.settings.max_message_bytes:
            return self._reply(route, None, error=TooLarge(
                f"message of {len(frame)} bytes is over the limit of {self.settings.max_message_bytes}"))
        caller = self._caller(source, frame)
        try:
            request = msgpack.unpackb(frame.bytes, raw=False, strict_map_key=False)
        except Exception as e:
            return self._reply(route, None, error=ProtocolError(f"message is not msgpack: {type(e).__name__}"))
        req_id = request.get("id") if isinstance(request, dict) else None
        if not isinstance(req_id, (str, int)) or isinstance(req_id, bool):
            req_id = None
        problem = contract.first_error("envelope#request", request)
        if problem is not None:
            return self._reply(route, req_id, error=ProtocolError(f"bad envelope: {problem}"))
        try:
            self._dispatch(route, req_id, request["op"], request.get("args") or {}, caller)
        except RagixError as err:
            self._reply(route, req_id, error=err)

    def _caller(self, source: str, frame: zmq.Frame) -> Caller:
        if source == "owner":
            return Caller("full", "owner")
        from .curve import caller_for_frame
        return caller_for_frame(frame, self.settings)

    def _dispatch(self, route: list[bytes], req_id: Any, op: str, args: dict[str, Any], caller: Caller) -> None:
        spec = BY_NAME.get(op)
        if spec is None:
            raise UnknownOp(f"unknown op {op!r}", op=op)
        problem = contract.first_error(f"ops/{op}#request", args)
        if problem is not None:
            field, _, text = problem.partition(": ")
            raise InvalidInput(field, text[:300])
        if not self.running:
            raise Busy("the daemon is shutting down")
        if spec.kind == COMMAND:
            return self._command(route, req_id, op, args, caller)
        if spec.kind == ADMIN:
            return self._admin(route, req_id, op, caller)
        self.readers.submit(self._query, route, req_id, op, args, caller)

    def _command(self, route, req_id, op, args, caller) -> None:
        if caller.trust != "full":  # visibility checks need a read: do them on a reader
            self.readers.submit(self._checked_command, route, req_id, op, args, caller)
            return
        self._submit_plan(route, req_id, handlers.PLANS[op](args, caller), caller)

    def _checked_command(self, route, req_id, op, args, caller) -> None:
        try:
            handlers.check_touched(self.store.reader(), op, args, caller)
            self._submit_plan(route, req_id, handlers.PLANS[op](args, caller), caller)
        except RagixError as err:
            self._reply(route, req_id, error=err)

    def _submit_plan(self, route, req_id, plan: handlers.Plan, caller: Caller) -> None:
        def done(results: list[Any], seq: int) -> None:
            try:
                self._reply(route, req_id, plan.finish(results))
            except RagixError as err:
                self._reply(route, req_id, error=err)
        self.writer.submit(plan.commands, caller.label, done)

    def _query(self, route, req_id, op, args, caller) -> None:
        try:
            min_seq = args.pop("min_seq", 0) or 0
            if min_seq > self.store.head_seq and not self.writer.wait_for_seq(
                    min_seq, self.settings.min_seq_timeout_s):
                raise Timeout(f"seq {min_seq} was not reached in time", head_seq=self.store.head_seq)
            qctx = handlers.QueryContext(self.store.reader(), caller,
                                         {"pub_endpoint": self.settings.pub_endpoint})
            self._reply(route, req_id, handlers.QUERIES[op](qctx, args))
        except RagixError as err:
            self._reply(route, req_id, error=err)
        except Exception as err:
            log.exception("server.query_failed", op=op)
            self._reply(route, req_id, error=RagixError(f"{op} failed: {type(err).__name__}: {err}"))

    def _admin(self, route, req_id, op, caller: Caller) -> None:
        if caller.trust != "full":
            raise _forbidden(op)
        if op == "status":
            return self._reply(route, req_id, self.status())
        if op == "rebuild":
            def done(result: Any) -> None:
                if isinstance(result, RagixError):
                    self._reply(route, req_id, error=result)
                else:
                    self._reply(route, req_id, result)
            self.writer.call(self.store.rebuild, done)
            return
        if op == "verify":
            self.readers.submit(self._verify, route, req_id)

    def _verify(self, route, req_id) -> None:
        try:
            self._reply(route, req_id, self.store.verify())
        except RagixError as err:
            self._reply(route, req_id, error=err)

    def status(self) -> dict[str, Any]:
        with self.store.snapshot() as conn:
            from .store.projection import Projections
            positions = Projections.positions(conn)
        return {
            "version": __version__, "pid": __import__("os").getpid(),
            "uptime_s": round(time.time() - self.started, 3), "head_seq": self.store.head_seq,
            "projectors": positions, "queue_depth": self.writer.depth, "clients": self.clients,
            "home": str(self.settings.home), "endpoint": self.settings.endpoint,
            "pub_endpoint": self.settings.pub_endpoint,
        }

    def _reply(self, route: list[bytes], req_id: Any, result: dict[str, Any] | None = None,
               error: RagixError | None = None) -> None:
        payload = encode_answer(req_id, result, error)
        if threading.current_thread() is self._loop_thread:
            sock = self.sockets[int(route[0])][0]
            try:
                sock.send_multipart([*route[1:], payload], zmq.NOBLOCK)
            except zmq.ZMQError:
                pass
        else:
            self.replier.send(route, payload)


def _forbidden(op: str) -> RagixError:
    from .errors import Forbidden
    return Forbidden(f"{op} is for the owner of the daemon only", op=op)
