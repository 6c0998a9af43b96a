"""A long run of punctuation or emoji in a user message ends in linear time (attack of review 28).

The gate's question pattern (``^\\W*(?:and|…)?\\W*…``) and the offline
extractor's "…, if that matters" pattern tried every split of a run of
non-word characters: 10,000 commas held the update worker for 24 s, 20,000 for
minutes. These inputs would take hours on that code; here each call is given
a minute before the test calls it hung (a hang guard, not a speed figure).
"""

from __future__ import annotations

import threading
from collections.abc import Callable

import pytest

from deerflow_memory.capture.gate import is_self_referential
from deerflow_memory.config import MemoryConfig
from deerflow_memory.errors import ConfigError
from deerflow_memory.update.offline.text import candidates_from_text

RUNS = [",", "-", ".", "'", "😀", "，"]


def finishes(call: Callable[[], object]) -> object:
    result: list[object] = []
    worker = threading.Thread(target=lambda: result.append(call()), daemon=True)
    worker.start()
    worker.join(60)
    assert result, "hung on a long run of punctuation"
    return result[0]


@pytest.mark.parametrize("char", RUNS)
def test_the_gate_reads_a_long_run_of_punctuation(char: str) -> None:
    assert finishes(lambda: is_self_referential(char * 200_000 + " I live in Leeds")) is True


@pytest.mark.parametrize("char", RUNS)
def test_the_offline_extractor_reads_a_long_run_of_punctuation(char: str) -> None:
    assert finishes(lambda: candidates_from_text(char * 200_000)) == []


@pytest.mark.parametrize("run", [".", ".)", ":("])
def test_the_offline_extractor_reads_a_long_run_of_full_stops_before_a_word(run: str) -> None:
    # A run of full stops that no space follows was tried as a sentence end from each of
    # its dots (attacker 42): 50,000 took 36 s, 200,000 about ten minutes.
    assert finishes(lambda: candidates_from_text(run * 100_000 + "x")) == []


@pytest.mark.parametrize("run", ["too, ", "vs, ", ":) ", ":( "])
def test_the_offline_extractor_reads_a_long_run_of_tail_words_or_faces(run: str) -> None:
    # Each fragment that rejoined the clause read the whole clause again ("too, " x 4,000:
    # 9 s), and faces removed after spaces were collapsed left a run of spaces (attacker 43).
    found = finishes(lambda: [c.content for c in candidates_from_text("I'm vegan " + run * 40_000)])
    assert found == ["User is vegan"]


@pytest.mark.parametrize("space", [" ", "\t", "\u00a0", "\u3000", " \t\u2009"])
def test_the_offline_extractor_reads_a_long_run_of_spaces_inside_a_sentence(space: str) -> None:
    # The patterns' "\s*X" tried each position of the run: 40,000 spaces took 68 s.
    said = "I keep chickens" + space * 100_000 + "in Devon"
    found = finishes(lambda: [c.content for c in candidates_from_text(said)])
    assert found == ["User keeps chickens in Devon"]


@pytest.mark.parametrize(
    ("text", "question"),
    [
        ("and what is this", True),
        (",,, so, how do I", True),
        ("...why", True),
        ("I know why", False),
    ],
)
def test_the_question_reading_is_unchanged(text: str, question: bool) -> None:
    from deerflow_memory.capture.gate import _EN_QUESTION

    assert bool(_EN_QUESTION.search(text)) is question


def test_an_aside_after_a_fact_is_still_dropped() -> None:
    assert [c.content for c in candidates_from_text("I'm allergic to nuts, if that matters")] == [
        "User is allergic to nuts"
    ]


@pytest.mark.parametrize("storage", [{"backend": "sqlite"}, {"path": "/tmp/x.db"}, {}])
def test_a_storage_mapping_without_use_is_a_config_error(storage: dict[str, str]) -> None:
    # It loaded as the file backend, silently: memory went elsewhere than meant.
    with pytest.raises(ConfigError, match="names its backend with 'use'"):
        MemoryConfig(storage=storage)  # type: ignore[arg-type]


def test_deerflows_storage_mapping_still_loads() -> None:
    use = "deerflow.agents.memory.storage:FileMemoryStorage"
    assert MemoryConfig(storage={"use": use}).storage == "file"  # type: ignore[arg-type]


# --- the signals on the capture node's path (attack 33) ----------------------------------

REPLY = "Your flight is booked for Monday."
LONG_TURNS = [
    # nested quantifiers meeting a long run of whitespace or words
    ("Tuesday, not Monday{run}thanks", " "),
    ("Tuesday, not ab{run}x", "\t"),
    ("{run}x不错", "\t"),
    ("{run}我记错了要", " "),
    ("{run}我记错了要", "word "),
    ("Exactly{run}x", " "),
    ("周四，不是周二{run}x", " "),
    ("{run}x应该是", " "),
    ("Tuesday, not ab{run}x", "\n \n"),
]


@pytest.mark.parametrize(("shape", "run"), LONG_TURNS)
def test_a_long_turn_is_read_in_bounded_time_as_its_collapsed_text(shape: str, run: str) -> None:
    from deerflow_memory.capture.signals import SignalDetector

    long = shape.format(run=run * (200_000 // len(run)))
    # Whitespace runs read as one space (or one line break), and only the ends of a
    # turn this long: the same signals as the turn written short.
    short = shape.format(run=run if run.strip() else ("\n" if "\n" in run else " "))
    detector = SignalDetector()
    assert finishes(lambda: detector.classify(long, REPLY)) == detector.classify(short, REPLY)


def test_a_correction_at_the_start_of_a_long_turn_is_still_read() -> None:
    from langchain_core.messages import AIMessage, HumanMessage

    from deerflow_memory.capture.signals import SignalDetector, detect_correction

    turn = "No, that's wrong, I said Tuesday. " + "Here is the log: ok " * 20_000
    assert SignalDetector().classify(turn, REPLY).correction
    messages = [HumanMessage("Book it for Tuesday."), AIMessage(REPLY), HumanMessage(turn)]
    assert finishes(lambda: detect_correction(messages)) is True


ITINERARY = (
    "Day one we land in Lisbon around noon and take the metro to the hotel near the river. "
    "In the afternoon we walk through Alfama, stop for pastries and see the cathedral. "
    "Dinner is at a small place in Bairro Alto that a friend recommended to us last year.\n"
)


@pytest.mark.parametrize("offset", range(0, 400, 23))
def test_a_long_turn_is_cut_into_pieces_between_words(offset: int) -> None:
    from deerflow_memory.capture.signals import _PIECE, _pieces

    turn = "x" * offset + " " + ITINERARY * 30 + "cannot stand it " * 200 + "and that is all"
    pieces = _pieces(turn)
    words = set(turn.split())
    for piece in pieces:
        piece = piece.strip("\u2060")  # the mark of a cut inside a line
        if piece[:1] in ".!?;":  # a piece cut after a sentence opens with its end mark
            piece = piece[1:]
        assert set(piece.split()) <= words and len(piece) <= _PIECE  # no half word
    assert pieces[-1].endswith("and that is all")


@pytest.mark.parametrize(
    ("seam", "kind"),
    [
        ("We stayed somewhere cheap, not too far from the station.", "correction"),
        ("The hotel has great food, perfect location and a pool.", "reinforcement"),
        ("Nobody knew what went wrong with the booking system there.", "correction"),
        ("Our guide was named Bahuh, no joke, and he was great.", "correction"),
    ],
)
def test_where_a_long_turn_is_cut_reads_no_signal_into_it(seam: str, kind: str) -> None:
    from deerflow_memory.capture.signals import SignalDetector

    reply = "I've put together a draft plan for your trip."
    detector = SignalDetector()
    assert getattr(detector.classify(seam, reply), kind) is False  # none in the sentence
    for before in range(30):  # the sentence falls before, on and after each cut
        turn = ITINERARY * 4 + "We also saw a fado show. " * before + seam + " " + ITINERARY * 4
        assert getattr(detector.classify(turn, reply), kind) is False, before
        words = f"{ITINERARY * 3}{'Then more. ' * before}{seam}, I guess, {ITINERARY * 3}"
        assert getattr(detector.classify(words.replace("\n", " "), reply), kind) is False


@pytest.mark.parametrize(
    ("middle", "kind"),
    [
        (
            "No, that's not what I asked. I said the flight is on Friday, not Thursday.",
            "correction",
        ),
        ("That's exactly what I wanted, perfect!", "reinforcement"),
    ],
)
def test_a_signal_in_the_middle_of_a_long_turn_is_read(middle: str, kind: str) -> None:
    from deerflow_memory.capture.signals import SignalDetector

    turn = ITINERARY * 6 + middle + "\n" + ITINERARY * 6
    reply = "I've put together a draft plan for your trip."
    assert getattr(SignalDetector().classify(turn, reply), kind) is True


LEAD = (
    "Some background on the trip: "
    + "we will land late and want a quiet evening near the hotel " * 7
    + "so please keep the whole plan simple and cheap. "
)


@pytest.mark.parametrize(
    ("sentence", "reply", "kind"),
    [
        ("That's perfect, thanks!", "Here is the revised itinerary.", "reinforcement"),
        ("I meant the hotel in Kyoto.", "I booked the hotel in Osaka for you.", "correction"),
    ],
)
def test_a_sentence_right_after_a_cut_reads_as_in_the_turn(
    sentence: str, reply: str, kind: str
) -> None:
    # Cut at the sentence end before it, the piece opens with that end's mark: patterns
    # that want one before the phrase ("(?:^|[.!,]\s*)…perfect") still read it.
    from deerflow_memory.capture.signals import SignalDetector

    detector = SignalDetector()
    assert getattr(detector.classify(sentence, reply), kind)
    for padding in range(0, 400, 7):
        turn = "Filler words here. " * (padding // 19) + "x" * (padding % 19) + " " + LEAD
        turn += sentence + " We can talk about the museum visits tomorrow."
        assert getattr(detector.classify(turn, reply), kind), padding


def test_x_not_y_in_chinese_is_read_per_line_as_in_english() -> None:
    from deerflow_memory.capture.signals import SignalDetector

    detector = SignalDetector()
    booked = "我帮你把会议定在周二下午三点，在三楼的会议室。"
    assert detector.classify("是周四，不是周二。\n另外请把会议室换成大一点的。", booked).correction
    filler = (
        "我们团队下个月要把计费服务迁移到新的集群上。"
        + "主要的问题是夜间批处理任务会和欧洲的工作时间重叠。"
    )
    for before in range(0, 16, 3):
        turn = filler * before + "\n是周四，不是周二。\n" + filler * 10
        assert detector.classify(turn, booked).correction, before


@pytest.mark.parametrize(
    "turn",
    [
        "We moved the team to Berlin in 2019, not long after the merger.\nIt has forty people.",
        "The migration will be expensive, not to mention the downtime.\nFinance wants numbers.",
        "Hi! My manager likes short bullet points, not long paragraphs.\nAdd a risks section?",
    ],
)
def test_an_idiom_or_a_taste_with_not_is_no_correction_short_or_long(turn: str) -> None:
    from deerflow_memory.capture.signals import SignalDetector

    detector = SignalDetector()
    report = "Here is the draft of the quarterly report you asked for, with the figures."
    assert not detector.classify(turn, report).correction
    body = "The storage team says the new volumes support snapshots every fifteen minutes.\n" * 6
    assert not detector.classify(body + turn + "\n" + body, report).correction


def test_a_huge_reply_is_read_by_its_ends() -> None:
    from deerflow_memory.capture.signals import SignalDetector

    detector = SignalDetector()
    code = "def f(x): return x + 1  # a, b; c\n" * 30_000  # ~1 MB
    turn = "I like tea, not coffee.\n" * 400
    assert finishes(lambda: detector.classify(turn, code)) == detector.classify(turn, "")
    # The user's own taste corrects only when the reply said Y: read at its ends.
    taste = "I'd like Thursday, not Tuesday."
    assert detector.classify(taste, code + "Booked for Tuesday.").correction
    assert detector.classify(taste, "Booked for Tuesday.\n" + code).correction
    assert not detector.classify(taste, code + "Booked for Tuesday.\n" + code).correction


# --- a very long turn is read from its ends (attack 36) ------------------------------------

HUGE_TURNS = [
    ("prose", ITINERARY * 4_000),  # ~1 MB of sentences and lines
    ("words", "a " * 500_000),
    ("chinese", "我今天去了市场，买了一些苹果和梨。\n" * 60_000),
    ("runs", ("word" + " " * 40 + "\n \n") * 20_000),
]


@pytest.mark.parametrize(("name", "turn"), HUGE_TURNS)
def test_a_huge_turn_is_collapsed_near_its_ends_only(
    name: str, turn: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The middle of a 1 MB turn was collapsed and cut (50-100 ms a turn) only to keep
    # the first and last pieces: now the work is bounded by what those pieces hold.
    from deerflow_memory.capture import signals

    read: list[int] = []
    collapse = signals._collapse
    monkeypatch.setattr(signals, "_collapse", lambda text: read.append(len(text)) or collapse(text))
    pieces = signals._pieces(turn)
    assert sum(read) < len(turn) // 5, name  # the whole turn before
    # The same first pieces as the whole turn collapsed; the last ones end the turn.
    whole = signals._split(collapse(turn))
    assert pieces[: signals._PIECES_READ] == whole[: signals._PIECES_READ]
    assert len(pieces) == 2 * signals._PIECES_READ
    tail = pieces[signals._PIECES_READ :]
    assert collapse(turn).endswith(_text_of(tail)), name
    assert all(len(piece) <= signals._PIECE + 2 for piece in tail)


def _text_of(pieces: list[str]) -> str:
    """The text that pieces cut after one another read, without their cut marks."""
    text = ""
    for piece in pieces:
        if piece[:1] in "\u2060.!?;。！？；":  # the seam, or the mark the cut came after
            piece = piece[1:]
        text += piece.removesuffix("\u2060")
    return text


@pytest.mark.parametrize("spaces", [100, 9_000, 300_000])
def test_a_signal_after_a_whitespace_flood_at_either_end_of_a_huge_turn_is_read(
    spaces: int,
) -> None:
    from deerflow_memory.capture.signals import SignalDetector

    detector = SignalDetector()
    booked = "I booked the hotel in Osaka for you."
    correction = "I meant the hotel in Kyoto."
    middle = ITINERARY * 3_000
    at_start = " " * spaces + correction + " " + middle
    at_end = middle + " " * spaces + correction + "\n" + " \n" * spaces
    assert finishes(lambda: detector.classify(at_start, booked)).correction
    assert finishes(lambda: detector.classify(at_end, booked)).correction
    assert not detector.classify(middle + correction + middle, booked).correction  # not read


# --- the offline extractor's clause endings (attack 37) --------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "哈" * 2_000 + "我对花生过敏",  # "哈" or "哈哈": every split was tried, 2^n
        "Here is my data: a" + "," * 50_000 + "b. I'm allergic to peanuts",
        "哈" * 50_000 + "x",
        "呵" * 30_001 + "我喜欢猫",
    ],
)
def test_a_long_run_before_more_text_ends_a_clause_in_bounded_time(text: str) -> None:
    facts = finishes(lambda: candidates_from_text(text))
    assert isinstance(facts, list)


def test_clause_endings_are_cut_as_the_patterns_before_them_cut() -> None:
    import random
    import re

    from deerflow_memory.update.offline.shaping import without_ending
    from deerflow_memory.update.offline.text import _EN_TRAILING, _ZH_TRAILING

    # The one-pass patterns they replace (fine on short text), as the reference.
    english = re.compile(
        r"(?:[\s,]+(?:too|as well|though|anyway|lol|haha|ugh|btw|by the way|thanks|thank you|"
        r"please|actually))+$|[\s,.;:!~…]+$",  # closing brackets: _without_stray_closers
        re.IGNORECASE,
    )
    chinese = re.compile(
        r"(?:[哦啊呀啦哈喔嘛噢哟]|哈哈|嘿嘿|呵呵|的说)+$|[\s,.;:!~…，。；：！～]+$"
    )
    rng = random.Random(37)
    en_parts = ["I like tea", " ", ",", "!", " too", " TOO", " as well", " thank you", "x", ")"]
    zh_parts = ["我喜欢茶", "哈", "嘿", "嘿嘿", "呵", "的", "说", "。", " ", "！", "好"]
    for _ in range(3_000):
        text = "".join(rng.choice(en_parts) for _ in range(rng.randint(0, 7)))
        assert without_ending(text, _EN_TRAILING) == english.sub("", text), repr(text)
        text = "".join(rng.choice(zh_parts) for _ in range(rng.randint(0, 9)))
        assert without_ending(text, _ZH_TRAILING) == chinese.sub("", text), repr(text)


# --- a short turn is read as a long one is (attack 37) ---------------------------------------


@pytest.mark.parametrize(
    ("odd", "plain"),
    [
        ("That's\u00a0wrong.", "That's wrong."),
        ("That's  wrong.", "That's wrong."),
        ("That's\twrong.", "That's wrong."),
        ("You mis\u00adunderstood me.", "You misunderstood me."),
        ("\u200fhuh?", "huh?"),
        ("\u200bPerfect, thanks!", "Perfect, thanks!"),
        ("Keep\u00a0doing that", "Keep doing that"),
        ("不对，\u200b是周四。", "不对，是周四。"),
        ("\n" * 197 + "不错过", "\n不错过"),
        ("\n" * 196 + "挺好x", "\n挺好x"),
    ],
)
def test_a_short_turn_reads_as_it_would_typed_plainly(odd: str, plain: str) -> None:
    # Turns of 200 characters or fewer were read raw: a no-break space or a double space
    # hid a correction that the same words padded past 200 characters gave, and 197 line
    # breaks met a pattern's nested quantifiers (128 ms in the capture node).
    from deerflow_memory.capture.signals import SignalDetector, _pieces

    detector = SignalDetector()
    reply = "Here is your itinerary for Kyoto."
    assert _pieces(odd) == [plain]
    assert detector.classify(odd, reply) == detector.classify(plain, reply)


@pytest.mark.parametrize(
    "turn",
    [
        "Not bad at all!",
        "Not too shabby for a first draft",
        "Not gonna lie, I love this plan",
        "Not a problem, take your time",
        "not a fan of early flights",
        "Not thirsty",
    ],
)
def test_praise_or_a_mood_opening_with_not_is_no_correction(turn: str) -> None:
    # Read as "X, not Y" with no X (attack 37): praise lost its approval to a correction.
    from deerflow_memory.capture.signals import SignalDetector

    reply = "Here is the plan for your weekend in Lisbon."
    assert not SignalDetector().classify(turn, reply).correction


@pytest.mark.parametrize(
    ("turn", "reply"),
    [
        ("Not Lisbon!", "I booked the hotel in Lisbon."),
        ("Not the morning flight.", "You are on the morning flight to Porto."),
        ("Not Porto, Faro.", "Here is the plan for your weekend in Lisbon."),
        ("Make it Faro, not Porto.", "Here is the plan for your weekend in Lisbon."),
        # a state not come yet with a value after it puts the reply right
        ("Not engaged yet, just dating", "Congratulations on your engagement!"),
        ("Not in Lisbon right now, in Faro", "Here are cafés near you in Lisbon."),
        # put off, but the reply took the state for granted (attackers 41, 42: a guard for
        # "Not sleepy yet, maybe later" without the reply hid these; one with it, synonyms)
        ("Not retired yet, in two years", "Enjoy your retirement in Lisbon!"),
        ("Not married yet, maybe next spring", "How is married life in Lisbon?"),
        ("Not married yet, maybe next spring", "How is your wife liking Lisbon?"),
    ],
)
def test_not_y_still_corrects_when_the_reply_said_y_or_an_x_is_asked_for(
    turn: str, reply: str
) -> None:
    from deerflow_memory.capture.signals import SignalDetector

    assert SignalDetector().classify(turn, reply).correction


@pytest.mark.parametrize(
    ("turn", "reply"),
    [
        ("Green tea, not coffee.", "Would you like green tea or coffee?"),
        ("Aisle, not window", "Window or aisle seat for the flight to Porto?"),
        ("要靠窗的，不是过道", "您要靠窗还是过道的座位？"),
    ],
)
def test_x_not_y_answering_a_question_that_named_y_is_no_correction(turn: str, reply: str) -> None:
    # Y in the reply was checked before the question (attack 37): a choice read as a fix.
    from deerflow_memory.capture.signals import SignalDetector

    detector = SignalDetector()
    assert not detector.classify(turn, reply).correction
    assert detector.classify(turn, reply.rstrip("?？") + ".").correction  # said, not asked
