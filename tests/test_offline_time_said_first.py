"""A time said before "I" ("Now I live in Oslo", "These days I work at a school").

Before: the rules read a statement from its "I", so a sentence opening with a time word
stored nothing: a move or a new job was lost and the old home or job stayed, "Now I'm
allergic to cats" lost a need, and "Now I'm not vegan anymore" left the diet standing.
Now the time is said after the subject, as the rules read it ("I now live…", "I currently
work…"); what only the own-words fallback reads so is a moment, no fact. Also: "User now
eats meat" ends a vegetarian diet (the "now" before the verb was not seen as one). The same
in Chinese ("现在我住在厦门", "现在我对榴莲过敏"; "现在我想吃火锅" is a moment).

Sentences are this project's own.
"""

from __future__ import annotations

import pytest

from tests.test_quality_kinds import facts_after, replaced


@pytest.mark.parametrize(
    ("before", "later", "kept", "gone"),
    [
        ("I live in Derby.", "Now I live in Tromsø.", "Tromsø", "Derby"),
        ("I work at a garage.", "These days I work at a nursery.", "nursery", "garage"),
        ("I live in Perth.", "Currently, I live in Hobart.", "Hobart", "Perth"),
        ("I work as a courier.", "Nowadays I work as a florist.", "florist", "courier"),
        ("I live in Cork.", "At the moment I live in Galway.", "Galway", "Cork"),
        # in Chinese
        ("我住在南京。", "现在我住在厦门。", "厦门", "南京"),
        ("我在京东工作。", "目前我在美团工作。", "美团", "京东"),
        # after a change just said (after "I changed jobs," the new job was lost: only a
        # past tense opened "now I…")
        ("I work at a bakery.", "I changed jobs, now I work at a library.", "library", "bakery"),
        ("I live in Derby.", "I moved, now I live in Tromsø.", "Tromsø", "Derby"),
        # after a span said first, "lately" or "as of today" (d44fd55, 07102fd)
        ("I live in Bath.", "Since June I live in Truro.", "Truro", "Bath"),
        ("I live in Bath.", "As of 2025 I live in Penzance.", "Penzance", "Bath"),
        ("I live in Bath.", "Lately I live in Exeter.", "Exeter", "Bath"),
        ("I work at a pharmacy.", "For a few weeks now I work at a vet.", "vet", "pharmacy"),
        ("I live in Bath.", "As of today I live in Wells.", "Wells", "Bath"),
        ("我住在南京。", "从三月起我住在杭州。", "杭州", "南京"),
        # a marital status said with a time ("Now I'm married", "I'm single again" stored
        # nothing: the marital rule read no time word, so the old status stayed)
        ("I'm engaged.", "Now I'm married.", "married", "engaged"),
        ("I'm married.", "I'm separated now.", "separated", "married"),
        ("I'm divorced.", "Currently I'm engaged to Priya.", "engaged", "divorced"),
        ("I'm married.", "I'm single again.", "single", "married"),
    ],
)
def test_a_new_value_said_after_a_time_replaces_the_old(
    before: str, later: str, kept: str, gone: str
) -> None:
    replaced(before, later, kept, gone)


@pytest.mark.parametrize(
    ("said", "thing"),
    [
        ("Now I am allergic to latex.", "latex"),
        ("These days I'm allergic to plums and apricots.", "plums and apricots"),
        ("Currently I'm on warfarin.", "warfarin"),
    ],
)
def test_a_need_said_after_a_time_is_stored(said: str, thing: str) -> None:
    assert any(thing in fact for fact in facts_after(said))


@pytest.mark.parametrize(
    ("before", "later"),
    [
        ("I'm vegan.", "Now I'm not vegan anymore."),
        ("I'm allergic to oats.", "These days I'm not allergic to oats anymore."),
        ("I'm vegetarian.", "Now I eat chicken."),
        ("I'm vegetarian.", "I now eat fish."),
    ],
)
def test_a_need_ended_after_a_time_is_withdrawn(before: str, later: str) -> None:
    word = before.removeprefix("I'm ").removeprefix("allergic to ").rstrip(".")
    assert any(word in fact for fact in facts_after(before))
    assert not any(
        f"is {word}" in fact or f"to {word}" in fact for fact in facts_after(before, later)
    )


@pytest.mark.parametrize(
    "said",
    ["Now I want noodles.", "Now I have a question.", "Right now I'm in Lisbon.", "Now I get it."],
)
def test_a_moment_after_a_time_is_no_fact(said: str) -> None:
    assert facts_after(said) == []


def test_a_chinese_need_said_after_a_time_is_stored() -> None:
    assert facts_after("现在我对榴莲过敏。") == ["用户对榴莲过敏"]


@pytest.mark.parametrize("said", ["现在我想吃火锅。", "现在我们住在厦门。"])
def test_a_chinese_moment_or_someone_else_after_a_time_is_no_fact(said: str) -> None:
    assert facts_after(said) == []


def test_someone_elses_need_with_an_apostrophe_is_not_the_users() -> None:
    # ("I'm vegan and hubby's allergic to nuts" was stored whole as the user's: attacker 340)
    assert facts_after("I'm pescatarian and hubby's allergic to kiwi.") == ["User is pescatarian"]


# "Recently"/"lately", or a span ("Since last year", "For two years now", "As of March")
# said first stored nothing, and "Now I follow a low-sodium diet" was dropped as a moment:
# only an allergy's words kept a timed statement that the own-words fallback read.
@pytest.mark.parametrize(
    ("said", "thing"),
    [
        ("Recently I have epilepsy.", "epilepsy"),
        ("Lately I have gout.", "gout"),
        ("Recently I've been diagnosed with lupus.", "lupus"),
        ("Since last spring I have tinnitus.", "tinnitus"),
        ("Ever since 2018 I've had psoriasis.", "psoriasis"),
        ("Since March I'm vegetarian.", "vegetarian"),
        ("For a couple of years now I'm kosher.", "kosher"),
        ("As of this month I'm pescatarian.", "pescatarian"),
        ("Now I follow a low-FODMAP diet.", "low-FODMAP diet"),
        ("These days I avoid nightshades.", "nightshades"),
        ("Currently I take levothyroxine.", "levothyroxine"),
        ("Nowadays I wear hearing aids.", "hearing aids"),
        # spans and times that still stored nothing after d44fd55 (attacker 348's list)
        ("For decades I've had psoriasis.", "psoriasis"),
        ("For a long while I've been pescatarian.", "pescatarian"),
        ("Since then I have tinnitus.", "tinnitus"),
        ("Since my stroke I use a walking frame.", "walking frame"),
        ("As of today I'm teetotal.", "teetotal"),
        ("From now on I'm vegetarian.", "vegetarian"),
        ("这两年我一直吃素。", "吃素"),
        ("从小我就对芒果过敏。", "芒果"),
    ],
)
def test_a_need_after_recently_or_a_span_is_stored(said: str, thing: str) -> None:
    assert any(thing in fact for fact in facts_after(said))


def test_a_span_said_first_is_kept_with_the_fact() -> None:
    assert facts_after("Since last winter I have eczema.") == ["User has eczema since last winter"]
    assert facts_after("For three years now I've been learning Welsh.") == [
        "User has been learning Welsh for three years now"
    ]


@pytest.mark.parametrize(
    "said",
    [
        "Recently I watched a silly film.",
        "Lately I have a question about my visa.",
        "Now I have a headache.",
        "Lately I feel sleepy.",
    ],
)
def test_a_moment_after_recently_is_no_fact(said: str) -> None:
    assert facts_after(said) == []


@pytest.mark.parametrize(
    ("said", "fact"),
    [
        # "since" giving a reason is no span ("Since I'm vegan…" was read as before)
        ("Since I'm vegan, no gelatin please.", "User is vegan"),
        ("Since I have asthma, keep me away from smoke.", "User has asthma"),
    ],
)
def test_since_giving_a_reason_is_no_time(said: str, fact: str) -> None:
    assert any(stored.startswith(fact) for stored in facts_after(said))


def test_a_status_and_a_need_said_after_a_time_are_each_a_fact() -> None:
    assert facts_after("Now I'm married and allergic to hamsters.") == [
        "User is now married",
        "User is allergic to hamsters",
    ]


@pytest.mark.parametrize(
    ("before", "later", "gone"),
    [
        # a withdrawal after a span is read with the span left out (the span kept, "User
        # eats meat" stood beside "User no longer eats meat as of 2024", and "Since last
        # month I no longer live in Paris" withdrew nothing: attacker 348)
        ("I eat pork.", "As of 2025 I no longer eat pork.", "User eats pork"),
        ("I live in Nantes.", "Since last month I no longer live in Nantes.", "Nantes"),
        ("I'm keto.", "For a few months now I'm not keto anymore.", "keto"),
    ],
)
def test_a_withdrawal_after_a_span_withdraws(before: str, later: str, gone: str) -> None:
    assert any(gone in fact for fact in facts_after(before))
    assert not any(gone in fact for fact in facts_after(before, later))


@pytest.mark.parametrize(
    ("before", "later", "gone"),
    [
        # a habit said over with its verb and thing ("I stopped smoking cigars" withdrew
        # nothing: the verb stayed in the thing withdrawn, "smoking cigars")
        ("I smoke cigarillos.", "I stopped smoking cigarillos.", "cigarillos"),
        ("I vape menthol pods.", "I quit vaping menthol pods.", "menthol"),
        ("I play squash.", "Since June I've stopped playing squash.", "squash"),
    ],
)
def test_a_habit_stopped_with_its_verb_is_withdrawn(before: str, later: str, gone: str) -> None:
    assert any(gone in fact for fact in facts_after(before))
    assert not any(gone in fact for fact in facts_after(before, later))
