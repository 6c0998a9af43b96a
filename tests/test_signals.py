"""Correction and reinforcement signals: packaged patterns, window, precedence and config."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage

from deerflow_memory.capture.signals import (
    SignalDetector,
    Signals,
    detect_correction,
    detect_reinforcement,
    load_pattern_file,
)
from deerflow_memory.config import MemoryConfig
from deerflow_memory.errors import ConfigError

CORRECTIONS = [
    "不对，我说的是北京",
    "你理解错了",
    "错了，应该是三天",
    "不是这样的",
    "重试一下",
    "换一种方式说",
    "我说的是上海",
    "你搞错了",
    "that's wrong",
    "You misunderstood me",
    "try again please",
    "That's not what I meant",
    "No, I said Tuesday",
    "that is incorrect",
    "Actually, it's Friday",
    "You’re wrong about that",
    "Incorrect.",
    "please try a different approach",
]
CORRECTION_NEAR_MISSES = [
    "这个不对称的设计很好看",
    "感觉不对劲",
    "这样对不对？",
    "没错了",
    "不错了",
    "他的回答错了吗",
    "I don't know if that's wrong",
    "no problem",
    "I'll try again tomorrow",
    "what's wrong with my code",
    "I actually love it",
    "I said hello to my mom",
]
REINFORCEMENTS = [
    "对，就是这样",
    "完全正确",
    "没错！",
    "太好了",
    "这个很好",
    "就这样",
    "继续保持",
    "这正是我想要的",
    "完美",
    "yes, exactly",
    "Perfect!",
    "that's right",
    "keep doing that",
    "great job",
    "spot on",
    "exactly what I wanted",
    "Exactly.",
    "That's perfect, thanks",
    "Well done!",
]
REINFORCEMENT_NEAR_MISSES = [
    "我很好奇",
    "不是很好",
    "完美主义者",
    "这家店很好吃",
    "就这样下去不行",
    "没错误",
    "perfectly normal",
    "exactly how many days is it?",
    "is that right?",
    "I don't know if that's right",
    "I want a good job",
    "It's great weather today",
    "the perfect gift for my mom",
]


def _turn(user_text: str) -> list[BaseMessage]:
    return [HumanMessage("plan my trip"), AIMessage("Here is a plan."), HumanMessage(user_text)]


def test_the_packaged_files_hold_at_least_the_documented_number_of_patterns() -> None:
    assert len(load_pattern_file("correction_patterns.txt")) >= 11
    assert len(load_pattern_file("reinforcement_patterns.txt")) >= 14
    assert not any(p.startswith("#") for p in load_pattern_file("correction_patterns.txt"))


@pytest.mark.parametrize("text", CORRECTIONS)
def test_corrections_are_detected(text: str) -> None:
    assert detect_correction(_turn(text))


@pytest.mark.parametrize("text", CORRECTION_NEAR_MISSES)
def test_near_misses_are_not_corrections(text: str) -> None:
    assert not detect_correction(_turn(text))


@pytest.mark.parametrize("text", REINFORCEMENTS)
def test_reinforcements_are_detected(text: str) -> None:
    assert detect_reinforcement(_turn(text))


@pytest.mark.parametrize("text", REINFORCEMENT_NEAR_MISSES)
def test_near_misses_are_not_reinforcements(text: str) -> None:
    assert not detect_reinforcement(_turn(text))


def test_only_the_last_six_messages_are_searched() -> None:
    old_correction = [HumanMessage("that's wrong"), AIMessage("Sorry, fixed.")]
    recent = [
        HumanMessage(f"question {i}") if i % 2 == 0 else AIMessage(f"answer {i}") for i in range(6)
    ]
    assert not detect_correction(old_correction + recent)
    assert detect_correction(old_correction[:1] + recent[1:])  # now the 6th message from the end


def test_assistant_messages_never_carry_signals() -> None:
    messages = [HumanMessage("plan a trip"), AIMessage("You misunderstood? Perfect, try again!")]
    assert SignalDetector().detect(messages) == Signals(correction=False, reinforcement=False)


def test_reinforcement_is_suppressed_when_there_is_a_correction() -> None:
    messages = [HumanMessage("perfect"), AIMessage("Thanks!"), HumanMessage("wait, that's wrong")]
    detector = SignalDetector()
    assert detector.detect_reinforcement(messages)
    assert detector.detect(messages) == Signals(correction=True, reinforcement=False)


def test_reinforcement_alone_is_reported() -> None:
    assert SignalDetector().detect(_turn("完全正确")) == Signals(
        correction=False, reinforcement=True
    )


def test_multimodal_human_text_is_searched() -> None:
    image = {"type": "image_url", "image_url": {"url": "data:image/png;base64,AAAA"}}
    message = HumanMessage(content=[image, {"type": "text", "text": "you misunderstood the photo"}])
    assert detect_correction([AIMessage("It is a dog."), message])


def test_extra_patterns_from_config_extend_the_packaged_ones() -> None:
    config = MemoryConfig(correction_patterns=[r"\bnein\b"], reinforcement_patterns=[r"\bgenau\b"])
    detector = SignalDetector.from_config(config)
    assert detector.detect(_turn("Nein, das stimmt nicht")) == Signals(
        correction=True, reinforcement=False
    )
    assert detector.detect(_turn("Genau so")) == Signals(correction=False, reinforcement=True)
    assert detector.detect_correction(_turn("不对"))  # packaged patterns still apply
    assert not SignalDetector().detect_correction(_turn("Nein, das stimmt nicht"))


def test_an_extra_pattern_with_inline_global_flags_still_works() -> None:
    detector = SignalDetector(extra_correction=[r"(?s)redo.*everything"])
    assert detector.detect_correction(_turn("please redo\nabsolutely everything"))


@pytest.mark.parametrize("kind", ["correction", "reinforcement"])
def test_an_invalid_extra_pattern_raises_a_config_error_naming_it(kind: str) -> None:
    with pytest.raises(ConfigError, match=r"\(unclosed"):
        if kind == "correction":
            SignalDetector(extra_correction=["(unclosed"])
        else:
            SignalDetector(extra_reinforcement=["(unclosed"])


def test_an_invalid_configured_pattern_fails_when_the_detector_is_built() -> None:
    config = MemoryConfig(reinforcement_patterns=["[oops"])
    with pytest.raises(ConfigError, match="reinforcement pattern"):
        SignalDetector.from_config(config)


def test_an_extra_pattern_without_any_fixed_text_is_still_searched() -> None:
    detector = SignalDetector(extra_correction=[r"^[?？]{3,}$"])
    assert detector.detect_correction(_turn("???"))
    assert not detector.detect_correction(_turn("?"))


_FRAGMENTS = [
    *CORRECTIONS,
    *CORRECTION_NEAR_MISSES,
    *REINFORCEMENTS,
    *REINFORCEMENT_NEAR_MISSES,
    "No",
    "THAT'S WRONG",
    "Yes, EXACTLY",
    "不",
    "对",
    "很",
    "好",
    ", ",
    "\n",
    " ",
    "if ",
]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(_FRAGMENTS), min_size=1, max_size=4))
def test_the_fast_path_never_changes_the_answer_of_the_patterns(parts: list[str]) -> None:
    text = "".join(parts)
    flags = re.IGNORECASE | re.MULTILINE
    for name, detect in (
        ("correction_patterns.txt", detect_correction),
        ("reinforcement_patterns.txt", detect_reinforcement),
    ):
        expected = any(re.search(p, text, flags) for p in load_pattern_file(name))
        assert detect([HumanMessage(text)]) is expected
