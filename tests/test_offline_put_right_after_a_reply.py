"""A need put right after a reply that said more than "Noted." but asked nothing.

Before: after "I'm allergic to walnuts." and a reply naming them ("Noted, no walnuts for
you.", "I'll leave walnuts out."), "Pecans, not walnuts." stored nothing of pecans: only a
correction in the user's own words ("Sorry, I meant pecans.") counted once the reply said
more than an acknowledgement, lest a correction answering the assistant's question
("Walnut or pecan cookies?") put a need right. Now a correction that names the need's thing
as the wrong one puts it right after any reply that asks nothing.

The same correction of a thing no table knows ("Apricots, not plums.", "Haddock, not cod.")
stored nothing of it, even after "Noted.": it now counts when the wrong thing it names is the
need's.

Sentences are this project's own.
"""

from __future__ import annotations

import pytest

from tests.test_quality_kinds import facts_of_one_update


@pytest.mark.parametrize(
    ("need", "reply", "correction", "stored"),
    [
        (
            "I'm allergic to walnuts.",
            "AI: Noted, no walnuts for you.",
            "Pecans, not walnuts.",
            ["User is allergic to pecans"],
        ),
        (
            "I'm allergic to cod.",
            "AI: I'll leave cod out of the recipes.",
            "Sorry, haddock, not cod.",
            ["User is allergic to haddock"],
        ),
        (
            "I take warfarin.",
            "AI: Thanks, warfarin is on your list.",
            "Apixaban, not warfarin.",
            ["User takes apixaban"],
        ),
        (
            "我对核桃过敏。",
            "AI: 好的，以后避开核桃。",
            "不是核桃，是碧根果。",
            ["用户对碧根果过敏"],
        ),
    ],
)
def test_a_correction_naming_the_wrong_thing_puts_the_need_right(
    need: str, reply: str, correction: str, stored: list[str]
) -> None:
    assert facts_of_one_update(need, reply, correction) == stored


@pytest.mark.parametrize(
    ("need", "correction", "stored"),
    [
        ("I'm allergic to plums.", "Apricots, not plums.", "User is allergic to apricots"),
        ("I'm allergic to cod.", "Haddock, not cod.", "User is allergic to haddock"),
        ("I don't eat lamb.", "Veal, not lamb.", "User does not eat veal"),
    ],
)
def test_a_thing_no_table_knows_puts_the_need_right_when_the_wrong_one_is_named(
    need: str, correction: str, stored: str
) -> None:
    assert facts_of_one_update(need, correction) == [stored]


@pytest.mark.parametrize(
    "correction", ["Apricots, not cherries.", "Me, not plums.", "Both, not plums."]
)
def test_a_thing_no_table_knows_leaves_the_need_when_it_names_another(correction: str) -> None:
    assert facts_of_one_update("I'm allergic to plums.", correction)[0] == (
        "User is allergic to plums"
    )


@pytest.mark.parametrize(
    ("reply", "correction"),
    [
        # an answer to the assistant's question, not a correction of the need
        ("AI: Walnut or pecan cookies?", "Pecans, not walnuts."),
        # a thing named as wrong that is not the need's
        ("AI: I'll leave walnuts out.", "Pecans, not almonds."),
        # no thing named as wrong, no words of the user's own slip
        ("AI: I'll leave walnuts out.", "Pecans."),
    ],
)
def test_the_need_stays_when_the_correction_is_not_of_it(reply: str, correction: str) -> None:
    assert "User is allergic to walnuts" in facts_of_one_update(
        "I'm allergic to walnuts.", reply, correction
    )
