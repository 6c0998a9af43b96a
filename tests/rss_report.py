"""Opt-in pytest plugin: which test files leave the test process bigger (Linux only).

Off by default. ``pytest -p tests.rss_report`` prints, after the run, the test
files whose tests raised the process's resident memory (RSS) most, in MB, and
the peak RSS (``ru_maxrss``). Memory a test frees is rarely given back to the
system, so a file's figure is what it held at its peak or kept; follow one up
with ``tracemalloc`` or ``gc.get_objects()`` counts by type.
"""

from __future__ import annotations

import os
import resource
from collections import Counter

import pytest

_TOP = 15
_PAGE = os.sysconf("SC_PAGE_SIZE")


def _rss_mb() -> float:
    with open("/proc/self/statm", encoding="ascii") as f:
        return int(f.read().split()[1]) * _PAGE / 2**20


class _RssReport:
    def __init__(self) -> None:
        self.by_file: Counter[str] = Counter()
        self.last = _rss_mb()

    def pytest_runtest_logfinish(self, nodeid: str) -> None:
        now = _rss_mb()
        self.by_file[nodeid.split("::")[0]] += now - self.last
        self.last = now

    def pytest_terminal_summary(self, terminalreporter: pytest.TerminalReporter) -> None:
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KB on Linux
        terminalreporter.section("RSS growth by test file (MB)")
        for path, grown in self.by_file.most_common(_TOP):
            terminalreporter.write_line(f"{grown:8.1f}  {path}")
        terminalreporter.write_line(f"now {self.last:.0f} MB, peak {peak:.0f} MB")


def pytest_configure(config: pytest.Config) -> None:
    config.pluginmanager.register(_RssReport(), "rss-report")
