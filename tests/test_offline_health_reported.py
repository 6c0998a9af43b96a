"""A health fact the user reports, as found out or as a doctor's or a test's finding, is kept.

"The allergist said I'm allergic to birch pollen", "I found out I'm lactose
intolerant" and "医生说我对青霉素过敏" stored nothing, and a doctor's order about
food or drink ("My GP told me to avoid gluten", "医生不让我喝酒") was lost too. These
are the constraints that must reach every later turn.

What a doctor said stays the doctor's ("User's allergist said they're allergic
to…", "用户被医生告知…"), as "my doctor says…" always did: a report can be wrong,
and the user may say so. (What the user "found out" was tried as the user's own
statement; jokes and disputes that no word list can name made it a false
constraint, so it stays as said.) Errands a
doctor gives ("come back next week", "下周复查"), reports the message disputes or limits
in time, and findings that name no health matter stay out.
"""

from __future__ import annotations

import pytest

from deerflow_memory.inject.constraints import is_constraint
from deerflow_memory.models import Fact
from deerflow_memory.update.offline.text import candidates_from_text


def _contents(text: str) -> list[str]:
    return [c.content for c in candidates_from_text(text) if c.content]


@pytest.mark.parametrize(
    ("said", "fact"),
    [
        (
            "The dermatologist said I'm allergic to nickel.",
            "User's dermatologist said they're allergic to nickel",
        ),
        ("My GP says I have asthma.", "User's GP says they have asthma"),
        (
            "My nutritionist told me to cut out refined sugar.",
            "User has been told to cut out refined sugar",
        ),
        ("My doctor wants me to avoid shellfish.", "User has been told to avoid shellfish"),
        ("医生说我对青霉素过敏。", "用户被医生告知对青霉素过敏"),
        ("我的医生说我有哮喘", "用户被医生告知有哮喘"),
        ("医生不让我喝酒。", "用户被医生要求不喝酒"),
        ("营养师不许我吃油炸食品。", "用户被营养师要求不吃油炸食品"),
    ],
)
def test_a_health_fact_found_by_a_doctor_or_a_test_is_the_users(said: str, fact: str) -> None:
    assert fact in _contents(said)
    assert is_constraint(Fact(content=fact))  # shown on every turn, in both modes


@pytest.mark.parametrize(
    "said",
    [
        "My doctor told me to come back next week.",
        "The nurse asked me to fill in a form.",
        "My doctor said I'm fine.",
        "I found out I'm on the night shift next week.",
        "I found out I'm getting a refund.",
        "医生让我下周复查。",
        "医生叫我去缴费。",
    ],
)
def test_an_errand_or_a_passing_finding_is_no_fact(said: str) -> None:
    assert _contents(said) == []


# Attacker 78: a report the message disputes, an order for a while or refused, a shortfall
# and a doctor's errand became lasting facts (some of them constraints); a condition no rule
# names was lost once the report was stripped.
@pytest.mark.parametrize(
    "said",
    [
        "The allergist said I'm allergic to aspirin, but she was mistaken.",
        "医生说我对芒果过敏，其实不是",
        "My doctor told me to avoid coffee until my stomach settles.",
        "医生不让我喝水，因为明天要手术",
        "医生叫我戒酒，我才不听",
        "My doctor says I don't eat enough protein.",
        "My doctor told me to stop by reception.",
        "医生让我吃药",
    ],
)
def test_a_disputed_passing_or_refused_report_is_no_fact(said: str) -> None:
    assert _contents(said) == []


def test_hearsay_stays_hearsay() -> None:
    assert "User was told they have gallstones" in _contents("I was told I have gallstones.")


# Attacker 82: what the user "found out" became the user's own constraint, jokes and disputes
# included ("I found out I'm allergic to my boss"); an order followed by a refusal or a time
# limit became a lasting one; a relative's diagnosis became the user's.
@pytest.mark.parametrize(
    ("said", "not_kept"),
    [
        ("I found out I'm allergic to my landlord.", "allergic to my landlord"),
        ("I found out I'm lactose intolerant. Not really.", "lactose intolerant"),
        ("我发现我对开会过敏", "对开会过敏"),
        ("My dietitian told me to avoid bread for the next ten days.", "told to avoid bread"),
        ("医生让我戒酒，我做不到", "戒酒"),
        ("医生说我女儿对牛奶过敏", "被医生告知女儿"),
    ],
)
def test_a_finding_found_out_an_order_not_kept_or_someone_elses_is_not_made_the_users(
    said: str, not_kept: str
) -> None:
    assert not any(not_kept in c and is_constraint(Fact(content=c)) for c in _contents(said))


# Attacker 80: disputes and time limits the first word list missed, and hearsay that names
# no health matter, became the user's lasting facts.
@pytest.mark.parametrize(
    ("said", "not_kept"),
    [
        ("The allergist said I'm allergic to latex. The retest was negative.", "allergic to latex"),
        ("医生说我对芒果过敏，结果搞错了", "对芒果过敏"),
        ("My doctor told me to avoid alcohol while I'm on antibiotics.", "told to avoid alcohol"),
        ("医生不让我吃东西，因为下午要做胃镜", "不吃东西"),
        ("I was told I'm too old for this job.", "too old for this job"),
    ],
)
def test_a_disputed_or_passing_report_or_hearsay_is_not_the_users_fact(
    said: str, not_kept: str
) -> None:
    assert not any(
        c.startswith(("User is", "User has", "用户")) and not_kept in c for c in _contents(said)
    )
