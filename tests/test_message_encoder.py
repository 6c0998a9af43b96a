"""MessageEncoder: the outbox's encode_messages that encodes each live message object once."""

from __future__ import annotations

import gc
import json

import pytest
from langchain_core.messages import AIMessage, HumanMessage, ToolMessage

from deerflow_memory.update import encoding
from deerflow_memory.update.encoding import MessageEncoder, encode_messages


def _thread() -> list:
    return [
        HumanMessage("I'm allergic to peanuts", id="h1", additional_kwargs={"when": b"\x00\xff"}),
        AIMessage("", id="a1", tool_calls=[{"name": "s", "args": {"q": 1}, "id": "c1"}]),
        ToolMessage("results \ud800", tool_call_id="c1", id="t1"),
        AIMessage("Noted: no peanuts.", id="a2"),
    ]


def test_it_gives_what_encode_messages_gives() -> None:
    messages = _thread()
    encoder = MessageEncoder()
    assert encoder(messages) == encode_messages(messages)
    assert encoder(messages) == encode_messages(messages)  # from the cache


def test_a_message_met_again_is_not_encoded_again(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str | None] = []
    original = encoding.message_to_dict

    def counting(message):  # type: ignore[no-untyped-def]
        calls.append(message.id)
        return original(message)

    messages = _thread()
    grown = [*messages, HumanMessage("And I don't eat seafood", id="h2")]
    expected = encode_messages(grown)
    monkeypatch.setattr(encoding, "message_to_dict", counting)
    encoder = MessageEncoder()
    encoder(messages)
    assert encoder(grown) == expected
    assert calls == ["h1", "a1", "t1", "a2", "h2"]  # the second call encoded only the new one


def test_a_replaced_content_or_a_late_id_is_encoded_afresh() -> None:
    message = HumanMessage("I live in Berlin")
    encoder = MessageEncoder()
    encoder([message])
    message.id = "given-later"  # add_messages gives ids in place
    assert encoder([message])[0]["data"]["id"] == "given-later"
    message.content = "I live in Munich now"
    assert encoder([message])[0]["data"]["content"] == "I live in Munich now"


def test_it_keeps_no_message_alive_and_stays_bounded() -> None:
    encoder = MessageEncoder(max_entries=3)
    messages = [HumanMessage(f"fact {i}", id=f"m{i}") for i in range(10)]
    encoder(messages)
    assert len(encoder._entries) <= 3
    del messages
    gc.collect()
    encoder([HumanMessage("later", id="later")])  # the next insert purges what went
    assert [e.fields["id"] for e in encoder._entries.values()] == ["later"]


def test_the_file_outbox_writes_a_message_met_again_from_its_cached_text(
    tmp_path, monkeypatch: pytest.MonkeyPatch
) -> None:  # type: ignore[no-untyped-def]
    import json

    from deerflow_memory.config import MemoryConfig
    from deerflow_memory.storage.file import FileMemoryStorage
    from deerflow_memory.storage.outbox import PendingUpdate
    from deerflow_memory.update.durable import build_outbox

    outbox = build_outbox(FileMemoryStorage(tmp_path), MemoryConfig(storage_path=tmp_path))
    update = PendingUpdate(thread_id="t", user_id="u", agent_name=None, messages=tuple(_thread()))
    first = outbox._line("put", update)  # type: ignore[union-attr]
    dumped: list[object] = []
    real = json.dumps

    def spy(value, *args, **kwargs):  # type: ignore[no-untyped-def]
        dumped.append(value)
        return real(value, *args, **kwargs)

    monkeypatch.setattr(json, "dumps", spy)
    again = outbox._line("put", update)  # type: ignore[union-attr]
    assert json.loads(again) == json.loads(first)
    # Only the record around the messages is dumped; the messages come from their texts.
    assert dumped and all("messages" not in str(value) for value in dumped)
    outbox.close()  # type: ignore[union-attr]


def test_its_texts_are_the_json_of_its_values() -> None:
    import json

    messages = _thread()
    encoder = MessageEncoder()
    texts = encoder.json_texts(messages)
    assert [json.loads(t) for t in texts] == encode_messages(messages)
    assert encoder.json_texts(messages) == texts


@pytest.mark.parametrize("op", ["put", "dead", "done"])
def test_a_journal_line_joined_from_texts_reads_back_as_the_dumped_one(tmp_path, op) -> None:  # type: ignore[no-untyped-def]
    import json

    from deerflow_memory.storage.outbox import PendingUpdate
    from deerflow_memory.storage.outbox_file import FileOutbox
    from deerflow_memory.update.encoding import decode_messages

    encoder = MessageEncoder()
    joined = FileOutbox(tmp_path / "a", encoder, decode_messages, encode_json=encoder.json_texts)
    dumped = FileOutbox(tmp_path / "b", encode_messages, decode_messages)
    update = PendingUpdate(
        thread_id='t "1"}}',
        user_id="u\\",
        agent_name=None,
        messages=tuple(_thread()),
        correction=True,
        due_at=1.5,
        record_id="r1",
        error="boom" if op == "dead" else None,
        captured_at=1.25,
    )
    line = joined._line(op, update)
    assert line.endswith(b"\n") and line.count(b"\n") == 1
    assert json.loads(line) == json.loads(dumped._line(op, update))
    joined.close()
    dumped.close()


def test_a_message_edited_in_place_is_encoded_as_it_is_now() -> None:
    # The journal must hold what the message says at each capture: a crash after
    # the second capture must not bring back the first version.
    human = HumanMessage([{"type": "text", "text": "I love jazz."}], id="h1")
    reply = AIMessage("Noted.", id="a1")
    encoder = MessageEncoder()
    encoder.json_texts([human, reply])
    human.content.append({"type": "text", "text": "I'm allergic to peanuts."})  # type: ignore[union-attr]
    reply.name = "bob"
    reply.additional_kwargs["note"] = "edited"
    assert encoder([human, reply]) == encode_messages([human, reply])
    assert "peanuts" in encoder.json_texts([human])[0]


def test_a_collection_while_it_inserts_does_not_deadlock() -> None:
    # The weak reference's callback may run inside the insert (a garbage collection
    # there): it must not wait for the lock the insert holds.
    import threading

    encoder = MessageEncoder()
    doomed = [HumanMessage("gone soon", id="g")]
    encoder(doomed)

    def collect_with_the_lock_held() -> None:
        with encoder._lock:
            doomed.clear()
            gc.collect()  # the callback runs here

    worker = threading.Thread(target=collect_with_the_lock_held, daemon=True)
    worker.start()
    worker.join(30)  # a hang guard
    assert not worker.is_alive(), "the callback waited for the lock its own thread holds"
    encoder([HumanMessage("next", id="n")])
    assert [e.fields["id"] for e in encoder._entries.values()] == ["n"]


class Uncomparable:
    """A value whose ``==`` raises, like an array or a tensor an app keeps on a message."""

    def __init__(self, value: int) -> None:
        self.value = value

    def __eq__(self, other: object) -> bool:
        raise RuntimeError("the truth value of this comparison is ambiguous")

    __hash__ = object.__hash__

    def __repr__(self) -> str:
        return f"Uncomparable({self.value})"


@pytest.mark.parametrize("error", [RuntimeError, ValueError])
def test_a_field_whose_comparison_raises_is_encoded_afresh_not_an_error(
    error: type[Exception], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(
        Uncomparable, "__eq__", lambda self, other: (_ for _ in ()).throw(error("ambiguous"))
    )
    encoder = MessageEncoder()
    kept = {"emb": Uncomparable(1)}
    message = HumanMessage("I work as a welder.", id="h1", additional_kwargs=kept)
    encoder([message])
    message.additional_kwargs = {"emb": Uncomparable(2)}  # the app replaces the field
    assert encoder([message]) == encode_messages([message])  # what the uncached encoder writes
    assert "Uncomparable(2)" in json.dumps(encoder([message]))


class Counter:
    """An app's own mutable object kept on a message (written as its text)."""

    def __init__(self) -> None:
        self.n = 0

    def __str__(self) -> str:
        return f"counter {self.n}"


def test_a_value_edited_in_place_that_the_dump_shares_is_never_stale() -> None:
    # model_dump hands a bytearray or an app's object over as it is: compared with
    # itself, an edit in place would not show, so such a message is not cached.
    raw, counter = bytearray(b"abc"), Counter()
    message = HumanMessage("hi", id="h", additional_kwargs={"raw": raw, "counter": counter})
    encoder = MessageEncoder()
    encoder([message])
    raw.extend(b"XYZ")
    counter.n = 7
    assert encoder([message]) == encode_messages([message])
    assert encoder([message])[0]["data"]["additional_kwargs"]["counter"] == "counter 7"
