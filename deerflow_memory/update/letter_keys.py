"""A dead letter's messages and the keys they carry, read as the updater keys them.

A letter says what its ids are (``message_ids_are``): the keys these letters
hold, or the ids as sent (the outbox's). Ids are never guessed to be keys,
except in a letter written before letters said so (read as it was written).
Pure functions: a retry runs a letter's messages by them, and a memory
delete fences the keys of the letters it removes.
"""

from __future__ import annotations

from typing import Any, Literal

from langchain_core.messages import BaseMessage

from deerflow_memory.capture.messages import filter_checked_messages
from deerflow_memory.storage.dead_letters import DeadLetter
from deerflow_memory.update.encoding import decode_messages, encode_messages
from deerflow_memory.update.incremental import restore_keyed_ids, with_keys

__all__ = ["as_letter_of_keys", "letter_keys", "messages_of"]


def as_letter_of_keys(
    letter: DeadLetter,
) -> tuple[list[str], list[dict[str, Any]], Literal["keys", "ids"] | None]:
    """``letter``'s message keys, its messages keyed as the updater keys them, and their kind.

    A letter of raw ids (the outbox's) or one written before letters said what
    their ids are is read as :func:`messages_of` reads it, so merged with new
    messages it becomes a letter of keys. One whose messages cannot be decoded
    stays as stored, with its kind.
    """
    if letter.message_ids_are == "keys":
        return list(letter.message_ids), list(letter.messages), "keys"
    try:
        messages = messages_of(letter)
    except (ValueError, KeyError, TypeError, AttributeError):
        return list(letter.message_ids), list(letter.messages), letter.message_ids_are
    keyed, keys = with_keys(filter_checked_messages(messages))
    return keys, encode_messages(keyed), "keys"


def letter_keys(letter: DeadLetter) -> list[str]:
    """The message keys of ``letter``, in order (its stored ids when it cannot be decoded)."""
    return as_letter_of_keys(letter)[0]


def messages_of(letter: DeadLetter) -> list[BaseMessage]:
    """``letter``'s messages with the ids they key by (raises what decoding raises)."""
    messages = decode_messages(list(letter.messages))
    if letter.message_ids_are is None:
        # Written before letters said what their ids are: an old letter of keys holds
        # bare "h:" ids, given the form with_keys gives now so they keep their keys.
        return restore_keyed_ids(messages, letter.message_ids)
    return list(messages)
