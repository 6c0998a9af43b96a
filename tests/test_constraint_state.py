"""A need's word said of a need that is over is no constraint; one still going on is.

Sentences here are the tests' own (bench/data/constraints_state.tsv holds
other, held-out ones): each kind in English and Chinese, against needs said
beside the same cue words that still hold.
"""

from __future__ import annotations

import pytest

from deerflow_memory.inject.constraints import is_constraint, looks_like_constraint
from deerflow_memory.models import Fact


def _judged(text: str) -> bool:
    verdict = looks_like_constraint(text)
    assert is_constraint(Fact(content=text)) is verdict
    return verdict


@pytest.mark.parametrize(
    "text",
    [
        "Used to be vegan before moving to Argentina",
        "Was pescatarian through most of her twenties",
        "Is no longer on dialysis since the transplant",
        "Outgrew a milk allergy as a toddler",
        "Came off insulin after losing forty kilos",
        "Stopped taking antidepressants two years ago",
        "Epilepsy was ruled out after the scan",
        "Tested negative for coeliac disease in March",
        "Her migraines went away once she changed jobs",
        "Doesn't need a cane anymore since the knee healed",
        "Was on crutches for the summer, not any more",
        "Had seizures as a teenager but has had none since",
        "小时候有哮喘，后来好了",
        "曾经对青霉素过敏",
        "以前戴过助听器",
        "胃溃疡已经痊愈",
        "抗抑郁药去年就停药了",
        "医生已经排除了癫痫",
        "不再需要用轮椅",
    ],
)
def test_a_need_said_to_be_over_is_no_constraint(text: str) -> None:
    assert not _judged(text)


@pytest.mark.parametrize(
    "text",
    [
        # a refusal is a diet, not the end of one
        "No longer eats beef after a trip to a farm",
        "Stopped drinking alcohol last year",
        "Doesn't eat shellfish anymore",
        # a lost ability is a need
        "Can't tolerate lactose any more",
        "Is no longer able to walk without a cane",
        # a need that goes on or came back
        "Has been diabetic since she was nine",
        "Thought he had outgrown his hay fever allergy, but it came back",
        "Used to manage with tablets, now injects insulin",
        "Was born with spina bifida",
        "Was diagnosed with Crohn's disease last spring",
        "Is recovering from a hip replacement",
        "以前就有高血压，现在还在吃降压药",
        "哮喘好了又复发了",
        "从小对花生过敏",
        # a need beside a past that is not its own
        "Used to live in Lyon and is allergic to cats",
    ],
)
def test_a_need_still_going_on_beside_words_of_the_past_is_a_constraint(text: str) -> None:
    assert _judged(text)


def test_a_need_over_in_one_clause_and_held_in_another_is_a_constraint() -> None:
    assert _judged("Used to be vegetarian; now keeps a strict halal diet")
    assert _judged("以前吃素，现在对海鲜过敏")


def test_a_long_text_of_needs_that_are_over_is_read_in_one_pass() -> None:
    # every need below is over; each clause's cues are found once
    text = "used to be vegan and was on insulin, not any more; " * 3_000
    assert not looks_like_constraint(text)
    assert looks_like_constraint(text + "is allergic to eggs")
