"""The store outbox (SQLite, Postgres): crash recovery, leases, replicas sharing the work."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from langchain_core.messages import AIMessage, HumanMessage
from langgraph.store.base import Op, SearchOp

from deerflow_memory import MemoryConfig, MemoryService
from deerflow_memory.storage.factory import build_storage
from deerflow_memory.storage.outbox import PendingUpdate
from deerflow_memory.storage.outbox_store import StoreOutbox
from deerflow_memory.storage.store import StoreMemoryStorage
from deerflow_memory.update.durable import build_outbox, decode_messages, encode_messages
from deerflow_memory.update.union import merge_messages
from tests.pg import postgres_dsn_or_skip, shared_postgres_store
from tests.test_outbox import ROOT, _env, kill_with_pending_then_drain


@pytest.fixture
def sqlite_storage(tmp_path: Path) -> Iterator[StoreMemoryStorage]:
    storage = build_storage(MemoryConfig(storage="sqlite", storage_path=tmp_path / "m.sqlite"))
    assert isinstance(storage, StoreMemoryStorage)
    yield storage
    storage.close()


def pending(record_id: str, due_at: float = 0.0) -> PendingUpdate:
    messages = (HumanMessage("I am a welder.", id="h"), AIMessage("Noted.", id="a"))
    return PendingUpdate("t1", "alice", None, messages, due_at=due_at, record_id=record_id)


def outbox(storage: StoreMemoryStorage, lease: float = 300.0) -> StoreOutbox:
    return StoreOutbox(
        storage, encode_messages, decode_messages, merge=merge_messages, lease_seconds=lease
    )


def test_a_claimed_item_is_retaken_by_another_process_only_after_its_lease(
    sqlite_storage: StoreMemoryStorage,
) -> None:
    first, second = outbox(sqlite_storage, lease=0.3), outbox(sqlite_storage, lease=0.3)
    first.record(pending("1"))
    claimed = first.claim(pending("1"))
    assert claimed is not None and claimed.messages[0].content == "I am a welder."
    assert second.claim(pending("1")) is None  # leased by a live worker
    assert second.poll() == []
    time.sleep(0.4)  # the first worker "crashed": its lease ends
    assert [u.record_id for u in second.poll()] == ["1"]
    assert second.claim(pending("1")) is not None
    second.complete(pending("1"))
    assert second.sync(timeout=10)
    assert second.recover() == [] and first.claim(pending("1")) is None  # done: gone for all
    first.close()
    second.close()


def test_a_newer_capture_from_another_replica_is_left_to_it_until_due(
    sqlite_storage: StoreMemoryStorage,
) -> None:
    a, b = outbox(sqlite_storage), outbox(sqlite_storage)
    a.record(pending("a1", due_at=time.time()))
    assert a.sync(timeout=10)
    b.record(pending("b2", due_at=time.time() + 60))  # the same key, captured later on b
    assert b.sync(timeout=10)
    assert a.claim(pending("a1")) is None  # replaced by b's capture, which is not due
    claimed = b.claim(pending("b2"))
    assert claimed is not None and claimed.record_id == "b2"
    a.close()
    b.close()


@pytest.mark.slow
@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
def test_updates_pending_at_sigkill_are_applied_by_the_next_process_on_a_database(
    tmp_path: Path, backend: str
) -> None:
    where = "storage_path" if backend == "sqlite" else "storage_dsn"
    config: dict[str, object] = {
        "storage": backend,
        where: _clean_database(tmp_path / "m.db", backend),
    }
    assert kill_with_pending_then_drain(config, 20) == 20


@pytest.mark.slow
@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
def test_with_storage_store_a_graphs_compiled_store_keeps_updates_pending_at_sigkill(
    tmp_path: Path, backend: str
) -> None:
    # The store is bound lazily, on the graph's first run: its outbox must exist by then.
    config = {"storage": "store", "db": _clean_database(tmp_path / "graph.db", backend)}
    assert kill_with_pending_then_drain(config, 20, mode="graph-") == 20


def _clean_database(sqlite_file: Path, backend: str) -> str:
    """``sqlite_file`` (new), or the test server's DSN with the default namespace emptied."""
    if backend == "sqlite":
        return str(sqlite_file)
    dsn = postgres_dsn_or_skip()
    _drop_outbox_and_users(dsn)
    return dsn


def _drop_outbox_and_users(dsn: str) -> None:
    """A clean default namespace (the child processes use the default prefix)."""
    from tests.pg import drop_prefix, shared_postgres_store

    shared_postgres_store(dsn)  # creates the tables on a fresh server
    drop_prefix(dsn, ("deerflow_memory",))


@pytest.mark.slow
def test_a_burst_alternating_between_two_replicas_costs_one_model_call(tmp_path: Path) -> None:
    dsn = postgres_dsn_or_skip()
    _drop_outbox_and_users(dsn)
    log = tmp_path / "calls.log"
    config = json.dumps(
        {"storage": "postgres", "storage_dsn": dsn, "debounce_seconds": 2.0, "max_wait_seconds": 60}
    )
    replicas = [
        subprocess.Popen(
            [sys.executable, "-m", "tests.durable_child", "replica", config, name, str(log)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            cwd=ROOT,
            env=_env(),
        )
        for name in ("a", "b")
    ]
    try:
        for replica in replicas:
            assert replica.stdout is not None and replica.stdout.readline().strip() == "ready"
        for k in range(10):  # one user's turns land on a, b, a, b, ...
            replica = replicas[k % 2]
            assert replica.stdin is not None and replica.stdout is not None
            replica.stdin.write(f"turn {k}\n")
            replica.stdin.flush()
            assert replica.stdout.readline().strip() == "ok"
        time.sleep(4.0)  # the debounce window ends on both
        for replica in replicas:
            assert replica.stdin is not None and replica.stdout is not None
            replica.stdin.write("flush\n")
            replica.stdin.flush()
            assert replica.stdout.readline().strip() == "done"
    finally:
        for replica in replicas:
            if replica.poll() is None:
                replica.kill()
            replica.wait(timeout=30)
    calls = log.read_text().split() if log.exists() else []
    assert 1 <= len(calls) <= 2, calls
    storage = build_storage(MemoryConfig(storage="postgres", storage_dsn=dsn))
    try:
        facts = [f.content for f in storage.load("bursty").facts]
    finally:
        storage.close()  # type: ignore[attr-defined]
    assert len(facts) == len(set(facts)) == 10, facts


def test_a_late_write_of_an_older_capture_never_replaces_a_newer_one(
    sqlite_storage: StoreMemoryStorage,
) -> None:
    a, b = outbox(sqlite_storage), outbox(sqlite_storage)
    newer = PendingUpdate("t1", "alice", None, (), record_id="b2", captured_at=2.0)
    older = PendingUpdate("t1", "alice", None, (), record_id="a1", captured_at=1.0)
    b.record(newer)
    assert b.sync(timeout=10)
    a.record(older)  # committed after b's, as a slow replica would
    assert a.sync(timeout=10)
    assert [u.record_id for u in a.recover()] == ["b2"]
    a.close()
    b.close()


def test_a_running_update_keeps_its_lease_alive_so_no_other_process_retakes_it(
    sqlite_storage: StoreMemoryStorage,
) -> None:
    from deerflow_memory.update.durable import DurableUpdates
    from deerflow_memory.update.updater import UpdateResult, UpdateStatus

    mine, other = outbox(sqlite_storage, lease=0.3), outbox(sqlite_storage, lease=0.3)
    seen: list[object] = []

    def slow_update(job: object) -> UpdateResult:
        time.sleep(1.0)  # three leases long
        seen.append(other.claim(pending("1")))  # another process tries meanwhile
        return UpdateResult(UpdateStatus.SAVED)

    mine.record(pending("1"))
    durable = DurableUpdates(mine, slow_update)  # type: ignore[arg-type]
    from deerflow_memory.update.durable import to_job

    durable.run(to_job(pending("1")))
    assert seen == [None]  # renewed: never retaken while it ran
    assert mine.sync(timeout=10) and other.recover() == []  # and done afterwards
    mine.close()
    other.close()


def test_leases_hold_between_replicas_whose_wall_clocks_disagree_by_an_hour(
    sqlite_storage: StoreMemoryStorage, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Both replicas read the database's clock (here: the real time) and store times on it.
    monkeypatch.setattr(sqlite_storage, "database_time", time.time)
    behind = StoreOutbox(
        sqlite_storage,
        encode_messages,
        decode_messages,
        merge=merge_messages,
        clock=lambda: time.time() - 3600,
    )
    ahead = StoreOutbox(
        sqlite_storage,
        encode_messages,
        decode_messages,
        merge=merge_messages,
        clock=lambda: time.time() + 3600,
    )
    behind.sync_clock()
    ahead.sync_clock()
    behind.record(pending("1", due_at=time.time() - 3600))  # due now, on its own clock
    assert behind.claim(pending("1")) is not None  # a 300 s lease, ended at once on ahead's clock
    assert ahead.claim(pending("1")) is None and ahead.poll() == []
    again = behind.claim(pending("1"))  # its own lease: renewed
    assert again is not None and abs(again.due_at - (time.time() - 3600)) < 5  # its own clock
    behind.close()
    ahead.close()


def thread_turns(upto: int) -> tuple[object, ...]:
    return tuple(
        m
        for k in range(upto + 1)
        for m in (HumanMessage(f"I use tool {k}.", id=f"h{k}"), AIMessage("Noted.", id=f"a{k}"))
    )


def test_captures_of_two_replicas_whose_clocks_misorder_them_lose_no_message(
    sqlite_storage: StoreMemoryStorage,
) -> None:
    # Replica b captured turns 0..9 after a captured 0..8, but its clock reads
    # earlier: neither capture may replace the other's messages.
    a, b = outbox(sqlite_storage), outbox(sqlite_storage)
    a.record(PendingUpdate("t1", "alice", None, thread_turns(8), record_id="a8", captured_at=2.0))
    assert a.sync(timeout=10)
    b.record(
        PendingUpdate(
            "t1", "alice", None, thread_turns(9), record_id="b9", captured_at=1.0, correction=True
        )
    )
    assert b.sync(timeout=10)
    (stored,) = a.recover()
    assert [m.id for m in stored.messages] == [m.id for m in thread_turns(9)]  # type: ignore[attr-defined]
    assert stored.correction and stored.record_id == "b9" and stored.captured_at == 2.0
    b.record(PendingUpdate("t1", "alice", None, thread_turns(3), record_id="b3", captured_at=0.5))
    assert b.sync(timeout=10)  # an older capture holding nothing new changes nothing
    assert [u.record_id for u in a.recover()] == ["b9"]
    a.close()
    b.close()


def test_a_dead_item_is_replaced_by_a_later_capture_only(
    sqlite_storage: StoreMemoryStorage,
) -> None:
    box = outbox(sqlite_storage)
    dead = PendingUpdate("t1", "alice", None, thread_turns(1), record_id="d", captured_at=5.0)
    box.record(dead)
    box.dead_letter(dead, "model kept failing")
    box.record(replace(dead, record_id="old", captured_at=4.0))  # a replica's late write
    assert box.sync(timeout=10)
    assert [(u.record_id, u.error) for u in box.dead_letters()] == [("d", "model kept failing")]
    box.record(replace(dead, record_id="new", captured_at=6.0))
    assert box.sync(timeout=10)
    assert box.dead_letters() == [] and [u.record_id for u in box.recover()] == ["new"]
    box.close()


def test_merge_captures_keeps_both_conversations_in_order_and_or_merges_flags() -> None:
    from deerflow_memory.storage.outbox import merge_captures

    older = PendingUpdate("t", "u", None, thread_turns(2)[:4], record_id="x", captured_at=1.0)
    newer = PendingUpdate(
        "t", "u", None, thread_turns(2)[2:], record_id="y", captured_at=2.0, due_at=9.0
    )
    for stored, incoming in ((older, newer), (newer, older)):
        merged = merge_captures(stored, incoming, merge_messages)
        assert merged is not None and merged.record_id == incoming.record_id
        assert [m.id for m in merged.messages] == ["h0", "a0", "h1", "a1", "h2", "a2"]
        assert merged.due_at == 9.0 and merged.captured_at == 2.0
    assert (
        merge_captures(newer, replace(newer, messages=newer.messages[:1]), merge_messages)
        is not None
    )
    assert (
        merge_captures(newer, replace(newer, captured_at=0.0, messages=()), merge_messages) is None
    )


def id_less_capture(record_id: str, at: float, *turns: str) -> PendingUpdate:
    """A capture without message ids (a graph whose state does not use add_messages)."""
    messages = tuple(m for text in turns for m in (HumanMessage(text), AIMessage("Noted.")))
    return PendingUpdate("t1", "alice", None, messages, record_id=record_id, captured_at=at)


def test_a_shared_record_of_two_replicas_keeps_each_message_as_the_updater_counts_it(
    sqlite_storage: StoreMemoryStorage,
) -> None:
    # The service's shared outbox merges two processes' captures by the update queue's
    # rule: a turn said twice ("yes" after two questions) is two turns, and a message
    # stored with its NUL replaced is the same message as the live one.
    box = build_outbox(sqlite_storage, MemoryConfig(storage="sqlite"))
    assert isinstance(box, StoreOutbox)
    try:
        box.record(id_less_capture("a", 1.0, "Shall I book it?\x00", "yes"))
        assert box.sync(timeout=10)
        box.record(id_less_capture("b", 2.0, "Shall I book it?\x00", "yes", "Also Osaka?", "yes"))
        assert box.sync(timeout=10)
        (record,) = box.recover()
    finally:
        box.close()
    assert [(m.type, m.content) for m in record.messages] == [
        ("human", "Shall I book it?\ufffd"),
        ("ai", "Noted."),
        ("human", "yes"),
        ("ai", "Noted."),
        ("human", "Also Osaka?"),
        ("ai", "Noted."),
        ("human", "yes"),
        ("ai", "Noted."),
    ]


def test_clocks_that_agree_within_a_round_trip_get_no_offset_and_a_real_skew_is_corrected(
    sqlite_storage: StoreMemoryStorage, monkeypatch: pytest.MonkeyPatch
) -> None:
    ticks = iter(range(1_000_000))

    def clock() -> float:  # each reading is 10 ms after the last (a 20 ms round trip)
        return 1_000.0 + next(ticks) * 0.01

    for skew, expected in ((0.004, 0.0), (-0.009, 0.0), (5.0, 4.99), (-5.0, -4.99)):
        # the database answers half way through the round trip, ``skew`` ahead of us
        monkeypatch.setattr(sqlite_storage, "database_time", lambda s=skew: clock() + s)
        box = StoreOutbox(
            sqlite_storage, encode_messages, decode_messages, merge=merge_messages, clock=clock
        )
        box.sync_clock()
        assert box._offset == pytest.approx(expected, abs=1e-9), skew
        box.close()


def test_a_postgres_store_reports_the_database_clock() -> None:
    from langgraph.store.postgres import PostgresStore

    dsn = postgres_dsn_or_skip()
    store = shared_postgres_store(dsn)
    assert isinstance(store, PostgresStore)
    storage = StoreMemoryStorage(store, ("dbclock",))
    database = storage.database_time()
    assert database is not None and abs(database - time.time()) < 5
    storage.close()


def test_a_start_reads_the_outbox_once_for_its_pending_records_and_its_dead_letters(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Each store read of a background recovery is one a store closed by its owner
    # can crash on (SqliteStore closes its connection without its lock), so a start
    # must not read the outbox once more for the dead letters.
    config = MemoryConfig(storage="sqlite", storage_path=tmp_path / "m.sqlite")
    storage = build_storage(config)
    assert isinstance(storage, StoreMemoryStorage)
    before = outbox(storage)
    before.record(pending("live"))
    bob = replace(pending("dead"), user_id="bob")
    before.record(bob)
    before.dead_letter(bob, "model exploded")
    assert before.sync(timeout=10)
    before.close()

    searches: list[tuple[str, ...]] = []
    run_ops = StoreMemoryStorage.run_ops

    def counting(self: StoreMemoryStorage, ops: list[Op]) -> list[Any]:
        searches.extend(op.namespace_prefix for op in ops if isinstance(op, SearchOp))
        return run_ops(self, ops)

    monkeypatch.setattr(StoreMemoryStorage, "run_ops", counting)
    after = outbox(storage)
    live, dead = after.recover_all()
    assert [u.record_id for u in live] == ["live"]
    assert [(u.user_id, u.error) for u in dead] == [("bob", "model exploded")]
    assert len(searches) == 1
    after.close()
    storage.close()

    # A service's start goes through it: one read of the outbox, bob's letter handed over.
    searches.clear()
    with MemoryService(config, register_atexit=False) as memory:
        assert memory.durable.wait_recovered(30)
        outbox_reads = [ns for ns in searches if ns[-1] == "outbox"]
        assert [letter.user_id for letter in memory.dead_letters()] == ["bob"]
    assert len(outbox_reads) == 1
