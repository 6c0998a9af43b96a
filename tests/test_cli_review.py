"""Command-line answers found in review: import's confirmation and show/export without --user."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from deerflow_memory.storage.file import FileMemoryStorage
from tests.test_cli_errors import assert_one_error_line, run
from tests.test_models import DEERFLOW_V1


@pytest.fixture
def root(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    """A file root where ann has one manual fact."""
    folder = tmp_path / "mem"
    assert run(capsys, "--root", str(folder), "remember", "--user", "ann", "Has a cat")[0] == 0
    return folder


@pytest.fixture
def source(tmp_path: Path) -> str:
    path = tmp_path / "deerflow.json"
    path.write_text(json.dumps(DEERFLOW_V1), encoding="utf-8")
    return str(path)


def anns_facts(root: Path) -> list[str]:
    return [fact.content for fact in FileMemoryStorage(root).load("ann", None).facts]


def test_import_onto_a_user_with_memory_without_a_terminal_says_why_it_refuses(
    root: Path, source: str, capsys: pytest.CaptureFixture[str]
) -> None:
    status, _, err = run(capsys, "--root", str(root), "import", "--user", "ann", source)
    assert status == 1
    assert_one_error_line(status, err, "'ann' already has 1 fact", "--yes", "no terminal to ask")
    assert anns_facts(root) == ["Has a cat"]


def test_import_asks_on_a_terminal_and_keeps_the_memory_on_no(
    root: Path, source: str, capsys: pytest.CaptureFixture[str], terminal: Callable[[str], None]
) -> None:
    terminal("n\n")
    status, _, err = run(capsys, "--root", str(root), "import", "--user", "ann", source)
    assert status == 1 and "Replace them? [y/N]" in err and "nothing imported" in err
    assert anns_facts(root) == ["Has a cat"]
    terminal("y\n")
    status, out, _ = run(capsys, "--root", str(root), "import", "--user", "ann", source)
    assert status == 0 and "imported" in out
    assert "Has a cat" not in anns_facts(root) and len(anns_facts(root)) == 3


@pytest.mark.parametrize("command", ["show", "export"])
def test_show_and_export_without_user_name_the_stored_users(
    root: Path, command: str, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, err = run(capsys, "--root", str(root), command)
    assert status == 2 and out == ""
    assert_one_error_line(status, err, f"{command} needs --user USER", "stored users: ann")


def test_show_without_user_on_an_empty_root_says_nothing_is_stored_there(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, _, err = run(capsys, "--root", str(tmp_path / "empty"), "show")
    assert_one_error_line(status, err, "show needs --user USER", "no memory is stored in")
    assert status == 2


def test_stats_of_an_agent_nobody_has_names_the_stored_agents_not_an_empty_root(
    root: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, _, err = run(capsys, "--root", str(root), "stats", "--agent", "planner")
    assert status == 1
    assert_one_error_line(status, err, "no memory of agent 'planner'", "(default agent)")
    assert "no memory is stored" not in err


def test_list_tenants_with_json_prints_a_json_list(
    root: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    added = run(capsys, "--root", str(root), "--tenant", "shop", "remember", "--user", "b", "X")
    assert added[0] == 0
    status, out, _ = run(capsys, "--root", str(root), "list", "--tenants", "--json")
    assert status == 0 and json.loads(out) == ["shop"]


def test_import_asks_before_replacing_a_history_of_deleted_facts(
    root: Path, source: str, capsys: pytest.CaptureFixture[str]
) -> None:
    # ann's only fact is deleted: kept as history so that it is never learned back.
    [fact] = FileMemoryStorage(root).load("ann", None).facts
    assert run(capsys, "--root", str(root), "forget", "--user", "ann", fact.id)[0] == 0
    status, _, err = run(capsys, "--root", str(root), "import", "--user", "ann", source)
    assert_one_error_line(status, err, "'ann' already has 1 superseded fact (history)", "--yes")
    history = FileMemoryStorage(root).load("ann", None).superseded_facts
    assert [old.content for old in history] == ["Has a cat"]


def test_replaced_by_import_names_facts_history_and_summaries() -> None:
    from deerflow_memory import MemoryDocument
    from deerflow_memory.update.import_check import replaced_by_import

    assert replaced_by_import(MemoryDocument()) is None
    two = MemoryDocument.model_validate(
        {
            "facts": [{"id": "a", "content": "A"}, {"id": "b", "content": "B"}],
            "supersededFacts": [{"id": "c", "content": "C"}],
        }
    )
    assert replaced_by_import(two) == "2 facts and 1 superseded fact (history)"
    summary = MemoryDocument.model_validate({"user": {"workContext": {"summary": "Pilot."}}})
    assert replaced_by_import(summary) == "summaries and no facts"


def test_export_onto_a_folder_names_the_path_once(
    root: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = str(tmp_path)
    status, _, err = run(capsys, "--root", str(root), "export", "--user", "ann", "-o", folder)
    assert_one_error_line(status, err, f"cannot write {folder}: ")
    assert err.count(folder) == 1 and status == 2


def test_stats_names_the_default_agent_as_list_and_show_do(
    root: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # (stats showed "-" where list and show say "(default agent)": newcomer 350)
    status, out, _ = run(capsys, "--root", str(root), "stats")
    assert status == 0
    assert "(default agent)" in out and "ann" in out
    status, out, _ = run(capsys, "--root", str(root), "list")
    assert status == 0 and "(default agent)" in out
