"""Process-wide text caches stay bounded in characters, not only in entries (memory use)."""

from __future__ import annotations

import random
import threading

import pytest

from deerflow_memory import identity
from deerflow_memory.caching import TextCache
from deerflow_memory.inject import constraints, lexical
from deerflow_memory.update import consolidate, hygiene


def _long_chinese_texts(count: int, length: int = 500, seed: int = 3) -> list[str]:
    """Distinct texts of rare characters: few terms shared, the costliest kind to cache."""
    rng = random.Random(seed)
    alphabet = [chr(c) for c in range(0x4E00, 0x4E00 + 3000)]
    return ["".join(rng.choices(alphabet, k=length)) for _ in range(count)]


def test_a_text_cache_keeps_at_most_its_characters_and_entries_and_answers_like_its_function() -> (
    None
):
    calls: list[str] = []

    def compute(text: str) -> int:
        calls.append(text)
        return len(text) * 2

    cache = TextCache(compute, max_entries=5, max_chars=100)
    for n in range(50):  # 50 distinct texts of 30 characters: 3 fit in 100 characters
        assert cache(f"{n:030d}") == 60
    info = cache.cache_info()
    assert info.chars <= 100 and info.currsize == 3
    assert cache("0" * 28 + "49") == 60 and len(calls) == 50  # the newest is kept: no call

    for n in range(50):  # short texts: the entry bound decides
        cache(str(n))
    assert cache.cache_info().currsize == 5

    cache(f"{'x' * 150}")  # longer than the whole budget: computed, never kept
    assert all(len(key) <= 100 for key in cache._data)
    cache.cache_clear()
    assert cache.cache_info()[:3] == (0, 5, 0)


def test_a_text_cache_refuses_negative_bounds_and_keeps_nothing_at_zero() -> None:
    with pytest.raises(ValueError, match="max_chars=-1"):
        TextCache(len, max_entries=1, max_chars=-1)
    cache = TextCache(len, max_entries=0, max_chars=1000)
    assert cache("abc") == 3 and cache.cache_info().currsize == 0


def test_threads_filling_a_text_cache_never_pass_its_bounds() -> None:
    cache = TextCache(len, max_entries=1000, max_chars=2_000)
    texts = _long_chinese_texts(400, length=40)

    def fill(offset: int) -> None:
        for text in texts[offset::4]:
            assert cache(text) == 40

    threads = [threading.Thread(target=fill, args=(i,)) for i in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    info = cache.cache_info()
    assert info.chars == sum(map(len, cache._data)) <= 2_000 and info.currsize == 50


@pytest.mark.parametrize(
    ("cache", "max_chars"),
    [
        (consolidate._terms, 500_000),
        (lexical.term_counts, 500_000),
        (hygiene.text_key, 2_000_000),
        (constraints.looks_like_constraint, 2_000_000),
        (identity._IDENTITY_FORMS, 2_000_000),
    ],
    ids=[
        "consolidation terms",
        "lexical term counts",
        "hygiene text keys",
        "constraint wording",
        "authenticated identities",
    ],
)
def test_the_fact_text_caches_hold_few_long_facts_not_every_one(
    cache: TextCache[object], max_chars: int
) -> None:
    # 5,000 distinct 500-character facts (max_fact_chars' default): the old caches,
    # bounded by 16,384 or 65,536 entries only, kept every one (at their bounds
    # ~870, ~760, ~140 and ~70 MB).
    cache.cache_clear()
    try:
        texts = _long_chinese_texts(5_000)
        for text in texts:
            cache(text)
        info = cache.cache_info()
        assert info.currsize <= max_chars // 500 < len(texts) and info.chars <= max_chars
        assert cache(texts[-1]) is cache(texts[-1])  # the newest are kept and reused
    finally:
        cache.cache_clear()


def test_a_text_that_cannot_be_a_key_goes_to_the_function_which_gives_its_own_error() -> None:
    def compute(text: str) -> int:
        if not isinstance(text, str):
            raise TypeError(f"not text: {type(text).__name__}")
        return len(text)

    cache = TextCache(compute, max_entries=5, max_chars=100)
    with pytest.raises(TypeError, match="not text: list"):  # not "unhashable type: 'list'"
        cache(["a"])  # type: ignore[arg-type]
    assert cache("ab") == 2 and cache.cache_info().currsize == 1
