"""A "yes" after the assistant asks something answers the question; it takes back no
withdrawal said before it.

Before (attacker 343, older): "I'm not vegan anymore." then the assistant's "Do you still
avoid dairy?" and the user's "Yes." put the diet back, as "Yes I am." right after the
withdrawal does: a bare "yes" was read as taking it back whatever came between. Now, after a
reply that asks something, a "yes" (or "I wish") answers it, in one update or the next;
"Just kidding" still takes the withdrawal back. Sentences are this project's own.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage

from deerflow_memory.inject.constraints import is_constraint
from deerflow_memory.storage.file import FileMemoryStorage
from deerflow_memory.update.offline.extractor import OfflineExtractor
from deerflow_memory.update.queue import UpdateJob
from deerflow_memory.update.updater import MemoryUpdater
from tests.test_quality_kinds import facts_of_one_update


@pytest.mark.parametrize(
    ("withdrawn", "question", "answer"),
    [
        ("I'm not pescatarian anymore.", "Do you still eat eggs?", "Yes."),
        ("I'm not allergic to lupin anymore.", "Was the test stressful?", "Yeah."),
        ("I'm not vegetarian anymore.", "Do you miss the old recipes?", "I wish haha"),
        ("I'm not pescatarian anymore.", "你还吃鸡蛋吗", "Yep."),
    ],
)
def test_a_yes_answering_a_question_leaves_the_withdrawal(
    withdrawn: str, question: str, answer: str
) -> None:
    first = withdrawn.replace("not ", "").replace(" anymore", "")
    assert facts_of_one_update(first, withdrawn, f"AI: {question}", answer) == []


@pytest.mark.parametrize(
    ("withdrawn", "reply", "back"),
    [
        ("I'm not pescatarian anymore.", "AI: Noted.", "Yes I am."),
        ("I'm not pescatarian anymore.", "AI: Why the change?", "Just kidding!"),
        ("I'm not pescatarian anymore.", "AI: Got it.", "Yeah, I still am."),
    ],
)
def test_taking_it_back_still_counts(withdrawn: str, reply: str, back: str) -> None:
    assert facts_of_one_update("I'm pescatarian.", withdrawn, reply, back) == [
        "User is pescatarian"
    ]


def _saved_in_turns(tmp_path: Path, *turns: tuple[str, str]) -> list[str]:
    """The facts stored once each (user message, assistant reply) turn of one thread was
    saved by its own update."""
    storage = FileMemoryStorage(tmp_path)
    updater = MemoryUpdater(
        storage,
        OfflineExtractor(),
        now=lambda: "2026-12-01T09:00:00Z",
        is_constraint=is_constraint,
    )
    thread: list[BaseMessage] = []
    for i, (said, reply) in enumerate(turns):
        thread += [HumanMessage(said, id=f"h{i}"), AIMessage(reply, id=f"a{i}")]
        updater.update(UpdateJob("t1", "alice", None, tuple(thread)))
    return [fact.content for fact in storage.load("alice").facts]


def test_a_yes_in_the_next_update_answers_the_question(tmp_path: Path) -> None:
    turns = [
        ("I'm pescatarian.", "Noted."),
        ("I'm not pescatarian anymore.", "Do you still eat fish?"),
        ("Yes.", "Great."),
    ]
    assert _saved_in_turns(tmp_path, *turns) == []
    # …while "Just kidding!" there still puts the diet back
    turns[2] = ("Just kidding!", "Ha, got it.")
    assert _saved_in_turns(tmp_path / "kidding", *turns) == ["User is pescatarian"]
