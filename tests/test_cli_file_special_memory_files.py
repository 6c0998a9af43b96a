"""A named pipe, folder or link where a user's ``memory.json`` should be, on the file
backend. ``show`` refused it, naming the path, but ``list`` and ``stats`` skipped the
user without a word, as if no memory were there; now ``list`` lists them and ``stats``
names the file and what it is (exit 2), as for a memory file that cannot be parsed."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.test_cli_errors import assert_one_error_line, run


def _pipe(path: Path) -> None:
    os.mkfifo(path)


def _folder(path: Path) -> None:
    path.mkdir()


def _link(path: Path) -> None:
    path.symlink_to(path.parent.parent / "bo" / "memory.json")


PLANTED: dict[str, tuple[Callable[[Path], None], str]] = {
    "pipe": (_pipe, "(a FIFO)"),
    "folder": (_folder, "(a folder)"),
    "link": (_link, "symbolic link"),
}


@pytest.fixture(params=sorted(PLANTED))
def planted(request: pytest.FixtureRequest, tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    """A root holding al's and bo's memory, al's memory.json replaced: (root, its path,
    the words saying what it is)."""
    root = tmp_path / "mem"
    for user in ("al", "bo"):
        assert run(capsys, "--root", str(root), "remember", "--user", user, "Rides")[0] == 0
    make, words = PLANTED[request.param]
    odd = root / "users" / "al" / "memory.json"
    odd.unlink()
    make(odd)
    return root, odd, words


def test_list_lists_a_user_whose_memory_file_is_no_regular_file(
    planted: tuple[Path, Path, str], capsys: pytest.CaptureFixture[str]
) -> None:
    root, _, _ = planted
    status, out, err = run(capsys, "--root", str(root), "list")
    assert status == 0, err
    assert out.splitlines() == ["al\t(default agent)", "bo\t(default agent)"]


def test_stats_names_a_memory_file_that_is_no_regular_file(
    planted: tuple[Path, Path, str], capsys: pytest.CaptureFixture[str]
) -> None:
    root, odd, words = planted
    status, out, err = run(capsys, "--root", str(root), "stats")
    assert_one_error_line(status, err, "1 document(s) could not be read", str(odd), words)
    assert status == 2
    assert "bo" in out  # the others are still counted
