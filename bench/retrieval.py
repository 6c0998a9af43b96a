"""Benchmark ``select_relevant_facts`` on the BM25 path (SPEC §9).

Run: ``python bench/retrieval.py``. Prints median and p95 (ms) per document
size (200 and 1000 mixed Chinese/English facts) and mode:

- ``cold``: a new document object and emptied per-text caches each call (as
  at process start): every fact is tokenised, scored for importance and
  indexed again;
- ``rebuild``: a new document object each call with the per-text caches warm
  (as after a memory update or a storage reload, when most facts are
  unchanged): the index is rebuilt from cached token counts;
- ``warm``: the same document object, as in an inject node while memory is
  unchanged: only the query is tokenised and scored;
- ``warm+render``: warm selection, then ``filter_document`` and
  ``render_memory`` (char counting) — the whole relevant-injection path.

Queries rotate over a fixed mixed list (some match many facts, some none).
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from deerflow_memory.inject.format import render_memory
from deerflow_memory.inject.retrieval import (
    clear_retrieval_caches,
    filter_document,
    select_relevant_facts,
)
from deerflow_memory.models import Fact, FactCategory, MemoryDocument, SourceType

_EN = [
    "Prefers concise answers with {w} examples",
    "Works as a {w} engineer on payment systems",
    "Is allergic to {w} and does not eat seafood",
    "Plans to move to {w} next spring",
    "Uses {w} with a custom configuration",
    "Never schedules meetings about {w} before 10am",
]
_ZH = [
    "喜欢简洁的回答，最好带{w}示例",
    "在一家{w}公司做后端开发",
    "对{w}过敏，不吃海鲜",
    "计划明年春天搬到{w}",
    "周末常去{w}，家里有两个孩子",
    "正在学习{w}和分布式系统",
]
_EN_WORD_TEXT = (
    "rust python golang kotlin peanuts shellfish lisbon berlin tokyo neovim emacs "
    "jazz chess tennis marathon climbing pottery sourdough espresso matcha kayaking "
    "photography gardening robotics compilers databases kubernetes terraform"
)
_EN_WORDS = _EN_WORD_TEXT.split()
_ZH_WORD_TEXT = (
    "花生 芒果 杭州 成都 深圳 爬山 游泳 书法 围棋 摄影 咖啡 绿茶 机器学习 数据库 "
    "编译器 金融 医疗 教育 游戏 电商 物流 跑步 瑜伽 钢琴 烘焙"
)
_ZH_WORDS = _ZH_WORD_TEXT.split()
QUERIES = [
    "Any peanut-free snacks for the flight?",
    "推荐一家海鲜餐厅",
    "How do I set up kubernetes with terraform?",
    "周末去杭州爬山有什么建议",
    "What's the weather like today?",
    "帮我写一段 Rust 代码",
    "Recommend a good espresso machine",
    "我想学围棋",
]


def build_document(n_facts: int, seed: int = 11) -> MemoryDocument:
    """``n_facts`` facts, half English half Chinese, varied topics, categories and ages."""
    rng = random.Random(seed)
    categories = list(FactCategory)
    facts = []
    for i in range(n_facts):
        # One or two sentences with random topic words: contents are (nearly) all
        # distinct, so "cold" really tokenises every fact.
        sentences = []
        for _ in range(rng.choice((1, 2))):
            if rng.random() < 0.5:
                sentences.append(rng.choice(_EN).format(w=rng.choice(_EN_WORDS)) + ".")
            else:
                sentences.append(rng.choice(_ZH).format(w=rng.choice(_ZH_WORDS)) + "。")
        content = " ".join(sentences)
        facts.append(
            Fact(
                id=f"fact_{i:08x}",
                content=content,
                category=rng.choice(categories),
                confidence=round(rng.uniform(0.5, 1.0), 2),
                created_at=f"2025-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}T10:00:00Z",
                source_type=rng.choice(list(SourceType)),
            )
        )
    return MemoryDocument(facts=tuple(facts))


def _measure(run: Callable[[str], object], prepare: Callable[[], None], repeat: int) -> list[float]:
    timings = []
    for i in range(repeat):
        prepare()
        query = QUERIES[i % len(QUERIES)]
        start = time.perf_counter()
        run(query)
        timings.append((time.perf_counter() - start) * 1000.0)
    return timings


def bench_size(n_facts: int) -> list[tuple[str, float, float, float]]:
    """(mode, median ms, p95 ms, mean relevant facts) for one document size."""
    base = build_document(n_facts)
    now = datetime(2026, 1, 1, tzinfo=UTC)
    holder = {"doc": base}
    chosen: list[int] = []

    def cold() -> None:
        clear_retrieval_caches()
        holder["doc"] = base.model_copy()

    def fresh() -> None:
        holder["doc"] = base.model_copy()  # a new object: the cached index does not apply

    def same() -> None:
        holder["doc"] = base

    def select(query: str) -> object:
        result = select_relevant_facts(holder["doc"], query, now=now)
        chosen.append(len(result.relevant))
        return result

    def select_and_render(query: str) -> object:
        doc = holder["doc"]
        result = select_relevant_facts(doc, query, now=now)
        return render_memory(filter_document(doc, result.facts), token_counting="char")

    rows = []
    for mode, run, prepare, repeat in (
        ("cold", select, cold, 30 if n_facts >= 1000 else 100),
        ("rebuild", select, fresh, 100 if n_facts >= 1000 else 300),
        ("warm", select, same, 2000),
        ("warm+render", select_and_render, same, 2000),
    ):
        same()
        for query in QUERIES:
            run(query)  # build the index and fill the caches before timing
        chosen.clear()
        timings = _measure(run, prepare, repeat)
        mean_relevant = statistics.mean(chosen) if chosen else -1.0
        p95 = statistics.quantiles(timings, n=20)[-1]
        rows.append((mode, statistics.median(timings), p95, mean_relevant))
    return rows


def main() -> None:
    """Print median and p95 (ms) per document size and mode."""
    print(f"{'facts':>5}  {'mode':<12}  {'median ms':>9}  {'p95 ms':>8}  relevant/query")
    for n_facts in (200, 1000):
        for mode, median, p95, relevant in bench_size(n_facts):
            shown = f"{relevant:>6.2f}" if relevant >= 0 else f"{'-':>6}"
            print(f"{n_facts:>5}  {mode:<12}  {median:>9.4f}  {p95:>8.4f}  {shown}")
    distinct = len({f.content for f in build_document(1000).facts})
    print(f"(1000-fact document: {distinct} distinct contents)")


if __name__ == "__main__":
    main()
