"""Bad input on the rules added since 06f3450 (helper 367).

An age read from a sentence was checked against the whole message for a number that is no
age ("Shoe size? I'm 44"), and the sentence for an age word, once per age found: a long
message saying an age many times took N² time. The ages added since (a decade: "I'm in my
late forties", a generation: "I'm Gen X", "我是80后") made more sentences end so: 16,000
characters of "I'm in my late forties " took 5.6 s, 32,000 of "我是80后，" 13 s (a 160,000
character message minutes). Both are now looked for once, in the message and in the sentence.

An age said as a decade or a generation was refused as another number wherever the message
named a size, a level, a pain or a seat ("I'm in my early 50s. How do I reduce back pain?",
"I'm in my sixties. Which seat should I book?" stored nothing): only a bare number may be one.
And "I'm Gen Z. Any tips for saving money?" stored nothing: the generation's letter was read as
a name's initial ("Mary J. Blige"), the two sentences as one question.

A statement said again with another complement after a reply holding a capital "İ" (its
lower case is two characters: "İstanbul") was read at the wrong place of the reply: "It's in
Rome." after "İİİ İİİ. The museum is in Naples." corrected nothing.

And a statement said again with an apostrophe typed another way ("Itʼs in Rome.", "It＇s in
Rome.") or a Chinese one with an emoji after or before it ("它在城西。😅") corrected nothing: the
contraction was not read, the emoji ended the statement.

The verdicts added since (and those before) read only ' and ’ as apostrophes: "Thatʼs way too
long", "It＇s still not working", "I didnʼt say that" (U+02BC, U+FF07) corrected nothing,
"Thatʼs perfect, thanks!" approved nothing; the signals now read them as the extractor does.

A trip asked about to a place whose name opens with an abbreviation stored the abbreviation:
"What should I pack for my trip to St. Lucia next month?" was "User is planning a trip to St".

Three words the topic lexicon gained put common words of other topics under theirs: "latte"
is "late" once stemmed ("I'm running late" brought the food facts), "in-law" holds "law" ("my
in-laws" was work), and "reception" under travel put "User's wedding reception is in June"
first for "What should I pack?", above the trip. They are gone (retrieval figures the same).

Each call runs in a child process given a minute (a hang guard, not a speed figure): one
regular expression search holds the interpreter's lock until it ends, so a thread could not be
waited for. Sentences are this project's own.
"""

from __future__ import annotations

import pytest

from deerflow_memory.capture.restated import restated_correction
from deerflow_memory.capture.signals import SignalDetector
from deerflow_memory.inject.lexical import tokenize
from deerflow_memory.inject.topics import default_lexicon
from deerflow_memory.models import Fact, FactCategory, MemoryDocument
from tests.test_bad_input_helper360 import contents, finishes
from tests.test_topics import ranked


@pytest.mark.parametrize(
    ("piece", "fact"),
    [
        ("I'm in my late forties. ", "User is in their late forties"),
        ("I'm in my early 30s and ", "User is in their early 30s"),
        ("I'm Gen X. ", "User is Gen X"),
        ("我是80后，", "用户是80后"),
        ("I'm 40. ", "User is 40 years old"),
    ],
)
def test_a_long_message_saying_an_age_again_and_again_ends(piece: str, fact: str) -> None:
    code = (
        "from deerflow_memory.update.offline.text import candidates_from_text\n"
        f"said = {piece!r} * {120_000 // len(piece)}\n"
        "found = {c.content for c in candidates_from_text(said) if c.content}\n"
        "print(sorted(found))"
    )
    assert finishes(code) == repr([fact])


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        # (unchanged: the age is kept, and refused where the message asks for another number)
        ("I'm in my late forties.", ["User is in their late forties"]),
        ("Shoe size? I'm 44.", []),
        ("I'm 8 years old. What shoe size?", ["User is 8 years old"]),
        ("我是90后，鞋码多少合适？", ["用户是90后"]),
    ],
)
def test_an_age_is_read_as_before(said: str, stored: list[str]) -> None:
    assert contents(said) == stored


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        ("I'm in my early 50s. How do I reduce back pain?", ["User is in their early 50s"]),
        (
            "I'm in my sixties. Which seat should I book on a long flight?",
            ["User is in their sixties"],
        ),
        ("I'm in my late forties. What size should I get?", ["User is in their late forties"]),
        ("I'm a millennial. Rate my outfit out of 10?", ["User is a millennial"]),
        ("Dress size? I'm 8. I'm in my early 30s.", ["User is in their early 30s"]),
        ("I'm Gen Z. Any tips for saving money?", ["User is Gen Z"]),
        ("I'm Gen X. What level of Spanish class suits me?", ["User is Gen X"]),
        ("I'm Gen-Z. What should I eat?", ["User is Gen-Z"]),
        ("I'm generation Y. Any tips?", ["User is generation Y"]),
        # (unchanged: a bare number where another number is asked for, a name's initial)
        ("Pain level? I'm 6.", []),
        ("My friend Morgen Z. Smith is vegan.", []),
        ("I'm Gen Z. I love memes.", ["User is Gen Z", "User loves memes"]),
    ],
)
def test_an_age_said_as_a_decade_or_a_generation_is_kept(said: str, stored: list[str]) -> None:
    assert contents(said) == stored


@pytest.mark.parametrize(
    "before", ["İİİ İİİ. ", "İ" * 40 + ". ", "We met in İzmir, İstanbul and İznik. "]
)
@pytest.mark.parametrize(
    ("reply", "said"),
    [
        ("The museum is in Naples.", "It's in Rome."),
        ("Python lists are immutable.", "They're mutable."),
        ("The capital is Sydney.", "It's Canberra."),
    ],
)
def test_a_reply_holding_a_dotted_capital_i_is_read_where_it_says_it(
    before: str, reply: str, said: str
) -> None:
    assert restated_correction(said, reply)
    assert restated_correction(said, before + reply)
    assert SignalDetector().classify(said, before + reply).correction


@pytest.mark.parametrize(
    ("query", "topics"),
    [
        ("I'll be late", ("schedule",)),
        ("I'm running late", ("schedule", "sport")),
        ("My in-laws are visiting", ()),
        ("my mother-in-law", ("family",)),
        ("Where is the reception?", ("social",)),  # (a wedding's, as before)
        ("a lawsuit against my landlord", ("family", "work")),
    ],
)
def test_a_common_word_is_under_its_own_topic_only(query: str, topics: tuple[str, ...]) -> None:
    assert default_lexicon().topics_of(tokenize(query)) == topics


def test_a_trip_ranks_first_for_a_packing_question() -> None:
    said = [
        "User's wedding reception is in June",
        "User is planning a trip to Norway next month",
        "User loves sourdough bread",
    ]
    document = MemoryDocument(
        facts=[
            Fact(
                content=content,
                category=FactCategory.PREFERENCE,
                confidence=0.8,
                created_at="2025-06-30T10:00:00Z",
            )
            for content in said
        ]
    )
    assert ranked(document, "What should I pack?") == [
        "User is planning a trip to Norway next month"
    ]
    assert ranked(document, "I'm running late, what should I do?") == []


@pytest.mark.parametrize(
    ("reply", "said"),
    [
        ("The museum is in Naples.", "Itʼs in Rome."),
        ("The museum is in Naples.", "It＇s in Rome."),
        ("The capital is Sydney.", "Itʼs Canberra."),
        ("Python lists are immutable.", "Theyʼre mutable."),
        ("这座桥在城东。", "它在城西。😅"),
        ("这座桥在城东。", "它在城西🇨🇳"),
        ("这座桥在城东。", "👉它在城西。"),
        ("《静夜思》是王维写的。", "是李白写的～"),
        ("《静夜思》是王维写的。", "是李白写的🙂"),
    ],
)
def test_a_restatement_typed_with_odd_marks_still_corrects(reply: str, said: str) -> None:
    assert restated_correction(said, reply)
    assert SignalDetector().classify(said, reply).correction


@pytest.mark.parametrize(
    ("reply", "said"),
    [
        # (unchanged: agreement, a question, a denial)
        ("这座桥在城东。", "是这样😅"),
        ("这座桥在城东。", "它在城西吗😅"),
        ("《静夜思》是王维写的。", "是真的🙂"),
        ("The museum is in Naples.", "It isnʼt in Rome."),
        ("The museum is in Naples.", "😀"),
    ],
)
def test_odd_marks_make_no_restatement_of_what_is_none(reply: str, said: str) -> None:
    assert not restated_correction(said, reply)


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        (
            "What should I pack for my trip to St. Lucia next month?",
            ["User is planning a trip to St. Lucia next month"],
        ),
        (
            "Any tips for my move to St. Petersburg in March?",
            ["User is moving to St. Petersburg in March"],
        ),
        (
            "Any tips for my honeymoon to Ft. Lauderdale next summer?",
            ["User is planning a honeymoon to Ft. Lauderdale next summer"],
        ),
        # (unchanged)
        ("Any tips for my trip to St Ives?", ["User is planning a trip to St Ives"]),
        (
            "What should I pack for my trip to Norway next month?",
            ["User is planning a trip to Norway next month"],
        ),
    ],
)
def test_a_trip_to_a_place_named_with_an_abbreviation_keeps_the_name(
    said: str, stored: list[str]
) -> None:
    assert contents(said) == stored


@pytest.mark.parametrize("mark", ["\u02bc", "\uff07", "\u00b4", "\u2032"])
@pytest.mark.parametrize(
    ("said", "correction", "reinforcement"),
    [
        ("That's way too long", True, False),
        ("It's still not working", True, False),
        ("I didn't say that", True, False),
        ("That's perfect, thanks!", False, True),
        ("It's a museum in Rome.", False, False),
    ],
)
def test_a_verdict_typed_with_another_apostrophe_reads_as_typed_plainly(
    mark: str, said: str, correction: bool, reinforcement: bool
) -> None:
    reply = "The museum opens at 9 on weekdays and the tickets cost 12 euros."
    signals = SignalDetector().classify(said.replace("'", mark), reply)
    assert (signals.correction, signals.reinforcement) == (correction, reinforcement)
