"""A withdrawal said with a hedge ("…, I think", "…, not sure", "…，我觉得") withdraws nothing.

Before: "I'm no longer allergic to sesame, I think." (and "…, I guess", "…, hopefully",
"…, it seems", "…，我觉得", "…，应该吧", "…。不确定。") withdrew the stored need, though "I think
I'm no longer allergic to sesame" kept it; "…anymore, not sure" and "…, I'm pretty sure"
stored "User is not sure" / "User is pretty sure" as facts. The user has not said the need
is over, so it stays (a stored need goes only when the user says so); what is said sure
still withdraws. Sentences are this project's own.
"""

from __future__ import annotations

import pytest

from tests.test_quality_kinds import facts_after


@pytest.mark.parametrize(
    ("first", "later"),
    [
        ("I'm allergic to sesame.", "I'm no longer allergic to sesame, I think."),
        ("I'm allergic to sesame.", "I'm no longer allergic to sesame I guess."),
        ("I'm allergic to sesame.", "I'm not allergic to sesame anymore, I believe."),
        ("I'm allergic to sesame.", "I'm not allergic to sesame anymore, hopefully."),
        ("I'm allergic to sesame.", "I'm not allergic to sesame anymore, it seems."),
        ("I'm allergic to sesame.", "I'm not allergic to sesame anymore, not sure though."),
        ("I'm allergic to sesame.", "My sesame allergy is gone, I think?"),
        ("I'm allergic to sesame.", "I outgrew my sesame allergy, probably."),
        ("I'm allergic to sesame.", "My sesame allergy is gone. I think."),
        ("I'm allergic to sesame.", "My sesame allergy is gone. Not sure though."),
        ("I'm allergic to sesame.", "My sesame allergy is gone. Hmm, maybe."),
        ("I'm allergic to sesame.", "I'm no longer allergic to sesame, I think. I'll ask."),
        ("I'm allergic to sesame.", "I'm no longer allergic to sesame, I suspect."),
        ("I'm allergic to sesame.", "I'm no longer allergic to sesame, I'd say."),
        ("I'm allergic to sesame.", "I'm no longer allergic to sesame, not completely sure."),
        ("I'm allergic to sesame.", "I'm no longer allergic to sesame, I'm not so sure."),
        ("I'm allergic to sesame.", "My sesame allergy is gone, I doubt it."),
        ("I'm allergic to sesame.", "My sesame allergy is gone. Probably not."),
        ("I'm allergic to sesame.", "My sesame allergy is gone. I don't think so."),
        ("I'm vegetarian.", "I'm not vegetarian anymore, I suppose."),
        ("I live in Porto.", "I no longer live in Porto, I think."),
        ("我对芝麻过敏。", "我不再对芝麻过敏了，我觉得。"),
        ("我对芝麻过敏。", "我对芝麻不过敏了，应该吧。"),
        ("我对芝麻过敏。", "我的芝麻过敏好了，可能吧。"),
        ("我对芝麻过敏。", "我的芝麻过敏好了，我猜。"),
        ("我对芝麻过敏。", "我的芝麻过敏好了。不确定。"),
        ("我对芝麻过敏。", "我的芝麻过敏好了。好像吧。"),
        ("我对芝麻过敏。", "我的芝麻过敏好了，我觉得吧。"),
        ("我对芝麻过敏。", "我的芝麻过敏好了，我想是的。"),
        ("我对芝麻过敏。", "我的芝麻过敏好了，不敢确定。"),
        ("我对芝麻过敏。", "我的芝麻过敏好了，不一定。"),
        ("我对芝麻过敏。", "我的芝麻过敏好了 我觉得。"),
    ],
)
def test_a_hedged_withdrawal_keeps_what_was_stored(first: str, later: str) -> None:
    stored = facts_after(first)
    assert stored
    assert facts_after(first, later) == stored


@pytest.mark.parametrize(
    ("first", "later"),
    [
        ("I'm allergic to sesame.", "I'm no longer allergic to sesame."),
        ("I'm allergic to sesame.", "I'm not allergic to sesame anymore, I'm sure."),
        ("I'm allergic to sesame.", "I'm not allergic to sesame anymore, I'm pretty sure."),
        ("I'm allergic to sesame.", "My sesame allergy is gone. I'll ask about nuts."),
        ("我对芝麻过敏。", "我的芝麻过敏好了。"),
    ],
)
def test_a_withdrawal_said_without_a_hedge_still_withdraws(first: str, later: str) -> None:
    assert facts_after(first)
    assert facts_after(first, later) == []


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        ("I'm allergic to sesame, I think.", ["User is allergic to sesame"]),
        ("I'm allergic to sesame, I'm pretty sure.", ["User is allergic to sesame"]),
        ("I'm allergic to sesame, not sure.", ["User is allergic to sesame"]),
        ("I'm vegan, I'm 100% sure of it.", ["User is vegan"]),
        ("I live in Porto, probably.", ["User lives in Porto"]),
        ("我对芝麻过敏，我觉得。", ["用户对芝麻过敏"]),
    ],
)
def test_a_statement_with_a_hedge_or_a_sure_stays_and_the_remark_is_no_fact(
    said: str, stored: list[str]
) -> None:
    assert facts_after(said) == stored


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        # a "?" after the hedge asks of the hedge, not of the statement (attacker 276)
        ("I'm allergic to eggs, I think?", ["User is allergic to eggs"]),
        ("I'm vegan, I guess? Anyway, what's for dinner?", ["User is vegan"]),
        ("我吃素，可能吧？", ["用户吃素"]),
        # a hedged statement that would withdraw something stays a statement
        ("I used to be vegan, I think.", ["User used to be vegan"]),
        ("我辞职了，我猜。", ["用户辞职了"]),
        # such words are part of the fact when no comma sets them off
        ("I don't eat foods I don't know.", ["User does not eat foods they don't know"]),
        ("I love the song Hopefully.", ["User loves the song Hopefully"]),
        # "positive" may be the fact: no remark of being sure
        ("My blood type is O, I'm positive.", ["User's blood type is O"]),
    ],
)
def test_what_a_hedge_leaves_of_the_statement(said: str, stored: list[str]) -> None:
    assert facts_after(said) == stored


def test_a_hedged_statement_withdraws_nothing_it_would_replace() -> None:
    assert facts_after("I work at Globex.", "I quit my job, I guess.") == [
        "User works at Globex",
        "User quit their job",
    ]
    assert facts_after("I work at Globex.", "I quit my job.") == ["User quit their job"]


def test_a_need_said_after_another_is_kept_when_the_second_is_hedged_with_a_question() -> None:
    assert facts_after("I'm allergic to sesame.", "I'm also allergic to eggs, I think?") == [
        "User is allergic to sesame",
        "User is also allergic to eggs",
    ]
