"""Attack 29b: huge numbers, one-line storage errors, ChatMessage turns in signals."""

from __future__ import annotations

import pytest
from langchain_core.messages import AIMessage, ChatMessage, HumanMessage
from langgraph.store.memory import InMemoryStore

from deerflow_memory import detect_correction, detect_reinforcement
from deerflow_memory.errors import CorruptMemoryError, InvalidDocumentError, UpdateParseError
from deerflow_memory.models import Fact, FactCategory, MemoryDocument
from deerflow_memory.storage.store import StoreMemoryStorage
from deerflow_memory.update.answer import parse_update

_FACT = '{"id":"f1","content":"x","category":"context","createdAt":"2025-01-01T00:00:00Z",'


def test_an_answer_holding_a_number_too_long_to_read_is_a_parse_error() -> None:
    # Python reads at most 4,300 digits: a bare ValueError skipped the ask-again.
    answer = '{"newFacts":[{"content":"x","confidence":' + "9" * 5000 + "}]}"
    with pytest.raises(UpdateParseError, match="not a memory update"):
        parse_update(answer)


def test_a_stored_confidence_beyond_floats_loads_as_no_confidence() -> None:
    document = MemoryDocument.from_json('{"facts":[' + _FACT + '"confidence":' + "9" * 400 + "}]}")
    assert document.facts[0].confidence == 0.0  # as an infinity: no confidence at all


def test_a_stored_number_too_long_to_read_is_a_one_line_document_error() -> None:
    with pytest.raises(InvalidDocumentError) as caught:
        MemoryDocument.from_json('{"facts":[' + _FACT + '"confidence":' + "9" * 5000 + "}]}")
    assert "\n" not in str(caught.value)


def test_a_corrupt_store_fact_is_named_in_one_line() -> None:
    store = InMemoryStore()
    storage = StoreMemoryStorage(store)
    fact = Fact(id="f1", content="hi", category=FactCategory.CONTEXT, confidence=0.9)
    storage.save("u", None, MemoryDocument(facts=(fact,)))
    (item,) = store.search((*storage.document_namespace("u", None), "facts"))
    store.put(item.namespace, item.key, {**item.value, "content": ["not", "text"]})
    with pytest.raises(CorruptMemoryError) as caught:
        storage.load("u", None)
    message = str(caught.value)
    assert "facts.0.content" in message and "\n" not in message and "pydantic.dev" not in message


def test_a_chat_message_turn_carries_its_signals() -> None:
    said = ChatMessage(role="assistant", content="Here is the plan for Friday.")
    assert detect_correction(
        [
            ChatMessage(role="user", content="hi"),
            said,
            ChatMessage(role="user", content="No, that's wrong, you misunderstood"),
        ]
    )
    assert detect_reinforcement(
        [
            HumanMessage("hi"),
            AIMessage("Here is the plan."),
            ChatMessage(role="User ", content="Perfect, exactly what I needed!"),
        ]
    )
