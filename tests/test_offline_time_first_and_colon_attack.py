"""Forms next to d44fd55 and 89437ad (attacker 348).

- A time said first kept any statement with a habit verb as lasting ("Now I take a nap",
  "Now I eat dinner", "At the moment I take a break" stored as facts), and a negated one
  beside what it denies ("Now I don't have asthma." stored "User now does not have asthma"
  next to "User has asthma"); "recently" or a span before a withdrawal ("Lately I don't take
  insulin anymore", "Since May I don't take insulin anymore") withdrew nothing.
- A request, a colon, then "I…" after a full stop lost the space: "No nuts: I'm allergic. No
  eggs: I'm allergic to them too." stored "User is allergic to nuts.No eggs"; a run of line
  breaks before a colon was read in quadratic time.
- "…allergic to it and it's expensive" stored the remark with the need.
- "…allergic to them too" stored nothing; a span of weeks kept moments ("For two weeks
  I've had the flu"); "Recently I've been taking metformin" stored nothing; a Chinese request
  or note then "：" ("别放虾：我对海鲜过敏", "注意：我对鸡蛋过敏") lost the need; "Since I
  was a student, I can't afford it" (a reason) was read as a time.
- "I garden, and fish." lost the hobby: a thing-word alone after a clause that names no thing
  is no item of a list.

Sentences are this project's own.
"""

from __future__ import annotations

import pytest

from deerflow_memory.update.offline.text import candidates_from_text
from tests.test_quality_kinds import facts_after


@pytest.mark.parametrize(
    "said",
    [
        "Now I take a nap.",
        "Now I eat dinner.",
        "At the moment I take a break.",
        "Right now I take a shower.",
        "Now I keep going.",
        "Now I wear my blue shirt.",
        "Now I take a look.",
        "Now I stick to the plan.",
    ],
)
def test_a_moment_with_a_habit_verb_after_now_is_no_fact(said: str) -> None:
    assert facts_after(said) == []


@pytest.mark.parametrize(
    ("said", "thing"),
    [
        ("Now I follow a low-FODMAP diet.", "low-FODMAP diet"),
        ("Lately I take insulin.", "insulin"),
        ("Currently I take metformin.", "metformin"),
        ("Nowadays I wear hearing aids.", "hearing aids"),
        ("Now I wear glasses.", "glasses"),
        ("These days I avoid nightshades.", "nightshades"),
        ("Now I use an inhaler.", "inhaler"),
        ("Now I stick to a gluten-free diet.", "gluten-free"),
        ("Recently I was diagnosed with ADHD.", "ADHD"),
        ("Recently I've been taking metformin.", "metformin"),
        ("Lately I've been using a cane.", "cane"),
    ],
)
def test_a_way_of_living_with_a_need_after_a_time_is_kept(said: str, thing: str) -> None:
    assert any(thing in fact for fact in facts_after(said))


@pytest.mark.parametrize(
    ("before", "later", "gone"),
    [
        ("I have gout.", "Now I don't have gout.", "gout"),
        ("I take insulin.", "Lately I don't take insulin anymore.", "insulin"),
        ("I take insulin.", "Since May I don't take insulin anymore.", "insulin"),
        ("I have gout.", "Recently I don't have gout anymore.", "gout"),
        ("I live in Paris.", "As of last month I don't live in Paris anymore.", "Paris"),
    ],
)
def test_a_withdrawal_after_a_time_said_first_withdraws(before: str, later: str, gone: str) -> None:
    assert not any(gone in fact for fact in facts_after(before, later))


def test_a_request_and_colon_after_a_full_stop_keeps_the_space() -> None:
    stored = facts_after("No nuts: I'm allergic. No eggs: I'm allergic to them too.")
    assert not any(".No" in fact for fact in stored)
    assert "User is allergic to nuts" in stored


def test_line_breaks_before_a_colon_are_read_in_linear_time() -> None:
    # (a run of line breaks was tried from each of them: 20,000 took about 27 s)
    candidates_from_text("No nuts" + "\n" * 30_000 + ": I'm allergic.")


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        ("No lobster, I'm allergic to it and it's expensive.", ["User is allergic to lobster"]),
        ("No kiwi please, I'm allergic to it and it's a shame.", ["User is allergic to kiwi"]),
    ],
)
def test_a_remark_after_a_bare_reaction_is_not_the_need(said: str, stored: list[str]) -> None:
    assert facts_after(said) == stored


@pytest.mark.parametrize(
    ("said", "fact"),
    [
        ("I garden, and fish.", "User fishes"),
        ("I knit, and fish.", "User fishes"),
    ],
)
def test_a_verb_alone_after_a_clause_naming_no_thing_is_the_users(said: str, fact: str) -> None:
    assert fact in facts_after(said)


@pytest.mark.parametrize(
    ("said", "need"),
    [
        ("No eggs, I'm allergic to them too.", "User is allergic to eggs"),
        ("Hold the kiwi please, I'm allergic to it as well.", "User is allergic to kiwi"),
        ("No pecans, I'm allergic to them and mango too.", "User is allergic to pecans and mango"),
    ],
)
def test_a_bare_reaction_with_too_is_of_the_thing_left_out(said: str, need: str) -> None:
    assert need in facts_after(said)


@pytest.mark.parametrize(
    "said",
    [
        "Since last week I've been coughing.",
        "For two weeks I've had the flu.",
        "For the past week I've been binge-watching cartoons.",
        "For a couple of weeks I'm at my aunt's.",
    ],
)
def test_a_moment_after_a_span_of_weeks_is_no_fact(said: str) -> None:
    assert facts_after(said) == []


@pytest.mark.parametrize(
    ("said", "thing"),
    [
        ("For a few weeks now I work at a florist.", "florist"),
        ("Since last week I'm vegan.", "vegan"),
        ("For two weeks I've had eczema.", "eczema"),
        ("For three weeks I've been taking metformin.", "metformin"),
    ],
)
def test_a_fact_after_a_span_of_weeks_is_kept(said: str, thing: str) -> None:
    assert any(thing in fact for fact in facts_after(said))


@pytest.mark.parametrize(
    ("said", "fact"),
    [
        ("别放虾：我对海鲜过敏。", "用户对海鲜过敏"),
        ("注意：我对鸡蛋过敏。", "用户对鸡蛋过敏"),
        ("备注：我吃素。", "用户吃素"),
        ("我住在苏州。请不要加香菜：我不吃香菜。", "用户不吃香菜"),
    ],
)
def test_a_chinese_request_or_note_then_a_colon_parts_two_clauses(said: str, fact: str) -> None:
    assert fact in facts_after(said)


@pytest.mark.parametrize("said", ["注意：我女儿对鸡蛋过敏。", "妈妈：我对鸡蛋过敏。"])
def test_a_chinese_colon_before_someone_else_or_a_speaker_stores_nothing(said: str) -> None:
    assert facts_after(said) == []


def test_chinese_line_breaks_before_a_colon_are_read_in_linear_time() -> None:
    candidates_from_text("别放虾" + "\n" * 30_000 + "：我对海鲜过敏。" + "。注意" * 5_000)


@pytest.mark.parametrize(
    "said", ["Since I was a student, I can't afford it.", "Since I was a student I got a discount."]
)
def test_since_i_was_a_student_giving_a_reason_is_no_time(said: str) -> None:
    assert facts_after(said) == []


def test_since_i_was_a_student_before_a_perfect_is_a_time() -> None:
    assert any("vegan" in fact for fact in facts_after("Since I was a student I've been vegan."))
