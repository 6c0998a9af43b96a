"""An imported fact's id must be able to name it in the HTTP routes' path (attack 20 F16).

``PATCH/DELETE /memory/users/{user}/facts/{fact_id}`` name a fact by its id in
one path segment: an id holding a slash, or made of dots only (which clients
and servers resolve away), was imported and then could never be edited or
deleted over HTTP.
"""

from __future__ import annotations

import json

import pytest

from deerflow_memory.errors import InvalidDocumentError
from deerflow_memory.update.import_check import MAX_FACT_ID_CHARS, read_import


def _file(fact_id: str) -> str:
    fact = {"id": fact_id, "content": "Likes green tea", "category": "preference"}
    return json.dumps({"facts": [fact]})


@pytest.mark.parametrize(
    ("fact_id", "problem"),
    [
        ("a/b", "slash"),
        ("x\\y", "slash"),
        ("..", "dots only"),
        (".", "dots only"),
        # No letter or digit a reader can see: an id nobody can type to name the fact.
        ("\u3164", "no letter or digit"),
        ("\u115f\u1160", "no letter or digit"),
        ("\u200b", "no letter or digit"),
        ("-_-", "no letter or digit"),
    ],
)
def test_an_id_that_cannot_name_its_fact_in_a_url_is_refused(fact_id: str, problem: str) -> None:
    with pytest.raises(InvalidDocumentError, match=problem):
        read_import(_file(fact_id))


def test_an_id_too_long_to_type_is_refused_with_its_length() -> None:
    # One of 200,000 characters imported and could then never be typed to forget (attack 55).
    with pytest.raises(InvalidDocumentError, match="id is 200,000 characters") as raised:
        read_import(_file("f" * 200_000))
    assert len(str(raised.value)) < 200
    history = {"facts": [], "supersededFacts": [{"id": "g" * 129, "content": "Likes tea"}]}
    with pytest.raises(InvalidDocumentError, match="longer than 128"):
        read_import(json.dumps(history))


@pytest.mark.parametrize(
    "fact_id", ["fact_0a1b2c3d", "fact 1", ".hidden", "事实-1", "f" * MAX_FACT_ID_CHARS]
)
def test_other_ids_import_unchanged(fact_id: str) -> None:
    assert [f.id for f in read_import(_file(fact_id)).facts] == [fact_id]


@pytest.mark.parametrize("key", ["sourceError", "source_error"])
def test_an_imported_source_error_is_cleaned_and_cut_as_an_updates_is(key: str) -> None:
    # It was kept as given: 3,000 characters, controls and all (attack 31 LOW).
    wrong = "Lived in Rome. " * 200 + "\x1b[2J\u202e"
    doc = read_import(json.dumps({"facts": [{"id": "f1", "content": "Lives in Oslo", key: wrong}]}))
    kept = doc.facts[0].source_error
    assert kept is not None and kept.startswith("Lived in Rome.") and len(kept) <= 500
    assert "\x1b" not in kept and "\u202e" not in kept
    blank = read_import(json.dumps({"facts": [{"id": "f1", "content": "x", key: "\x00\x01"}]}))
    assert blank.facts[0].source_error is None


@pytest.mark.parametrize("confidence", [10**400, -(10**400), 2, -1])
def test_an_integer_confidence_out_of_range_is_refused_whatever_its_size(confidence: int) -> None:
    # One of 400 digits raised OverflowError (math.isfinite): an HTTP 500, a CLI traceback.
    fact = {"id": "f1", "content": "Likes tea", "confidence": confidence}
    for document in ({"facts": [fact]}, {"facts": [], "supersededFacts": [fact]}):
        with pytest.raises(InvalidDocumentError, match="confidence") as raised:
            read_import(json.dumps(document))
        assert len(str(raised.value)) < 200


def test_a_token_budget_of_any_integer_size_is_a_budget_or_a_config_error() -> None:
    from deerflow_memory.errors import ConfigError
    from deerflow_memory.inject.format import format_memory_for_injection
    from deerflow_memory.models import Fact, MemoryDocument

    document = MemoryDocument(facts=(Fact(content="Likes green tea"),))
    assert "Likes green tea" in format_memory_for_injection(document, max_tokens=10**400)
    with pytest.raises(ConfigError, match="max_tokens"):
        format_memory_for_injection(document, max_tokens=-(10**400))


@pytest.mark.parametrize(
    ("fact_id", "problem"),
    [
        ("f1 ", "starts or ends with whitespace"),  # beside "f1": two facts that look one
        ("\tf1", "starts or ends with whitespace"),
        ("cafe\u0301", "NFC"),  # said as "control or bidi-override" before
        ("f\u034f1", r"'f\\u034f1' holds control, invisible"),  # the id shown, escaped
        ("f  1", r"'f  1' holds .* runs of whitespace"),
    ],
)
def test_an_id_that_looks_like_another_is_refused_with_its_reason(
    fact_id: str, problem: str
) -> None:
    with pytest.raises(InvalidDocumentError, match=problem):
        read_import(_file(fact_id))


def test_import_errors_read_as_sentences_for_a_user() -> None:
    # Python's advice (sys.set_int_max_str_digits), a blank-looking id and
    # "content is no letter or digit" (newcomer 36).
    with pytest.raises(InvalidDocumentError, match="more than 4,300 digits") as raised:
        read_import('{"facts": [{"id": "f1", "content": "x", "confidence": ' + "1" * 5000 + "}]}")
    assert "sys." not in str(raised.value)
    with pytest.raises(InvalidDocumentError, match=r"\('\\u3164'\)"):
        read_import(_file("\u3164"))
    blank = json.dumps({"facts": [{"id": "f1", "content": "!!!"}]})
    with pytest.raises(InvalidDocumentError, match="content: no letter or digit"):
        read_import(blank)


@pytest.mark.parametrize("confidence", ["9" * 400, 10**400])
def test_a_confidence_of_hundreds_of_digits_is_out_of_range_not_infinite(
    confidence: object,
) -> None:
    from deerflow_memory.models import proposed_confidence

    with pytest.raises(ValueError, match="outside the allowed range") as raised:
        proposed_confidence(confidence)
    assert len(str(raised.value)) < 200
