"""One message identity: the queue's merge keeps a message once exactly when the updater's key
says it is one message.

The outbox stores text as every backend can write it (NUL and lone surrogates
as U+FFFD), so a capture recovered after a restart reads differently from the
live capture of the same thread. The updater's key (``message_key``) reads
both the same; the merge of the two captures must too, or the model is sent
the user's message twice.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage

from deerflow_memory import FileMemoryStorage
from deerflow_memory.capture.messages import message_text
from deerflow_memory.update.durable import decode_messages, encode_messages
from deerflow_memory.update.incremental import identities, message_key
from deerflow_memory.update.queue import FakeClock, MemoryUpdateQueue, UpdateJob
from deerflow_memory.update.union import merge_messages
from deerflow_memory.update.updater import MemoryUpdater
from tests.recording import Recording

WAIT = 10.0

UNWRITABLE = {
    "NUL": "I'm allergic to peanuts.\x00",
    "lone surrogate": "I'm allergic to peanuts \ud83d.",
}


def history(first: str) -> tuple[BaseMessage, ...]:
    return (
        HumanMessage(first, id="h-1"),
        AIMessage("Noted.", id="a-1"),
        HumanMessage("I live in Oslo.", id="h-2"),
        AIMessage("Nice city.", id="a-2"),
    )


@pytest.mark.parametrize("text", UNWRITABLE.values(), ids=UNWRITABLE.keys())
def test_a_recovered_capture_and_the_live_thread_send_each_message_to_the_model_once(
    tmp_path: Path, text: str
) -> None:
    live = history(text)
    # The first turn was recorded, the process stopped; the next start recovers it
    # while the live thread (both turns) is queued for the same key.
    recovered = UpdateJob("t1", "alice", None, decode_messages(encode_messages(live[:2])), "r-1")
    ran: list[UpdateJob] = []
    queue = MemoryUpdateQueue(ran.append, debounce_seconds=30, clock=FakeClock())
    try:
        queue.add("t1", "alice", None, live)
        queue.restore(recovered, 0.0)
        assert queue.wait_idle(timeout=WAIT)
    finally:
        queue.shutdown(timeout=WAIT)
    (job,) = ran
    assert [message_key(m) for m in job.messages] == [message_key(m) for m in live]
    extractor = Recording()
    MemoryUpdater(FileMemoryStorage(tmp_path), extractor).update(job)
    assert len(extractor.sent) == 2  # the allergy once, Oslo once


def stored_text(message: BaseMessage) -> str:
    """``message``'s text as the outbox stores it."""
    return message_text(decode_messages(encode_messages([message]))[0])


def expected_identities(
    messages: list[BaseMessage],
) -> list[tuple[tuple[str, ...], tuple[str, ...]]]:
    """What ``identities`` must give, spelled out: (id, type, text), else the text identity."""
    found = []
    before = ""
    for message in messages:
        text = stored_text(message)
        as_text = ("", message.type, text, before)
        own = (str(message.id), message.type, text) if message.id else as_text
        found.append((own, as_text))
        before = text
    return found


def identity(message: BaseMessage) -> tuple[str, ...]:
    return identities([message])[0][0]


def pairs() -> dict[str, tuple[BaseMessage, BaseMessage]]:
    text = "I'm allergic to peanuts."
    return {
        "same id and text": (HumanMessage(text, id="1"), HumanMessage(text, id="1")),
        "edited in place": (HumanMessage(text, id="1"), HumanMessage(text + "!", id="1")),
        "another type": (HumanMessage(text, id="1"), AIMessage(text, id="1")),
        "NUL as stored": (HumanMessage("a\x00b", id="1"), HumanMessage("a\ufffdb", id="1")),
        "surrogate as stored": (HumanMessage("a\ud800", id="1"), HumanMessage("a\ufffd", id="1")),
        "blocks or a string": (
            HumanMessage([{"type": "text", "text": text}], id="1"),
            HumanMessage(text, id="1"),
        ),
        "id-less, same text": (HumanMessage(text), HumanMessage(text)),
        "id-less, NUL as stored": (HumanMessage("a\x00"), HumanMessage("a\ufffd")),
        "a client id shaped like a hash, other text": (
            HumanMessage(text, id="h:0123456789abcdef0123"),
            HumanMessage("other", id="h:0123456789abcdef0123"),
        ),
        "a client id shaped like a hash, same text": (
            HumanMessage(text, id="h:0123456789abcdef0123"),
            HumanMessage(text, id="h:0123456789abcdef0123"),
        ),
    }


@pytest.mark.parametrize("pair", pairs().values(), ids=pairs().keys())
def test_the_merge_keeps_two_messages_once_exactly_when_their_keys_are_equal(
    pair: tuple[BaseMessage, BaseMessage],
) -> None:
    first, second = pair
    same = message_key(first) == message_key(second)
    assert (identity(first) == identity(second)) is same
    assert len(merge_messages([first], [second])) == (1 if same else 2)


def test_the_identities_of_a_capture_are_each_messages_own_after_its_predecessor() -> None:
    messages = [first for first, _ in pairs().values()] + [AIMessage("a\x00", id="")]
    assert identities(messages) == expected_identities(messages)
