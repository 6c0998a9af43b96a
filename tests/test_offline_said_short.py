"""A need said without "I'm" ("Allergic to walnuts."), as a field ("Allergies: walnuts") or of
"both" things is stored.

Before: "Allergic to walnuts.", "Severely allergic to wasps", "Lactose intolerant.",
"Celiac." and "Translator at a pharma firm, allergic to sulfa drugs" stored nothing, though
"Vegan here." and "Can't eat shellfish." were read; "I'm allergic to both walnuts and
pecans" stored nothing either ("both" was taken for an object of its own, as in "I like
both"); nor did a need said as a form's field ("Allergies: walnuts, sesame"). Sentences
are this project's own.
"""

from __future__ import annotations

import pytest

from tests.test_quality_kinds import facts_after


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        ("Allergic to walnuts.", ["User is allergic to walnuts"]),
        ("Severely allergic to wasps.", ["User is severely allergic to wasps"]),
        ("Lactose intolerant.", ["User is lactose intolerant"]),
        ("Gluten intolerant, fyi.", ["User is gluten intolerant"]),
        ("Celiac.", ["User is celiac"]),
        ("Also allergic to sesame.", ["User is allergic to sesame"]),
        (
            "Translator at a pharma firm, allergic to sulfa drugs",
            ["User is allergic to sulfa drugs"],
        ),
        (
            "Allergic to walnuts and pecans, any snack ideas?",
            ["User is allergic to walnuts and pecans"],
        ),
        (
            "I'm allergic to both walnuts and pecans.",
            ["User is allergic to both walnuts and pecans"],
        ),
        ("I can't eat either rye or barley.", ["User cannot eat either rye or barley"]),
        # a diet word or an allergy said alone (newcomer 279)
        ("Vegan.", ["User is vegan"]),
        ("Strictly vegetarian.", ["User is strictly vegetarian"]),
        ("Gluten-free.", ["User is gluten-free"]),
        ("Sesame allergy.", ["User has a sesame allergy"]),
        ("Severe walnut allergy.", ["User has a severe walnut allergy"]),
        ("Seasonal allergies.", ["User has seasonal allergies"]),
        # what a need keeps the user from, said after it (newcomer 279)
        ("I'm pregnant, so no raw fish.", ["User is pregnant", "User avoids raw fish"]),
        ("Pregnant, so no raw oysters.", ["User is pregnant", "User avoids raw oysters"]),
        ("I'm diabetic, so no sugar please.", ["User is diabetic", "User avoids sugar"]),
        ("I work from home, no commute.", ["User works from home, no commute"]),  # no need
        ("I'm vegan, no big deal.", ["User is vegan"]),
    ],
)
def test_a_need_said_short_is_stored(said: str, stored: list[str]) -> None:
    assert facts_after(said) == stored


@pytest.mark.parametrize(
    "said",
    [
        "Diabetic friendly recipes?",
        "Allergic reactions can be scary.",
        "Vegetarian restaurants near the station?",
        "I like both.",
        "I'm allergic to both.",
        "I can't eat either.",
        "I like neither rye nor barley.",
        "A real allergy.",
        "Sesame allergy is common.",
        "Vegan bakeries near the station?",
    ],
)
def test_no_need_or_no_thing_is_stored(said: str) -> None:
    assert facts_after(said) == []


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        ("Allergies: walnuts, sesame.", ["User is allergic to walnuts, sesame"]),
        ("Allergy: amoxicillin", ["User is allergic to amoxicillin"]),
        ("Food allergies - walnuts", ["User is allergic to walnuts"]),
        ("Intolerances: lactose.", ["User is intolerant to lactose"]),
        ("Name: Ines. Allergies: sesame.", ["User is allergic to sesame"]),
        ("Dietary restrictions: vegan, no soy.", ["User is vegan", "User avoids soy"]),
        ("Diet: pescatarian", ["User is pescatarian"]),
    ],
)
def test_a_need_said_as_a_forms_field_is_stored(said: str, stored: list[str]) -> None:
    assert facts_after(said) == stored


@pytest.mark.parametrize(
    "said", ["Allergies: none", "Allergies: N/A", "Allergies: not sure", "Allergies - -"]
)
def test_an_empty_field_is_no_need(said: str) -> None:
    assert facts_after(said) == []
