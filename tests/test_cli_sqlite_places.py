"""SQLite databases the CLI only looks at: an empty file, a file that is no database, a
read-only folder. A look writes nothing there; a change that cannot be written is one line."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import sqlite3
import subprocess
from collections.abc import Iterator
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


def database_of_ann(tmp_path: Path, capsys: pytest.CaptureFixture[str], locks: bool) -> Path:
    """A SQLite memory database in ``tmp_path/ro`` holding ann's fact (without its
    ``.locks`` folder unless ``locks``, as after a copy): the config file naming it."""
    folder = tmp_path / "ro"
    config = sqlite_config(tmp_path, folder / "mem.sqlite")
    assert run(capsys, "--config", str(config), "remember", "--user", "ann", "Plays oboe")[0] == 0
    if not locks:
        shutil.rmtree(folder / "mem.sqlite.locks")
    return config


@pytest.fixture(params=["copied", "made-here"])
def read_only_database(
    request: pytest.FixtureRequest, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> Iterator[Path]:
    """:func:`database_of_ann` in a folder this process cannot write: chmod-ed 0o555, or, as
    root (whom permissions do not stop, as in CI), made immutable with ``chattr +i``, folder
    and files, as a read-only mount is (skipped where neither can be done)."""
    config = database_of_ann(tmp_path, capsys, locks=request.param == "made-here")
    folder = tmp_path / "ro"
    if os.geteuid() != 0:
        folder.chmod(0o555)
        try:
            yield config
        finally:
            folder.chmod(0o755)
        return
    frozen = [*sorted(folder.iterdir()), folder]
    if not _chattr("+i", frozen):
        _chattr("-i", frozen)
        pytest.skip("root ignores permissions, and chattr +i is not available here")
    try:
        yield config
    finally:
        _chattr("-i", frozen)


def _chattr(flag: str, paths: list[Path]) -> bool:
    """Whether ``chattr flag`` worked on each of ``paths`` (ext2/3/4, CAP_LINUX_IMMUTABLE)."""
    try:
        done = subprocess.run(
            ["chattr", flag, *map(str, paths)], capture_output=True, timeout=30, check=False
        )
    except OSError:  # no chattr
        return False
    return done.returncode == 0


@contextlib.contextmanager
def not_writable(*paths: Path) -> Iterator[None]:
    """``paths`` made unwritable for this process while inside: ``chattr +i`` as root
    (whom permissions do not stop), else their write bits taken (skipped where neither
    can be done)."""
    if os.geteuid() == 0:
        if not _chattr("+i", list(paths)):
            _chattr("-i", list(paths))
            pytest.skip("root ignores permissions, and chattr +i is not available here")
        try:
            yield
        finally:
            _chattr("-i", list(paths))
        return
    modes = [p.stat().st_mode for p in paths]
    for p in paths:
        p.chmod(p.stat().st_mode & ~0o222)
    try:
        yield
    finally:
        for p, mode in zip(paths, modes, strict=True):
            p.chmod(mode)


READS = [
    (("show", "--user", "ann"), "Plays oboe"),
    (("export", "--user", "ann"), "Plays oboe"),
    (("list",), "ann"),
    (("stats",), "ann"),
    (("pending",), "no failed memory updates"),
]
READ_IDS = ["show", "export", "list", "stats", "pending"]


@pytest.mark.parametrize(("argv", "said"), READS, ids=READ_IDS)
def test_a_database_in_a_read_only_folder_is_read_by_the_commands_that_only_look(
    argv: tuple[str, ...], said: str, read_only_database: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # show said "cannot set up SQLite memory database …: [Errno 13] Permission denied"
    # (no .locks folder) or "…: attempt to write a readonly database"
    folder = read_only_database.parent / "ro"
    before = sorted(os.listdir(folder))
    status, out, err = run(capsys, "--config", str(read_only_database), *argv)
    assert status == 0, err
    assert said in out
    assert sorted(os.listdir(folder)) == before


@pytest.mark.parametrize(("argv", "said"), READS, ids=READ_IDS)
def test_a_database_said_not_writable_is_read_read_only_without_its_lock_folder(
    argv: tuple[str, ...],
    said: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # (the read-only open, also where the tests run as root: the system is asked no more)
    from deerflow_memory.storage import factory

    config = database_of_ann(tmp_path, capsys, locks=False)
    monkeypatch.setattr(factory, "unwritable", lambda db: f"its folder {db.parent} is not writable")
    status, out, err = run(capsys, "--config", str(config), *argv)
    assert status == 0, err
    assert said in out
    # (SQLite's reader may leave its -shm and -wal files where the folder lets it)
    assert "mem.sqlite.locks" not in os.listdir(tmp_path / "ro")


@pytest.mark.parametrize(
    "argv",
    [
        ("remember", "--user", "ann", "Plays piano"),
        ("forget", "--user", "ann", "fact_0"),
        ("clear", "--user", "ann", "--yes"),
        ("retry",),
    ],
    ids=look_id,
)
def test_a_change_to_a_database_in_a_read_only_folder_is_one_line_saying_so(
    argv: tuple[str, ...], read_only_database: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = read_only_database.parent / "ro"
    if argv[0] == "forget":  # ann's fact: an unknown one is "nothing to delete" (exit 1)
        shown = run(capsys, "--config", str(read_only_database), "show", "--user", "ann", "--json")
        argv = (*argv[:-1], json.loads(shown[1])["facts"][0]["id"])
    before = sorted(os.listdir(folder))
    status, out, err = run(capsys, "--config", str(read_only_database), *argv)
    assert_one_error_line(status, err, "cannot write SQLite memory database", "not writable")
    assert status == 2 and out == ""
    assert sorted(os.listdir(folder)) == before


NFD_AGENT = "cafe\u0301"  # "café" as e + combining acute accent


@pytest.mark.parametrize("typed", ["NFD", "NFC"])
@pytest.mark.parametrize("storage", ["file", "sqlite"])
def test_clear_of_an_agent_spelled_in_nfd_drops_its_waiting_update_and_letter(
    storage: str,
    typed: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # An update (and a failed one) kept under the NFD spelling of the agent: clear wrote
    # the fence but left them, though waits_for (NFC) had counted the update as theirs.
    import time
    import unicodedata

    from deerflow_memory.config import MemoryConfig
    from deerflow_memory.storage.factory import open_storage
    from deerflow_memory.storage.migrate_pending import waiting_updates
    from deerflow_memory.storage.outbox import PendingUpdate
    from deerflow_memory.update.durable import build_outbox
    from tests.test_migrate_pending import SAID, a_letter, left_by_a_stopped_process

    monkeypatch.setenv("DEERFLOW_MEMORY_STORAGE", storage)
    root = tmp_path / "mem"
    agent = unicodedata.normalize(typed, NFD_AGENT)
    whose = ("--root", str(root), "--user", "alice", "--agent", agent)
    assert run(capsys, "remember", *whose, "Plays oboe")[0] == 0
    config = MemoryConfig(storage=storage, storage_path=root)
    now = time.time()
    update = PendingUpdate(
        "t1", "alice", NFD_AGENT, tuple(SAID), due_at=now, record_id="r-t1", captured_at=now
    )
    with open_storage(config) as stored:
        outbox = build_outbox(stored, config)
        assert outbox is not None
        left_by_a_stopped_process(outbox, update)
        stored.put_dead_letter(a_letter().model_copy(update={"agent_name": NFD_AGENT}))
        assert waiting_updates(stored) == (1, 0, 0)
    status, out, err = run(capsys, "clear", *whose, "--yes")
    assert status == 0, err
    assert "deleted the memory of 'alice'" in out
    with open_storage(config) as stored:
        assert not any(waiting_updates(stored) or ())
        assert stored.list_dead_letters() == []


@pytest.mark.parametrize("storage", ["file", "sqlite"])
def test_clear_that_finds_nothing_says_so_once(
    storage: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # "'ann' (x) had no memory to delete: no memory for user 'ann' (agent 'x') in …": the
    # same statement twice, for a user with memory under another agent, or cleared before.
    monkeypatch.setenv("DEERFLOW_MEMORY_STORAGE", storage)
    root = ("--root", str(tmp_path / "mem"))
    assert run(capsys, *root, "remember", "--user", "ann", "Plays oboe")[0] == 0
    status, out, err = run(capsys, *root, "clear", "--user", "ann", "--agent", "x", "--yes")
    assert_one_error_line(status, err, "nothing to delete: no memory for user 'ann' (agent 'x')")
    assert status == 1 and out == "" and err.count("no memory") == 1
    assert "stored agents: (default agent)" in err
    status, out, err = run(capsys, *root, "clear", "--user", "ann", "--yes")
    assert status == 0 and out.count("deleted") == 1
    assert out.startswith("deleted the memory of 'ann' (default agent) in ")
    status, out, err = run(capsys, *root, "clear", "--user", "ann", "--yes")
    assert_one_error_line(status, err, "nothing to delete: no memory for user 'ann'", "deleted at")
    assert status == 1 and err.count("no memory") == 1


def test_a_look_makes_no_file_beside_a_database_it_cannot_write(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # In a folder the reader may write, SQLite's read-only mode made memory.sqlite-wal and
    # -shm there, owned by the reader, and the owner's next save failed ("attempt to write
    # a readonly database"): attacker 319. The file and its .locks are the owner's alone.
    config = database_of_ann(tmp_path, capsys, locks=True)
    folder = tmp_path / "ro"
    for leftover in folder.glob("mem.sqlite-*"):  # (a clean close leaves none)
        leftover.unlink()
    before = sorted(os.listdir(folder))
    with not_writable(folder / "mem.sqlite", folder / "mem.sqlite.locks"):
        status, out, err = run(capsys, "--config", str(config), "show", "--user", "ann")
        assert status == 0, err
        assert "Plays oboe" in out
        assert sorted(os.listdir(folder)) == before
    # …and the owner saves as before
    assert run(capsys, "--config", str(config), "remember", "--user", "ann", "Plays harp")[0] == 0


def test_a_change_to_a_database_file_it_cannot_write_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # a file without write permission, its folder and .locks writable: remember said
    # "SqliteStore failed: attempt to write a readonly database", retry printed tracebacks
    config = database_of_ann(tmp_path, capsys, locks=True)
    with not_writable(tmp_path / "ro" / "mem.sqlite"):
        for argv in (("remember", "--user", "ann", "Plays harp"), ("retry",)):
            status, _, err = run(capsys, "--config", str(config), *argv)
            assert_one_error_line(
                status, err, "cannot write SQLite memory database", "not writable"
            )
            assert status == 2


def test_a_database_not_there_in_a_folder_it_cannot_write_is_not_said_readable(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "ro"
    folder.mkdir()
    config = sqlite_config(tmp_path, folder / "sub" / "mem.sqlite")
    with not_writable(folder):
        status, _, err = run(capsys, "--config", str(config), "remember", "--user", "ann", "x")
    assert_one_error_line(status, err, "cannot make SQLite memory database", "not writable")
    assert "can be read" not in err


def _log_with_data(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[Path, Path]:
    """A copy of ann's database whose write-ahead log holds a fact not in the database file,
    without its ``-shm`` file (a backup that skipped it): the folder and the config."""
    database_of_ann(tmp_path, capsys, locks=False)
    source = tmp_path / "ro" / "mem.sqlite"
    writer = sqlite3.connect(source)
    try:
        writer.execute("PRAGMA wal_autocheckpoint=0")
        writer.execute("CREATE TABLE kept_in_the_log (x)")
        copy = tmp_path / "copy"
        copy.mkdir()
        shutil.copy(source, copy / "mem.sqlite")
        shutil.copy(f"{source}-wal", copy / "mem.sqlite-wal")
    finally:
        writer.close()
    assert (copy / "mem.sqlite-wal").stat().st_size > 0
    return copy, sqlite_config(copy, copy / "mem.sqlite")


@pytest.mark.parametrize("through", ["path", "link"])
def test_a_log_that_cannot_be_read_without_writing_is_refused(
    through: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Through a link, the log was looked for beside the link, not where SQLite keeps it
    # (beside the file linked to): the database was read as immutable, the log's data
    # silently left out (attacker 319).
    copy, config = _log_with_data(tmp_path, capsys)
    if through == "link":
        linked = tmp_path / "linked"
        linked.mkdir()
        (linked / "mem.sqlite").symlink_to(copy / "mem.sqlite")
        config = sqlite_config(linked, linked / "mem.sqlite")
    before = sorted(os.listdir(copy))
    with not_writable(copy, *copy.iterdir()):
        status, _, err = run(capsys, "--config", str(config), "export", "--user", "ann")
    assert_one_error_line(status, err, "write-ahead log holds data")
    assert status == 2
    assert sorted(os.listdir(copy)) == before


def test_a_rollback_journal_left_by_a_crash_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # an unfinished write's journal was read past (immutable), showing what was never stored
    config = database_of_ann(tmp_path, capsys, locks=False)
    folder = tmp_path / "ro"
    (folder / "mem.sqlite-journal").write_bytes(b"\xd9\xd5\x05\xf9\x20\xa1\x63\xd7" * 64)
    with not_writable(folder, *folder.iterdir()):
        status, _, err = run(capsys, "--config", str(config), "show", "--user", "ann")
    assert_one_error_line(status, err, "rollback journal")
    assert status == 2


def test_migrate_reads_its_source_and_never_sets_it_up(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # migrate opened its source as a writer: a read-only source could not be backed up
    # ("cannot write … it can be read"), and an empty file got the schema (attacker 319)
    database_of_ann(tmp_path, capsys, locks=False)
    folder = tmp_path / "ro"
    before = sorted(os.listdir(folder))
    with not_writable(folder, *folder.iterdir()):
        copied = tmp_path / "copy"
        status, _, err = run(
            capsys, "migrate", "--from", f"sqlite:{folder}/mem.sqlite", "--to", f"file:{copied}"
        )
        assert status == 0, err
        assert sorted(os.listdir(folder)) == before
    assert "Plays oboe" in run(capsys, "--root", str(copied), "show", "--user", "ann")[1]
    empty = tmp_path / "empty.sqlite"
    empty.touch()
    status, _, err = run(capsys, "migrate", "--from", f"sqlite:{empty}", "--to", f"file:{copied}2")
    assert_one_error_line(status, err, "nothing to migrate")
    assert empty.stat().st_size == 0 and not (tmp_path / "empty.sqlite.locks").exists()
