"""A hedge or a preface before the user's statement does not hide it from the offline extractor."""

from __future__ import annotations

import pytest

from tests.test_offline_extractor import _extract


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        ("I'm fairly certain I'm allergic to birch pollen.", ["User is allergic to birch pollen"]),
        ("I guess I'm a morning person.", ["User is a morning person"]),
        ("Not sure if this is relevant, but I have epilepsy.", ["User has epilepsy"]),
        ("Had bloods done last week and turns out I'm anaemic.", ["User is anaemic"]),
        ("I saw a dermatologist and it turns out I have rosacea.", ["User has rosacea"]),
        ("Some background: I'm a paramedic in Leeds.", ["User is a paramedic in Leeds"]),
        ("Fun fact: my middle name is Olwen", ["User's middle name is Olwen"]),
        # ... not before what is no state of the user's: an event, someone else, the chat
        ("I think I broke it", []),
        ("I'm pretty sure I left my phone at work", []),
        ("I think she's vegan", []),
        ("I think my train leaves at 7", []),
        ("I'm 100% sure that's wrong", []),
        ("I suppose I'm fine", []),
    ],
)
def test_a_hedged_or_prefaced_statement_is_stored(said: str, stored: list[str]) -> None:
    assert [f.content for f in _extract(said).new_facts] == stored
