"""'I used to X, now Y': the present is stored and replaces what it supersedes (surveyor 1)."""

from __future__ import annotations

import pytest

from deerflow_memory.models import MemoryDocument
from tests.test_offline_extractor import _extract, _fact


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        ("I used to live in Porto, now I'm in Seville.", ["User lives in Seville"]),
        ("I used to live in Riga but now I live in Tallinn", ["User now lives in Tallinn"]),
        (
            "I was living in Leeds until May, now I'm back home in Galway.",
            ["User was living in Leeds until May", "User lives in Galway"],
        ),
        ("I'm back home in Galway", []),  # home for a visit, maybe (attacker 51)
        # "now I'm in X" alone, or "now" with nothing said, tells no home
        ("I landed, now I'm in Oslo", []),
        ("I used to smoke, now I don't", []),
        ("I was confused but now I get it", ["User was confused"]),
        ("now I get it, thanks", []),
    ],
)
def test_the_present_after_a_past_is_stored(said: str, stored: list[str]) -> None:
    assert [f.content for f in _extract(said).new_facts] == stored


def test_a_new_home_after_a_past_one_replaces_the_stored_home() -> None:
    document = MemoryDocument(facts=(_fact("f1", "User lives in Porto"),))
    update = _extract("I used to live in Porto, now I'm in Seville.", document=document)
    assert [f.content for f in update.new_facts] == ["User lives in Seville"]
    assert [r.id for r in update.facts_to_remove] == ["f1"]
