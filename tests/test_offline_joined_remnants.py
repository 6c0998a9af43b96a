"""What is left of a joined fact, a laugh after a withdrawal, a withdrawal taken back.

Attacker 337 against e5b2569 and 48223d0:

- A run of "哈" after a withdrawal ("I stopped taking warfarin." then "哈哈…哈，我在北京工作。")
  was read in exponential time by WITHDRAWAL_UNDONE (34 of them: 2.5 s, every 1.6 times as
  long for one more); since 48223d0 also as the first message of the next update.

Sentences are this project's own.
"""

from __future__ import annotations

import time
from pathlib import Path

from tests.test_offline_context import _said_in_turns
from tests.test_quality_kinds import facts_of_one_update


def test_a_run_of_laughter_after_a_withdrawal_is_read_in_linear_time(tmp_path: Path) -> None:
    laugh = "哈" * 40  # (40: 40 s before)
    started = time.perf_counter()
    assert facts_of_one_update("I'm not vegan anymore.", f"{laugh}，好吧") == []
    said = ("I take warfarin.", "I stopped taking warfarin.", f"{laugh}，我在北京工作。")
    assert _said_in_turns(tmp_path, *said) == ["用户在北京工作"]
    assert time.perf_counter() - started < 5
