"""A judge answer the judge module cannot use keeps every candidate (``judge: model``).

attack20 F4: ``{"keep": ["0", "1"]}`` dropped every candidate and marked the
turn read; ``{"keep": [1, 2]}`` (counted from 1) silently dropped the first
fact; ``{"keep": [0, 1], "drop": 5}`` raised a ``TypeError`` that made the
whole update a dead letter. Numbers as strings are read as numbers now, and
any other answer the judge module cannot use keeps every candidate.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from langchain_core.messages import AIMessage, HumanMessage

from deerflow_memory import MemoryConfig, MemoryIdentity, MemoryService
from deerflow_memory.models import MemoryDocument
from deerflow_memory.update.extraction import ExtractionRequest
from deerflow_memory.update.judge import JudgedExtractor
from deerflow_memory.update.judge import _parse as parse_judge_answer
from deerflow_memory.update.llm import ModelExtractor
from tests.openai_server import OpenAIServer, Reply, openai_server  # noqa: F401  (fixture)


@pytest.mark.parametrize(
    ("answer", "count", "verdict"),
    [
        ('{"keep": ["0", "1"], "drop": []}', 2, ({0, 1}, {})),
        ('{"keep": [1], "drop": [{"n": "0", "reason": "a mood"}]}', 2, ({1}, {0: "a mood"})),
        ('{"keep": [1], "drop": [0]}', 2, ({1}, {0: ""})),
        ('{"drop": [{"n": 0, "reason": "a mood"}]}', 3, ({1, 2}, {0: "a mood"})),
        ('{"keep": [], "drop": []}', 2, (set(), {})),
        ("{}", 2, ({0, 1}, {})),
    ],
)
def test_a_usable_judge_answer_is_read_with_numbers_as_strings_too(
    answer: str, count: int, verdict: tuple[set[int], dict[int, str]]
) -> None:
    assert parse_judge_answer(answer, count) == verdict


UNUSABLE_JUDGE = {
    "one-based-out-of-range": '{"keep": [1, 2], "drop": []}',
    "drop-not-a-list": '{"keep": [0, 1], "drop": 5}',
    "drop-an-object": '{"keep": [0, 1], "drop": {"n": 1}}',
    "keep-not-a-list": '{"keep": 0}',
    "keep-null": '{"keep": null}',
    "not-an-integer": '{"keep": [0, 1.5]}',
    "a-boolean": '{"keep": [0, true]}',
    "negative": '{"keep": [0, -1]}',
    "kept-twice": '{"keep": [0, 0]}',
    "kept-and-dropped": '{"keep": [0, 1], "drop": [{"n": 1}]}',
    "dropped-twice": '{"keep": [0], "drop": [{"n": 1}, {"n": 1}]}',
    "drop-without-n": '{"keep": [0], "drop": [{"reason": "x"}]}',
    "never-names-0": '{"keep": [1]}',
    "not-an-object": "[0, 1]",
}


@pytest.mark.parametrize("answer", UNUSABLE_JUDGE.values(), ids=UNUSABLE_JUDGE.keys())
def test_an_unusable_judge_answer_is_a_value_error(answer: str) -> None:
    with pytest.raises(ValueError):
        parse_judge_answer(answer, 2)


CANDIDATES = json.dumps(
    {
        "newFacts": [
            {"content": "Works as a nurse in Oslo", "confidence": 0.95},
            {"content": "Has two daughters", "confidence": 0.95},
        ]
    }
)


@pytest.mark.parametrize(
    "answer",
    [
        '{"keep": ["0", "1"], "drop": []}',
        '{"keep": [1, 2], "drop": []}',
        '{"keep": [0, 1], "drop": 5}',
        '{"keep": [1], "drop": []}',
    ],
    ids=["strings", "one-based", "drop-a-number", "never-names-0"],
)
def test_the_judge_keeps_every_candidate_when_its_answer_is_unusable_or_mistyped(
    openai_server: OpenAIServer,  # noqa: F811
    answer: str,
) -> None:
    model = openai_server.chat_model()
    extractor = JudgedExtractor(ModelExtractor(model), model)
    openai_server.reply(CANDIDATES, answer)
    update = extractor.extract(
        ExtractionRequest(MemoryDocument(), [HumanMessage("hi"), AIMessage("ok")], "t")
    )
    assert [f.content for f in update.new_facts] == [
        "Works as a nurse in Oslo",
        "Has two daughters",
    ]
    assert update.rejected == ()


@pytest.mark.parametrize(
    "answer",
    [
        '{"keep": ["0", "1"], "drop": []}',
        '{"keep": [1, 2], "drop": []}',
        '{"keep": [0, 1], "drop": 5}',
    ],
    ids=["strings", "one-based", "drop-a-number"],
)
def test_with_judge_model_a_mistyped_judge_answer_saves_every_fact_of_the_turn(
    tmp_path: Path,
    openai_server: OpenAIServer,  # noqa: F811
    answer: str,
) -> None:
    openai_server.reply(CANDIDATES, answer)
    who = MemoryIdentity("alice", None, "t1")
    config = MemoryConfig(
        storage_path=tmp_path / "memory", debounce_seconds=0, update_gate=False, judge="model"
    )
    model = openai_server.chat_model(timeout=5)
    with MemoryService(config, model=model, register_atexit=False) as memory:
        memory.enqueue(
            who,
            [
                HumanMessage("I'm a nurse in Oslo and I have two daughters.", id="m1"),
                AIMessage("Nice!", id="m2"),
            ],
        )
        result = memory.flush(20)
        assert result and result.failed == ()
        document = memory.load(who)
        assert sorted(f.content for f in document.facts) == [
            "Has two daughters",
            "Works as a nurse in Oslo",
        ]
        assert memory.dead_letters() == [] and [
            w.thread_id for w in document.extraction_watermarks
        ] == ["t1"]
        assert openai_server.request_count == 2


def test_a_judge_that_trickles_its_answer_is_given_up_after_the_call_timeout(
    openai_server: OpenAIServer,  # noqa: F811
) -> None:
    # A proxy trickling the body a byte at a time: no single read waits long, so the
    # client's own timeout never fires. The judge's call has the memory model's deadline.
    model = openai_server.chat_model(timeout=5)
    extractor = JudgedExtractor(ModelExtractor(model), model, call_timeout=1)
    openai_server.reply(
        CANDIDATES, Reply(content='{"keep": [], "drop": []}' + " " * 400, trickle=0.5)
    )
    update = extractor.extract(
        ExtractionRequest(MemoryDocument(), [HumanMessage("hi"), AIMessage("ok")], "t")
    )
    # Given up: every candidate kept, the failure counted (dropping all would be the answer).
    assert [f.content for f in update.new_facts] == [
        "Works as a nurse in Oslo",
        "Has two daughters",
    ]
    assert extractor.stats.failures == 1


@pytest.mark.parametrize("seconds", [0, -1, float("nan"), "5"])
def test_a_judge_call_timeout_that_is_not_seconds_is_a_config_error(seconds: object) -> None:
    from langchain_core.language_models.fake_chat_models import GenericFakeChatModel

    from deerflow_memory.errors import ConfigError

    model = GenericFakeChatModel(messages=iter([]))
    with pytest.raises(ConfigError, match="call_timeout"):
        JudgedExtractor(ModelExtractor(model), model, call_timeout=seconds)  # type: ignore[arg-type]
