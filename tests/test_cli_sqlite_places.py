"""SQLite databases the CLI only looks at: an empty file, a file that is no database, a
read-only folder. A look writes nothing there; a change that cannot be written is one line."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.test_cli_bad_paths import LOOKS, look_id
from tests.test_cli_errors import assert_one_error_line, run


def sqlite_config(tmp_path: Path, database: Path) -> Path:
    config = tmp_path / "memory.yaml"
    config.write_text(f"storage: sqlite\nstorage_path: {database}\n", "utf-8")
    return config


@pytest.mark.parametrize("argv", LOOKS, ids=look_id)
def test_a_look_at_an_empty_database_file_writes_nothing_into_it(
    argv: tuple[str, ...], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # `touch mem.sqlite` then `show`: the schema was written into the file and a .locks
    # folder made beside it; now it is looked at as a database not there yet is.
    database = tmp_path / "mem.sqlite"
    database.touch()
    config = sqlite_config(tmp_path, database)
    status, _, err = run(capsys, "--config", str(config), *argv)
    assert_one_error_line(status, err, "sqlite storage", "mem.sqlite")
    assert status == 1
    assert "no memory" in err or "no tenant" in err  # (list --tenants)
    assert sorted(os.listdir(tmp_path)) == ["mem.sqlite", "memory.yaml"]
    assert database.stat().st_size == 0


def test_an_empty_database_file_is_set_up_by_the_commands_that_add_memory(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    database = tmp_path / "mem.sqlite"
    database.touch()
    config = sqlite_config(tmp_path, database)
    assert run(capsys, "--config", str(config), "remember", "--user", "ann", "Plays oboe")[0] == 0
    status, out, _ = run(capsys, "--config", str(config), "show", "--user", "ann")
    assert status == 0 and "Plays oboe" in out


@pytest.mark.parametrize("command", [("show", "--user", "ann"), ("remember", "--user", "ann", "x")])
@pytest.mark.parametrize("how", ["root", "config"])
def test_a_file_that_is_no_sqlite_database_is_one_error_line_and_nothing_is_made_beside_it(
    command: tuple[str, ...],
    how: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # --root notes.txt made notes.txt.locks/ before "file is not a database"
    notes = tmp_path / "notes.txt"
    notes.write_text("shopping: eggs, milk\n", "utf-8")
    if how == "root":
        monkeypatch.setenv("DEERFLOW_MEMORY_STORAGE", "sqlite")
        where = ["--root", str(notes)]
    else:
        where = ["--config", str(sqlite_config(tmp_path, notes))]
    status, _, err = run(capsys, *where, *command)
    assert_one_error_line(status, err, "SQLite memory database", "notes.txt", "not a database")
    assert status == 2
    made = sorted(os.listdir(tmp_path))
    assert made == (["notes.txt"] if how == "root" else ["memory.yaml", "notes.txt"])
    assert notes.read_text("utf-8") == "shopping: eggs, milk\n"


@pytest.mark.parametrize(
    ("given", "words"),
    [
        (("",), "fact rejected"),
        (("\u200b",), "fact rejected"),
        (("x" * 5000,), "fact rejected"),
        (("--category", "bogus", "Plays oboe"), "unknown category 'bogus'"),
        (("--confidence", "abc", "Plays oboe"), "confidence must be a number"),
        (("--confidence", "101", "Plays oboe"), "outside the allowed range"),
    ],
    ids=["empty", "invisible", "too-long", "category", "confidence", "confidence-range"],
)
@pytest.mark.parametrize("storage", ["sqlite", "file"])
def test_remember_refusing_its_input_makes_no_database_or_folder(
    given: tuple[str, ...],
    words: str,
    storage: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # remember --user ann '' said "fact rejected: empty" after making db/memory.sqlite
    monkeypatch.setenv("DEERFLOW_MEMORY_STORAGE", storage)
    root = tmp_path / "db"
    status, out, err = run(capsys, "--root", str(root), "remember", "--user", "ann", *given)
    assert_one_error_line(status, err, words)
    assert status == 2 and out == ""
    assert os.listdir(tmp_path) == []
