"""A remark about saying something ("sorry", "oops", "sadly", "I'm afraid") is no fact.

Before: "I'm not allergic to kiwi, sorry." stored "User is sorry" as a correction (read as
"I'm not X, [I'm] Y"), "…, oops" stored "User is oops", "…, sadly" "User is sadly";
"I'm allergic to walnuts, sorry" stored the need of "walnuts, sorry"; and a denial with its
apology after it ("Wait, I'm not allergic to kiwi, sorry") withdrew nothing, though with
the apology before it ("Sorry, I'm not allergic to kiwi") it did. Sentences are this
project's own.
"""

from __future__ import annotations

import pytest

from tests.test_quality_kinds import facts_after


@pytest.mark.parametrize(
    "said",
    [
        "I'm not allergic to kiwi, sorry.",
        "I'm not a baker, sorry about that.",
        "I'm not allergic to kiwi, oops.",
        "I'm not a runner, sadly.",
        "I'm not allergic to kiwi, obviously.",
        "I'm not an architect, I'm afraid.",
        "I'm not an architect, I'm sure.",
        "I'm not a baker, sorry to say.",
        "I'm not a baker, my bad.",
        "I'm not a baker, okay?",
        "I'm not a baker, to be honest.",
    ],
)
def test_a_remark_after_a_denial_is_nothing_the_user_is(said: str) -> None:
    stored = " ".join(facts_after(said)).casefold()
    for remark in ("sorry", "oops", "sadly", "obviously", "afraid", "sure", "bad", "okay"):
        assert f"user is {remark}" not in stored
    assert "honest" not in stored


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        # what the user is, said after the denial, is still read
        ("I'm not a baker, I'm a florist.", "User is a florist"),
        ("I'm not a baker, I'm friendly.", "User is friendly"),
    ],
)
def test_what_the_user_is_after_a_denial_is_still_read(said: str, stored: str) -> None:
    assert stored in facts_after(said)


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        ("I'm allergic to walnuts, sorry.", ["User is allergic to walnuts"]),
        ("I'm allergic to walnuts, oops.", ["User is allergic to walnuts"]),
        ("I'm allergic to walnuts, my bad.", ["User is allergic to walnuts"]),
    ],
)
def test_an_apology_is_no_part_of_a_need(said: str, stored: list[str]) -> None:
    assert facts_after(said) == stored


@pytest.mark.parametrize(
    ("first", "later", "left"),
    [
        (
            "I'm allergic to walnuts and kiwi.",
            "Wait, I'm not allergic to kiwi, sorry.",
            ["User is allergic to walnuts"],
        ),
        ("I'm allergic to kiwi.", "I'm not allergic to kiwi, my bad.", []),
        ("I'm allergic to kiwi.", "I'm not allergic to kiwi, whoops.", []),
        ("我对芒果过敏。", "抱歉，我对芒果不过敏。", ["用户对芒果不过敏"]),
        (
            "我对芒果和花生过敏。",
            "我对芒果不过敏，说错了。",
            ["用户对芒果不过敏", "用户对花生过敏"],
        ),
    ],
)
def test_a_denial_with_an_apology_withdraws_the_need(
    first: str, later: str, left: list[str]
) -> None:
    assert facts_after(first, later) == left


@pytest.mark.parametrize(
    ("first", "later"),
    [
        # a bare denial may say what was never stored: the need stays
        ("I'm allergic to kiwi.", "I'm not allergic to kiwi."),
        ("我对芒果过敏。", "我对芒果不过敏。"),
    ],
)
def test_a_bare_denial_still_withdraws_nothing(first: str, later: str) -> None:
    assert facts_after(first)[0] in facts_after(first, later)


def test_an_addition_denied_with_an_apology_is_not_stored() -> None:
    said = "I'm allergic to walnuts. Kiwi too. I'm not allergic to kiwi, sorry."
    assert facts_after(said) == ["User is allergic to walnuts"]


# --- a need said in its other word order, denied with a mark of correction -------------------


@pytest.mark.parametrize(
    ("first", "later", "left"),
    [
        ("I'm gluten intolerant.", "Actually, I'm not gluten intolerant.", []),
        ("I'm lactose intolerant.", "Wait, I'm not lactose intolerant, sorry.", []),
        ("I'm penicillin allergic.", "Actually, I'm not penicillin allergic.", []),
        # a word of degree is no thing: the intolerance stays
        ("I'm lactose intolerant.", "Actually, I'm not that intolerant.", None),
        ("I'm lactose intolerant.", "Actually, I'm not very intolerant.", None),
        # a bare denial withdraws nothing
        ("I'm lactose intolerant.", "I'm not lactose intolerant.", None),
    ],
)
def test_a_marked_denial_of_an_intolerance_withdraws_it(
    first: str, later: str, left: list[str] | None
) -> None:
    assert facts_after(first, later) == (facts_after(first) if left is None else left)


def test_a_denied_intolerance_leaves_an_allergy_to_the_same_thing() -> None:
    said = "I'm allergic to walnuts. Gluten too. Actually, I'm not gluten intolerant."
    assert facts_after(said) == ["User is allergic to walnuts", "User is allergic to gluten"]
    # …which a denial of the allergy itself, later in the message, still takes back
    said += " Wait, I'm not allergic to gluten."
    assert facts_after(said) == ["User is allergic to walnuts"]


# --- a food said to be possible again -----------------------------------------------------------


@pytest.mark.parametrize(
    ("first", "later"),
    [
        ("I'm allergic to cashews.", "I can eat cashews now."),  # an allergy stays
        ("I can't eat pork.", "Can I eat pork now?"),
        ("I can't eat pork.", "My brother can eat pork now."),
        ("I can't eat pork.", "I can eat beef now."),
        # said with a condition or a limit the stored fact would not keep: the need stays
        ("I can't eat gluten.", "After the surgery, I can eat gluten again."),
        ("I can't eat eggs.", "I can eat eggs again, but only baked."),
        ("I can no longer eat nuts.", "Once my treatment ends, I can eat nuts again."),
    ],
)
def test_a_food_said_possible_again_takes_no_need_back(first: str, later: str) -> None:
    assert facts_after(first)[0] in facts_after(first, later)


@pytest.mark.timeout(60)
def test_denials_of_an_intolerance_between_needs_are_read_in_linear_time() -> None:
    said = "I'm allergic to gluten. Actually, I'm not gluten intolerant. " * 12_000
    assert facts_after(said) == ["User is allergic to gluten"]


# --- "not X, just Y": the need of Y's thing ------------------------------------------------------


@pytest.mark.parametrize(
    "said",
    [
        "I'm not allergic to plums, just to cherries.",
        "I'm not allergic to plums, only to cherries.",
        "I'm not allergic to plums but to cherries.",
        "I'm not allergic to plums after all, just to cherries.",
        "Turns out I'm not allergic to plums after all, just to cherries.",
    ],
)
def test_not_one_thing_just_another_is_the_need_of_the_other(said: str) -> None:
    # before: nothing was stored ("just" opened a clause of its own), or "User is only to
    # cherries"
    assert facts_after(said) == ["User is allergic to cherries"]


@pytest.mark.parametrize(
    "said",
    [
        "I'm not allergic to plums, just to be clear.",
        "I'm not allergic to plums, just to my cousin.",
        "I'm not from Oslo, just from Bergen.",  # not a need: left as before
    ],
)
def test_just_to_what_is_no_thing_is_no_need(said: str) -> None:
    assert not any("allergic" in fact for fact in facts_after(said))
    assert "User is just from Bergen" not in facts_after(said)
