"""What attacker 347 found the 'no behaviour change' review (7bd2931) changed, pinned."""

from __future__ import annotations

import pytest

from deerflow_memory.update.offline.text import _reaction_of_left_out
from tests.test_quality_kinds import facts_of_one_update


@pytest.mark.parametrize(
    "said",
    [
        "别放花生！I mean 我过敏",
        "不要香菜。I think 我很过敏",
        "别加芝麻! I mean 我会过敏",
        "别放花生；I mean 我过敏，谢谢",
    ],
)
def test_an_english_word_before_a_chinese_bare_reaction_still_reads_it(said: str) -> None:
    # a request, an English word or two, then the bare reaction: the allergy is still stored
    assert any("过敏" in fact and "用户以前" not in fact for fact in facts_of_one_update(said))


@pytest.mark.parametrize(
    ("said", "read"),
    [
        ("别放花生 我过敏", "别放花生, 我对花生过敏"),
        ("别放花生, pls 我过敏", "别放花生, pls, 我对花生过敏"),
        ("别放花生！谢谢 我过敏", "别放花生！谢谢, 我对花生过敏"),
        ("别放芝麻我过敏", "别放芝麻，我对芝麻过敏"),
        ("No nuts please I'm allergic", "No nuts please, I'm allergic to nuts"),
    ],
)
def test_a_run_on_request_reads_as_before_the_review(said: str, read: str) -> None:
    assert _reaction_of_left_out(said) == read


def test_a_run_of_mines_swaps_each() -> None:
    from deerflow_memory.update.offline.rules import swap_pronouns

    # (each "mine" looked at all the text before it: 2.0 s at 4,000 and 8 s at 8,000 before;
    # no timed assertion here, the project's benches measure time)
    said = "word " * 8000 + "mine " * 8000
    assert swap_pronouns(said) == "word " * 8000 + "theirs " * 8000


@pytest.mark.parametrize(
    ("said", "swapped"),
    [
        ("works in a mine", "works in a mine"),
        ("works in an open-pit mine", "works in an open-pit mine"),
        ("visited the diamond mine", "visited the diamond mine"),
        ("the car is mine", "the car is theirs"),
        ("a friend of mine", "a friend of theirs"),
        ("xa mine", "xa theirs"),
        ("it's a gold mine of mine", "it's a gold mine of theirs"),
    ],
)
def test_a_mine_after_an_article_or_a_metal_still_stays(said: str, swapped: str) -> None:
    from deerflow_memory.update.offline.rules import swap_pronouns

    assert swap_pronouns(said) == swapped
