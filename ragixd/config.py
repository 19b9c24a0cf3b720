"""Configuration, resolved in one place: flag, then environment (RAGIX_*), then the TOML file,
then defaults. An error names every place it looked."""

from __future__ import annotations

import math
import os
import stat
import tomllib
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any, Mapping

from . import paths
from .errors import ConfigError

# Key names (also the TOML keys and, upper-cased with RAGIX_, the environment variables).
HOME = "home"
ENDPOINT = "endpoint"
LOG_LEVEL = "log_level"
MAX_MESSAGE_BYTES = "max_message_bytes"
MAX_GROUP = "max_group"
READERS = "readers"
SYNCHRONOUS = "synchronous"
TCP_ENDPOINT = "tcp_endpoint"
CURVE_SECRET_KEY_FILE = "curve_secret_key_file"
MIN_SEQ_TIMEOUT_S = "min_seq_timeout_s"


# Commands per group commit while one client writes (with several, the writer makes smaller
# groups: ragixd/writer.py, SHARED_GROUP). Each group pays one fsync; its answers leave when it
# commits, so this also bounds how long a write arriving beside an import waits (~0.5-1 ms a
# command here: ~100 ms at 128; 2-6 s at 1024 before session 12).
DEFAULT_MAX_GROUP = 128


@dataclass(frozen=True)
class Settings:
    home: Path
    endpoint: str
    config_file: Path | None = None
    log_level: str = "info"
    max_message_bytes: int = 4 * 1024 * 1024
    max_group: int = DEFAULT_MAX_GROUP
    readers: int = 4
    synchronous: str = "FULL"
    tcp_endpoint: str | None = None
    curve_secret_key_file: Path | None = None
    min_seq_timeout_s: float = 10.0
    # CURVE client public key (z85) -> trust level; [trust] table of the config file.
    trust: Mapping[str, str] = field(default_factory=dict)
    # The serving embedder first, then any others to keep back-filled ([embedder] and
    # [[extra_embedders]] in the file; RAGIX_EMBEDDER=hash|ollama|onnx|none picks the backend).
    embedders: tuple[Mapping[str, Any], ...] = ({"backend": "hash"},)
    recall: Mapping[str, Any] = field(default_factory=dict)
    policy: Mapping[str, Any] = field(default_factory=dict)
    # [vectors] of the file: `layout` of each model's index past 10k vectors (vector_store.py).
    vectors: Mapping[str, Any] = field(default_factory=dict)
    sources: Mapping[str, str] = field(default_factory=dict)

    @property
    def pub_endpoint(self) -> str | None:
        return paths.pub_endpoint_for(self.endpoint)

    @property
    def db_path(self) -> Path:
        return self.home / "ragix.db"


# Tables and keys of the file that are not plain settings.
_TABLES = ("trust", "embedder", "extra_embedders", "recall", "policy", "vectors")


def _endpoint(value: Any) -> str:
    text = str(value)
    if paths.transport(text) != "ipc":
        raise ValueError(
            f"{text!r} is not an ipc:// address (e.g. ipc:///run/user/1000/ragix/ragixd.sock); "
            "the main endpoint gives its callers full trust, so TCP is served only on "
            "tcp_endpoint, with CURVE keys (see the README, 'Optional TCP')")
    return text


def _tcp_endpoint(value: Any) -> str:
    text = str(value)
    if paths.transport(text) != "tcp":
        raise ValueError(f"{text!r} is not a tcp://HOST:PORT address")
    return text


# Numeric settings: a quoted value in the file is a mistake (the environment's are text).
_NUMERIC = ("max_message_bytes", "max_group", "readers", "min_seq_timeout_s")


def _whole(value: Any) -> int:
    """An integer from TOML or a digit string from the environment (not 2.5, not true)."""
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().lstrip("+-").isdigit():
        return int(value.strip())
    raise ValueError("must be a whole number")


def _number(value: Any) -> float:
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return float(value)
    if isinstance(value, str):
        try:
            return float(value.strip())
        except ValueError:
            pass
    raise ValueError("must be a number")


_CASTS = {
    MAX_MESSAGE_BYTES: _whole, MAX_GROUP: _whole, READERS: _whole, MIN_SEQ_TIMEOUT_S: _number,
    HOME: lambda v: Path(v).expanduser(), CURVE_SECRET_KEY_FILE: lambda v: Path(v).expanduser(),
    LOG_LEVEL: lambda v: str(v).lower(), SYNCHRONOUS: lambda v: str(v).upper(),
    ENDPOINT: _endpoint, TCP_ENDPOINT: _tcp_endpoint,
}
_CHOICES = {LOG_LEVEL: ("debug", "info", "warning", "error"), SYNCHRONOUS: ("FULL", "NORMAL", "EXTRA")}


def load_file(path: Path | None, required: bool) -> dict[str, Any]:
    """The file's settings; {} when nothing is at the default path (a path given with --config
    or RAGIX_CONFIG must exist). Anything else there that cannot be read as a file (a directory,
    a link to nothing) is an error, as an unreadable file is: skipping it would drop its
    settings without a word."""
    if path is None:
        return {}
    try:
        mode = path.stat().st_mode
    except FileNotFoundError:
        if path.is_symlink():
            raise ConfigError(f"cannot read config file {path}: it is a link to {os.readlink(path)}, "
                              "which does not exist", path=str(path)) from None
        if required:
            raise ConfigError(f"config file not found: {path}", path=str(path)) from None
        return {}
    except OSError as e:
        raise ConfigError(f"cannot read config file {path}: {e.strerror or e}", path=str(path)) from e
    if not stat.S_ISREG(mode):
        kind = "a directory" if stat.S_ISDIR(mode) else "not a regular file"
        raise ConfigError(f"cannot read config file {path}: it is {kind}", path=str(path))
    try:
        return tomllib.loads(path.read_text())
    except (tomllib.TOMLDecodeError, OSError, UnicodeDecodeError) as e:
        raise ConfigError(f"cannot read config file {path}: {e}", path=str(path)) from e


def resolve(flags: Mapping[str, Any] | None = None, env: Mapping[str, str] | None = None) -> Settings:
    """Settings from flags (None = not given), the environment and the config file."""
    flags = {k: v for k, v in (flags or {}).items() if v is not None}
    env = os.environ if env is None else env
    config_path = flags.get("config") or env.get("RAGIX_CONFIG")
    file_data = load_file(Path(config_path).expanduser() if config_path else paths.config_file(env),
                          required=bool(config_path))
    config_file = Path(config_path) if config_path else paths.config_file(env)
    # `embedders` is the settings' name for what the file gives as [embedder] and
    # [[extra_embedders]]: in the file it is no setting, and said as unknown.
    known = {f.name for f in fields(Settings)} - {"config_file", "sources", "embedders"} | set(_TABLES)
    unknown = sorted(set(file_data) - known)
    if unknown:
        raise ConfigError(f"unknown key(s) in {config_file}: {', '.join(unknown)} "
                          f"(known: {', '.join(sorted(known))})", path=str(config_file))
    defaults = {HOME: paths.data_home(env), ENDPOINT: paths.default_endpoint(env)}
    values: dict[str, Any] = {}
    sources: dict[str, str] = {}
    for f in fields(Settings):
        if f.name in ("config_file", "trust", "sources", "embedders", "recall", "policy", "vectors"):
            continue
        for source, mapping, key in (("flag", flags, f.name), ("env", env, "RAGIX_" + f.name.upper()),
                                     ("file", file_data, f.name)):
            if key in mapping:
                where = {"flag": f"flag --{key.replace('_', '-')}", "env": f"environment variable {key}",
                         "file": f"config file {config_file}"}[source]
                if source == "file" and f.name in _NUMERIC and isinstance(mapping[key], str):
                    raise ConfigError(f"{f.name} = {mapping[key]!r} (set by {where}): a number, written "
                                      "without quotes in the file", setting=f.name)
                values[f.name] = _cast(f.name, mapping[key], where)
                sources[f.name] = source
                break
        else:
            if f.name in defaults:
                values[f.name] = defaults[f.name]
                sources[f.name] = "default"
    trust = file_data.get("trust", {})
    if not isinstance(trust, dict) or not all(v in ("full", "inner", "familiar", "public") for v in trust.values()):
        raise ConfigError("[trust] must map client public keys to full, inner, familiar or public")
    return Settings(config_file=config_file if config_file.is_file() else None, trust=trust,
                    sources=sources, embedders=_embedders(flags, env, file_data, config_file),
                    recall=_table(file_data, "recall"), policy=_table(file_data, "policy"),
                    vectors=_table(file_data, "vectors"), **values)


def _table(data: Mapping[str, Any], key: str) -> dict[str, Any]:
    value = data.get(key, {})
    if not isinstance(value, dict):
        raise ConfigError(f"[{key}] must be a table")
    return dict(value)


# The embedder backends (ragixd/embed/registry.py's, and 'none': no vectors).
EMBEDDER_BACKENDS = ("hash", "ollama", "onnx", "none")


def _embedders(flags: Mapping[str, Any], env: Mapping[str, str], data: Mapping[str, Any],
               config_file: Path) -> tuple[dict, ...]:
    serving = _table(data, "embedder") or {"backend": "hash"}
    backend = flags.get("embedder") or env.get("RAGIX_EMBEDDER")
    where = ("flag --embedder" if flags.get("embedder") else "environment variable RAGIX_EMBEDDER" if backend
             else f"[embedder] in config file {config_file}")
    if (backend or serving.get("backend", "hash")) not in EMBEDDER_BACKENDS:
        raise ConfigError(f"embedder backend = {backend or serving.get('backend')!r} (set by {where}): must be one "
                          f"of {', '.join(EMBEDDER_BACKENDS)}", setting="embedder")
    if backend:
        serving = {"backend": backend} if backend != serving.get("backend") else serving
    extra = data.get("extra_embedders", [])
    if not isinstance(extra, list) or not all(isinstance(e, dict) for e in extra):
        raise ConfigError("[[extra_embedders]] must be a list of tables")
    return (serving, *extra)


# Inclusive bounds of the numeric settings (None: unbounded); every float must be finite.
_RANGES = {MAX_MESSAGE_BYTES: (1024, None), MAX_GROUP: (1, None), READERS: (1, 256),
           MIN_SEQ_TIMEOUT_S: (0.001, 86400.0)}


def _allowed(name: str) -> str:
    """What `name` accepts, in words."""
    if name in _CHOICES:
        return "one of " + ", ".join(_CHOICES[name])
    kind = "a whole number" if _CASTS.get(name) is _whole else "a finite number" if name in _RANGES else ""
    if name in _RANGES:
        low, high = _RANGES[name]
        kind += f" of at least {low}" + (f" and at most {high}" if high is not None else "")
    return kind


def _cast(name: str, value: Any, where: str) -> Any:
    """`value` of setting `name` as its type; an error names the setting, the place it was
    set (`where`: flag, environment variable or config file) and what it accepts."""
    try:
        out = _CASTS.get(name, str)(value)
    except (TypeError, ValueError) as e:
        allowed = _allowed(name)
        detail = f"must be {allowed}" if allowed else str(e)
        raise ConfigError(f"{name} = {value!r} (set by {where}): {detail}", key=name) from None
    if name in _RANGES:
        low, high = _RANGES[name]
        if not math.isfinite(out) or out < low or (high is not None and out > high):
            raise ConfigError(f"{name} = {value!r} (set by {where}): must be {_allowed(name)}", key=name)
    if name in _CHOICES and out not in _CHOICES[name]:
        raise ConfigError(f"{name} = {value!r} (set by {where}): must be {_allowed(name)}", key=name)
    return out
