"""Bad input on 96b5428 (helper 369): a backtick typed for an apostrophe in the signals.

96b5428 made the signals read a backtick inside a contraction as an apostrophe ("That`s
wrong"), as the extractor does, in ``_collapse``. But a short turn of printable ASCII with
single spaces is never collapsed (the fast path of ``_pieces``), so the backtick was read only
when something else in the turn sent it through ``_collapse``: "That`s wrong" corrected
nothing, while "That`s wrong – sent from my phone" (an en dash) or the same words in a turn
over 200 characters did. The verdict of a turn hung on a character elsewhere in it.

The offline extractor took two backticks typed for apostrophes on one line for a code span and
dropped what was between them: "I`m allergic to peanuts and I don`t eat pork" stored only
"User ts eat pork" (the allergy lost), "I`m vegan. I`m allergic to peanuts." lost the diet. A
code span now opens only at a backtick that is no apostrophe typed as one (after a letter, before
a contraction's end); "use `df`" is still code.

In the signals a code span is read as typed: only a pronoun quoted as code right before "s",
"re" or "ll" ("`that`s wrong") reads as a contraction, as the extractor reads it.
Sentences are this project's own.
"""

from __future__ import annotations

import random

import pytest

from deerflow_memory.capture.signals import SignalDetector
from deerflow_memory.models import with_plain_apostrophes
from deerflow_memory.update.offline.text import candidates_from_text

_REPLY = "The museum opens at 9 on weekdays and the tickets cost 12 euros."
_LONG = (
    " I was going through the notes from the trip again this morning, the ones about the"
    " museums and the tickets, and the opening hours still do not line up with the plan"
    " for the second week, so I will read them once more tonight"
)  # over 200 characters: a long turn, always collapsed


@pytest.mark.parametrize("tail", ["", " \u2013 sent from my phone", _LONG])
@pytest.mark.parametrize(
    ("said", "correction", "reinforcement"),
    [
        ("That`s way too long", True, False),
        ("It`s still not working", True, False),
        ("I didn`t say that", True, False),
        ("You`re wrong", True, False),
        ("That`s perfect, thanks!", False, True),
        ("It`s a museum in Rome.", False, False),
    ],
)
def test_a_backtick_for_an_apostrophe_reads_the_same_in_any_turn(
    said: str, tail: str, correction: bool, reinforcement: bool
) -> None:
    text = f"{said}.{tail}" if tail else said
    signals = SignalDetector().classify(text, _REPLY)
    assert (signals.correction, signals.reinforcement) == (correction, reinforcement)


@pytest.mark.parametrize(
    "said",
    [
        "Use `df`'s index for the join.",
        "Use `df`s index for the join.",
        "The `config`s are loaded twice on startup.",
        "Rename the `user`s table to accounts.",
        "I keep the `Promise`s in a list.",
        "Is `it`s value cached somewhere?",
        "SELECT `users`.`id` FROM `users`",
        "Set `item`s price to 12.",
    ],
)
def test_code_spans_are_no_verdict(said: str) -> None:
    for text in (said, f"{said} \u2013 ok", f"{said}{_LONG}"):
        signals = SignalDetector().classify(text, _REPLY)
        assert (signals.correction, signals.reinforcement) == (False, False), text


def test_the_apostrophes_are_replaced_one_character_for_one() -> None:
    marks = "\u02bc\uff07\u00b4\u2032`"
    rnd = random.Random(369)
    letters = "abstmdrevlI '\u2019" + marks + "\U0001f600\u4e2d\x00\u200b"
    for _ in range(3000):
        text = "".join(rnd.choice(letters) for _ in range(rnd.randint(0, 16)))
        for mark in ("'", "\u2019"):
            plain = with_plain_apostrophes(text, mark)
            assert len(plain) == len(text)
            changed = [(a, b) for a, b in zip(text, plain, strict=True) if a != b]
            assert all(a in marks and b == mark for a, b in changed)


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        (
            "I`m allergic to peanuts and I don`t eat pork",
            ["User is allergic to peanuts", "User does not eat pork"],
        ),
        ("I`m vegan. I`m allergic to peanuts.", ["User is vegan", "User is allergic to peanuts"]),
        ("I`m from Canada and I`m a nurse", ["User is from Canada", "User is a nurse"]),
        (
            "I`m allergic to shellfish; I`ve got two cats",
            ["User is allergic to shellfish", "User has two cats"],
        ),
        # a code span is still read as code beside an apostrophe typed as a backtick (a name
        # in it is the name: tests/test_offline_code_spans.py)
        ("I`m vegan. Use `pd.read_csv` for the file.", ["User is vegan"]),
        ("I`m a nurse and I use `vim`", ["User is a nurse", "User uses vim"]),
        ("I`m a nurse and I run `vim -u NONE`", ["User is a nurse"]),
    ],
)
def test_two_backticks_for_apostrophes_are_no_code_span(said: str, stored: list[str]) -> None:
    assert [c.content for c in candidates_from_text(said)] == stored
