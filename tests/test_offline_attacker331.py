"""Attacker 331's findings against the offline extractor at 29a1cc9, with sentences of this
project's own.

- The chat names for people (bf, gf, MIL, Mama, nana, twins, …) were read as people anywhere,
  so a form that held one ("Diet: GF", "2 mil", "the Twins game") lost every field as
  someone else's: they are people only after "my"/"our" (capture.kin.KIN_EN_OWNED).
- A list or a medication said "for now" or "at the moment" was dropped with what is said of
  a moment: a need so for now is a need now.
- "Scratch that, my daughter is." after "My son is allergic to X and I'm allergic to Y" took
  the user's need; with someone else named, which is meant cannot be told: it stays.
- Semicolons joined someone else's items and remarks to the user's need ("I take warfarin;
  dad aspirin", "…peanuts; Sarah shellfish", "…; and tired"): only things a need is of are
  items now, and each run is read once (100 KB of "almonds; " took 22 s, 1.7 s now).
- "Just kidding!" after a withdrawal or a medication stop in the same update withdrew it all
  the same; a stop "for five days", "this week", "for my surgery", "拔牙前停五天" withdrew it.
"""

from __future__ import annotations

import pytest

from tests.test_quality_kinds import facts_after, facts_of_one_update


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        ("Diagnosis: coeliac\nDiet: GF", ["User has coeliac", "User's diet: GF"]),
        ("Conditions: eczema\nMedications: emollient 5 mil", ["User has eczema"]),
        ("Conditions: eczema\nNotes: bf drives me to clinic", ["User has eczema"]),
        (
            "Conditions: type 1 diabetes\nEmergency contact: Mama (Rosa)",
            ["User has type 1 diabetes"],
        ),
        ("Conditions: gout\nNotes: off to the Twins game on Friday", ["User has gout"]),
    ],
)
def test_a_chat_name_for_a_person_on_a_form_keeps_the_users_fields(
    said: str, stored: list[str]
) -> None:
    assert facts_after(said) == stored


@pytest.mark.parametrize(
    "said",
    ["My hubby is allergic to kiwi.", "My MIL is coeliac.", "My bf is allergic to latex."],
)
def test_after_my_a_chat_name_is_still_a_person(said: str) -> None:
    assert facts_after(said) == []


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        ("I take warfarin for now.", ["User takes warfarin for now"]),
        ("I'm on insulin at the moment.", ["User is on insulin at the moment"]),
        (
            "I take candesartan, pravastatin, and warfarin for now.",
            ["User takes candesartan, pravastatin, and warfarin for now"],
        ),
    ],
)
def test_a_need_said_for_now_is_a_need_now(said: str, stored: list[str]) -> None:
    assert facts_after(said) == stored


@pytest.mark.parametrize("said", ["I'm eating vegan today.", "I'm skipping gluten this week."])
def test_a_need_of_a_day_or_a_week_is_still_no_fact(said: str) -> None:
    assert facts_after(said) == []


@pytest.mark.parametrize("mark", ["Scratch that", "Oops", "Correction:"])
def test_a_short_correction_after_someone_elses_need_keeps_the_users(mark: str) -> None:
    stored = facts_of_one_update(
        "My son is allergic to amoxicillin and I'm allergic to latex.",
        f"{mark} my daughter is.",
    )
    assert stored == ["User is allergic to latex"]


@pytest.mark.parametrize(
    "said",
    [
        "I take apixaban; dad aspirin; mum insulin.",
        "I'm allergic to kiwi; Tom shellfish; Ana eggs.",
        "I'm allergic to kiwi; dog: chicken; cat: fish.",
        "I'm allergic to kiwi; used to be shellfish; not anymore.",
        "I'm allergic to kiwi; and tired.",
        "I'm allergic to penicillin; gives me a rash; bad.",
    ],
)
def test_what_is_no_thing_of_a_need_is_no_item_of_the_list(said: str) -> None:
    first = facts_after(said.split(";")[0] + ".")
    assert facts_after(said) == first != []


def test_a_long_run_of_semicolons_keeps_the_need() -> None:
    # (its speed is attacker 331's c8_perf case: 100 KB in 1.7 s, as before the lists)
    assert facts_after("I'm allergic to " + "almonds; " * 4_000) == ["User is allergic to almonds"]


@pytest.mark.parametrize(
    ("first", "gone", "stored"),
    [
        ("I'm pescatarian.", "I'm not pescatarian anymore.", ["User is pescatarian"]),
        ("I live in Truro.", "I don't live in Truro anymore.", ["User lives in Truro"]),
        ("I take apixaban.", "I stopped taking apixaban.", ["User takes apixaban"]),
        ("我在吃华法林。", "我把华法林停了。", ["用户在吃华法林"]),
    ],
)
def test_just_kidding_after_a_withdrawal_keeps_what_it_withdrew(
    first: str, gone: str, stored: list[str]
) -> None:
    kidding = "开玩笑的" if "我" in first else "Just kidding!"
    assert facts_of_one_update(first, "AI: Noted.", gone, "AI: Okay.", kidding) == stored
    assert facts_of_one_update(first, "AI: Noted.", gone, "AI: Okay.", "Thanks.") == []


@pytest.mark.parametrize(
    "later",
    [
        "Just for five days.",
        "Nine days, my GP said.",
        "Only this week.",
        "Over the weekend only.",
        "It's for my colonoscopy on Monday.",
    ],
)
def test_more_words_of_a_while_in_the_next_message_keep_the_medication(later: str) -> None:
    stored = facts_of_one_update("I take apixaban.", "I stopped taking apixaban.", later)
    assert "User takes apixaban" in stored


@pytest.mark.parametrize("later", ["我把华法林停了，拔牙前停五天。", "我把华法林停了，要做胃镜。"])
def test_a_chinese_stop_for_a_procedure_keeps_the_medication(later: str) -> None:
    assert facts_after("我在吃华法林。", later) == ["用户在吃华法林"]


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        (
            "My 👶 and I are both lactose intolerant.",
            ["User is lactose intolerant (with their 👶)"],
        ),
        ("I avoid 🥩 and 🐟.", ["User avoids meat and fish"]),  # (said as their words)
        ("I'm allergic to the 🐝 and the 🐜.", ["User is allergic to the 🐝 and the 🐜"]),
        # a face, a hand or a symbol is no thing
        ("I'm coeliac and 💪", ["User is coeliac"]),
        ("My 🌟 GP says I'm anaemic.", ["User is anaemic"]),
        ("My 👦 and 👧 are allergic to milk.", []),
    ],
)
def test_an_emoji_is_a_thing_only_where_a_thing_is_said(said: str, stored: list[str]) -> None:
    assert facts_after(said) == stored


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        ("My wife's allergic to walnuts and so am I.", ["User is allergic to walnuts"]),
        ("My dad's coeliac, and so am I.", ["User is coeliac"]),
        ("My wife's allergic to walnuts.", []),
        ("My wife's car is blue and so is mine.", []),
    ],
)
def test_so_am_i_after_someone_elses_need_said_with_s(said: str, stored: list[str]) -> None:
    assert facts_after(said) == stored


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        ("在吃华法林，拔牙前停几天，拔牙后再吃。", ["用户在吃华法林"]),
        ("每天打胰岛素，饭后再用。", ["用户每天打胰岛素"]),
    ],
)
def test_when_it_starts_again_is_joined_to_nothing(said: str, stored: list[str]) -> None:
    # (it was joined to the clause before, which then read as "when again" and was dropped)
    assert facts_after(said) == stored


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        ("Morning 🌞 I'm allergic to kiwi.", ["User is allergic to kiwi"]),
        ("Hiya 👋 I take insulin.", ["User takes insulin"]),
        ("Phew 😮‍💨 My allergies: kiwi, sesame", ["User is allergic to kiwi, sesame"]),
    ],
)
def test_an_emoji_before_i_or_my_ends_what_it_follows(said: str, stored: list[str]) -> None:
    # (a greeting and the need were one sentence no rule read)
    assert facts_after(said) == stored


def test_a_semicolon_list_after_a_long_sentence_is_read() -> None:
    # The semicolon run was tried from every place of the long sentence before it (20 KB
    # took 3.7 s, 100 KB minutes: quadratic); it starts at sentences now. Its speed is not
    # asserted here (timings are bench/ figures); what is read is.
    assert facts_after("word " * 4_000 + ". I'm allergic to kiwi; sesame; and mustard.") == [
        "User is allergic to kiwi, sesame, and mustard"
    ]
