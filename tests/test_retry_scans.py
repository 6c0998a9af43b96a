"""A whole retry lists the dead letters once, whatever their number (not once per memory).

Each memory's letters are read again under its claim and after their run,
but one by one (``read_dead_letter``): a listing reads and parses every
letter of the storage, so one per memory made a retry of N letters take
N² reads (minutes for a few thousand after a day-long model outage).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from langgraph.store.memory import InMemoryStore

from deerflow_memory.storage.base import MemoryStorage
from deerflow_memory.storage.file import FileMemoryStorage
from deerflow_memory.storage.store import StoreMemoryStorage
from deerflow_memory.update.dead_letter import dead_letter_for
from deerflow_memory.update.queue import UpdateJob
from tests.test_dead_letter_claims import Model, retry, turns


class CountedFile(FileMemoryStorage):
    listings = 0

    def all_dead_letters(self):  # type: ignore[no-untyped-def]
        self.listings += 1
        return super().all_dead_letters()


class CountedStore(StoreMemoryStorage):
    listings = 0

    def all_dead_letters(self):  # type: ignore[no-untyped-def]
        self.listings += 1
        return super().all_dead_letters()


@pytest.fixture(params=["file", "store"])
def storage(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[MemoryStorage]:
    if request.param == "file":
        yield CountedFile(tmp_path / "memory")
    else:
        yield CountedStore(InMemoryStore())


def test_a_whole_retry_of_many_memories_lists_the_letters_once(storage: MemoryStorage) -> None:
    for i in range(12):
        job = UpdateJob(f"t{i}", f"user{i}", None, tuple(turns(i)))
        storage.put_dead_letter(dead_letter_for(job, "ModelCallError: 503", attempts=1))
    model = Model()

    outcomes = retry(storage, model)

    assert len(outcomes) == 12 and all(x.removed for x in outcomes)
    assert len(model.sent) == 12
    assert storage.listings == 1  # type: ignore[attr-defined]
    assert storage.list_dead_letters() == []


def test_a_letter_read_alone_is_the_stored_one_or_none(storage: MemoryStorage) -> None:
    job = UpdateJob("t1", "ana", None, tuple(turns(0)))
    letter = dead_letter_for(job, "ModelCallError: 503", attempts=1)
    storage.put_dead_letter(letter)

    assert storage.read_dead_letter(letter.id) == letter
    assert storage.read_dead_letter("dl_" + "0" * 24) is None
    storage.delete_dead_letter(letter.id)
    assert storage.read_dead_letter(letter.id) is None


def test_a_damaged_letter_file_read_alone_is_none_and_stays(tmp_path: Path) -> None:
    storage = FileMemoryStorage(tmp_path / "memory")
    job = UpdateJob("t1", "ana", None, tuple(turns(0)))
    letter = dead_letter_for(job, "ModelCallError: 503", attempts=1)
    storage.put_dead_letter(letter)
    path = tmp_path / "memory" / "dead_letters" / f"{letter.id}.json"
    path.write_text(letter.to_json()[:40], encoding="utf-8")

    assert storage.read_dead_letter(letter.id) is None
    assert [bad.location for bad in storage.unreadable_dead_letters()] == [str(path)]
