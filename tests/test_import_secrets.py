"""An import never repeats a secret in its errors, and names summaries that look like one."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from deerflow_memory.errors import InvalidDocumentError
from deerflow_memory.models import Fact, MemoryDocument
from deerflow_memory.update.answer import parse_update
from deerflow_memory.update.import_check import (
    _texts_in,
    brought_back_note,
    read_import,
    unsafe_summaries_in_import,
)
from deerflow_memory.update.validate import validate_update
from tests.test_cli_errors import assert_one_error_line, run

_PIN = "my PIN is 4821"
_CARD = "card 4111 1111 1111 1111"


def _warned(err: str) -> int:
    """Lines of stderr that warn; beside them, an import into a new root notes that it
    starts the memory there (one line, checked in tests/test_cli_manual.py)."""
    lines = err.splitlines()
    notes = [line for line in lines if line.startswith("deerflow-memory: note: ")]
    assert len(notes) <= 1, err
    return len(lines) - len(notes)


def _problem_of(fact: dict[str, object]) -> str:
    raw = json.dumps({"facts": [{"id": "f1", "content": "Sings in a choir", **fact}]})
    with pytest.raises(InvalidDocumentError) as caught:
        read_import(raw, name="upload")
    return str(caught.value)


@pytest.mark.parametrize(
    "fact",
    [
        {"confidence": _PIN},
        {"confidence": [_CARD]},
        {"createdAt": _CARD},
        {"expiresAt": "the alarm code is 7730"},
        {"id": "password: Tulip8841 "},  # an id with a trailing space
        {"id": "/my PIN is 4821"},  # an id holding a slash
        {"category": "my PIN is 4821\u202e"},  # a bidi override in a category
        # checked as given, not as escaped or cut (attacker 60)
        {"category": "验证码是482193\u200b"},
        {"category": "pass\u200bword: Tulip8841"},
        {"confidence": "4111 1111\n1111 1111"},
        {"confidence": {"pin": 4821}},
        {"confidence": [["nested", "card 4111 1111 1111 1111"]]},
        {"id": "nnnnnnnnnnnnnnnnnnnnnnnn 4111 1111 1111 1111 "},  # cut inside the number
        {"id": "my PIN is 4821"},  # an id every command would print
    ],
)
def test_a_problem_never_repeats_a_value_that_looks_like_a_secret(
    fact: dict[str, object],
) -> None:
    said = _problem_of(fact)
    assert "not shown" in said
    for digits in ("4821", "4111", "7730", "8841", "482193"):
        assert digits not in said


@pytest.mark.parametrize(
    ("fact", "shown"),
    [
        ({"confidence": "high"}, "'high'"),
        ({"createdAt": "last spring"}, "'last spring'"),
        ({"id": "f 2 "}, "'f 2 '"),
    ],
)
def test_a_harmless_bad_value_is_still_named(fact: dict[str, object], shown: str) -> None:
    said = _problem_of(fact)
    assert shown in said and "not shown" not in said


@pytest.mark.parametrize(
    "raw",
    [
        '{"facts": [], "my PIN is 4821": 1, "my PIN is 4821": 2}',  # a repeated key
        '{"facts": [{"id": "f1", "pass\u200bword Heron4": 1, "pass\u200bword Heron4": 1}]}',
        '{"facts": [{"id": "a", "content": "x", "my PIN is 4821": '
        + "[" * 40
        + "1"
        + "]" * 40
        + "}]}",  # a key whose value is nested too deep
    ],
)
def test_a_problem_found_by_another_check_never_repeats_a_secret(raw: str) -> None:
    with pytest.raises(InvalidDocumentError, match="not shown") as caught:
        read_import(raw)
    assert "4821" not in str(caught.value) and "Heron4" not in str(caught.value)


def test_a_huge_bad_value_is_checked_in_bounded_time() -> None:
    # 16 MB in one confidence: only what a problem may show is checked (it took 32 s).
    # Counted, not timed: the check reads at most _CHECKED_CHARS of each text.
    huge = "a1 " * 5_000_000
    raw = json.dumps({"facts": [{"id": "a", "content": "x", "confidence": huge}]})
    with pytest.raises(InvalidDocumentError, match=r"\(15,000,002 characters\)"):
        read_import(raw)
    assert all(len(text) <= 2 * 400 + 1 for text in _texts_in([huge, {huge: huge}]))


def test_two_problems_in_one_fact_the_harmless_one_named() -> None:
    raw = json.dumps(
        {
            "facts": [
                {"id": "f1", "content": "Rows on Sundays", "confidence": _PIN},
                {"id": "f2", "content": "Keeps chickens", "createdAt": "soon"},
            ]
        }
    )
    with pytest.raises(InvalidDocumentError, match="'soon' is not an ISO-8601 date") as caught:
        read_import(raw)
    assert "4821" not in str(caught.value)


def _document(**summaries: str) -> MemoryDocument:
    user = {k: {"summary": v} for k, v in summaries.items() if k != "recentMonths"}
    history = {"recentMonths": {"summary": summaries.get("recentMonths", "")}}
    return MemoryDocument.model_validate({"user": user, "history": history})


def test_summaries_that_look_like_a_secret_are_named_by_path() -> None:
    document = _document(
        workContext="Runs a small pottery studio.",
        personalContext="Keeps a spare key under the mat. The garage code is 5512.",
        recentMonths="Their laptop password is Heron7713.",
    )
    assert unsafe_summaries_in_import(document) == (
        "user.personalContext",
        "history.recentMonths",
    )
    assert unsafe_summaries_in_import(_document(workContext="Teaches piano to kids.")) == ()


def _file(tmp_path: Path, work: str) -> Path:
    path = tmp_path / "memory.json"
    body = {
        "facts": [{"id": "a", "content": "Grows tomatoes"}],
        "user": {"workContext": {"summary": work}},
    }
    path.write_text(json.dumps(body), "utf-8")
    return path


def test_the_command_warns_about_a_summary_without_repeating_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = str(tmp_path / "mem")
    path = _file(tmp_path, "Fixes bikes. The shop alarm code is 3391.")
    status, out, err = run(capsys, "--root", root, "import", "--user", "ed", str(path))
    assert status == 0 and "imported 1 fact" in out
    assert _warned(err) == 1 and "3391" not in err
    assert "the summary user.workContext looks like a secret" in err
    plain = _file(tmp_path, "Fixes bikes in a small shop.")
    status, _, err = run(capsys, "--root", root, "import", "--user", "fi", str(plain))
    assert status == 0 and _warned(err) == 0


def test_the_command_refuses_a_bad_file_without_repeating_a_secret(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({"facts": [{"content": "Bakes bread", "confidence": _PIN}]}))
    status, _, err = run(capsys, "--root", str(tmp_path / "m"), "import", "--user", "g", str(path))
    assert_one_error_line(status, err, "confidence", "not shown")
    assert "4821" not in err


def test_the_import_route_names_summaries_that_look_like_a_secret(
    client: TestClient, tmp_path: Path
) -> None:
    body = _file(tmp_path, "Fixes bikes. The shop alarm code is 3391.").read_bytes()
    done = client.put(
        "/memory/users/ed", content=body, headers={"Content-Type": "application/json"}
    )
    assert done.status_code == 200
    assert done.json()["summariesLookUnsafe"] == ["user.workContext"]
    assert done.json()["looksUnsafe"] == []


def test_a_deleted_fact_brought_back_is_named_by_its_id_when_it_looks_like_a_secret() -> None:
    facts = (
        Fact(id="f_code", content="The shed lock code is 5512", category="context"),
        Fact(id="f_tea", content="Drinks rooibos", category="preference"),
    )
    note = brought_back_note(facts)
    assert "5512" not in note and "f_code (its text not shown)" in note
    assert "f_tea: Drinks rooibos" in note


def test_a_route_error_never_repeats_a_value_that_looks_like_a_secret(
    client: TestClient,
) -> None:
    gone = client.delete("/memory/users/ed/facts/my PIN is 5150")
    assert gone.status_code in (404, 400) and "5150" not in gone.text
    other = client.delete("/memory/users/ed/facts/fact_nothing")
    assert other.status_code == 404 and "fact_nothing" in other.text


def test_a_uuid_fact_id_is_imported() -> None:
    # ids of other tools are UUIDs: no secret (attacker 63; one was refused as a token); an
    # id is refused only for words that look like one ("my PIN is 4821")
    raw = json.dumps({"facts": [{"id": "9b1deb4d-3b7d-4bad-9bdd-2b0d7b3dcb6d", "content": "x y"}]})
    assert read_import(raw).facts[0].id == "9b1deb4d-3b7d-4bad-9bdd-2b0d7b3dcb6d"


def test_a_route_error_never_names_a_body_key_that_looks_like_a_secret(
    client: TestClient,
) -> None:
    sent = client.post("/memory/users/ed/facts", json={"content": "Likes tea", "my PIN is 4821": 1})
    assert sent.status_code == 422 and "4821" not in sent.text


def test_a_long_bad_confidence_is_not_quoted_cut() -> None:
    # Cut to 20 characters, "the card is 4111 1111 1111 1111" kept 12 digits and lost its
    # name; a short value is quoted whole, and hidden when it looks like a secret.
    for value, said in (
        ("the card is 4111 1111 1111 1111", "31 characters"),
        ("hunter22 is my password", "not shown"),
    ):
        answer = {"newFacts": [{"content": "Likes figs", "confidence": value}, {"content": "Rows"}]}
        [rejection] = validate_update(parse_update(json.dumps(answer))).rejected
        assert "4111" not in rejection.reason and "hunter22" not in rejection.reason
        assert said in rejection.reason


@pytest.mark.parametrize(
    "key", ["/sk-proj-abcdefghijklmnopqrstuvwx", "~/password=Heron42", "./4111-1111-1111-1111"]
)
def test_a_secret_shaped_like_a_path_is_not_shown(key: str) -> None:
    # attacker 65: a quoted value that looks like a file's path skipped the check
    raw = json.dumps({"facts": [], key: json.loads("[" * 40 + "]" * 40)})
    with pytest.raises(InvalidDocumentError) as caught:
        read_import(raw)
    assert key not in str(caught.value) and "not shown" in str(caught.value)


def _file_with_history(tmp_path: Path, old: str) -> Path:
    path = tmp_path / f"history-{len(list(tmp_path.iterdir()))}.json"
    gone = {"id": "h1", "content": old, "supersededAt": "2026-01-02T00:00:00Z", "reason": "x"}
    body = {"facts": [{"id": "a", "content": "Grows tomatoes"}], "supersededFacts": [gone]}
    path.write_text(json.dumps(body), "utf-8")
    return path


def test_history_that_looks_like_a_secret_is_named_by_its_id(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], client: TestClient
) -> None:
    # A secret forgotten in one memory, exported and imported into another (the model
    # never reads history, but the new memory's exports list it).
    root = str(tmp_path / "mem")
    path = _file_with_history(tmp_path, "The bike lock combination is 4471")
    status, out, err = run(capsys, "--root", root, "import", "--user", "hu", str(path))
    assert status == 0 and "imported 1 fact" in out
    assert _warned(err) == 1 and "(h1)" in err and "history" in err and "4471" not in err
    plain = _file_with_history(tmp_path, "Grew peppers")
    status, _, err = run(capsys, "--root", root, "import", "--user", "hv", str(plain))
    assert status == 0 and _warned(err) == 0
    done = client.put(
        "/memory/users/hw", content=path.read_bytes(), headers={"Content-Type": "application/json"}
    )
    assert done.status_code == 200 and done.json()["historyLooksUnsafe"] == ["h1"]


def test_an_id_that_looks_like_a_secret_is_not_shown_in_the_warnings(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # The warnings name facts and history entries by id; such an id was shown (attacker 69).
    token = "sk_live_Quartz7Heron2Maple9Otter4"
    path = tmp_path / "ids.json"
    gone = {"id": token, "content": "The gate code is 5531", "supersededAt": "2026-01-02T00:00:00Z"}
    body = {
        "facts": [{"id": f"{token}x", "content": "The alarm code is 7719"}],
        "supersededFacts": [{**gone, "reason": "x"}],
    }
    path.write_text(json.dumps(body), "utf-8")
    status, _, err = run(capsys, "--root", str(tmp_path / "m"), "import", "--user", "jo", str(path))
    assert status == 0 and _warned(err) == 2
    assert "Quartz7" not in err and "not shown" in err


def test_secrets_hidden_takes_one_said_value_or_a_collection_of_them() -> None:
    from deerflow_memory.errors import InvalidArgumentError
    from deerflow_memory.update.unsafe import secrets_hidden

    token = "/sk_live_Quartz7Heron2Maple9Otter4"
    assert "Quartz7" not in secrets_hidden(f"agent {token!r} is bad", said=token)
    for wrong in (None, 5, [1]):
        with pytest.raises(InvalidArgumentError, match="said"):
            secrets_hidden("a message", said=wrong)  # type: ignore[arg-type]
