"""Correction and reinforcement signals: packaged patterns, window, precedence and config."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage

from deerflow_memory.capture.patterns import FLAGS, GateScan, PatternSet
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
    "Actually, no, it's Friday",
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
    "huh?",
    "我作业做错了",
    "perfect weather",
    "not Tuesday",
]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(_FRAGMENTS), min_size=1, max_size=4))
def test_the_fast_path_never_changes_the_answer_of_the_patterns(parts: list[str]) -> None:
    text = "".join(parts)
    for name in (
        "correction_patterns.txt",
        "reinforcement_patterns.txt",
        "agreement_patterns.txt",
        "statement_correction_patterns.txt",
        "statement_reinforcement_patterns.txt",
        "correction_guards.txt",
        "reinforcement_guards.txt",
    ):
        patterns = PatternSet(name, load_pattern_file(name))
        expected = any(re.search(p, text, FLAGS) for p in load_pattern_file(name))
        assert patterns.search(text, text.lower()) is expected
        assert patterns.search_all(text) is expected


def test_a_pattern_is_searched_only_when_its_own_required_text_occurs() -> None:
    # "the" is required by the first pattern and occurs inside the second's
    # required text: a message with "the" alone must not open the second.
    patterns = PatternSet("test", [r"\bthe\b", r"that's the wrong way round"])
    opened = [p.pattern for p in patterns._candidates("the end of the film")]
    assert opened == [r"\bthe\b"]
    assert len(patterns._candidates("no, that's the wrong way round")) == 2  # both occur


_SIGNAL_FILES = (
    "correction_guards.txt",
    "correction_patterns.txt",
    "reinforcement_guards.txt",
    "reinforcement_patterns.txt",
    "agreement_patterns.txt",
    "statement_correction_patterns.txt",
    "statement_reinforcement_patterns.txt",
)


def test_one_pass_over_all_sets_opens_what_each_set_opens_by_itself() -> None:
    sets = [PatternSet(name, load_pattern_file(name)) for name in _SIGNAL_FILES]
    scan = GateScan(*sets)
    # Every gate string of every set, alone and beside others, plus plain turns.
    gates = sorted({gate for patterns in sets for gate in patterns._by_gate})
    assert len(gates) > 300
    texts = [f"well, {gate} then" for gate in gates]
    texts += [" ".join(gates[i : i + 7]) for i in range(0, len(gates), 7)]
    texts += [*_FRAGMENTS, "", "Turn 7: and Osaka? 也不要花生。", "You mısunderstood"]
    opened_somewhere = 0
    for text in texts:
        low = text.lower()
        together = scan.open(low)
        assert len(together) == len(sets)
        for patterns, opened in zip(sets, together, strict=True):
            assert list(opened) == list(patterns._candidates(low)), (text, patterns)
            opened_somewhere += bool(opened)
    assert opened_somewhere > len(texts)  # gates did open patterns, in several sets


@pytest.mark.parametrize(
    ("kind", "text"),
    [
        # The guard span (someone else's mistake, praise of the weather) is blanked to
        # one space, which joins the words around it into the extra pattern's text.
        ("correction", "zebra他们错了quux"),
        ("reinforcement", "zebra天气很好quux"),
    ],
)
def test_a_blanked_guard_that_joins_words_into_a_pattern_is_still_read(
    kind: str, text: str
) -> None:
    # The one-pass gates were found before blanking: the blanked text is gated again.
    extra = {f"extra_{kind}": [r"zebra quux"]}
    detector = SignalDetector(**extra)
    check = detector.is_correction if kind == "correction" else detector.is_reinforcement
    assert check(text)
    assert not check(text.replace("quux", "quiz"))
    signals = detector.classify(text)
    assert (signals.correction, signals.reinforcement) == (
        kind == "correction",
        kind == "reinforcement",
    )


def test_the_gate_is_the_rarest_required_text_not_the_first_or_shortest() -> None:
    # Every match holds one of check…double-check, one of " your"/" the", and one of
    # math/sum/numbers: gating on " the" would search it on most English messages.
    patterns = PatternSet(
        "test", [r"\b(?:check|recheck|redo|double-check) (?:your|the) (?:math|sums?|numbers)\b"]
    )
    assert not patterns._candidates("what did you think of the film and your trip?")
    assert patterns.search("Please redo the math.", "please redo the math.")


# --- the kinds of issue 13, with the assistant's reply as context ----------------------------


def _after(reply: str, user: str) -> Signals:
    return SignalDetector().detect([HumanMessage("hello"), AIMessage(reply), HumanMessage(user)])


@pytest.mark.parametrize(
    "text",
    [
        "what are u talking about",
        "Sorry, what?",
        "huh, that's odd",
        "this makes no sense at all",
        "your answer doesn't make sense",
        "I don't follow what you wrote",
        "what exactly do you mean by layover?",
        "你讲的啥",
        "啥意思",
        "蛤？",
        "完全答非所问",
    ],
)
def test_confusion_and_clarification_requests_are_corrections(text: str) -> None:
    assert _after("The layover is handled by the gate agent.", text).correction


@pytest.mark.parametrize(
    "text",
    [
        "I never asked for a hotel",
        "I did not request a summary",
        "who asked you to change the title?",
        "that isn't what I typed",
        "This is not what I wrote",
        "我并没有让你改标题",
        "我没要求你总结",
        "这不是我问的",
    ],
)
def test_i_didnt_ask_for_that_and_not_what_i_said_are_corrections(text: str) -> None:
    assert _after("I changed the title and added a summary.", text).correction


@pytest.mark.parametrize(
    ("reply", "text"),
    [
        ("Your dinner is booked for Wednesday.", "Saturday, not Wednesday"),
        ("I picked the red sofa for you.", "the green one, not the red sofa"),
        ("Converted to kilometres.", "not kilometres, miles"),
        ("已帮你订了周三的票。", "周六的，不是周三"),
        ("我选了红色的沙发。", "要绿色的而不是红色"),
    ],
)
def test_x_not_y_is_a_correction_when_the_reply_said_y(reply: str, text: str) -> None:
    assert _after(reply, text).correction


@pytest.mark.parametrize(
    ("reply", "text"),
    [
        ("What do you like to drink?", "tea, not coffee"),
        ("Any preferences?", "a quiet room, not near the lift"),
        ("你喜欢什么？", "喜欢猫，不是狗"),
    ],
)
def test_x_not_y_about_something_the_reply_never_said_is_no_correction(
    reply: str, text: str
) -> None:
    assert not _after(reply, text).correction


@pytest.mark.parametrize(
    "text",
    [
        "Actually, my partner is coming along too",
        "actually I'd also like a vegetarian option",
        "Actually, we land at 6 in the morning",
    ],
)
def test_a_leading_actually_that_adds_information_is_no_correction(text: str) -> None:
    assert _after("Here is your plan for Lisbon.", text) == Signals()


@pytest.mark.parametrize(
    "text",
    [
        "Actually, no, we land at 6",
        "actually you got the airport wrong",
        "Actually, I said two nights",
    ],
)
def test_a_leading_actually_that_contradicts_is_a_correction(text: str) -> None:
    assert _after("Here is your plan for Lisbon.", text).correction


@pytest.mark.parametrize(
    "text",
    [
        "我数学题做错了两道",
        "我昨天把钥匙弄错了",
        "是我自己记错了日子",
        "他把地址写错了",
        "这次考试错了三题",
    ],
)
def test_cuo_le_about_the_users_own_or_others_mistakes_is_no_correction(text: str) -> None:
    assert not _after("这是你要的计划。", text).correction


def test_cuo_le_about_the_assistant_is_still_a_correction_beside_the_users_own() -> None:
    assert _after("这是答案。", "我刚才题目抄错了，不过你这个也错了").correction


@pytest.mark.parametrize(
    "text",
    [
        "Perfect sunny weather here today",
        "the perfect present for a gardener",
        "This kettle is perfect for camping trips",
        "The coffee was great this morning",
        "今天阳光真好",
        "这个耳机音质非常好",
        "我最近很好，谢谢",
    ],
)
def test_generic_praise_of_other_things_is_no_reinforcement(text: str) -> None:
    assert _after("How is your week?", text) == Signals()


@pytest.mark.parametrize(
    ("reply", "text"),
    [
        ("So that's a double room, 2 nights from June 4, is that correct?", "yes, that's correct"),
        ("Please confirm: pickup at 6:15 from Gate 3.", "Correct."),
        ("Shall I book the 10:05 train to Leeds?", "yep, that's right"),
        ("确认一下：两位，周六中午十二点，对吗？", "对"),
        ("需要我帮您预约下周二的体检吗？", "是的"),
    ],
)
def test_agreeing_to_a_read_back_is_no_reinforcement(reply: str, text: str) -> None:
    assert _after(reply, text) == Signals()


@pytest.mark.parametrize(
    ("reply", "text"),
    [
        ("The bug came from the timezone conversion.", "yes, that's correct"),
        ("So the answer is 7.", "对"),
        ("Please confirm the pickup time: 6:15.", "great job on the schedule, thanks"),
    ],
)
def test_agreement_with_an_answer_or_praise_after_a_read_back_is_reinforcement(
    reply: str, text: str
) -> None:
    assert _after(reply, text).reinforcement


def test_a_turn_without_a_reply_before_it_is_read_without_context() -> None:
    detector = SignalDetector()
    assert detector.detect([HumanMessage("Saturday, not Wednesday")]) == Signals()
    assert detector.detect([HumanMessage("you misunderstood")]).correction


def test_each_user_turn_is_read_with_the_reply_it_answers() -> None:
    messages = [
        HumanMessage("book dinner"),
        AIMessage("Booked for Wednesday."),
        HumanMessage("Saturday, not Wednesday"),
        AIMessage("Changed to Saturday."),
        HumanMessage("thanks"),
    ]
    assert SignalDetector().detect(messages).correction


@pytest.mark.parametrize(
    "text", ["Not我做错了yet, still waiting", "not他错了yet", "Not是我搞错了now, maybe later"]
)
def test_a_guard_opened_by_another_guards_blank_is_applied(text: str) -> None:
    # Blanking "我做错了" leaves "Not yet": the guard for "not yet" applies to that, as it
    # would reading the guards one after another without any gates.
    assert SignalDetector().classify(text, "I sent the file.") == Signals(False, False)


def test_an_extra_pattern_with_a_combining_dot_is_gated_as_the_text_is_read() -> None:
    pattern = "BİLMİYORSUN".lower()  # "bi\u0307lmi\u0307yorsun"
    detector = SignalDetector(extra_correction=[pattern])
    assert detector.classify(pattern, "Tamam.").correction
    assert detector.classify(f"Sen {pattern} bunu", "Tamam.").correction
    assert not detector.classify("Sen biliyorsun", "Tamam.").correction
