"""'Not X, it's Y' corrects X; the wrong statement goes, except a need's (kept to be safe)."""

from __future__ import annotations

from deerflow_memory.models import FactCategory, MemoryDocument
from tests.test_offline_extractor import _extract, _fact

CR = FactCategory.CORRECTION


def test_not_x_its_y_states_y_and_keeps_a_stored_allergy_to_x() -> None:
    # a need goes only when said to be over: "…it's pistachios" and then "both, actually"
    # would otherwise lose a true allergy (attacker 51)
    document = MemoryDocument(facts=(_fact("f1", "User is allergic to hazelnuts"),))
    update = _extract("Sorry, I'm not allergic to hazelnuts, it's pistachios.", document=document)
    assert [(f.content, f.category, f.source_error) for f in update.new_facts] == [
        ("User is allergic to pistachios", CR, "User is allergic to hazelnuts")
    ]
    assert update.facts_to_remove == ()


def test_not_in_x_its_y_moves_the_user() -> None:
    document = MemoryDocument(facts=(_fact("f1", "User lives in Ghent"),))
    update = _extract("I don't live in Ghent, it's Bruges", document=document)
    assert [(f.content, f.category) for f in update.new_facts] == [("User lives in Bruges", CR)]
    assert [r.id for r in update.facts_to_remove] == ["f1"]


def test_a_corrected_statement_that_is_no_need_goes_when_stored() -> None:
    document = MemoryDocument(facts=(_fact("f1", "User works at Ikea"),))
    update = _extract("I don't work at Ikea, it's Lidl", document=document)
    assert [f.content for f in update.new_facts] == ["User works at Lidl"]
    assert [r.id for r in update.facts_to_remove] == ["f1"]


def test_a_place_said_again_after_its_correction_stays() -> None:
    document = MemoryDocument(facts=(_fact("f1", "User lives in Braga"),))
    update = _extract(
        "Actually I live in Porto, not Braga",
        "Sorry, no, I live in Braga, not Porto",
        document=document,
    )
    assert update.new_facts == () and update.facts_to_remove == ()


def test_a_contrast_without_a_marker_removes_nothing() -> None:
    document = MemoryDocument(facts=(_fact("f1", "User likes coffee"),))
    update = _extract("I like tea, not coffee", document=document)
    assert update.facts_to_remove == ()
