"""Attacker 345: bad input against the offline extractor's newer readings.

- A message said in capitals only with a time first ("NOW I NEED A WHEELCHAIR.") or a bare
  reaction after a request ("NO NUTS PLEASE, I'M ALLERGIC.") was stored half shouted ("User
  NEEDs A WHEELCHAIR now", "User is ALLERGIC to nuts"): the words the reading puts in were
  lowercase, so the clause was no longer read as shouted.
- A withdrawal taken back with an invisible character in it ("jk\u200b xD", "Just
  kidding\u200b!", a NUL at the end) left the withdrawal standing: the message was matched
  raw, not as it is stored.
- "Just kidding! I still am." left the withdrawal standing: only a comma or a space could
  come before "I still am".
- A user's folder that is a named pipe was called "a file".
- A clause said before "is my favourite …" was stored as the favourite ("I think pizza is my
  favourite food", "Guess what is my favourite colour.", "Not sure which is my favourite
  colour."), putting away the favourite of that kind stored before.
- "我在家里上班快一年了" ("I've worked from home for nearly a year") or "我在国外工作了三年"
  after "我在腾讯工作。" put the employer away: home or abroad names no workplace.
- A short correction in the next message with an invisible character in it ("Y\u200bork,
  not Leeds.", "Pe\u200bcans, not walnuts.", a soft hyphen, a BOM) put nothing right: the
  message was matched raw, not as it is stored.
- "Now I need a wheelchair" and a long run of end marks took time growing with the square of
  the run (the time moved to the end tried the run from each of its marks).
- A request typed straight on into a bare reaction ("No kiwi please I'm allergic", "skip the
  sesame I'm allergic to it", "别放芝麻我过敏", "别加香菜 我很过敏") stored nothing, or
  "用户对很过敏": it is read as with a comma between.

Sentences are this project's own.
"""

from __future__ import annotations

import os
import shutil
import stat
from pathlib import Path

import pytest

from tests.test_cli_errors import assert_one_error_line, run
from tests.test_quality_kinds import facts_after, facts_of_one_update


@pytest.mark.parametrize(
    ("shouted", "said"),
    [
        ("NOW I NEED A WHEELCHAIR.", "Now I need a wheelchair."),
        ("NOW I'M ALLERGIC TO CATS.", "Now I'm allergic to cats."),
        ("NOW I HAVE ASTHMA.", "Now I have asthma."),
        ("NOW I LIVE IN OSLO", "now I live in oslo"),
        ("NO NUTS PLEASE, I'M ALLERGIC.", "No nuts please, I'm allergic."),
        ("NO PRAWNS. I'M ALLERGIC TO THEM.", "No prawns. I'm allergic to them."),
    ],
)
def test_a_shouted_message_is_stored_as_said_in_lowercase(shouted: str, said: str) -> None:
    assert facts_of_one_update(shouted) == facts_of_one_update(said) != []


@pytest.mark.parametrize(
    "taken_back",
    [
        "jk\u200b xD",
        "Just kidding\u200b!",
        "jk lol\x00",
        "\u202bjk lol",
        "Just kidding! I still am.",
        "Kidding!! I still am",
        "jk lol! I still am",
        "开玩笑的！我还是吃素",
    ],
)
def test_a_withdrawal_taken_back_so_stands_undone(taken_back: str) -> None:
    said = ("I'm vegetarian.", "I'm not vegetarian anymore.")
    assert facts_of_one_update(*said, taken_back) == ["User is vegetarian"]


def test_what_takes_nothing_back_still_leaves_it_withdrawn() -> None:
    said = ("I'm vegetarian.", "I'm not vegetarian anymore.")
    assert facts_of_one_update(*said, "Just kidding! I quit.") == []
    assert facts_of_one_update(*said, "lol\u200b") == []


@pytest.mark.parametrize("argv", [("show", "--user", "ann"), ("remember", "--user", "ann", "Tea")])
def test_a_users_folder_that_is_a_pipe_is_named_a_pipe(
    argv: tuple[str, ...], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # (it was called "a file")
    root = tmp_path / "mem"
    assert run(capsys, "--root", str(root), "remember", "--user", "ann", "Sketches")[0] == 0
    folder = root / "users" / "ann"
    shutil.rmtree(folder)
    os.mkfifo(folder)
    status, _, err = run(capsys, "--root", str(root), *argv)
    assert_one_error_line(status, err, f"{folder}: is a named pipe (FIFO), not a folder")
    assert status == 2
    assert stat.S_ISFIFO(os.lstat(folder).st_mode)


@pytest.mark.parametrize(
    "said",
    [
        "Guess what is my favourite colour.",
        "Not sure which is my favourite colour.",
        "Idk what is my favourite colour.",
        "I guess teal is my favourite colour.",
        "Everyone knows teal is my favourite colour.",
        "Teal is my favourite colour and mauve is my second.",
    ],
)
def test_a_clause_before_is_my_favourite_names_no_favourite(said: str) -> None:
    assert facts_of_one_update(said) == []
    assert "User's favourite colour is ochre" in facts_after("My favourite colour is ochre.", said)


def test_a_favourite_said_first_is_still_read() -> None:
    assert facts_of_one_update("Honestly ochre is my favourite colour.") == [
        "User's favourite colour is ochre"
    ]
    assert facts_of_one_update("Kayaking is my favourite hobby.") == [
        "User's favourite hobby is Kayaking"
    ]


@pytest.mark.parametrize("said", ["我在家里上班快一年了", "我在国外工作了三年", "我在家工作两年了"])
def test_home_or_abroad_names_no_workplace(said: str) -> None:
    assert "用户在美团工作" in facts_after("我在美团工作。", said)
    assert facts_after("我在美团工作。", "我在京东工作了三年") == ["用户在京东工作了三年"]


@pytest.mark.parametrize(
    ("said", "correction", "stored"),
    [
        ("I live in Leeds.", "Y\u200bork, not Leeds.", "User lives in York"),
        ("I live in Leeds.", "\ufeffYork, not Leeds.", "User lives in York"),
        ("I live in Leeds.", "York\u202e, not Leeds.", "User lives in York"),
        ("I'm allergic to walnuts.", "Pe\u200bcans, not walnuts.", "User is allergic to pecans"),
        ("I'm allergic to walnuts.", "Sorry, I meant pe\u00adcans.", "User is allergic to pecans"),
    ],
)
def test_a_correction_with_an_invisible_character_puts_it_right(
    said: str, correction: str, stored: str
) -> None:
    assert facts_of_one_update(said, correction) == [stored]


def test_a_time_said_first_with_a_long_run_of_marks_is_read() -> None:
    # (quadratic before: 2.4 s for 20,000 dots; the result was the same)
    said = facts_of_one_update("Now I need a wheelchair" + "!." * 20_000)
    assert len(said) == 1 and said[0].startswith("User needs a wheelchair")
    assert facts_of_one_update("Now I need a wheelchair!!") == ["User needs a wheelchair now"]


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        ("No kiwi please I'm allergic", "User is allergic to kiwi"),
        ("no kiwi pls im allergic lol", "User is allergic to kiwi"),
        ("Skip the sesame I'm allergic to it", "User is allergic to sesame"),
        ("No kiwi please I'M ALLERGIC", "User is allergic to kiwi"),
        ("别放芝麻我过敏", "用户对芝麻过敏"),
        ("别加香菜 我很过敏", "用户对香菜过敏"),
    ],
)
def test_a_request_run_into_a_bare_reaction_is_read(said: str, stored: str) -> None:
    assert facts_of_one_update(said) == [stored]


def test_a_reaction_joined_to_a_request_is_read_as_before() -> None:
    assert facts_of_one_update("No kiwi please because I'm allergic") == [
        "User is allergic to kiwi"
    ]
    assert facts_of_one_update("I'm allergic") == []
