"""A dead letter's writers and its retry never lose what another one added or what cannot be read.

A retry runs a letter as it was listed, then removes it (went through) or
records the attempt (failed). Another failure of the same thread may merge a
turn into the letter while the retry runs: that turn must stay. Writers merge
into the key's letter under the user's update lock; one that cannot get it
writes a letter of its own. A letter of the key that cannot be read is kept
as it is, never overwritten: the next failure goes to the key's next id.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import ExitStack
from pathlib import Path

import pytest
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage
from langgraph.store.memory import InMemoryStore

from deerflow_memory import MemoryConfig, MemoryService
from deerflow_memory.storage.base import MemoryStorage
from deerflow_memory.storage.dead_letters import DeadLetter, dead_letter_id
from deerflow_memory.storage.file import FileMemoryStorage
from deerflow_memory.storage.store import StoreMemoryStorage
from deerflow_memory.update.dead_letter import retry_dead_letters
from deerflow_memory.update.durable import DurableUpdates, to_pending
from deerflow_memory.update.queue import UpdateJob
from deerflow_memory.update.updater import UpdateResult, UpdateStatus

# No ids: a thread without a checkpointer, each capture holding only its own turn.
TURN1 = (HumanMessage("I'm allergic to peanuts"), AIMessage("Noted."))
TURN2 = (HumanMessage("I also use a wheelchair"), AIMessage("Noted, I will keep that in mind."))
TURN3 = (HumanMessage("I work night shifts"), AIMessage("Understood."))
KEY_ID = dead_letter_id("t1", "ana", None)


def said(turns: tuple[tuple[BaseMessage, ...], ...]) -> list[str]:
    return [str(m.content) for turn in turns for m in turn]


def contents(letter: DeadLetter) -> list[str]:
    return [m["data"]["content"] for m in letter.messages]


def job(turn: Sequence[BaseMessage]) -> UpdateJob:
    return UpdateJob("t1", "ana", None, tuple(turn))


def outbox_fails(storage: MemoryStorage, turn: Sequence[BaseMessage], wait: float = 5) -> None:
    """The thread's ``turn`` fails for good on the outbox's path (DurableUpdates.run)."""
    durable = DurableUpdates(
        object(),  # type: ignore[arg-type]  # storing a letter never touches the outbox
        lambda _: UpdateResult(UpdateStatus.FAILED),
        lambda: storage,
        lock_timeout=wait,
    )
    assert durable._put_dead_letter(to_pending(job(turn)), "ModelCallError: 503", 3)


@pytest.fixture(params=["file", "store"])
def storage(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[MemoryStorage]:
    if request.param == "file":
        yield FileMemoryStorage(tmp_path / "memory")
    else:
        yield StoreMemoryStorage(InMemoryStore())


class RacedUpdater:
    """Stands in for MemoryUpdater: while a letter runs, ``meanwhile`` happens; then ``status``."""

    def __init__(self, status: UpdateStatus, meanwhile: Callable[[], None] = lambda: None):
        self.status, self.meanwhile = status, meanwhile
        self.ran: list[list[str]] = []

    def update(
        self, job: UpdateJob, *, incremental: bool = True, withdrawn: object = None
    ) -> UpdateResult:
        self.ran.append([str(m.content) for m in job.messages])
        self.meanwhile()
        error = "ModelCallError: 503 again" if self.status is UpdateStatus.FAILED else None
        return UpdateResult(self.status, error=error)


def test_a_turn_merged_into_a_letter_while_its_retry_ran_stays_when_the_retry_went_through(
    storage: MemoryStorage,
) -> None:
    outbox_fails(storage, TURN1)
    racing = RacedUpdater(UpdateStatus.SAVED, lambda: outbox_fails(storage, TURN2))

    [outcome] = retry_dead_letters(storage, racing)  # type: ignore[arg-type]

    assert racing.ran == [said((TURN1,))]
    [left] = storage.list_dead_letters("ana")
    assert contents(left) == said((TURN2,))  # what ran is gone, the merged turn is not
    assert outcome.removed and outcome.left == left
    later = RacedUpdater(UpdateStatus.SAVED)
    [again] = retry_dead_letters(storage, later)  # type: ignore[arg-type]
    assert later.ran == [said((TURN2,))] and again.removed and again.left is None
    assert storage.list_dead_letters("ana") == []


def test_a_retry_that_fails_again_keeps_the_turn_merged_into_its_letter_meanwhile(
    storage: MemoryStorage,
) -> None:
    outbox_fails(storage, TURN1)
    racing = RacedUpdater(UpdateStatus.FAILED, lambda: outbox_fails(storage, TURN2))

    [outcome] = retry_dead_letters(storage, racing)  # type: ignore[arg-type]

    [left] = storage.list_dead_letters("ana")
    assert contents(left) == said((TURN1, TURN2))  # never the snapshot written over it
    assert left.attempts == 3 + 3 + 1 and left.error == "ModelCallError: 503 again"
    assert not outcome.removed and outcome.left == left


def test_a_letter_removed_while_its_retry_ran_is_not_written_back(storage: MemoryStorage) -> None:
    outbox_fails(storage, TURN1)
    racing = RacedUpdater(UpdateStatus.FAILED, lambda: storage.delete_dead_letter(KEY_ID))

    [outcome] = retry_dead_letters(storage, racing)  # type: ignore[arg-type]

    assert storage.list_dead_letters() == [] and outcome.left is None and not outcome.removed


def test_a_retry_that_cannot_get_the_lock_after_its_run_leaves_the_letter_as_it_was(
    storage: MemoryStorage,
) -> None:
    outbox_fails(storage, TURN1)
    [before] = storage.list_dead_letters("ana")
    held = ExitStack()  # another update of the user holds the lock past the retry's wait
    racing = RacedUpdater(
        UpdateStatus.SAVED, lambda: held.enter_context(storage.update_lock("ana", None, 5))
    )

    with held:
        [outcome] = retry_dead_letters(storage, racing, lock_timeout=0.05)  # type: ignore[arg-type]

    assert outcome.result.status is UpdateStatus.SAVED and not outcome.removed
    assert storage.list_dead_letters("ana") == [before]  # runs again next time, nothing lost


def service_of(root: Path, **options: float) -> MemoryService:
    config = MemoryConfig(storage_path=root, outbox=False, **options)  # type: ignore[arg-type]
    return MemoryService(config, register_atexit=False)


@pytest.mark.parametrize("writer", ["outbox", "service"])
def test_a_dead_letter_write_waits_for_its_users_update_lock(writer: str, tmp_path: Path) -> None:
    with service_of(tmp_path / "memory") as memory:
        storage = memory.storage

        def write() -> None:
            if writer == "outbox":
                outbox_fails(storage, TURN1)
            else:
                memory.write_dead_letter(job(TURN1), "ModelCallError: 503")

        thread = threading.Thread(target=write)
        with storage.update_lock("ana", None, 5):  # a retry settling the user's letter
            thread.start()
            time.sleep(0.3)
            assert storage.list_dead_letters() == []  # not read-merged-written meanwhile
        thread.join(timeout=10)
        [letter] = storage.list_dead_letters()
        assert contents(letter) == said((TURN1,))


@pytest.mark.parametrize("writer", ["outbox", "service"])
def test_a_writer_that_cannot_get_the_lock_keeps_its_turn_in_a_letter_of_its_own(
    writer: str, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    with service_of(tmp_path / "memory", update_lock_timeout_seconds=0.05) as memory:
        storage = memory.storage
        outbox_fails(storage, TURN1)
        with storage.update_lock("ana", None, 5), caplog.at_level("WARNING"):
            if writer == "outbox":
                outbox_fails(storage, TURN2, wait=0.05)
            else:
                memory.write_dead_letter(job(TURN2), "ModelCallError: 503")
        letters = {x.id: x for x in storage.list_dead_letters("ana")}
        assert contents(letters.pop(KEY_ID)) == said((TURN1,))  # not touched without the lock
        [(stray_id, stray)] = letters.items()
        assert stray_id.startswith(KEY_ID) and contents(stray) == said((TURN2,))
        assert stray.thread_id == "t1"
        assert any(stray_id in r.getMessage() for r in caplog.records)


def test_a_lock_that_cannot_be_taken_at_all_loses_no_failure_and_breaks_no_retry(
    storage: MemoryStorage, monkeypatch: pytest.MonkeyPatch
) -> None:
    outbox_fails(storage, TURN1)

    def broken(*args: object) -> object:
        raise RuntimeError("lock folder is a file")

    monkeypatch.setattr(storage, "update_lock", broken)
    outbox_fails(storage, TURN2)  # merged without the lock: one letter, nothing lost
    [letter] = storage.list_dead_letters("ana")
    assert contents(letter) == said((TURN1, TURN2))

    [outcome] = retry_dead_letters(storage, RacedUpdater(UpdateStatus.SAVED))  # type: ignore[arg-type]
    assert not outcome.removed and storage.list_dead_letters("ana") == [letter]


def corrupt(storage: MemoryStorage, letter_id: str) -> object:
    """Make the stored letter ``letter_id`` fail validation (as another version might write it)."""
    if isinstance(storage, FileMemoryStorage):
        path = storage.root / "dead_letters" / f"{letter_id}.json"
        path.write_text(json.dumps({**json.loads(path.read_text()), "attempts": -1}))
        return path.read_bytes()
    assert isinstance(storage, StoreMemoryStorage)
    ns = storage.dead_letter_namespace
    item = storage.store.get(ns, letter_id)
    assert item is not None
    storage.store.put(ns, letter_id, {**item.value, "attempts": -1}, index=False)
    return storage.store.get(ns, letter_id).value  # type: ignore[union-attr]


def stored_raw(storage: MemoryStorage, letter_id: str) -> object:
    if isinstance(storage, FileMemoryStorage):
        return (storage.root / "dead_letters" / f"{letter_id}.json").read_bytes()
    assert isinstance(storage, StoreMemoryStorage)
    return storage.store.get(storage.dead_letter_namespace, letter_id).value  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("kind", "writer"), [("file", "outbox"), ("file", "service"), ("store", "outbox")]
)
def test_the_next_failure_never_overwrites_the_keys_letter_that_cannot_be_read(
    kind: str, writer: str, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    with service_of(tmp_path / "memory") as memory:
        storage: MemoryStorage = (
            memory.storage if kind == "file" else StoreMemoryStorage(InMemoryStore())
        )

        def fails(turn: tuple[BaseMessage, ...]) -> None:
            if writer == "outbox":
                outbox_fails(storage, turn)
            else:
                memory.write_dead_letter(job(turn), "ModelCallError: 503")

        fails(TURN1)
        damaged = corrupt(storage, KEY_ID)
        [bad] = storage.unreadable_dead_letters()

        with caplog.at_level("WARNING"):
            fails(TURN2)

        assert storage.unreadable_dead_letters() == [bad]  # still there, still in view
        assert stored_raw(storage, KEY_ID) == damaged  # byte for byte
        [letter] = storage.list_dead_letters("ana")
        assert letter.id == KEY_ID + "01" and contents(letter) == said((TURN2,))
        warned = " ".join(r.getMessage() for r in caplog.records)
        assert KEY_ID in warned and letter.id in warned and "attempts" in warned

        fails(TURN3)  # the key's next failure merges into that letter, not a third one
        [merged] = storage.list_dead_letters("ana")
        assert merged.id == letter.id and contents(merged) == said((TURN2, TURN3))
        assert storage.unreadable_dead_letters() == [bad]
