"""A message counts as extracted by its id *and* its text.

An edited message (same id, see ``update_state``) or an id a client reuses in
a later session ("1", "2", … again) is new and reaches the extractor; keys
written by earlier versions (bare ids) still mark their messages as read, so
an upgrade does not re-send old threads.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage
from langgraph.checkpoint.memory import InMemorySaver

from deerflow_memory import MemoryConfig, MemoryService, create_memory_agent
from deerflow_memory.identity import MemoryIdentity
from deerflow_memory.models import ExtractionWatermark, MemoryUpdate
from deerflow_memory.update.extraction import ExtractionRequest
from deerflow_memory.update.incremental import (
    ExtractedKeys,
    key_id,
    message_key,
    plan_chunks,
    select_new_messages,
    with_keys,
)
from deerflow_memory.update.offline.extractor import OfflineExtractor


def mark(*messages: BaseMessage) -> ExtractionWatermark:
    return ExtractionWatermark(thread_id="t", message_keys=tuple(map(message_key, messages)))


def test_a_key_holds_the_id_and_changes_with_the_text() -> None:
    first, edited = (
        HumanMessage("I live in Oslo.", id="m1"),
        HumanMessage("I live in Rome.", id="m1"),
    )
    assert key_id(message_key(first)) == "m1" == key_id(message_key(edited))
    assert message_key(first) != message_key(edited)
    assert message_key(first) == message_key(HumanMessage("I live in Oslo.", id="m1"))
    # Not the type alone: an AI message with the same id and text is another message.
    assert message_key(AIMessage("I live in Oslo.", id="m1")) != message_key(first)


def test_a_message_edited_before_the_boundary_is_new_and_keeps_its_place() -> None:
    h0, a0 = HumanMessage("I live in Oslo.", id="h0"), AIMessage("Noted.", id="a0")
    edited = HumanMessage("I am allergic to peanuts.", id="h0")
    h1, a1 = HumanMessage("Thanks.", id="h1"), AIMessage("Welcome.", id="a1")
    context, new = select_new_messages([edited, a0, h1, a1], mark(h0, a0), context_messages=2)
    assert new == [edited, h1, a1]
    assert context == [a0]  # the edited message is sent as new, not as context


def test_an_unchanged_history_sends_only_what_follows() -> None:
    h0, a0, h1 = HumanMessage("a", id="h0"), AIMessage("b", id="a0"), HumanMessage("c", id="h1")
    context, new = select_new_messages([h0, a0, h1], mark(h0, a0), context_messages=1)
    assert (context, new) == ([a0], [h1])


def test_ids_reused_in_a_later_session_are_new_messages() -> None:
    session1 = [HumanMessage("I am allergic to peanuts.", id="1"), AIMessage("Noted.", id="2")]
    session2 = [HumanMessage("I live in Oslo.", id="1"), AIMessage("Noted.", id="2")]
    _, new = select_new_messages(session2, mark(*session1), context_messages=0)
    assert new == [session2[0]]


def test_bare_id_keys_of_earlier_versions_still_mark_their_messages_as_read() -> None:
    history = [HumanMessage("a", id="h0"), AIMessage("b", id="a0"), HumanMessage("c", id="h1")]
    legacy = ExtractionWatermark(thread_id="t", message_keys=("h0", "a0"))
    _, new = select_new_messages(history, legacy, context_messages=0)
    assert new == [history[2]]
    done = ExtractedKeys(legacy.message_keys)
    assert done.has(history[0]) and not done.edited(history[0])


def test_id_less_messages_keep_their_content_hash_as_key() -> None:
    said = [HumanMessage("I live in Oslo."), AIMessage("Noted.")]
    keyed, keys = with_keys(said)
    assert all(str(m.id).startswith("h:") for m in keyed)
    hashes = [message_key(m, p) for m, p in zip(said, [None, *said], strict=False)]
    assert keys == hashes  # the keys with_keys returns are the ones the copies key as
    assert [message_key(m) for m in keyed] == hashes
    assert [key_id(str(m.id)) for m in keyed] == hashes  # the id names its hash


def test_a_client_whose_ids_restart_each_session_has_every_statement_learned(
    tmp_path: Path,
) -> None:
    config = MemoryConfig(storage_path=tmp_path / "memory", debounce_seconds=3600)
    said = ["I'm allergic to peanuts.", "I live in Oslo.", "I work as a nurse."]
    with MemoryService(config, register_atexit=False) as memory:
        agent = create_memory_agent(service=memory)
        for text in said:  # a stateless client: one message per session, always id "1"
            agent.invoke(
                {"messages": [HumanMessage(text, id="1")]}, {"configurable": {"user_id": "u"}}
            )
            assert memory.flush(timeout=30)
        facts = " ".join(f.content for f in memory.load(MemoryIdentity("u", None, "x")).facts)
    assert "peanut" in facts and "Oslo" in facts and "nurse" in facts, facts


def test_a_message_edited_with_update_state_is_learned_on_the_next_turn(tmp_path: Path) -> None:
    config = MemoryConfig(storage_path=tmp_path / "memory", debounce_seconds=3600)
    run = {"configurable": {"user_id": "u", "thread_id": "t1"}}
    with MemoryService(config, register_atexit=False) as memory:
        agent = create_memory_agent(service=memory, checkpointer=InMemorySaver())
        agent.invoke({"messages": [HumanMessage("I live in Oslo.", id="m1")]}, run)
        assert memory.flush(timeout=30)
        agent.update_state(run, {"messages": [HumanMessage("I'm allergic to peanuts.", id="m1")]})
        agent.invoke({"messages": [HumanMessage("Thanks.", id="m2")]}, run)
        assert memory.flush(timeout=30)
        facts = " ".join(f.content for f in memory.load(MemoryIdentity("u", None, "t1")).facts)
    assert "peanut" in facts, facts


def test_ids_a_caller_repeats_within_one_history_are_not_taken_for_edits() -> None:
    history: list[BaseMessage] = []
    sent: list[BaseMessage] = []
    for turn in range(30):  # a caller numbering each turn's messages "1" and "2"
        history += [HumanMessage(f"statement {turn}", id="1"), AIMessage(f"reply {turn}", id="2")]
        _, new = select_new_messages(history, mark(*sent[-16:]) if sent else None)
        sent += new
        assert len(new) <= 2, (turn, [m.content for m in new])  # only this turn's two
    assert len(sent) == 60


def test_a_nul_in_a_message_keys_as_the_outbox_stores_it() -> None:
    from deerflow_memory.update.encoding import decode_messages, encode_messages

    live = [HumanMessage("I live in\x00 Oslo.", id="h0"), HumanMessage("bad \ud800 text")]
    stored = decode_messages(encode_messages(live))
    assert with_keys(live)[1] == with_keys(stored)[1]
    assert [message_key(m) for m in with_keys(live)[0]] == with_keys(stored)[1]


def test_a_client_id_that_looks_like_ours_still_gets_a_digest() -> None:
    first, reused = (
        HumanMessage("I live in Oslo.", id="h:1"),
        HumanMessage("I'm a nurse.", id="h:1"),
    )
    assert message_key(first) != message_key(reused)
    _, new = select_new_messages([reused], mark(first), context_messages=0)
    assert new == [reused]


def test_a_history_resent_with_new_ids_each_run_sends_only_the_new_turn() -> None:
    said = ["I'm allergic to peanuts.", "Noted.", "I live in Oslo.", "Nice city."]

    def run(texts: list[str], turn: int) -> list[BaseMessage]:  # random ids, as add_messages gives
        kinds = (HumanMessage, AIMessage)
        return [kinds[i % 2](t, id=f"run{turn}-{i}") for i, t in enumerate(texts)]

    first = run(said, 1)
    _, new = select_new_messages(run([*said, "I work as a nurse.", "Good."], 2), mark(*first))
    assert [m.content for m in new] == ["I work as a nurse.", "Good."]
    # One recorded message matching by text alone is not enough to skip anything.
    _, new = select_new_messages(run(["Noted.", "I have two kids."], 3), mark(first[1]))
    assert [m.content for m in new] == ["Noted.", "I have two kids."]


class Counting(OfflineExtractor):
    """The offline extractor, recording the texts each extraction is given."""

    def __init__(self) -> None:
        super().__init__()
        self.sent: list[list[str]] = []

    def extract(self, request: ExtractionRequest) -> MemoryUpdate:
        self.sent.append([str(m.content) for m in request.messages])
        return super().extract(request)


def test_a_stateless_client_resending_its_history_pays_for_each_turn_once(tmp_path: Path) -> None:
    config = MemoryConfig(storage_path=tmp_path / "memory", debounce_seconds=3600)
    said = ["I'm allergic to peanuts.", "I live in Oslo.", "I work as a nurse.", "I have two kids."]
    extractor = Counting()
    with MemoryService(config, extractor=extractor, register_atexit=False) as memory:
        agent = create_memory_agent(service=memory)
        history: list[dict[str, str]] = []
        run = {"configurable": {"user_id": "u", "thread_id": "web-1"}}
        for text in said:  # no checkpointer: the whole history, without ids, every run
            history.append({"role": "user", "content": text})
            out = agent.invoke({"messages": history}, run)
            history.append({"role": "assistant", "content": out["messages"][-1].content})
            assert memory.flush(timeout=30)
        facts = " ".join(f.content for f in memory.load(MemoryIdentity("u", None, "web-1")).facts)
    assert all(word in facts for word in ("peanut", "Oslo", "nurse", "kids")), facts
    # Each update is given only its own turn (the user's line and the reply), not the history.
    assert [len(texts) for texts in extractor.sent] == [2, 2, 2, 2], extractor.sent
    assert [texts[0] for texts in extractor.sent] == said


def test_a_thread_known_only_to_a_deletes_fence_is_split_without_a_watermark() -> None:
    history = [HumanMessage("I live in Oslo.", id="h0"), AIMessage("Noted.", id="a0")]
    fenced = {message_key(history[0])}  # what a delete sealed (the lookup a fence gives)
    _, new = select_new_messages(
        [*history, HumanMessage("I'm a nurse.", id="h1")], None, fenced=fenced
    )
    assert [m.content for m in new] == ["Noted.", "I'm a nurse."]
    # A fence of other messages only: nothing lines up, every message is new.
    _, new = select_new_messages(history, None, fenced={"gone~0123456789ab"})
    assert new == history


def test_a_new_turn_repeating_the_last_texts_does_not_hide_what_came_before_it() -> None:
    def run(texts: list[str], turn: int) -> list[BaseMessage]:  # random ids, as add_messages gives
        kinds = (HumanMessage, AIMessage)
        return [kinds[i % 2](t, id=f"run{turn}-{i}") for i, t in enumerate(texts)]

    first = run(["I live in Oslo.", "Noted."], 1)
    later = run(["I live in Oslo.", "Noted.", "I'm allergic to peanuts.", "Noted."], 2)
    later += run(["I live in Oslo.", "Noted."], 3)  # the user says it again
    _, new = select_new_messages(later, mark(*first), context_messages=0)
    assert "I'm allergic to peanuts." in [m.content for m in new]


def test_keys_passed_on_must_be_one_per_message() -> None:
    keyed, keys = with_keys([HumanMessage("I live in Oslo."), AIMessage("Noted.")])
    with pytest.raises(ValueError, match="1 keys for 2 messages"):
        select_new_messages(keyed, None, keys=keys[:1])
    with pytest.raises(ValueError, match="1 keys for 2 messages"):
        plan_chunks(keyed, 100, keys=keys[:1])
    assert [c.completes for c in plan_chunks(keyed, 100, keys=keys)] == [tuple(keys)]
