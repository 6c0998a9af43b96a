"""Turns of one queue key that are not one growing history are merged, never replaced.

The queue keeps one job per ``(thread_id, user_id, agent_name)``. Replacing the
queued conversation by a newer one is only safe when the newer one holds it
(a checkpointed thread). These tests cover the compositions where it does not:
no checkpointer and no thread id, a stateless client sending its newest
message only, ``Send`` fan-out, ``MemoryMiddleware`` without a checkpointer,
a job running while the next capture arrives, a restart, and recovery beside
a queued job. And that a growing history still becomes one job whose messages
each reach the extractor once.
"""

from __future__ import annotations

import operator
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Annotated, Any

import pytest
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage
from langgraph.graph import END, START, StateGraph
from langgraph.types import Send
from typing_extensions import TypedDict

from deerflow_memory import MemoryConfig, MemoryService, create_memory_agent
from deerflow_memory.identity import MemoryIdentity
from deerflow_memory.update.queue import FakeClock, MemoryUpdateQueue, UpdateJob
from deerflow_memory.update.union import merge_messages
from tests.recording import Recording

WAIT = 10.0

STATEMENTS = ("I'm allergic to peanuts.", "I live in Oslo.", "I'm a nurse.")
LEARNED = {"User is allergic to peanuts", "User lives in Oslo", "User is a nurse"}


def turn(text: str, ident: str | None = None) -> tuple[BaseMessage, BaseMessage]:
    return (
        HumanMessage(content=text, id=f"h-{ident}" if ident else None),
        AIMessage(content=f"Noted: {text}", id=f"a-{ident}" if ident else None),
    )


def texts(messages: Sequence[BaseMessage]) -> list[str]:
    return [str(m.content) for m in messages]


def facts(service: MemoryService, user: str) -> set[str]:
    return {f.content for f in service.load(MemoryIdentity(user, None, "any")).facts}


# --- merge_messages: the rule ------------------------------------------------------


def test_a_capture_that_extends_the_older_one_is_returned_as_it_is() -> None:
    older = turn("I live in Oslo.", "1")
    newer = (*older, *turn("I'm a nurse.", "2"))
    assert merge_messages(older, newer) is newer


def test_a_capture_holding_copies_of_the_older_messages_still_counts_as_extending_it() -> None:
    # A checkpointer hands back new objects each turn: same ids and texts.
    older = turn("I live in Oslo.", "1")
    copies = tuple(m.model_copy() for m in older)
    newer = (*copies, *turn("I'm a nurse.", "2"))
    assert merge_messages(older, newer) is newer


def test_a_capture_without_the_older_messages_keeps_them_first() -> None:
    older = turn("I live in Oslo.", "1")
    newer = turn("I'm a nurse.", "2")
    assert merge_messages(older, newer) == (*older, *newer)


def test_id_less_messages_are_matched_by_text_and_position_not_by_object() -> None:
    shared = turn("I live in Oslo.")
    older = (*shared, *turn("I'm a nurse."))
    newer = (*(m.model_copy() for m in shared), *turn("I'm a welder."))
    merged = merge_messages(older, newer)
    assert texts(merged) == [
        "I live in Oslo.",
        "Noted: I live in Oslo.",
        "I'm a nurse.",
        "Noted: I'm a nurse.",
        "I'm a welder.",
        "Noted: I'm a welder.",
    ]
    assert merged[0] is newer[0]  # the shared message once, as the newer capture has it


def test_a_client_reusing_message_ids_loses_no_turn() -> None:
    # Ids restarting at "1" each call: the text tells the turns apart, as for the updater.
    older = turn("I'm allergic to peanuts.", "1")
    newer = turn("I live in Oslo.", "1")
    assert merge_messages(older, newer) == (*older, *newer)


def test_a_history_re_sent_whole_with_new_ids_replaces_the_queued_one_instead_of_doubling() -> None:
    # No checkpointer, a client sending its whole history: LangGraph gives each run new ids.
    older = turn("I live in Oslo.", "run1")
    resent = (*turn("I live in Oslo.", "run2"), *turn("I'm a nurse.", "run2b"))
    assert merge_messages(older, resent) is resent


def test_a_long_history_is_checked_cheaply_and_still_merged_when_it_lost_its_head() -> None:
    history = tuple(m for i in range(60) for m in turn(f"Message {i}.", str(i)))
    grown = (*(m.model_copy() for m in history), *turn("I'm a nurse.", "new"))
    assert merge_messages(history, grown) is grown
    # A client resending a sliding window: the oldest turn is not in the newer capture.
    window = (*history[2:], *turn("I'm a nurse.", "new"))
    assert merge_messages(history, window) == (*history, *turn("I'm a nurse.", "new"))


def test_a_summarization_flush_merged_with_the_queued_thread_keeps_the_thread_order() -> None:
    thread = (*turn("I live in Oslo.", "1"), *turn("I'm a nurse.", "2"), *turn("Hi", "3"))
    removed = thread[:4]  # the summarization node flushes the head it removes
    assert merge_messages(thread, removed) == thread
    # And the other way round: the flushed head queued first, the trimmed thread after.
    assert merge_messages(removed, thread[2:]) == thread


# --- the queue -----------------------------------------------------------------------


class Jobs:
    def __init__(self) -> None:
        self.jobs: list[UpdateJob] = []
        self.lock = threading.Lock()

    def __call__(self, job: UpdateJob) -> None:
        with self.lock:
            self.jobs.append(job)


def test_a_stateless_client_sending_one_message_per_call_keeps_every_turn_in_one_job() -> None:
    clock, ran = FakeClock(), Jobs()
    queue = MemoryUpdateQueue(ran, debounce_seconds=30, clock=clock)
    try:
        for i, text in enumerate(STATEMENTS):
            queue.add("session-1", "alice", None, [HumanMessage(text, id=f"m{i}")])
        clock.advance(30)
        assert queue.wait_idle(timeout=WAIT)
    finally:
        queue.shutdown(timeout=WAIT)
    (job,) = ran.jobs
    assert texts(job.messages) == list(STATEMENTS)


def test_parallel_branches_with_one_config_are_all_kept() -> None:
    # Send fan-out: three branches capture at once under one key.
    clock, ran = FakeClock(), Jobs()
    queue = MemoryUpdateQueue(ran, debounce_seconds=30, clock=clock)
    barrier = threading.Barrier(len(STATEMENTS))

    def branch(text: str) -> None:
        barrier.wait(timeout=WAIT)
        queue.add("t", "alice", None, turn(text))

    try:
        threads = [threading.Thread(target=branch, args=(t,)) for t in STATEMENTS]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=WAIT)
        clock.advance(30)
        assert queue.wait_idle(timeout=WAIT)
    finally:
        queue.shutdown(timeout=WAIT)
    (job,) = ran.jobs
    assert sorted(texts(job.messages)[::2]) == sorted(STATEMENTS)


def test_the_record_of_a_capture_arriving_while_its_key_runs_also_holds_the_running_job() -> None:
    # The outbox keeps one record per key: replacing the running job's record by one
    # without its messages would lose them if the process died during the run.
    started, release = threading.Event(), threading.Event()
    records: list[UpdateJob] = []
    ran: list[UpdateJob] = []

    def handler(job: UpdateJob) -> None:
        ran.append(job)
        started.set()
        release.wait(WAIT)

    queue = MemoryUpdateQueue(
        handler, clock=FakeClock(), on_enqueue=lambda job, delay, urgent: records.append(job)
    )
    try:
        queue.add_nowait("t", "alice", None, turn("I live in Oslo.", "1"))
        assert started.wait(WAIT)
        queue.add("t", "alice", None, turn("I'm a nurse.", "2"))
        release.set()
        assert queue.flush(timeout=WAIT)
    finally:
        release.set()
        queue.shutdown(timeout=WAIT)
    assert texts(records[-1].messages)[::2] == ["I live in Oslo.", "I'm a nurse."]
    # The job itself does not send the running one's messages again.
    assert [texts(j.messages)[::2] for j in ran] == [["I live in Oslo."], ["I'm a nurse."]]


def test_a_recovered_job_and_a_queued_job_of_one_key_are_merged_and_recorded_together() -> None:
    clock, ran = FakeClock(), Jobs()
    records: list[UpdateJob] = []
    queue = MemoryUpdateQueue(
        ran,
        debounce_seconds=30,
        clock=clock,
        on_enqueue=lambda job, delay, urgent: records.append(job),
    )
    try:
        queue.add("t", "alice", None, turn("I'm a nurse.", "2"))
        recovered = UpdateJob("t", "alice", None, turn("I live in Oslo.", "1"), record_id="old-1")
        queue.restore(recovered, 0.0)
        assert texts(records[-1].messages)[::2] == ["I live in Oslo.", "I'm a nurse."]
        assert records[-1].record_id not in ("old-1", records[0].record_id)
        assert queue.wait_idle(timeout=WAIT)  # due at once, as the recovered one was
    finally:
        queue.shutdown(timeout=WAIT)
    (job,) = ran.jobs
    assert texts(job.messages)[::2] == ["I live in Oslo.", "I'm a nurse."]
    assert job.record_id == records[-1].record_id


def test_a_requeued_job_is_recorded_with_what_was_queued_meanwhile() -> None:
    clock = FakeClock()
    records: list[UpdateJob] = []
    attempts: list[UpdateJob] = []
    queue: MemoryUpdateQueue

    def handler(job: UpdateJob) -> None:
        attempts.append(job)
        if len(attempts) == 1:
            queue.add("t", "alice", None, turn("I'm a nurse.", "2"))
            assert queue.requeue(job, 60)

    queue = MemoryUpdateQueue(
        handler, clock=clock, on_enqueue=lambda job, delay, urgent: records.append(job)
    )
    try:
        queue.add_nowait("t", "alice", None, turn("I live in Oslo.", "1"))
        assert queue.wait_idle(timeout=WAIT)
        assert texts(records[-1].messages)[::2] == ["I live in Oslo.", "I'm a nurse."]
        clock.advance(60)
        assert queue.wait_idle(timeout=WAIT)
    finally:
        queue.shutdown(timeout=WAIT)
    assert texts(attempts[-1].messages)[::2] == ["I live in Oslo.", "I'm a nurse."]


def test_captures_after_shutdown_keep_each_other_in_the_outbox_record() -> None:
    records: list[UpdateJob] = []
    queue = MemoryUpdateQueue(
        Jobs(), clock=FakeClock(), on_enqueue=lambda job, delay, urgent: records.append(job)
    )
    queue.shutdown(timeout=WAIT)
    queue.add("t", "alice", None, turn("I live in Oslo.", "1"))
    queue.add("t", "alice", None, turn("I'm a nurse.", "2"))
    assert texts(records[-1].messages)[::2] == ["I live in Oslo.", "I'm a nurse."]


# --- through the service and compiled graphs -------------------------------------------


def test_turns_without_checkpointer_or_thread_id_within_the_debounce_are_all_learned(
    tmp_path: Path,
) -> None:
    config = MemoryConfig(storage_path=tmp_path)  # the default 30 s debounce
    with MemoryService(config, register_atexit=False) as memory:
        agent = create_memory_agent(service=memory)  # no checkpointer
        for text in STATEMENTS:
            agent.invoke({"messages": [("user", text)]}, {"configurable": {"user_id": "alice"}})
        assert memory.queue.pending_count == 1  # one key: ("unknown", "alice", None)
        assert memory.flush(timeout=WAIT)
        assert facts(memory, "alice") == LEARNED


class FanOut(TypedDict):
    questions: list[str]
    answers: Annotated[list[str], operator.add]


def test_send_fan_out_into_the_memory_agent_learns_every_branch(tmp_path: Path) -> None:
    config = MemoryConfig(storage_path=tmp_path)
    with MemoryService(config, register_atexit=False) as memory:
        agent = create_memory_agent(service=memory)

        def fan(state: FanOut) -> list[Send]:
            return [Send("mem", {"messages": [("user", q)]}) for q in state["questions"]]

        builder = StateGraph(FanOut)
        builder.add_node("mem", agent)
        builder.add_conditional_edges(START, fan, ["mem"])
        builder.add_edge("mem", END)
        graph = builder.compile()
        graph.invoke(
            {"questions": list(STATEMENTS), "answers": []},
            {"configurable": {"user_id": "bob", "thread_id": "t"}},
        )
        assert memory.flush(timeout=WAIT)
        assert facts(memory, "bob") == LEARNED


def test_memory_middleware_without_checkpointer_on_one_session_learns_every_turn(
    tmp_path: Path,
) -> None:
    from langchain.agents import create_agent

    from deerflow_memory.middleware import MemoryMiddleware
    from deerflow_memory.standin import OfflineStandInModel

    with MemoryService(MemoryConfig(storage_path=tmp_path), register_atexit=False) as memory:
        agent: Any = create_agent(OfflineStandInModel(), middleware=[MemoryMiddleware(memory)])
        for text in STATEMENTS:
            agent.invoke(
                {"messages": [("user", text)]},
                {"configurable": {"user_id": "carol", "thread_id": "web-session-1"}},
            )
        assert memory.flush(timeout=WAIT)
        assert facts(memory, "carol") == LEARNED


@pytest.mark.parametrize("storage", ["file", "sqlite"])
def test_merged_turns_recorded_before_a_stop_are_all_learned_by_the_next_service(
    tmp_path: Path, storage: str
) -> None:
    path = tmp_path / "m.sqlite" if storage == "sqlite" else tmp_path
    config = MemoryConfig(
        storage=storage, storage_path=path, debounce_seconds=3600, max_wait_seconds=3600
    )
    first = MemoryService(config, register_atexit=False)
    who = MemoryIdentity("dana", None, "session-1")
    for i, text in enumerate(STATEMENTS):
        first.enqueue(who, turn(text, str(i)))  # a stateless client: each turn alone
    assert first.durable is not None and first.durable.outbox.sync(timeout=WAIT)
    # Stop without running anything (as a killed process would): the queue forgets
    # its jobs, the outbox keeps its records.
    assert len(first.queue.discard(lambda job: True)) == 1
    assert facts(first, "dana") == set()
    first.close(timeout=WAIT)
    with MemoryService(config, register_atexit=False) as second:
        assert second.flush(timeout=WAIT)
        assert facts(second, "dana") == LEARNED


def test_a_growing_history_is_one_job_and_each_message_reaches_the_extractor_once(
    tmp_path: Path,
) -> None:
    extractor = Recording()
    config = MemoryConfig(storage_path=tmp_path, debounce_seconds=3600, max_wait_seconds=3600)
    with MemoryService(config, extractor=extractor, register_atexit=False) as memory:
        who = MemoryIdentity("erin", None, "t1")
        history: list[BaseMessage] = []
        for i, text in enumerate(STATEMENTS[:2]):
            history += turn(text, str(i))
            memory.enqueue(who, list(history))  # a checkpointed thread: the whole history
        assert memory.queue.pending_count == 1
        assert memory.flush(timeout=WAIT)
        history += turn(STATEMENTS[2], "2")
        memory.enqueue(who, list(history))
        assert memory.flush(timeout=WAIT)
        assert facts(memory, "erin") == LEARNED
    assert sorted(extractor.sent) == sorted(STATEMENTS)


def test_merged_stateless_turns_each_reach_the_extractor_once(tmp_path: Path) -> None:
    extractor = Recording()
    config = MemoryConfig(storage_path=tmp_path, debounce_seconds=3600, max_wait_seconds=3600)
    with MemoryService(config, extractor=extractor, register_atexit=False) as memory:
        who = MemoryIdentity("finn", None, "session-1")
        memory.enqueue(who, turn(STATEMENTS[0], "0"))
        memory.enqueue(who, turn(STATEMENTS[1], "1"))  # merged with the queued turn
        assert memory.flush(timeout=WAIT)
        memory.enqueue(who, turn(STATEMENTS[2], "2"))
        assert memory.flush(timeout=WAIT)
        assert facts(memory, "finn") == LEARNED
    assert sorted(extractor.sent) == sorted(STATEMENTS)


def test_a_client_re_sending_its_whole_history_without_checkpointer_sends_each_turn_once(
    tmp_path: Path,
) -> None:
    extractor = Recording()
    config = MemoryConfig(storage_path=tmp_path)  # the default 30 s debounce
    with MemoryService(config, extractor=extractor, register_atexit=False) as memory:
        agent = create_memory_agent(service=memory)  # no checkpointer: new ids every run
        sent: list[tuple[str, str]] = []
        for text in STATEMENTS:
            sent.append(("user", text))
            out = agent.invoke({"messages": list(sent)}, {"configurable": {"user_id": "gus"}})
            sent.append(("assistant", str(out["messages"][-1].content)))
        assert memory.flush(timeout=WAIT)
        assert facts(memory, "gus") == LEARNED
    assert sorted(extractor.sent) == sorted(STATEMENTS)
