"""Quality figures on tables written for this project (none copied from public data).

Run: ``python bench/quality.py [signals|extractor ...]`` (default: every section).

- ``signals``: ``bench/data/signals_table.tsv`` (300 rows, written while the
  patterns were extended) and ``signals_holdout.tsv`` (90 rows, written after
  and never tuned on), and ``signals_replies.tsv`` (330 rows written independently
  by a second engineer, rich in replies that matter: read-backs, "X, not Y";
  tuned on): user turns after an assistant reply labelled
  correction / approval / neither, Chinese and English; precision, recall and
  F1 of :class:`SignalDetector` per class and language.
- ``extractor``: ``bench/data/extractor_table.tsv``, user sentences with the
  fact the offline extractor should store (a word it must contain) or ``-``
  for none, by kind and language; recall and precision per kind and language.
  ``extractor_second.tsv`` (56 sentences written independently by a second
  engineer to probe the landed rules; recall was 0.89 en / 0.77 zh before the fixes
  it prompted, so it is tuned on now).
"""

from __future__ import annotations

import csv
import sys
from collections import defaultdict
from pathlib import Path

from langchain_core.messages import AIMessage, HumanMessage

from deerflow_memory.capture.signals import SignalDetector
from deerflow_memory.update.offline.text import candidates_from_text

DATA = Path(__file__).resolve().parent / "data"


def _rows(name: str) -> list[dict[str, str]]:
    with (DATA / name).open(encoding="utf-8", newline="") as f:
        return list(csv.DictReader(f, delimiter="\t", quoting=csv.QUOTE_NONE))


def _prf(tp: int, fp: int, fn: int) -> tuple[float, float, float]:
    precision = tp / (tp + fp) if tp + fp else 1.0
    recall = tp / (tp + fn) if tp + fn else 1.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return precision, recall, f1


def signals() -> None:
    for table in ("signals_table.tsv", "signals_replies.tsv", "signals_holdout.tsv"):
        _signals(table)


def _signals(table: str) -> None:
    detector = SignalDetector()
    counts: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0, 0])  # tp fp fn
    for row in _rows(table):
        found = detector.detect(
            [HumanMessage("hi"), AIMessage(row["assistant"]), HumanMessage(row["user"])]
        )
        predicted = (
            "correction" if found.correction else "approval" if found.reinforcement else "neither"
        )
        for label in ("correction", "approval"):
            for lang in (row["lang"], "all"):
                tp_fp_fn = counts[(label, lang)]
                if predicted == label and row["label"] == label:
                    tp_fp_fn[0] += 1
                elif predicted == label:
                    tp_fp_fn[1] += 1
                elif row["label"] == label:
                    tp_fp_fn[2] += 1
    print(f"signals (bench/data/{table})")
    print(f"  {'class':<11} {'lang':<4} {'precision':>9} {'recall':>7} {'F1':>6}")
    for (label, lang), (tp, fp, fn) in sorted(counts.items()):
        p, r, f = _prf(tp, fp, fn)
        print(f"  {label:<11} {lang:<4} {p:9.2f} {r:7.2f} {f:6.2f}")


def extractor() -> None:
    for table in ("extractor_table.tsv", "extractor_second.tsv"):
        _extractor(table)


def _extractor(table: str) -> None:
    # (kind, lang) -> [sentences, facts expected, found, sentences storing a fact, of them right]
    stats: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0, 0, 0, 0])
    misses: list[str] = []
    for row in _rows(table):
        candidates = candidates_from_text(row["sentence"])
        contents = [c.content for c in candidates if c.content]
        retracted = [c.retract for c in candidates if c.retract]
        expect = row["expect"]
        if expect.startswith("retract:"):
            right = any(expect[8:].casefold() in (r or "").casefold() for r in retracted)
            stored = bool(retracted or contents)
        else:
            right = expect != "-" and any(expect.casefold() in c.casefold() for c in contents)
            stored = bool(contents)
        for key in ((row["kind"], row["lang"]), ("all", row["lang"])):
            s = stats[key]
            s[0] += 1
            s[1] += expect != "-"
            s[2] += right
            s[3] += stored
            s[4] += stored and right
        if right != (expect != "-") or (stored and not right):
            misses.append(
                f"{row['kind']}/{row['lang']}: {row['sentence']!r} -> {contents or retracted}"
            )
    print(f"offline extractor (bench/data/{table})")
    print(f"  {'kind':<13} {'lang':<4} {'sentences':>9} {'recall':>7} {'precision':>9}")
    for (kind, lang), (n, expected, found, stored, right) in sorted(stats.items()):
        recall = f"{found / expected:.2f}" if expected else "-"
        precision = f"{right / stored:.2f}" if stored else "1.00"
        print(f"  {kind:<13} {lang:<4} {n:9d} {recall:>7} {precision:>9}")
    print("  (precision: share of sentences that stored something which stored the right fact;")
    print("   kinds with recall '-' must store nothing: vocatives, place names, chit-chat, others)")
    if "-v" in sys.argv:
        print("\n".join("  miss " + m for m in misses))


SECTIONS = {"signals": signals, "extractor": extractor}

if __name__ == "__main__":
    chosen = [a for a in sys.argv[1:] if a in SECTIONS] or list(SECTIONS)
    for name in chosen:
        SECTIONS[name]()
        print()
