"""A dead letter is found, replaced and removed by its id, so it must be stored under that id.

A copy kept under another name (a restored backup ``dl_<x>.json`` holding
``{"id": "dl_<y>"}``, or a store item whose key is not its id) was run on every
``retry`` (the model called again each time) and never removed. Such a letter is
listed as unreadable, with where and why, like any other damaged letter; ``retry``
of an id that names no runnable letter says so in one line instead of "0 applied".
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from langchain_core.messages import AIMessage, HumanMessage
from langgraph.store.memory import InMemoryStore
from pydantic import ValidationError

from deerflow_memory.config import MemoryConfig
from deerflow_memory.storage.base import MemoryStorage
from deerflow_memory.storage.dead_letters import DeadLetter
from deerflow_memory.storage.factory import open_storage
from deerflow_memory.storage.file import FileMemoryStorage
from deerflow_memory.storage.store import StoreMemoryStorage
from deerflow_memory.update.dead_letter import dead_letter_for, retry_dead_letters
from deerflow_memory.update.queue import UpdateJob
from deerflow_memory.update.updater import UpdateResult, UpdateStatus
from tests.test_cli import cli

MESSAGES = (HumanMessage("I am allergic to peanuts.", id="h1"), AIMessage("Noted.", id="a1"))
OTHER_ID = "dl_0123456789abcdef01234567"


class CountingUpdater:
    """Stands in for MemoryUpdater: every update goes through, and is counted."""

    def __init__(self) -> None:
        self.calls = 0

    def update(
        self, job: UpdateJob, *, incremental: bool = True, withdrawn: object = None
    ) -> UpdateResult:
        self.calls += 1
        return UpdateResult(UpdateStatus.SAVED)


def letter_of(user: str = "user0") -> DeadLetter:
    return dead_letter_for(UpdateJob("t", user, None, MESSAGES), "ModelCallError: 503", attempts=8)


@contextmanager
def backend(kind: str, tmp_path: Path) -> Iterator[MemoryStorage]:
    if kind == "file":
        yield FileMemoryStorage(tmp_path / "mem")
    elif kind == "store":
        yield StoreMemoryStorage(InMemoryStore())
    else:
        with open_storage(MemoryConfig(storage="sqlite", storage_path=tmp_path / "m.sqlite")) as s:
            yield s


def store_copy(storage: MemoryStorage, letter: DeadLetter, name: str) -> str:
    """Keep ``letter`` unchanged under ``name`` as a backup restore would; its location."""
    if isinstance(storage, FileMemoryStorage):
        path = storage.root / "dead_letters" / f"{name}.json"
        path.write_text(letter.to_json(), encoding="utf-8")
        return str(path)
    assert isinstance(storage, StoreMemoryStorage)
    storage.store.put(storage.dead_letter_namespace, name, letter.to_dict(), index=False)
    return "/".join([*storage.dead_letter_namespace, name])


@pytest.mark.parametrize("kind", ["file", "store", "sqlite"])
@pytest.mark.parametrize("name", ["dl_bad00001", OTHER_ID])
def test_a_letter_stored_under_another_name_is_unreadable_and_never_run(
    kind: str, name: str, tmp_path: Path
) -> None:
    with backend(kind, tmp_path) as storage:
        real = letter_of()
        storage.put_dead_letter(real)
        where = store_copy(storage, real, name)

        assert [x.id for x in storage.list_dead_letters()] == [real.id]  # listed once
        (bad,) = storage.unreadable_dead_letters()
        assert bad.location == where
        assert real.id in bad.reason and name in bad.reason and "not its name" in bad.reason

        updater = CountingUpdater()
        first = retry_dead_letters(storage, updater)  # type: ignore[arg-type]
        assert updater.calls == 1 and [x.removed for x in first] == [True]
        again = retry_dead_letters(storage, updater)  # type: ignore[arg-type]
        assert updater.calls == 1 and again == []  # the copy is not billed again
        assert storage.list_dead_letters() == []
        assert [x.location for x in storage.unreadable_dead_letters()] == [where]  # kept, in view


def test_a_letter_id_that_is_no_safe_file_name_does_not_parse() -> None:
    data = letter_of().to_dict()
    for bad_id in ("dl_xyz00001", "../../etc/passwd", "dl_ABCDEF0123", "", "dl_0a"):
        with pytest.raises(ValidationError):
            DeadLetter.model_validate({**data, "id": bad_id})


def run_cli(root: Path, *args: str) -> Any:
    return cli("--root", str(root), *args, cwd=root.parent)


def test_pending_and_retry_by_command_line_leave_a_renamed_copy_in_view(tmp_path: Path) -> None:
    root = tmp_path / "mem"
    real = letter_of()
    FileMemoryStorage(root).put_dead_letter(real)
    copy = root / "dead_letters" / "dl_bad00001.json"
    copy.write_text(real.to_json(), encoding="utf-8")

    listed = run_cli(root, "pending")
    text = " ".join(listed.stdout.split())
    assert listed.returncode == 0, listed.stderr
    assert "1 unreadable" in text and "1 failed memory update" in text
    assert text.count(real.id) == 2  # its row, and the copy's reason; not two rows
    as_json = run_cli(root, "pending", "--json")
    assert [x["id"] for x in json.loads(as_json.stdout)] == [real.id]

    named = run_cli(root, "retry", "dl_bad00001")
    assert named.returncode == 1 and named.stdout == ""
    assert len(named.stderr.splitlines()) == 1, named.stderr
    assert "dl_bad00001: cannot be read" in named.stderr and "nothing was run" in named.stderr

    first = run_cli(root, "retry")  # the real letter runs; the copy is said to be left
    assert first.returncode == 2 and "1 applied, 0 still failing" in first.stdout
    assert "1 dead letter(s) cannot be read and were not run" in first.stderr
    assert not (root / "dead_letters" / f"{real.id}.json").exists()
    again = run_cli(root, "retry")
    assert again.returncode == 2 and "nothing to retry" not in again.stdout
    assert str(copy) in again.stderr and len(again.stderr.splitlines()) == 1, again.stderr
    assert copy.read_text(encoding="utf-8") == real.to_json()  # kept as it was


def test_retry_with_only_unreadable_letters_names_them_and_fails(tmp_path: Path) -> None:
    root = tmp_path / "mem"
    folder = root / "dead_letters"
    folder.mkdir(parents=True)
    cut = folder / "dl_0123456789abcdef.json"
    cut.write_text('{"id": "dl_0123456789abcdef", "userId": "ana", "messages": [1,', "utf-8")
    others = [folder / f"dl_f{i:015x}.json" for i in range(4)]  # listed after it
    for path in others:
        path.write_text("not json", encoding="utf-8")

    done = run_cli(root, "retry")

    assert done.returncode == 2 and "nothing to retry" not in done.stdout
    assert len(done.stderr.splitlines()) == 1, done.stderr
    assert "5 dead letter(s) cannot be read and were not run" in done.stderr
    assert str(cut) in done.stderr and "and 2 more" in done.stderr
    assert "deerflow-memory pending" in done.stderr
    assert cut.exists() and all(path.exists() for path in others)


def test_retry_of_an_unknown_id_is_one_line_and_runs_nothing(tmp_path: Path) -> None:
    root = tmp_path / "mem"
    real = letter_of("ann")
    FileMemoryStorage(root).put_dead_letter(real)
    for ids, user in (([OTHER_ID], None), ([real.id, OTHER_ID], None), ([real.id], "bob")):
        extra = ("--user", user) if user else ()
        done = run_cli(root, "retry", *extra, *ids)
        assert done.returncode == 1, done.stdout + done.stderr
        assert len(done.stderr.splitlines()) == 1 and "Traceback" not in done.stderr
        assert "unknown dead letter id" in done.stderr and "no such letter" in done.stderr
        assert "applied" not in done.stdout
        assert (root / "dead_letters" / f"{real.id}.json").exists()  # nothing ran
    assert "of user 'bob'" in done.stderr
    assert run_cli(root, "retry", real.id).returncode == 0


def test_a_user_with_only_failed_updates_is_known_to_pending_and_others_are_not(
    tmp_path: Path,
) -> None:
    root = tmp_path / "mem"
    FileMemoryStorage(root).put_dead_letter(letter_of("ann"))  # ann has no memory document
    listed = run_cli(root, "pending", "--user", "ann")
    assert listed.returncode == 0 and "1 failed memory update" in listed.stdout, listed.stderr
    for command in ("pending", "retry"):
        done = run_cli(root, command, "--user", "bob")
        assert done.returncode == 1 and len(done.stderr.splitlines()) == 1, done.stderr
        assert "no memory or failed update for user 'bob'" in done.stderr
        assert "stored users: ann" in done.stderr  # read from the letters too
    assert (root / "dead_letters").is_dir() and any((root / "dead_letters").iterdir())
