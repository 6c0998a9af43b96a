"""A ``ChatMessage`` of role user or assistant is captured like a human or AI message.

Attack 20 F16: ``ChatMessage(role="user")`` was dropped by capture, so those words were
never learned; some clients and adapters send every turn that way.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from langchain_core.messages import AIMessage, ChatMessage, HumanMessage

from deerflow_memory.capture.messages import (
    filter_messages_for_memory,
    filter_recent_messages,
    has_minimum_dialogue,
    latest_user_text,
)
from deerflow_memory.identity import MemoryIdentity
from deerflow_memory.service import MemoryService
from tests.openai_server import OpenAIServer, openai_server  # noqa: F401  (fixture)


@pytest.mark.parametrize(("user", "assistant"), [("user", "assistant"), ("human", "ai")])
def test_chat_messages_of_the_user_and_the_assistant_are_kept_as_their_kinds(
    user: str, assistant: str
) -> None:
    messages = [
        ChatMessage(role="system", content="Be brief.", id="s"),
        ChatMessage(role=user, content="I am Bob and I live in Oslo", id="m"),
        ChatMessage(role=assistant, content="Hi Bob!", id="n"),
    ]
    kept = filter_messages_for_memory(messages)
    assert [(type(m), m.content, m.id) for m in kept] == [
        (HumanMessage, "I am Bob and I live in Oslo", "m"),
        (AIMessage, "Hi Bob!", "n"),
    ]
    assert filter_recent_messages(messages, 5) == kept
    assert has_minimum_dialogue(messages)
    assert latest_user_text(messages) == "I am Bob and I live in Oslo"


def test_a_chat_message_of_another_role_is_still_dropped() -> None:
    messages = [ChatMessage(role="tool", content="42"), ChatMessage(role="critic", content="meh")]
    assert filter_messages_for_memory(messages) == []


def test_a_user_chat_message_reaches_the_memory_model(
    openai_server: OpenAIServer,  # noqa: F811
    tmp_path: Path,
) -> None:
    openai_server.reply(
        '{"newFacts": [{"content": "Lives in Oslo", "category": "context", "confidence": 0.9}]}'
    )
    service = MemoryService(openai_server.memory_config(tmp_path))
    try:
        me = MemoryIdentity(user_id="bob", agent_name=None, thread_id="t1")
        said = [
            ChatMessage(role="user", content="I live in Oslo", id="m1"),
            ChatMessage(role="assistant", content="Nice city!", id="m2"),
        ]
        service.enqueue(me, said)
        assert service.flush(10).drained
        assert openai_server.request_count == 1
        assert [f.content for f in service.load(me).facts] == ["Lives in Oslo"]
    finally:
        service.close()
