"""'I'm not allergic to X, it's Y' corrects X, and the wrong statement goes wherever it is."""

from __future__ import annotations

from deerflow_memory.models import FactCategory, MemoryDocument
from tests.test_offline_extractor import _extract, _fact

CR = FactCategory.CORRECTION


def test_not_x_its_y_states_y_and_removes_the_stored_x() -> None:
    document = MemoryDocument(
        facts=(_fact("f1", "User is allergic to hazelnuts"), _fact("f2", "User likes rye bread"))
    )
    update = _extract("Sorry, I'm not allergic to hazelnuts, it's pistachios.", document=document)
    assert [(f.content, f.category, f.source_error) for f in update.new_facts] == [
        ("User is allergic to pistachios", CR, "User is allergic to hazelnuts")
    ]
    assert [(r.id, r.reason) for r in update.facts_to_remove] == [
        ("f1", "corrected by the user: User is allergic to pistachios")
    ]


def test_a_slip_corrected_in_the_same_conversation_is_never_stored() -> None:
    update = _extract(
        "I'm allergic to hazelnuts.", "Wait, I'm not allergic to hazelnuts, it's pistachios."
    )
    assert [f.content for f in update.new_facts] == ["User is allergic to pistachios"]


def test_y_not_x_after_a_marker_removes_the_stored_need_it_names() -> None:
    document = MemoryDocument(facts=(_fact("f1", "User is allergic to hazelnuts"),))
    update = _extract("Actually I'm allergic to pistachios, not hazelnuts", document=document)
    assert [r.id for r in update.facts_to_remove] == ["f1"]


def test_not_in_x_its_y_moves_the_user() -> None:
    document = MemoryDocument(facts=(_fact("f1", "User lives in Ghent"),))
    update = _extract("I don't live in Ghent, it's Bruges", document=document)
    assert [(f.content, f.category) for f in update.new_facts] == [("User lives in Bruges", CR)]
    assert [r.id for r in update.facts_to_remove] == ["f1"]


def test_a_contrast_without_a_marker_removes_nothing() -> None:
    document = MemoryDocument(facts=(_fact("f1", "User likes coffee"),))
    update = _extract("I like tea, not coffee", document=document)
    assert update.facts_to_remove == ()
