"""Bad input on f00fc3a (helper 373): what changed since dc3aba0.

"Tom and I got divorced" is read as "I got divorced from Tom" only when what follows is a when
(shaping._EN_WHEN: "last year", "two years ago", "in 2019"). Each when was a repetition of
overlapping choices ("last \\w+" and "(\\w+ ){1,2}ago" both read "last ago"; "(\\w+ ){1,2}ago"
reads "ago ago" and "ago ago ago"), so a tail of such words that did not end as a when was tried
every way: "My wife and I got divorced" + " ago" * 60 + " x." (269 characters) took 5 s, and
each further "ago ago" about four times longer. A when read is now never read again another way.
Sentences are this project's own.
"""

from __future__ import annotations

import time

import pytest

from deerflow_memory.update.offline.text import candidates_from_text
from tests.test_quality_kinds import facts_after


@pytest.mark.parametrize(
    "said",
    [
        "My wife and I got divorced" + " ago" * 80 + " x.",
        "My wife and I got divorced" + " last ago" * 40 + " x.",
        "Tom and I separated" + " last ago" * 40 + " soon",
        "My husband and I got separated" + " this year ago" * 30 + " again",
    ],
)
def test_a_tail_of_when_words_is_read_at_once(said: str) -> None:
    started = time.perf_counter()
    candidates_from_text(said)
    assert time.perf_counter() - started < 1.0


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        ("My wife and I got divorced last year.", "User got divorced"),
        ("Tom and I got divorced two years ago.", "User got divorced"),
        ("My husband and I separated in 2019.", "separated"),
        ("My wife and I got divorced ten years ago last week.", "User got divorced"),
    ],
)
def test_a_when_after_a_marriage_ended_still_reads(said: str, stored: str) -> None:
    assert any(stored in fact for fact in facts_after(said)), facts_after(said)


# premise.premise_denied (new in this range): a curly apostrophe, as phones type it, read only
# the backtick and the other marks of models.with_plain_apostrophes, not U+2019: "There’s no
# oven" denied nothing "There's no oven" denied. And a thing said in Chinese may be one Latin
# letter, found anywhere in the reply: "我没有a" was a correction of any English reply.
_REPLY = "Bake it in the oven for 20 minutes, then plug in a cable."


@pytest.mark.parametrize(
    "said", ["There\u2019s no oven.", "I don\u2019t have an oven.", "There isn\u2019t a cable."]
)
def test_a_curly_apostrophe_denies_a_premise(said: str) -> None:
    from deerflow_memory.capture.signals import SignalDetector

    assert SignalDetector().classify(said, _REPLY).correction


@pytest.mark.parametrize("said", ["我没有a", "我没有i", "我家没有e", "我没有en"])
def test_a_latin_letter_is_no_thing_of_the_reply(said: str) -> None:
    from deerflow_memory.capture.signals import SignalDetector

    assert not SignalDetector().classify(said, _REPLY).correction


def test_a_latin_name_said_in_chinese_still_denies() -> None:
    from deerflow_memory.capture.signals import SignalDetector

    assert SignalDetector().classify("我家没有oven", _REPLY).correction


# Code cut out of a message is a hole no fact is read across (text._HOLE, new in this range).
# A hole before what the user says of their own lost it: "`rm -rf /` I'm vegan." stored nothing
# (it stored "User is vegan" before the hole).
@pytest.mark.parametrize(
    ("said", "stored"),
    [
        ("`rm -rf /` I'm vegan.", "User is vegan"),
        ("Here is my config: `{a: 1}` I live in Berlin btw", "User lives in Berlin"),
        ("I always run `black .` I live in Oslo", "User lives in Oslo"),
        ("Use `x = 1` I\u2019m vegan", "User is vegan"),
        ("`npm i` 我住在北京", "用户住在北京"),
    ],
)
def test_code_before_the_users_words_keeps_them(said: str, stored: str) -> None:
    assert stored in [c.content for c in candidates_from_text(said)]


def test_code_cut_out_still_holds_no_fact() -> None:
    assert candidates_from_text("I always run `black .` before commits") == []


# A partner parted from by name (retractions._NAME_EN, new in this range) was an ASCII name
# only: "I dumped Zoë" kept "User has a girlfriend named Zoë" and stored "User dumped Zoë".
@pytest.mark.parametrize("name", ["Zoë", "Łucja", "José", "Åsa"])
@pytest.mark.parametrize("parting", ["I dumped {}", "{} and I broke up", "{} dumped me"])
def test_a_partner_named_with_another_alphabet_is_parted_from(name: str, parting: str) -> None:
    after = facts_after(f"I have a girlfriend named {name}.", parting.format(name))
    assert not any("girlfriend" in fact for fact in after), after
