"""A message whose content is neither text nor a list of parts (``None`` or a number, left by
``model_construct``, which skips LangChain's validation).

Before: the offline extractor and the capture filters raised a bare ``TypeError`` ("'NoneType'
object is not iterable"), and ``MemoryService.enqueue`` queued such a message for the
background update to fail on. Now the public entry names it with a typed error and queues
nothing; inside a turn (the capture node, the updater) it says nothing, like a picture, and
the other messages are read.
"""

from __future__ import annotations

import pytest
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage

from deerflow_memory.capture.messages import (
    filter_checked_messages,
    filter_messages_for_memory,
    filter_recent_messages,
    message_text,
)
from deerflow_memory.errors import InvalidMessagesError
from deerflow_memory.identity import MemoryIdentity
from deerflow_memory.service import MemoryService
from deerflow_memory.update.offline.extractor import OfflineExtractor

UNCHECKED: list[BaseMessage] = [
    HumanMessage.model_construct(content=None),
    AIMessage.model_construct(content=None),
    HumanMessage.model_construct(content=7),
]


@pytest.mark.parametrize("broken", UNCHECKED)
def test_inside_a_turn_it_says_nothing_and_the_rest_is_read(broken: BaseMessage) -> None:
    assert message_text(broken) == ""
    said = [broken, HumanMessage("I'm allergic to sesame."), AIMessage("Noted.")]
    assert [c.content for c in OfflineExtractor.candidates(said)] == ["User is allergic to sesame"]
    # the capture node's filters (its messages were coerced, not checked again)
    assert len(filter_checked_messages(said)) >= 2
    assert len(filter_recent_messages(said, 6)) >= 2


@pytest.mark.parametrize("broken", UNCHECKED)
def test_the_public_entry_names_it_and_queues_nothing(
    broken: BaseMessage, service: MemoryService
) -> None:
    said = [HumanMessage("I'm allergic to sesame."), broken, AIMessage("Noted.")]
    with pytest.raises(InvalidMessagesError, match=r"messages\[1\] has content of type"):
        service.enqueue(MemoryIdentity("alice", None, "t1"), said)
    with pytest.raises(InvalidMessagesError, match="has content of type"):
        filter_messages_for_memory(said)
    service.flush()
    assert service.load(MemoryIdentity("alice", None, "t1")).facts == ()


def test_what_could_not_be_read_is_no_part_of_a_fact() -> None:
    # a lone surrogate (a bad JSON escape) reads as U+FFFD: not a character of the need
    said = [HumanMessage("I'm allergic to sesame \ud800 and I live in Porto"), AIMessage("Ok.")]
    assert [c.content for c in OfflineExtractor.candidates(said)] == [
        "User is allergic to sesame",
        "User lives in Porto",
    ]
