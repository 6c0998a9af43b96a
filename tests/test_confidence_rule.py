"""One confidence rule at every door, and every refusal states it.

The rule (``CONFIDENCE_RULE``): a number from 0 to 1, or a percentage up to 100
(``85`` or ``"85%"`` means 0.85, so ``2`` means 0.02). The CLI says which
confidence it stored; HTTP answers the stored fact; a refusal names the rule,
never only "[0, 1]", and never pydantic's internal names (``confidence.float``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from deerflow_memory import FileMemoryStorage
from deerflow_memory.cli import main
from deerflow_memory.models import CONFIDENCE_RULE, proposed_confidence


@pytest.mark.parametrize(("given", "stored"), [("2", 0.02), ("85", 0.85), ("85%", 0.85)])
def test_remember_says_which_confidence_it_stored(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], given: str, stored: float
) -> None:
    root = str(tmp_path)
    assert (
        main(["--root", root, "remember", "--user", "carl", f"--confidence={given}", "Sushi"]) == 0
    )
    assert f"(confidence {stored:g}, revision 1)" in capsys.readouterr().out
    assert FileMemoryStorage(tmp_path).load("carl").facts[0].confidence == stored


@pytest.mark.parametrize("given", ["150", "150%", "-1", "1e9"])
def test_a_confidence_out_of_range_is_refused_with_the_real_rule(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], given: str
) -> None:
    root = str(tmp_path)
    assert main(["--root", root, "remember", "--user", "carl", f"--confidence={given}", "x y"]) == 2
    error = capsys.readouterr().err
    assert f"confidence {given} is outside" in error and CONFIDENCE_RULE in error
    assert "[0, 1]" not in error  # 2 and 85 are accepted: "[0, 1]" alone would mislead
    assert not FileMemoryStorage(tmp_path).load("carl").facts


def test_the_remember_help_states_the_rule(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["remember", "--help"])
    assert "percentage up to 100" in " ".join(capsys.readouterr().out.split())


def test_model_output_follows_the_same_rule() -> None:
    assert proposed_confidence(85) == proposed_confidence("85%") == 0.85
    with pytest.raises(ValueError, match="percentage up to 100"):
        proposed_confidence(150)


@pytest.mark.parametrize(("given", "stored"), [(85, 0.85), (2, 0.02), (0.5, 0.5), (1, 1.0)])
def test_http_reads_a_confidence_by_the_same_rule(
    client: TestClient, given: float, stored: float
) -> None:
    response = client.post(
        "/memory/users/ana/facts", json={"content": "Likes tea", "confidence": given}
    )
    assert response.status_code == 201 and response.json()["fact"]["confidence"] == stored


@pytest.mark.parametrize(
    ("method", "confidence", "words"),
    [
        ("POST", 150, "confidence 150 is outside the allowed range"),
        ("POST", "0.9", "confidence: must be a JSON number"),
        ("POST", "85%", "confidence: must be a JSON number"),
        ("POST", True, "confidence: must be a JSON number"),
        ("PATCH", "high", "confidence: must be a JSON number"),
        ("PATCH", -3, "confidence -3 is outside the allowed range"),
    ],
)
def test_http_refuses_a_bad_confidence_in_one_plain_message(
    client: TestClient, method: str, confidence: Any, words: str
) -> None:
    fact_id = client.post("/memory/users/ana/facts", json={"content": "Likes tea"}).json()["fact"][
        "id"
    ]
    path = "/memory/users/ana/facts" + (f"/{fact_id}" if method == "PATCH" else "")
    response = client.request(
        method, path, json={"content": "Likes coffee", "confidence": confidence}
    )
    assert response.status_code == 422
    error = response.json()["error"]
    assert words in error
    if "outside" in words:
        assert CONFIDENCE_RULE in error
    else:  # the rule as JSON has it: no "85%", which is refused here
        assert "from 0 to 1, or a percentage up to 100 (85 means 0.85)" in error
        assert "%" not in error
    assert ".float" not in error and ".int" not in error


def test_float_noise_above_one_is_one_and_odd_number_spellings_are_refused() -> None:
    import pytest

    from deerflow_memory.models import proposed_confidence

    assert proposed_confidence(1.0000001) == 1.0  # a model's arithmetic, not 0.01 %
    assert proposed_confidence(1.5) == 0.015  # a real percentage still is one
    assert str(proposed_confidence(-0.0)) == "0.0"
    assert proposed_confidence(" 85 % ") == 0.85
    for text in ("50%%%", "8_5", "1_0", "0x1", "nan%", "%"):
        with pytest.raises(ValueError, match="must be a number"):
            proposed_confidence(text)
