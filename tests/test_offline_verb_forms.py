"""Verb forms in stored facts: irregular past tenses kept as said ("User overcame", not
"overcames"), a second verb in the third person, a change of life said with "just" kept."""

from __future__ import annotations

import pytest

from deerflow_memory.update.offline.text import candidates_from_text


def _contents(text: str) -> list[str]:
    return [c.content for c in candidates_from_text(text) if c.content]


@pytest.mark.parametrize(
    ("said", "fact"),
    [
        ("I overcame my fear of heights.", "User overcame their fear of heights"),
        ("I built a treehouse for my nephews.", "User built a treehouse for their nephews"),
        ("I spent three winters in Tromso.", "User spent three winters in Tromso"),
        ("I rode a motorbike across Vietnam.", "User rode a motorbike across Vietnam"),
        ("I fell off a ladder and hurt my wrist.", "User fell off a ladder and hurt their wrist"),
        ("I chose a flat near the river.", "User chose a flat near the river"),
        ("I swore off energy drinks in March.", "User swore off energy drinks in March"),
    ],
)
def test_an_irregular_past_tense_is_not_given_a_present_ending(said: str, fact: str) -> None:
    assert _contents(said) == [fact]


@pytest.mark.parametrize(
    ("said", "fact"),
    [
        ("I read Moby-Dick in 2018.", "User read Moby-Dick in 2018"),
        ("I hurt my ankle skiing last winter.", "User hurt their ankle skiing last winter"),
        ("I cut out caffeine two years ago.", "User cut out caffeine two years ago"),
        ("I set up a bakery back in 2015.", "User set up a bakery back in 2015"),
        ("I put on weight when I was at uni.", "User put on weight when they were at uni"),
        ("I split from my band as a teenager.", "User split from their band as a teenager"),
        # (helper 364) other times gone by, and "a while" that is no second clause
        ("I read Ulysses a while ago.", "User read Ulysses a while ago"),
        ("I cut my hair short a few years back.", "User cut their hair short a few years back"),
        ("I hurt my shoulder in my twenties.", "User hurt their shoulder in their twenties"),
        ("I read Beloved last October.", "User read Beloved last October"),
        ("I set a personal best in the 90s.", "User set a personal best in the 90s"),
        ("I cut ties with my old band recently.", "User cut ties with their old band recently"),
        # a stage of life gone by
        ("I read Middlemarch in college.", "User read Middlemarch in college"),
        ("I set up a chess club in high school.", "User set up a chess club in high school"),
        ("I put on ten pounds during lockdown.", "User put on ten pounds during lockdown"),
        ("I hurt my wrist in childhood.", "User hurt their wrist in childhood"),
        ("I read Ulysses as an undergrad.", "User read Ulysses as an undergrad"),
        (
            "I hurt my back when I worked in a warehouse.",
            "User hurt their back when they worked in a warehouse",
        ),
    ],
)
def test_a_verb_whose_past_is_its_present_said_with_a_past_time_is_the_past(
    said: str, fact: str
) -> None:
    assert _contents(said) == [fact]


@pytest.mark.parametrize(
    ("said", "fact"),
    [
        ("I read two novels a month.", "User reads two novels a month"),
        ("I cut my own hair.", "User cuts their own hair"),
        # (helper 364) a habit kept since a time gone by is the present
        (
            "I hit the pool every day since last spring.",
            "User hits the pool every day since last spring",
        ),
        # (the past time of a second clause is not the first verb's)
        (
            "I read every night and last year finished 40 books.",
            "User reads every night and last year finished 40 books",
        ),
        ("I sing in a gospel choir.", "User sings in a gospel choir"),
        ("I fix old radios as a hobby.", "User fixes old radios as a hobby"),
    ],
)
def test_a_present_tense_still_takes_the_third_person(said: str, fact: str) -> None:
    assert _contents(said) == [fact]


@pytest.mark.parametrize(
    ("said", "fact"),
    [
        ("I recently adopted a three-legged cat.", "User recently adopted a three-legged cat"),
        ("I just started a new job at a bike shop.", "User just started a new job at a bike shop"),
        (
            "I recently graduated from nursing school.",
            "User recently graduated from nursing school",
        ),
        ("I finally retired last spring.", "User finally retired last spring"),
    ],
)
def test_a_change_of_life_said_with_just_or_recently_is_kept(said: str, fact: str) -> None:
    assert _contents(said) == [fact]


@pytest.mark.parametrize(
    "said",
    ["I just finished the slides.", "I already tried restarting.", "I just started reading it."],
)
def test_an_errand_just_done_is_still_no_fact(said: str) -> None:
    assert _contents(said) == []


@pytest.mark.parametrize(
    ("said", "fact"),
    [
        ("I'm a baker and work weekends.", "User is a baker and works weekends"),
        ("I teach yoga and run a small studio.", "User teaches yoga and runs a small studio"),
        ("I'm 5'9\" and wear size 8 boots.", "User is 5'9\" and wears size 8 boots"),
        (
            "I sold my van and now cycle everywhere.",
            "User sold their van and now cycles everywhere",
        ),
        # bare verbs stay bare: after "to", a modal or a negation, or a noun after "and"
        ("I love to paint and knit.", "User loves to paint and knit"),
        ("I like rye bread and cheese.", "User likes rye bread and cheese"),
        # two things, not a second verb: after a preposition or a verb of taste
        ("I'm a keen fan of cricket and travel.", "User is a keen fan of cricket and travel"),
        ("I enjoy climbing and travel.", "User enjoys climbing and travel"),
    ],
)
def test_a_second_verb_of_the_user_takes_the_third_person(said: str, fact: str) -> None:
    assert _contents(said) == [fact]


@pytest.mark.parametrize(
    ("said", "fact"),
    [
        # nouns after "and" (attacker 62): no "s"
        ("I pay the mortgage and rent.", "User pays the mortgage and rent"),
        ("I split my time between work and play.", "User splits their time between work and play"),
        ("I juggle work and study.", "User juggles work and study"),
        ("I'm a teacher and coach.", "User is a teacher and coach"),
    ],
)
def test_a_noun_after_and_is_no_second_verb(said: str, fact: str) -> None:
    assert _contents(said) == [fact]


@pytest.mark.parametrize(
    "said",
    [
        "I just moved my car.",  # an errand with a thing of theirs, not a change of life
        "I recently retired my old laptop.",
        "I just enrolled my son in judo.",
    ],
)
def test_a_change_of_life_verb_with_a_thing_of_theirs_is_an_errand(said: str) -> None:
    assert _contents(said) == []
