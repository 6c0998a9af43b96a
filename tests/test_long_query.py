"""Ranking's input: a long request (a pasted document) is read at its two ends; a document
or query of the wrong type is a typed error."""

from __future__ import annotations

from pathlib import Path

import pytest
from langgraph.store.memory import InMemoryStore

from deerflow_memory import MemoryConfig, MemoryService
from deerflow_memory.embeddings import HashingEmbeddings
from deerflow_memory.errors import ConfigError, InvalidDocumentError, InvalidMessagesError
from deerflow_memory.identity import MemoryIdentity
from deerflow_memory.inject.retrieval import MAX_QUERY_BYTES, clip_query, select_relevant_facts
from deerflow_memory.inject.tokens import get_token_counter
from deerflow_memory.models import Fact, FactCategory, MemoryDocument

FACTS = tuple(
    Fact(id=f"f{i}", content=text, category=FactCategory.PREFERENCE)
    for i, text in enumerate(
        (
            "Likes green tea in the afternoon",
            "Keeps a vegetable garden behind the house",
            "Rides a road bicycle to work",
            "Collects old railway maps",
        )
    )
)
WHO = MemoryIdentity("u", None, "t")


def tiktoken_count(text: str) -> int:
    return get_token_counter("tiktoken").count(text)


PASTE = "lorem ipsum dolor sit amet " * 20_000  # 540,000 characters of pasted text


def test_a_short_query_is_read_whole_and_a_long_one_by_its_first_and_last_halves() -> None:
    assert clip_query("which tea?") == "which tea?"
    exact = "x" * MAX_QUERY_BYTES
    assert clip_query(exact) is exact
    long = "ask: bikes? " + PASTE + " and maps?"
    clipped = clip_query(long)
    assert len(clipped.encode()) == MAX_QUERY_BYTES + 1
    assert clipped.startswith("ask: bikes? ") and clipped.endswith(" and maps?")
    assert clip_query("abcdef", limit=4) == "ab ef"


@pytest.mark.parametrize("unit", ["字", "한", "\U0001f600", "é", "a\u0301"])
def test_the_clip_counts_bytes_so_no_script_makes_it_more_tokens_than_the_limit(unit: str) -> None:
    # A byte-level BPE token holds at least one byte: bytes bound the tokens an
    # embedding model is sent, whatever the script; cuts keep whole characters.
    long = unit * 50_000
    clipped = clip_query(long)
    assert len(clipped.encode()) <= MAX_QUERY_BYTES + 1
    assert len(clipped.encode()) > MAX_QUERY_BYTES - 8
    head, tail = clipped.split(" ")
    assert long.startswith(head) and long.endswith(tail)
    tokens = tiktoken_count(clipped)
    assert tokens <= MAX_QUERY_BYTES + 1
    assert clip_query(unit * 100) == unit * 100  # short in bytes: whole


def test_a_lone_surrogate_in_a_long_request_is_clipped_without_error() -> None:
    clipped = clip_query("\ud800" + "x" * 10_000 + "\udfff")
    assert len(clipped) <= MAX_QUERY_BYTES + 1


def test_the_question_after_a_paste_still_finds_its_fact() -> None:
    document = MemoryDocument(facts=FACTS)
    chosen = select_relevant_facts(document, PASTE + " Which railway maps are rare?")
    assert "f3" in {fact.id for fact in chosen.facts}
    chosen = select_relevant_facts(document, "Is green tea healthy? " + PASTE)
    assert "f0" in {fact.id for fact in chosen.facts}


class Recording(HashingEmbeddings):
    def __init__(self) -> None:
        super().__init__(dims=32)
        self.queries: list[int] = []

    def embed_query(self, text: str) -> list[float]:
        self.queries.append(len(text))
        return super().embed_query(text)


def test_the_embedder_never_receives_more_than_the_clipped_request(tmp_path: Path) -> None:
    embedder = Recording()
    config = MemoryConfig(injection_mode="relevant", storage_path=tmp_path)
    with MemoryService(config, embedder=embedder, register_atexit=False) as service:
        service.storage.save("u", None, MemoryDocument(facts=FACTS))
        block = service.memory_block(WHO, PASTE + " Do I like green tea?")
    assert block.error is None
    assert "green tea" in block.context
    assert embedder.queries and max(embedder.queries) <= MAX_QUERY_BYTES + 1


def test_a_store_vector_search_embeds_only_the_clipped_request() -> None:
    embedded: list[int] = []

    def embed(texts: list[str]) -> list[list[float]]:
        embedded.extend(len(text) for text in texts)
        return [[1.0, float(len(text) % 7), 0.5] for text in texts]

    store = InMemoryStore(index={"dims": 3, "embed": embed, "fields": ["content"]})
    config = MemoryConfig(storage="store", injection_mode="relevant")
    with MemoryService(config, register_atexit=False) as service:
        service.storage_for(store).save("u", None, MemoryDocument(facts=FACTS))
        embedded.clear()
        block = service.memory_block(WHO, PASTE + " Do I like green tea?", store)
    assert block.error is None
    assert embedded and max(embedded) <= MAX_QUERY_BYTES + 1


@pytest.mark.parametrize("document", [{"facts": []}, None, "memory.json"])
def test_a_document_that_is_not_a_memory_document_is_a_typed_error(document: object) -> None:
    with pytest.raises(InvalidDocumentError, match="must be a MemoryDocument"):
        select_relevant_facts(document, "tea?")  # type: ignore[arg-type]


@pytest.mark.parametrize("query", [5, None, b"tea?", ["tea?"]])
def test_a_query_that_is_not_text_is_a_typed_error(query: object) -> None:
    with pytest.raises(InvalidMessagesError, match="query must be a str"):
        select_relevant_facts(MemoryDocument(facts=FACTS), query)  # type: ignore[arg-type]


@pytest.mark.parametrize("limit", [0, 1, -5, 2.5, None, True])
def test_a_clip_limit_below_two_bytes_or_not_an_int_is_a_config_error(limit: object) -> None:
    with pytest.raises(ConfigError, match="limit must be an int"):
        clip_query("x" * 10_000, limit)  # type: ignore[arg-type]


@pytest.mark.parametrize("query", [None, 42, ["tea?"]])
def test_the_memory_block_of_a_query_that_is_not_text_is_a_typed_error(
    query: object, tmp_path: Path
) -> None:
    config = MemoryConfig(injection_mode="relevant", storage_path=tmp_path)
    with MemoryService(config, register_atexit=False) as service:
        with pytest.raises(InvalidMessagesError, match="query must be a str"):
            service.memory_block(WHO, query)  # type: ignore[arg-type]
        with pytest.raises(InvalidMessagesError, match="query must be a str"):
            clip_query(query)  # type: ignore[arg-type]
