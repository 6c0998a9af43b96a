"""Relevant mode with an embedder that fails: the turn goes on, ranked lexically, and says so.

Also the vectors cache beside file documents: a changed embedding size, a FIFO
or an oversized file never blocks a turn or an update. Deterministic fake
embedders only; nothing reaches the network.
"""

from __future__ import annotations

import asyncio
import logging
import os
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from langchain.agents import create_agent
from langchain_core.messages import AIMessage, HumanMessage
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.store.memory import InMemoryStore

from deerflow_memory import (
    EmbeddingError,
    MemoryConfig,
    MemoryMiddleware,
    MemoryService,
    create_memory_agent,
)
from deerflow_memory.embeddings import HashingEmbeddings
from deerflow_memory.identity import MemoryIdentity
from deerflow_memory.inject.fallback import FailureBurst
from deerflow_memory.inject.retrieval import RetrievalIndex
from deerflow_memory.inject.vectors import FactVectors
from deerflow_memory.models import Fact, FactCategory, MemoryDocument
from deerflow_memory.standin import OfflineStandInModel
from deerflow_memory.storage.vectors_file import VECTORS_FILE, size_bound, write_vectors

FACTS = (
    Fact(id="a1", content="Allergic to peanuts", category=FactCategory.CONTEXT),
    Fact(id="t1", content="Likes green tea", category=FactCategory.PREFERENCE),
    Fact(id="o1", content="Lives in Oslo", category=FactCategory.CONTEXT),
    Fact(id="c1", content="Plays chess on weekends", category=FactCategory.BEHAVIOR),
    Fact(id="k1", content="Owns a small sailing boat", category=FactCategory.CONTEXT),
)
QUERY = "which green tea should I buy tonight?"  # shares words with one fact only
WHO = MemoryIdentity("u", None, "t")
LEXICAL = "embedding failed, ranked lexically"


class Down:
    """An embedding endpoint that cannot be reached."""

    def embed_query(self, text: str) -> list[float]:
        raise ConnectionError("embedding endpoint unreachable")

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        raise ConnectionError("embedding endpoint unreachable")


class Flaky(HashingEmbeddings):
    """Hashing embeddings that can be switched off."""

    def __init__(self) -> None:
        super().__init__(dims=16)
        self.up = True

    def embed_query(self, text: str) -> list[float]:
        if not self.up:
            raise TimeoutError("embedding call timed out")
        return super().embed_query(text)

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        if not self.up:
            raise TimeoutError("embedding call timed out")
        return super().embed_documents(texts)


class Malformed:
    """An embedder answering with something other than one vector of numbers per text."""

    def __init__(self, kind: str) -> None:
        self.kind = kind

    def _one(self, text: str) -> Any:
        kind = self.kind
        return {
            "none": None,
            "string": "0.1,0.2",
            "strings": ["a", "b", "c"],
            "nested": [[1.0, 0.0], [0.0, 1.0]],
            "empty": [],
            "nan": [float("nan"), 1.0, 0.0],
            "inf": [float("inf"), 1.0, 0.0],
            "objects": [object(), 1.0],
            "bools": [True, False, True],
        }.get(kind, [1.0, 0.5, 0.25])

    def embed_query(self, text: str) -> Any:
        if self.kind == "query_dims":
            return [1.0, 0.5, 0.25, 0.0]  # documents get 3
        return self._one(text)

    def embed_documents(self, texts: list[str]) -> Any:
        if self.kind == "short":
            return [[1.0, 0.5, 0.25]] * (len(texts) - 1)
        if self.kind == "long":
            return [[1.0, 0.5, 0.25]] * (len(texts) + 1)
        if self.kind == "mixed":
            return [[1.0] * (3 + i % 2) for i in range(len(texts))]
        if self.kind == "not_a_list":
            return 42
        return [self._one(t) for t in texts]


MALFORMED = [
    "none",
    "string",
    "strings",
    "nested",
    "empty",
    "nan",
    "inf",
    "objects",
    "bools",
    "short",
    "long",
    "mixed",
    "not_a_list",
    "query_dims",
]


def service_with(tmp_path: Path, embedder: Any, **config: Any) -> MemoryService:
    settings = MemoryConfig(
        storage_path=tmp_path / "memory",
        injection_mode="relevant",
        debounce_seconds=0.05,
        **config,
    )
    service = MemoryService(settings, embedder=embedder, register_atexit=False)
    service.storage.save("u", None, MemoryDocument(facts=FACTS))
    return service


@pytest.fixture
def down(tmp_path: Path) -> Iterator[MemoryService]:
    with service_with(tmp_path, Down()) as service:
        yield service


def fallback_warnings(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [
        r.getMessage()
        for r in caplog.records
        if r.name == "deerflow_memory.inject.fallback" and r.levelno == logging.WARNING
    ]


def assert_ranked_lexically(context: str) -> None:
    assert "Allergic to peanuts" in context  # the constraint is guaranteed
    assert "Likes green tea" in context  # the lexical match
    assert "sailing boat" not in context  # ranked, not everything


# --- the turn goes on: nodes (sync and async) and the middleware ---------------------------


def test_a_down_embedder_leaves_the_graph_turn_ranked_lexically_with_the_error_in_the_events(
    down: MemoryService, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    graph = create_memory_agent(service=down, checkpointer=InMemorySaver())
    config = {"configurable": {"user_id": "u", "thread_id": "t"}}
    for _ in range(3):
        events, state = [], None
        for mode, chunk in graph.stream(
            {"messages": [("user", QUERY)]}, config, stream_mode=["custom", "values"]
        ):
            if mode == "custom":
                events.append(chunk)
            else:
                state = chunk
        assert state is not None and isinstance(state["messages"][-1], AIMessage)
        assert_ranked_lexically(state["memory_context"])
        for kind in ("memory_injection", "memory_recall_end"):
            event = next(e for e in events if e["type"] == kind)
            assert event["error"].startswith(LEXICAL)
            assert "ConnectionError" in event["error"]
    # Three failing turns, one log line (a burst), not one per turn.
    assert len(fallback_warnings(caplog)) == 1


def test_a_down_embedder_leaves_an_async_graph_turn_ranked_lexically(down: MemoryService) -> None:
    graph = create_memory_agent(service=down, checkpointer=InMemorySaver())
    config = {"configurable": {"user_id": "u", "thread_id": "t"}}
    state = asyncio.run(graph.ainvoke({"messages": [("user", QUERY)]}, config))
    assert_ranked_lexically(state["memory_context"])


@pytest.mark.parametrize("run_async", [False, True], ids=["sync", "async"])
def test_a_down_embedder_leaves_a_middleware_turn_ranked_lexically(
    down: MemoryService, run_async: bool
) -> None:
    model = OfflineStandInModel()
    agent = create_agent(model, [], middleware=[MemoryMiddleware(down)])
    config = {"configurable": {"user_id": "u", "thread_id": "t"}}
    payload = {"messages": [HumanMessage(QUERY)]}
    events: list[dict[str, Any]] = []
    if run_async:

        async def run() -> None:
            async for chunk in agent.astream(payload, config, stream_mode="custom"):
                events.append(chunk)

        asyncio.run(run())
    else:
        events = list(agent.stream(payload, config, stream_mode="custom"))
    injection = next(e for e in events if e["type"] == "memory_injection")
    assert injection["error"].startswith(LEXICAL)
    assert injection["facts_injected"] == 2  # the constraint and the lexical match


def test_the_search_route_ranks_lexically_with_a_down_embedder_and_says_why(
    down: MemoryService,
) -> None:
    from starlette.applications import Starlette
    from starlette.testclient import TestClient

    from deerflow_memory.api import memory_routes

    app = Starlette(routes=memory_routes(down, ui=False))
    with TestClient(app, base_url="http://127.0.0.1") as client:
        response = client.get("/memory/users/u/search", params={"q": QUERY})
    assert response.status_code == 200
    found = response.json()
    assert [f["content"] for f in found["facts"]] == ["Allergic to peanuts", "Likes green tea"]
    assert found["error"].startswith(LEXICAL)


def test_an_embedder_that_answers_again_ranks_by_meaning_again_and_the_recovery_is_logged(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    embedder = Flaky()
    with service_with(tmp_path, embedder) as service:
        embedder.up = False
        for _ in range(2):
            assert (service.memory_block(WHO, QUERY).error or "").startswith(LEXICAL)
        embedder.up = True
        block = service.memory_block(WHO, QUERY)
    assert block.error is None
    assert "Likes green tea" in block.context
    assert len(fallback_warnings(caplog)) == 1
    assert any("works again after 2 failures" in r.getMessage() for r in caplog.records)


# --- one boundary: whatever the embedder returns, a typed error or a checked vector ---------


@pytest.mark.parametrize("kind", MALFORMED)
def test_a_malformed_embedder_answer_is_an_embedding_error_and_the_turn_ranks_lexically(
    tmp_path: Path, kind: str
) -> None:
    with pytest.raises(EmbeddingError):
        RetrievalIndex(FACTS).cosines("hello", Malformed(kind))
    with service_with(tmp_path, Malformed(kind)) as service:
        block = service.memory_block(WHO, QUERY)
    assert block.error is not None and block.error.startswith(LEXICAL)
    assert_ranked_lexically(block.context)


def test_an_embedder_whose_query_and_fact_vectors_disagree_is_not_re_asked_every_turn(
    tmp_path: Path,
) -> None:
    class Counting(Malformed):
        batches = 0

        def embed_documents(self, texts: list[str]) -> Any:
            self.batches += 1
            return super().embed_documents(texts)

    embedder = Counting("query_dims")
    with service_with(tmp_path, embedder) as service:
        blocks = [service.memory_block(WHO, QUERY) for _ in range(3)]
    assert all(b.error and "query vectors have 4 dimensions" in b.error for b in blocks)
    assert all("Likes green tea" in b.context for b in blocks)
    assert embedder.batches == 1  # the facts once, not once per turn


def test_the_embedders_own_exception_is_the_cause_of_the_embedding_error() -> None:
    with pytest.raises(EmbeddingError, match="ConnectionError") as caught:
        FactVectors(Down()).query("hello")
    assert isinstance(caught.value.__cause__, ConnectionError)


def test_huge_finite_vectors_are_scaled_without_overflow() -> None:
    class Huge:
        def embed_query(self, text: str) -> list[float]:
            return [1e308, 1e308, 0.0]

        def embed_documents(self, texts: list[str]) -> list[list[float]]:
            return [[1e308, 0.0, 1e308] for _ in texts]

    vectors = FactVectors(Huge())
    query = vectors.query("x")
    assert abs(sum(float(x) ** 2 for x in query) - 1.0) < 1e-5
    assert len(vectors.matrix(["a", "b"])) == 2


def test_a_store_index_whose_embed_fails_at_query_time_ranks_lexically(tmp_path: Path) -> None:
    up = {"value": True}

    def embed(texts: list[str]) -> list[list[float]]:
        if not up["value"]:
            raise ConnectionError("embedding endpoint unreachable")
        return [[1.0, float(len(t) % 7), 0.5] for t in texts]

    store = InMemoryStore(index={"dims": 3, "embed": embed, "fields": ["content"]})
    config = MemoryConfig(storage="store", injection_mode="relevant")
    with MemoryService(config, register_atexit=False) as service:
        service.storage_for(store).save("u", None, MemoryDocument(facts=FACTS))
        up["value"] = False
        block = service.memory_block(WHO, QUERY, store)
    assert block.error is not None and "store's vector search failed" in block.error
    assert_ranked_lexically(block.context)


def test_a_failure_burst_is_logged_once_then_reminded_then_its_end(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.INFO)
    now = [0.0]
    burst = FailureBurst("embedder", repeat_seconds=60, clock=lambda: now[0])
    for _ in range(5):
        burst.failed(ConnectionError("down"), "ranking lexically")
    now[0] = 61.0
    burst.failed(ConnectionError("down"), "ranking lexically")
    burst.succeeded()
    burst.succeeded()
    burst.failed(ConnectionError("down again"), "ranking lexically")
    lines = [r.getMessage() for r in caplog.records]
    assert len(lines) == 4
    assert lines[0].startswith("embedder failed, ranking lexically") and "down" in lines[0]
    assert "still failing (6 times" in lines[1]
    assert lines[2] == "embedder works again after 6 failures"
    assert "down again" in lines[3]


# --- the vectors cache never blocks a turn ---------------------------------------------------


def stored_dims(path: Path) -> int:
    import json

    dims: int = json.loads(path.read_text(encoding="utf-8"))["dims"]
    return dims


def test_a_changed_embedding_size_re_embeds_instead_of_failing_and_the_file_is_rewritten(
    tmp_path: Path,
) -> None:
    path = tmp_path / "memory" / "users" / "u" / VECTORS_FILE
    # Vectors written at 32 dimensions by the updater's keeper path.
    with service_with(tmp_path, HashingEmbeddings(dims=32)) as first:
        assert first.vectors is not None
        first.vectors.after_update(first.storage, "u", None)
    assert stored_dims(path) == 32
    # A restart with the same embedder (same class and name) now at 48 dimensions.
    with MemoryService(
        MemoryConfig(storage_path=tmp_path / "memory", injection_mode="relevant"),
        embedder=HashingEmbeddings(dims=48),
        register_atexit=False,
    ) as second:
        block = second.memory_block(WHO, QUERY)
        assert block.error is None
        assert "Likes green tea" in block.context
        assert second.vectors is not None
        second.vectors.after_update(second.storage, "u", None)  # nothing new to embed
    assert stored_dims(path) == 48


def test_an_embedder_changing_size_within_the_process_keeps_the_turns_working(
    tmp_path: Path,
) -> None:
    embedder = HashingEmbeddings(dims=32)
    with service_with(tmp_path, embedder) as service:
        assert service.memory_block(WHO, QUERY).error is None
        embedder.dims = 48
        block = service.memory_block(WHO, QUERY)
    assert block.error is None
    assert "Likes green tea" in block.context


def test_a_fifo_vectors_file_never_blocks_the_turn_and_is_replaced_after_the_next_update(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    with service_with(tmp_path, HashingEmbeddings(dims=16)) as service:
        path = tmp_path / "memory" / "users" / "u" / VECTORS_FILE
        os.mkfifo(path)
        done: list[Any] = []
        reader = threading.Thread(target=lambda: done.append(service.memory_block(WHO, QUERY)))
        reader.start()
        reader.join(10)
        if not done:  # release the blocked reader before failing
            os.close(os.open(path, os.O_WRONLY | os.O_NONBLOCK))
            reader.join(5)
        assert done, "the inject path blocked on a FIFO"
        assert done[0].error is None and "Likes green tea" in done[0].context
        assert any("not a regular file (a FIFO)" in r.getMessage() for r in caplog.records)
        # The next saved update still works and replaces the FIFO with a real file.
        service.enqueue(WHO, [HumanMessage("I'm a nurse."), AIMessage("Noted.")])
        service.flush(10)
        contents = [f.content for f in service.storage.load("u", None).facts]
    assert any("nurse" in c for c in contents)
    assert path.is_file() and stored_dims(path) == 16


def test_an_oversized_vectors_file_is_not_read_and_the_turn_goes_on(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    with service_with(tmp_path, HashingEmbeddings(dims=16)) as service:
        path = tmp_path / "memory" / "users" / "u" / VECTORS_FILE
        with open(path, "wb") as sparse:  # no disk used: a hole
            sparse.truncate(size_bound(service.config.max_facts) + 1)
        block = service.memory_block(WHO, QUERY)
    assert block.error is None and "Likes green tea" in block.context
    assert any("over the bound" in r.getMessage() for r in caplog.records)


@pytest.mark.parametrize("dims", [384, 3072, 4096])
def test_the_size_bound_holds_a_full_memory_of_vectors(tmp_path: Path, dims: int) -> None:
    facts = 200
    vectors = {
        f"fact number {i}": [((i * 7 + j) % 13) / 13 - 0.5 for j in range(dims)]
        for i in range(facts)
    }
    path = tmp_path / VECTORS_FILE
    write_vectors(path, "E", vectors)
    size = path.stat().st_size
    assert size <= size_bound(facts, dims) <= size_bound(facts)
    assert size_bound(facts, dims) < 1.1 * size + 8192  # tight: a bound, not a guess
