"""Examples after a clause stay with it: "I'm allergic to nuts, like almonds" stored
"User likes almonds", "I avoid seafood, like prawns" a taste for prawns, "我对坚果过敏，像
杏仁" "用户像杏仁", and "I drink tea, usually green tea" "User usually greens tea": the
fragment was read with the user's "I"/"我" put before it."""

from __future__ import annotations

import pytest

from deerflow_memory.update.offline.text import candidates_from_text
from tests.test_quality_kinds import facts_after


def _said(text: str) -> list[tuple[str, bool]]:
    return [(c.content, c.constraint) for c in candidates_from_text(text)]


@pytest.mark.parametrize(
    ("sentence", "kept"),
    [
        ("I'm allergic to tree nuts, like pecans and walnuts.", "allergic to tree nuts"),
        ("I can't stand fish, like cod or haddock", "fish"),
        ("I avoid dairy, like milk and butter.", "avoids dairy"),
        ("I collect old things, like maps and coins", "collect"),
        ("I'm intolerant to some fruit, like kiwis", "intolerant"),
    ],
)
def test_like_after_a_comma_gives_examples_not_a_taste(sentence: str, kept: str) -> None:
    said = _said(sentence)
    assert not any(" likes " in content for content, _ in said), said
    # the clause is stored, with its examples
    assert any(kept in content for content, _ in said), said


def test_an_allergy_with_examples_stays_a_need_and_names_them() -> None:
    assert _said("I'm allergic to shellfish, like crab and lobster") == [
        ("User is allergic to shellfish, like crab and lobster", True)
    ]


def test_like_joined_by_a_word_is_still_the_verb() -> None:
    assert facts_after("I avoid fried food, and like steamed fish.") == [
        "User avoids fried food",
        "User likes steamed fish",
    ]
    assert facts_after("I skip breakfast, and like a late lunch") == [
        "User skips breakfast",
        "User likes a late lunch",
    ]


@pytest.mark.parametrize(
    "sentence",
    [
        "我对坚果过敏，像核桃和榛子",
        "我对坚果过敏，例如核桃",
        "我不喝酒，比如啤酒和白酒",
        "我喜欢看书，包括历史和小说",
        "我爱运动，诸如羽毛球",
        "我爱吃水果，譬如芒果",
    ],
)
def test_chinese_examples_are_no_statement_of_their_own(sentence: str) -> None:
    said = _said(sentence)
    assert said, sentence
    for content, _ in said:
        assert not content.startswith(
            ("用户像", "用户例如", "用户比如", "用户包括", "用户诸如", "用户譬如")
        ), said


@pytest.mark.parametrize(
    ("sentence", "first"),
    [
        ("I drink coffee, usually flat whites.", "User drinks coffee"),
        ("I get headaches sometimes, mostly after long flights", "User gets headaches sometimes"),
        ("I listen to podcasts, mainly true crime", "User listens to podcasts"),
        ("I order takeaway a lot, usually Thai food", "User orders takeaway a lot"),
    ],
)
def test_adverbs_before_a_noun_make_no_habit(sentence: str, first: str) -> None:
    said = [content for content, _ in _said(sentence)]
    assert said and said[0].startswith(first), said
    # no "User usually flats whites", "User mostly afters long flights"
    assert len(said) == 1, said


@pytest.mark.parametrize(
    ("sentence", "habit"),
    [
        ("I'm a baker, usually work from four in the morning", "User usually works from four"),
        ("I live in Bergen, mostly cycle to work", "User mostly cycles to work"),
        ("I'm retired, often swim in the sea", "User often swims in the sea"),
        ("I'm a night owl, usually study at midnight", "User usually studies at midnight"),
    ],
)
def test_adverbs_before_a_common_verb_still_tell_a_habit(sentence: str, habit: str) -> None:
    said = [content for content, _ in _said(sentence)]
    assert any(content.startswith(habit) for content in said), said
