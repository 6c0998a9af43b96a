"""Bad input on the rules added since c213d38 (helper 360).

Two patterns tried a run of words every way it could be split, 2^n in the run's length:

- the lead clause "With my bad back, …" listed "dodgy" and "weak" twice among the words
  before the body part: "With my " + "dodgy " * 30 + "x, …" held the extractor for hours
  (18 words took 0.3 s, each more doubled it);
- the list of things given up ("I gave up sugar, salt and caffeine") read each item two ways
  ("peanuts" a food or "pea" + "nuts", "meat and dairy" one thing or two): a list of 14 that
  failed at its end took 13 s.

Each call runs in a child process given a minute before the test calls it hung (a hang
guard, not a speed figure): one regular expression search holds the interpreter's lock until it
ends, so a thread could not be waited for.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

from deerflow_memory.update.offline.text import candidates_from_text


def finishes(code: str) -> str:
    """What ``code`` prints, run in a child process given a minute."""
    try:
        done = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True
        )
    except subprocess.TimeoutExpired:
        pytest.fail("hung on a run of words")
    return done.stdout.strip()


def contents(text: str) -> list[str]:
    return [c.content for c in candidates_from_text(text) if c.content]


@pytest.mark.parametrize("word", ["dodgy ", "weak ", "bad "])
def test_a_long_run_of_words_before_a_body_part_ends(word: str) -> None:
    said = "With my " + word * 60 + "x, what chair should I buy?"
    code = (
        "from deerflow_memory.update.offline.text import candidates_from_text\n"
        f"print([c.content for c in candidates_from_text({said!r}) if c.content])"
    )
    assert finishes(code) == "[]"


@pytest.mark.parametrize(
    ("said", "fact"),
    [
        ("With my bad back, what chair should I buy?", "User has a bad back"),
        ("With my dodgy weak knees, what chair should I buy?", "User has dodgy weak knees"),
        ("With my weak ankles, which shoes are best?", "User has weak ankles"),
    ],
)
def test_what_the_user_lives_with_is_still_read(said: str, fact: str) -> None:
    assert fact in contents(said)


@pytest.mark.parametrize("item", ["meat and dairy, ", "peanuts, ", "shellfish or "])
def test_a_long_list_of_things_given_up_that_fails_at_its_end_ends(item: str) -> None:
    code = (
        "from deerflow_memory.update.offline import retractions\n"
        f"print(retractions._consumed({item * 40 + 'chess'!r}))"
    )
    assert finishes(code) == "False"


@pytest.mark.parametrize(
    ("value", "consumed"),
    [
        ("sugar", True),
        ("meat and dairy", True),
        ("alcohol, sugar and caffeine", True),
        ("smoking & drinking", True),
        ("peanuts , and walnuts", True),
        ("sugar, the choir", False),
        ("the choir", False),
        ("sugar and", False),
    ],
)
def test_a_list_of_things_given_up_reads_as_before(value: str, consumed: bool) -> None:
    from deerflow_memory.update.offline.retractions import _consumed

    assert _consumed(value) is consumed


def test_a_list_given_up_is_still_said() -> None:
    assert "User quit alcohol" in contents("I quit alcohol, sugar and caffeine two years ago")
    assert contents("I gave up the choir") == []  # withdrawn, not said
