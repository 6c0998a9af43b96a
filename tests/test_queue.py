"""MemoryUpdateQueue: debounce, max_wait, per-key deadlines, per-user serialization, draining.

The real scheduler and worker threads run in every test; time is a FakeClock
that the tests advance, and ``wait_idle`` waits until what became due has run.
"""

from __future__ import annotations

import logging
import subprocess
import sys
import textwrap
import threading
from collections.abc import Iterator

import pytest
from langchain_core.messages import AIMessage, HumanMessage

from deerflow_memory.update.queue import FakeClock, MemoryUpdateQueue, UpdateJob

WAIT = 5.0  # real seconds a test waits for threads at most; never reached when things work


def turn(text: str) -> tuple[HumanMessage, AIMessage]:
    return (HumanMessage(content=text), AIMessage(content=f"reply to {text}"))


class Recorder:
    """Handler that records each job with the fake time it ran at."""

    def __init__(self, clock: FakeClock) -> None:
        self.clock = clock
        self.calls: list[tuple[float, UpdateJob]] = []
        self.lock = threading.Lock()

    def __call__(self, job: UpdateJob) -> None:
        with self.lock:
            self.calls.append((self.clock.monotonic(), job))

    @property
    def jobs(self) -> list[UpdateJob]:
        with self.lock:
            return [job for _, job in self.calls]

    @property
    def times(self) -> list[float]:
        with self.lock:
            return [t for t, _ in self.calls]


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def recorder(clock: FakeClock) -> Recorder:
    return Recorder(clock)


@pytest.fixture
def queue(clock: FakeClock, recorder: Recorder) -> Iterator[MemoryUpdateQueue]:
    q = MemoryUpdateQueue(recorder, debounce_seconds=30, max_wait_seconds=120, clock=clock)
    yield q
    q.shutdown(timeout=WAIT)


def advance(clock: FakeClock, queue: MemoryUpdateQueue, seconds: float) -> None:
    clock.advance(seconds)
    assert queue.wait_idle(timeout=WAIT)


def test_a_newer_conversation_that_extends_the_queued_one_replaces_it(
    clock: FakeClock, queue: MemoryUpdateQueue, recorder: Recorder
) -> None:
    first = turn("first")
    grown = (*first, *turn("second"))  # a checkpointed thread's history, one turn longer
    queue.add("t1", "alice", None, first)
    queue.add("t1", "alice", None, grown)
    assert queue.pending_count == 1
    advance(clock, queue, 30)
    assert len(recorder.jobs) == 1
    assert recorder.jobs[0].messages == grown
    assert recorder.jobs[0].key == ("t1", "alice", None)


def test_a_newer_conversation_without_the_queued_messages_is_merged_with_them(
    clock: FakeClock, queue: MemoryUpdateQueue, recorder: Recorder
) -> None:
    # No checkpointer: each turn holds only its own messages, under one key.
    queue.add("t1", "alice", None, turn("I'm allergic to peanuts."))
    queue.add("t1", "alice", None, turn("I live in Oslo."))
    assert queue.pending_count == 1
    advance(clock, queue, 30)
    (job,) = recorder.jobs
    assert job.messages == turn("I'm allergic to peanuts.") + turn("I live in Oslo.")


def test_correction_and_reinforcement_flags_are_or_merged(
    clock: FakeClock, queue: MemoryUpdateQueue, recorder: Recorder
) -> None:
    queue.add("t1", "alice", None, turn("a"), correction_detected=True)
    queue.add("t1", "alice", None, turn("b"), reinforcement_detected=True)
    queue.add("t1", "alice", None, turn("c"))
    advance(clock, queue, 30)
    (job,) = recorder.jobs
    assert job.correction_detected and job.reinforcement_detected
    assert job.messages == turn("a") + turn("b") + turn("c")


def test_the_update_runs_when_the_debounce_expires_and_not_before(
    clock: FakeClock, queue: MemoryUpdateQueue, recorder: Recorder
) -> None:
    queue.add("t1", "alice", None, turn("a"))
    advance(clock, queue, 29.5)
    assert recorder.jobs == []
    advance(clock, queue, 0.5)
    assert recorder.times == [30.0]


def test_each_add_resets_the_key_deadline(
    clock: FakeClock, queue: MemoryUpdateQueue, recorder: Recorder
) -> None:
    queue.add("t1", "alice", None, turn("a"))
    advance(clock, queue, 20)
    queue.add("t1", "alice", None, turn("b"))
    advance(clock, queue, 20)  # t=40: past the first deadline, before the reset one
    assert recorder.jobs == []
    assert queue.next_deadline == 50.0
    advance(clock, queue, 10)
    assert recorder.times == [50.0]


def test_steady_traffic_from_five_threads_cannot_postpone_past_max_wait(
    clock: FakeClock, queue: MemoryUpdateQueue, recorder: Recorder
) -> None:
    # Every 10 s, five threads each add a turn: without max_wait the 30 s debounce never expires.
    for step in range(30):
        barrier = threading.Barrier(5)

        def talk(n: int, step: int = step, barrier: threading.Barrier = barrier) -> None:
            barrier.wait(timeout=WAIT)
            queue.add("t1", "alice", None, turn(f"step {step} from {n}"))

        threads = [threading.Thread(target=talk, args=(n,)) for n in range(5)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=WAIT)
        advance(clock, queue, 10)
    assert recorder.times == [120.0, 240.0]
    # Each add held one turn of its own: every one of them is in a job, none twice.
    first, second = ([str(m.content) for m in job.messages[::2]] for job in recorder.jobs)
    assert sorted(first) == sorted(f"step {s} from {n}" for s in range(12) for n in range(5))
    assert sorted(second) == sorted(f"step {s} from {n}" for s in range(12, 24) for n in range(5))


def test_a_busy_user_does_not_delay_another_users_update(
    clock: FakeClock, queue: MemoryUpdateQueue, recorder: Recorder
) -> None:
    queue.add("tb", "bob", None, turn("once"))
    for _ in range(6):
        queue.add("ta", "alice", None, turn("again"))
        advance(clock, queue, 10)
    assert [(t, j.user_id) for t, j in recorder.calls] == [(30.0, "bob")]


def test_add_nowait_runs_without_the_clock_moving(
    clock: FakeClock, queue: MemoryUpdateQueue, recorder: Recorder
) -> None:
    queue.add_nowait("t1", "alice", "helper", turn("summarized away"))
    assert queue.wait_idle(timeout=WAIT)
    assert recorder.times == [0.0]
    assert recorder.jobs[0].agent_name == "helper"


def test_add_nowait_makes_an_already_queued_conversation_due_at_once_and_keeps_it(
    clock: FakeClock, queue: MemoryUpdateQueue, recorder: Recorder
) -> None:
    queue.add("t1", "alice", None, turn("a"), correction_detected=True)
    queue.add_nowait("t1", "alice", None, turn("b"))
    assert queue.wait_idle(timeout=WAIT)
    (job,) = recorder.jobs
    assert job.messages == turn("a") + turn("b")
    assert job.correction_detected


def test_messages_flushed_by_add_nowait_survive_a_later_add_for_the_same_key(
    clock: FakeClock,
) -> None:
    # Alice's other thread holds her only update slot, so the flushed job waits.
    release = threading.Event()
    jobs: list[UpdateJob] = []

    def handler(job: UpdateJob) -> None:
        jobs.append(job)
        if job.thread_id == "other":
            release.wait(WAIT)

    removed = (
        HumanMessage(content="I'm allergic to sesame", id="m1"),
        AIMessage(content="Noted", id="m2"),
    )
    current = (
        AIMessage(content="Noted", id="m2"),  # already in the flushed part: not repeated
        HumanMessage(content="And Osaka?", id="m3"),
        AIMessage(content="Osaka is...", id="m4"),
    )
    queue = MemoryUpdateQueue(handler, clock=clock)
    try:
        queue.add_nowait("other", "alice", None, turn("x"))
        queue.add_nowait("t1", "alice", None, removed)
        queue.add("t1", "alice", None, current)
        assert queue.next_deadline == 0.0  # still due at once, not pushed back by the add
        release.set()
        assert queue.wait_idle(timeout=WAIT)
    finally:
        release.set()
        queue.shutdown(timeout=WAIT)
    flushed = [j for j in jobs if j.thread_id == "t1"]
    assert len(flushed) == 1
    assert [m.id for m in flushed[0].messages] == ["m1", "m2", "m3", "m4"]


def test_updates_of_one_user_never_overlap_while_other_users_run_in_parallel(
    clock: FakeClock,
) -> None:
    active: dict[str, int] = {}
    peak: dict[str, int] = {}
    lock = threading.Lock()
    both_running = threading.Barrier(2, timeout=WAIT)
    ran: list[str] = []

    def handler(job: UpdateJob) -> None:
        with lock:
            active[job.user_id] = active.get(job.user_id, 0) + 1
            peak[job.user_id] = max(peak.get(job.user_id, 0), active[job.user_id])
            first = len(ran) == 0
            ran.append(job.thread_id)
        if job.user_id == "bob" or first:
            # Bob's job and alice's first job must be running at the same time.
            both_running.wait()
        else:
            threading.Event().wait(0.01)  # give an overlapping alice job a chance to show
        with lock:
            active[job.user_id] -= 1

    queue = MemoryUpdateQueue(handler, max_workers=4, clock=clock)
    try:
        for i in range(4):
            queue.add_nowait(f"t{i}", "alice", None, turn(str(i)))
        queue.add_nowait("tb", "bob", None, turn("b"))
        assert queue.flush(timeout=WAIT)
    finally:
        queue.shutdown(timeout=WAIT)
    assert sorted(ran) == ["t0", "t1", "t2", "t3", "tb"]
    assert peak["alice"] == 1


def test_a_conversation_added_while_its_key_runs_is_queued_again(clock: FakeClock) -> None:
    started = threading.Event()
    release = threading.Event()
    jobs: list[UpdateJob] = []

    def handler(job: UpdateJob) -> None:
        jobs.append(job)
        started.set()
        release.wait(WAIT)

    queue = MemoryUpdateQueue(handler, clock=clock)
    try:
        queue.add_nowait("t1", "alice", None, turn("first"))
        assert started.wait(WAIT)
        queue.add("t1", "alice", None, turn("second"))
        assert queue.running_count == 1
        assert queue.pending_count == 1
        release.set()
        clock.advance(30)
        assert queue.wait_idle(timeout=WAIT)
    finally:
        release.set()
        queue.shutdown(timeout=WAIT)
    assert [j.messages for j in jobs] == [turn("first"), turn("second")]


def test_flush_runs_pending_updates_now_and_reports_success(
    clock: FakeClock, queue: MemoryUpdateQueue, recorder: Recorder
) -> None:
    queue.add("t1", "alice", None, turn("a"))
    queue.add("t2", "bob", None, turn("b"))
    assert queue.flush(timeout=WAIT) is True
    assert sorted(j.user_id for j in recorder.jobs) == ["alice", "bob"]
    assert queue.pending_count == 0
    assert clock.monotonic() == 0.0


def test_flush_reports_false_when_a_running_update_outlasts_the_timeout(clock: FakeClock) -> None:
    release = threading.Event()
    queue = MemoryUpdateQueue(lambda job: release.wait(WAIT), clock=clock)
    try:
        queue.add("t1", "alice", None, turn("slow"))
        assert queue.flush(timeout=0.05) is False
        release.set()
        assert queue.flush(timeout=WAIT) is True
    finally:
        release.set()
        queue.shutdown(timeout=WAIT)


def test_a_users_turns_stay_due_at_once_until_the_last_of_two_overlapping_flushes_returns(
    clock: FakeClock,
) -> None:
    started, release = threading.Event(), threading.Event()

    def handler(job: UpdateJob) -> None:
        if job.thread_id == "slow":
            started.set()
            release.wait(WAIT)

    queue = MemoryUpdateQueue(handler, debounce_seconds=30, max_wait_seconds=120, clock=clock)
    try:
        queue.add("slow", "alice", None, turn("slow"))
        queue.add("b", "bob", None, turn("bob's"))
        outcome: list[bool] = []
        longer = threading.Thread(
            target=lambda: outcome.append(queue.flush(timeout=WAIT, user_id="alice"))
        )
        longer.start()
        assert started.wait(WAIT)
        assert queue.flush(timeout=0.05, user_id="alice") is False  # the shorter one gives up
        assert queue.next_deadline == 30.0  # bob's turn keeps its debounce
        queue.add("t2", "alice", None, turn("while the longer flush runs"))
        assert queue.next_deadline == 0.0  # still flushing alice: due at once
        release.set()
        longer.join(WAIT)
        assert outcome == [True]
        queue.add("t3", "alice", None, turn("after both flushes"))
        assert queue.next_deadline == 30.0  # no flush runs: debounced again
    finally:
        release.set()
        queue.shutdown(timeout=WAIT)


def test_shutdown_drains_pending_updates_and_later_adds_are_dropped_with_a_warning(
    clock: FakeClock, recorder: Recorder, caplog: pytest.LogCaptureFixture
) -> None:
    queue = MemoryUpdateQueue(recorder, clock=clock)
    for user in ("alice", "bob", "carol"):
        queue.add("t1", user, None, turn(user))
    assert queue.shutdown(timeout=WAIT) is True
    assert sorted(j.user_id for j in recorder.jobs) == ["alice", "bob", "carol"]
    with caplog.at_level(logging.WARNING, logger="deerflow_memory.update.queue"):
        queue.add("t1", "dave", None, turn("late"))
    assert queue.pending_count == 0
    assert "shut down" in caplog.text and "dave" in caplog.text
    assert len(recorder.jobs) == 3


def test_the_context_manager_drains_on_exit(clock: FakeClock, recorder: Recorder) -> None:
    with MemoryUpdateQueue(recorder, clock=clock) as queue:
        queue.add("t1", "alice", None, turn("a"))
    assert [j.user_id for j in recorder.jobs] == ["alice"]


def test_a_failing_handler_is_logged_with_its_key_and_later_jobs_still_run(
    clock: FakeClock, caplog: pytest.LogCaptureFixture
) -> None:
    done: list[str] = []

    def handler(job: UpdateJob) -> None:
        if job.user_id == "broken":
            raise RuntimeError("model exploded")
        done.append(job.user_id)

    queue = MemoryUpdateQueue(handler, max_workers=1, clock=clock)
    try:
        with caplog.at_level(logging.ERROR, logger="deerflow_memory.update.queue"):
            queue.add_nowait("t1", "broken", None, turn("a"))
            assert queue.wait_idle(timeout=WAIT)
            queue.add_nowait("t2", "alice", None, turn("b"))
            assert queue.flush(timeout=WAIT)
    finally:
        queue.shutdown(timeout=WAIT)
    assert done == ["alice"]
    assert "model exploded" in caplog.text and "'broken'" in caplog.text


def test_the_caller_can_reuse_its_message_list_after_add(
    clock: FakeClock, queue: MemoryUpdateQueue, recorder: Recorder
) -> None:
    messages = list(turn("a"))
    queue.add("t1", "alice", None, messages)
    messages.append(HumanMessage(content="added later"))
    advance(clock, queue, 30)
    assert recorder.jobs[0].messages == turn("a")


def test_invalid_queue_settings_are_rejected() -> None:
    with pytest.raises(ValueError, match="max_workers"):
        MemoryUpdateQueue(print, max_workers=0)
    with pytest.raises(ValueError, match="debounce"):
        MemoryUpdateQueue(print, debounce_seconds=-1)


def test_the_fake_clock_never_goes_back() -> None:
    with pytest.raises(ValueError, match="cannot go back"):
        FakeClock().advance(-1)


def test_register_atexit_drains_the_queue_when_the_interpreter_exits(tmp_path) -> None:
    marker = tmp_path / "ran.txt"
    script = textwrap.dedent(
        f"""
        from pathlib import Path
        from langchain_core.messages import AIMessage, HumanMessage
        from deerflow_memory.update.queue import MemoryUpdateQueue

        def handler(job):
            Path({str(marker)!r}).write_text(job.user_id)

        queue = MemoryUpdateQueue(handler, debounce_seconds=600)
        queue.register_atexit(timeout=10)
        queue.add("t1", "alice", None, [HumanMessage("hi"), AIMessage("hello")])
        """
    )
    subprocess.run([sys.executable, "-c", script], check=True, timeout=60)
    assert marker.read_text() == "alice"


def test_flushing_from_inside_a_handler_is_refused_instead_of_deadlocking(
    clock: FakeClock, caplog: pytest.LogCaptureFixture
) -> None:
    holder: list[MemoryUpdateQueue] = []
    queue = MemoryUpdateQueue(lambda job: holder[0].flush(timeout=1), clock=clock)
    holder.append(queue)
    try:
        with caplog.at_level(logging.ERROR, logger="deerflow_memory.update.queue"):
            queue.add_nowait("t1", "alice", None, turn("a"))
            assert queue.flush(timeout=WAIT)
    finally:
        queue.shutdown(timeout=WAIT)
    assert "cannot be called from a memory update handler" in caplog.text
