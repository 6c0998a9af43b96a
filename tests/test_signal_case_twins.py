"""The signal gate reads what re.IGNORECASE reads as an ASCII letter ("ı", "İ", "ſ", "K")."""

from __future__ import annotations

import re

import pytest

from deerflow_memory.capture.patterns import ASCII_CASE_TWINS, FLAGS, PatternSet
from deerflow_memory.capture.signals import SignalDetector, load_pattern_file

_SETS = (
    "correction_patterns.txt",
    "reinforcement_patterns.txt",
    "agreement_patterns.txt",
    "statement_correction_patterns.txt",
    "statement_reinforcement_patterns.txt",
    "correction_guards.txt",
    "reinforcement_guards.txt",
)
_TWINS = {"i": ("ı", "İ"), "s": ("ſ",), "k": ("K",)}


def test_the_table_holds_every_character_ignorecase_reads_as_an_ascii_letter() -> None:
    every = "".join(chr(c) for c in range(0x80, 0x110000) if not 0xD800 <= c <= 0xDFFF)
    for letter in "abcdefghijklmnopqrstuvwxyz":
        for twin in re.findall(letter, every, re.IGNORECASE):
            read = twin.lower().translate(ASCII_CASE_TWINS)
            assert read == letter, (letter, hex(ord(twin)), read)


def _spellings(text: str) -> list[str]:
    out = []
    for letter, twins in _TWINS.items():
        for twin in twins:
            out.append(text.replace(letter, twin))
            out.append(text.upper().replace(letter.upper(), twin))
    return out


@pytest.mark.parametrize("name", _SETS)
def test_the_gate_agrees_with_a_plain_search_on_twin_spellings(name: str) -> None:
    sentences = [
        "you misunderstood",
        "keep doing that",
        "spot on",
        "that's not what I asked",
        "this is wrong, try again",
        "yes, exactly",
        "this is perfect, thanks",
        "check your maths",
        "it works now",
    ]
    patterns = PatternSet(name, load_pattern_file(name))
    raw = load_pattern_file(name)
    for sentence in sentences:
        for text in _spellings(sentence):
            expected = any(re.search(p, text, FLAGS) for p in raw)
            assert patterns.search(text, text.lower()) is expected, (name, text)


def test_twin_spellings_still_carry_the_signal() -> None:
    detector = SignalDetector()
    assert detector.is_correction("You mısunderstood", "Here is the plan.")
    assert detector.is_reinforcement("KEEP DOİNG THAT", "Here is the plan.")
    assert detector.is_reinforcement("ſpot on", "Here is the plan.")


def test_the_verdict_cache_is_bounded_by_characters() -> None:
    from deerflow_memory.capture import signals

    detector = SignalDetector()
    long_text = "I was thinking about the plan. " * 40_000  # 1.2 M characters
    for i in range(8):
        detector.classify(f"{i} {long_text}", "Here is the plan.")
    kept = sum(len(t) + len(r) for t, r in detector._verdicts)
    assert kept <= signals._VERDICT_CACHE_CHARS
