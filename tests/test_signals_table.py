"""The labelled signals table of bench/data: its shape, and the F1 per class and language."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from deerflow_memory.capture.signals import SignalDetector

TABLE = Path(__file__).resolve().parents[1] / "bench" / "data" / "signals_replies.tsv"
_LABELS = {"correction": "C", "approval": "A", "neither": "N"}


def _lang(text: str) -> str:
    return "zh" if any("\u3400" <= ch <= "\u9fff" for ch in text) else "en"


def _rows() -> list[tuple[str, str, str]]:
    lines = TABLE.read_text(encoding="utf-8").splitlines()
    assert lines[0].split("\t") == ["label", "lang", "assistant", "user"]
    rows = []
    for line in lines[1:]:
        label, lang, reply, user = line.split("\t")
        assert lang == _lang(user)
        rows.append((_LABELS[label], reply, user))
    return rows


def test_the_table_has_three_hundred_turns_a_third_of_each_label_in_both_languages() -> None:
    rows = _rows()
    assert len(rows) >= 300
    counts = Counter((label, _lang(user)) for label, _, user in rows)
    for label in "CAN":
        assert counts[(label, "en")] + counts[(label, "zh")] >= 100
        assert counts[(label, "en")] >= 45 and counts[(label, "zh")] >= 45
    assert len({user for _, _, user in rows}) >= len(rows) - 10  # varied phrasing


@pytest.mark.parametrize("label", ["C", "A"])
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_signals_reach_an_f1_of_at_least_point_nine_per_class_and_language(
    label: str, lang: str
) -> None:
    detector = SignalDetector()
    tp = fp = fn = 0
    for truth, reply, user in _rows():
        if _lang(user) != lang:
            continue
        signals = detector.classify(user, reply)
        predicted = "C" if signals.correction else "A" if signals.reinforcement else "N"
        tp += predicted == label and truth == label
        fp += predicted == label and truth != label
        fn += predicted != label and truth == label
    f1 = 2 * tp / (2 * tp + fp + fn)
    assert f1 >= 0.9, (tp, fp, fn)
