"""The file backend in a folder this process cannot write (a read-only mount; as root,
``chattr +i``). The commands that change memory gave raw OS errors ("Operation not
permitted: …/outbox", "… memory.journal.jsonl"); now they say, in one line naming the
place, that the memory cannot be written (exit 2), before anything is written, and
nothing stored changes. The looks (show, export, list, stats, pending) work as before."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from tests.test_cli_errors import assert_one_error_line, run
from tests.test_cli_sqlite_places import not_writable
from tests.test_cli_sqlite_special_files import LOOKS


def _root_of_ann(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[Path, str, Path]:
    """A file root holding ann's memory: (the root, ann's fact id, an export of it)."""
    root = tmp_path / "kept"
    status, _, err = run(capsys, "--root", str(root), "remember", "--user", "ann", "Knits socks")
    assert status == 0, err
    status, out, _ = run(capsys, "--root", str(root), "show", "--user", "ann", "--json")
    fact = json.loads(out)["facts"][0]["id"]
    exported = tmp_path / "ann.json"
    assert run(capsys, "--root", str(root), "export", "--user", "ann", "-o", str(exported))[0] == 0
    return root, fact, exported


def _writers(fact: str, exported: Path) -> list[tuple[str, ...]]:
    return [
        ("remember", "--user", "ann", "Darns socks"),
        ("remember", "--user", "bea", "Spins wool"),
        ("import", "--user", "ann", "--yes", str(exported)),
        ("import", "--user", "cy", str(exported)),
        ("clear", "--user", "ann", "--yes"),
        ("forget", "--user", "ann", fact),
        ("retry",),
        ("--tenant", "guild", "remember", "--user", "ann", "Dyes yarn"),
    ]


def _state(root: Path) -> dict[str, str]:
    """Every path under ``root`` with its bytes' digest (folders: "")."""
    return {
        str(p.relative_to(root)): "" if p.is_dir() else hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(root.rglob("*"))
    }


@pytest.mark.parametrize("how", ["whole-tree", "root-folder-only"])
def test_changes_to_a_read_only_file_root_are_one_line_and_change_nothing(
    how: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root, fact, exported = _root_of_ann(tmp_path, capsys)
    frozen = [root, *sorted(root.rglob("*"))] if how == "whole-tree" else [root]
    before = _state(root)
    with not_writable(*frozen):
        for argv in _writers(fact, exported):
            status, out, err = run(capsys, "--root", str(root), *argv)
            assert_one_error_line(status, err, f"cannot write file memory storage {root}")
            assert "not writable" in err and "it can be read, not changed" in err
            assert status == 2, argv
        for argv in LOOKS:
            status, out, err = run(capsys, "--root", str(root), *argv)
            assert status == 0, (argv, err)
        status, out, _ = run(capsys, "--root", str(root), "show", "--user", "ann")
        assert "Knits socks" in out
    assert _state(root) == before


def test_a_read_only_user_folder_is_named_and_nothing_of_theirs_is_lost(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root, fact, exported = _root_of_ann(tmp_path, capsys)
    folder = root / "users" / "ann"
    before = _state(folder)
    with not_writable(folder):
        status, _, err = run(capsys, "--root", str(root), "clear", "--user", "ann", "--yes")
        assert_one_error_line(status, err, f"{folder} cannot be written")
        assert ".tmp" not in err and status == 2
    with not_writable(folder, *sorted(folder.iterdir())):
        for argv in [*_writers(fact, exported)[:1], ("forget", "--user", "ann", fact)]:
            status, _, err = run(capsys, "--root", str(root), *argv)
            assert_one_error_line(status, err, f"cannot write file memory storage {root}")
            assert str(folder) in err and "cannot be written" in err
            assert status == 2
        # (clear writes the document anew: a temp file's folder would be named, not it)
        status, _, err = run(capsys, "--root", str(root), "clear", "--user", "ann", "--yes")
        assert_one_error_line(status, err, f"cannot write file memory storage {root}", str(folder))
        assert ".tmp" not in err and status == 2
    assert _state(folder) == before
    status, out, _ = run(capsys, "--root", str(root), "show", "--user", "ann")
    assert status == 0 and "Knits socks" in out


def test_a_root_to_be_made_in_a_read_only_folder_is_refused_before_anything_is_made(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    parent = tmp_path / "shelf"
    parent.mkdir()
    root = parent / "new" / "mem"
    with not_writable(parent):
        status, _, err = run(capsys, "--root", str(root), "remember", "--user", "ann", "Sews")
    assert_one_error_line(status, err, f"cannot write file memory storage {root}", str(parent))
    assert status == 2
    assert list(parent.iterdir()) == []


def test_nothing_to_change_on_a_read_only_file_root_is_said_as_on_a_writable_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root, _, _ = _root_of_ann(tmp_path, capsys)
    with not_writable(root, *sorted(root.rglob("*"))):
        for argv, words in [
            (("clear", "--user", "bea", "--yes"), "nothing to delete: no memory for user 'bea'"),
            (("forget", "--user", "ann", "fact_0"), "no current fact with id 'fact_0'"),
        ]:
            status, _, err = run(capsys, "--root", str(root), *argv)
            assert_one_error_line(status, err, words)
            assert status == 1
