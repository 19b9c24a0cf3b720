"""The client: one method per op of the catalog, request ids, time-outs, reconnection, and the
server's error codes raised as the same exception classes. Safe to share between threads:
each thread talks through a DEALER socket of its own."""

from __future__ import annotations

import itertools
import os
import socket
import stat
import threading
import time
import weakref
from typing import Any, Callable, Iterator

import msgpack
import zmq
from zmq.utils.monitor import recv_monitor_message

from ragixd import paths
from ragixd.errors import (Busy, ConfigError, Forbidden, InvalidInput, ProtocolError, RagixError, Timeout, TooLarge,
                           Unavailable, from_wire)
from ragixd.ops.catalog import BY_NAME, CATALOG, COMMAND, PROTOCOL_VERSION

# The argument a method takes positionally, for ops that have an obvious one.
POSITIONAL = {
    "read": "ids", "search": "query", "recall": "query", "timeline": "anchor", "history": "id", "update": "id",
    "archive": "id", "palace.get": "id", "palace.assign": "id", "palace.list": "path",
    "entities": "query",
}


# The daemon's default request size cap; a bigger request makes the client ask the daemon
# for its own cap (status) before sending, so that it is refused here with a clear error
# instead of being dropped by the transport.
DEFAULT_MAX_MESSAGE_BYTES = 4 * 1024 * 1024
# Above this size a request is checked against the daemon's own cap (asked once): the daemon
# answers `too_large` up to twice its cap, but its socket drops anything past twice the cap
# plus 64 KiB unanswered, and a cap may be set far below the default.
CHECKED_ABOVE = 64 * 1024

# How often a call that waits for its answer checks that an ipc daemon is still there.
ALIVE_CHECK_S = 1.0

# What a CURVE client's socket monitor reports when the daemon refuses the handshake: a client
# key it does not admit (AUTH: the ZAP handler said no), or a server key that is not the
# daemon's (the daemon cannot read the hello and drops the connection). ZeroMQ itself would
# retry quietly until the time-out.
HANDSHAKE_REFUSED = {
    zmq.EVENT_HANDSHAKE_FAILED_AUTH: "the daemon does not admit this client's key (list its public key "
                                     "under [trust] in the daemon's config)",
    zmq.EVENT_HANDSHAKE_FAILED_NO_DETAIL: "the server key is most likely not this daemon's public key "
                                          "(check --server-key), or this client's key is not in its [trust]",
    zmq.EVENT_HANDSHAKE_FAILED_PROTOCOL: "the server key is most likely not this daemon's public key "
                                         "(check --server-key), or this client's key is not in its [trust]",
}


def check_endpoint(endpoint: str) -> str:
    """The endpoint, if it is a ZeroMQ address ragix serves on; else a ConfigError."""
    if paths.transport(endpoint) is not None:
        return endpoint
    raise ConfigError(f"endpoint {endpoint!r} is not an ipc:///path/to/ragixd.sock or "
                      "tcp://HOST:PORT address", endpoint=endpoint)


class Client:
    def __init__(self, endpoint: str | None = None, timeout: float = 30.0, *,
                 server_public_key: bytes | None = None, public_key: bytes | None = None,
                 secret_key: bytes | None = None, context: zmq.Context | None = None) -> None:
        endpoint = endpoint or os.environ.get("RAGIX_ENDPOINT") or paths.default_endpoint()
        if not isinstance(endpoint, str):
            raise ConfigError(f"endpoint must be a string such as ipc:///path/to/ragixd.sock, not {endpoint!r}")
        self.endpoint = check_endpoint(endpoint)
        if not _positive(timeout):
            raise ConfigError(f"timeout must be a positive number of seconds, not {timeout!r}")
        self.timeout = timeout
        self._max_message: int | None = None
        self.curve = (server_public_key, public_key, secret_key) if server_public_key else None
        for name, key in zip(("server_public_key", "public_key", "secret_key"), self.curve or ()):
            if not (isinstance(key, bytes) and len(key) in (32, 40)):  # raw, or Z85 text as bytes
                raise ConfigError(f"{name} must be a CURVE key: 32 bytes, or its 40-character Z85 text as bytes "
                                  f"(ragixd.curve.load_keys reads a key file), not {_kind(key)}")
        if self.endpoint.startswith("tcp://") and self.curve is None:
            raise ConfigError(f"{self.endpoint} is a CURVE endpoint: give the daemon's public key "
                              "(ragixctl --server-key NAME.key, or server_public_key=) and this client's "
                              "key pair (--client-key NAME.key_secret)", endpoint=self.endpoint)
        self.ctx = context or zmq.Context.instance()
        self._ids = itertools.count(1)
        self._fresh_sockets()

    def _fresh_sockets(self) -> None:
        """No socket yet: each thread opens its own at its first call."""
        self._pid = os.getpid()
        self._local = threading.local()
        self._conns: weakref.WeakSet[_Conn] = weakref.WeakSet()  # every thread's, for close()
        self._lock = threading.Lock()

    def _check_fork(self) -> None:
        """In a child process after fork(), the parent's context and sockets are unusable (their
        I/O thread stayed in the parent: a call on them hung for ever, past any time-out). The
        child forgets them without closing them (pyzmq does nothing for a socket of another
        process; the parent's stay the parent's) and opens its own."""
        if os.getpid() != self._pid:
            self.ctx = zmq.Context.instance()  # pyzmq makes a new one in a new process
            self._fresh_sockets()

    # -- transport ---------------------------------------------------------------------------

    def _conn(self) -> "_Conn":
        conn = getattr(self._local, "conn", None)
        if conn is None:
            self._check_listening()
            sock = self.ctx.socket(zmq.DEALER)
            sock.setsockopt(zmq.LINGER, 0)
            monitor = None
            if self.curve:
                server_key, public, secret = self.curve
                sock.curve_serverkey, sock.curve_publickey, sock.curve_secretkey = server_key, public, secret
                events = sum(HANDSHAKE_REFUSED)  # distinct bits: their sum is their union
                monitor = sock.get_monitor_socket(events)
            sock.connect(self.endpoint)
            conn = self._local.conn = _Conn(sock, monitor)
            with self._lock:
                self._conns.add(conn)
        return conn

    def _reset(self) -> None:
        conn = getattr(self._local, "conn", None)
        if conn is not None:
            self._local.conn = None
            conn.close()

    def call(self, op: str, args: dict[str, Any] | None = None, timeout: float | None = None,
             keep_waiting: Callable[[], bool] | None = None) -> dict[str, Any]:
        """Send one request and wait for its answer; raise the server's error as an exception.
        When the time-out runs out and `keep_waiting()` says the daemon is still at the work
        (a rebuild reporting progress), wait another time-out."""
        self._check_fork()
        self._check_socket_file()
        req_id = next(self._ids)
        message = _encode({"v": PROTOCOL_VERSION, "id": req_id, "op": op, "args": args or {}})
        if timeout is not None and not _positive(timeout):
            raise ConfigError(f"timeout must be a positive number of seconds, not {timeout!r}")
        if len(message) > CHECKED_ABOVE and op != "status":
            self._check_size(op, len(message))
        while True:
            conn = self._conn()
            with self._lock:
                if conn in self._conns:  # not closed by close() in another thread meanwhile
                    conn.busy = True
                    break
            if getattr(self._local, "conn", None) is conn:
                self._local.conn = None
        try:
            return self._exchange(conn, op, req_id, message, timeout, keep_waiting)
        finally:
            with self._lock:
                conn.busy = False
                doomed = conn.doomed
            if doomed:  # close() ran in another thread during the call: closed now, by its owner
                if getattr(self._local, "conn", None) is conn:
                    self._local.conn = None
                conn.close()

    def _exchange(self, conn: "_Conn", op: str, req_id: int, message: bytes,
                  timeout: float | None, keep_waiting: Callable[[], bool] | None = None) -> dict[str, Any]:
        sock = conn.sock
        span = self.timeout if timeout is None else timeout
        deadline = time.monotonic() + span
        try:
            sock.send(message, zmq.NOBLOCK)
        except zmq.Again:
            self._reset()
            raise Unavailable(f"cannot send to ragixd at {self.endpoint}") from None
        while True:
            remaining = deadline - time.monotonic()
            # In slices, so that a daemon that dies while we wait is noticed, not waited out.
            wait = min(remaining, ALIVE_CHECK_S)
            ready = dict(conn.poller.poll(int(wait * 1000) + 1)) if remaining > 0 else {}
            if conn.monitor is not None and conn.monitor in ready:
                self._check_handshake(conn, op)
            if sock not in ready and not ready and remaining > ALIVE_CHECK_S:
                self._check_alive(op)
                continue
            if sock not in ready and not ready and keep_waiting is not None and keep_waiting():
                deadline = time.monotonic() + span
                continue
            if sock not in ready:
                if ready:
                    continue  # a monitor event that is no refusal
                # A fresh socket next time: a late answer must not be taken for another's.
                self._reset()
                raise Timeout(f"no answer from ragixd at {self.endpoint} for {op} ({self._timeout_hint(op)})", op=op)
            answer = self._decode(sock.recv())
            if answer.get("id") != req_id and answer.get("id") is not None:
                continue  # a stale answer to an earlier request that timed out
            if answer.get("ok"):
                return answer.get("result") or {}
            raise from_wire(answer.get("error") or {})

    def _check_handshake(self, conn: "_Conn", op: str) -> None:
        """A refused CURVE handshake is said at once: there will never be an answer. It is a
        Timeout (no answer, exit 3), as it was when the client waited for it."""
        event = recv_monitor_message(conn.monitor)["event"]
        if event in HANDSHAKE_REFUSED:
            self._reset()
            raise Timeout(f"the CURVE handshake with ragixd at {self.endpoint} was refused for {op}: "
                          f"{HANDSHAKE_REFUSED[event]}", op=op, handshake="refused")

    def _check_socket_file(self) -> None:
        """Fail at once, not after the time-out, when an ipc endpoint has no socket at all, or
        names something that is no socket (a directory, a plain file: a wrong --endpoint)."""
        if not self.endpoint.startswith("ipc://"):
            return
        path = self.endpoint[len("ipc://"):]
        try:
            mode = os.stat(path).st_mode
        except OSError:
            mode = None
        if mode is not None and not stat.S_ISSOCK(mode):
            what = "a directory" if stat.S_ISDIR(mode) else "a regular file" if stat.S_ISREG(mode) else "a file"
            raise ConfigError(f"endpoint {self.endpoint} is not a socket: {path} is {what}; give the daemon's "
                              f"socket file (by default {paths.default_endpoint()})", endpoint=self.endpoint)
        if mode is None:
            raise Unavailable(f"ragixd is not running at {self.endpoint} (no socket there); "
                              "start it with `ragixd` or `make run` (a daemon just started opens its "
                              "socket within a second or two), or, if it runs on another socket, give "
                              "that one (--endpoint, or RAGIX_ENDPOINT)",
                              endpoint=self.endpoint)

    def _check_listening(self) -> None:
        """An ipc socket file that nobody listens on (a daemon that was killed), or a TCP port
        that refuses connections (no daemon there), is said at once: ZeroMQ would retry quietly
        until the time-out."""
        if self.endpoint.startswith("tcp://"):
            self._check_port()
            return
        if not self.endpoint.startswith("ipc://"):
            return
        path = self.endpoint[len("ipc://"):]
        probe = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        probe.settimeout(1.0)  # a listener with a full backlog: let ZeroMQ wait instead
        try:
            probe.connect(path)
        except FileNotFoundError:
            pass  # said by _check_socket_file; it may appear before the time-out
        except ConnectionRefusedError:
            raise Unavailable(f"ragixd is not running at {self.endpoint} (the socket file is left from "
                              "a daemon that stopped); start it with `ragixd` or `make run`",
                              endpoint=self.endpoint) from None
        except OSError:
            pass  # anything else (permissions, path too long): let ZeroMQ report it
        finally:
            probe.close()

    def _check_port(self) -> None:
        host, _, port = self.endpoint[len("tcp://"):].rpartition(":")
        host = host[1:-1] if host.startswith("[") and host.endswith("]") else host
        try:
            probe = socket.create_connection((host, int(port)), timeout=1.0)
        except ConnectionRefusedError:
            raise Unavailable(f"ragixd is not running at {self.endpoint} (the port refuses connections); "
                              "start the daemon that serves it (its tcp_endpoint in ragixd.toml), or check "
                              "the address", endpoint=self.endpoint) from None
        except (OSError, ValueError):
            return  # anything else (a name that does not resolve, a slow network): let ZeroMQ report it
        probe.close()

    def _timeout_hint(self, op: str) -> str:
        """What a time-out leaves the caller to check: the daemon and its keys, and for a command
        that it may have been done all the same (a busy daemon commits it after the time-out)."""
        hint = ("is the daemon running, and are --server-key and --client-key the right keys?"
                if self.curve else "is the daemon running? try `ragixd` or `make run`")
        spec = BY_NAME.get(op)
        if spec is None or spec.kind == COMMAND:
            hint += "; whether it was done is unknown: check before sending it again"
        return hint

    def _check_alive(self, op: str) -> None:
        """While an answer is awaited: an ipc socket file that nobody listens on any more means
        the daemon died (killed, crashed) and will never answer; said at once. A daemon that
        stops cleanly removes its socket first and answers what it holds (`busy`), so a socket
        file that is gone is waited on as before."""
        try:
            self._check_listening()
        except Unavailable:
            self._reset()
            spec = BY_NAME.get(op)
            unknown = ("; whether it was done is unknown: start the daemon again and check"
                       if spec is None or spec.kind == COMMAND else "; start it again with `ragixd`")
            raise Unavailable(f"ragixd at {self.endpoint} stopped before answering {op} (killed or "
                              f"crashed){unknown}", endpoint=self.endpoint, op=op) from None

    def _check_size(self, op: str, size: int) -> None:
        if self._max_message is None:
            try:
                self._max_message = int(self.call("status").get("max_message_bytes") or DEFAULT_MAX_MESSAGE_BYTES)
            except Forbidden:
                # status is the owner's: below full trust the limit is not known here. The daemon
                # answers too_large itself up to twice its limit; past twice the default, the
                # transport of a daemon on its defaults would drop the request unanswered.
                self._max_message = -1
        if self._max_message < 0:
            if size > 2 * DEFAULT_MAX_MESSAGE_BYTES:
                raise TooLarge(f"{op} request of {size} bytes is over twice the daemon's default limit of "
                               f"{DEFAULT_MAX_MESSAGE_BYTES} bytes", size=size, limit=DEFAULT_MAX_MESSAGE_BYTES)
            return
        if size > self._max_message:
            raise TooLarge(f"{op} request of {size} bytes is over the daemon's limit of {self._max_message} "
                           "bytes (max_message_bytes in its config)", size=size, limit=self._max_message)

    @staticmethod
    def _decode(data: bytes) -> dict[str, Any]:
        try:
            answer = msgpack.unpackb(data, raw=False, strict_map_key=False)
        except Exception as e:
            raise ProtocolError(f"answer is not msgpack: {e}") from None
        if not isinstance(answer, dict):
            raise ProtocolError("answer is not a map")
        return answer

    def subscribe(self, types: tuple[str, ...] = ("",), timeout: float | None = None) -> Iterator[dict[str, Any]]:
        """Committed events as the daemon publishes them (blocks; stops after `timeout` idle)."""
        sock, _head = self._subscriber(types)
        try:
            while True:
                if not sock.poll(None if timeout is None else int(timeout * 1000)):
                    return
                _topic, body = sock.recv_multipart()
                yield msgpack.unpackb(body, raw=False, strict_map_key=False)
        finally:
            sock.close()

    def _subscriber(self, types: tuple[str, ...]) -> tuple[zmq.Socket, int]:
        """A SUB socket connected to the daemon's event stream, subscribed to `types`, and the
        head seq the daemon reported before it connected."""
        try:
            status = self.call("status")
            pub = status.get("pub_endpoint")
        except Forbidden:  # said for what was asked, not for the status call behind it
            raise Forbidden("the event stream (tail) is for the owner of the daemon only", op="tail") from None
        if not pub:
            raise Unavailable("the daemon publishes no event stream")
        sock = self.ctx.socket(zmq.SUB)
        sock.setsockopt(zmq.LINGER, 0)
        for prefix in types:
            sock.setsockopt(zmq.SUBSCRIBE, prefix.encode())
        sock.connect(pub)
        return sock, int(status.get("head_seq") or 0)

    def follow(self, after: int | None = None, idle: float | None = None,
               check_every: float = 1.0,
               on_pause: Callable[[RagixError | None], None] | None = None,
               until: Callable[[], bool] | None = None) -> Iterator[dict[str, Any]]:
        """Every committed event after seq `after` (None: from now on), in seq order, each
        once: the stored ones first, then the live stream, with what the stream misses (a
        subscription not yet in effect, events dropped for a slow reader) read back from the
        log (follow.py). Stops after `idle` seconds without an event (None: never).

        A daemon that stops answering (restarted, stopped for a while) is waited for, not an
        error: the log is read again every `check_every` seconds until it answers, and the
        stream resumes where it was. `on_pause(error)` is told when the waiting starts and
        `on_pause(None)` when the daemon answers again. `until()`, asked whenever the stream
        has been quiet for `check_every` seconds, stops it when it says True (ragixctl tail:
        its reader went away)."""
        from .follow import in_order

        sock, head = self._subscriber(("",))  # subscribed before the log is read: nothing falls between
        try:
            start = head if after is None else after
            given = [time.monotonic()]

            def quiet_for() -> float:
                return time.monotonic() - given[0]

            def over() -> bool:
                return (idle is not None and quiet_for() >= idle) or (until is not None and until())

            def live() -> Iterator[dict[str, Any] | None]:
                while True:
                    if over():
                        return
                    wait = check_every if idle is None else min(check_every, idle - quiet_for())
                    if sock.poll(max(1, int(wait * 1000))):
                        _topic, body = sock.recv_multipart()
                        yield msgpack.unpackb(body, raw=False, strict_map_key=False)
                    else:
                        yield None

            def fetch(seq: int) -> list[dict[str, Any]]:
                paused = False
                while True:
                    try:
                        events = self.call("tail", {"after": seq, "limit": 1000},
                                           timeout=min(self.timeout, 10.0))["events"]
                    except (Unavailable, Timeout, Busy) as err:
                        # Not answered (or shutting down): the events after `seq` cannot be known yet, and a later
                        # live one must not be given past them, so this read waits.
                        if not paused and on_pause is not None:
                            on_pause(err)
                        paused = True
                        if over():
                            raise _FollowIdle from None
                        time.sleep(check_every)
                        continue
                    if paused and on_pause is not None:
                        on_pause(None)
                    return events

            try:
                for event in in_order(live(), fetch, start):
                    given[0] = time.monotonic()
                    yield event
            except _FollowIdle:
                return
        finally:
            sock.close()

    def close(self) -> None:
        """Close every thread's socket; a later call opens a new one. A socket in the middle of
        another thread's call is closed by that thread when its call ends (a ZeroMQ socket is
        not to be closed under the thread using it): the call is answered or times out as usual."""
        self._check_fork()  # a child's close() leaves the parent's sockets to the parent
        with self._lock:
            conns = list(self._conns)
            self._conns.clear()
            idle = [conn for conn in conns if not conn.busy]
            for conn in conns:
                conn.doomed = conn.busy
        for conn in idle:
            conn.close()
        self._local = threading.local()

    def __enter__(self) -> "Client":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


class _FollowIdle(Exception):
    """follow(): the daemon stayed unreachable for longer than the idle time (or until() said stop)."""


class _Conn:
    """One thread's DEALER socket, its poller and its CURVE monitor, if any. Only the thread's
    own local storage holds it: when the thread ends, the socket is closed (no socket or file
    descriptor is left behind by short-lived threads); close() closes it earlier."""

    __slots__ = ("sock", "monitor", "poller", "close", "busy", "doomed", "__weakref__")

    def __init__(self, sock: zmq.Socket, monitor: zmq.Socket | None) -> None:
        self.sock, self.monitor = sock, monitor
        self.busy = False  # its thread is in a call
        self.doomed = False  # Client.close() ran during that call: its thread closes it after
        # One poller per socket: sock.poll() builds a new one each call (~5 us a request).
        self.poller = zmq.Poller()
        self.poller.register(sock, zmq.POLLIN)
        if monitor is not None:
            self.poller.register(monitor, zmq.POLLIN)
        self.close = weakref.finalize(self, _close, sock, monitor, os.getpid())  # runs once, whoever calls first


def _close(sock: zmq.Socket, monitor: zmq.Socket | None, pid: int) -> None:
    if os.getpid() != pid:  # a child after fork() forgetting its parent's socket: the parent's to close
        return
    if monitor is not None:
        sock.disable_monitor()
        monitor.close(linger=0)
    sock.close(linger=0)


def _kind(value: Any) -> str:
    """What a value is, said without its contents (a secret key is never repeated)."""
    return f"{len(value)} bytes" if isinstance(value, bytes) else "None" if value is None else type(value).__name__


def _positive(timeout: Any) -> bool:
    """A time-out in seconds: a number above 0 (a bool is no number of seconds; NaN is not above 0)."""
    return isinstance(timeout, (int, float)) and not isinstance(timeout, bool) and timeout > 0


def _encode(request: dict[str, Any]) -> bytes:
    try:
        return msgpack.packb(request, use_bin_type=True)
    except UnicodeEncodeError as e:  # lone surrogates: bytes that were not UTF-8, decoded leniently
        raise InvalidInput("text", f"is not valid UTF-8 (near {e.object[max(0, e.start - 20):e.start]!r})") from None
    except OverflowError:
        field, value = _too_big(request.get("args"), "args") or ("args", None)
        raise InvalidInput(field, f"{value} is out of range: integers are sent in 64 bits") from None
    except (TypeError, ValueError) as e:
        raise InvalidInput("args", f"cannot be sent: {e}") from None


def _too_big(value: Any, where: str) -> tuple[str, int] | None:
    """The first integer msgpack cannot send (past 64 bits), and where it is ('args/k')."""
    if isinstance(value, int) and not isinstance(value, bool) and not -2**63 <= value < 2**64:
        return where.removeprefix("args/"), value
    pairs = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for key, inner in pairs:
        found = _too_big(inner, f"{where}/{key}")
        if found:
            return found
    return None


def _make_method(op: str, summary: str):
    positional = POSITIONAL.get(op)

    def method(self: Client, *args: Any, timeout: float | None = None, **kwargs: Any) -> dict[str, Any]:
        if args:
            if positional is None or len(args) > 1 and positional != "ids":
                raise TypeError(f"{op} takes keyword arguments only")
            if positional != "ids":
                kwargs[positional] = args[0]
            elif len(args) == 1 and isinstance(args[0], (list, tuple)):  # read(ids) as well as read(*ids)
                kwargs[positional] = list(args[0])
            else:
                kwargs[positional] = list(args)
        return self.call(op, kwargs, timeout=timeout)

    method.__name__ = op.replace(".", "_")
    method.__doc__ = f"{summary}\n\nSends op {op!r}; see schemas/ops/{op}.json for its arguments."
    return method


for _spec in CATALOG:
    setattr(Client, _spec.method, _make_method(_spec.name, _spec.summary))
