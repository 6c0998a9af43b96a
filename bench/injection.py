"""Benchmark ``format_memory_for_injection`` (SPEC §14: 200 facts, warm, <= 0.3 ms median).

Run: ``python bench/injection.py``. Prints one row per (facts, counting, mode):

- ``cold``: fresh document object and an emptied per-text count cache (the
  vocabulary stays loaded): every line is escaped and counted again;
- ``warm-new-doc``: counts cached, but a new (equal) document object, as after
  a storage reload: the block is rebuilt from cached counts;
- ``warm``: the same document object again, as in an inject node while memory
  is unchanged: the cached result is returned.

- ``cold-all``: as ``cold``, and the text caches emptied too (constraint
  wording, stored dates), as in the first render of a fresh process once the
  vocabulary is loaded; printed at 1,000 facts.

For tiktoken, ``cold-baseline`` times the same cold render with the cost
floors off (``budget._render(..., floors=False)``: every candidate line and the whole
block are encoded, the algorithm before issue 15, with every later change to
escaping and ordering in it; ``bench/cold_vs_filed.py`` times the code as filed
itself), interleaved with the
``cold`` runs, and the line after it prints the ratio (issue 15 goal: >= 5x at
1,000 facts). A last check renders every document under many budgets and
prints how many blocks were over budget (must be 0) and how many differ from
the baseline's bytes (must be 0: the floors only skip encodes).
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from deerflow_memory.inject.budget import _render
from deerflow_memory.inject.constraints import looks_like_constraint
from deerflow_memory.inject.format import format_memory_for_injection, render_memory
from deerflow_memory.inject.tokens import TokenCountingMethod, get_token_counter
from deerflow_memory.models import Fact, FactCategory, MemoryDocument, Section, stored_timestamp

_EN = [
    "Prefers concise answers with code examples",
    "Works as a backend engineer on payment systems",
    "Is allergic to peanuts and does not eat seafood",
    "Plans to move to Lisbon next spring",
    "Uses Neovim with a custom Lua configuration",
    "Runs a half marathon every October",
]
_ZH = [
    "喜欢简洁的回答，最好带代码示例",
    "在一家金融科技公司做后端开发",
    "对花生过敏，不吃海鲜",
    "计划明年春天搬到里斯本",
    "周末常去爬山，家里有两个孩子",
    "正在学习 Rust 和分布式系统",
]


def _text(rng: random.Random, sentences: int) -> str:
    parts = []
    for _ in range(sentences):
        if rng.random() < 0.5:
            parts.append(rng.choice(_EN) + ".")
        else:
            parts.append(rng.choice(_ZH) + "。")
    return " ".join(parts)


def build_document(n_facts: int, seed: int = 7) -> MemoryDocument:
    """A document with ``n_facts`` mixed Chinese/English facts and all six summaries filled."""
    rng = random.Random(seed)
    categories = list(FactCategory)
    facts = tuple(
        Fact(
            id=f"fact_{i:08x}",
            content=f"{_text(rng, 1)} #{i}",
            category=rng.choice(categories),
            confidence=round(rng.uniform(0.5, 1.0), 2),
            created_at=f"2025-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}T10:00:00Z",
            source_error="an earlier wrong belief" if rng.random() < 0.1 else None,
        )
        for i in range(n_facts)
    )
    return MemoryDocument.model_validate(
        {
            "user": {
                "workContext": Section(summary=_text(rng, 2)),
                "personalContext": Section(summary=_text(rng, 2)),
                "topOfMind": Section(summary=_text(rng, 4)),
            },
            "history": {
                "recentMonths": Section(summary=_text(rng, 5)),
                "earlierContext": Section(summary=_text(rng, 4)),
                "longTermBackground": Section(summary=_text(rng, 3)),
            },
            "facts": facts,
        }
    )


def _measure(run: Callable[[], object], prepare: Callable[[], None], repeat: int) -> list[float]:
    timings = []
    for _ in range(repeat):
        prepare()
        start = time.perf_counter()
        run()
        timings.append((time.perf_counter() - start) * 1000.0)
    return timings


def _baseline(doc: MemoryDocument, max_tokens: int = 2000, guaranteed: int = 500,
              constraints: int = 300) -> object:  # fmt: skip
    """The render with the cost floors off: every line and the whole block encoded."""
    counter = get_token_counter("tiktoken")
    return _render(
        doc, max_tokens, frozenset({"correction"}), guaranteed, counter, constraints, floors=False
    )


# CPU-time medians of the last cold pair (new, baseline): steadier than wall time
# on a shared machine, printed next to the wall-time ratio.
_CPU: dict[str, float] = {}


def bench_cold_pair(
    base: MemoryDocument, repeat: int, *, text_caches: bool = False
) -> tuple[list[float], list[float]]:
    """Cold runs with the floors and the baseline, interleaved (same load for both).

    With ``text_caches``, the constraint and date caches are emptied before each run too.
    """
    counter = get_token_counter("tiktoken")
    clear_counts = getattr(counter, "clear_cache", lambda: None)

    def clear() -> None:
        clear_counts()
        if text_caches:
            looks_like_constraint.cache_clear()
            stored_timestamp.cache_clear()

    new_runs: list[float] = []
    base_runs: list[float] = []
    new_mode, base_mode = "cold", "cold-baseline"
    if text_caches:
        new_mode, base_mode = "cold-all", "cold-all-base"
    cpu: dict[str, list[float]] = {new_mode: [], base_mode: []}
    for _ in range(repeat):
        for runs, mode, render in (
            (new_runs, new_mode, format_memory_for_injection),
            (base_runs, base_mode, _baseline),
        ):
            clear()
            doc = base.model_copy()
            start, start_cpu = time.perf_counter(), time.process_time()
            render(doc)
            runs.append((time.perf_counter() - start) * 1000.0)
            cpu[mode].append((time.process_time() - start_cpu) * 1000.0)
    _CPU.update({mode: statistics.median(times) for mode, times in cpu.items()})
    return new_runs, base_runs


def bench_case(base: MemoryDocument, method: TokenCountingMethod) -> list[tuple[str, float, float]]:
    """(mode, median ms, p95 ms) for one document and counting method."""
    counter = get_token_counter(method)
    clear = getattr(counter, "clear_cache", lambda: None)
    holder = {"doc": base}

    def cold() -> None:
        clear()
        holder["doc"] = base.model_copy()  # a new object: no cached result

    def new_doc() -> None:
        holder["doc"] = base.model_copy()

    def same_doc() -> None:
        holder["doc"] = base

    def run() -> object:
        return format_memory_for_injection(holder["doc"], token_counting=method)

    def row(mode: str, timings: list[float]) -> tuple[str, float, float]:
        return mode, statistics.median(timings), statistics.quantiles(timings, n=20)[-1]

    rows = []
    big = len(base.facts) >= 1000
    if method == "tiktoken":
        cold_runs, base_runs = bench_cold_pair(base, 15 if big else 30)
        rows += [row("cold", cold_runs), row("cold-baseline", base_runs)]
        if big:
            cold_runs, base_runs = bench_cold_pair(base, 15, text_caches=True)
            rows += [row("cold-all", cold_runs), row("cold-all-base", base_runs)]
    else:
        run()
        rows.append(row("cold", _measure(run, cold, 10 if big else 30)))
    for mode, prepare, repeat in (
        ("warm-new-doc", new_doc, 100 if big else 300),
        ("warm", same_doc, 2000),
    ):
        same_doc()
        run()  # fill the caches
        rows.append(row(mode, _measure(run, prepare, repeat)))
    return rows


def check_budgets(docs: list[MemoryDocument]) -> tuple[int, int, int]:
    """(renders, over budget, different from the baseline) over many budgets, tiktoken.

    Over budget: the block's real count exceeds ``max_tokens`` (or the block
    of only its constraint and guaranteed facts, when that is larger), or the
    reported ``tokens`` is not the real count.
    """
    count = get_token_counter("tiktoken").count
    renders = over = different = 0
    for doc in docs:
        for max_tokens in (0, 10, 40, 100, 250, 600, 1000, 2000, 4000):
            for guaranteed, constraints in ((500, 300), (60, 25), (0, 0)):
                result = render_memory(
                    doc,
                    max_tokens,
                    guaranteed_token_budget=guaranteed,
                    constraint_token_budget=constraints,
                )
                facts = [line for line in result.text.splitlines() if line.startswith("- [")]
                protected = "".join(f"{line}\n" for line in facts[: result.guaranteed_injected])
                alone = count(f"<user_memory>\n## Facts\n{protected}</user_memory>")
                real = count(result.text) if result.text else 0
                renders += 1
                over += real > max(max_tokens, alone if protected else 0) or real != result.tokens
                different += result != _baseline(doc, max_tokens, guaranteed, constraints)
    return renders, over, different


def main() -> None:
    """Print median and p95 (ms) per document size, counting method and mode."""
    print(f"{'facts':>5}  {'counting':<8}  {'mode':<13}  {'median ms':>9}  {'p95 ms':>8}  tokens")
    methods: tuple[TokenCountingMethod, ...] = ("tiktoken", "char")
    docs = []
    for n_facts in (50, 200, 1000):
        base = build_document(n_facts)
        docs.append(base)
        for method in methods:
            counter = get_token_counter(method)
            counter.count("load the vocabulary before timing")
            tokens = counter.count(format_memory_for_injection(base, token_counting=method))
            rows = bench_case(base, method)
            for mode, median, p95 in rows:
                figures = f"{median:>9.4f}  {p95:>8.4f}  {tokens:>6}"
                print(f"{n_facts:>5}  {method:<8}  {mode:<13}  {figures}")
            medians = dict((mode, median) for mode, median, _ in rows)
            if "cold-baseline" in medians:
                ratio = medians["cold-baseline"] / medians["cold"]
                cpu = _CPU["cold-baseline"] / _CPU["cold"]
                print(
                    f"{'':>5}  {'':<8}  cold is {ratio:.1f}x faster than the baseline "
                    f"(CPU time: {_CPU['cold']:.2f} vs {_CPU['cold-baseline']:.2f} ms, {cpu:.1f}x)"
                )
    docs += [build_document(n, seed) for n in (0, 1, 5, 30, 120) for seed in (1, 2)]
    renders, over, different = check_budgets(docs)
    print(
        f"budget check: {renders} renders (tiktoken), over budget: {over}, "
        f"different from the baseline: {different}"
    )


if __name__ == "__main__":
    main()
