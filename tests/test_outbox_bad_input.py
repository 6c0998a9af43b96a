"""A captured turn that cannot be serialized never jams the durable outbox (SPEC §15).

Message text with lone surrogates or NUL, and anything in ``additional_kwargs``
/ ``response_metadata`` (bytes, datetimes, UUIDs, Decimals, sets) is encoded
JSON-safe; an op that still cannot be written is left out of the outbox
without holding back the others; a bad ``messages`` argument is refused at once.
"""

from __future__ import annotations

import datetime as dt
import decimal
import json
import logging
import uuid
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any, TypedDict

import orjson
import pytest
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, messages_to_dict
from langgraph.graph import START, StateGraph

from deerflow_memory import InvalidMessagesError, MemoryConfig, MemoryService
from deerflow_memory.identity import MemoryIdentity
from deerflow_memory.nodes import create_capture_memory_node
from deerflow_memory.storage.factory import build_storage, open_storage
from deerflow_memory.storage.outbox import GroupCommitOutbox, PendingUpdate
from deerflow_memory.storage.outbox_file import FileOutbox, replay
from deerflow_memory.storage.outbox_store import StoreOutbox
from deerflow_memory.storage.store import StoreMemoryStorage
from deerflow_memory.update.durable import build_outbox, decode_messages, encode_messages
from deerflow_memory.update.union import merge_messages
from tests.pg import drop_prefix, postgres_dsn_or_skip


class Opaque:
    """An object no JSON writer knows, whose ``str`` fails too."""

    def __str__(self) -> str:
        raise RuntimeError("no text form")


def nested(depth: int) -> dict[str, Any]:
    root: dict[str, Any] = {}
    node = root
    for _ in range(depth):
        node["x"] = {}
        node = node["x"]
    return root


def hostile_turn(ident: str) -> list[BaseMessage]:
    """A turn carrying every kind of value that is not plain JSON text."""
    extras = {
        "attachment": b"\x89PNG\r\n\x1a\n\xff",
        "sent": dt.datetime(2026, 12, 1, 3, 0, tzinfo=dt.UTC),
        "price": decimal.Decimal("9.99"),
        "trace": uuid.UUID(int=7),
        "tags": {"a", "b"},
        "score": float("nan"),
        "big": 2**80,
        "odd": Opaque(),
        7: "an int key",
        "deep": nested(300),
    }
    return [
        HumanMessage(
            "I love \ud800 hiking\x00 in Norway.", id=f"h-{ident}", additional_kwargs=extras
        ),
        AIMessage("Noted.", id=f"a-{ident}", response_metadata={"created": dt.date(2026, 12, 1)}),
    ]


def test_encoded_messages_are_accepted_by_every_json_writer_whatever_they_carry() -> None:
    encoded = encode_messages(hostile_turn("1"))
    text = json.dumps(encoded, ensure_ascii=False)
    text.encode("utf-8")  # the file journal's encoding: no lone surrogate left
    orjson.dumps(encoded)  # SqliteStore's writer
    assert "\x00" not in text and "\\u0000" not in text  # Postgres jsonb refuses NUL
    human, ai = decode_messages(encoded)
    assert human.content == "I love \ufffd hiking\ufffd in Norway."
    assert human.id == "h-1" and ai.content == "Noted."
    extras = human.additional_kwargs
    assert extras["sent"] == "2026-12-01T03:00:00+00:00" and extras["price"] == "9.99"
    assert extras["trace"] == str(uuid.UUID(int=7)) and sorted(extras["tags"]) == ["a", "b"]
    assert extras["7"] == "an int key" and extras["big"] == str(2**80)


@pytest.fixture(params=["file", "sqlite", "postgres"])
def memory(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[MemoryService]:
    """A service with a one-hour debounce: captures wait in the outbox."""
    if request.param != "postgres":
        path = tmp_path / ("m.sqlite" if request.param == "sqlite" else "root")
        config = MemoryConfig(storage=request.param, storage_path=path, debounce_seconds=3600)
        with MemoryService(config, register_atexit=False) as service:
            yield service
        return
    dsn = postgres_dsn_or_skip()  # jsonb refuses NUL characters
    config = MemoryConfig(storage="postgres", storage_dsn=dsn, debounce_seconds=3600)
    prefix = ("deerflow_memory_test", uuid.uuid4().hex[:12])
    with (
        open_storage(config, namespace_prefix=prefix) as storage,
        MemoryService(config, storage=storage, register_atexit=False) as service,
    ):
        yield service
    drop_prefix(dsn, prefix)


def durable_records(memory: MemoryService) -> dict[str, PendingUpdate]:
    """What the next process would find in the outbox, by user."""
    assert memory.durable is not None
    outbox = memory.durable.outbox
    if isinstance(outbox, FileOutbox):  # a live journal is not adopted: read it as replay would
        live, _ = replay(outbox.journal.read_bytes().splitlines(), decode_messages)
        return {u.user_id: u for u in live.values()}
    other = build_outbox(memory.storage, memory.config)
    assert other is not None
    try:
        return {u.user_id: u for u in other.recover()}
    finally:
        other.close()


def test_a_turn_that_cannot_be_serialized_does_not_hold_back_later_captures(
    memory: MemoryService,
) -> None:
    memory.enqueue(MemoryIdentity("bad", None, "t1"), hostile_turn("1"))
    good = [HumanMessage("I work as a welder.", id="h-2"), AIMessage("Noted.", id="a-2")]
    memory.enqueue(MemoryIdentity("good", None, "t1"), good)
    assert memory.durable is not None
    assert memory.durable.outbox.sync(timeout=5)  # jammed before: never durable
    records = durable_records(memory)
    assert sorted(records) == ["bad", "good"]
    assert records["bad"].messages[0].content == "I love \ufffd hiking\ufffd in Norway."
    flushed = memory.flush(timeout=30)
    assert flushed.drained and [f.user_id for f in flushed.failed if f.user_id == "good"] == []
    assert memory.load(MemoryIdentity("good", None, "t1")).facts


def raw_encode(messages: Sequence[Any]) -> list[Any]:
    """The encoder before the fix: surrogates and unknown objects pass through."""
    return messages_to_dict(list(messages))


@pytest.fixture(params=["file", "sqlite"])
def raw_outbox(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[GroupCommitOutbox]:
    if request.param == "file":
        outbox: GroupCommitOutbox = FileOutbox(tmp_path, raw_encode, decode_messages)
        yield outbox
        outbox.close()
        return
    storage = build_storage(MemoryConfig(storage="sqlite", storage_path=tmp_path / "m.sqlite"))
    assert isinstance(storage, StoreMemoryStorage)
    outbox = StoreOutbox(storage, raw_encode, decode_messages, merge=merge_messages)
    yield outbox
    outbox.close()
    storage.close()


def record(user: str, text: str) -> PendingUpdate:
    messages = (HumanMessage(text, id=f"h-{user}"), AIMessage("Noted.", id=f"a-{user}"))
    return PendingUpdate("t1", user, None, messages, record_id=f"r-{user}")


def stored_users(outbox: GroupCommitOutbox) -> list[str]:
    if isinstance(outbox, FileOutbox):
        live, _ = replay(outbox.journal.read_bytes().splitlines(), decode_messages)
        return sorted(u.user_id for u in live.values())
    assert isinstance(outbox, StoreOutbox)
    return sorted(u.user_id for u in outbox.recover())


def test_an_op_that_can_never_be_written_is_left_out_once_and_the_others_are_stored(
    raw_outbox: GroupCommitOutbox, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.ERROR, logger="deerflow_memory.storage.outbox"):
        raw_outbox.record(record("before", "I am a baker."))
        raw_outbox.record(record("bad", "I love \ud800 hiking."))  # json and orjson refuse it
        raw_outbox.record(record("after", "I am a welder."))
        assert raw_outbox.sync(timeout=5)
        raw_outbox.record(record("later", "I am a potter."))
        assert raw_outbox.sync(timeout=5)
    assert stored_users(raw_outbox) == ["after", "before", "later"]
    errors = [r.getMessage() for r in caplog.records]
    assert len(errors) == 1 and "'bad'" in errors[0] and "left out" in errors[0]


class FlakyDisk(FileOutbox):
    """A journal whose first writes fail like a full disk."""

    failures = 3

    def _commit(self, batch: list[tuple[str, PendingUpdate]]) -> None:
        if self.failures:
            self.failures -= 1
            raise OSError(28, "No space left on device")
        super()._commit(batch)


def test_an_outbox_write_failing_on_io_is_retried_with_one_traceback_not_a_flood(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    outbox = FlakyDisk(tmp_path, encode_messages, decode_messages)
    try:
        with caplog.at_level(logging.WARNING, logger="deerflow_memory.storage.outbox"):
            outbox.record(record("alice", "I am a baker."))
            assert outbox.sync(timeout=10)
        assert stored_users(outbox) == ["alice"]
        levels = [r.levelname for r in caplog.records]
        assert levels == ["ERROR", "WARNING"]  # failed (with traceback), then works again
        assert caplog.records[0].exc_info is not None
    finally:
        outbox.close()


@pytest.mark.parametrize(
    "messages",
    [
        "I am a welder.",
        [{"role": "user", "content": "I am a welder."}, {"role": "ai", "content": "Noted."}],
        [("user", "I am a welder."), ("ai", "Noted.")],
        [HumanMessage("I am a welder."), "Noted."],
    ],
    ids=["a string", "dicts", "tuples", "a string among messages"],
)
def test_enqueue_refuses_messages_that_are_not_langchain_messages(
    tmp_path: Path, messages: Any
) -> None:
    config = MemoryConfig(storage_path=tmp_path, debounce_seconds=3600)
    with MemoryService(config, register_atexit=False) as memory:
        with pytest.raises(InvalidMessagesError, match="LangChain message"):
            memory.enqueue(MemoryIdentity("alice", None, "t1"), messages)
        assert memory.queue.pending_count == 0
        # Routed to a tenant's service, the turn is refused just the same.
        with pytest.raises(InvalidMessagesError, match="LangChain message"):
            memory.enqueue(MemoryIdentity("alice", None, "t1", "shop"), messages)
        assert memory.for_tenant("shop").queue.pending_count == 0


class RawState(TypedDict):
    messages: list[Any]  # no add_messages reducer: the state keeps what it is given


def test_the_capture_node_converts_raw_messages_as_add_messages_would(tmp_path: Path) -> None:
    config = MemoryConfig(storage_path=tmp_path, debounce_seconds=3600)
    with MemoryService(config, register_atexit=False) as memory:
        graph = StateGraph(RawState)
        graph.add_node("capture", create_capture_memory_node(memory))
        graph.add_edge(START, "capture")
        turn = [
            {"role": "user", "content": "I am a welder."},
            {"no": "role"},  # cannot be converted: left out, the run goes on
            ("ai", "Noted."),
        ]
        graph.compile().invoke({"messages": turn})
        (job,) = memory.queue._pending.values()
        assert [type(m) for m in job.job.messages] == [HumanMessage, AIMessage]
        assert job.job.messages[0].content == "I am a welder."
