"""A named pipe, a plain file or a link to itself where a folder of a file root should be
(``users``, ``dead_letters``, ``outbox``, ``locks``, ``tenants``) or a pipe as its
``fence.key``.
The CLI said raw OS errors ("Not a directory: …/users/a/memory.json", "File exists:
…/outbox") or, for ``users``, that no memory was stored there at all; now every command
says which path is what, in one line, exit 2, and reads or writes nothing."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from tests.test_cli_errors import assert_one_error_line, run

COMMANDS = [
    ("show", "--user", "ann"),
    ("list",),
    ("stats",),
    ("pending",),
    ("remember", "--user", "ann", "Paints"),
    ("clear", "--user", "ann", "--yes"),
    ("retry",),
]


ODD = [
    ("users", "pipe", "is a named pipe (FIFO), not a folder"),
    ("dead_letters", "pipe", "is a named pipe (FIFO), not a folder"),
    ("dead_letters", "file", "is a file, not a folder"),
    ("outbox", "file", "is a file, not a folder"),
    ("outbox", "pipe", "is a named pipe (FIFO), not a folder"),
    ("locks", "pipe", "is a named pipe (FIFO), not a folder"),
    ("fence.key", "pipe", "is a named pipe (FIFO), not a file"),
    # a link to itself: the OS error was taken for a folder not made yet (pending said "no
    # memory is stored" beside an outbox so linked; list, no user)
    ("users", "loop", "is a link that leads back to itself, not a folder"),
    ("dead_letters", "loop", "is a link that leads back to itself, not a folder"),
    ("outbox", "loop", "is a link that leads back to itself, not a folder"),
    ("locks", "loop", "is a link that leads back to itself, not a folder"),
]
LOOKS = ("show", "list", "stats", "pending")
# (a look reads around all but users/: a dead_letters that is a file leaves show's answer;
# pending reads dead_letters/ and outbox/, where it said "Not a directory" or, for a pipe,
# "no failed memory updates")
READ_BY = {"users": LOOKS, "dead_letters": ("pending",), "outbox": ("pending",)}
CASES = [
    (*odd, argv)
    for odd in ODD
    for argv in COMMANDS
    if argv[0] not in LOOKS or argv[0] in READ_BY.get(odd[0], ())
]


@pytest.mark.parametrize(
    ("name", "kind", "words", "argv"), CASES, ids=[f"{c[0]}-{c[3][0]}" for c in CASES]
)
def test_a_layout_folder_that_is_no_folder_is_named(
    name: str,
    kind: str,
    words: str,
    argv: tuple[str, ...],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    root = tmp_path / "mem"
    assert run(capsys, "--root", str(root), "remember", "--user", "ann", "Sketches")[0] == 0
    odd = root / name
    if odd.is_dir():
        shutil.rmtree(odd)
    elif odd.exists():
        odd.unlink()
    if kind == "pipe":
        os.mkfifo(odd)
    elif kind == "loop":
        odd.symlink_to(odd.name)
    else:
        odd.write_text("not a folder\n", "utf-8")
    before = sorted(p.name for p in root.rglob("*"))
    status, _, err = run(capsys, "--root", str(root), *argv)
    assert_one_error_line(status, err, f"{odd} {words}")
    assert status == 2
    assert sorted(p.name for p in root.rglob("*")) == before


def test_a_tenants_dead_letters_that_is_a_pipe_is_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = tmp_path / "mem"
    tenant = ["--root", str(root), "--tenant", "shop"]
    assert run(capsys, *tenant, "remember", "--user", "ann", "Sketches")[0] == 0
    odd = root / "tenants" / "shop" / "dead_letters"
    if odd.is_dir():
        shutil.rmtree(odd)
    os.mkfifo(odd)
    status, _, err = run(capsys, *tenant, "retry")
    assert_one_error_line(status, err, f"{odd} is a named pipe (FIFO), not a folder")
    assert status == 2


@pytest.mark.parametrize(
    "argv",
    [("show", "--user", "ann"), ("list",), ("stats",), ("remember", "--user", "ann", "Knits")],
)
def test_a_tenants_path_that_is_a_pipe_leaves_the_memory_without_a_tenant_alone(
    argv: tuple[str, ...], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # attacker 334: a pipe at tenants/ refused every command, also on ann's own memory
    root = tmp_path / "mem"
    assert run(capsys, "--root", str(root), "remember", "--user", "ann", "Sketches")[0] == 0
    os.mkfifo(root / "tenants")
    assert run(capsys, "--root", str(root), *argv)[0] == 0
    status, _, err = run(capsys, "--root", str(root), "list", "--tenants")
    assert_one_error_line(status, err, f"{root / 'tenants'} is a named pipe (FIFO), not a folder")
    assert status == 2


@pytest.mark.parametrize("argv", [*COMMANDS, ("export", "--user", "ann")])
def test_a_root_that_links_to_itself_is_one_error(
    argv: tuple[str, ...], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # (it was "error: RuntimeError: Symlink loop from …", exit 1; FileMemoryStorage raised
    # RuntimeError)
    root = tmp_path / "mem"
    root.symlink_to(root.name)
    status, _, err = run(capsys, "--root", str(root), *argv)
    assert_one_error_line(status, err, f"storage root {str(root)!r} cannot be followed")
    assert status == 2
    assert [p.name for p in tmp_path.iterdir()] == ["mem"]


@pytest.mark.parametrize("kind", ["loop", "file"])
@pytest.mark.parametrize("argv", [("clear", "--user", "ann", "--yes"), ("show", "--user", "ann")])
def test_a_users_folder_that_is_no_folder_is_named_and_never_said_deleted(
    kind: str, argv: tuple[str, ...], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # (clear said "deleted the memory of 'ann'", exit 0, and deleted nothing; show blamed
    # users/ann/memory.json: attacker 343)
    root = tmp_path / "mem"
    assert run(capsys, "--root", str(root), "remember", "--user", "ann", "Sketches")[0] == 0
    folder = root / "users" / "ann"
    shutil.rmtree(folder)
    if kind == "loop":
        folder.symlink_to(folder.name)
    else:
        folder.write_text("not a folder\n", "utf-8")
    status, out, err = run(capsys, "--root", str(root), *argv)
    assert_one_error_line(status, err, f"{folder}: is ")
    assert status == 2
    assert "deleted" not in out
    assert os.path.lexists(folder)
