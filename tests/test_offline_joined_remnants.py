"""What is left of a joined fact, a laugh after a withdrawal, a withdrawal taken back.

Attacker 337 against e5b2569 and 48223d0:

- A run of "哈" after a withdrawal ("I stopped taking warfarin." then "哈哈…哈，我在北京工作。")
  was read in exponential time by WITHDRAWAL_UNDONE (34 of them: 2.5 s, every 1.6 times as
  long for one more); since 48223d0 also as the first message of the next update.
- The statements left of a joined fact ("User works at a bank and lives in Leeds", then "I
  quit my job": "User lives in Leeds") were read as said anew: they superseded what the
  same update said ("I moved to York. I quit my job." kept Leeds, lost York) and stood
  beside it ("I got married. I moved to York." kept Leeds beside York).
- "I take warfarin and work at a bank.", "I stopped taking warfarin.", "Just kidding!": the
  joined fact put back was dropped as known (its job was stored), and the warfarin lost.

Sentences are this project's own.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from langchain_core.messages import AIMessage, HumanMessage

from deerflow_memory.inject.constraints import is_constraint
from deerflow_memory.models import Fact, MemoryDocument
from deerflow_memory.update.extraction import ExtractionRequest
from deerflow_memory.update.offline.extractor import OfflineExtractor
from tests.test_bad_input_helper360 import finishes
from tests.test_offline_context import _said_in_turns
from tests.test_quality_kinds import facts_after, facts_of_one_update


def test_a_run_of_laughter_after_a_withdrawal_is_read_in_linear_time(tmp_path: Path) -> None:
    laugh = "哈" * 40  # (40: 40 s before; the child process below is given a minute for 400)
    assert facts_of_one_update("I'm not vegan anymore.", f"{laugh}，好吧") == []
    said = ("I take warfarin.", "I stopped taking warfarin.", f"{laugh}，我在北京工作。")
    assert _said_in_turns(tmp_path, *said) == ["用户在北京工作"]
    code = (
        "from tests.test_quality_kinds import facts_of_one_update\n"
        "print(facts_of_one_update(\"I'm not vegan anymore.\", '哈' * 400 + '，好吧'))"
    )
    assert finishes(code) == "[]"


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        # the rest of a joined fact does not outlive what the same update says
        (
            ("I work at a bank and live in Leeds.", "I moved to York. I quit my job."),
            ["User quit their job", "User moved to York"],
        ),
        (
            ("I live in Leeds and take warfarin.", "I moved to York. I stopped taking warfarin."),
            ["User moved to York"],
        ),
        (
            ("I am single and take warfarin.", "I got married. I stopped taking warfarin."),
            ["User got married"],
        ),
        (
            ("I am single and live in Leeds.", "I got married. I moved to York."),
            ["User got married", "User moved to York"],
        ),
        (
            ("I am single and live in Leeds.", "I moved to York. I got married."),
            ["User moved to York", "User got married"],
        ),
        (
            ("I work at a bank and live in Leeds.", "I moved to York. I work at Tesco now."),
            ["User moved to York", "User works at Tesco now"],
        ),
        # …and what is left still stands when nothing else is said of it
        (
            ("I work at a bank and live in Leeds.", "I quit my job."),
            ["User lives in Leeds", "User quit their job"],
        ),
        (
            ("I am single and allergic to penicillin.", "I got married."),
            ["User is allergic to penicillin", "User got married"],
        ),
    ],
)
def test_what_is_left_of_a_joined_fact_gives_way_to_what_is_said(
    said: tuple[str, ...], stored: list[str]
) -> None:
    assert sorted(facts_after(*said)) == sorted(stored)


def test_a_joined_fact_taken_back_comes_back_whole(tmp_path: Path) -> None:
    said = ("I take warfarin and work at a bank.", "I stopped taking warfarin.")
    assert _said_in_turns(tmp_path, *said, is_constraint=is_constraint) == ["User works at a bank"]
    back = _said_in_turns(tmp_path / "b", *said, "Just kidding!", is_constraint=is_constraint)
    assert sorted(back) == ["User takes warfarin", "User works at a bank"]
    said = ("I am vegan and allergic to soy.", "I am not vegan anymore.", "Just kidding!")
    back = _said_in_turns(tmp_path / "c", *said, is_constraint=is_constraint)
    assert sorted(back) == ["User is allergic to soy", "User is vegan"]


def test_what_is_left_of_a_joined_fact_supersedes_no_stored_fact() -> None:
    # a document written before e5b2569 may hold a joined Leeds fact beside a later York
    document = MemoryDocument(
        facts=(
            Fact(content="User works at a bank and lives in Leeds"),
            Fact(content="User lives in York"),
        )
    )
    request = ExtractionRequest(document, [HumanMessage("I quit my job."), AIMessage("Ok.")], "t")
    update = OfflineExtractor().extract(request)
    assert [f.content for f in update.new_facts] == ["User quit their job"]
    gone = {document.facts[0].id}
    assert {r.id for r in update.facts_to_remove} == gone


@pytest.mark.parametrize(
    "later",
    [
        "我把二甲双胍停了，血糖已经恢复。",
        "我不吃阿司匹林了，肝功能还没恢复。",
        "我把阿司匹林停了，慢慢恢复吧。",
    ],
)
def test_a_chinese_stop_said_with_getting_well_withdraws_the_medication(later: str) -> None:
    # "恢复" of the body or a reading is no restart (48223d0 kept the medication)
    drug = "二甲双胍" if "二甲双胍" in later else "阿司匹林"
    assert facts_after(f"我在吃{drug}。", later) == [f for f in facts_after(later) if drug not in f]


@pytest.mark.parametrize(
    "later", ["我把阿司匹林停了，医生说月底恢复。", "我停了阿司匹林，下周恢复服用。"]
)
def test_a_chinese_stop_said_to_resume_at_a_time_keeps_the_medication(later: str) -> None:
    assert "用户在吃阿司匹林" in facts_after("我在吃阿司匹林。", later)


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        # the second verb left as said ("…and inject insulin") is a statement of its own
        (
            ("I live in Leeds and inject insulin daily.", "I moved to York."),
            ["User injects insulin daily", "User moved to York"],
        ),
        (
            ("I live in Leeds and suffer from migraines.", "I moved to York."),
            ["User suffers from migraines", "User moved to York"],
        ),
        (
            ("I work at Acme and rely on insulin.", "I quit my job."),
            ["User relies on insulin", "User quit their job"],
        ),
        (("I work at Acme and play golf.", "I quit golf."), ["User works at Acme"]),
        (
            ("I have a dog and am allergic to peanuts.", "My dog died on Sunday."),
            ["User is allergic to peanuts"],
        ),
    ],
)
def test_a_second_verb_left_as_said_is_a_statement_of_its_own(
    said: tuple[str, ...], stored: list[str]
) -> None:
    assert sorted(facts_after(*said)) == sorted(stored)


@pytest.mark.parametrize(
    ("said", "word"),
    [
        ("Once a month migraines knock me out.", "migraines"),
        ("After spicy food heartburn keeps me awake.", "heartburn"),
        ("During my period chocolate helps me.", "chocolate"),
    ],
)
def test_a_time_before_what_happens_to_the_user_keeps_it(said: str, word: str) -> None:
    # (48223d0 read "once", "after", "during" as a time alone, like "Only until my surgery.")
    assert any(word in fact for fact in facts_after(said))


@pytest.mark.parametrize(
    "first",
    [
        "I have been on holiday for two weeks.",  # a statement of its own
        "Before we continue, can you list my diet rules?",  # a question
    ],
)
def test_a_new_update_opening_with_a_while_word_puts_back_no_stop(
    tmp_path: Path, first: str
) -> None:
    said = ("I take warfarin.", "I stopped taking warfarin.", first)
    stored = _said_in_turns(tmp_path, *said, is_constraint=is_constraint)
    assert not any("warfarin" in fact for fact in stored)
