"""``migrate`` carries the user's words not learned yet: dead letters and pending outbox updates.

After a migration the config points at the target; what failed for good
(``pending`` / ``retry``) and what was captured but not yet run must be
there, or those words are never learned. Real file and SQLite backends.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage
from langgraph.store.memory import InMemoryStore

from deerflow_memory import MemoryConfig, MemoryIdentity, MemoryService
from deerflow_memory.storage.base import MemoryStorage
from deerflow_memory.storage.dead_letters import DeadLetter
from deerflow_memory.storage.factory import open_storage
from deerflow_memory.storage.file import FileMemoryStorage
from deerflow_memory.storage.migrate import migrate
from deerflow_memory.storage.migrate_pending import waiting_updates
from deerflow_memory.storage.outbox import Outbox, PendingUpdate
from deerflow_memory.storage.outbox_file import FileOutbox
from deerflow_memory.storage.outbox_store import StoreOutbox
from deerflow_memory.storage.store import StoreMemoryStorage
from deerflow_memory.update.durable import decode_messages, encode_messages
from deerflow_memory.update.union import merge_messages

ALICE = MemoryIdentity("alice", None, "t1")
SAID: list[BaseMessage] = [
    HumanMessage("I am allergic to peanuts.", id="m1"),
    AIMessage("Noted.", id="m2"),
]


def config(kind: str, path: Path, **extra: object) -> MemoryConfig:
    return MemoryConfig(storage=kind, storage_path=path, debounce_seconds=0.0, **extra)  # type: ignore[arg-type]


@pytest.fixture
def sqlite(tmp_path: Path) -> Iterator[tuple[Path, MemoryStorage]]:
    path = tmp_path / "memory.sqlite"
    with open_storage(config("sqlite", path)) as storage:
        yield path, storage


def a_letter() -> DeadLetter:
    return DeadLetter.for_key(
        "t1",
        "alice",
        None,
        error="TransientModelError: scripted 500",
        attempts=3,
        first_failed_at="2026-11-30T10:00:00Z",
        last_attempt_at="2026-11-30T10:05:00Z",
        message_ids=("m1", "m2"),
        message_ids_are="ids",
        messages=tuple(encode_messages(SAID)),
        correction_detected=True,
    )


def a_pending_update(thread: str = "t1", messages: list[BaseMessage] = SAID) -> PendingUpdate:
    now = time.time()
    return PendingUpdate(
        thread, "alice", None, tuple(messages), due_at=now, record_id=f"r-{thread}", captured_at=now
    )


def left_by_a_stopped_process(outbox: Outbox, *updates: PendingUpdate) -> None:
    """What a process that captured ``updates`` and stopped before running them leaves."""
    for update in updates:
        outbox.record(update)
    assert outbox.sync(timeout=30)
    outbox.close()


def learned(kind: str, path: Path, *, retry: bool = False) -> list[str]:
    """What a service on the migrated backend learns: pending updates, then (``retry``) letters."""
    with MemoryService(config(kind, path), register_atexit=False) as memory:
        assert memory.flush(timeout=30)
        if retry:
            memory.retry_dead_letters()
        return [f.content for f in memory.load(ALICE).facts]


def test_dead_letters_are_copied_whole_and_a_rerun_copies_nothing_twice(
    tmp_path: Path, sqlite: tuple[Path, MemoryStorage]
) -> None:
    path, target = sqlite
    source = FileMemoryStorage(tmp_path / "files")
    letter = a_letter()
    source.put_dead_letter(letter)
    report = migrate(source, target)
    assert target.list_dead_letters() == [letter]  # every field, the id kept
    assert report.ok and report.letters_copied == [letter.id], report.summary()
    assert "1 dead letters copied" in report.summary()
    again = migrate(source, target)
    assert again.ok and again.letters_copied == [] and again.letters_skipped == [letter.id]
    assert target.list_dead_letters() == [letter]
    facts = learned("sqlite", path, retry=True)
    assert any("peanuts" in f for f in facts), facts


def test_pending_updates_of_a_stopped_process_are_run_by_the_target(
    tmp_path: Path, sqlite: tuple[Path, MemoryStorage]
) -> None:
    path, target = sqlite
    source = FileMemoryStorage(tmp_path / "files")
    left_by_a_stopped_process(
        FileOutbox(source.root, encode_messages, decode_messages), a_pending_update()
    )
    report = migrate(source, target)
    assert isinstance(target, StoreMemoryStorage)
    waiting = StoreOutbox(target, encode_messages, decode_messages, merge=merge_messages)
    assert [(u.key, u.messages) for u in waiting.recover()] == [
        (("t1", "alice", None), tuple(SAID))
    ]
    assert report.ok and report.pending_copied == [("alice", None, "t1")], report.summary()
    assert "1 pending updates copied" in report.summary()
    again = migrate(source, target)
    assert again.ok and again.pending_copied == [] and len(again.pending_skipped) == 1
    facts = learned("sqlite", path)
    assert any("peanuts" in f for f in facts), facts


def test_two_stopped_processes_pending_updates_of_one_thread_keep_both_turns(
    tmp_path: Path,
) -> None:
    source = FileMemoryStorage(tmp_path / "files")
    later = [*SAID, HumanMessage("I live in Oslo.", id="m3"), AIMessage("Nice.", id="m4")]
    left_by_a_stopped_process(
        FileOutbox(source.root, encode_messages, decode_messages), a_pending_update()
    )
    left_by_a_stopped_process(
        FileOutbox(source.root, encode_messages, decode_messages),
        a_pending_update(messages=later[2:]),
    )
    target = FileMemoryStorage(tmp_path / "target")
    report = migrate(source, target)
    assert report.ok and len(report.pending_copied) == 1, report.summary()
    facts = learned("file", tmp_path / "target")
    assert any("peanuts" in f for f in facts) and any("Oslo" in f for f in facts), facts


def test_store_pending_updates_go_to_a_file_target(
    tmp_path: Path, sqlite: tuple[Path, MemoryStorage]
) -> None:
    _, source = sqlite
    assert isinstance(source, StoreMemoryStorage)
    outbox = StoreOutbox(source, encode_messages, decode_messages, merge=merge_messages)
    left_by_a_stopped_process(outbox, a_pending_update())
    source.put_dead_letter(a_letter())
    report = migrate(source, FileMemoryStorage(tmp_path / "files"))
    assert report.ok and len(report.pending_copied) == len(report.letters_copied) == 1
    assert FileMemoryStorage(tmp_path / "files").list_dead_letters() == [a_letter()]
    facts = learned("file", tmp_path / "files")
    assert any("peanuts" in f for f in facts), facts


def test_pending_updates_a_running_process_holds_are_not_copied_and_the_report_says_so(
    tmp_path: Path, sqlite: tuple[Path, MemoryStorage]
) -> None:
    _, target = sqlite
    source = FileMemoryStorage(tmp_path / "files")
    running = FileOutbox(source.root, encode_messages, decode_messages)
    try:
        running.record(a_pending_update())
        assert running.sync(timeout=30)
        report = migrate(source, target)
    finally:
        running.close()
    assert not report.ok and report.pending_held == [("alice", None, "t1")]
    assert "a running process holds them" in report.summary()
    assert migrate(source, target).ok  # stopped: now it goes


def test_store_pending_updates_a_running_process_leases_are_not_copied_and_pending_counts_them(
    tmp_path: Path, sqlite: tuple[Path, MemoryStorage]
) -> None:
    # StoreOutbox.leased(): an item whose lease is live is being run by another process.
    _, source = sqlite
    assert isinstance(source, StoreMemoryStorage)
    running = StoreOutbox(source, encode_messages, decode_messages, merge=merge_messages)
    try:
        running.record(a_pending_update())
        assert running.sync(timeout=30)
        assert running.claim(a_pending_update()) is not None  # its worker runs it now
        assert waiting_updates(source) == (0, 1, 0)
        report = migrate(source, FileMemoryStorage(tmp_path / "files"))
        assert not report.ok and report.pending_held == [("alice", None, "t1")], report.summary()
        assert report.pending_copied == []
        running.release(a_pending_update())  # the process stopped before running it
        assert running.sync(timeout=30)
        assert waiting_updates(source) == (1, 0, 0)
        again = migrate(source, FileMemoryStorage(tmp_path / "files"))
        assert again.ok and again.pending_copied == [("alice", None, "t1")], again.summary()
    finally:
        running.close()


def test_a_target_without_a_durable_outbox_makes_the_report_not_ok(tmp_path: Path) -> None:
    source = FileMemoryStorage(tmp_path / "files")
    left_by_a_stopped_process(
        FileOutbox(source.root, encode_messages, decode_messages), a_pending_update()
    )
    report = migrate(source, StoreMemoryStorage(InMemoryStore()))
    assert not report.ok and report.pending_not_carried == [("alice", None, "t1")]
    assert "no durable outbox" in report.summary()


def test_a_tenants_letters_and_pending_updates_go_to_the_same_tenant(
    tmp_path: Path, sqlite: tuple[Path, MemoryStorage]
) -> None:
    _, target = sqlite
    source = FileMemoryStorage(tmp_path / "files")
    view = source.scoped("acme")
    assert isinstance(view, FileMemoryStorage)
    view.put_dead_letter(a_letter())
    left_by_a_stopped_process(
        FileOutbox(view.root, encode_messages, decode_messages), a_pending_update()
    )
    report = migrate(source, target)
    assert report.ok and report.letters_copied == [f"acme/{a_letter().id}"]
    assert report.pending_copied == [("acme/alice", None, "t1")]
    assert target.scoped("acme").list_dead_letters() == [a_letter()]
    assert target.list_dead_letters() == []


def test_pending_names_the_updates_a_stopped_process_left_and_retry_runs_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Newcomer 15: after a crash `pending` said "no failed memory updates" while an
    # update waited in the outbox, and `retry` ran it saying there was nothing to retry.
    import subprocess
    import sys
    import textwrap

    from deerflow_memory.cli import main

    root = tmp_path / "files"
    crash = textwrap.dedent(
        f"""
        import os, time
        from langchain_core.messages import AIMessage, HumanMessage
        from deerflow_memory.storage.outbox import PendingUpdate
        from deerflow_memory.storage.outbox_file import FileOutbox
        from deerflow_memory.update.durable import decode_messages, encode_messages
        outbox = FileOutbox({str(root)!r}, encode_messages, decode_messages)
        said = (HumanMessage("I am allergic to peanuts.", id="m1"), AIMessage("Noted.", id="m2"))
        now = time.time()
        outbox.record(PendingUpdate("t1", "alice", None, said, due_at=now, record_id="r1",
                                    captured_at=now))
        assert outbox.sync(timeout=30)
        os._exit(0)  # a crash: the update is left in the outbox
        """
    )
    subprocess.run([sys.executable, "-c", crash], check=True, timeout=120)
    assert main(["--root", str(root), "pending"]) == 0
    out, err = capsys.readouterr()
    assert "no failed memory updates" in out
    assert "updates waiting in the outbox: 1 left by stopped processes" in err, (out, err)
    assert main(["--root", str(root), "retry"]) == 0
    assert "were run" in capsys.readouterr().out
    assert main(["--root", str(root), "pending"]) == 0
    assert "waiting in the outbox" not in capsys.readouterr().err
    assert any("peanuts" in f.content for f in FileMemoryStorage(root).load("alice").facts)


def test_pending_names_updates_a_running_process_holds_and_unreadable_journal_lines(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from deerflow_memory.cli import main

    root = FileMemoryStorage(tmp_path / "files").root
    running = FileOutbox(root, encode_messages, decode_messages)
    try:
        running.record(a_pending_update())
        assert running.sync(timeout=30)
        (root / "outbox" / "stopped.jsonl").write_text("not a journal line\n")
        assert main(["--root", str(root), "pending"]) == 0
    finally:
        running.close()
    err = capsys.readouterr().err
    assert "1 held by a running process" in err, err
    assert "1 unreadable outbox journal(s) or line(s)" in err, err
    assert "left by stopped processes" not in err, err
