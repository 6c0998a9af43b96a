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
