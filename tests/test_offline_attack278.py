"""Attacker 278 against the needs said short, as a field, with "and I", before an "if" and
told by a doctor (fc55d8c).

Each case failed there: any text after "Allergies:" was stored as an allergy ("my sister
has them", "NKDA", "nope"); a need said without "I'm" about someone else was the user's
("My wife is vegan, allergic to nuts", "Diabetic, my dad."); "Allergic to commitment" and
"…to nothing" were needs; "My son and I are allergic to each other" was a need; a joke
before an "if" stayed ("…, haha no, if…", "lol"); a doubt anywhere in a long message
dropped what a doctor said; "Me neither" after "never eats breakfast" made a need; and the
dangling "and" before an "if" was cut in quadratic time. Sentences are this project's own.
"""

from __future__ import annotations

import pytest

from deerflow_memory.update.offline.text import candidates_from_text
from tests.test_quality_kinds import facts_after


@pytest.mark.parametrize(
    "said",
    [
        "Allergies: my sister has them",
        "Allergies: NKDA",
        "Allergies: nope",
        "Allergies: not that I know of",
        "Allergies: acting up again today",
        "Intolerances: people who chew loudly",
        "Diet: starts Monday",
        "Diet: whatever you suggest",
        "Allergies: sesame Dislikes: olives",
        "My wife is vegan, allergic to nuts.",
        "My son, allergic to peanuts, is coming tonight.",
        "For my daughter: allergic to eggs, lactose intolerant.",
        "Diabetic, my dad.",
        "Allergic to peanuts — not me, my son.",
        "Allergic to cats, says my sister.",
        "Allergic to commitment.",
        "Allergic to nothing.",
        "I'm allergic to nothing.",
        "My son and I are allergic to each other.",
        "My dad and I are both engineers.",
        "I'm allergic to peanuts, haha no, if you wondered.",
        "I'm allergic to peanuts, sarcasm, if you couldn't tell.",
        "My husband never eats breakfast. Me neither.",
        "My doctor says I'm allergic to sesame, I disagree.",
    ],
)
def test_nothing_is_stored(said: str) -> None:
    assert facts_after(said) == []


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        ("Allergies: walnuts, sesame.", ["User is allergic to walnuts, sesame"]),
        ("Diet: vegan", ["User is vegan"]),
        ("Allergic to sulfa drugs.", ["User is allergic to sulfa drugs"]),
        ("I avoid anything I'm intolerant to.", ["User avoids anything they're intolerant to"]),
        (
            "My son and I are both allergic to cashews.",
            ["User is allergic to cashews (with their son)"],
        ),
        # a doubt three sentences on leaves what a doctor said
        (
            "My doctor says I'm allergic to sesame. I love her. She's kind. It was wrong.",
            ["User is allergic to sesame"],
        ),
        (
            "The blood work showed I'm allergic to dogs. Negative for cats though.",
            ["User is allergic to dogs"],
        ),
    ],
)
def test_what_is_stored(said: str, stored: list[str]) -> None:
    assert [f for f in facts_after(said) if not f.startswith("User loves")] == stored


@pytest.mark.timeout(60)
@pytest.mark.parametrize(("run", "needs"), [(", ", ["User is allergic to peanuts"]), (" -", [])])
def test_a_long_run_of_separators_before_an_if_is_read_in_linear_time(
    run: str, needs: list[str]
) -> None:
    # 20k of them took 9 s at fc55d8c (quadratic): 200k would take about 15 minutes
    said = "I'm allergic to peanuts" + run * 200_000 + "x, if you must know."
    assert [c.content for c in candidates_from_text(said) if c.constraint] == needs


@pytest.mark.timeout(60)
@pytest.mark.parametrize("run", ["\n", "\r\n", " \n", "\n\n> "])
def test_a_long_run_of_line_breaks_is_read_in_linear_time(run: str) -> None:
    # (older than fc55d8c) a quote line's and a scene's "\s*" were searched from each line
    # start of the run: 10k line breaks took 2.6 s, 400k would take over an hour
    said = "I am vegan" + run * 200_000 + "x"
    assert candidates_from_text(said)[0].content == "User is vegan"
