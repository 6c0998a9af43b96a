"""One CacheBudget bounds every cache drawing on it: entries and weight, oldest out first."""

from __future__ import annotations

import threading

import pytest

from deerflow_memory.caching import CacheBudget


def weigh(value: str) -> int:
    return len(value)


def test_the_least_recently_used_entry_goes_first_whichever_cache_holds_it() -> None:
    budget = CacheBudget(max_entries=10, max_weight=10)
    a, b = budget.cache("a", weigh), budget.cache("b", weigh)
    a.put(1, "xxxx")
    b.put(1, "yyyy")
    assert a.use(1) == "xxxx"  # now a's entry is the more recent one
    b.put(2, "zzz")  # 11 > 10: b's first entry is the oldest
    assert b.get(1) is None and a.get(1) == "xxxx" and b.get(2) == "zzz"
    assert budget.weight == 7 and len(budget) == 2


def test_the_same_key_in_two_caches_is_two_entries() -> None:
    budget = CacheBudget(max_entries=10, max_weight=100)
    a, b = budget.cache(("t1",), weigh), budget.cache(("t2",), weigh)
    a.put("alice", "one")
    b.put("alice", "other")
    assert (a.get("alice"), b.get("alice")) == ("one", "other")
    assert a.items() == [("alice", "one")] and b.values() == ["other"]
    assert a.discard("alice") == "one" and b.get("alice") == "other"
    assert budget.weight == len("other")


def test_caches_with_the_same_name_see_the_same_entries() -> None:
    budget = CacheBudget(max_entries=10, max_weight=100)
    budget.cache("t", weigh).put("k", "kept")
    assert budget.cache("t", weigh).get("k") == "kept"


def test_the_entry_bound_counts_the_entries_of_all_caches() -> None:
    budget = CacheBudget(max_entries=3, max_weight=100)
    caches = [budget.cache(n, weigh) for n in range(3)]
    for n, cache in enumerate(caches):
        cache.put("k", "v")
        cache.put("j", "w")
        assert len(budget) == min(3, 2 * (n + 1))
    assert [c.items() for c in caches] == [[], [("j", "w")], [("k", "v"), ("j", "w")]]


def test_replacing_an_entry_counts_only_its_new_weight() -> None:
    budget = CacheBudget(max_entries=10, max_weight=10)
    cache = budget.cache("a", weigh)
    cache.put("k", "123456")
    cache.put("k", "1234567")
    assert budget.weight == 7 and cache.items() == [("k", "1234567")]


def test_the_newest_entry_stays_even_when_it_alone_weighs_more_than_the_bound() -> None:
    budget = CacheBudget(max_entries=10, max_weight=5)
    a, b = budget.cache("a", weigh), budget.cache("b", weigh)
    a.put("small", "xx")
    b.put("big", "x" * 50)
    assert a.get("small") is None and b.get("big") == "x" * 50 and budget.weight == 50


def test_a_budget_of_no_entries_keeps_nothing() -> None:
    budget = CacheBudget(max_entries=0, max_weight=100)
    cache = budget.cache("a", weigh)
    cache.put("k", "v")
    assert cache.get("k") is None and budget.weight == 0 and len(budget) == 0


@pytest.mark.parametrize("bounds", [(-1, 5), (5, -1), (1.5, 5), (5, None), (True, 5)], ids=repr)
def test_a_bound_that_is_not_a_whole_number_is_refused(bounds: tuple[object, object]) -> None:
    with pytest.raises(ValueError, match="whole number"):
        CacheBudget(*bounds)  # type: ignore[arg-type]


def test_caches_on_many_threads_keep_the_budget_and_its_running_total_exact() -> None:
    budget = CacheBudget(max_entries=50, max_weight=200)
    start = threading.Barrier(8)

    def churn(n: int) -> None:
        cache = budget.cache(("tenant", n), weigh)
        start.wait()
        for i in range(2000):
            cache.put(i % 37, "v" * (1 + (i * 7 + n) % 13))
            cache.use((i + 5) % 37)
            if i % 11 == 0:
                cache.discard((i + 3) % 37)

    threads = [threading.Thread(target=churn, args=(n,)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not any(thread.is_alive() for thread in threads)
    held = [value for n in range(8) for value in budget.cache(("tenant", n), weigh).values()]
    assert budget.weight == sum(map(len, held)) <= 200
    assert len(budget) == len(held) <= 50
