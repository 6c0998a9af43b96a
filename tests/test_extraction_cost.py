"""Incremental, bounded, gated, retried extraction against the local OpenAI-compatible server.

Every test talks to a real ``ChatOpenAI`` over HTTP; retry sleeps are recorded,
not slept, through an injected :class:`RetryPolicy`.
"""

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from typing import Any

import pytest
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage

from deerflow_memory.capture.gate import burst_needs_model, is_self_referential
from deerflow_memory.config import MemoryConfig
from deerflow_memory.identity import MemoryIdentity
from deerflow_memory.models import MemoryDocument
from deerflow_memory.service import MemoryService
from deerflow_memory.storage.dead_letters import DeadLetter
from deerflow_memory.storage.file import FileMemoryStorage
from deerflow_memory.update.incremental import (
    MAX_KEYS_PER_THREAD,
    MAX_THREADS,
    advance_watermark,
    key_id,
    plan_chunks,
    render_message,
)
from deerflow_memory.update.queue import UpdateJob
from deerflow_memory.update.retry import RetryPolicy, retry_after_seconds, transient_delay
from deerflow_memory.update.updater import MemoryUpdater, UpdateStatus
from tests.gate_turns import OTHER, SELF, TABLE
from tests.openai_server import OpenAIServer, Reply, openai_server  # noqa: F401

pytestmark = pytest.mark.usefixtures("openai_server")

_USER_LINE = re.compile(r'^User: "(.*)"$', re.MULTILINE)


def facts_answer(body: dict[str, Any]) -> str:
    """A scripted model: one fact per user line of the request's <conversation> block."""
    prompt = body["messages"][-1]["content"]
    conversation = prompt.split("<conversation>", 1)[1].split("</conversation>", 1)[0]
    lines = [json.loads(f'"{m}"') for m in _USER_LINE.findall(conversation)]
    facts = [{"content": f"Said: {line[:60]}", "confidence": 0.9} for line in lines]
    return json.dumps({"newFacts": facts})


def sent_user_lines(server: OpenAIServer) -> list[str]:
    lines = []
    for body in server.requests:
        prompt = body["messages"][-1]["content"]
        conversation = prompt.split("<conversation>", 1)[1].split("</conversation>", 1)[0]
        lines += [json.loads(f'"{m}"') for m in _USER_LINE.findall(conversation)]
    return lines


class Sleeps:
    def __init__(self) -> None:
        self.waits: list[float] = []

    def __call__(self, seconds: float) -> None:
        self.waits.append(seconds)


def policy(sleeps: Sleeps, **kw: Any) -> RetryPolicy:
    return RetryPolicy(sleep=sleeps, random=lambda: 0.5, **kw)


def turn(i: int, text: str) -> list[BaseMessage]:
    return [HumanMessage(text, id=f"h{i}"), AIMessage(f"Okay ({i}).", id=f"a{i}")]


def service(
    tmp_path: Path, server: OpenAIServer, sleeps: Sleeps | None = None, **config: Any
) -> MemoryService:
    defaults: dict[str, Any] = {
        "debounce_seconds": 0,
        "fact_confidence_threshold": 0.5,
        "max_facts": 1000,
        "outbox": False,
    }
    settings = MemoryConfig(storage_path=tmp_path / "memory", **{**defaults, **config})
    memory = MemoryService(settings, model=server.chat_model(), register_atexit=False)
    memory.retry_policy = policy(sleeps or Sleeps(), max_attempts=3, requeue_base_seconds=0.01)
    # the updater's extractor gets the same recorded sleeps
    memory.updater.extractor.retry = memory.retry_policy  # type: ignore[attr-defined]
    return memory


WHO = MemoryIdentity("alice", None, "t1")


def dead_letters_within(memory: MemoryService, seconds: float) -> list[DeadLetter]:
    """The memory's dead letters once there are any, or after ``seconds`` (a hang guard)."""
    deadline = time.monotonic() + seconds
    while not memory.dead_letters() and time.monotonic() < deadline:
        time.sleep(0.02)
    return memory.dead_letters()


def assert_a_retry_applies_the_letter(memory: MemoryService, server: OpenAIServer) -> None:
    """Once the model answers, retrying the one dead letter learns its allergy and removes it."""
    server.responder = lambda body: Reply(GOOD)
    assert [r.removed for r in memory.retry_dead_letters()] == [True]
    assert [f.content for f in memory.load(WHO).facts] == ["Is allergic to peanuts"]


# --- incremental ---------------------------------------------------------------------------


def test_each_user_turn_is_sent_in_about_one_request(
    tmp_path: Path,
    openai_server: OpenAIServer,  # noqa: F811
) -> None:
    openai_server.responder = facts_answer
    history: list[BaseMessage] = []
    with service(tmp_path, openai_server) as memory:
        for i in range(20):
            history += turn(i, f"I have hobby number {i}.")
            if i % 5 == 4:
                memory.enqueue(WHO, history)
                assert memory.flush(timeout=30)
        facts = memory.load(WHO).facts
    sent = sent_user_lines(openai_server)
    # Each turn once, plus at most one already-processed context message per request.
    assert sorted(set(sent)) == sorted(f"I have hobby number {i}." for i in range(20))
    assert len(sent) == 20
    assert len(openai_server.requests) == 4
    assert len(facts) == 20


def test_a_restart_mid_thread_does_not_resend_extracted_turns(
    tmp_path: Path,
    openai_server: OpenAIServer,  # noqa: F811
) -> None:
    openai_server.responder = facts_answer
    history = turn(0, "I live in Oslo.") + turn(1, "My dog is called Rex.")
    with service(tmp_path, openai_server) as memory:
        memory.enqueue(WHO, history)
        assert memory.flush(timeout=30)
    history += turn(2, "I'm learning the cello.")
    with service(tmp_path, openai_server) as restarted:
        restarted.enqueue(WHO, history)
        assert restarted.flush(timeout=30)
        assert len(restarted.load(WHO).facts) == 3
    second = openai_server.requests[1]["messages"][-1]["content"]
    conversation = second.split("<conversation>")[1]
    assert "cello" in conversation and "Oslo" not in conversation and "Rex" not in conversation


def test_a_burst_larger_than_the_budget_becomes_several_calls_and_every_fact_lands(
    tmp_path: Path,
    openai_server: OpenAIServer,  # noqa: F811
) -> None:
    openai_server.responder = facts_answer
    history: list[BaseMessage] = []
    for i in range(40):
        history += turn(i, f"I once visited city number {i} and " + "it was lovely. " * 20)
    budget = 400
    with service(tmp_path, openai_server, update_conversation_max_tokens=budget) as memory:
        memory.enqueue(WHO, history)
        assert memory.flush(timeout=60)
        facts = memory.load(WHO).facts
        count = memory.counter.count  # the budget is counted with the configured counter
    assert len(openai_server.requests) > 5
    assert len(facts) == 40
    for body in openai_server.requests:
        prompt = body["messages"][-1]["content"]
        conversation = prompt.split("<conversation>\n", 1)[1].split("\n</conversation>", 1)[0]
        assert count(conversation) <= budget


def test_a_message_longer_than_the_budget_is_cut_into_parts_not_dropped() -> None:
    long = HumanMessage("我喜欢爬山。" * 400, id="long")
    chunks = plan_chunks([HumanMessage("hi", id="a"), long], 200)
    assert len(chunks) > 2
    assert all(c.tokens <= 200 for c in chunks)
    text = "".join(str(m.content).split("] ", 1)[1] for c in chunks[1:] for m in c.messages)
    assert text == "我喜欢爬山。" * 400
    assert [key_id(k) for k in chunks[-1].completes] == ["long"] and chunks[1].completes == ()


def test_the_watermark_is_bounded() -> None:
    document = MemoryDocument()
    for t in range(MAX_THREADS + 20):
        document = advance_watermark(
            document, f"t{t}", [f"m{i}" for i in range(40)], f"2026-01-01T00:{t:04d}"
        )
    marks = document.extraction_watermarks
    whole, compact = marks[-MAX_THREADS:], marks[:-MAX_THREADS]
    assert all(len(w.message_keys) == MAX_KEYS_PER_THREAD for w in whole)
    assert marks[-1].thread_id == f"t{MAX_THREADS + 19}"
    # The least recently updated keep a compact mark: their newest keys, still a boundary.
    assert [w.thread_id for w in compact] == [f"t{t}" for t in range(20)]
    assert all(w.truncated and w.message_keys == ("m38", "m39") for w in compact)


def test_the_summarization_flush_still_extracts_messages_about_to_be_removed(
    tmp_path: Path,
    openai_server: OpenAIServer,  # noqa: F811
) -> None:
    openai_server.responder = facts_answer
    early = turn(0, "I am vegetarian.") + turn(1, "I work at a bakery.")
    with service(tmp_path, openai_server, debounce_seconds=3600) as memory:
        memory.enqueue(WHO, early)  # debounced: not run yet
        memory.enqueue(WHO, early, now=True)  # the hook: these leave the history next
        later = [m for m in early[2:]] + turn(2, "I have two cats.")
        memory.enqueue(WHO, later)  # history after summarization: early turns gone
        assert memory.flush(timeout=30)
        contents = {f.content for f in memory.load(WHO).facts}
    assert {"Said: I am vegetarian.", "Said: I work at a bakery.", "Said: I have two cats."} <= (
        contents
    )


# --- the gate ------------------------------------------------------------------------------


def test_a_burst_with_nothing_about_the_user_makes_no_request(
    tmp_path: Path,
    openai_server: OpenAIServer,  # noqa: F811
) -> None:
    history = turn(0, "What is the capital of France?") + turn(1, "帮我写一首关于秋天的诗。")
    with service(tmp_path, openai_server) as memory:
        memory.enqueue(WHO, history)
        assert memory.flush(timeout=30)
        assert openai_server.request_count == 0
        history += turn(2, "By the way, I'm allergic to peanuts.")
        openai_server.responder = facts_answer
        memory.enqueue(WHO, history)
        assert memory.flush(timeout=30)
    assert sent_user_lines(openai_server) == ["By the way, I'm allergic to peanuts."]


def test_the_gate_never_skips_a_self_statement_of_the_table() -> None:
    assert len(TABLE) >= 100 and len(SELF) * 2 >= len(TABLE) - 4
    missed = [text for text in SELF if not is_self_referential(text)]
    assert missed == []
    skipped = [text for text in OTHER if not is_self_referential(text)]
    assert len(skipped) / len(OTHER) >= 0.8


def test_an_answer_to_the_assistants_question_about_the_user_is_kept() -> None:
    burst = [HumanMessage("Yes."), AIMessage("Nice.")]
    asked = [AIMessage("Happy to help. Do you use Rust for backend work?")]
    assert burst_needs_model(burst, context=asked)
    assert not burst_needs_model(burst, context=[AIMessage("Paris is the capital.")])
    assert burst_needs_model(burst, correction=True)


# --- retries and dead letters --------------------------------------------------------------

GOOD = json.dumps({"newFacts": [{"content": "Is allergic to peanuts", "confidence": 0.95}]})


def test_429_three_times_with_retry_after_then_success_stores_the_fact(
    tmp_path: Path,
    openai_server: OpenAIServer,  # noqa: F811
) -> None:
    limited = Reply(status=429, headers=(("Retry-After", "7"),))
    openai_server.reply(limited, limited, limited, GOOD)
    sleeps = Sleeps()
    with service(tmp_path, openai_server, sleeps) as memory:
        memory.enqueue(WHO, turn(0, "I'm allergic to peanuts."))
        result = memory.flush(timeout=30)
        assert result, result
        assert [f.content for f in memory.load(WHO).facts] == ["Is allergic to peanuts"]
    assert sleeps.waits == [7.0, 7.0, 7.0]
    assert openai_server.request_count == 4


def test_twenty_failures_in_a_row_land_in_the_dead_letters_and_retry_applies_them(
    tmp_path: Path,
    openai_server: OpenAIServer,  # noqa: F811
) -> None:
    openai_server.reply(*[Reply(status=503)] * 20)
    with service(tmp_path, openai_server) as memory:
        # 5 attempts x (1 call + 3 retries) = 20 calls, requeued in between (no flush)
        memory.retry_policy = policy(Sleeps(), max_attempts=5, requeue_base_seconds=0.01)
        memory.enqueue(WHO, turn(0, "I'm allergic to peanuts."))
        letters = dead_letters_within(memory, 30)
        assert [x.thread_id for x in letters] == ["t1"]
        assert letters[0].attempts == 5 and "503" in letters[0].error
        assert [key_id(k) for k in letters[0].message_ids] == ["h0", "a0"]
        assert openai_server.request_count == 20
        assert memory.load(WHO).facts == ()
        # the server recovers: `retry` applies the letter once and removes it
        openai_server.reply(GOOD)
        retried = memory.retry_dead_letters()
        assert [r.removed for r in retried] == [True]
        assert [f.content for f in memory.load(WHO).facts] == ["Is allergic to peanuts"]
        assert memory.dead_letters() == []


CAPTIVE_PORTAL = b"<html><head><title>Wi-Fi</title></head><body>Please sign in</body></html>"


@pytest.mark.parametrize("structured_output", ["auto", "off"])
@pytest.mark.parametrize("content_type", ["text/html", "application/json"])
def test_a_proxys_html_page_with_status_200_is_retried_with_backoff_like_a_503(
    tmp_path: Path,
    openai_server: OpenAIServer,  # noqa: F811
    structured_output: str,
    content_type: str,
) -> None:
    # The model never answered: a captive portal or proxy sent its own page with 200.
    portal = Reply(raw_body=CAPTIVE_PORTAL, content_type=content_type)
    openai_server.reply(portal, portal, GOOD)
    sleeps = Sleeps()
    with service(tmp_path, openai_server, sleeps, structured_output=structured_output) as memory:
        memory.enqueue(WHO, turn(0, "I'm allergic to peanuts."))
        result = memory.flush(timeout=30)
        assert result, result
        assert [f.content for f in memory.load(WHO).facts] == ["Is allergic to peanuts"]
    assert len(sleeps.waits) == 2 and openai_server.request_count == 3


def test_a_portal_page_that_never_goes_away_ends_as_a_dead_letter_with_the_words_kept(
    tmp_path: Path,
    openai_server: OpenAIServer,  # noqa: F811
) -> None:
    openai_server.responder = lambda body: Reply(raw_body=CAPTIVE_PORTAL)
    with service(tmp_path, openai_server) as memory:
        memory.enqueue(WHO, turn(0, "I'm allergic to peanuts."))
        letters = dead_letters_within(memory, 30)
        # 3 attempts x (1 call + 3 retries), requeued in between: not one call and done.
        assert [x.thread_id for x in letters] == ["t1"] and letters[0].attempts == 3
        assert [key_id(k) for k in letters[0].message_ids] == ["h0", "a0"]
        assert openai_server.request_count == 12
        assert_a_retry_applies_the_letter(memory, openai_server)


def test_a_trickling_server_ends_as_a_dead_letter_after_timeouts_with_the_words_kept(
    tmp_path: Path,
    openai_server: OpenAIServer,  # noqa: F811
) -> None:
    # A byte every 0.1 s: each read is quick, the whole answer would take ~50 s.
    openai_server.responder = lambda body: Reply(GOOD, trickle=0.1)
    with service(tmp_path, openai_server, model_timeout_seconds=0.5) as memory:
        memory.retry_policy = policy(
            Sleeps(), max_attempts=2, call_retries=1, requeue_base_seconds=0.01
        )
        memory.updater.extractor.retry = memory.retry_policy  # type: ignore[attr-defined]
        memory.enqueue(WHO, turn(0, "I'm allergic to peanuts."))
        # 2 attempts x 2 calls of 0.5 s each, not one attempt held for ~50 s (a hang
        # guard of 40 s, far from both on a loaded machine).
        letters = dead_letters_within(memory, 40)
        assert [x.thread_id for x in letters] == ["t1"] and letters[0].attempts == 2
        assert "within 0.5 s" in letters[0].error
        assert [key_id(k) for k in letters[0].message_ids] == ["h0", "a0"]
        assert openai_server.request_count == 4 and memory.load(WHO).facts == ()
        assert_a_retry_applies_the_letter(memory, openai_server)


def test_a_failure_during_flush_is_reported_not_hidden(
    tmp_path: Path,
    openai_server: OpenAIServer,  # noqa: F811
) -> None:
    openai_server.reply(*[Reply(status=500)] * 4)
    with service(tmp_path, openai_server) as memory:
        memory.enqueue(WHO, turn(0, "I'm allergic to peanuts."))
        result = memory.flush(timeout=30)
    assert result.drained and not result
    assert [(f.thread_id, f.outcome) for f in result.failed] == [("t1", "dead_letter")]


def test_an_unparsable_answer_gets_exactly_one_more_try(
    tmp_path: Path,
    openai_server: OpenAIServer,  # noqa: F811
) -> None:
    openai_server.reply("not json at all", GOOD)
    with service(tmp_path, openai_server) as memory:
        memory.enqueue(WHO, turn(0, "I'm allergic to peanuts."))
        assert memory.flush(timeout=30)
        assert len(memory.load(WHO).facts) == 1
    assert openai_server.request_count == 2


def test_transient_errors_are_told_from_permanent_ones() -> None:
    class Status(Exception):
        def __init__(self, code: int) -> None:
            self.status_code = code

    assert transient_delay(Status(429)) == 0.0
    assert transient_delay(Status(502)) == 0.0
    assert transient_delay(Status(400)) is None
    assert transient_delay(TimeoutError()) == 0.0
    assert transient_delay(ValueError("bad")) is None
    assert retry_after_seconds({"retry-after": "3"}) == 3.0
    assert retry_after_seconds({"retry-after-ms": "1500"}) == 1.5
    assert retry_after_seconds({"retry-after": "soon"}) is None
    backoff = RetryPolicy(random=lambda: 1.0, base_seconds=1, max_backoff_seconds=5)
    assert [backoff.backoff(n) for n in (1, 2, 3, 4)] == [1, 2, 4, 5]


# --- structured output ---------------------------------------------------------------------


@pytest.mark.parametrize(("mode", "carries"), [("on", True), ("auto", True), ("off", False)])
def test_structured_output_requests_carry_the_schema_when_on(
    mode: str,
    carries: bool,
    tmp_path: Path,
    openai_server: OpenAIServer,  # noqa: F811
) -> None:
    openai_server.reply(GOOD)
    config = MemoryConfig(structured_output=mode, fact_confidence_threshold=0.5)  # type: ignore[arg-type]
    updater = MemoryUpdater(FileMemoryStorage(tmp_path), openai_server.chat_model(), config)
    job = UpdateJob("t1", "alice", None, tuple(turn(0, "I'm allergic to peanuts.")))
    assert updater.update(job).status is UpdateStatus.SAVED
    (body,) = openai_server.requests
    if carries:
        schema = body["response_format"]["json_schema"]["schema"]
        assert "newFacts" in schema["properties"]
    else:
        assert "response_format" not in body


def test_auto_structured_output_falls_back_when_the_endpoint_rejects_it(
    tmp_path: Path,
    openai_server: OpenAIServer,  # noqa: F811
) -> None:
    openai_server.reply(Reply(status=400), GOOD, GOOD)
    updater = MemoryUpdater(FileMemoryStorage(tmp_path), openai_server.chat_model())
    job = UpdateJob("t1", "alice", None, tuple(turn(0, "I'm allergic to peanuts.")))
    assert updater.update(job).status is UpdateStatus.SAVED
    first, second = openai_server.requests
    assert "response_format" in first and "response_format" not in second


def test_the_prompt_asks_for_facts_in_the_users_language() -> None:
    from deerflow_memory.update.prompt import SYSTEM_PROMPT

    assert "language the user writes in" in SYSTEM_PROMPT


def test_render_message_is_one_line_per_message() -> None:
    assert render_message(HumanMessage("a\nb")) == 'User: "a\\nb"'
