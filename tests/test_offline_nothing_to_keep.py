"""Sentences shaped like a fact about the user that give nothing to keep.

- Sarcasm: "Oh great, I just love waiting in line for hours" was stored as
  "User just loves waiting in line for hours"; "…, said no one ever" and
  "…才怪" did not take back what they followed.
- A place only pointed at: "I live there now" was stored as "User lives there
  now", a fact that names no place once the message before it is gone.

The same shapes with something to keep are still stored.
"""

from __future__ import annotations

import pytest

from deerflow_memory.update.offline.text import candidates_from_text


def _contents(text: str) -> list[str]:
    return [c.content for c in candidates_from_text(text) if c.content]


@pytest.mark.parametrize(
    "said",
    [
        "Oh joy, I just adore sitting in traffic.",
        "I really enjoy waiting in queues at the post office lol",
        "Wonderful, I just love deadlines.",
        "I simply love paperwork.",
        "I love hangovers, said no one ever",
        "Yeah, I totally enjoy being stuck in traffic all day.",
        "I love filling in forms. Said nobody ever.",
        "我最喜欢周末加班了才怪",
        "我爱排队才怪呢",
    ],
)
def test_sarcasm_is_no_taste(said: str) -> None:
    assert _contents(said) == []


@pytest.mark.parametrize(
    ("said", "taste"),
    [
        ("I love waiting for the first snow.", "User loves waiting for the first snow"),
        ("I enjoy long train rides.", "User enjoys long train rides"),
        ("I adore my allotment.", "User adores their allotment"),
        ("我喜欢周末去爬山", "用户喜欢周末去爬山"),
    ],
)
def test_a_taste_near_a_nuisance_is_still_kept(said: str, taste: str) -> None:
    assert taste in _contents(said)


@pytest.mark.parametrize(
    "said",
    [
        "I live there now.",
        "I've worked here for six years.",
        "I still live nearby",
        "I studied there for a while.",
        "I have been living over there since March",
    ],
)
def test_a_place_only_pointed_at_is_no_fact(said: str) -> None:
    assert _contents(said) == []


@pytest.mark.parametrize(
    ("said", "fact"),
    [
        ("I work there as a paramedic.", "User works there as a paramedic"),
        ("I live in Tromsø now.", "User lives in Tromsø now"),
        ("I work from home on Fridays.", "User works from home on Fridays"),
    ],
)
def test_a_place_or_job_said_with_it_is_still_kept(said: str, fact: str) -> None:
    assert fact in _contents(said)


# Attacker 75: the sarcasm marker took back the whole sentence, a literal "said nobody" and a
# name were read as sarcasm, and a sincere or mild liking of a nuisance was dropped.
@pytest.mark.parametrize(
    ("said", "kept"),
    [
        ("I'm a pharmacist, and I adore night shifts, said no one ever.", "User is a pharmacist"),
        ("我对芒果过敏，外卖店会记得才怪", "用户对芒果过敏"),
        ("我养了一只仓鼠，它的名字叫才怪", "用户养了一只仓鼠"),
        (
            "I'm a chef, and when the critic asked who cooked, my boss said nobody.",
            "User is a chef",
        ),
        ("I honestly love deadlines.", "User honestly loves deadlines"),
        ("I appreciate queues.", "User appreciates queues"),
    ],
)
def test_sarcasm_takes_back_only_its_own_clause(said: str, kept: str) -> None:
    assert kept in _contents(said)


@pytest.mark.parametrize("said", ["我喜欢开长会，才怪", "I adore paperwork, said nobody, ever."])
def test_sarcasm_said_after_a_comma_takes_back_the_clause_before(said: str) -> None:
    assert _contents(said) == []


@pytest.mark.parametrize(
    ("said", "fact"),
    [
        ("I work nearby, at the library.", "User works at the library"),
        ("I live here, in Bergen.", "User lives in Bergen"),
    ],
)
def test_a_place_pointed_at_then_named_is_the_named_place(said: str, fact: str) -> None:
    assert _contents(said) == [fact]


# Attacker 76: sarcasm after "and" or said alone took back the user's other facts; a loved
# nuisance with a reason was dropped; a phrase after a pointed place was read as a place.
@pytest.mark.parametrize(
    ("said", "facts"),
    [
        (
            "I'm allergic to kiwi and I adore filing taxes, said no one ever.",
            ["User is allergic to kiwi"],
        ),
        ("I live in Cork and I love traffic jams. Said no one ever.", ["User lives in Cork"]),
        ("我住在苏州，喜欢堵车（反话）。", ["用户住在苏州"]),
        ("我喜欢京剧，这才怪。", []),
        ("I live here, in fact.", []),
        ("I work there, in the evenings.", []),
        ("I live there, near the harbour.", ["User lives near the harbour"]),
    ],
)
def test_sarcasm_and_pointed_places_keep_the_other_facts(said: str, facts: list[str]) -> None:
    assert _contents(said) == facts


def test_a_nuisance_loved_for_a_reason_is_a_taste() -> None:
    assert "User loves deadlines" in _contents("I love deadlines, they keep me sharp.")


def test_a_time_after_a_pointed_place_is_no_place() -> None:
    assert _contents("I worked there, in March.") == []  # attacker 78: "User worked in March"


# Attacker 80: sarcasm crossed "so"/"所以" and took the user's fact before it; a season after
# a pointed place was read as a place.
@pytest.mark.parametrize(
    ("said", "kept"),
    [
        (
            "I'm allergic to kiwi so I love reading every label, said no one ever.",
            "User is allergic to kiwi",
        ),
        ("我对花生过敏所以餐厅会注意才怪", "用户对花生过敏"),
    ],
)
def test_sarcasm_after_so_takes_back_only_its_clause(said: str, kept: str) -> None:
    assert kept in _contents(said)


def test_a_season_after_a_pointed_place_is_no_place() -> None:
    assert _contents("I worked there, in Summer 2019.") == []


# Attacker 81: sarcasm's clause ran past "plus", "who" and "又".
@pytest.mark.parametrize(
    ("said", "kept"),
    [
        (
            "I'm allergic to oats plus I love reading labels, said no one ever.",
            "User is allergic to oats",
        ),
        ("I'm a paramedic who loves night shifts, said no one ever.", "User is a paramedic"),
        ("我对虾过敏又住在海边开心才怪。", "用户对虾过敏"),
    ],
)
def test_sarcasm_ends_at_any_joiner(said: str, kept: str) -> None:
    assert kept in _contents(said)


# Attacker 83: sarcasm's clause ran past "yet", "with", "但".
@pytest.mark.parametrize(
    ("said", "kept"),
    [
        ("I'm coeliac yet I love bakeries, said no one ever.", "User is coeliac"),
        ("我是素食者但爱吃烤肉才怪", "用户是素食者"),
    ],
)
def test_sarcasm_ends_at_yet_and_but(said: str, kept: str) -> None:
    assert kept in _contents(said)


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        ("I'm allergic to soy & I love tofu, said no one ever.", "User is allergic to soy"),
        ("我是素食者然而很爱吃火锅才怪", "用户是素食者"),  # not "…然", cut inside a word
    ],
)
def test_sarcasm_ends_at_an_ampersand_and_whole_joiners(said: str, kept: str) -> None:
    assert _contents(said)[:1] == [kept]


@pytest.mark.parametrize(
    ("said", "facts"),
    [
        ("我不吃辣，天气暖和才怪", ["用户不吃辣"]),  # 和 of 暖和 is no joiner (attacker 85)
        ("I'm allergic to cats as a vet nurse, said no one ever.", ["User is allergic to cats"]),
    ],
)
def test_sarcasm_keeps_words_whole_and_ends_at_as(said: str, facts: list[str]) -> None:
    assert _contents(said) == facts


# Attacker 89: taking back the user's taste before a sarcastic "with" clause took the need,
# job or home it carried too ("I love being allergic to cats with…"), so that change was
# withdrawn; these pin it.
@pytest.mark.parametrize(
    ("said", "kept"),
    [
        ("I love being allergic to hay with three rabbits at home, said no one ever.", "hay"),
        ("I adore my coeliac disease with the office bake-offs, said nobody ever.", "coeliac"),
        ("I love teaching at Hull College with a class of ninety, said no one ever.", "Hull"),
    ],
)
def test_a_taste_before_a_sarcastic_with_clause_keeps_what_it_names(said: str, kept: str) -> None:
    assert any(kept in fact for fact in _contents(said))


# Attacker 87: a bracketed mark taken to end its clause whatever followed it took back the
# fact before it ("…, (sarcasm) yay me"), so that change was withdrawn; these pin it.
@pytest.mark.parametrize(
    ("said", "need"),
    [("我对虾过敏，（反话）真开心", "虾"), ("I'm allergic to shrimp, (sarcasm) yay me", "shrimp")],
)
def test_a_bracketed_mark_before_more_words_takes_back_no_fact_before_it(
    said: str, need: str
) -> None:
    assert any(c.constraint and need in c.content for c in candidates_from_text(said))
