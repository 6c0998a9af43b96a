"""The kinds of signal and extraction failure found on public data, pinned with fresh sentences.

None of these sentences is in the tables of ``bench/quality.py``: they check
that the rules cover a kind, not one wording.
"""

from __future__ import annotations

import pytest
from langchain_core.messages import AIMessage, HumanMessage

from deerflow_memory.capture.signals import SignalDetector
from deerflow_memory.models import MemoryDocument
from deerflow_memory.update.apply import apply_update
from deerflow_memory.update.extraction import ExtractionRequest
from deerflow_memory.update.offline.extractor import OfflineExtractor
from deerflow_memory.update.offline.text import candidates_from_text

DETECTOR = SignalDetector()
NOW = "2026-11-30T12:00:00Z"


def signals(assistant: str, user: str) -> tuple[bool, bool]:
    found = DETECTOR.detect([HumanMessage("hello"), AIMessage(assistant), HumanMessage(user)])
    return found.correction, found.reinforcement


@pytest.mark.parametrize(
    "user",
    [
        "what are you even talking about",  # confusion
        "That really doesn't make any sense to me.",
        "Huh??",
        "Make it Wednesday, not Monday.",  # X, not Y
        "I didn't ask you for a summary.",
        "That's not what I said at all.",
        "你在讲什么啊",
        "我没让你删掉那段。",
        "要红色的，不是蓝色的。",
        "你怎么又把格式改了",
    ],
)
def test_corrections_of_the_missed_kinds_are_detected(user: str) -> None:
    assert signals("Here is the updated plan.", user) == (True, False)


@pytest.mark.parametrize(
    "user",
    [
        "Actually, my partner is coming too.",  # a leading "Actually," that adds information
        "Actually, I'd also like a dessert suggestion.",
        "我数学题算错了，好烦。",  # 错了 about the user's own mistake
        "我昨天把钥匙弄错了地方。",
    ],
)
def test_additions_and_the_users_own_mistakes_are_not_corrections(user: str) -> None:
    assert signals("Here are some options.", user)[0] is False


@pytest.mark.parametrize(
    ("assistant", "user"),
    [
        ("Here's the forecast for Saturday.", "Perfect conditions for sailing on Saturday."),
        ("These are the top sellers.", "It's the perfect companion for long trips, says the box."),
        ("A room for two on the 3rd, is that correct?", "Yes, that's right."),
        ("So that's pickup at noon at gate B, correct?", "That's correct."),
        ("这是本周天气。", "周末天气很好。"),
    ],
)
def test_generic_praise_and_confirmed_read_backs_are_not_approval(
    assistant: str, user: str
) -> None:
    assert signals(assistant, user) == (False, False)


def test_approval_of_the_answer_still_counts_after_a_plain_reply() -> None:
    assert signals("I shortened it to one paragraph.", "Perfect, that's right.") == (False, True)


def contents(text: str) -> list[str]:
    return [c.content for c in candidates_from_text(text) if c.content]


@pytest.mark.parametrize(
    ("sentence", "word"),
    [
        ("I strongly dislike celery.", "celery"),
        ("I strictly avoid processed sugar.", "sugar"),
        ("I only eat wild-caught salmon.", "salmon"),
        ("I have a strong aversion to liver.", "liver"),
        ("I'm quite sensitive to MSG.", "MSG"),
        ("I'm vegan and avoid honey.", "honey"),
        ("I'm gluten intolerant and avoid bread.", "bread"),
        ("I have a life-threatening allergy to bee stings.", "bee stings"),
        ("I'm allergic to latex, if that helps.", "latex"),
        ("我对菠萝严重过敏。", "菠萝"),
    ],
)
def test_intensified_compound_and_aside_statements_are_stored(sentence: str, word: str) -> None:
    assert any(word.casefold() in c.casefold() for c in contents(sentence)), contents(sentence)


@pytest.mark.parametrize(
    "sentence",
    [
        "Makes sense, Dmitri.",  # vocative
        "I understand, Lucia, thanks.",
        "我们小区叫锦绣江南。",  # a place is not the user's name
        "我家猫叫豆豆。",
        "Always great talking to you!",  # chit-chat is no standing instruction
        "以后我会小心的。",
        "每次都很顺利。",
        "My manager always wants slides.",  # someone else's habit
        "我老板每天都开会。",
    ],
)
def test_vocatives_place_names_chit_chat_and_other_people_store_nothing(sentence: str) -> None:
    assert contents(sentence) == []


def remember(document: MemoryDocument, text: str) -> MemoryDocument:
    request = ExtractionRequest(document, [HumanMessage(text), AIMessage("Noted.")], "t1")
    return apply_update(document, OfflineExtractor().extract(request), thread_id="t1", now=NOW)


def facts_after(*said: str) -> list[str]:
    """The stored facts once each message was said by the user in turn, from no memory."""
    document = MemoryDocument()
    for text in said:
        document = remember(document, text)
    return [fact.content for fact in document.facts]


def replaced(before: str, later: str, kept: str, gone: str) -> list[str]:
    """The facts after ``before`` then ``later``, checked to hold ``kept`` and no ``gone``."""
    after = facts_after(before, later)
    assert any(kept in fact for fact in after), after
    assert not any(gone in fact for fact in after), after
    return after


def said_in_one_update(*turns: str) -> list[str]:
    """The candidate facts of one update holding ``turns`` in order (:func:`_turns`)."""
    return [c.content for c in OfflineExtractor.candidates(_turns(turns))]


def facts_of_one_update(*turns: str) -> list[str]:
    """The facts one update holding ``turns`` (:func:`_turns`) stores, from no memory: its
    candidates once what they withdraw of each other is gone."""
    request = ExtractionRequest(MemoryDocument(), _turns(turns), "t1")
    return [fact.content for fact in OfflineExtractor().extract(request).new_facts]


def _turns(turns: tuple[str, ...]) -> list[AIMessage | HumanMessage]:
    """The messages of ``turns``: a turn starting with "AI: " is the assistant's, any other
    the user's (followed by "Noted." when no assistant turn follows it)."""
    messages: list[AIMessage | HumanMessage] = []
    for i, turn in enumerate(turns):
        if turn.startswith("AI: "):
            messages.append(AIMessage(turn[4:]))
            continue
        messages.append(HumanMessage(turn))
        if not turns[i + 1 : i + 2] or not turns[i + 1].startswith("AI: "):
            messages.append(AIMessage("Noted."))
    return messages


def kept_after(first: str, later: str) -> bool:
    """Whether the fact ``first`` states is still stored once ``later`` was said."""
    return facts_after(first)[0] in facts_after(first, later)


@pytest.mark.parametrize(
    ("first", "later", "gone"),
    [
        ("I'm pescatarian.", "I'm no longer pescatarian.", "pescatarian"),
        ("I live in Ghent.", "I don't live in Ghent anymore.", "Ghent"),
        ("I work at Initech.", "I no longer work at Initech.", "Initech"),
        ("我是素食主义者。", "我已经不吃素了。", "素"),
        ("我住在厦门。", "我现在不住在厦门了。", "厦门"),
    ],
)
def test_retractions_supersede_the_old_fact_with_a_reason(
    first: str, later: str, gone: str
) -> None:
    document = remember(remember(MemoryDocument(), first), later)
    assert not any(gone in f.content for f in document.facts)
    superseded = [s for s in document.superseded_facts if gone in s.content]
    assert superseded and all(s.reason.startswith("retracted by the user") for s in superseded)


@pytest.mark.parametrize(
    ("first", "later", "now_true"),
    [
        ("I love techno.", "I don't love techno anymore.", "does not love techno"),
        ("我喜欢摇滚乐。", "我不再喜欢摇滚乐了。", "不喜欢摇滚乐"),
    ],
)
def test_a_taste_said_no_longer_replaces_the_old_one(first: str, later: str, now_true: str) -> None:
    document = remember(remember(MemoryDocument(), first), later)
    assert [f.content for f in document.facts] == [
        f.content for f in document.facts if now_true in f.content
    ]
    assert len(document.facts) == 1 and len(document.superseded_facts) == 1


@pytest.mark.parametrize(
    ("sentence", "constraint"),
    [
        ("I'm allergic to sulfites.", True),
        ("I use a walker.", True),
        ("I only eat kosher food.", True),
        ("我有哮喘。", True),
        ("I love cycling.", False),
        ("I live in Quito.", False),
    ],
)
def test_the_offline_extractor_marks_constraints(sentence: str, constraint: bool) -> None:
    document = remember(MemoryDocument(), sentence)
    assert [f.constraint for f in document.facts] == [constraint]
