"""Corrections said over and over are read in linear work, and say what the user meant.

A message repeating "我不是对花生过敏，是对芝麻过敏。" 2,000 times held the
updater for 2.5 s, alternating with a second correction 5 s: each correction
was checked against every statement before it (attacker 55). The work is
counted here (calls of the retraction test), not timed.

The same frames also read what the user meant: "我不是对花生过敏，是对芝麻过敏" was
stored as "用户是对芝麻过敏", "我不住在上海，是杭州" as "用户不住在上海" (Hangzhou
lost) and "Not Leeds, it is York" as "User lives in it is York".
"""

from __future__ import annotations

import pytest

from deerflow_memory.update.offline import extractor
from tests.test_offline_attacker51 import _run

TWO = "我不是对花粉过敏，是对尘螨过敏。我不住在苏州，是无锡。"


def _retraction_tests(monkeypatch: pytest.MonkeyPatch, times: int) -> int:
    calls = 0
    real = extractor.names_retracted

    def counted(said: str, what: str) -> bool:
        nonlocal calls
        calls += 1
        return real(said, what)

    monkeypatch.setattr(extractor, "names_retracted", counted)
    stored = tuple(f"用户喜欢第{i}种茶" for i in range(100))
    _run(TWO * times, stored=stored)
    return calls


def test_repeated_corrections_cost_work_in_proportion(monkeypatch: pytest.MonkeyPatch) -> None:
    small, large = (_retraction_tests(monkeypatch, n) for n in (50, 400))
    # 8x the message: about 8x the checks (it was 60x and more: every pair)
    assert large <= 10 * small, (small, large)


def test_repeated_corrections_store_what_one_says_once() -> None:
    once = _run(TWO)
    assert once == (["用户对尘螨过敏", "用户住在无锡"], [])
    facts, removed = _run(TWO * 300, stored=("用户住在苏州",))
    assert sorted(facts) == sorted(once[0]) and removed == ["f0"]


@pytest.mark.parametrize(
    ("said", "stored", "now"),
    [
        ("我不是对猫毛过敏，是对狗毛过敏", (), "用户对狗毛过敏"),
        ("我不住在苏州，是无锡", ("用户住在苏州",), "用户住在无锡"),
        ("我不在腾讯工作，是在字节", ("用户在腾讯工作",), "用户在字节工作"),
        ("Not Derby, it is Hull", ("User lives in Derby",), "User lives in Hull"),
    ],
)
def test_a_correction_stores_the_statement_meant(
    said: str, stored: tuple[str, ...], now: str
) -> None:
    facts, removed = _run(said, stored=stored)
    assert facts == [now]
    assert removed == (["f0"] if stored else [])
