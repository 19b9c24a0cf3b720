"""The ZeroMQ server: a ROUTER socket, request validation, and dispatch to the writer or readers.

Only the main thread touches the ROUTER. Workers (the writer and the reader pool) send their
answers through an inproc PUSH socket of their own to a PULL socket the main loop polls, so
every answer leaves through the ROUTER from one thread. No request can stop the loop: every
failure becomes an error answer or, for frames that cannot be answered, is dropped and logged.
"""

from __future__ import annotations

import os
import re
import threading
import time
from contextlib import contextmanager
from functools import cache
from typing import Any, Callable, Iterator

import apsw
import msgpack
import zmq

from . import __version__, contract
from .config import Settings
from .domain.trust import Caller
from .errors import (Busy, InvalidInput, ProtocolError, RagixError, StoreError, Timeout, TooLarge, UnknownOp,
                     shown)
from .logs import get
from .ops import handlers, registry
from .ops.catalog import ADMIN, BY_NAME, COMMAND
from .frames import chars_within, more, request_id, route as route_of, too_big
from .gate import Gate
from .long_ops import LongOps
from .memory import Memory
from .nowait import WouldBlock, no_waiting
from .readers import ReaderPool
from .seqwait import SeqWaiter
from .replies import REPLIES, Replier, encode_answer
from .retrieval.guard import RecallGuard
from .writer import Writer

log = get("ragixd.server")
RECV_BATCH = 256
# Queries that may run on the loop thread when nothing else is waiting: each reads a bounded
# handful of rows (search and recall only up to INLINE_MAX_K results, read up to as many ids,
# a timeline up to as many items around its anchor). Whole-store reads (stats,
# embedders, palace.list, export, tail, verify) and policy checks of big texts always go to the
# readers: at 100k items some of them take tens to hundreds of milliseconds.
INLINE_OPS = frozenset(("read", "search", "recall", "timeline", "history", "entities", "palace.get"))
INLINE_MAX_K = 100
# Writes the loop thread commits itself when the writer is idle (Writer.commit_now): one item's
# commands, whose text is within an item's usual size, so the loop is held ~1 ms, not longer.
INLINE_WRITE_OPS = frozenset(("write", "update", "archive", "link", "palace.assign"))
INLINE_WRITE_MAX_CHARS = 4000
# Lookups by id are answered on the loop thread even while the readers are busy, so that a
# client queueing slow searches cannot hold everyone's reads behind them.
BY_ID_OPS = frozenset(("read", "history", "palace.get"))
BY_ID_MAX = 20
# A min_seq at most this far ahead of the log waits for the writes that will reach it; further
# ahead no write in flight can, and the query is refused at once instead of holding a reader.
MIN_SEQ_AHEAD = 10_000
# How long a query on the reader pool waits for a running rebuild before answering busy with
# its progress (a rebuild of a large log takes minutes, longer than a client's time-out).
REBUILD_READ_WAIT_S = 5.0
INLINE_MAX_QUERY = 1000  # characters: a longer query costs milliseconds to split and embed
# What an unknown op is repeated back as, in its error: a name of the ops' own shape. Anything
# else may be a key pasted into the wrong place, and is only measured.
_OP_NAME = re.compile(r"[a-z][a-z0-9_.]{0,39}")
# How long the writer waits for a group's answers to leave before it settles the group.
ANSWER_WAIT_S = 0.005
# The largest answer sent, in multiples of max_message_bytes (the largest request): past it the
# client gets too_large and asks for fewer items. Paged answers (export, tail) stop short of it
# by themselves (ops.pages).
ANSWER_LIMIT_FACTOR = 2
# Answers held for one client that does not read them; past this they are dropped, as for a
# client that is gone (ZeroMQ's default). A client that reads gets them: its own socket takes
# 1000 more (ZeroMQ's default), so a group commit's burst of answers to a client pipelining a
# thousand writes fits (a bound of 100 dropped the answers of committed writes to a client
# pipelining 1,500). 100k held, at up to a megabyte an answer, let one client grow the daemon
# by gigabytes. The bound is in answers, not bytes (ZeroMQ counts messages): a client asking
# only for answers near the limit and never reading them can still make the daemon hold up to
# 1,000 of them (a known limit, in the README).
ANSWERS_HWM = 1000
PUB_HWM = 10_000  # events held for each subscriber of the event stream
# At a stop: how long answers are still sent and new requests refused, and the quiet spell
# (no answer to send, no request to refuse) after which the sockets close.
DRAIN_S = 2.0
DRAIN_QUIET_MS = 50


class Server:
    def __init__(self, settings: Settings, memory: Memory, ctx: zmq.Context | None = None) -> None:
        self.settings = settings
        self.memory = memory
        self.store = memory.store
        self.recall_guard = RecallGuard(memory.policy)  # recall renders what the policy still accepts
        self.ctx = ctx or zmq.Context.instance()
        self.started = time.time()
        self.stopping = threading.Event()  # set by stop(): the loop ends, long ops end early
        self.clients = 0
        self.replier = Replier(self.ctx)
        # What the sockets let through, fixed when they are bound (a reload cannot raise it).
        self.transport_max = 2 * settings.max_message_bytes + 65536
        self.gate = Gate()
        self._static: tuple[Settings | None, dict[str, Any]] = (None, {})
        self._positions_at: tuple[int, dict[str, int]] = (-1, {})
        self.pub: zmq.Socket | None = None
        self.readers = ReaderPool(settings.readers)
        self.writer = Writer(memory, settings.max_group, on_commit=self._publish,
                             on_start=self._open_pub, on_exit=self._close_pub,
                             after_answers=self._answers_sent)
        self._pub_ready = threading.Event()
        self._pub_error: tuple[str, zmq.ZMQError] | None = None
        self.sockets: list[tuple[zmq.Socket, str]] = []  # (router, trust source)
        self.binding: str | None = None  # the endpoint being bound (named if binding fails)
        self.bound_files: dict[str, tuple[int, int]] = {}  # ipc socket path -> (device, inode)
        self.pull: zmq.Socket | None = None
        self.seq_waiter: SeqWaiter | None = None  # queries parked until their min_seq is applied
        self.monitors: list[zmq.Socket] = []
        self.tick: Callable[[], None] | None = None
        # A socket that becomes readable when a signal arrives (the daemon points Python's
        # signal wake-up fd at its other end): the loop wakes at once instead of at its next
        # poll time-out, so a stop or reload starts within milliseconds.
        self.wake: Any = None
        self.authenticator = None
        self._loop_thread: threading.Thread | None = None
        self.served_inline = 0  # queries answered on the loop thread
        self.committed_inline = 0  # writes committed on the loop thread (Writer.commit_now)
        self.long_ops = LongOps(self.stopping)  # rebuild and verify under way: their progress

    # -- lifecycle ---------------------------------------------------------------------------

    def bind(self) -> None:
        self.pull = self.ctx.socket(zmq.PULL)
        self.pull.bind(REPLIES)
        self.sockets.append((self._router(self.settings.endpoint), "owner"))
        if self.settings.tcp_endpoint:
            from .curve import curve_router
            self.sockets.append((curve_router(self, self.settings), "curve"))
        self.writer.start()
        self.seq_waiter = SeqWaiter(self.memory.applied_seq, self._wait_step, self._unpark, self._expire)
        self._pub_ready.wait(10)
        if self._pub_error is not None:  # the event stream could not be bound: no start
            self.binding, err = self._pub_error
            self.writer.stop()
            raise err
        self.memory.start_backfill(self.submit_and_wait)
        log.info("server.listening", endpoint=self.settings.endpoint, pub=self.settings.pub_endpoint,
                 tcp=self.settings.tcp_endpoint)

    def _router(self, endpoint: str, configure: Callable[[zmq.Socket], None] | None = None) -> zmq.Socket:
        self.binding = endpoint
        sock = self.ctx.socket(zmq.ROUTER)
        sock.setsockopt(zmq.LINGER, 500)
        # Up to twice the limit is read and answered too_large; beyond, ZeroMQ drops the peer.
        sock.setsockopt(zmq.MAXMSGSIZE, self.transport_max)
        sock.setsockopt(zmq.RCVHWM, 100_000)
        sock.setsockopt(zmq.SNDHWM, ANSWERS_HWM)
        if configure:
            configure(sock)
        sock.bind(endpoint)
        self._note_bound(endpoint)
        monitor = sock.get_monitor_socket(zmq.EVENT_ACCEPTED | zmq.EVENT_DISCONNECTED)
        self.monitors.append(monitor)
        return sock

    def remove_socket_files(self) -> None:
        """Remove the ipc socket files this daemon bound (a start that fails half bound too)."""
        _remove_ipc_files(self.bound_files)

    def _note_bound(self, endpoint: str) -> None:
        """Remember the socket file an ipc endpoint was bound to (its device and inode)."""
        if endpoint.startswith("ipc://"):
            path = endpoint[len("ipc://"):]
            try:
                found = os.lstat(path)
            except OSError:
                return
            self.bound_files[path] = (found.st_dev, found.st_ino)

    def _open_pub(self) -> None:
        endpoint = self.settings.pub_endpoint
        if endpoint:
            self.pub = self.ctx.socket(zmq.PUB)
            self.pub.setsockopt(zmq.LINGER, 0)
            # A subscriber that falls behind loses what is beyond this; Client.follow reads it
            # back from the log (a gap in the seqs), so memory stays bounded per subscriber.
            self.pub.setsockopt(zmq.SNDHWM, PUB_HWM)
            try:
                self.pub.bind(endpoint)
                self._note_bound(endpoint)
            except zmq.ZMQError as err:  # on the writer's thread: handed to bind() to raise
                self._pub_error = (endpoint, err)
                self.pub.close()
                self.pub = None
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
        self.stopping.set()  # the loop drains; a rebuild or verify ends at its next batch (_tracked)

    def serve_forever(self) -> None:
        self._loop_thread = threading.current_thread()
        poller = zmq.Poller()
        for sock, _ in self.sockets:
            poller.register(sock, zmq.POLLIN)
        poller.register(self.pull, zmq.POLLIN)
        for monitor in self.monitors:
            poller.register(monitor, zmq.POLLIN)
        if self.wake is not None:
            poller.register(self.wake, zmq.POLLIN)
        while not self.stopping.is_set():
            ready = dict(poller.poll(100))
            if self.wake is not None and self.wake in ready:
                _drain_wake(self.wake)
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
        """Finish in-flight work, send its answers, then close. The socket files go first: a
        client about to send is told at once that the daemon is not running, and one already
        connected has its requests refused busy until the sockets are quiet (a request left
        unread in a closing socket would cost its client the whole time-out)."""
        self.remove_socket_files()
        for filler in self.memory.backfillers:
            filler.stop()
        self.writer.stop()
        # Before the readers stop: a query handed back by the waiter needs them. No write will
        # now reach a parked query's seq (the stop does not wait out its time-out).
        for route, req_id, *_ in self.seq_waiter.stop() if self.seq_waiter else ():
            self._reply(route, req_id, error=Busy("the daemon is shutting down; try again"))
        self.readers.shutdown()
        poller = zmq.Poller()
        for sock in (self.pull, *(sock for sock, _ in self.sockets)):
            poller.register(sock, zmq.POLLIN)
        deadline = time.monotonic() + DRAIN_S
        while True:
            self._refuse_waiting()
            self._forward_replies()
            if time.monotonic() >= deadline or not poller.poll(DRAIN_QUIET_MS):
                break
        self.replier.close()
        for monitor in self.monitors:
            monitor.close(linger=0)
        for sock, _ in self.sockets:
            sock.close()
        self.pull.close()
        if self.authenticator is not None:
            self.authenticator.stop()

    def _forward_replies(self) -> None:
        sent = 0
        try:
            for _ in range(RECV_BATCH):
                try:
                    frames = self.pull.recv_multipart(zmq.NOBLOCK)
                except zmq.Again:
                    return
                sent += 1
                route, payload = frames[:-1], frames[-1]
                sock = self.sockets[int(route[0])][0]
                try:
                    sock.send_multipart([*route[1:], payload], zmq.NOBLOCK)
                except zmq.ZMQError:
                    pass  # the client is gone or too slow: its answer is dropped
                if not more(self.pull):
                    return
        finally:
            if sent:
                self.replier.mark_forwarded(sent)

    def _answers_sent(self) -> None:
        """The writer has handed over a group's answers: give the loop thread the interpreter
        until they are sent on (bounded), before the writer settles the group. Settling first
        would hold the GIL while the loop thread waits for it with the answers in hand."""
        self.replier.wait_forwarded(ANSWER_WAIT_S)

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
            except Exception as err:  # never let one request stop the loop, nor go unanswered
                log.exception("server.request_crashed")
                self._answer_crash(index, frames, err)
            if not more(sock):
                return

    def _answer_crash(self, index: int, frames: list[zmq.Frame], err: Exception) -> None:
        """Tell the client its request failed (it would otherwise wait for its time-out)."""
        try:
            route, body = route_of(index, frames)
            self._reply(route, request_id(body), error=RagixError(f"request failed: {type(err).__name__}"))
        except Exception:  # noqa: BLE001 - nothing more can be done for this one
            pass

    def _refuse_waiting(self) -> None:
        """At a stop: answer the requests still waiting in the sockets with Busy (none of them
        was started), instead of leaving their clients to their time-outs."""
        busy = Busy("the daemon is shutting down; nothing was done, try again")
        for index, (sock, _) in enumerate(self.sockets):
            for _ in range(100_000):
                try:
                    frames = sock.recv_multipart(zmq.NOBLOCK, copy=False)
                except zmq.Again:
                    break
                route, body = route_of(index, frames)
                self._reply(route, request_id(body), error=busy)

    def _handle(self, index: int, source: str, frames: list[zmq.Frame]) -> None:
        route, body = route_of(index, frames)
        if len(body) != 1:
            return self._reply(route, None, error=ProtocolError(
                f"expected one message frame, got {len(body)}"))
        frame = body[0]
        if len(frame) > self.settings.max_message_bytes:
            return self._reply(route, request_id(body), error=TooLarge(
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
            if _OP_NAME.fullmatch(op):
                raise UnknownOp(f"unknown op {op!r}", op=op)
            raise UnknownOp(f"unknown op ({shown(op)})")  # maybe a key pasted in: not repeated
        problem = None if not args and _empty_args_valid(op) else contract.first_error(f"ops/{op}#request", args)
        if problem is not None:
            field, _, text = problem.partition(": ")
            raise InvalidInput(field, text[:300])
        if self.stopping.is_set():
            raise Busy("the daemon is shutting down")
        if spec.kind == COMMAND:
            return self._command(route, req_id, op, args, caller)
        if spec.kind == ADMIN:
            return self._admin(route, req_id, op, caller)
        if self._may_inline(route, op, args):
            try:
                self._query(route, req_id, op, dict(args), caller, inline=True)
                self.served_inline += 1
                return
            except WouldBlock:
                pass  # a lock or the gate is held: run it where waiting is allowed
        self._to_readers(self._query, route, req_id, op, args, caller)

    def _may_inline(self, route: list[bytes], op: str, args: dict[str, Any]) -> bool:
        """Answer on the loop thread (two thread hand-offs fewer) only when no other request is
        waiting, the query needs no model server, and the readers are idle — or it is a lookup
        by id, which never waits behind their queue."""
        if op not in INLINE_OPS or more(self.sockets[int(route[0])][0]):
            return False
        if self.readers.busy and not (op in BY_ID_OPS and len(args.get("ids", ())) <= BY_ID_MAX):
            return False  # readers busy: only a lookup by id goes ahead of their queue
        if (args.get("k", 0) > INLINE_MAX_K or len(args.get("query", "")) > INLINE_MAX_QUERY
                or len(args.get("ids", ())) > INLINE_MAX_K
                # a timeline's counts (search and recall take dates under the same names)
                or (op == "timeline" and args.get("before", 5) + args.get("after", 5) > INLINE_MAX_K)):
            return False
        mode = args.get("mode", "hybrid") if op == "search" else args.get("search_mode", "hybrid")
        return op not in ("search", "recall") or mode == "fts" or self.memory.cheap_query_embedding()

    def _to_readers(self, fn: Callable[..., None], route: list[bytes], *args: Any) -> None:
        """Queue work for the readers under its client (socket and peer identity). The work
        answers its request itself (args[0] is the request id); should it fail in a way it does
        not answer, the request is answered `internal` here rather than left to time out."""
        def guarded(*job: Any) -> None:
            try:
                fn(*job)
            except Exception as err:  # noqa: BLE001 - answered and logged, the reader goes on
                log.exception("server.reader_job_failed", job=fn.__name__)
                self._reply(route, args[0] if args else None,
                            error=RagixError(f"the request failed: {type(err).__name__}: {err}"))
        self.readers.submit((route[0], route[1]), guarded, route, *args)

    def _command(self, route, req_id, op, args, caller) -> None:
        if caller.trust != "full":  # visibility checks need a read: do them on a reader
            self._to_readers(self._checked_command, route, req_id, op, args, caller)
            return
        self._submit_plan(route, req_id, registry.PLANS[op](args, caller), caller,
                          now=self._may_commit_now(route, op, args))

    def _may_commit_now(self, route: list[bytes], op: str, args: dict[str, Any]) -> bool:
        """Whether a write may be committed on the loop thread (if the writer is idle): a small
        one of the owner's, with no other request waiting on its socket."""
        if op not in INLINE_WRITE_OPS or more(self.sockets[int(route[0])][0]):
            return False
        return chars_within(args, INLINE_WRITE_MAX_CHARS)

    def _checked_command(self, route, req_id, op, args, caller) -> None:
        try:
            with self.gate.shared():
                handlers.check_touched(self.store.reader(), op, args, caller)
            self._submit_plan(route, req_id, registry.PLANS[op](args, caller), caller)
        except RagixError as err:
            self._reply(route, req_id, error=err)

    def _submit_plan(self, route, req_id, plan: handlers.Plan, caller: Caller, now: bool = False) -> None:
        """Queue the plan's commands for the writer; with `now`, commit them on this thread
        instead if the writer is idle and they are one command."""
        def done(results: list[Any], seq: int) -> None:
            try:
                self._reply(route, req_id, plan.finish(results))
            except RagixError as err:
                self._reply(route, req_id, error=err)
        owner = (route[0], route[1])
        if now and len(plan.commands) == 1 and self.writer.commit_now(plan.commands, caller.label, done, owner):
            self.committed_inline += 1
            return
        self.writer.submit(plan.commands, caller.label, done, owner=owner)

    def _query(self, route, req_id, op, args, caller, inline: bool = False) -> None:
        """Run a query and answer it. Inline (on the loop thread) it never waits: a min_seq not
        yet applied, a rebuild, or a busy index raise WouldBlock before anything is answered."""
        try:
            if not inline and self.stopping.is_set():  # queued before a stop: answered, not run
                raise Busy("the daemon is shutting down; try again")
            if op != "tail":  # the log itself is whole: only the tables built from it may not be
                self.store.check_complete()
            min_seq = args.pop("min_seq", 0) or 0
            if min_seq > self.store.head_seq + MIN_SEQ_AHEAD:  # no write in sight will reach it
                raise InvalidInput("min_seq", f"{min_seq} is far past the last event of the log "
                                   f"({self.store.head_seq}); pass the seq a write answered with")
            if min_seq > self.memory.applied_seq():
                if inline:
                    raise WouldBlock("min_seq not applied yet")
                # Parked, not waited for here: a seq that is slow to come must not hold a reader.
                job = (route, req_id, op, args, caller, min_seq)
                if self.seq_waiter.park(min_seq, self.settings.min_seq_timeout_s, job):
                    return
                raise Busy("the daemon is shutting down; try again")
            qctx = handlers.QueryContext(self.store.reader(), caller,
                                         {"pub_endpoint": self._static_status()["pub_endpoint"],
                                          "memory": self.memory, "policy": self.memory.policy,
                                          "recall_guard": self.recall_guard,
                                          # bytes of entries a page holds: half an answer's limit
                                          "page_budget": ANSWER_LIMIT_FACTOR * self.settings.max_message_bytes // 2})
            with self._reading(inline):
                if op != "tail":  # again under the gate: a rebuild may have failed while it waited
                    self.store.check_complete()
                result = registry.QUERIES[op](qctx, args)
            self._reply(route, req_id, result)
        except WouldBlock:
            raise
        except RagixError as err:
            self._reply(route, req_id, error=err)
        except OverflowError:  # the schema allows any integer, SQLite holds 64 bits
            self._reply(route, req_id, error=InvalidInput(too_big(args), "integer out of range"))
        except Exception as err:
            log.exception("server.query_failed", op=op)
            self._reply(route, req_id, error=RagixError(f"{op} failed: {type(err).__name__}: {err}"))

    @contextmanager
    def _reading(self, inline: bool) -> Iterator[None]:
        if not self.gate.acquire_shared(blocking=not inline, timeout=REBUILD_READ_WAIT_S):
            if inline:
                raise WouldBlock("a rebuild holds the store")
            raise self.long_ops.busy_rebuilding()
        try:
            if inline:
                with no_waiting():
                    yield
            else:
                yield
        finally:
            self.gate.release_shared()

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
            self.writer.call(self._rebuild, done)
            return
        if op == "verify":
            self._to_readers(self._verify, route, req_id)

    def _wait_step(self, seq: int, timeout: float) -> None:
        """Wait (on the waiter's thread) up to `timeout` for the applied seq to move towards `seq`."""
        for filler in self.memory.backfillers:
            filler.wake()
        if self.store.head_seq < seq:
            self.writer.wait_for_seq(seq, timeout)
        else:  # committed: wait for the settle step (woken at once), back-fills polled
            self.memory.wait_applied(seq, min(timeout, 0.005))

    def _unpark(self, job: tuple) -> None:
        """A parked query's seq is applied: run it on the readers (a stop answers it busy)."""
        route, req_id, op, args, caller, min_seq = job
        self._to_readers(self._query, route, req_id, op, {**args, "min_seq": min_seq}, caller)

    def _expire(self, job: tuple) -> None:
        route, req_id, *_, min_seq = job
        self._reply(route, req_id, error=Timeout(f"seq {min_seq} was not reached in time", head_seq=self.store.head_seq,
                                                 applied_seq=self.memory.applied_seq()))

    def submit_and_wait(self, commands: list[Any], actor: str = "backfill", timeout: float = 60.0) -> list[Any]:
        """Run commands through the writer from another thread and wait for their results."""
        done = threading.Event()
        box: list[Any] = []

        def finished(results: list[Any], seq: int) -> None:
            box.extend(results)
            done.set()
        self.writer.submit(commands, actor, finished)
        if not done.wait(timeout):
            raise Timeout("the writer did not commit in time")
        return box

    def _rebuild(self) -> dict[str, Any]:
        try:
            with self.gate.exclusive(), self.long_ops.tracked("rebuild", self.store.head_seq) as progress:
                return self.memory.rebuild(progress)
        finally:
            self._positions_at = (-1, {})  # read again: a failed rebuild leaves fewer

    def _verify(self, route, req_id) -> None:
        try:
            with self.gate.shared(), self.long_ops.tracked("verify", self.store.head_seq) as progress:
                report = self.store.verify(progress)
            self._reply(route, req_id, report)
        except RagixError as err:
            self._reply(route, req_id, error=err)
        except (OSError, apsw.Error) as err:  # its scratch database cannot be made, a read fails
            log.warning("server.verify_failed", error=str(err))
            self._reply(route, req_id, error=StoreError(f"verify could not run: {err}"))


    def status(self) -> dict[str, Any]:
        # Never wait on the loop thread: while a rebuild runs, its positions are not shown.
        rebuilding = not self.gate.acquire_shared(blocking=False)
        positions: dict[str, int] = {}
        if not rebuilding:
            try:
                positions = self._positions()
            finally:
                self.gate.release_shared()
        incomplete = {"incomplete": self.store.incomplete} if self.store.incomplete else {}
        return {
            **self._static_status(), "rebuilding": rebuilding, **incomplete,
            "uptime_s": round(time.time() - self.started, 3), "head_seq": self.store.head_seq,
            "projectors": positions, "queue_depth": self.writer.depth, "clients": self.clients,
            "served": {"loop": self.served_inline, "readers": self.readers.done,
                       "loop_writes": self.committed_inline}, "work": self.long_ops.under_way(),
        }

    def _positions(self) -> dict[str, int]:
        # Positions move only in the commit that moves the head (a rebuild ends on the head
        # too), so they are read again only when the head has changed.
        head, positions = self._positions_at
        if head != self.store.head_seq:
            head = self.store.head_seq
            positions = self.store.projections.all_positions(self.store.reader())
            self._positions_at = (head, positions)
        return positions

    def _static_status(self) -> dict[str, Any]:
        # Once per settings object (SIGHUP replaces it): the path work costs more than the rest.
        settings, fields = self._static
        if settings is not self.settings:
            fields = {"version": __version__, "pid": os.getpid(), "home": str(self.settings.home),
                      "endpoint": self.settings.endpoint, "pub_endpoint": self.settings.pub_endpoint,
                      "max_message_bytes": self.settings.max_message_bytes}
            self._static = (self.settings, fields)
        return fields

    def _reply(self, route: list[bytes], req_id: Any, result: dict[str, Any] | None = None,
               error: RagixError | None = None) -> None:
        payload = encode_answer(req_id, result, error)
        limit = ANSWER_LIMIT_FACTOR * self.settings.max_message_bytes
        if len(payload) > limit:
            payload = encode_answer(req_id, error=TooLarge(
                f"the answer is {len(payload)} bytes, over the limit of {limit} "
                f"({ANSWER_LIMIT_FACTOR} times max_message_bytes): ask for fewer items at a time",
                size=len(payload), limit=limit))
        if threading.current_thread() is self._loop_thread:
            sock = self.sockets[int(route[0])][0]
            try:
                sock.send_multipart([*route[1:], payload], zmq.NOBLOCK)
            except zmq.ZMQError:
                pass
        else:
            self.readers.answered()
            self.replier.send(route, payload)




def _remove_ipc_files(bound: dict[str, tuple[int, int]]) -> None:
    """A stopped daemon leaves no socket file behind: a client finding none says at once that
    the daemon is not running, where a stale one would make it wait for its time-out. Only the
    sockets it bound itself: a file put at one of those paths since (another daemon's socket,
    after the runtime directory was wiped) is left alone."""
    for path, identity in bound.items():
        try:
            found = os.lstat(path)
            if (found.st_dev, found.st_ino) == identity:
                os.unlink(path)
        except OSError:
            pass




@cache
def _empty_args_valid(op: str) -> bool:
    return contract.first_error(f"ops/{op}#request", {}) is None




def _forbidden(op: str) -> RagixError:
    from .errors import Forbidden
    return Forbidden(f"{op} is for the owner of the daemon only", op=op)


def _drain_wake(wake: Any) -> None:
    """Read the wake-up bytes the signals wrote (their handlers have run already)."""
    try:
        while wake.recv(512):
            pass
    except (BlockingIOError, InterruptedError):
        pass
