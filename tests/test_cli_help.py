"""``deerflow-memory --help`` is written for users: plain text, every option explained."""

from __future__ import annotations

import argparse

import pytest

from deerflow_memory.cli import _parser, main


def test_the_top_level_help_is_plain_text_and_states_the_exit_statuses(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit):
        main(["--help"])
    out = capsys.readouterr().out
    assert "``" not in out and ":func:" not in out and "(errors are handled once" not in out
    assert "Exit status: 0 done; 1 nothing to do" in out
    assert "pending" in out and "retry" in out


def subcommands() -> dict[str, argparse.ArgumentParser]:
    for action in _parser()._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    raise AssertionError("no subcommands")


@pytest.mark.parametrize("name", sorted(subcommands()))
def test_every_subcommand_has_a_description_and_every_option_a_help_text(name: str) -> None:
    command = subcommands()[name]
    assert command.description
    undocumented = [
        action.option_strings or action.dest
        for action in command._actions
        if not action.help and action.dest != "help"
    ]
    assert undocumented == []


@pytest.mark.parametrize("name", sorted(subcommands()))
def test_a_subcommand_offers_root_and_tenant_only_when_it_reads_them(
    name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    # migrate refuses --root and --tenant (--from and --to say where): its help did list them.
    with pytest.raises(SystemExit):
        main([name, "--help"])
    out = capsys.readouterr().out
    offered = "--root ROOT" in out and "--tenant TENANT" in out
    assert offered == (name != "migrate")


def test_version_is_printed(capsys: pytest.CaptureFixture[str]) -> None:
    from deerflow_memory import __version__
    from deerflow_memory.cli import main

    with pytest.raises(SystemExit) as done:
        main(["--version"])
    assert done.value.code == 0 and capsys.readouterr().out.strip().endswith(__version__)


def test_python_dash_m_runs_the_same_command_line() -> None:
    import subprocess
    import sys

    from deerflow_memory import __version__

    done = subprocess.run(
        [sys.executable, "-m", "deerflow_memory", "--version"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0 and done.stdout.strip() == f"deerflow-memory {__version__}"
