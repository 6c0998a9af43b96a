"""A SQLite memory database with a damaged page ("database disk image is malformed").
The CLI said "SqliteStore failed: database disk image is malformed", naming no file;
now each command says which file is damaged, in one line, exit 2."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from tests.test_cli_errors import assert_one_error_line, run
from tests.test_cli_sqlite_places import not_writable, sqlite_config

COMMANDS = [
    ("show", "--user", "ann"),
    ("export", "--user", "ann"),
    ("list",),
    ("stats",),
    ("pending",),
    ("remember", "--user", "ann", "Sings alto"),
    ("forget", "--user", "ann", "fact_0"),
    ("clear", "--user", "ann", "--yes"),
    ("retry",),
]


def _damage(database: Path, table: str | None) -> None:
    """Overwrite the root page of ``table`` with noise (None: the schema page after the
    file header, so the database opens but its schema cannot be read)."""
    conn = sqlite3.connect(database)
    size = conn.execute("PRAGMA page_size").fetchone()[0]
    if table is None:
        offset, length = 100, size - 100
    else:
        (root,) = conn.execute(
            "SELECT rootpage FROM sqlite_master WHERE name = ?", (table,)
        ).fetchone()
        offset, length = (root - 1) * size, size
    conn.close()
    with open(database, "r+b") as f:
        f.seek(offset)
        f.write(b"\xa5" * length)


@pytest.fixture(params=["store", "schema"])
def damaged(
    request: pytest.FixtureRequest, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> tuple[Path, Path]:
    """A memory database holding ann's fact, then damaged: (config file, database)."""
    database = tmp_path / "kept" / "mem.sqlite"
    config = sqlite_config(tmp_path, database)
    status, _, err = run(capsys, "--config", str(config), "remember", "--user", "ann", "Bakes")
    assert status == 0, err
    _damage(database, "store" if request.param == "store" else None)
    return config, database


@pytest.mark.parametrize("argv", COMMANDS, ids=lambda a: a[0])
def test_a_damaged_database_is_named_and_said_to_be_damaged(
    argv: tuple[str, ...], damaged: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    config, database = damaged
    status, _, err = run(capsys, "--config", str(config), *argv)
    assert_one_error_line(status, err, f"{database} is damaged (", "malformed")
    assert status == 2


def test_a_damaged_database_in_a_read_only_folder_is_named_too(
    damaged: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    config, database = damaged
    with not_writable(database, database.parent):
        status, _, err = run(capsys, "--config", str(config), "show", "--user", "ann")
    assert_one_error_line(status, err, f"{database} is damaged (")
    assert status == 2


def test_debug_shows_the_traceback_of_a_damaged_database(
    damaged: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    config, _ = damaged
    status, _, err = run(capsys, "--debug", "--config", str(config), "show", "--user", "ann")
    assert status == 2
    assert "Traceback" in err and "is damaged (" in err
