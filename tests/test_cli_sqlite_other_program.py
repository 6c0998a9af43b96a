"""A SQLite database of another program given to the CLI. A look (show, list, stats,
export, pending) and a change with nothing to change (forget, clear, retry) wrote the
store's schema into it and made a ``.locks`` folder beside it; now they write nothing
there and say plainly that it holds no deerflow_memory data.

Decision: the commands that add memory (remember, import, demo) still set the store up
in such a database, beside the tables there: users share one SQLite file between
LangGraph's checkpointer and its store, and a database named on purpose for memory is
written as asked (``remember`` notes that it started the memory there)."""

from __future__ import annotations

import hashlib
import os
import sqlite3
from pathlib import Path

import pytest

from tests.test_cli_bad_paths import LOOKS, look_id
from tests.test_cli_errors import assert_one_error_line, run
from tests.test_cli_sqlite_places import sqlite_config


def _garden_database(path: Path, *, wal: bool = False) -> None:
    """A database of some other program: a table of plantings."""
    conn = sqlite3.connect(path)
    if wal:
        conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("CREATE TABLE plantings (bed TEXT, crop TEXT)")
    conn.execute("INSERT INTO plantings VALUES ('north', 'leeks')")
    conn.commit()
    conn.close()


def _state(folder: Path) -> tuple[list[str], dict[str, tuple[str, int]]]:
    """The names in ``folder`` and each regular file's digest and mtime (ns)."""
    files = {}
    for name in sorted(os.listdir(folder)):
        path = folder / name
        if path.is_file():
            digest = hashlib.sha256(path.read_bytes()).hexdigest()
            files[name] = (digest, path.stat().st_mtime_ns)
    return sorted(os.listdir(folder)), files


def _schema(path: Path) -> list[tuple[str, str]]:
    conn = sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True)
    try:
        return sorted(conn.execute("SELECT type, name FROM sqlite_master").fetchall())
    finally:
        conn.close()


@pytest.mark.parametrize("wal", [False, True], ids=["rollback", "wal"])
@pytest.mark.parametrize("argv", LOOKS, ids=look_id)
def test_a_look_at_another_programs_database_writes_nothing_and_says_what_it_is(
    argv: tuple[str, ...], wal: bool, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "garden"
    folder.mkdir()
    database = folder / "garden.db"
    _garden_database(database, wal=wal)
    config = sqlite_config(tmp_path, database)
    schema = _schema(database)
    before = _state(folder)
    status, _, err = run(capsys, "--config", str(config), *argv)
    assert_one_error_line(status, err, "garden.db", "no deerflow_memory data", "plantings")
    assert status == 1  # nothing there: as a mistyped path
    assert _state(folder) == before  # no byte, no mtime, no .locks, no -wal or -shm
    assert _schema(database) == schema


def test_list_json_of_another_programs_database_prints_an_empty_list(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    database = tmp_path / "garden.db"
    _garden_database(database)
    config = sqlite_config(tmp_path, database)
    status, out, err = run(capsys, "--config", str(config), "list", "--json")
    assert status == 1 and out == "[]\n"
    assert "no deerflow_memory data" in err


def test_remember_sets_the_store_up_beside_a_langgraph_checkpointer(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # One file for LangGraph's checkpointer and its store: adding memory there works, and
    # the checkpointer's tables are left as they were.
    from langgraph.checkpoint.sqlite import SqliteSaver

    database = tmp_path / "graph.sqlite"
    conn = sqlite3.connect(database, check_same_thread=False)
    SqliteSaver(conn).setup()
    conn.close()
    config = sqlite_config(tmp_path, database)
    status, _, err = run(capsys, "--config", str(config), "show", "--user", "ann")
    assert status == 1 and "no deerflow_memory data" in err and "checkpoints" in err
    assert not any(name == "store" for _, name in _schema(database))
    status, _, err = run(capsys, "--config", str(config), "remember", "--user", "ann", "Rows")
    assert status == 0, err
    assert "beside the tables of another program there: checkpoint" in err
    names = {name for _, name in _schema(database)}
    assert {"checkpoints", "writes", "store"} <= names
    status, out, _ = run(capsys, "--config", str(config), "show", "--user", "ann")
    assert status == 0 and "Rows" in out


def test_a_database_of_the_store_without_memory_is_not_called_another_programs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    database = tmp_path / "mem.sqlite"
    config = sqlite_config(tmp_path, database)
    assert run(capsys, "--config", str(config), "remember", "--user", "ann", "Rows")[0] == 0
    assert run(capsys, "--config", str(config), "clear", "--user", "ann", "--yes")[0] == 0
    status, _, err = run(capsys, "--config", str(config), "list")
    assert status == 1 and "no memory is stored" in err
    assert "another program" not in err


def test_remember_into_another_programs_database_notes_the_tables_it_went_beside(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    database = tmp_path / "garden.db"
    _garden_database(database)
    config = sqlite_config(tmp_path, database)
    status, _, err = run(capsys, "--config", str(config), "remember", "--user", "ann", "Weeds")
    assert status == 0
    note = err.splitlines()
    assert len(note) == 1 and note[0].startswith("deerflow-memory: note: ")
    assert "beside the tables of another program there: plantings" in note[0]
    conn = sqlite3.connect(database)
    try:
        assert conn.execute("SELECT bed, crop FROM plantings").fetchall() == [("north", "leeks")]
    finally:
        conn.close()
    # a memory database of our own has nothing else to note
    ours = tmp_path / "ours" / "mem.sqlite"
    config = sqlite_config(tmp_path, ours)
    status, _, err = run(capsys, "--config", str(config), "remember", "--user", "ann", "Weeds")
    assert status == 0 and "another program" not in err


def test_a_look_at_a_database_whose_store_table_is_another_programs_writes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # attacker 334: only the table's name was asked; an app's own "store" table got
    # LangGraph's migrations table, WAL mode and a .locks folder, then "no such column"
    folder = tmp_path / "shop"
    folder.mkdir()
    database = folder / "shop.db"
    conn = sqlite3.connect(database)
    conn.execute("CREATE TABLE store (sku TEXT PRIMARY KEY, shelf TEXT)")
    conn.execute("INSERT INTO store VALUES ('kettle', 'B4')")
    conn.commit()
    conn.close()
    config = sqlite_config(tmp_path, database)
    schema, before = _schema(database), _state(folder)
    status, _, err = run(capsys, "--config", str(config), "show", "--user", "ann")
    assert_one_error_line(status, err, "no deerflow_memory data", "store (not LangGraph's)")
    assert status == 1
    assert _state(folder) == before and _schema(database) == schema


def test_a_look_at_another_programs_database_left_mid_write_does_not_set_the_store_up(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # attacker 334: a hot rollback journal made the read-only look fail, and the writable
    # open that followed set the store up in it (tables, WAL mode, .locks). SQLite's own
    # recovery (rolling the unfinished write back) is all that is written now.
    import subprocess
    import sys

    folder = tmp_path / "garden"
    folder.mkdir()
    database = folder / "garden.db"
    conn = sqlite3.connect(database)
    conn.execute("PRAGMA page_size=1024")
    conn.execute("CREATE TABLE plantings (bed TEXT, crop TEXT)")
    conn.executemany(
        "INSERT INTO plantings VALUES (?, ?)", [(str(i), "x" * 200) for i in range(300)]
    )
    conn.commit()
    conn.close()
    crash = (
        "import os, sqlite3, sys\n"
        "c = sqlite3.connect(sys.argv[1], isolation_level=None)\n"
        "c.execute('PRAGMA cache_size=5'); c.execute('BEGIN')\n"
        "c.execute(\"UPDATE plantings SET crop = 'y' || crop\")\n"
        "os._exit(0)\n"
    )
    subprocess.run([sys.executable, "-c", crash, str(database)], check=True, timeout=60)
    assert (folder / "garden.db-journal").stat().st_size > 0  # a hot journal is left
    config = sqlite_config(tmp_path, database)
    status, _, err = run(capsys, "--config", str(config), "show", "--user", "ann")
    assert_one_error_line(
        status, err, "no deerflow_memory data", "plantings", "deerflow_memory wrote nothing"
    )
    assert status == 1
    assert _schema(database) == [("table", "plantings")]
    assert not (folder / "garden.db.locks").exists()
    conn = sqlite3.connect(f"{database.as_uri()}?mode=ro", uri=True)
    try:
        assert conn.execute("PRAGMA journal_mode").fetchone() == ("delete",)
        assert conn.execute("SELECT count(*) FROM plantings WHERE crop LIKE 'y%'").fetchone() == (
            0,
        )
    finally:
        conn.close()
