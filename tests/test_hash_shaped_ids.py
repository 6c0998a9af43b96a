"""A client's message id shaped like our content hashes ("h:" + 20 hex) is a client id.

Only an id :func:`with_keys` gave an id-less message keys as the hash it
names, and only while the digest it carries is that message's own. A client
that reuses such an id for another message in a later session has that
message learned, and the queue's merge of two captures keeps both. Keys
already in watermarks, fences and dead letters keep matching.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage

from deerflow_memory.identity import MemoryIdentity
from deerflow_memory.models import ExtractionWatermark
from deerflow_memory.storage.dead_letters import DeadLetter
from deerflow_memory.update.dead_letter import dead_letter_for, job_from_dead_letter
from deerflow_memory.update.encoding import encode_messages
from deerflow_memory.update.incremental import (
    ExtractedKeys,
    message_key,
    select_new_messages,
    with_keys,
)
from deerflow_memory.update.queue import UpdateJob
from deerflow_memory.update.union import merge_messages

# Client ids of the shape our hashes have: all zeros, made-up hex, a real hash of other text.
SHAPED = ["h:" + "0" * 20, "h:0123456789abcdef0123", "h:4861c19010aea28b3527"]

# A thread of id-less messages and the keys versions before this one recorded for it.
THREAD = [
    HumanMessage("I live in Oslo."),
    AIMessage("Noted."),
    HumanMessage("I work as a nurse."),
    AIMessage("Noted."),
]
RECORDED = (
    "h:4861c19010aea28b3527",
    "h:d60729bf28e88ddda01c",
    "h:bcfa48274ade6a5a0ba4",
    "h:7f81cd097793914b1452",
)


def session(text: str, human_id: str, ai_id: str) -> list[BaseMessage]:
    return [HumanMessage(text, id=human_id), AIMessage("Noted.", id=ai_id)]


@pytest.mark.parametrize("ident", SHAPED)
def test_a_hash_shaped_id_reused_in_a_later_session_is_a_new_message(ident: str) -> None:
    first = session("I'm allergic to peanuts.", ident, ident[:-1] + "f")
    later = session("I live in Oslo.", ident, ident[:-1] + "f")
    mark = ExtractionWatermark(thread_id="t", message_keys=tuple(map(message_key, first)))
    assert message_key(first[0]) != message_key(later[0])
    _, new = select_new_messages(later, mark, context_messages=0)
    assert new == [later[0]]
    assert ExtractedKeys(mark.message_keys).edited(later[0])


@pytest.mark.parametrize("ident", SHAPED)
def test_the_merge_of_two_captures_keeps_both_messages_under_one_hash_shaped_id(
    ident: str,
) -> None:
    older, newer = (
        [HumanMessage("I'm allergic to peanuts.", id=ident)],
        [HumanMessage("I live in Oslo.", id=ident)],
    )
    merged = merge_messages(older, newer)
    assert [m.content for m in merged] == ["I'm allergic to peanuts.", "I live in Oslo."]


def test_a_client_reusing_hash_shaped_ids_has_every_turn_learned(
    learned: Callable[..., list[str]],
) -> None:
    human, ai = SHAPED[0], "h:" + "1" * 20  # ids restart per session
    sessions = [
        session(text, human, ai) for text in ("I'm allergic to peanuts.", "I live in Oslo.")
    ]
    facts = " ".join(learned(MemoryIdentity("eve", None, "t1"), *sessions))
    assert "peanut" in facts and "Oslo" in facts, facts


def test_id_less_messages_keep_the_keys_earlier_versions_recorded() -> None:
    keyed, keys = with_keys(THREAD)
    assert tuple(keys) == RECORDED
    assert tuple(message_key(m) for m in keyed) == RECORDED
    done = ExtractedKeys(RECORDED)
    assert all(done.has(m) and not done.edited(m) for m in keyed)
    _, new = select_new_messages(
        with_keys([*THREAD, HumanMessage("I have two kids.")])[0],
        ExtractionWatermark(thread_id="t", message_keys=RECORDED),
        context_messages=0,
    )
    assert [m.content for m in new] == ["I have two kids."]


def test_a_keyed_message_whose_text_changed_is_not_its_old_hash() -> None:
    keyed = with_keys(THREAD)[0][0]
    changed = keyed.model_copy(update={"content": "I live in Rome."})
    assert message_key(changed) != message_key(keyed)
    assert not ExtractedKeys(RECORDED).has(changed)
    # Nor is the digest alone enough: another message's keyed id on this text.
    borrowed = HumanMessage("I work as a nurse.", id=keyed.id)
    assert message_key(borrowed) != RECORDED[0]


def test_a_dead_letter_keeps_the_keys_of_its_id_less_messages(tmp_path: Path) -> None:
    letter = dead_letter_for(UpdateJob("t", "u", None, tuple(THREAD)), "Error: x", attempts=1)
    assert letter.message_ids == RECORDED
    job = job_from_dead_letter(letter)
    assert tuple(message_key(m) for m in with_keys(job.messages)[0]) == RECORDED


def test_a_dead_letter_written_with_bare_hash_ids_keeps_its_keys() -> None:
    old_style = [m.model_copy(update={"id": k}) for m, k in zip(THREAD, RECORDED, strict=True)]
    client = HumanMessage("I'm allergic to peanuts.", id=SHAPED[1])  # not one of its keys
    letter = DeadLetter.for_key(
        "t",
        "u",
        None,
        message_ids=(*RECORDED, message_key(client)),
        messages=tuple(encode_messages([*old_style, client])),
    )
    job = job_from_dead_letter(letter)
    assert tuple(message_key(m) for m in job.messages) == (*RECORDED, message_key(client))
    assert job.messages[-1].id == SHAPED[1]


def test_a_dead_letter_of_raw_ids_from_the_outbox_keeps_a_hash_shaped_id_a_client_id() -> None:
    raw = [HumanMessage("I'm allergic to peanuts.", id=SHAPED[0]), AIMessage("Noted.")]
    letter = DeadLetter.for_key(
        "t",
        "u",
        None,
        message_ids=(SHAPED[0], ""),  # what the outbox records: the ids as sent
        messages=tuple(encode_messages(raw)),
    )
    job = job_from_dead_letter(letter)
    assert job.messages[0].id == SHAPED[0]
    assert message_key(job.messages[0]) == message_key(raw[0]) != SHAPED[0]


def test_a_watermark_of_bare_hash_shaped_client_ids_never_hides_a_reused_id() -> None:
    # Versions before keys stopped trusting the "h:" shape recorded such client ids bare. A
    # bare key cannot tell a content hash from an old client id, nor which text that id had:
    # the message is sent again (once: its key then carries its digest), never taken as done.
    human, ai = SHAPED[0], "h:" + "1" * 20
    old = ExtractionWatermark(thread_id="t", message_keys=(human, ai))
    later = session("I live in Oslo.", human, ai)
    _, new = select_new_messages(later, old, context_messages=0)
    assert [m.content for m in new] == ["I live in Oslo.", "Noted."]
