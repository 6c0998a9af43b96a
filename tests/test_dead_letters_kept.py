"""Damaged dead letters stay in view: `pending` lists them, `retry` says one line, keeps them."""

from __future__ import annotations

import json
from pathlib import Path

from langchain_core.messages import AIMessage, HumanMessage, messages_to_dict

from deerflow_memory.storage.dead_letters import DeadLetter
from deerflow_memory.storage.file import FileMemoryStorage
from deerflow_memory.update.dead_letter import dead_letter_for
from deerflow_memory.update.queue import UpdateJob
from tests.test_cli import cli

MESSAGES = (HumanMessage("I am allergic to peanuts.", id="h1"), AIMessage("Noted.", id="a1"))


def good_letter(root: Path, user: str = "ann") -> DeadLetter:
    letter = dead_letter_for(
        UpdateJob("t1", user, None, MESSAGES), "ModelCallError: 503", attempts=8
    )
    FileMemoryStorage(root).put_dead_letter(letter)
    return letter


def test_pending_lists_unreadable_dead_letter_files_with_path_and_reason(tmp_path: Path) -> None:
    root = tmp_path / "mem"
    good_letter(root)
    folder = root / "dead_letters"
    garbage = folder / ("dl_" + "a" * 24 + ".json")
    garbage.write_text("{garbage", encoding="utf-8")
    wrong = folder / ("dl_" + "b" * 24 + ".json")
    letter = json.loads(next(folder.glob("dl_*.json")).read_text(encoding="utf-8"))
    wrong.write_text(json.dumps({**letter, "attempts": "x"}), encoding="utf-8")

    listed = cli("--root", str(root), "pending", "--user", "ann", cwd=tmp_path)
    assert listed.returncode == 0, listed.stderr
    text = " ".join(listed.stdout.split())
    assert "2 unreadable" in text and "1 failed memory update" in text
    assert garbage.name in text and wrong.name in text and "attempts" in text
    as_json = cli("--root", str(root), "pending", "--json", cwd=tmp_path)
    assert len(json.loads(as_json.stdout)) == 1
    warnings = as_json.stderr.splitlines()
    assert len(warnings) == 2 and all("unreadable dead letter" in w for w in warnings)
    assert garbage.read_text(encoding="utf-8") == "{garbage" and wrong.exists()


def test_only_unreadable_dead_letters_are_not_reported_as_no_failed_updates(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "mem" / "dead_letters"
    folder.mkdir(parents=True)
    (folder / ("dl_" + "c" * 24 + ".json")).write_bytes(b"\x00\xff")
    listed = cli("--root", str(tmp_path / "mem"), "pending", cwd=tmp_path)
    assert "no failed memory updates" not in listed.stdout
    assert "1 unreadable" in " ".join(listed.stdout.split())


def test_retry_of_a_letter_with_an_unknown_message_type_is_one_line_and_keeps_it(
    tmp_path: Path,
) -> None:
    root = tmp_path / "mem"
    good_letter(root, "bob")
    bad = good_letter(root, "ann")
    path = root / "dead_letters" / f"{bad.id}.json"
    path.write_text(path.read_text(encoding="utf-8").replace('"human"', '"zzz"'), encoding="utf-8")
    before = path.read_bytes()
    retried = cli("--root", str(root), "retry", cwd=tmp_path)
    assert retried.returncode == 2, retried.stdout + retried.stderr
    assert "Traceback" not in retried.stderr
    assert len(retried.stderr.splitlines()) == 1, retried.stderr
    assert bad.id in retried.stderr and "zzz" in retried.stderr
    assert "1 applied, 0 still failing" in retried.stdout  # bob's letter still went through
    assert path.read_bytes() == before
    assert "peanut" in cli("--root", str(root), "show", "--user", "bob", cwd=tmp_path).stdout


def test_retry_of_a_letter_with_an_unsafe_user_id_is_one_line_without_traceback(
    tmp_path: Path,
) -> None:
    root = tmp_path / "mem"
    letter = DeadLetter.for_key(
        "t1", "../../etc", None, error="x", messages=tuple(messages_to_dict(list(MESSAGES)))
    )
    FileMemoryStorage(root).put_dead_letter(letter)
    retried = cli("--root", str(root), "retry", cwd=tmp_path)
    assert retried.returncode == 2
    assert retried.stderr.startswith("deerflow-memory: error: ")
    assert len(retried.stderr.splitlines()) == 1, retried.stderr
    assert letter.id in retried.stderr and "user_id" in retried.stderr
    assert (root / "dead_letters" / f"{letter.id}.json").exists()
