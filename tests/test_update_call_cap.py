"""One update makes at most ``max_model_calls_per_update`` model calls, and says what it left.

Through the real ChatOpenAI against the local OpenAI-compatible server: a huge
single message is cut (the prompt and ``UpdateResult.rejected`` say so, the
bill stays bounded); a long burst sends what fits and the rest waits, outside
the watermark, for the thread's next update, so no turn is lost.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage

from deerflow_memory import MemoryService
from deerflow_memory.capture.messages import message_text
from deerflow_memory.identity import MemoryIdentity
from deerflow_memory.storage.outbox_file import FileOutbox
from deerflow_memory.update.durable import (
    DurableUpdates,
    decode_messages,
    encode_messages,
    to_pending,
)
from deerflow_memory.update.incremental import cap_chunks, key_id, plan_chunks
from deerflow_memory.update.queue import UpdateJob
from deerflow_memory.update.updater import UpdateResult, UpdateStatus
from tests.openai_server import OpenAIServer, openai_server  # noqa: F401
from tests.test_extraction_cost import facts_answer, service, turn

pytestmark = pytest.mark.usefixtures("openai_server")


def long_burst() -> list[BaseMessage]:
    history: list[BaseMessage] = []
    for i in range(30):
        history += turn(i, f"I once visited city number {i} and " + "it was lovely. " * 20)
    return history


def every_city_landed(memory: MemoryService) -> bool:
    facts = [f.content for f in memory.storage.load("alice", None).facts]
    return all(any(f"city number {i} and" in f for f in facts) for i in range(30))


def capped(tmp_path: Path, server: OpenAIServer, **config: Any) -> MemoryService:
    """A service whose updates make at most 3 calls of a 400-token conversation each."""
    return service(
        tmp_path, server, update_conversation_max_tokens=400, max_model_calls_per_update=3, **config
    )


def test_a_huge_message_costs_at_most_the_cap_and_says_it_was_cut(
    tmp_path: Path,
    openai_server: OpenAIServer,  # noqa: F811
) -> None:
    openai_server.responder = facts_answer
    huge = "I keep bees on my roof. " + "Bees are busy all day long. " * 40_000  # ~1 MB
    history: list[BaseMessage] = [HumanMessage(huge, id="h0"), AIMessage("Nice.", id="a0")]
    with service(
        tmp_path, openai_server, update_conversation_max_tokens=2000, max_model_calls_per_update=3
    ) as memory:
        result = memory.updater.update(UpdateJob("t1", "alice", None, tuple(history)))
        assert result.status is UpdateStatus.SAVED
        assert result.calls == len(openai_server.requests) == 3  # not ~170
        cut = [r for r in result.rejected if r.item == "message h0"]
        assert len(cut) == 1 and "max_model_calls_per_update=3" in cut[0].reason
        last_prompt = openai_server.requests[-1]["messages"][-1]["content"]
        assert "cut here, the last" in last_prompt and "characters were not sent" in last_prompt
        assert any("I keep bees" in f.content for f in memory.storage.load("alice", None).facts)
        # The message is done: the same thread again sends nothing more for it.
        again = memory.updater.update(UpdateJob("t1", "alice", None, tuple(history)))
        assert again.calls == 0 and len(openai_server.requests) == 3


def test_a_burst_over_the_cap_sends_the_rest_with_the_threads_next_update(
    tmp_path: Path,
    openai_server: OpenAIServer,  # noqa: F811
) -> None:
    openai_server.responder = facts_answer
    history = long_burst()
    with capped(tmp_path, openai_server) as memory:
        calls = []
        for _ in range(10):
            result = memory.updater.update(UpdateJob("t1", "alice", None, tuple(history)))
            calls.append(result.calls)
            if result.calls == 0:
                break
        facts = memory.storage.load("alice", None).facts
    assert max(calls) <= 3 and calls[0] == 3
    assert calls[-1] == 0  # everything was sent in the end
    for i in range(30):  # every turn landed, none was dropped by the cap
        assert any(f"city number {i} and" in f.content for f in facts), i


@pytest.mark.parametrize("outbox", [False, True])
def test_the_rest_of_a_burst_over_the_cap_runs_by_itself_without_another_turn(
    tmp_path: Path,
    openai_server: OpenAIServer,  # noqa: F811
    outbox: bool,
) -> None:
    openai_server.responder = facts_answer
    with capped(tmp_path, openai_server, debounce_seconds=0.05, outbox=outbox) as memory:
        calls: list[int] = []
        update = memory.updater.update

        def counted(job: UpdateJob) -> UpdateResult:
            result = update(job)
            calls.append(result.calls)
            return result

        memory.updater.update = counted  # type: ignore[method-assign]
        memory.enqueue(MemoryIdentity("alice", None, "t1"), long_burst())  # one turn, no more
        deadline = time.monotonic() + 60
        while not every_city_landed(memory) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert every_city_landed(memory), calls
        assert memory.queue.wait_idle(timeout=30)
        assert len(calls) >= 3 and max(calls) <= 3, calls  # ~9 chunks, at most three per update
    if outbox:  # once no chunk is left the record is completed: nothing for a next process
        after = FileOutbox(tmp_path / "memory", encode_messages, decode_messages)
        assert after.recover() == []
        after.close()


def test_a_flush_runs_the_rest_of_a_burst_over_the_cap_too(
    tmp_path: Path,
    openai_server: OpenAIServer,  # noqa: F811
) -> None:
    openai_server.responder = facts_answer
    with capped(tmp_path, openai_server, debounce_seconds=3600) as memory:
        memory.enqueue(MemoryIdentity("alice", None, "t1"), long_burst())
        assert memory.flush(timeout=60)
        assert every_city_landed(memory)


def test_an_update_that_left_chunks_keeps_its_outbox_record_for_the_next_start(
    tmp_path: Path,
) -> None:
    job = UpdateJob("t1", "alice", None, tuple(long_burst()), record_id="r1")
    for deferred, kept in ((2, ["r1"]), (0, [])):
        outbox = FileOutbox(tmp_path / str(deferred), encode_messages, decode_messages)
        result = UpdateResult(UpdateStatus.SAVED, deferred=deferred)
        durable = DurableUpdates(outbox, lambda _, result=result: result)  # type: ignore[misc]
        outbox.record(to_pending(job))
        durable.run(job)
        outbox.close()  # the process exits
        after = FileOutbox(tmp_path / str(deferred), encode_messages, decode_messages)
        assert [u.record_id for u in after.recover()] == kept
        after.close()


def test_capping_never_ends_inside_a_split_message() -> None:
    long = HumanMessage("Tea is good. " * 2000, id="long")
    chunks = plan_chunks([HumanMessage("hi", id="a"), long], 300, max_parts=4)
    assert [c.partial for c in chunks] == [False, True, True, True, False]
    assert chunks[-1].cut_chars > 0 and [key_id(k) for k in chunks[-1].completes] == ["long"]
    # The count is exact (the text less what the parts carry) and the last part names it.
    sent = [message_text(c.messages[0]).partition("] ")[2] for c in chunks[1:]]
    cut = chunks[-1].cut_chars
    assert cut == len(message_text(long)) - sum(map(len, sent))
    assert f"the last {cut:,} characters were not sent" in message_text(chunks[-1].messages[0])
    kept, left = cap_chunks(chunks, 4)
    assert [[key_id(k) for k in c.completes] for c in kept] == [
        ["a"]
    ] and left == 4  # the split waits whole
    kept, left = cap_chunks(chunks[1:], 4)
    assert left == 0 and [key_id(k) for k in kept[-1].completes] == ["long"]
