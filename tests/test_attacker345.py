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

Sentences are this project's own.
"""

from __future__ import annotations

import os
import shutil
import stat
from pathlib import Path

import pytest

from tests.test_cli_errors import assert_one_error_line, run
from tests.test_quality_kinds import facts_of_one_update


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
