"""A malformed model answer is never an empty update: it is asked again, then a dead letter.

attack20 F2: answers that held a ``{}`` somewhere (prose before the real JSON,
a single-quoted or commented object holding ``"user": {}``), the stored
document's own shape (``facts``) or facts without ``content`` were read as
"nothing to learn": the thread's watermark moved past the user's words with
no retry and no dead letter. They are malformed now: asked for once more,
then a dead letter whose retry learns the words.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest
from langchain_core.messages import AIMessage, HumanMessage

from deerflow_memory import MemoryConfig, MemoryIdentity, MemoryService
from deerflow_memory.errors import UpdateParseError
from deerflow_memory.models import MemoryDocument
from deerflow_memory.update.prompt import parse_update
from tests.openai_server import OpenAIServer, Reply, openai_server  # noqa: F401  (fixture)

FACT = {"content": "Is allergic to peanuts", "category": "context", "confidence": 0.95}
GOOD = json.dumps({"newFacts": [FACT]})
TURN = [HumanMessage("I'm allergic to peanuts", id="m1"), AIMessage("Noted, no peanuts.", id="m2")]

# Answers that held the user's fact but were read as an empty update (attack20 F2).
MALFORMED = {
    "single-quoted-with-empty-user": (
        "{'user': {}, 'newFacts': [{'content': 'Is allergic to peanuts', "
        "'category': 'context', 'confidence': 0.95}]}"
    ),
    "comment-with-empty-history": (
        '{\n  // the update\n  "history": {},\n  "newFacts": [' + json.dumps(FACT) + "]\n}"
    ),
    "document-shape": json.dumps(
        {"user": {"workContext": {"summary": "", "shouldUpdate": False}}, "facts": [FACT]}
    ),
    "every-item-misnamed": json.dumps(
        {"newFacts": [{"text": "Is allergic to peanuts", "confidence": 0.95}]}
    ),
    "null-known-key-and-unknown-list": json.dumps({"newFacts": None, "facts": [FACT]}),
    "python-none-with-empty-user": (
        '{"newFacts": [{"content": "Is allergic to peanuts", "confidence": 0.95, '
        '"expiresAt": None}], "user": {}}'
    ),
    "two-different-objects": '{"newFacts": []}\n' + GOOD,
    "example-then-answer-in-prose": f'Format: {{"newFacts": []}}. Answer: {GOOD}',
    "unknown-section-only": json.dumps(
        {"user": {"job": {"summary": "Nurse", "shouldUpdate": True}}}
    ),
    # a wrapper beside another object is no wrapper; the document's shape with a comment neither
    "wrapper-beside-another-object": json.dumps(
        {"result": {"newFacts": [FACT]}, "meta": {"newFacts": []}}
    ),
    "two-wrapped-updates-with-a-note": json.dumps(
        {"a": {"newFacts": [FACT]}, "b": {"newFacts": []}, "note": "ok"}
    ),
    "document-shape-with-a-note": json.dumps({"facts": [FACT], "note": "ok"}),
    "document-shape-with-reasoning": json.dumps(
        {"newFacts": [], "facts": [FACT], "reasoning": {"why": "x"}}
    ),
    "four-wrappers-deep": json.dumps({"a": {"b": {"c": {"d": {"newFacts": [FACT]}}}}}),
}
PROSE_EMPTY_FIRST = f"Current memory is {{}} (empty). Update:\n```json\n{GOOD}\n```"


@pytest.mark.parametrize("answer", MALFORMED.values(), ids=MALFORMED.keys())
def test_a_malformed_answer_is_a_parse_error_not_an_empty_update(answer: str) -> None:
    with pytest.raises(UpdateParseError):
        parse_update(answer)


@pytest.mark.parametrize(
    "answer",
    [
        PROSE_EMPTY_FIRST,
        f"Current memory is {{}} (empty). Update: {GOOD}",
        f"```json\n{GOOD}\n```\nNote: {{}}",
        f"```json\n{GOOD}\n// done\n```",
        '{"newFacts": [' + json.dumps(FACT) + '], "notes": "from the first message"}',
        '{"memory_update": {"user": {}, "newFacts": [' + json.dumps(FACT) + "]}}",
        f"[{GOOD}]",
        f"{GOOD}\n\n{GOOD}",  # the same object twice is one answer
        # attack 21 F8: a wrapper with a comment beside it, three wrappers deep
        json.dumps({"result": {"newFacts": [FACT]}, "note": "ok"}),
        json.dumps({"result": {"newFacts": [FACT]}, "reasoning": {"why": "a need"}, "n": 1}),
        json.dumps({"a": {"b": {"c": {"newFacts": [FACT]}}}}),
        json.dumps({"output": {"update": {"newFacts": [FACT]}, "notes": ["a need"]}}),
    ],
    ids=[
        "prose-empty-object-then-fence",
        "prose-empty-object-then-object",
        "fence-then-prose-object",
        "fence-with-trailing-comment",
        "unknown-key-beside-a-fact",
        "wrapper",
        "list-of-one",
        "same-object-twice",
        "wrapper-and-a-note",
        "wrapper-and-reasoning-object",
        "three-wrappers-deep",
        "nested-wrapper-and-notes-list",
    ],
)
def test_the_one_real_object_of_a_tolerable_answer_is_read(answer: str) -> None:
    assert [f.content for f in parse_update(answer).new_facts] == ["Is allergic to peanuts"]


@pytest.mark.parametrize(
    "answer",
    [
        "{}",
        '```json\n{"newFacts": [], "factsToRemove": []}\n```',
        json.dumps(
            {
                "user": {"workContext": {"summary": "", "shouldUpdate": False}},
                "history": {},
                "newFacts": [],
            }
        ),
        '{"newFacts": [], "facts": [], "notes": ""}',
        'Nothing new here. {"result": {}}',
        '{"newFacts": [], "reasoning": "small talk, nothing about the user"}',
        json.dumps({"newFacts": [], "reasoning": {"why": "small talk"}}),
        json.dumps({"newFacts": [], "Notes": ["greeting only"], "analysis": {"about_user": False}}),
    ],
    ids=[
        "empty",
        "fenced-empty-lists",
        "every-section-unchanged",
        "empty-unknowns",
        "wrapped",
        "a-comment-beside-empty-lists",
        "a-reasoning-object-beside-empty-lists",
        "commentary-lists-and-objects",
    ],
)
def test_an_answer_explicitly_empty_in_the_update_shape_is_nothing_to_learn(answer: str) -> None:
    update = parse_update(answer)
    assert update.is_noop() and update.rejected == ()


def test_a_rejected_part_beside_a_usable_one_still_leaves_the_rest_standing() -> None:
    update = parse_update(
        json.dumps({"newFacts": [FACT, {"text": "Has a cat"}], "user": {"workContext": "x"}})
    )
    assert [f.content for f in update.new_facts] == ["Is allergic to peanuts"]
    assert [r.item for r in update.rejected] == ["newFacts[1]", "user.workContext"]


def test_a_broken_object_naming_an_update_key_is_never_skipped_for_what_is_inside() -> None:
    with pytest.raises(UpdateParseError, match="truncated or invalid JSON"):
        parse_update("Here: {'newFacts': [" + json.dumps(FACT) + "], 'user': {}} and {}")


# --- end to end: the turn is asked for again, then kept as a dead letter -----------------


def _service(tmp_path: Path, server: OpenAIServer, **settings: Any) -> MemoryService:
    config = MemoryConfig(
        storage_path=tmp_path / "memory",
        debounce_seconds=0,
        update_gate=False,
        fact_confidence_threshold=0.5,
        **settings,
    )
    return MemoryService(config, model=server.chat_model(timeout=5), register_atexit=False)


def _marked(document: MemoryDocument) -> list[str]:
    return [w.thread_id for w in document.extraction_watermarks]


@pytest.mark.parametrize(
    "answer",
    [MALFORMED[k] for k in ("single-quoted-with-empty-user", "comment-with-empty-history")]
    + [MALFORMED[k] for k in ("document-shape", "every-item-misnamed")],
    ids=["single-quoted", "comment", "document-shape", "every-item-misnamed"],
)
def test_a_malformed_answer_is_asked_again_then_dead_lettered_and_the_thread_is_not_marked(
    tmp_path: Path,
    openai_server: OpenAIServer,  # noqa: F811
    answer: str,
) -> None:
    openai_server.reply(Reply(answer), Reply(answer), Reply(GOOD))
    who = MemoryIdentity("alice", None, "t1")
    with _service(tmp_path, openai_server) as memory:
        memory.enqueue(who, TURN)
        memory.flush(20)
        deadline = time.monotonic() + 20
        while not memory.dead_letters() and time.monotonic() < deadline:
            time.sleep(0.02)
        letters = memory.dead_letters()
        assert [x.thread_id for x in letters] == ["t1"]
        assert "UpdateParseError" in letters[0].error
        assert openai_server.request_count == 2  # asked once more, then no more calls
        document = memory.load(who)
        assert document.facts == () and _marked(document) == []
        # The words were kept: the letter retried against a sane answer is learned.
        assert [r.removed for r in memory.retry_dead_letters()] == [True]
        document = memory.load(who)
        assert [f.content for f in document.facts] == ["Is allergic to peanuts"]
        assert _marked(document) == ["t1"]


def test_prose_holding_an_empty_object_before_the_fenced_answer_is_learned_at_once(
    tmp_path: Path,
    openai_server: OpenAIServer,  # noqa: F811
) -> None:
    openai_server.reply(Reply(PROSE_EMPTY_FIRST))
    who = MemoryIdentity("alice", None, "t1")
    with _service(tmp_path, openai_server) as memory:
        memory.enqueue(who, TURN)
        assert memory.flush(20)
        document = memory.load(who)
        assert [f.content for f in document.facts] == ["Is allergic to peanuts"]
        assert memory.dead_letters() == [] and openai_server.request_count == 1
