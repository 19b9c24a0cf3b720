"""ragixctl subcommands that run locally (init, keys, service) and the event tail."""

from __future__ import annotations

import argparse
import json
import os
import select
import sys
from pathlib import Path

from ragixd import paths
from ragixd.config import resolve as resolve_config
from ragixd.errors import ConfigError

from . import render
from .client import Client

CONFIG_TEMPLATE = """\
# ragixd configuration. Every key can also be given as a flag or as RAGIX_<KEY>.
{home}
{endpoint}
# log_level = "info"            # debug, info, warning, error
# max_message_bytes = 4194304   # requests over this size are refused
# max_group = 128               # commands per group commit (32 while other clients wait)
# readers = 4                   # reader threads
# synchronous = "FULL"          # FULL: every acknowledged write is fsynced
# min_seq_timeout_s = 10
# tcp_endpoint = "tcp://127.0.0.1:5710"       # optional, CURVE-authenticated
# curve_secret_key_file = "~/.config/ragix/keys/server.key_secret"
#
# [trust]                        # CURVE client public key -> full, inner, familiar, public
# "<client public key from ragixctl keys>" = "inner"
"""


def _setting(key: str, value: str, given: bool) -> str:
    """A config line: a real setting when the user gave the value, else the default commented."""
    return f"{'' if given else '# '}{key} = {json.dumps(value)}"  # a JSON string is a TOML string


def init(ns: argparse.Namespace) -> int:
    given_endpoint = getattr(ns, "endpoint", None)
    if given_endpoint and not given_endpoint.startswith("ipc://"):
        raise ConfigError(f"init --endpoint {given_endpoint}: the daemon's own endpoint is an ipc:// socket "
                          "(TCP is tcp_endpoint, with CURVE keys)", endpoint=given_endpoint)
    if given_endpoint and not given_endpoint[len("ipc://"):].startswith("/"):
        # written as an absolute path, as --home is: the daemon may start in another directory
        given_endpoint = "ipc://" + os.path.abspath(os.path.expanduser(given_endpoint[len("ipc://"):]))
    home = Path(ns.home or os.environ.get("RAGIX_HOME") or paths.data_home()).expanduser().absolute()
    config_given = ns.config or os.environ.get("RAGIX_CONFIG")
    config = Path(config_given or paths.config_file()).expanduser().absolute()
    endpoint = given_endpoint or os.environ.get("RAGIX_ENDPOINT") or paths.default_endpoint()
    if config.exists() and not config.is_file():
        raise ConfigError(f"init --config {config}: that is a directory, not a config file", config=str(config))
    paths.check_home(home)
    wrote = False
    try:  # the config first: a path that cannot hold it leaves no home directory behind
        if not config.exists():
            config.parent.mkdir(parents=True, exist_ok=True)
            config.write_text(CONFIG_TEMPLATE.format(home=_setting("home", str(home), bool(ns.home)),
                                                     endpoint=_setting("endpoint", endpoint, bool(given_endpoint))))
            wrote = True
    except OSError as err:
        raise ConfigError(f"init: cannot create {err.filename or config}: {err.strerror or err}") from None
    # What the daemon will run with, read back the way ragixd reads it (a kept file may differ):
    # that home is the one made, not a given one the daemon would not use.
    try:
        settings = resolve_config({"config": str(config)})
        paths.make_home(settings.home)
    except ConfigError:
        if wrote:  # a failed init leaves nothing behind, the file it wrote included
            config.unlink(missing_ok=True)
        raise
    result = {"home": str(settings.home), "config": str(config), "config_written": wrote,
              "endpoint": settings.endpoint}
    start = "ragixd" + (f" --config {config}" if config_given else "")
    for name, given, used in (("home", ns.home and str(home), result["home"]), ("endpoint", given_endpoint, result["endpoint"])):
        if not given or used == given:
            continue
        if os.environ.get(f"RAGIX_{name.upper()}"):  # flag > environment > config file
            why = f"RAGIX_{name.upper()} in the environment overrides the {name} given ({given})"
        else:  # an existing file is never overwritten, so the value given was not written
            why = (f"the {name} given ({given}) is not written: the config file {config} already exists "
                   f"and was kept as it was (edit it, or give --config NEW.toml to write another)")
        print(f"ragixctl: {why}: ragixd would use {used}", file=sys.stderr)
    if ns.json:
        print(render.as_json(result))
    else:
        print(f"data home:   {result['home']}")
        print(f"config file: {config}" + ("  (written)" if wrote else "  (kept as it was)"))
        print(f"endpoint:    {result['endpoint']}")
        # ragixctl reads no config file: an endpoint other than the one it would use is named.
        mine = os.environ.get("RAGIX_ENDPOINT") or paths.default_endpoint()
        status = "ragixctl status" if result["endpoint"] == mine else f"ragixctl --endpoint {result['endpoint']} status"
        print(f"next: start the daemon with `{start}`, then `{status}`")
    return 0


def keys(ns: argparse.Namespace) -> int:
    from ragixd.curve import make_keys
    # Absolute: the paths printed go into a config file the daemon reads from another directory.
    directory = Path(ns.dir or paths.config_file().parent / "keys").expanduser().absolute()
    try:
        public, secret = make_keys(directory, ns.name, force=ns.force)
    except OSError as err:
        raise ConfigError(f"keys: cannot write the key pair under {directory}: {err.strerror or err}") from None
    text = public.read_text()
    key = next((line.split("=", 1)[1].strip().strip('"') for line in text.splitlines()
                if line.strip().startswith("public-key")), "")
    result = {"public_key_file": str(public), "secret_key_file": str(secret), "public_key": key}
    if ns.json:
        print(render.as_json(result))
    else:
        print(f"public key:  {key}\npublic file: {public}\nsecret file: {secret} (keep private)")
        if ns.name == "server":  # the name the README gives the daemon's own pair
            print(f'for the daemon, in its config:  curve_secret_key_file = "{secret}"  '
                  f"(clients connect with --server-key {public})")
        else:
            print(f'to admit this client, add to the daemon config:  [trust]  "{key}" = "inner"')
    return 0


def service(ns: argparse.Namespace) -> int:
    from .service import install, status, uninstall
    unit_dir = Path(ns.unit_dir).expanduser() if ns.unit_dir else None
    actions = {"install": install, "uninstall": uninstall, "status": status}
    result = actions[ns.action](unit_dir)
    print(render.as_json(result) if ns.json else render.render_kv(result))
    return 0 if result.get("ok", True) else 1


def tail(client: Client, ns: argparse.Namespace) -> int:
    """Print stored events after --from, then follow the live stream: in seq order, each once."""
    shown = 0
    try:
        if ns.from_seq:  # a typo (--from 50000 for 500) would wait in silence for events to come
            head = client.tail(after=ns.from_seq, limit=1)["head_seq"]
            if ns.from_seq > head:
                print(f"ragixctl: --from {ns.from_seq} is past the last event (seq {head}): nothing is "
                      f"printed until events after seq {ns.from_seq} are committed", file=sys.stderr)
        for event in client.follow(after=ns.from_seq, idle=ns.idle, on_pause=_say_pause, until=_reader_gone):
            _print_event(ns, event)
            shown += 1
            if ns.count is not None and shown >= ns.count:
                break
    except KeyboardInterrupt:
        pass
    return 0  # an error is the caller's to report (exit code and --json shape like any command's)


def _reader_gone() -> bool:
    """Whether stdout is a pipe (or socket) whose reader went away (`tail | head -1` once head
    has its line): the kernel says so (POLLERR) without a write, so that a quiet stream, which
    writes nothing, still ends then. A terminal or a file never says so."""
    try:
        poller = select.poll()
        poller.register(sys.stdout.fileno(), 0)  # no event asked: only errors and hang-ups come
        return any(events & (select.POLLERR | select.POLLHUP) for _, events in poller.poll(0))
    except (OSError, ValueError, AttributeError):  # no file descriptor (a test's captured stdout)
        return False


def _say_pause(err: Exception | None) -> None:
    """A restart of the daemon is waited out, on stderr (stdout carries only events)."""
    if err is None:
        print("ragixctl: the daemon answers again; following on", file=sys.stderr, flush=True)
    else:
        print(f"ragixctl: {err}; waiting for the daemon to come back (Ctrl-C to stop)",
              file=sys.stderr, flush=True)


def _print_event(ns: argparse.Namespace, event: dict) -> None:
    if ns.json:
        print(render.as_json_line(event), flush=True)
    else:
        print(render.render_event(event), flush=True)


LOCAL_COMMANDS = {"init": init, "keys": keys, "service": service}
