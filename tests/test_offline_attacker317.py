"""Attacker 317's findings against b4fa127 and e78068b, each with sentences of this project's own.

- "It's my son who's allergic, not me" took whatever the user said last, a diet or a city too:
  said of a reaction alone, it takes the user's last allergy, intolerance or sensitivity only.
- "Oops/Wait/口误" before a remark that names the thing ("Wait, my sister has two cats") took
  the allergy: after the user's own slip, only words that say someone has a need put it right.
- "Actually, my dad was." after "I'm diabetic" (another time) or "my son does" after "I'm…"
  (another verb) was read as a correction.
- Stopping one medication of "takes A and B" withdrew both; "I don't take X anymore" withdrew
  "cannot take X"; "Forget the X thing" no longer withdrew an allergy.
- "…, I'm freelancing for now", "Just for the record, …" or "…, I was one until…" kept what
  was withdrawn; "…anymore. Only until the surgery." in the next sentence did not.
"""

from __future__ import annotations

import pytest

from tests.test_quality_kinds import facts_after


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        (
            "I'm allergic to hazelnuts and I'm pescatarian. It's my nephew who's allergic, not me.",
            ["User is pescatarian"],
        ),
        ("I have gout. It's my nephew who's allergic, not me.", ["User has gout"]),
        ("I don't eat lamb. Sorry, my nephew is allergic.", ["User does not eat lamb"]),
        ("我吃素。对不起，我外甥过敏。", ["用户吃素"]),
        ("我对榛子过敏，也吃素。不对，过敏的是我外甥。", ["用户吃素"]),
    ],
)
def test_allergic_said_of_someone_takes_only_an_allergy(said: str, stored: list[str]) -> None:
    assert facts_after(said) == stored


@pytest.mark.parametrize(
    "said",
    [
        "I'm allergic to hazelnuts. Wait, my nephew just bought hazelnuts for the cake.",
        "I'm allergic to rabbits. Wait, my nephew has two rabbits.",
        "I'm allergic to hazelnuts. Oops, my nephew just dropped the hazelnuts.",
        "我对榛子过敏。口误，我外甥刚买了榛子。",
        "我对榛子过敏。口误，我外甥吃了榛子。",
    ],
)
def test_a_remark_after_a_slip_mark_keeps_the_need(said: str) -> None:
    need = facts_after(said.split(". ")[0].split("。")[0] + ".")
    assert need != []  # (so the test cannot pass by nothing being read)
    assert facts_after(said) == need


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        ("I'm allergic to hazelnuts. Whoops, my nephew is allergic to hazelnuts.", []),
        ("I'm pescatarian. Oops, my nephew is pescatarian.", []),
        ("我有痛风。口误，我外甥有痛风。", []),
    ],
)
def test_a_need_put_right_after_a_slip_mark_goes(said: str, stored: list[str]) -> None:
    assert facts_after(said) == stored


@pytest.mark.parametrize(
    "said",
    [
        "I'm diabetic. Actually, my grandad was.",
        "I have gout. Actually, my grandad did.",
        "I'm allergic to hazelnuts. Actually, my nephew does.",
    ],
)
def test_a_short_verb_of_another_kind_or_time_is_no_correction(said: str) -> None:
    assert facts_after(said) == facts_after(said.split(". ")[0] + ".") != []


@pytest.mark.parametrize(
    ("told", "later", "stored"),
    [
        (
            "I take ramipril and metformin.",
            "I don't take ramipril anymore.",
            ["User takes metformin"],
        ),
        ("I take ramipril and metformin.", "My GP took me off ramipril.", ["User takes metformin"]),
        # kept whole when it cannot be split (a need kept is the safer error)
        ("我在吃阿司匹林和二甲双胍。", "我已经停了阿司匹林。", ["用户在吃阿司匹林和二甲双胍"]),
        ("I can't take ibuprofen.", "I no longer take ibuprofen.", ["User cannot take ibuprofen"]),
        ("I can't take aspirin.", "My GP took me off aspirin.", ["User cannot take aspirin"]),
        ("I'm allergic to hazelnuts.", "Forget the hazelnuts thing.", []),
    ],
)
def test_what_a_medication_stopped_withdraws(told: str, later: str, stored: list[str]) -> None:
    assert facts_after(told, later) == stored


@pytest.mark.parametrize(
    ("told", "later", "gone"),
    [
        (
            "I live in Derby.",
            "I don't live in Derby anymore, I'm renting a room until I find a flat.",
            "User lives in Derby",
        ),
        (
            "I work at Globex.",
            "I no longer work at Globex and I'm consulting for now.",
            "User works at Globex",
        ),
        (
            "I'm pescatarian.",
            "Just for the record, I'm not pescatarian anymore.",
            "User is pescatarian",
        ),
        (
            "I'm pescatarian.",
            "I'm not pescatarian anymore, I was one until I moved.",
            "User is pescatarian",
        ),
    ],
)
def test_a_while_elsewhere_in_the_sentence_withdraws_still(
    told: str, later: str, gone: str
) -> None:
    assert gone in facts_after(told)
    assert gone not in facts_after(told, later)


@pytest.mark.parametrize(
    "later",
    [
        "I don't take warfarin anymore. Only until the operation though.",
        "I no longer take warfarin, at least for the next week.",
        "My cardiologist took me off warfarin while I'm pregnant.",
        "I don't take warfarin anymore, I'll restart after the holiday.",
    ],
)
def test_a_medication_stopped_for_a_while_stays(later: str) -> None:
    assert "User takes warfarin" in facts_after("I take warfarin.", later)
