"""The CLI says so when it finds nothing where it looked, and where the memory is instead.

A mistyped ``--root`` must not read as "no users yet" (``list`` and ``stats``
used to print nothing, status 0), and memory stored only under tenants must be
pointed to (``--tenant``), not reported as absent. "Nothing to do" answers exit
1, as the help says: an unknown user, an unknown fact, nothing to delete.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from deerflow_memory import FileMemoryStorage
from deerflow_memory.cli import main
from deerflow_memory.models import MemoryDocument
from deerflow_memory.update.manual import add_manual_fact

Run = Callable[..., tuple[int, str, str]]


@pytest.fixture
def run(capsys: pytest.CaptureFixture[str]) -> Run:
    def call(*argv: str) -> tuple[int, str, str]:
        status = main(list(argv))
        out, err = capsys.readouterr()
        return status, out, err

    return call


def one_error(err: str, *words: str) -> None:
    assert err.count("\n") == 1 and err.startswith("deerflow-memory: error: "), err
    for word in words:
        assert word in err, (word, err)


def store(root: Path, user: str, text: str, tenant: str | None = None) -> None:
    storage = FileMemoryStorage(root).scoped(tenant)
    document, _ = add_manual_fact(MemoryDocument(), text)
    storage.save(user, None, document)


@pytest.mark.parametrize(
    "command",
    [
        ["list"],
        ["list", "--json"],
        ["stats"],
        ["stats", "--json"],
        ["pending"],  # "no failed memory updates" was a false all-clear
        ["pending", "--json"],
        ["retry"],  # and retry made the folder it was looking in
    ],
)
def test_list_and_stats_on_a_mistyped_root_say_nothing_is_stored_there(
    tmp_path: Path, run: Run, command: list[str]
) -> None:
    typo = tmp_path / "memroy"
    status, out, err = run("--root", str(typo), *command)
    assert status == 1
    one_error(err, "no memory is stored in", str(typo), "check --root")
    if "--json" in command:
        assert json.loads(out) == []  # scripts still read valid JSON
    assert not typo.exists()  # looking created nothing


def test_retry_with_a_mistyped_tenant_creates_no_tenant(tmp_path: Path, run: Run) -> None:
    store(tmp_path, "ann", "Likes tea", tenant="shop")
    status, _, err = run("--root", str(tmp_path), "retry", "--tenant", "shpo")
    assert status == 1
    one_error(err, "no memory is stored")
    assert run("--root", str(tmp_path), "list", "--tenants")[1] == "shop\n"


def test_list_tenants_with_none_says_so(tmp_path: Path, run: Run) -> None:
    store(tmp_path, "ann", "Likes tea")
    status, out, err = run("--root", str(tmp_path), "list", "--tenants")
    assert status == 1 and out == ""
    one_error(err, "no tenant is stored in")


def test_memory_only_under_tenants_is_pointed_to_by_show_list_and_stats(
    tmp_path: Path, run
) -> None:
    store(tmp_path, "carol", "Likes tea", tenant="shop")
    store(tmp_path, "carol", "Likes trains", tenant="travel")
    root = ("--root", str(tmp_path))
    for command in (
        ["show", "--user", "carol"],
        ["list"],
        ["stats"],
        ["export", "--user", "carol"],
    ):
        status, _, err = run(*root, *command)
        assert status == 1, command
        one_error(err, "without a tenant", "stored tenants: shop, travel", "--tenant")
        assert "check --root" not in err
    status, out, _ = run(*root, "--tenant", "shop", "show", "--user", "carol", "--json")
    assert status == 0 and json.loads(out)["facts"][0]["content"] == "Likes tea"
    status, _, err = run(*root, "--tenant", "nope", "list")
    assert status == 1
    one_error(err, "for tenant 'nope'", "stored tenants: shop, travel")


def test_an_unknown_user_beside_tenants_names_the_stored_users_and_tenants(
    tmp_path: Path, run
) -> None:
    store(tmp_path, "ann", "Likes tea")
    store(tmp_path, "carol", "Likes trains", tenant="shop")
    status, _, err = run("--root", str(tmp_path), "show", "--user", "carol")
    assert status == 1
    one_error(err, "no memory for user 'carol'", "stored users: ann", "stored tenants: shop")


def test_forget_for_a_user_without_memory_says_so_with_status_1(tmp_path: Path, run: Run) -> None:
    store(tmp_path, "ann", "Likes tea")
    status, _, err = run("--root", str(tmp_path), "forget", "--user", "nobody", "fact_1")
    assert status == 1
    one_error(err, "no memory for user 'nobody'", "stored users: ann")
    assert "did you mean" not in err  # nothing close
    status, _, err = run("--root", str(tmp_path), "forget", "--user", "anna", "fact_1")
    one_error(err, "no memory for user 'anna'", "did you mean 'ann'?")  # newcomer 49
    status, _, err = run("--root", str(tmp_path), "forget", "--user", "ann", "fact_1")
    assert status == 1
    one_error(err, "no current fact with id 'fact_1'")


def test_clear_of_a_user_without_memory_is_a_nothing_to_do_answer(tmp_path: Path, run: Run) -> None:
    store(tmp_path, "ann", "Likes tea")
    status, _, err = run("--root", str(tmp_path), "clear", "--user", "nobody", "--yes")
    assert status == 1
    one_error(err, "nothing to delete: no memory for user 'nobody'", "stored users: ann")
    assert "did you mean" not in err  # nothing close
    status, _, err = run("--root", str(tmp_path), "clear", "--user", "anna", "--yes")
    assert status == 1  # newcomer 289: as show, export and forget say it
    one_error(err, "nothing to delete: no memory for user 'anna'", "did you mean 'ann'?")
    status, out, _ = run("--root", str(tmp_path), "clear", "--user", "ann", "--yes")
    assert status == 0 and "deleted the memory of 'ann'" in out


def test_clear_where_nothing_was_ever_stored_makes_no_folder(tmp_path: Path, run: Run) -> None:
    # A mistyped --tenant or --root made an outbox, locks and a fence key there:
    # a tenant folder (or a root) for a typo, where nothing was stored.
    store(tmp_path, "ann", "Likes tea")
    before = sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*"))
    status, _, err = run(
        "--root", str(tmp_path), "--tenant", "shpo", "clear", "--user", "ann", "--yes"
    )
    assert status == 1
    one_error(err, "nothing to delete: no memory is stored", "tenant 'shpo'")
    missing = tmp_path / "elsewhere"
    status, _, err = run("--root", str(missing), "clear", "--user", "ann", "--yes")
    assert status == 1
    one_error(err, "nothing to delete: no memory is stored in")
    assert sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*")) == before
    # where memory is stored, clear still deletes it
    status, out, _ = run("--root", str(tmp_path), "clear", "--user", "ann", "--yes")
    assert status == 0 and "deleted the memory of 'ann'" in out


def test_the_folder_looked_in_is_named_in_full(
    tmp_path: Path, run: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # the default root is relative: .deerflow_memory
    status, _, err = run("show", "--user", "ann")
    assert status == 1
    one_error(err, f"no memory is stored in {tmp_path / '.deerflow_memory'}")


@pytest.mark.parametrize("given", ["m.sqlite", "folder"])
def test_the_sqlite_database_looked_in_is_named(
    given: str, tmp_path: Path, run: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    # "in sqlite storage" named no file (its DSN is empty; attacker 88), and for a root
    # folder the folder, not the database in it (attacker 90).
    monkeypatch.setenv("DEERFLOW_MEMORY_STORAGE", "sqlite")
    if given == "folder":
        root, database = ["--root", str(tmp_path)], tmp_path / "memory.sqlite"
    else:  # the file named by the environment, as a deployment does
        root, database = [], tmp_path / given
        monkeypatch.setenv("DEERFLOW_MEMORY_STORAGE_PATH", str(database))
    assert run(*root, "remember", "--user", "ann", "Rows a skiff")[0] == 0
    status, _, err = run(*root, "show", "--user", "bob")
    assert status == 1
    one_error(err, f"no memory for user 'bob' in sqlite storage {database};")


@pytest.mark.parametrize("given", ["--root=~/mem", "config"])
def test_a_root_starting_with_a_tilde_is_the_home_folders(
    given: str, tmp_path: Path, run: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    # "--root=~/mem" (no shell expands that ~) made a folder named "~" here (newcomer 51).
    home, here = tmp_path / "home", tmp_path / "here"
    home.mkdir()
    here.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.chdir(here)
    where = [given]
    if given == "config":
        (here / "c.yaml").write_text("memory:\n  storage_path: ~/mem\n", "utf-8")
        where = ["--config", str(here / "c.yaml")]
    assert run(*where, "remember", "--user", "bob", "Plays chess on Sundays")[0] == 0
    assert (home / "mem/users/bob/memory.json").is_file()
    assert not (here / "~").exists()
