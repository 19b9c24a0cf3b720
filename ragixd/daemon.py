"""ragixd's lifecycle: configuration, logging, locks, signals, systemd notify, serve, stop.

Runs in the foreground. SIGTERM/SIGINT finish the group in flight, answer it and close;
SIGHUP reloads the configuration (log level, group size, time-outs).
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import signal
import socket
import stat
import sys
import time
from pathlib import Path

import apsw
import zmq

from . import __version__, config, logs, paths
from .errors import ConfigError, RagixError
from .lockfile import LockFile
from .notify import Notifier
from .server import Server
from .domain.policy import Policy, PolicyConfig, native
from .memory import Memory
from .store.store import remove_verify_leftovers
from .native_cache import DirectoryCache
from .retrieval.hybrid import RecallConfig
from .retrieval.vector_store import layout_from_mapping

log = logs.get("ragixd")

DESCRIPTION = """\
ragixd: the ragix memory daemon. Runs in the foreground, serves ZeroMQ requests from
ragixctl and ragix_client, and owns the event log in HOME/ragix.db.

Settings are resolved flag -> environment (RAGIX_*) -> config file (TOML) -> default.
"""
EPILOG = """\
examples:
  ragixd                                   # defaults: XDG data dir, ipc socket in $XDG_RUNTIME_DIR/ragix
  ragixd --home /tmp/mem --endpoint ipc:///tmp/mem/ragixd.sock
  RAGIX_HOME=~/mem ragixd --log-level debug
then, from another terminal (given the daemon's endpoint, if it is not the default one):
  ragixctl status                          # or: ragixctl --endpoint ipc:///tmp/mem/ragixd.sock status
  ragixctl write --title "Deploy window" --content "Fridays 14-16h" --tags ops
"""


def build_parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog="ragixd", description=DESCRIPTION, epilog=EPILOG,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--home", help="data directory (env RAGIX_HOME; default $XDG_DATA_HOME/ragix)")
    ap.add_argument("--endpoint", help="ipc:// endpoint to bind; its callers get full trust (env "
                    "RAGIX_ENDPOINT; default ipc://$XDG_RUNTIME_DIR/ragix/ragixd.sock, or "
                    "ipc:///tmp/ragix-$UID/ragixd.sock when XDG_RUNTIME_DIR is unset). TCP: set "
                    "tcp_endpoint and CURVE keys in the config file")
    ap.add_argument("--config", help="TOML config file (env RAGIX_CONFIG; default "
                    "$XDG_CONFIG_HOME/ragix/ragixd.toml)")
    ap.add_argument("--log-level", choices=["debug", "info", "warning", "error"],
                    help="env RAGIX_LOG_LEVEL; default info (logs go to stderr)")
    ap.add_argument("--version", action="version", version=f"ragixd {__version__}")
    return ap


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    return build_parser().parse_args(argv)


def _flags(ns: argparse.Namespace) -> dict:
    return {"home": ns.home, "endpoint": ns.endpoint, "config": ns.config, "log_level": ns.log_level}


def _prepare_endpoint(endpoint: str, default: bool) -> LockFile | None:
    """A directory and a lock for an ipc endpoint, so no second daemon steals it (the default
    runtime directory is made private; the socket itself is private by the umask)."""
    if not endpoint.startswith("ipc://"):
        return None
    sock_path = Path(endpoint[len("ipc://"):])
    try:
        paths.ensure_private_dir(sock_path.parent, ours=default)
    except OSError as e:
        raise ConfigError(f"endpoint {endpoint}: cannot use {sock_path.parent} for its socket: "
                          f"{e.strerror or e}", endpoint=endpoint) from None
    lock = LockFile(sock_path.with_name(sock_path.name + ".lock"), f"endpoint {endpoint}").acquire()
    try:
        for path in (sock_path, _ipc_path(paths.pub_endpoint_for(endpoint))):
            _refuse_non_socket(path, endpoint)
    except ConfigError:
        lock.release()
        raise
    return lock


def _ipc_path(endpoint: str | None) -> Path | None:
    return Path(endpoint[len("ipc://"):]) if endpoint and endpoint.startswith("ipc://") else None


def _refuse_non_socket(path: Path | None, endpoint: str) -> None:
    """Binding an ipc endpoint replaces whatever is at its path: a mistyped endpoint naming the
    home's database (`ipc://…/ragix.db`) or any other file would delete it. Only a socket (one
    a stopped daemon left) may be there."""
    if path is None:
        return
    try:
        mode = path.lstat().st_mode
    except FileNotFoundError:
        return
    except OSError as e:
        raise ConfigError(f"endpoint {endpoint}: cannot look at {path}: {e.strerror or e}",
                          endpoint=endpoint) from None
    if not stat.S_ISSOCK(mode):
        what = "a directory" if stat.S_ISDIR(mode) else "a file that is not a socket"
        raise ConfigError(f"endpoint {endpoint}: {path} is {what}; binding there would replace it, "
                          "so the daemon does not start (choose a socket path of its own)",
                          endpoint=endpoint, path=str(path))


def run(settings: config.Settings, notifier: Notifier, flags: dict) -> None:
    paths.make_home(settings.home)
    home_lock = LockFile(settings.home / "ragixd.lock", f"home {settings.home}").acquire()
    try:
        endpoint_lock = _prepare_endpoint(settings.endpoint, settings.sources.get("endpoint") == "default")
    except ConfigError:
        home_lock.release()
        raise
    leftovers = remove_verify_leftovers(settings.home)  # a verify cut short by a crash
    if leftovers:
        log.info("daemon.removed_verify_leftovers", files=leftovers)
    # Opening replays what the projections and the vector index have not seen (all of it after
    # a crash during a rebuild): minutes on a large log, so systemd is asked for more time.
    # numba keeps the vector scan's compiled loops here (vectors/kernels.py), a directory the
    # systemd unit leaves writable.
    os.environ.setdefault("NUMBA_CACHE_DIR", str(paths.cache_dir() / "numba"))
    with notifier.extending():
        memory = _open_memory(settings)
        # Before READY: the policy's native databases load from the cache directory (kept there
        # for the next start). Those it lacks (a new install, new rules) are compiled on a thread
        # of their own while the daemon serves, the pure-Python gates deciding meanwhile with
        # the same verdicts: a first start is not held for the compile's seconds.
        cache = DirectoryCache(paths.cache_dir() / "policy")
        native.use_cache(cache)
        warm_start = time.monotonic()
        memory.policy.warm(background=True, compiled=lambda seconds: log.info(
            "daemon.policy_compiled", prefilter=memory.policy.native_prefilter(), seconds=round(seconds, 1)))
        prefilter = memory.policy.native_prefilter()
        (log.warning if prefilter == "failing" else log.info)(
            "daemon.policy_ready", rules=len(memory.policy.rules), prefilter=prefilter,
            seconds=round(time.monotonic() - warm_start, 3))
        pruned = cache.prune()  # entries of rule sets no start has used for a month
        if pruned:
            log.info("daemon.policy_cache_pruned", files=pruned)
    store = memory.store
    server = Server(settings, memory)
    state = {"reload": False}

    def on_stop(signum, _frame):
        log.info("daemon.signal", signal=signal.Signals(signum).name)
        server.stop()

    def on_hup(_signum, _frame):
        state["reload"] = True

    def tick():
        if notifier.watchdog_due():
            notifier.ping()
        if state["reload"]:
            state["reload"] = False
            _reload(server, flags, notifier)

    signal.signal(signal.SIGTERM, on_stop)
    signal.signal(signal.SIGINT, on_stop)
    signal.signal(signal.SIGHUP, on_hup)
    server.tick = tick
    wake = _wake_on_signals()
    server.wake = wake[0] if wake else None
    try:
        try:
            server.bind()
        except zmq.ZMQError as err:  # a port taken, a directory where the socket goes, …
            server.remove_socket_files()  # what was bound before the failure
            raise ConfigError(f"cannot listen on {server.binding or settings.endpoint}: {err.strerror}",
                              endpoint=server.binding or settings.endpoint) from None
        notifier.ready(f"serving {settings.endpoint}, head seq {store.head_seq}")
        log.info("daemon.ready", version=__version__, home=str(settings.home), head_seq=store.head_seq)
        server.serve_forever()
    finally:
        notifier.stopping()
        log.info("daemon.stopping")
        memory.close()
        if endpoint_lock:
            endpoint_lock.release()
        home_lock.release()
        _stop_waking(wake)
        log.info("daemon.stopped")


def _open_memory(settings: config.Settings) -> Memory:
    """The home's Memory, or one line saying why it cannot be opened (a file where a
    directory of it should be, a database on a read-only mount), not a traceback."""
    try:
        return Memory(settings.home, synchronous=settings.synchronous, embedders=settings.embedders,
                      recall=RecallConfig.from_mapping(settings.recall),
                      policy=Policy(PolicyConfig.from_dict(settings.policy)),
                      vector_layout=layout_from_mapping(dict(settings.vectors)))
    except OSError as err:
        where = f" ({err.filename})" if err.filename else ""
        raise ConfigError(f"home {settings.home}: cannot open it: {err.strerror or err}{where}",
                          path=str(settings.home)) from None
    except apsw.Error as err:
        raise ConfigError(f"home {settings.home}: cannot open its database: {err}",
                          path=str(settings.home)) from None


def _reload(server: Server, flags: dict, notifier: Notifier) -> None:
    """Apply the config file's tunable settings, all of them or none: a file that fails
    (unreadable, a bad value, an embedder that cannot be built) leaves the old settings in
    force and says why in the log. Nothing it raises may reach the serving loop."""
    notifier.reloading()
    try:
        _apply(server, config.resolve(flags))
    except Exception as err:  # noqa: BLE001 - a reload never stops the daemon
        message = err.message if isinstance(err, RagixError) else f"{type(err).__name__}: {err}"
        log.error("daemon.reload_failed", error=message, kept="the settings in force before the reload")
        notifier.ready("reload failed; old settings kept")
        return
    notifier.ready("reloaded")


def _apply(server: Server, fresh: config.Settings) -> None:
    # The embedders first: building them is what may still fail, and nothing is changed yet.
    if tuple(fresh.embedders) != tuple(server.settings.embedders):
        server.memory.reconfigure(fresh.embedders)
    # Home and endpoints are bound: only the tunable settings change while running.
    tunable = {k: getattr(fresh, k) for k in ("log_level", "max_group", "min_seq_timeout_s",
                                               "max_message_bytes", "trust", "embedders")}
    if tunable["max_message_bytes"] > server.transport_max:
        log.warning("daemon.max_message_bytes_at_restart", asked=tunable["max_message_bytes"],
                    kept=server.settings.max_message_bytes,
                    why="the sockets were bound with a smaller cap; restart to raise it")
        tunable["max_message_bytes"] = server.settings.max_message_bytes
    # What a reload cannot change while running: said, not silently left as it was.
    bound = sorted(k for k in RESTART_SETTINGS if getattr(fresh, k) != getattr(server.settings, k))
    server.settings = dataclasses.replace(server.settings, **tunable)
    server.writer.max_group = fresh.max_group
    logs.configure(fresh.log_level)
    log.info("daemon.reloaded", **{k: v for k, v in tunable.items() if k not in ("trust", "embedders")})
    if bound:
        log.warning("daemon.reload_needs_restart", settings=bound,
                    why="these are bound when the daemon starts: restart it to apply them")


# Settings a SIGHUP does not apply: the home and sockets are open, the reader pool and the
# write connection made.
RESTART_SETTINGS = ("home", "endpoint", "tcp_endpoint", "curve_secret_key_file", "readers", "synchronous")



def _wake_on_signals() -> tuple[socket.socket, socket.socket, int] | None:
    """A socket pair each signal writes a byte to (signal.set_wakeup_fd), and the wake-up fd it
    replaced: the server loop polls the read end beside its sockets. None where that cannot be
    set up (not the main thread)."""
    try:
        read_end, write_end = socket.socketpair()
    except OSError:
        return None
    try:
        read_end.setblocking(False)
        write_end.setblocking(False)
        previous = signal.set_wakeup_fd(write_end.fileno(), warn_on_full_buffer=False)
    except (OSError, ValueError):
        read_end.close()
        write_end.close()
        return None
    return read_end, write_end, previous


def _stop_waking(wake: tuple[socket.socket, socket.socket, int] | None) -> None:
    if wake is not None:
        read_end, write_end, previous = wake
        signal.set_wakeup_fd(previous)
        read_end.close()
        write_end.close()


def main(argv: list[str] | None = None) -> int:
    ns = parse_args(argv)
    # The memories, the log and the sockets are the user's alone (as UMask=0077 in the unit).
    os.umask(0o077)
    flags = _flags(ns)
    logs.configure(ns.log_level or "info")
    try:
        settings = config.resolve(flags)
        logs.configure(settings.log_level)
        run(settings, Notifier(), flags)
    except RagixError as err:
        log.error("daemon.failed", error=err.message, code=err.code)
        print(f"ragixd: {err.message}", file=sys.stderr)
        return 2
    return 0


def entry() -> None:
    """The `ragixd` command: main(), then the process ends at once. Everything the daemon holds
    is closed by then (the store, its locks, its sockets, its log lines flushed below); what
    is skipped is the interpreter's own teardown of its modules, ~80 ms of each stop here. A
    failure still ends as Python ends it (its traceback, exit 1)."""
    code = main()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError, AttributeError):  # closed, or gone
            pass
    os._exit(code)


if __name__ == "__main__":
    entry()
