"""An app's own message classes survive the outbox: a turn holding one is read back whole.

A message whose ``type`` LangChain does not know was written as it was and could not be
read back: after a crash the whole captured turn went to a ``.corrupt`` file nothing reads.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from langchain_core.messages import AIMessage, BaseMessage, ChatMessage, HumanMessage

from deerflow_memory.capture.messages import filter_messages_for_memory
from deerflow_memory.storage.outbox import PendingUpdate
from deerflow_memory.storage.outbox_file import FileOutbox
from deerflow_memory.update.encoding import MessageEncoder, decode_messages, encode_messages


class UINote(BaseMessage):
    """A note the app shows in its UI: no turn of the user's or the assistant's."""

    type: str = "ui_note"


class TaggedHuman(HumanMessage):
    """The app's own human message, with a field of its own."""

    type: str = "tagged_human"
    channel: str = "web"


def _turn() -> list[BaseMessage]:
    return [
        UINote("Welcome back!", id="n1"),
        TaggedHuman("I live in Oslo and I'm allergic to peanuts.", id="h1"),
        AIMessage("Noted: Oslo, no peanuts.", id="a1"),
    ]


def test_own_classes_are_read_back_as_the_langchain_class_they_derive_from() -> None:
    for encode in (encode_messages, MessageEncoder()):
        back = decode_messages(encode(_turn()))
        assert [type(m) for m in back] == [ChatMessage, HumanMessage, AIMessage]
        assert back[0].role == "ui_note"  # type: ignore[attr-defined]
        assert back[1].content == "I live in Oslo and I'm allergic to peanuts."
        assert back[1].channel == "web"  # type: ignore[attr-defined]
        # What memory reads of it is the same as before it was written.
        kept = [m.content for m in filter_messages_for_memory(back)]
        assert kept == [m.content for m in filter_messages_for_memory(_turn())]


def test_a_turn_with_an_own_class_is_adopted_after_its_process_stopped(tmp_path: Path) -> None:
    first = FileOutbox(tmp_path, encode_messages, decode_messages)
    first.record(
        PendingUpdate(thread_id="t", user_id="alice", agent_name=None, messages=tuple(_turn()))
    )
    first.close()  # a process that stopped with work left
    second = FileOutbox(tmp_path, encode_messages, decode_messages)
    (adopted,) = second.recover()
    assert "allergic to peanuts" in adopted.messages[1].content
    second.close()


def test_the_encoder_keeps_the_encoding_of_an_own_class_message_while_it_is_unchanged() -> None:
    # Its written form differs from its fields (type "human" or "chat", a role): the
    # cache compares the fields as dumped, so it is not encoded again on every turn.
    encoder = MessageEncoder()
    turn = _turn()
    first = encoder(turn)
    again = encoder(turn)
    assert all(a is b for a, b in zip(first, again, strict=True))
    turn[1].content = "I live in Bergen now."  # edited in place: encoded afresh
    edited = encoder(turn)
    assert edited[1] is not first[1] and edited[1]["data"]["content"] == "I live in Bergen now."
    assert edited[0] is first[0] and decode_messages(edited)[1].type == "human"


def test_message_classes_are_read_by_what_they_derive_from_on_every_turn() -> None:
    # The capture path looks a message's kind up by its class; a class met for the
    # first time and the same class met again must read the same.
    from langchain_core.messages import (
        AIMessageChunk,
        ChatMessageChunk,
        HumanMessageChunk,
        SystemMessage,
    )

    from deerflow_memory.capture.messages import (
        coerce_messages,
        filter_recent_messages,
        turn_kind,
    )

    class RelayedChat(ChatMessage):
        """A chat message of the app's own, relayed from another channel."""

    turn: list[BaseMessage] = [
        SystemMessage("be brief", id="s"),
        UINote("Welcome back!", id="n"),
        HumanMessageChunk(content="I moved to Bergen last month.", id="h1"),
        AIMessageChunk(content="Bergen, noted.", id="a1"),
        RelayedChat(content="My sister lives there too.", role="user", id="h2"),
        ChatMessageChunk(content="Nice to be near family.", role="assistant", id="a2"),
        TaggedHuman("ok thanks", id="h3"),  # an acknowledgement: dropped with its reply
        AIMessage("You're welcome.", id="a3"),
    ]
    expected_kinds = [None, None, HumanMessage, AIMessage, HumanMessage, AIMessage]
    expected_kinds += [HumanMessage, AIMessage]
    expected = [
        "I moved to Bergen last month.",
        "Bergen, noted.",
        "My sister lives there too.",
        "Nice to be near family.",
    ]
    for _ in range(2):
        assert [turn_kind(m) for m in turn] == expected_kinds
        assert coerce_messages(turn) is turn  # all messages: no copy
        assert [m.content for m in filter_messages_for_memory(turn)] == expected
        assert [m.content for m in filter_recent_messages(turn, 6)] == expected
        assert [m.content for m in filter_recent_messages(turn, 2)] == expected[-2:]
        mixed = [*turn, {"role": "user", "content": "And I cycle to work."}]
        assert coerce_messages(mixed)[-1].content == "And I cycle to work."  # type: ignore[union-attr]
        with_dict = coerce_messages(mixed)
        assert all(isinstance(m, BaseMessage) for m in with_dict)


def test_message_classes_made_on_the_fly_do_not_pile_up() -> None:
    import gc
    import weakref

    from deerflow_memory.capture import messages

    made = []
    for n in range(2000):
        cls = type(f"Turn{n}", (HumanMessage,), {})
        made.append(weakref.ref(cls))
        assert messages.turn_kind(cls(f"I like tea number {n}")) is HumanMessage
        del cls
    gc.collect()
    assert len(messages._KIND_OF_CLASS) <= messages._CLASSES_KEPT
    assert sum(ref() is not None for ref in made) <= messages._CLASSES_KEPT


class _Proxy:
    """An object proxy as wrapt's ObjectProxy is one: it says it is what it wraps."""

    def __init__(self, wrapped: BaseMessage) -> None:
        object.__setattr__(self, "_wrapped", wrapped)

    @property  # type: ignore[misc]
    def __class__(self) -> type:
        return type(object.__getattribute__(self, "_wrapped"))

    def __getattr__(self, name: str) -> object:
        return getattr(object.__getattribute__(self, "_wrapped"), name)


def test_a_proxied_message_is_read_as_the_message_it_wraps() -> None:
    from deerflow_memory.capture.messages import check_messages, filter_recent_messages, turn_kind
    from deerflow_memory.capture.signals import detect_correction

    plain: list[BaseMessage] = [
        HumanMessage("I'm vegetarian and I live in Leeds."),
        AIMessage("Noted: vegetarian, Leeds."),
        HumanMessage("No, that's wrong, you misunderstood me."),
    ]
    proxied: list[BaseMessage] = [_Proxy(m) if i != 1 else m for i, m in enumerate(plain)]  # type: ignore[misc]
    assert isinstance(proxied[0], HumanMessage)  # as isinstance reads it
    assert len(check_messages(proxied)) == 3
    assert [turn_kind(m) for m in proxied] == [HumanMessage, AIMessage, HumanMessage]
    assert [m.content for m in filter_messages_for_memory(proxied)] == [m.content for m in plain]
    assert [m.content for m in filter_recent_messages(proxied, 6)] == [m.content for m in plain]
    assert detect_correction(proxied) is True


class _Liar:
    """Not a message, with a __class__ that raises or is no class."""

    def __init__(self, cls: object) -> None:
        self._cls = cls

    @property  # type: ignore[misc]
    def __class__(self) -> object:
        if isinstance(self._cls, BaseException):
            raise self._cls
        return self._cls


@pytest.mark.parametrize("cls", [RuntimeError("boom"), "HumanMessage", None, 42])
def test_an_object_whose_class_lies_is_skipped_like_any_non_message(cls: object) -> None:
    from deerflow_memory.capture.messages import (
        filter_recent_messages,
        latest_user_text,
        turn_kind,
    )

    odd = _Liar(cls)
    turn = [HumanMessage("I live in Paris"), AIMessage("Noted."), odd]
    assert turn_kind(odd) is None  # type: ignore[arg-type]
    assert [m.content for m in filter_recent_messages(turn, 10)] == [  # type: ignore[arg-type]
        "I live in Paris",
        "Noted.",
    ]
    assert latest_user_text(turn) == "I live in Paris"  # type: ignore[arg-type]
