"""A withdrawal taken back by the first message of the next update, and while-words.

Before (attacker 336): "I stopped warfarin." saved by one update and "Just for a week." (or
"Just kidding!") by the next lost the medication: within one update the second message keeps
it, across two the extractor saw the first only as context and the stored fact was gone.
Now the first message of an update that takes back the withdrawal of the message before
puts back what that withdrawal removed, from the document's superseded facts. Also: "我把
X停了，医生说下周恢复" withdrew X (恢复 and 重新吃 were no while-words), and "Only until my
surgery." stored "User: only until their surgery".

Sentences are this project's own.
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
from tests.test_offline_context import _said_in_turns
from tests.test_quality_kinds import facts_after


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        (
            ("I take apixaban.", "I stopped apixaban.", "Just for ten days."),
            ["User takes apixaban"],
        ),
        (
            ("I take apixaban.", "I stopped taking apixaban.", "Just kidding!"),
            ["User takes apixaban"],
        ),
        (
            ("I take apixaban.", "I've stopped taking apixaban.", "Only until my dental surgery."),
            ["User takes apixaban"],
        ),
        (("I'm pescatarian.", "I'm not pescatarian anymore.", "lol jk"), ["User is pescatarian"]),
        (
            ("I'm allergic to lupin.", "I'm not allergic to lupin anymore.", "Just kidding!"),
            ["User is allergic to lupin"],
        ),
        (("我在吃利伐沙班。", "我把利伐沙班停了。", "开玩笑的"), ["用户在吃利伐沙班"]),
        (("我在吃利伐沙班。", "我把利伐沙班停了。", "下周恢复。"), ["用户在吃利伐沙班"]),
    ],
)
def test_the_next_update_takes_the_withdrawal_back(
    tmp_path: Path, said: tuple[str, ...], stored: list[str]
) -> None:
    assert _said_in_turns(tmp_path, *said[:2]) == []  # (withdrawn when saved alone)
    assert _said_in_turns(tmp_path / "again", *said) == stored


@pytest.mark.parametrize(
    "said",
    [
        # a while-word keeps a medication only, not a diet given up
        ("I'm pescatarian.", "I'm not pescatarian anymore.", "Just for ten days."),
        # a message that takes nothing back, or a while-word two messages on
        ("I take apixaban.", "I stopped apixaban.", "Thanks for the help."),
        ("I take apixaban.", "I stopped apixaban.", "I moved to Hull.", "Just for ten days."),
    ],
)
def test_what_takes_nothing_back_puts_nothing_back(tmp_path: Path, said: tuple[str, ...]) -> None:
    assert not any(
        "apixaban" in fact or "pescatarian" in fact for fact in _said_in_turns(tmp_path, *said)
    )


def test_only_what_the_message_before_withdrew_comes_back(tmp_path: Path) -> None:
    # the apixaban stopped in an earlier turn stays stopped: only the lupin comes back
    said = (
        "I take apixaban and I'm allergic to lupin.",
        "I stopped apixaban.",
        "I'm not allergic to lupin anymore.",
        "Just kidding!",
    )
    assert _said_in_turns(tmp_path, *said) == ["User is allergic to lupin"]


@pytest.mark.parametrize(
    "later",
    ["我把利伐沙班停了，医生说下周恢复。", "我停了利伐沙班，下个月重新吃。"],
)
def test_a_chinese_stop_said_to_resume_keeps_the_medication(later: str) -> None:
    assert facts_after("我在吃利伐沙班。", later) == ["用户在吃利伐沙班"]


@pytest.mark.parametrize(
    "later", ["我把利伐沙班停了，身体恢复了。", "我把利伐沙班停了，指标恢复正常了。"]
)
def test_a_chinese_stop_said_with_being_well_again_withdraws_it(later: str) -> None:
    assert facts_after("我在吃利伐沙班。", later) == []


@pytest.mark.parametrize(
    "said", ["Only until my surgery.", "Till my next scan.", "Until my follow-up."]
)
def test_when_or_how_long_alone_is_no_fact(said: str) -> None:
    assert facts_after(said) == []


def test_a_stop_that_removed_nothing_puts_nothing_back(tmp_path: Path) -> None:
    # attacker 340: the last stop found nothing to remove, and "Just kidding!" put back what
    # an older stop of the same drug removed, a joined fact whose job then took the place of
    # the current one (each update a day apart, as in a real thread)
    days = iter(range(1, 20))
    storage = FileMemoryStorage(tmp_path)
    updater = MemoryUpdater(
        storage,
        OfflineExtractor(),
        now=lambda: f"2026-12-{next(days):02d}T09:00:00Z",
        is_constraint=is_constraint,
    )
    thread: list[BaseMessage] = []
    said = (
        "I take apixaban and work at Initech.",
        "I stopped taking apixaban.",
        "I work at Hooli now.",
        "I stopped taking apixaban.",
        "Just kidding!",
    )
    for i, text in enumerate(said):
        thread += [HumanMessage(text, id=f"h{i}"), AIMessage("Noted.", id=f"a{i}")]
        updater.update(UpdateJob("t1", "alice", None, tuple(thread)))
    after = [fact.content for fact in storage.load("alice").facts]
    assert "User works at Hooli now" in after
    assert not any("Initech" in fact or "apixaban" in fact for fact in after)
