"""A bad setting stops the daemon with a message naming the setting, where it was set (the
flag, the environment variable or the config file's path) and what it accepts."""

from __future__ import annotations

import pytest

from ragixd import config
from ragixd.errors import ConfigError


def _error(tmp_path, flags=None, env=None, toml=None) -> str:
    env = {"XDG_CONFIG_HOME": str(tmp_path / "xdg"), **(env or {})}
    if toml is not None:
        path = tmp_path / "ragixd.toml"
        path.write_text(toml)
        env["RAGIX_CONFIG"] = str(path)
    with pytest.raises(ConfigError) as err:
        config.resolve(flags or {}, env)
    return err.value.message


def test_a_value_out_of_range_in_the_file_names_the_file(tmp_path):
    message = _error(tmp_path, toml="readers = 0\n")
    assert message == (f"readers = 0 (set by config file {tmp_path / 'ragixd.toml'}): "
                       "must be a whole number of at least 1 and at most 256")


@pytest.mark.parametrize("var,value,expected", [
    ("RAGIX_READERS", "abc", "readers = 'abc' (set by environment variable RAGIX_READERS): must be a whole number"),
    ("RAGIX_MAX_GROUP", "2.5", "max_group = '2.5' (set by environment variable RAGIX_MAX_GROUP): must be a whole"),
    ("RAGIX_MIN_SEQ_TIMEOUT_S", "soon", "min_seq_timeout_s = 'soon' (set by environment variable "
                                        "RAGIX_MIN_SEQ_TIMEOUT_S): must be a finite number of at least 0.001"),
    ("RAGIX_LOG_LEVEL", "loud", "log_level = 'loud' (set by environment variable RAGIX_LOG_LEVEL): must be one of "
                                "debug, info, warning, error"),
])
def test_a_bad_environment_value_names_the_variable_and_what_is_allowed(tmp_path, var, value, expected):
    message = _error(tmp_path, env={var: value})
    assert message.startswith(expected) and "invalid literal" not in message


def test_a_float_in_the_file_is_not_truncated_to_a_whole_number(tmp_path):
    assert "must be a whole number" in _error(tmp_path, toml="max_group = 2.5\n")


def test_a_bad_flag_names_the_flag(tmp_path):
    message = _error(tmp_path, flags={"endpoint": "tcp://127.0.0.1:5555"})
    assert message.startswith("endpoint = 'tcp://127.0.0.1:5555' (set by flag --endpoint): ")


def test_good_values_from_each_place_still_resolve(tmp_path):
    path = tmp_path / "ragixd.toml"
    path.write_text("readers = 2\nmin_seq_timeout_s = 3\n")
    env = {"XDG_CONFIG_HOME": str(tmp_path / "xdg"), "RAGIX_CONFIG": str(path), "RAGIX_MAX_GROUP": "16"}
    settings = config.resolve({}, env)
    assert (settings.readers, settings.min_seq_timeout_s, settings.max_group) == (2, 3.0, 16)


def test_an_unknown_embedder_backend_names_where_it_was_set_and_the_backends(tmp_path):
    from ragixd.embed.registry import BACKENDS
    assert set(config.EMBEDDER_BACKENDS) == set(BACKENDS) | {"none"}
    message = _error(tmp_path, env={"RAGIX_EMBEDDER": "bogus"})
    assert message == ("embedder backend = 'bogus' (set by environment variable RAGIX_EMBEDDER): "
                       "must be one of hash, ollama, onnx, none")
    message = _error(tmp_path, toml='[embedder]\nbackend = "olama"\n')
    assert message == (f"embedder backend = 'olama' (set by [embedder] in config file {tmp_path / 'ragixd.toml'}): "
                       "must be one of hash, ollama, onnx, none")


def test_a_directory_where_the_config_file_should_be_is_an_error_as_an_unreadable_file_is(tmp_path):
    default = tmp_path / "xdg" / "ragix" / "ragixd.toml"
    default.mkdir(parents=True)
    message = _error(tmp_path)  # at the default path: not taken for 'no file'
    assert message == f"cannot read config file {default}: it is a directory"
    named = tmp_path / "named.toml"
    named.mkdir()
    assert _error(tmp_path, env={"RAGIX_CONFIG": str(named)}) == f"cannot read config file {named}: it is a directory"
    assert _error(tmp_path, flags={"config": str(named)}).endswith("it is a directory")


def test_a_link_to_nothing_where_the_config_file_should_be_is_an_error(tmp_path):
    default = tmp_path / "xdg" / "ragix" / "ragixd.toml"
    default.parent.mkdir(parents=True)
    default.symlink_to(tmp_path / "gone.toml")
    assert _error(tmp_path) == f"cannot read config file {default}: it is a link to {tmp_path / 'gone.toml'}, " \
                               "which does not exist"


def test_no_file_at_the_default_path_is_still_no_settings_from_a_file(tmp_path):
    settings = config.resolve({}, {"XDG_CONFIG_HOME": str(tmp_path / "xdg")})
    assert settings.config_file is None and settings.readers == 4
    assert _error(tmp_path, env={"RAGIX_CONFIG": str(tmp_path / "absent.toml")}).startswith("config file not found")
