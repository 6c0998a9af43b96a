"""A long run of adverbs or linking words in a user message is read in linear time.

Many extractor rules read the adverbs before a verb (``ADV_EN``, ``ADV_ZH``)
and then a list of their own that shares words with them ("I'm very
allergic", "I'm strictly vegan"). Both runs were unbounded, so a run of one
of the shared words was split every way: "very" x 20,000 held the update
worker for about five minutes, "strictly" x 11,000 for 49 s, "现在" x 25,000
for 56 s. A run of "就会" ("就" + "会", both linking words of a reaction rule)
could be split 2^n ways: 26 of them took over a minute (attacker 95). Each
call here is given a minute before the test calls it hung (a hang guard, not
a speed figure).
"""

from __future__ import annotations

import pytest

from deerflow_memory.update.offline.text import candidates_from_text
from tests.test_long_punctuation import finishes


@pytest.mark.parametrize(
    "said",
    [
        "I'm " + "very " * 30_000 + "tired",
        "I'm " + "strictly " * 20_000 + "x",
        "I'm " + "so very " * 15_000 + "x",
        "I'm not " + "really " * 25_000 + "x",
        "I've been " + "totally " * 25_000 + "x",
        "我" + "现在" * 40_000 + "好",
        "我" + "也都还" * 25_000 + "x",
        "我吃虾" + "就会" * 40 + "脸红",
        "虾我不能吃，" + "吃就" * 40 + "脸红",
        "我吃虾" + "就会" * 20_000 + "脸红",
    ],
)
def test_the_offline_extractor_reads_a_long_run_of_adverbs(said: str) -> None:
    # (what a short run gives is the business of other tests: here, that it ends)
    assert isinstance(finishes(lambda: candidates_from_text(said)), list)


@pytest.mark.parametrize(
    ("said", "fact"),
    [
        ("I'm also really very allergic to sesame", "User is also really very allergic to sesame"),
        (
            "I'm honestly still really strictly kosher",
            "User is honestly still really strictly kosher",
        ),
        ("我其实也一直都对芒果过敏", "用户对芒果过敏"),
    ],
)
def test_a_few_adverbs_before_the_verb_still_make_the_fact(said: str, fact: str) -> None:
    assert [c.content for c in candidates_from_text(said)] == [fact]
