"""A dead letter says what its message ids are, so a client's "h:…" id is never taken for a key.

The outbox writes the ids as the client sent them (``"ids"``); the updater
writes message keys (``"keys"``). Only a letter written before letters said
so is read by guessing, as those versions wrote it.
"""

from __future__ import annotations

import json
from pathlib import Path

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage

from deerflow_memory import MemoryConfig, MemoryService
from deerflow_memory.identity import MemoryIdentity
from deerflow_memory.models import ExtractionWatermark
from deerflow_memory.storage.dead_letters import DeadLetter
from deerflow_memory.update.dead_letter import dead_letter_for, job_from_dead_letter
from deerflow_memory.update.encoding import encode_messages
from deerflow_memory.update.incremental import message_key, select_new_messages, with_keys
from deerflow_memory.update.queue import UpdateJob

# A client numbering its messages in the shape of our content hashes, again in every session.
HUMAN, AI = "h:" + "0" * 20, "h:" + "1" * 20


def session(text: str) -> list[BaseMessage]:
    return [HumanMessage(text, id=HUMAN), AIMessage("Noted.", id=AI)]


class Broken:
    def extract(self, request: object) -> object:
        raise RuntimeError("model down")


def test_outbox_letters_of_hash_shaped_client_ids_lose_no_later_session(tmp_path: Path) -> None:
    config = MemoryConfig(storage_path=tmp_path / "memory", debounce_seconds=3600)
    who = MemoryIdentity("eve", None, "t1")
    for text in ("I'm allergic to peanuts.", "I live in Oslo."):
        # The model is down: the outbox dead-letters the turn (ids as the client sent them).
        with MemoryService(config, extractor=Broken(), register_atexit=False) as failing:  # type: ignore[arg-type]
            failing.enqueue(who, session(text))
            assert [f.outcome for f in failing.flush(timeout=30).failed] == ["dead_letter"]
            [letter] = failing.dead_letters("eve")
            assert letter.message_ids == (HUMAN, AI) and letter.message_ids_are == "ids"
        with MemoryService(config, register_atexit=False) as memory:
            [retried] = memory.retry_dead_letters()
            assert retried.result.status.value == "saved", retried.result
            assert retried.removed and memory.dead_letters() == []
            facts = " ".join(f.content for f in memory.load(who).facts)
    assert "peanut" in facts and "Oslo" in facts, facts


def outbox_letter(text: str) -> DeadLetter:
    """The outbox's letter of one exchange sent with the hash-shaped client ids."""
    return DeadLetter.for_key(
        "t",
        "u",
        None,
        message_ids=(HUMAN, AI),
        message_ids_are="ids",
        messages=tuple(encode_messages(session(text))),
    )


def test_an_outbox_letter_keeps_hash_shaped_ids_as_client_ids() -> None:
    letter = outbox_letter("I live in Oslo.")
    job = job_from_dead_letter(letter)
    assert [m.id for m in job.messages] == [HUMAN, AI]
    earlier = ExtractionWatermark(
        thread_id="t", message_keys=tuple(map(message_key, session("I'm allergic to peanuts.")))
    )
    _, new = select_new_messages(with_keys(job.messages)[0], earlier, context_messages=0)
    assert [m.content for m in new] == ["I live in Oslo."]


def test_a_letter_from_before_the_marker_is_read_as_those_versions_wrote_it() -> None:
    said = [HumanMessage("I live in Oslo."), AIMessage("Noted.")]
    keys = tuple(with_keys(said)[1])  # bare hashes
    old = [m.model_copy(update={"id": k}) for m, k in zip(said, keys, strict=True)]
    stored = json.loads(
        DeadLetter.for_key(
            "t", "u", None, message_ids=keys, messages=tuple(encode_messages(old))
        ).to_json()
    )
    del stored["messageIdsAre"]  # as versions before the field wrote it
    letter = DeadLetter.model_validate(stored)
    assert letter.message_ids_are is None
    job = job_from_dead_letter(letter)
    assert tuple(message_key(m) for m in job.messages) == keys


def test_the_updaters_letter_says_it_holds_keys_and_survives_json() -> None:
    said = [HumanMessage("I live in Oslo."), AIMessage("Noted.", id=AI)]
    letter = dead_letter_for(UpdateJob("t", "u", None, tuple(said)), "Error: x", attempts=1)
    assert letter.message_ids_are == "keys"
    again = DeadLetter.model_validate_json(letter.to_json())
    assert again.message_ids_are == "keys"
    job = job_from_dead_letter(again)
    assert tuple(message_key(m) for m in job.messages) == letter.message_ids


def test_an_outbox_letter_merged_with_a_new_failure_becomes_a_letter_of_keys() -> None:
    outbox = outbox_letter("I'm allergic to peanuts.")
    later = [*session("I'm allergic to peanuts."), HumanMessage("I live in Oslo.")]
    merged = dead_letter_for(
        UpdateJob("t", "u", None, tuple(later)), "Error: x", attempts=1, existing=outbox
    )
    assert merged.message_ids_are == "keys"
    job = job_from_dead_letter(merged)
    assert [m.content for m in job.messages] == [
        "I'm allergic to peanuts.",
        "Noted.",
        "I live in Oslo.",
    ]  # each message once: the outbox's ids were read as keys before merging
    assert tuple(message_key(m) for m in job.messages) == merged.message_ids
    assert [m.id for m in job.messages[:2]] == [HUMAN, AI]
