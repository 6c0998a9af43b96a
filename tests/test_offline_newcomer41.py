"""Newcomer 41's sentences: 'I'm not X, <a clause>' is no correction; moves; 'but' in Chinese."""

from __future__ import annotations

import pytest

from deerflow_memory.models import FactCategory, MemoryDocument
from tests.test_offline_extractor import _extract, _fact


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        (
            "I'm not a morning person, I prefer working at night.",
            [
                ("User is not a morning person", FactCategory.PREFERENCE),
                ("User prefers working at night", FactCategory.PREFERENCE),
            ],
        ),
        ("I'm not vegan, my flatmate is.", []),
        (
            "I'm not a big fan of musicals, my daughter loves them though.",
            [("User is not a big fan of musicals", FactCategory.PREFERENCE)],
        ),
        # "I'm not X, I'm Y" is still a correction
        (
            "I'm not from Cardiff, I'm from Swansea.",
            [("User is from Swansea", FactCategory.CORRECTION)],
        ),
        # a clause about someone else after "但" is theirs, and the user's after it is the user's
        ("我不吃香菜，但我老公很喜欢。", [("用户不吃香菜", FactCategory.PREFERENCE)]),
        ("我老公不吃辣，但我特别喜欢吃辣。", [("用户特别喜欢吃辣", FactCategory.PREFERENCE)]),
    ],
)
def test_a_clause_after_not_x_is_read_on_its_own(
    said: str, stored: list[tuple[str, FactCategory]]
) -> None:
    assert [(f.content, f.category) for f in _extract(said).new_facts] == stored


@pytest.mark.parametrize(
    "said", ["I moved from Leeds to Hull last month.", "We just moved to Hull."]
)
def test_a_move_replaces_the_stored_home(said: str) -> None:
    document = MemoryDocument(facts=(_fact("f1", "User lives in Leeds"),))
    update = _extract(said, document=document)
    assert "Hull" in update.new_facts[0].content
    assert [r.id for r in update.facts_to_remove] == ["f1"]


def test_a_corrected_origin_names_the_wrong_one_once() -> None:
    [fact] = _extract("I'm not from Cardiff, I'm from Swansea.").new_facts
    assert fact.source_error is not None and "from from" not in fact.source_error
