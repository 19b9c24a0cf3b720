"""Every option and positional argument of ragixctl and ragixd says what it is in --help."""

import argparse

from ragix_client.ctl_parser import build_parser


def _undocumented(parser: argparse.ArgumentParser, path: str) -> list[str]:
    missing = []
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                missing += _undocumented(sub, f"{path} {name}")
        elif not action.help and action.dest != "help":
            missing.append(f"{path} {'/'.join(action.option_strings) or action.dest}")
    return missing


def test_every_ragixctl_argument_has_help_text():
    assert _undocumented(build_parser(), "ragixctl") == []


def test_every_ragixd_argument_has_help_text():
    from ragixd.daemon import build_parser as daemon_parser
    assert _undocumented(daemon_parser(), "ragixd") == []
