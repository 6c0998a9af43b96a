"""A message typed without stops is read clause by clause.

"i live in leeds i work at a bank" was one location, "leeds i work at a bank", and a
clause about someone else was glued to the user's fact (attacker 68). A new subject
starts a new sentence only in a message with no stop at all, whose first clause is the
user's, and not where the subject belongs to the clause before ("i think i…", "给我…").
"""

from __future__ import annotations

import pytest

from deerflow_memory.update.offline.text import candidates_from_text
from tests.test_quality_kinds import facts_after


def _contents(text: str) -> list[str]:
    return [c.content for c in candidates_from_text(text)]


@pytest.mark.parametrize(
    ("said", "facts"),
    [
        ("i live in derby i teach maths", ["User lives in derby", "User teaches maths"]),
        ("I live in Derby I teach maths", ["User lives in Derby", "User teaches maths"]),
        ("i'm vegetarian i'm allergic to sesame",
         ["User is vegetarian", "User is allergic to sesame"]),
        ("i love jazz i hate techno", ["User loves jazz", "User hates techno"]),
        ("i like green tea my husband prefers coffee", ["User likes green tea"]),
        ("我住在苏州我姐姐住在无锡", ["用户住在苏州"]),
        ("我爱吃甜食我不吃葱", ["用户爱吃甜食", "用户不吃葱"]),
    ],
)  # fmt: skip
def test_clauses_typed_without_stops_are_apart(said: str, facts: list[str]) -> None:
    assert _contents(said) == facts


@pytest.mark.parametrize(
    "said",
    [
        "i know i should drink more water",  # what a verb of knowing says
        "I adore the village i grew up in",  # a relative clause
        "我觉得我对花粉过敏",
        "我妈让我多喝水",  # "我" as an object
    ],
)
def test_a_subject_that_belongs_to_the_clause_before_is_not_cut_off(said: str) -> None:
    # cut off, it would be read alone: "User should drink…", "用户对花粉过敏", "用户多喝水"
    facts = _contents(said)
    assert len(facts) <= 1 and not any(f.startswith(("User should", "User grew")) for f in facts)
    assert not any(f in {"用户对花粉过敏", "用户多喝水"} for f in facts)


def test_a_run_on_does_not_put_a_job_in_the_location_slot() -> None:
    assert facts_after("i live in derby i teach maths", "I live in York now") == [
        "User teaches maths",
        "User lives in York now",
    ]


@pytest.mark.parametrize(
    "said",
    [
        "i doubt i'm allergic to walnuts",  # a doubt, not an allergy
        "my aunt thinks i live in denver",  # someone's belief, not the user's home
        "我梦见我住在大阪",  # a dream
        "我不信我对猫过敏",
    ],
)
def test_a_clause_that_leads_into_the_next_is_not_cut_off(said: str) -> None:
    # cut off, the rest was read as the user's own statement (attacker 69)
    assert _contents(said) == [] or all("我" in f or " i " in f for f in _contents(said))


def test_a_run_on_does_not_lose_an_object_that_is_the_user_themselves() -> None:
    assert _contents("我很想念我外婆") != ["用户很想念"]
    assert _contents("我讨厌我的闹钟") == ["用户讨厌自己的闹钟"]


def test_a_long_run_on_with_no_fact_is_read_once_not_again_for_each_subject(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Each "i …" read the whole message so far again: 20 KB took 10 s (attacker 74). A clause
    # is tried only up to a bound, so the work no longer grows with the square of the length.
    from deerflow_memory.update.offline import text

    tried: list[str] = []
    real = text.match_clause

    def counting(clause: str, zh: bool) -> object:
        tried.append(clause)
        return real(clause, zh)

    monkeypatch.setattr(text, "match_clause", counting)
    read = []
    for times in (1_000, 2_000):  # twice as long: no more read (it grew four times)
        tried.clear()
        text._run_ons_apart("i live in leeds " + "i blorp " * times)
        text._run_ons_apart("我" * (8 * times))
        read.append(sum(map(len, tried)))
    assert read[0] == read[1]
