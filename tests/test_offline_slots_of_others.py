"""A single-valued slot of a stored fact is the user's only when the fact says it of the user.

"User has a son named Leo" filled the user's name slot ("named Leo"), so "My name is Bo"
withdrew the son, "Call me Bo" the girlfriend named Anna, "I'm called Bo" the dog named Max.
A fact written by the memory model of someone else ("User's mother lives in Ohio", "User has a
son who works at Google", "用户的妈妈住在上海", "用户有个女儿在北京工作") filled the user's
location or employer slot, so telling where the user lives or works withdrew it. Sentences are
this project's own.
"""

from __future__ import annotations

import pytest

from deerflow_memory.models import Fact, MemoryDocument, SourceType
from deerflow_memory.update.offline.rules import slot_of
from tests.test_quality_kinds import facts_after, remember


@pytest.mark.parametrize(
    ("before", "later", "kept"),
    [
        ("I have a son named Leo.", "My name is Bo.", "User has a son named Leo"),
        ("I have a girlfriend named Anna.", "Call me Bo.", "User has a girlfriend named Anna"),
        ("I have a dog named Max.", "I'm called Bo.", "User has a dog named Max"),
        ("I have a daughter named Mia.", "My first name is Bo.", "User has a daughter named Mia"),
    ],
)
def test_a_name_the_user_gives_is_not_the_users_name(before: str, later: str, kept: str) -> None:
    assert kept in facts_after(before, later)


def _stored(content: str) -> MemoryDocument:
    fact = Fact(
        id="fact_00000001",
        content=content,
        confidence=0.9,
        source_type=SourceType("inferred"),
        created_at="2026-01-01T00:00:00Z",
    )
    return MemoryDocument(facts=(fact,))


@pytest.mark.parametrize(
    ("stored", "said"),
    [
        ("User's mother lives in Ohio", "I live in Leeds."),
        ("User's sister is married", "I'm single."),
        ("User has a son who works at Google", "I work at a bakery."),
        ("User has a brother that lives in Berlin", "I moved to Lisbon."),
        ("User's girlfriend is named Anna", "My name is Bo."),
        ("用户的妈妈住在上海", "我住在北京。"),
        ("用户有个女儿在北京工作", "我在腾讯工作。"),
        ("用户女朋友名叫小美", "我叫小王。"),
    ],
)
def test_someone_elses_fact_stays_when_the_user_says_their_own(stored: str, said: str) -> None:
    after = [fact.content for fact in remember(_stored(stored), said).facts]
    assert stored in after and len(after) == 2, after


@pytest.mark.parametrize(
    ("content", "slot"),
    [
        ("User's name is Bo", "name"),
        ("The user's full name is Bo Li", "name"),
        ("User is called Bo", "name"),
        ("User prefers to be called Bo", "name"),
        ("用户叫小王", "name"),
        ("用户的名字是小王", "name"),
        ("User lives in Leeds", "location"),
        ("User works at a bank and lives in Leeds", "location"),
        ("User is a nurse who works at St Mary's", "employer"),
        ("用户住在上海", "location"),
        ("User is married to Sara", "marital"),
    ],
)
def test_the_users_own_slots_are_still_read(content: str, slot: str) -> None:
    assert (slot_of(content) or ("", ""))[0] == slot
