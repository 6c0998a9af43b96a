"""The numbers a merge compares: read in time linear in the text, the same readings."""

from __future__ import annotations

import subprocess
import sys

from deerflow_memory.update.merges import _numbers


def test_numbers_are_read_as_before() -> None:
    assert _numbers("每天吃两片维生素，十二岁起") == ["12", "2"]
    assert _numbers("Takes 20 mg twice, since 2019") == ["20", "2019"]
    assert _numbers("一百二十三毫克") == ["一百二十三"]
    assert _numbers("十十十 and 三十") == []  # no unit after either run


def test_a_long_run_of_numerals_is_read_in_linear_time() -> None:
    # Each start inside the run used to scan to its end: 200,000 characters ran for
    # hours, holding the GIL (so the guard is a child process, killed after a minute).
    code = (
        "from deerflow_memory.update.merges import _numbers\n"
        "print(len(_numbers('十' * 200_000 + 'x' + '十' * 200_000 + '岁')))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True
    )
    assert done.stdout.strip() == "1"
