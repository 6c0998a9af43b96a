"""What a message adds to a need said in an earlier update of the same thread.

Before: the offline extractor read only the new messages of an update, so a user who said
"I'm allergic to walnuts." and, in a later turn (a later update: updates are debounced),
"Also pecans." or "Neither can I." lost that need; and the updater passed one message of
context (the assistant's reply), never the user's message before it. Now the extractor asks
for two (``OfflineExtractor.context_wanted``) and reads the end of the user's last message
for what the next one adds to, puts right or says "me too" of, never for facts of its own.
Sentences are this project's own.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pytest
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage

from deerflow_memory.config import MemoryConfig
from deerflow_memory.errors import InvalidMessagesError
from deerflow_memory.models import MemoryDocument, MemoryUpdate
from deerflow_memory.storage.file import FileMemoryStorage
from deerflow_memory.update.extraction import ExtractionRequest
from deerflow_memory.update.merges import IsConstraint, flagged_constraint
from deerflow_memory.update.offline.extractor import OfflineExtractor
from deerflow_memory.update.queue import UpdateJob
from deerflow_memory.update.updater import MemoryUpdater, UpdateStatus


def _said_in_turns(
    tmp_path: Path,
    *said: str,
    config: MemoryConfig | None = None,
    is_constraint: IsConstraint = flagged_constraint,
) -> list[str]:
    """The stored facts once each message was said in its own turn of one thread, each
    turn saved by its own update, as debounced updates of a LangGraph thread are (the
    service passes the updater ``inject.constraints.is_constraint`` as its need test)."""
    storage = FileMemoryStorage(tmp_path)
    updater = MemoryUpdater(
        storage,
        OfflineExtractor(),
        config,
        now=lambda: "2026-12-01T09:00:00Z",
        is_constraint=is_constraint,
    )
    thread: list[BaseMessage] = []
    for i, text in enumerate(said):
        thread += [HumanMessage(text, id=f"h{i}"), AIMessage("Noted.", id=f"a{i}")]
        result = updater.update(UpdateJob("t1", "alice", None, tuple(thread)))
        assert result.status in (UpdateStatus.SAVED, UpdateStatus.SKIPPED)
    return [fact.content for fact in storage.load("alice").facts]


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        (
            ("I'm allergic to walnuts.", "Also pecans."),
            ["User is allergic to walnuts", "User is allergic to pecans"],
        ),
        (("My husband can't eat gluten.", "Neither can I."), ["User cannot eat gluten"]),
        (("我对芒果过敏。", "还有木瓜。"), ["用户对芒果过敏", "用户对木瓜过敏"]),
        # put right in a later turn: the thing meant is stored, and the stored need stays
        # (a need goes only when the user says it is over)
        (
            ("I'm allergic to walnuts.", "Sorry, I meant pecans."),
            ["User is allergic to walnuts", "User is allergic to pecans"],
        ),
    ],
)
def test_a_later_turn_adds_to_the_need_of_the_turn_before(
    tmp_path: Path, said: tuple[str, ...], stored: list[str]
) -> None:
    assert _said_in_turns(tmp_path, *said) == stored


def test_the_context_is_read_even_when_none_is_configured(tmp_path: Path) -> None:
    config = MemoryConfig(update_context_messages=0)
    said = ("I'm allergic to walnuts.", "Also pecans.")
    assert "User is allergic to pecans" in _said_in_turns(tmp_path, *said, config=config)


def test_what_follows_something_else_adds_nothing(tmp_path: Path) -> None:
    assert _said_in_turns(tmp_path, "I live in Tromsø.", "Also pecans.") == ["User lives in Tromsø"]


def _extract(context: Sequence[BaseMessage], text: str) -> MemoryUpdate:
    request = ExtractionRequest(
        MemoryDocument(), [HumanMessage(text), AIMessage("Noted.")], "t1", context_messages=context
    )
    return OfflineExtractor().extract(request)


def test_the_context_is_never_read_for_facts_of_its_own() -> None:
    context = [HumanMessage("I'm allergic to kiwi. I live in Graz."), AIMessage("Noted.")]
    assert _extract(context, "What should I cook tonight?").new_facts == ()


def test_only_whole_sentences_at_the_end_of_a_long_message_are_read() -> None:
    long = "I like hiking in the hills. " * 30 + "I'm allergic to walnuts."
    update = _extract([HumanMessage(long), AIMessage("Noted.")], "Also pecans.")
    assert [f.content for f in update.new_facts] == ["User is allergic to pecans"]
    # a sentence cut by the window is not read: "…my son is allergic to eggs" would be
    # "is allergic to eggs" cut, which the user is not
    cut = "My son " + "x" * 500 + " is allergic to eggs"
    assert _extract([HumanMessage(cut)], "Me too.").new_facts == ()


class _Recording:
    """An extractor that records the context each request carried."""

    def __init__(self, wanted: object = None) -> None:
        if wanted is not None:
            self.context_wanted = wanted
        self.contexts: list[int] = []

    def extract(self, request: ExtractionRequest) -> MemoryUpdate:
        self.contexts.append(len(request.context_messages))
        return MemoryUpdate()


@pytest.mark.parametrize(("wanted", "passed"), [(None, 1), (2, 2), (3, 3), ("2", 1), (99, 1)])
def test_an_extractor_gets_the_context_it_asks_for_and_no_less_than_configured(
    tmp_path: Path, wanted: object, passed: int
) -> None:
    recording = _Recording(wanted)
    updater = MemoryUpdater(FileMemoryStorage(tmp_path), recording)
    thread: list[BaseMessage] = []
    for i in range(3):
        thread += [
            HumanMessage(f"I like tea number {i}.", id=f"h{i}"),
            AIMessage("Ok.", id=f"a{i}"),
        ]
        updater.update(UpdateJob("t1", "alice", None, tuple(thread)))
    # (the second update has two messages before it, the third four)
    assert recording.contexts == [0, min(passed, 2), min(passed, 4)]


@pytest.mark.parametrize("bad", [None, "I'm vegan.", 5, {"role": "user"}])
def test_messages_or_context_that_are_no_sequence_raise_a_typed_error(bad: object) -> None:
    said = [HumanMessage("I'm vegan.")]
    with pytest.raises(InvalidMessagesError, match="messages must be a list of messages"):
        OfflineExtractor.candidates(bad)  # type: ignore[arg-type]
    with pytest.raises(InvalidMessagesError, match="context must be a list of messages"):
        OfflineExtractor.candidates(said, context=bad)  # type: ignore[arg-type]


def test_items_that_are_no_chat_messages_are_skipped() -> None:
    odd: list[object] = [None, "I'm vegan.", object(), HumanMessage("I'm vegan.")]
    found = OfflineExtractor.candidates(odd, context=[None, 3])
    assert [c.content for c in found] == ["User is vegan"]
