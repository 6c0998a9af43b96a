"""A named pipe, folder, socket or device where the CLI's SQLite database, or a file SQLite
keeps beside it (``-journal``, ``-wal``, ``-shm``), should be. A pipe there made every
command wait forever (SQLite opened it to read a hot journal) or was deleted by SQLite;
now it is refused before anything is opened: one line naming the path and what it is,
exit 2, nothing made or changed. The CLI runs in a child process with a timeout, so a
hang fails the test instead of stalling the run."""

from __future__ import annotations

import os
import socket
import stat
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.test_cli_sqlite_places import sqlite_config

# (seconds) a command here takes well under one; a hang is what this catches
TIMEOUT = 30


def cli(config: Path, *argv: str) -> tuple[int, str, str]:
    """Run the command line on ``config`` in a child process; fail on a hang."""
    try:
        done = subprocess.run(
            [sys.executable, "-m", "deerflow_memory.cli", "--config", str(config), *argv],
            capture_output=True,
            text=True,
            timeout=TIMEOUT,
            check=False,
            stdin=subprocess.DEVNULL,
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"{' '.join(argv)} hung for {TIMEOUT} s")
    return done.returncode, done.stdout, done.stderr


def _pipe(path: Path) -> None:
    os.mkfifo(path)


def _folder(path: Path) -> None:
    path.mkdir()


def _socket(path: Path) -> None:
    # bound by its name relative to its folder (a socket path is at most ~108 bytes)
    here = os.getcwd()
    os.chdir(path.parent)
    try:
        s = socket.socket(socket.AF_UNIX)
        s.bind(path.name)
        s.close()
    finally:
        os.chdir(here)


def _device(path: Path) -> None:
    if os.geteuid() != 0:
        pytest.skip("making a device node needs root")
    os.mknod(path, stat.S_IFCHR | 0o600, os.makedev(1, 3))  # as /dev/null


KINDS: dict[str, tuple[Callable[[Path], None], str]] = {
    "pipe": (_pipe, "named pipe"),
    "folder": (_folder, "a folder"),
    "socket": (_socket, "a socket"),
    "device": (_device, "a device"),
}
BESIDE = ["", "-journal", "-wal", "-shm"]
LOOKS = [
    ("show", "--user", "ann"),
    ("export", "--user", "ann"),
    ("list",),
    ("stats",),
    ("pending",),
]
WRITERS = [
    ("remember", "--user", "ann", "Keeps bees"),
    ("forget", "--user", "ann", "fact_0"),
    ("clear", "--user", "ann", "--yes"),
    ("retry",),
]


def _snapshot(folder: Path) -> dict[str, tuple[int, int, int]]:
    """Every name under ``folder`` with its type bits, size and mtime (ns)."""
    seen = {}
    for path in sorted(folder.rglob("*")):
        st = os.lstat(path)
        seen[str(path.relative_to(folder))] = (stat.S_IFMT(st.st_mode), st.st_size, st.st_mtime_ns)
    return seen


def _database_with_ann(tmp_path: Path) -> tuple[Path, Path]:
    """A SQLite memory database holding ann's fact: (its config file, the database)."""
    database = tmp_path / "db" / "mem.sqlite"
    config = sqlite_config(tmp_path, database)
    status, _, err = cli(config, "remember", "--user", "ann", "Grows tomatoes")
    assert status == 0, err
    return config, database


def _assert_refused(status: int, err: str, path: Path, words: str) -> None:
    lines = err.splitlines()
    assert status == 2, err
    assert len(lines) == 1, err
    assert lines[0].startswith("deerflow-memory: error: ")
    assert str(path) in lines[0], lines[0]
    assert words in lines[0], lines[0]
    assert "Traceback" not in err


def _assert_odd_file_refused(
    tmp_path: Path, end: str, make: Callable[[Path], None], words: str, argv: tuple[str, ...]
) -> None:
    """``make`` puts an odd file at ann's database (``end`` "") or beside it (its
    ``-journal``, ``-wal``, ``-shm``): the command is refused, saying ``words`` of it, and
    nothing is made, removed or written."""
    config, database = _database_with_ann(tmp_path)
    odd = Path(f"{database}{end}")
    if end == "":
        database.unlink()
    make(odd)
    before = _snapshot(tmp_path)
    status, _, err = cli(config, *argv)
    _assert_refused(status, err, odd, words)
    assert _snapshot(tmp_path) == before


@pytest.mark.parametrize("argv", [*LOOKS[::2], *WRITERS[:3]], ids=lambda a: a[0])
@pytest.mark.parametrize("end", BESIDE, ids=lambda e: e or "database")
def test_a_named_pipe_at_the_database_or_beside_it_is_refused_without_waiting(
    end: str, argv: tuple[str, ...], tmp_path: Path
) -> None:
    _assert_odd_file_refused(tmp_path, end, *KINDS["pipe"], argv)


# (a folder given as the database is no case: it holds memory.sqlite, storage_path's rule)
ODD_CASES = [
    (end, kind, argv)
    for end in BESIDE
    for kind in ("folder", "socket", "device")
    for argv in (LOOKS[0], WRITERS[0])
    if not (kind == "folder" and end == "")
]


@pytest.mark.parametrize(
    ("end", "kind", "argv"),
    ODD_CASES,
    ids=[f"{e or 'database'}-{k}-{a[0]}" for e, k, a in ODD_CASES],
)
def test_a_folder_socket_or_device_at_the_database_or_beside_it_is_refused(
    end: str, kind: str, argv: tuple[str, ...], tmp_path: Path
) -> None:
    _assert_odd_file_refused(tmp_path, end, *KINDS[kind], argv)


def test_a_pipe_where_no_database_is_yet_is_refused_and_nothing_is_made(tmp_path: Path) -> None:
    # (the database was never made: the pipe stands where `remember` would make it)
    folder = tmp_path / "db"
    folder.mkdir()
    pipe = folder / "mem.sqlite"
    _pipe(pipe)
    config = sqlite_config(tmp_path, pipe)
    for argv in [LOOKS[0], WRITERS[0]]:
        status, _, err = cli(config, *argv)
        _assert_refused(status, err, pipe, "named pipe")
        assert os.listdir(folder) == ["mem.sqlite"]


def test_a_lock_folder_that_is_a_pipe_is_refused(tmp_path: Path) -> None:
    config, database = _database_with_ann(tmp_path)
    locks = Path(f"{database}.locks")
    for name in os.listdir(locks):
        os.unlink(locks / name)
    locks.rmdir()
    _pipe(locks)
    for argv in [LOOKS[0], WRITERS[0]]:
        status, _, err = cli(config, *argv)
        _assert_refused(status, err, locks, "named pipe")


def test_the_database_is_used_again_once_the_pipe_is_gone(tmp_path: Path) -> None:
    config, database = _database_with_ann(tmp_path)
    pipe = Path(f"{database}-journal")
    _pipe(pipe)
    assert cli(config, *WRITERS[0])[0] == 2
    pipe.unlink()
    status, out, err = cli(config, "show", "--user", "ann")
    assert status == 0, err
    assert "Grows tomatoes" in out and "Keeps bees" not in out


@pytest.mark.parametrize("argv", [LOOKS[0], ("list",)], ids=lambda a: a[0])
def test_a_database_path_that_links_to_itself_is_one_typed_error(
    argv: tuple[str, ...], tmp_path: Path
) -> None:
    # attacker 340: a look read the tables through Path.resolve(), whose RuntimeError on a
    # link loop came out as "error: RuntimeError: Symlink loop…", exit 1
    database = tmp_path / "db" / "mem.sqlite"
    database.parent.mkdir()
    database.symlink_to(database.name)
    config = sqlite_config(tmp_path, database)
    status, _, err = cli(config, *argv)
    assert status == 2, err
    assert len(err.splitlines()) == 1 and "RuntimeError" not in err, err
    assert "cannot open SQLite memory database" in err
