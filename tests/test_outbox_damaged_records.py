"""Damaged outbox records are skipped one by one: the records beside them recover, nothing jams.

A record whose numbers are out of range, whose lease is not one this outbox
wrote, or whose item is not a record at all must not stop a service from
starting, a poller from polling or a writer from writing; and a start hands
over only the dead letters that are its own to hand over.
"""

from __future__ import annotations

import json
import threading
import time
import uuid
from pathlib import Path
from typing import Any

import pytest
from langchain_core.messages import AIMessage, HumanMessage
from langgraph.store.sqlite import SqliteStore

from deerflow_memory import MemoryConfig, MemoryIdentity, MemoryService
from deerflow_memory.storage.factory import build_storage
from deerflow_memory.storage.outbox import PendingUpdate
from deerflow_memory.storage.outbox_file import CORRUPT_SUFFIX
from deerflow_memory.storage.outbox_store import StoreOutbox, outbox_key
from deerflow_memory.storage.store import StoreMemoryStorage
from deerflow_memory.update.durable import DurableUpdates, build_outbox, decode_messages
from deerflow_memory.update.union import merge_messages

WELDER = [
    {"type": "human", "data": {"content": "I am a welder by trade.", "type": "human"}},
    {"type": "ai", "data": {"content": "Noted.", "type": "ai"}},
]


def record(thread: str, **changes: Any) -> dict[str, Any]:
    base = {"thread": thread, "user": "alice", "agent": None, "messages": WELDER}
    return {**base, "due": 0, "id": f"r-{thread}", "captured": 0, **changes}


@pytest.mark.parametrize(
    "changes",
    [
        {"due": 10**400},
        {"captured": 10**400},
        {"due": float("inf")},
        {"due": "soon"},
        {"due": True},
        {"attempts": 2.5},
        {"attempts": -1},
        {"attempts": "3"},
        {"error": 5},
    ],
    ids=repr,
)
def test_a_record_with_an_odd_field_is_unreadable_not_an_arithmetic_error(
    changes: dict[str, Any],
) -> None:
    with pytest.raises((TypeError, ValueError)):
        PendingUpdate.from_json(record("t1", **changes), decode_messages)


def test_a_readable_record_still_reads() -> None:
    update = PendingUpdate.from_json(
        record("t1", due=12, captured=3.5, attempts=2, error="boom"), decode_messages
    )
    assert (update.due_at, update.captured_at, update.attempts, update.error) == (
        12.0,
        3.5,
        2,
        "boom",
    )


def dead_journal(root: Path, lines: list[dict[str, Any]]) -> Path:
    """The journal of a process that died with ``lines`` in it (its lock file free)."""
    folder = root / "outbox"
    folder.mkdir(parents=True, exist_ok=True)
    owner = uuid.uuid4().hex
    journal = folder / f"{owner}.jsonl"
    journal.write_text("".join(json.dumps(line) + "\n" for line in lines))
    (folder / f"{owner}.lock").write_text("")
    return journal


def facts(memory: MemoryService, user: str) -> list[str]:
    return [f.content for f in memory.load(MemoryIdentity(user, None, "t")).facts]


def test_a_dead_journal_with_out_of_range_numbers_recovers_the_rest(tmp_path: Path) -> None:
    odd = [
        {"op": "put", "update": record("t2", due=10**400)},
        {"op": "put", "update": record("t3", attempts=float("inf"))},
        {"op": ["put"], "update": record("t4")},  # an op no version writes
    ]
    journal = dead_journal(tmp_path, [{"op": "put", "update": record("t1")}, *odd])
    config = MemoryConfig(storage_path=tmp_path, debounce_seconds=0.01)
    with MemoryService(config, register_atexit=False) as memory:  # it starts
        assert memory.flush(timeout=30).drained
        assert any("welder" in fact for fact in facts(memory, "alice"))
    kept = journal.with_name(journal.name + CORRUPT_SUFFIX).read_text().splitlines()
    assert [json.loads(line) for line in kept] == odd  # kept as they were, none dropped


def sqlite_with_outbox_item(tmp_path: Path, item: dict[str, Any]) -> MemoryConfig:
    """A SQLite memory holding ``item`` under alice's thread t1 in its outbox; its config."""
    config = MemoryConfig(
        storage="sqlite", storage_path=tmp_path / "m.sqlite", debounce_seconds=0.01
    )
    storage = build_storage(config)
    assert isinstance(storage, StoreMemoryStorage)
    key = outbox_key("t1", "alice", None)
    storage.store.put((*storage.namespace_prefix, "outbox"), key, item, index=False)
    storage.close()
    return config


@pytest.mark.parametrize("lease", ["soon", [1], True, {"until": 1}], ids=repr)
def test_a_store_item_with_an_odd_lease_is_run_and_does_not_stop_the_start(
    tmp_path: Path, lease: object
) -> None:
    item = {"update": record("t1"), "leaseOwner": "gone", "leaseUntil": lease}
    config = sqlite_with_outbox_item(tmp_path, item)
    with MemoryService(config, register_atexit=False) as memory:
        assert memory.flush(timeout=30).drained
        assert any("welder" in fact for fact in facts(memory, "alice"))


@pytest.mark.parametrize("held", [None, "text", [1, 2]])
def test_a_store_item_that_is_not_a_record_is_replaced_and_jams_nothing(
    tmp_path: Path, held: object
) -> None:
    config = sqlite_with_outbox_item(tmp_path, {"update": held})
    alice, bob = MemoryIdentity("alice", None, "t1"), MemoryIdentity("bob", None, "t9")
    with MemoryService(config, register_atexit=False) as memory:
        memory.enqueue(alice, [HumanMessage("I am a welder by trade."), AIMessage("Noted.")])
        memory.enqueue(bob, [HumanMessage("I am a baker in Leeds."), AIMessage("Noted.")])
        result = memory.flush(timeout=30)
        assert result.drained and not result.failed
        assert any("welder" in fact for fact in facts(memory, "alice"))
        assert any("baker" in fact for fact in facts(memory, "bob"))
        assert memory.dead_letters() == []


def test_a_live_process_dead_letter_is_not_handed_over_by_another_start(tmp_path: Path) -> None:
    config = MemoryConfig(storage_path=tmp_path, debounce_seconds=3600)
    live = build_outbox(build_storage(config), config)  # another process, still running
    assert live is not None
    turn = (HumanMessage("I am a welder and allergic to shellfish."), AIMessage("Noted."))
    update = PendingUpdate("t1", "alice", None, turn, record_id="r1")
    live.record(update)
    live.dead_letter(update, "model exploded")
    assert live.sync(timeout=10)
    try:
        with MemoryService(config, register_atexit=False) as memory:
            assert memory.dead_letters() == []  # the live process keeps its own
        with MemoryService(config, register_atexit=False) as memory:
            assert memory.dead_letters() == []  # and no start adds it, however many
    finally:
        live.close()


def test_close_waits_for_a_recovery_handing_over_letters_and_stops_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A close that returned while the recovery still wrote letters would let the
    # app close its SqliteStore under that write (a crash of the process).
    path = str(tmp_path / "m.sqlite")
    with SqliteStore.from_conn_string(path) as store:
        store.setup()
        seed = StoreOutbox(
            StoreMemoryStorage(store), lambda m: list(m), decode_messages, merge=merge_messages
        )
        for i in range(40):
            update = PendingUpdate(f"t{i}", "alice", None, (), record_id=f"r{i}")
            seed.record(update)
            seed.dead_letter(update, "model exploded")
        assert seed.sync(timeout=30)
        seed.close()

    handing = threading.Event()
    put_dead_letter = DurableUpdates._put_dead_letter

    def slow(self: DurableUpdates, update: PendingUpdate, error: str, attempts: int) -> bool:
        handing.set()
        time.sleep(0.25)  # 40 letters: 10 s, longer than any close should take
        return put_dead_letter(self, update, error, attempts)

    monkeypatch.setattr(DurableUpdates, "_put_dead_letter", slow)
    with SqliteStore.from_conn_string(path) as store:
        memory = MemoryService(MemoryConfig(storage="store"), register_atexit=False)
        who = MemoryIdentity("bob", None, "x")
        memory.enqueue(who, [HumanMessage("hi"), AIMessage("hello")], store=store)
        assert handing.wait(30)
        memory.close(timeout=30)
        recoverer = memory.durable._recoverer
        assert recoverer is not None and not recoverer.is_alive()
        handed = len(StoreMemoryStorage(store).list_dead_letters())
    assert 1 <= handed < 40  # stopped between letters; the rest wait for the next start
