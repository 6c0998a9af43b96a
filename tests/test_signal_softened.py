"""Corrections said softly or as a failure of what was given, and approvals said as praise.

Before: "That's not quite what I meant", "Hmm, that doesn't look right to me", "The code you
gave me throws an error", "Your link is dead", "Close, but it's 42" were no correction, and
"Great answer." or "You're a lifesaver!" no approval. Their near misses (the user's own code
failing, a question, "Close the door, but…", "You're a star sign expert?") stay neither.

Sentences are this project's own.
"""

from __future__ import annotations

import pytest

from tests.test_signal_kinds import verdict


@pytest.mark.parametrize(
    ("assistant", "user"),
    [
        ("Here is a summary of the chapter.", "That's not quite what I meant."),
        ("The meeting is on the 3rd.", "Not exactly what I asked for."),
        ("The total comes to $412.", "Hmm, that doesn't look right to me."),
        ("Your average is 7.9.", "That number seems off."),
        ("Use `df.groupby('a').sum()`.", "The code you gave me throws an error."),
        ("Try this regex: ^a+$", "Your regex doesn't match anything."),
        ("Here is the link: example.org/docs", "That link is dead."),
        ("The answer is 41.", "Close, but it's 42."),
    ],
)
def test_a_soft_correction_or_a_failure_of_what_was_given_corrects(
    assistant: str, user: str
) -> None:
    assert verdict(assistant, user) == "correction"


@pytest.mark.parametrize(
    ("assistant", "user"),
    [
        ("Here's how photosynthesis works: …", "Great explanation, thanks!"),
        ("Here is the outline.", "Really clear summary."),
        ("I've rebooked your train.", "You're a lifesaver!"),
        ("Done: the invoice is sent.", "That just made my day."),
    ],
)
def test_praise_of_the_answer_approves(assistant: str, user: str) -> None:
    assert verdict(assistant, user) == "approval"


@pytest.mark.parametrize(
    ("assistant", "user"),
    [
        ("What can I help with?", "My code throws an error, can you look at it?"),
        ("Sure, paste it here.", "This script fails when I run it: import foo"),
        ("Anything else?", "Close the blinds, but leave the lamp on."),
        ("How far along are you?", "Nearly there, but one step is left."),
        ("Is the draft ready?", "Is that not quite right?"),
        ("Would this be a good answer?", "Good answer?"),
        ("What do you do?", "You're a star sign expert?"),
        ("What should it include?", "A good answer would mention the price."),
    ],
)
def test_their_near_misses_are_neither(assistant: str, user: str) -> None:
    assert verdict(assistant, user) == "neither"


def test_a_doubt_asked_of_something_else_is_neither() -> None:
    assert (
        verdict("Anything else?", "The date looks wrong on my ticket, can you check?") == "neither"
    )
