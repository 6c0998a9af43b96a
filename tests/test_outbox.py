"""The durable outbox: captured turns survive a crash and run in the next process."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from langchain_core.messages import AIMessage, HumanMessage

from deerflow_memory import MemoryConfig, MemoryService
from deerflow_memory.identity import MemoryIdentity
from deerflow_memory.storage.outbox import PendingUpdate
from deerflow_memory.storage.outbox_file import FileOutbox, replay
from deerflow_memory.update.durable import decode_messages, encode_messages

ROOT = Path(__file__).resolve().parent.parent


def pending(record_id: str, thread: str = "t1", text: str = "I am a welder.") -> PendingUpdate:
    messages = (HumanMessage(content=text, id="h1"), AIMessage(content="Noted.", id="a1"))
    return PendingUpdate(thread, "alice", None, messages, due_at=1.0, record_id=record_id)


def journal_lines(*ops: tuple[str, PendingUpdate]) -> list[bytes]:
    return [json.dumps({"op": op, "update": u.to_json(encode_messages)}).encode() for op, u in ops]


def test_replay_keeps_the_newest_capture_of_a_key_until_its_own_id_is_done() -> None:
    old, new = pending("1"), pending("2", text="I am a baker.")
    live, dead = replay(journal_lines(("put", old), ("put", new), ("done", old)), decode_messages)
    assert [u.record_id for u in live.values()] == ["2"]
    assert live[new.key].messages[0].content == "I am a baker."
    assert dead == []
    live, _ = replay(journal_lines(("put", new), ("done", new)), decode_messages)
    assert live == {}


def test_replay_moves_a_dead_lettered_record_out_of_the_pending_ones() -> None:
    update = pending("1")
    live, dead = replay(
        journal_lines(("put", update), ("dead", update.dead("model down"))), decode_messages
    )
    assert live == {}
    assert [(u.record_id, u.error) for u in dead] == [("1", "model down")]


def test_replay_skips_a_torn_last_line() -> None:
    lines = [*journal_lines(("put", pending("1"))), b'{"op": "put", "upd']
    live, _ = replay(lines, decode_messages)
    assert len(live) == 1


def test_a_closed_outbox_with_work_left_is_adopted_by_the_next_one(tmp_path: Path) -> None:
    first = FileOutbox(tmp_path, encode_messages, decode_messages)
    first.record(pending("1", thread="a"))
    first.record(pending("2", thread="b"))
    first.complete(pending("2", thread="b"))
    first.close()  # releases its lock, like a process that exited with work left
    second = FileOutbox(tmp_path, encode_messages, decode_messages)
    adopted = second.recover()
    assert [(u.thread_id, u.record_id) for u in adopted] == [("a", "1")]
    assert adopted[0].messages[0].content == "I am a welder."
    assert second.recover() == []  # adopted once, not twice
    second.complete(adopted[0])
    second.close()
    assert list((tmp_path / "outbox").iterdir()) == []  # nothing pending: no files left


def test_a_live_process_journal_is_not_adopted(tmp_path: Path) -> None:
    first = FileOutbox(tmp_path, encode_messages, decode_messages)
    first.record(pending("1"))
    assert first.sync(timeout=10)
    second = FileOutbox(tmp_path, encode_messages, decode_messages)
    assert second.recover() == []
    first.close()
    second.close()


def test_a_failed_update_is_dead_lettered_not_dropped(tmp_path: Path) -> None:
    class Broken:
        def extract(self, request: object) -> object:
            raise RuntimeError("model exploded")

    config = MemoryConfig(storage_path=tmp_path, debounce_seconds=3600)  # runs in the flush
    with MemoryService(config, extractor=Broken(), register_atexit=False) as memory:  # type: ignore[arg-type]
        who = MemoryIdentity("alice", None, "t1")
        memory.enqueue(who, [HumanMessage("I am a welder."), AIMessage("Noted.")])
        flushed = memory.flush(timeout=30)
        assert flushed.drained and not flushed  # drained, but honest: an update failed
        assert [f.outcome for f in flushed.failed] == ["dead_letter"]
        assert [x.thread_id for x in memory.dead_letters()] == ["t1"]
        assert memory.durable is not None
        assert memory.durable.outbox.dead_letters() == []  # moved to the backend's letters
        letters = memory.storage.list_dead_letters("alice")
    assert len(letters) == 1 and "model exploded" in letters[0].error
    assert letters[0].messages[0]["data"]["content"] == "I am a welder."
    # A new service does not run a dead letter again by itself.
    with MemoryService(config, register_atexit=False) as again:
        assert again.queue.pending_count == 0


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "DEERFLOW_"))}
    env["PYTHONPATH"] = str(ROOT)
    return env


@contextlib.contextmanager
def killed_on_exit(args: list[str]) -> Iterator[subprocess.Popen[str]]:
    """The child process ``args`` once it printed ``ready``; SIGKILLed when the block ends."""
    child = subprocess.Popen(args, stdout=subprocess.PIPE, text=True, cwd=ROOT, env=_env())
    try:
        assert child.stdout is not None
        assert child.stdout.readline().strip() == "ready"
        yield child
    finally:
        child.send_signal(signal.SIGKILL)
        child.wait(timeout=30)


def kill_with_pending_then_drain(config: dict[str, object], n: int, mode: str = "") -> int:
    """Capture ``n`` turns in a child, SIGKILL it, drain in a fresh process; facts stored.

    ``mode="graph-"`` captures and drains through a graph compiled with ``store=``.
    """
    raw = json.dumps(config)
    cmd = [sys.executable, "-m", "tests.durable_child"]
    with killed_on_exit([*cmd, f"{mode}capture", raw, str(n)]):
        pass  # its captures are in the outbox: kill it before any runs
    done = subprocess.run(
        [*cmd, f"{mode}drain", raw, str(n)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=_env(),
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return int(done.stdout.strip().splitlines()[-1])


@pytest.mark.slow
@pytest.mark.parametrize("n", [20, 200])
def test_updates_pending_at_sigkill_are_all_applied_by_the_next_process(
    tmp_path: Path, n: int
) -> None:
    config = {"storage": "file", "storage_path": str(tmp_path)}
    assert kill_with_pending_then_drain(config, n) == n


@pytest.mark.slow
def test_a_running_service_takes_over_a_killed_process_journal_but_never_a_live_ones(
    tmp_path: Path,
) -> None:
    import time

    config = MemoryConfig(storage_path=tmp_path, outbox_poll_seconds=0.2, debounce_seconds=3600)
    with MemoryService(config, register_atexit=False) as running:
        raw = json.dumps({"storage": "file", "storage_path": str(tmp_path)})
        with killed_on_exit([sys.executable, "-m", "tests.durable_child", "capture", raw, "20"]):
            time.sleep(1.0)  # five polls while the child lives: its jobs stay its own
            assert running.queue.pending_count == 0
        deadline = time.monotonic() + 30
        while running.queue.pending_count < 20:  # no restart: the poller adopts them
            assert time.monotonic() < deadline, running.queue.pending_count
            time.sleep(0.1)
        assert running.flush(timeout=120)
        stored = [running.load(MemoryIdentity(f"u{i}", None, "t")).facts for i in range(20)]
    assert all(stored)
    assert [p.name for p in (tmp_path / "outbox").iterdir()] == []  # adopted, done, cleaned up


def test_stopping_waits_for_a_background_recovery_and_starts_no_poller_after_it(
    tmp_path: Path,
) -> None:
    import threading
    import time

    from deerflow_memory.update.durable import DurableUpdates
    from deerflow_memory.update.queue import MemoryUpdateQueue

    outbox = FileOutbox(tmp_path, encode_messages, decode_messages)
    recovered = threading.Event()

    def slow_recover() -> list[PendingUpdate]:
        time.sleep(0.3)  # a store bound on a graph's first run scans in the background
        recovered.set()
        return []

    outbox.recover = slow_recover  # type: ignore[method-assign]
    durable = DurableUpdates(outbox, lambda job: None)  # type: ignore[arg-type,return-value]
    queue = MemoryUpdateQueue(lambda job: None, debounce_seconds=3600)
    try:
        durable.start(queue, 0.01, background=True)
        durable.stop_polling()  # a close right after the bind
        assert recovered.is_set()  # the recovery finished before the outbox may close
        assert durable._poller is None  # and no poller started after the stop
    finally:
        queue.shutdown(timeout=1)
        outbox.close()


def test_a_turn_whose_update_and_dead_letter_both_fail_stays_in_the_outbox(
    tmp_path: Path,
) -> None:
    # A full disk (attacker 67): the save fails with ENOSPC (a transient failure), a flush
    # does not requeue it, and its dead letter cannot be written either. The outbox kept
    # the turn durably before; it was marked done anyway, and the turn was gone.
    import errno

    from deerflow_memory import FileMemoryStorage

    class FullDisk(FileMemoryStorage):
        full = True

        def save(self, *args: object, **kwargs: object) -> object:  # type: ignore[override]
            if self.full:
                raise OSError(errno.ENOSPC, "No space left on device")
            return super().save(*args, **kwargs)  # type: ignore[arg-type]

        def put_dead_letter(self, letter: object) -> None:  # type: ignore[override]
            if self.full:
                raise OSError(errno.ENOSPC, "No space left on device")
            super().put_dead_letter(letter)  # type: ignore[arg-type]

    config = MemoryConfig(storage_path=tmp_path, debounce_seconds=3600)
    storage = FullDisk(tmp_path)
    who = MemoryIdentity("ines", None, "t1")
    memory = MemoryService(config, storage=storage, register_atexit=False)
    memory.enqueue(who, [HumanMessage("I'm allergic to kiwi."), AIMessage("Noted.")])
    flushed = memory.flush(timeout=30)
    assert not flushed and [f.outcome for f in flushed.failed] != ["lost"]
    storage.full = False  # the space comes back
    assert memory.flush(timeout=30).drained
    memory.close()
    # The next process finds the turn (as a dead letter to retry): not lost.
    with MemoryService(config, register_atexit=False) as again:
        letters = again.dead_letters("ines")
        assert [x.thread_id for x in letters] == ["t1"]
        assert [r.removed for r in again.retry_dead_letters()] == [True]
        assert [f.content for f in again.load(who).facts] == ["User is allergic to kiwi"]
