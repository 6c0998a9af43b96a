"""A change with nothing to change, on a SQLite database this process cannot write:
``clear`` of a user with no memory said "cannot write SQLite memory database", and so
did ``forget`` of an unknown fact or user, where a writable database says there is
nothing to delete (exit 1). They now look first, read only, and say that."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.test_cli_errors import assert_one_error_line, run
from tests.test_cli_sqlite_places import database_of_ann, not_writable


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (("clear", "--user", "bea", "--yes"), "nothing to delete: no memory for user 'bea'"),
        (("forget", "--user", "bea", "fact_0"), "no memory for user 'bea'"),
        (("forget", "--user", "ann", "fact_0"), "no current fact with id 'fact_0'"),
        (("retry", "--user", "bea"), "for user 'bea'"),
    ],
    ids=["clear-unknown-user", "forget-unknown-user", "forget-unknown-fact", "retry-unknown"],
)
@pytest.mark.parametrize("writable", [True, False], ids=["writable", "read-only"])
def test_nothing_to_change_is_said_alike_on_a_read_only_database(
    argv: tuple[str, ...],
    words: str,
    writable: bool,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    config = database_of_ann(tmp_path, capsys, locks=True)
    folder = tmp_path / "ro"
    if writable:
        status, _, err = run(capsys, "--config", str(config), *argv)
    else:
        with not_writable(*sorted(folder.iterdir()), folder):
            status, _, err = run(capsys, "--config", str(config), *argv)
    assert_one_error_line(status, err, words)
    assert status == 1
    assert "cannot write" not in err


def test_a_change_on_a_read_only_database_still_says_it_cannot_write(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = database_of_ann(tmp_path, capsys, locks=True)
    folder = tmp_path / "ro"
    with not_writable(*sorted(folder.iterdir()), folder):
        status, out, _ = run(capsys, "--config", str(config), "show", "--user", "ann", "--json")
        assert status == 0
        fact = out.split('"id": "', 1)[1].split('"', 1)[0]
        for argv in (("clear", "--user", "ann", "--yes"), ("forget", "--user", "ann", fact)):
            status, _, err = run(capsys, "--config", str(config), *argv)
            assert_one_error_line(status, err, "cannot write SQLite memory database")
            assert status == 2
    status, out, _ = run(capsys, "--config", str(config), "show", "--user", "ann")
    assert status == 0 and "Plays oboe" in out
