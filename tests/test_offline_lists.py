"""What the user writes as a list: bulleted lines, fields answered on the lines under them,
and lines under a heading of someone else's.

Before: a bulleted line stored nothing ("- I live in Lisbon", "* vegan", "• 我对花生过敏": the
bullet stood where the user's "I" or the short need was looked for), so a whole "About me"
list was lost; "Allergies:" with its answers on the lines under it stored nothing; and the
subjectless lines under "My daughter:" were stored as the user's ("allergic to eggs"). Now a
bullet is no word of its item, a field's answer lines are read as the field written on one
line, and the subjectless lines under someone else's heading (to a blank line or a heading of
the user's, "Me:") are theirs. Sentences are this project's own.
"""

from __future__ import annotations

import pytest

from deerflow_memory.update.offline.lists import lists_read
from tests.test_quality_kinds import facts_after


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        ("- I live in Lisbon", ["User lives in Lisbon"]),
        (
            "A few things about me:\n- I live in Lisbon\n- I'm a dentist",
            ["User lives in Lisbon", "User is a dentist"],
        ),
        ("* I'm vegan\n* I have two cats", ["User is vegan", "User has two cats"]),
        (
            "About me:\n• lactose intolerant\n• work at a bakery",
            ["User is lactose intolerant", "User works at a bakery"],
        ),
        ("关于我：\n- 我对芒果过敏\n- 我住在杭州", ["用户对芒果过敏", "用户住在杭州"]),
        # a list of things that are no statement stays none
        ("Shopping list:\n- oat milk\n- rye bread", []),
    ],
)
def test_a_bulleted_line_is_read_as_the_line_it_is(said: str, stored: list[str]) -> None:
    assert facts_after(said) == stored


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        ("Allergies:\n- walnuts\n- sesame", ["User is allergic to walnuts, sesame"]),
        ("Allergies:\nwalnuts", ["User is allergic to walnuts"]),
        ("Dietary restrictions:\n- vegan\n- no soy", ["User is vegan", "User avoids soy"]),
        ("忌口：\n- 羊肉", ["用户忌口：羊肉"]),
        (
            "Allergies:\n- walnuts\n\nI live in Lisbon",
            ["User is allergic to walnuts", "User lives in Lisbon"],
        ),
        ("Allergies:\n- none", []),
    ],
)
def test_a_field_answered_on_the_lines_under_it(said: str, stored: list[str]) -> None:
    assert facts_after(said) == stored


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        ("My daughter:\nallergic to eggs\nvegetarian", []),
        ("For my husband:\n- diabetic\n- no sugar", []),
        ("我女儿：\n对鸡蛋过敏", []),
        ("My daughter:\nAllergies:\n- eggs", []),
        # the user's own line under it, and what follows a blank line or "Me:", are the user's
        ("My daughter:\n- allergic to eggs\nI'm vegan", ["User is vegan"]),
        ("My daughter:\nallergic to eggs\n\nallergic to kiwi", ["User is allergic to kiwi"]),
        ("Grandpa:\n- diabetic\nMe:\n- allergic to kiwi", ["User is allergic to kiwi"]),
        ("我女儿：\n- 对鸡蛋过敏\n我：\n- 对猕猴桃过敏", ["用户对猕猴桃过敏"]),
        # the user is one of a family
        ("My family:\n- vegetarian", ["User is vegetarian"]),
    ],
)
def test_the_lines_under_someone_elses_heading_are_theirs(said: str, stored: list[str]) -> None:
    assert facts_after(said) == stored


# A line broken inside a sentence (text wrapped by a mail client or a narrow box) lost the
# end of the need ("User is allergic to peanuts and", shellfish lost) or all of it; any line
# separator (U+2028, a form feed) is a line break here.
@pytest.mark.parametrize(
    ("said", "stored"),
    [
        (
            "Hello,\n\nI'm allergic to hazelnuts and\nshrimp, and I live in Porto.\n\nBest,\nJo",
            ["User is allergic to hazelnuts and shrimp", "User lives in Porto"],
        ),
        ("I'm allergic to\nhazelnuts", ["User is allergic to hazelnuts"]),
        ("I'm allergic\nto hazelnuts", ["User is allergic to hazelnuts"]),
        ("I'm allergic\u2028to hazelnuts", ["User is allergic to hazelnuts"]),
        ("I'm allergic\r\nto hazelnuts", ["User is allergic to hazelnuts"]),
        ("I am\x0cvegan", ["User is vegan"]),
        ("Allergies:\n- hazelnuts and\n- shrimp", ["User is allergic to hazelnuts, shrimp"]),
        # a line ended by any other word is a sentence of its own
        ("I'm vegan\nI live in Porto", ["User is vegan", "User lives in Porto"]),
    ],
)
def test_a_line_broken_inside_a_sentence_is_one_sentence(said: str, stored: list[str]) -> None:
    assert facts_after(said) == stored


# A product's label pasted in: its "Allergens:" is what the product holds (the user's own
# allergies said beside it, "My allergens:" and a bare field are read as before).
@pytest.mark.parametrize(
    ("said", "stored"),
    [
        ("Can I eat this? Ingredients: oats, honey. Allergens: milk, almonds.", []),
        ("Ingredients: rice, water\nAllergens:\n- soy\n- fish", []),
        (
            "I'm allergic to lupin. Ingredients: wheat, lupin flour. Allergens: lupin, egg.",
            ["User is allergic to lupin"],
        ),
        ("My allergens: lupin, celery", ["User is allergic to lupin, celery"]),
        ("Allergens: lupin, celery", ["User is allergic to lupin, celery"]),
    ],
)
def test_a_pasted_labels_allergens_are_the_products(said: str, stored: list[str]) -> None:
    assert facts_after(said) == stored


# Attacker 284 and newcomer 285: what a heading or a field took that was not theirs.
@pytest.mark.parametrize(
    ("said", "stored"),
    [
        # a field's answers are its items, or one line: the next field is a field of its own
        (
            "Allergies:\n- walnuts\n- sesame\nDiet: vegetarian",
            ["User is allergic to walnuts, sesame", "User is vegetarian"],
        ),
        ("Allergies:\nwalnuts\nDiet: vegan", ["User is allergic to walnuts", "User is vegan"]),
        ("Allergies:\nnone\nDiet: vegan", ["User is vegan"]),
        ("Allergies:\nNone that I know of\nDiet:\nvegetarian", ["User is vegetarian"]),
        ("Allergies:\n- walnuts\nCan you suggest a restaurant?", ["User is allergic to walnuts"]),
        ("Allergies:\nwalnuts\nthanks for asking!", ["User is allergic to walnuts"]),
        ("Allergies:\n1. walnuts\n2. sesame", ["User is allergic to walnuts, sesame"]),
        ("过敏：\n没有\n忌口：羊肉", ["用户忌口：羊肉"]),
        ("过敏：\n无\n忌口：\n不吃香菜", ["用户不吃香菜"]),
        # a bare "Kids:" or "Spouse:" is a field answered by names, not a heading of theirs
        (
            "Kids:\n- Tom, 5\n- Ana, 3\nAllergies: walnuts\nDiet: vegan",
            ["User is allergic to walnuts", "User is vegan"],
        ),
        ("Spouse:\nAna\nSelf:\nallergic to walnuts", ["User is allergic to walnuts"]),
        # the user's own line under someone else's heading stays the user's
        (
            "My son:\nallergic to eggs\nAlso I'm allergic to shellfish.",
            ["User is allergic to shellfish"],
        ),
        ("我儿子：\n对鸡蛋过敏\n本人对花生过敏", ["用户对花生过敏"]),
        (
            "My daughter:\nallergic to eggs\nFor me:\nallergic to walnuts",
            ["User is allergic to walnuts"],
        ),
        # items under a heading that is no statement of the user's are not the user's
        ("Make a poll with these options:\n- vegan\n- vegetarian", []),
        ("Which of these are most common?\n- allergic to nuts\n- coeliac", []),
        ("- My son is allergic to eggs\n- vegetarian", []),
        # a statement cut at its colon ends with its items
        ("I'm allergic to:\n- walnuts\n- sesame", ["User is allergic to walnuts and sesame"]),
        ("我对以下食物过敏：\n- 花生\n- 虾", ["用户对花生、虾过敏"]),
        # a line that starts anew is no line broken inside a sentence
        ("oh my\nI'm allergic to shrimp!", ["User is allergic to shrimp"]),
        (
            "Allergies: walnuts\nto summarize, I'm vegan",
            ["User is allergic to walnuts", "User is vegan"],
        ),
    ],
)
def test_a_list_reads_only_what_it_holds(said: str, stored: list[str]) -> None:
    assert facts_after(said) == stored


@pytest.mark.timeout(60)
@pytest.mark.parametrize("unit", ["which ", "my son ", "choose a ", "for my trip "])
def test_a_long_heading_is_read_in_linear_time(unit: str) -> None:
    # "which … these …" was matched with two ".*" in a row (8,000 "which "
    # took 7.6 s, 40,000 would take minutes); now ~0.2 s
    heading = unit * 40_000 + ":\n- allergic to kiwi"
    assert len(lists_read(heading)) <= len(heading)  # read whole (the timeout is the check)
