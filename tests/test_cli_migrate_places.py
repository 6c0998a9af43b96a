"""``migrate`` from a place holding nothing, onto itself, or with options it does not read.

Each was a migration that reported success (exit 0) while copying nothing or
something else (newcomer 31): a script had no way to notice.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.test_cli_errors import assert_one_error_line, run


def remember(capsys: pytest.CaptureFixture[str], root: Path, text: str) -> None:
    status, _, err = run(capsys, "--root", str(root), "remember", "--user", "ann", text)
    assert status == 0, err


def test_a_source_folder_holding_no_memory_fails_and_creates_no_target(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    project = tmp_path / "project"  # the app's folder, not its .deerflow_memory
    project.mkdir()
    (project / "app.py").write_text("print('hi')\n", encoding="utf-8")
    target = tmp_path / "e.sqlite"
    status, _, err = run(capsys, "migrate", "--from", f"file:{project}", "--to", f"sqlite:{target}")
    assert_one_error_line(status, err, f"no memory is stored in {project}", "nothing to migrate")
    assert status == 1
    assert not target.exists()


def test_a_source_holding_only_a_cleared_memory_still_migrates(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # The clear is what there is to copy (it keeps old threads from being learned again).
    root = tmp_path / "m"
    remember(capsys, root, "Likes tea")
    assert run(capsys, "--root", str(root), "clear", "--user", "ann", "--yes")[0] == 0
    target = f"file:{tmp_path}/t"
    status, out, err = run(capsys, "migrate", "--from", f"file:{root}", "--to", target)
    assert status == 0, err
    assert "1 document (0 facts) copied" in out


@pytest.mark.parametrize(
    "spelled",
    ["file:{root}", "file:{root}/", "file:{root}/../m", "file:{link}"],
    ids=["same", "slash", "dotdot", "symlink"],
)
def test_the_same_folder_as_source_and_target_is_refused(
    spelled: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = tmp_path / "m"
    remember(capsys, root, "Likes tea")
    link = tmp_path / "link"
    link.symlink_to(root)
    target = spelled.format(root=root, link=link)
    status, _, err = run(capsys, "migrate", "--from", f"file:{root}", "--to", target)
    assert_one_error_line(status, err, "--from and --to are the same storage", str(root))
    assert status == 2


def test_the_same_sqlite_database_spelled_as_its_folder_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = tmp_path / "m"
    remember(capsys, root, "Likes tea")
    database = f"sqlite:{tmp_path}/db/"
    assert run(capsys, "migrate", "--from", f"file:{root}", "--to", database)[0] == 0
    inside = f"sqlite:{tmp_path}/db/memory.sqlite"
    status, _, err = run(capsys, "migrate", "--from", database, "--to", inside)
    assert_one_error_line(status, err, "are the same storage")


@pytest.mark.parametrize(
    "argv",
    [
        ("--root", "{root}", "migrate", "--from", "file:{root}", "--to", "sqlite:{db}"),
        ("migrate", "--from", "file:{root}", "--to", "sqlite:{db}", "--root", "{root}"),
        ("migrate", "--from", "file:{root}", "--to", "sqlite:{db}", "--tenant", "shop"),
    ],
    ids=["root-before", "root-after", "tenant"],
)
def test_root_and_tenant_are_refused_instead_of_ignored(
    argv: tuple[str, ...], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root, db = tmp_path / "m", tmp_path / "db.sqlite"
    remember(capsys, root, "Likes tea")
    status, _, err = run(capsys, *(part.format(root=root, db=db) for part in argv))
    assert_one_error_line(status, err, "does not apply")
    assert status == 2
    assert not db.exists()


def test_a_rerun_says_which_skipped_documents_differ_from_the_source(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root, db = tmp_path / "m", f"sqlite:{tmp_path}/db.sqlite"
    remember(capsys, root, "Likes tea")
    assert run(capsys, "migrate", "--from", f"file:{root}", "--to", db)[0] == 0
    status, out, _ = run(capsys, "migrate", "--from", f"file:{root}", "--to", db)
    assert status == 0
    assert "1 skipped (already in target)" in out and "differ" not in out
    remember(capsys, root, "Likes jazz")  # the source moved on since the first copy
    status, out, _ = run(capsys, "migrate", "--from", f"file:{root}", "--to", db)
    assert status == 0  # the target's copy is kept, as documented
    assert "1 of them differ from the source there, --overwrite replaces them" in out


@pytest.mark.parametrize("target", ["file:{root}/users", "file:{root}/sub", "sqlite:{root}"])
def test_a_target_inside_the_source_folder_is_refused(
    target: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # It wrote {root}/users/users/ann/memory.json into the source's own tree (attack 31b).
    root = tmp_path / "m"
    remember(capsys, root, "Likes tea")
    before = sorted(str(p.relative_to(root)) for p in root.rglob("*"))
    status, _, err = run(
        capsys, "migrate", "--from", f"file:{root}", "--to", target.format(root=root)
    )
    assert_one_error_line(status, err, "is inside the --from folder", str(root))
    assert status == 2
    assert sorted(str(p.relative_to(root)) for p in root.rglob("*")) == before
