"""MessageEncoder: the outbox's encode_messages that encodes each live message object once."""

from __future__ import annotations

import gc

import pytest
from langchain_core.messages import AIMessage, HumanMessage, ToolMessage

from deerflow_memory.update import encoding
from deerflow_memory.update.encoding import MessageEncoder, encode_messages


def _thread() -> list:
    return [
        HumanMessage("I'm allergic to peanuts", id="h1", additional_kwargs={"when": b"\x00\xff"}),
        AIMessage("", id="a1", tool_calls=[{"name": "s", "args": {"q": 1}, "id": "c1"}]),
        ToolMessage("results \ud800", tool_call_id="c1", id="t1"),
        AIMessage("Noted: no peanuts.", id="a2"),
    ]


def test_it_gives_what_encode_messages_gives() -> None:
    messages = _thread()
    encoder = MessageEncoder()
    assert encoder(messages) == encode_messages(messages)
    assert encoder(messages) == encode_messages(messages)  # from the cache


def test_a_message_met_again_is_not_encoded_again(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str | None] = []
    original = encoding.message_to_dict

    def counting(message):  # type: ignore[no-untyped-def]
        calls.append(message.id)
        return original(message)

    monkeypatch.setattr(encoding, "message_to_dict", counting)
    messages = _thread()
    encoder = MessageEncoder()
    encoder(messages)
    grown = [*messages, HumanMessage("And I don't eat seafood", id="h2")]
    assert encoder(grown) == encode_messages(grown)
    assert calls == ["h1", "a1", "t1", "a2", "h2"]  # the second call encoded only the new one


def test_a_replaced_content_or_a_late_id_is_encoded_afresh() -> None:
    message = HumanMessage("I live in Berlin")
    encoder = MessageEncoder()
    encoder([message])
    message.id = "given-later"  # add_messages gives ids in place
    assert encoder([message])[0]["data"]["id"] == "given-later"
    message.content = "I live in Munich now"
    assert encoder([message])[0]["data"]["content"] == "I live in Munich now"


def test_it_keeps_no_message_alive_and_stays_bounded() -> None:
    encoder = MessageEncoder(max_entries=3)
    messages = [HumanMessage(f"fact {i}", id=f"m{i}") for i in range(10)]
    encoder(messages)
    assert len(encoder._entries) <= 3
    del messages
    gc.collect()
    assert encoder._entries == {}


def test_the_file_outbox_encodes_through_one(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from deerflow_memory.config import MemoryConfig
    from deerflow_memory.storage.file import FileMemoryStorage
    from deerflow_memory.update.durable import build_outbox

    outbox = build_outbox(FileMemoryStorage(tmp_path), MemoryConfig(storage_path=tmp_path))
    assert isinstance(outbox._encode, MessageEncoder)  # type: ignore[union-attr]
