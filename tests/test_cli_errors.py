"""Every CLI error is one line on stderr with a non-zero exit, for every subcommand."""

from __future__ import annotations

import io
import json
import os
import socket
import sys
import threading
import time
from pathlib import Path

import pytest

from deerflow_memory.cli import _parser, main
from tests.test_cli import cli
from tests.test_models import DEERFLOW_V1


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    try:
        status = main(list(argv))
    except SystemExit as e:  # argparse's own errors
        status = int(e.code or 0)
    out, err = capsys.readouterr()
    return status, out, err


def assert_one_error_line(status: int, err: str, *words: str) -> None:
    assert status != 0
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("deerflow-memory: error: ")
    assert "Traceback" not in err
    for word in words:
        assert word in lines[0], lines[0]


@pytest.fixture
def root(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> str:
    """A file root holding ann's memory (three DeerFlow facts)."""
    source = tmp_path / "deerflow.json"
    source.write_text(json.dumps(DEERFLOW_V1), encoding="utf-8")
    folder = str(tmp_path / "mem")
    assert main(["--root", folder, "import", "--user", "ann", str(source)]) == 0
    capsys.readouterr()
    return folder


def write(tmp_path: Path, name: str, data: object) -> str:
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return str(path)


@pytest.fixture(autouse=True)
def offline(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "DEERFLOW_MEMORY_CONFIG"):
        monkeypatch.delenv(name, raising=False)


def test_every_subcommand_answers_a_bad_option_with_one_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    commands = _parser()._subparsers._group_actions[0].choices  # type: ignore[union-attr]
    assert {"demo", "show", "export", "import", "clear", "migrate"} <= set(commands)
    for command in commands:
        status, _, err = run(capsys, command, "--no-such-option")
        # pointed at the subcommand's own help, where its options are listed
        assert_one_error_line(status, err, f"(see deerflow-memory {command} --help)")


def test_every_subcommand_answers_a_missing_config_file_with_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = str(tmp_path / "missing.yaml")
    for argv in (
        ["demo"],
        ["show", "--user", "ann"],
        ["export", "--user", "ann"],
        ["import", "--user", "ann", write(tmp_path, "m.json", DEERFLOW_V1), "--yes"],
        ["clear", "--user", "ann", "--yes"],
    ):
        status, _, err = run(capsys, *argv, "--config", missing)
        assert_one_error_line(status, err, "missing.yaml")


def test_global_options_work_after_the_subcommand(
    root: str, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, _ = run(capsys, "show", "--user", "ann", "--root", root)
    assert status == 0 and "Proficient in Rust" in out


def test_demo_counts_only_the_facts_it_did_not_write(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = str(tmp_path / "mem")
    assert run(capsys, "demo", "--root", folder)[0] == 0
    shown = run(capsys, "show", "--user", "demo-traveller", "--json", "--root", folder)[1]
    learned = len(json.loads(shown)["facts"])
    added = ["remember", "--user", "demo-traveller", "--root", folder, "Prefers green tea"]
    assert run(capsys, *added)[0] == 0
    status, _, err = run(capsys, "demo", "--root", folder)
    assert_one_error_line(status, err, f"(1 of its {learned + 1} facts)", "--yes")


def test_an_unknown_user_or_an_empty_root_is_said_plainly(
    root: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, err = run(capsys, "show", "--user", "nobody", "--root", root)
    assert_one_error_line(status, err, "'nobody'", "stored users: ann")
    assert out == ""
    status, _, err = run(capsys, "export", "--user", "ann", "--root", str(tmp_path / "typo"))
    assert_one_error_line(status, err, "no memory is stored", "typo")


def test_an_unknown_user_is_said_plainly_by_pending_and_retry_too(
    root: str, capsys: pytest.CaptureFixture[str]
) -> None:
    # "no failed memory updates" (exit 0) hid the typo: the user has no memory here at all.
    for command in ("pending", "retry"):
        status, out, err = run(capsys, command, "--user", "nobody", "--root", root)
        assert_one_error_line(
            status, err, "no memory or failed update for user 'nobody'", "stored users: ann"
        )
        assert out == "" and "did you mean" not in err  # nothing close
        status, out, err = run(capsys, command, "--user", "anne", "--root", root)
        assert_one_error_line(status, err, "did you mean 'ann'?")  # newcomer 297
    status, out, _ = run(capsys, "pending", "--user", "nobody", "--json", "--root", root)
    assert status == 1 and json.loads(out) == []  # the output keeps its shape
    status, out, _ = run(capsys, "pending", "--user", "ann", "--root", root)
    assert status == 0 and "no failed memory updates" in out  # a known user: nothing failed


def test_an_unknown_agent_of_a_known_user_names_that_users_agents(
    root: str, capsys: pytest.CaptureFixture[str]
) -> None:
    status, _, err = run(capsys, "show", "--user", "ann", "--agent", "typo", "--root", root)
    assert_one_error_line(status, err, "(agent 'typo')", "stored agents: (default agent)")


@pytest.fixture
def pipe(tmp_path: Path) -> Path:
    """A named pipe no one has opened yet."""
    if not hasattr(os, "mkfifo"):
        pytest.skip("named pipes are POSIX")
    path = tmp_path / "pipe"
    os.mkfifo(path)
    return path


@pytest.mark.timeout(30)
def test_import_of_a_named_pipe_without_a_writer_is_one_line_not_a_hang(
    pipe: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Its open waited for a writer forever (the timeout is a hang guard): now ten seconds.
    root = str(tmp_path / "mem")
    status, _, err = run(capsys, "--root", root, "import", "--user", "ann", "--yes", str(pipe))
    assert_one_error_line(status, err, str(pipe), "no writer opened it within 10 s")
    assert not (tmp_path / "mem").exists()


@pytest.mark.timeout(30)
def test_import_of_a_named_pipe_waits_for_a_writer_that_comes_late(
    pipe: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # "mkfifo p; deerflow-memory import … p & cat doc.json > p": the reader starts first.
    def write_late() -> None:
        time.sleep(0.5)
        pipe.write_text(json.dumps(DEERFLOW_V1), encoding="utf-8")

    writer = threading.Thread(target=write_late)
    writer.start()
    root = str(tmp_path / "mem")
    status, out, err = run(capsys, "--root", root, "import", "--user", "ann", "--yes", str(pipe))
    writer.join(timeout=10)
    assert status == 0, err
    assert "imported 3 facts" in out and not writer.is_alive()


def test_import_of_a_pipe_with_a_writer_reads_what_it_writes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # As `import <(curl …)` gives: the pipe's writer is there when the import opens it.
    read_end, write_end = os.pipe()
    os.write(write_end, json.dumps(DEERFLOW_V1).encode())
    os.close(write_end)
    root = str(tmp_path / "mem")
    try:
        status, out, err = run(
            capsys, "--root", root, "import", "--user", "ann", f"/dev/fd/{read_end}"
        )
    finally:
        os.close(read_end)
    assert status == 0, err
    assert "imported 3 facts" in out


def test_export_to_a_missing_folder_is_one_line(
    root: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = str(tmp_path / "no" / "such" / "out.json")
    status, _, err = run(capsys, "export", "--user", "ann", "--root", root, "-o", target)
    assert_one_error_line(status, err, f"cannot write {target}: ")
    assert ".tmp" not in err  # the path as typed, not the temporary file beside it
    status, _, err = run(capsys, "export", "--user", "ann", "--root", root, "-o", "/dev/full")
    assert_one_error_line(status, err, "cannot write /dev/full: ")


@pytest.mark.parametrize(
    ("data", "words"),
    [
        ({"foo": "bar"}, ["not a memory document"]),
        ([1, 2], ["not a memory document"]),
        ("{not json", ["not JSON"]),
        ({"facts": {"a": 1}}, ["must be a list"]),
        ({"facts": [{"id": "f1", "content": "a"}, {"id": "f1", "content": "b"}]}, ["repeats id"]),
        ({"facts": [{"content": "a", "confidence": 1.7}]}, ["confidence 1.7"]),
        ({"facts": [{"content": "a", "confidence": "high"}]}, ["confidence 'high'"]),
        ({"facts": [{"content": "a", "createdAt": "last tuesday"}]}, ["createdAt", "ISO-8601"]),
        ({"facts": [{"content": "  "}]}, ["no content"]),
        ({"facts": [{"category": "preference"}]}, ["facts[0] has no content"]),
        # there but not text: said as such, not as missing
        ({"facts": [{"content": 5}]}, ["facts[0] content must be text, got a number"]),
        ({"facts": [{"content": ["a"]}]}, ["facts[0] content must be text, got a list"]),
        ({"facts": [{"content": True}]}, ["content must be text, got true/false"]),
    ],
)
def test_import_checks_the_whole_file_and_writes_nothing_when_it_is_bad(
    root: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    data: object,
    words: list[str],
) -> None:
    bad = write(tmp_path, "bad.json", data)
    status, _, err = run(capsys, "import", "--user", "ann", bad, "--yes", "--root", root)
    assert_one_error_line(status, err, "bad.json", *words)
    status, out, _ = run(capsys, "show", "--user", "ann", "--root", root)
    assert status == 0 and "Proficient in Rust" in out  # the memory is untouched


def test_import_of_a_missing_file_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, _, err = run(capsys, "import", "--user", "ann", str(tmp_path / "gone.json"))
    assert_one_error_line(status, err, "cannot read", "gone.json")


def test_clear_with_stdin_closed_deletes_nothing_and_says_so(
    root: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    def closed(prompt: str = "") -> str:
        raise EOFError

    monkeypatch.setattr("builtins.input", closed)
    status, _, err = run(capsys, "clear", "--user", "ann", "--root", root)
    assert_one_error_line(status, err, "--yes")
    assert run(capsys, "show", "--user", "ann", "--root", root)[0] == 0


def test_demo_refuses_to_replace_another_users_memory_without_yes(
    root: str, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, err = run(capsys, "demo", "--user", "ann", "--root", root)
    assert_one_error_line(status, err, "'ann'", "--yes")
    assert out.splitlines()[0].startswith("deerflow-memory demo, offline path")
    status, out, _ = run(capsys, "show", "--user", "ann", "--root", root)
    assert status == 0 and "Proficient in Rust" in out


def test_migrate_with_a_bad_backend_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = run(capsys, "migrate", "--from", "ftp:x", "--to", "file:y")
    assert_one_error_line(status, err, "ftp:x")


def test_literal_brackets_in_paths_are_printed_not_read_as_markup(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    weird = write(tmp_path, "[weird].json", {"foo": 1})
    status, _, err = run(capsys, "import", "--user", "ann", weird)
    assert_one_error_line(status, err, "[weird].json")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.mark.slow
def test_a_model_endpoint_that_is_down_is_one_line_without_a_traceback(tmp_path: Path) -> None:
    down = f"http://127.0.0.1:{free_port()}/v1"  # nothing listens there
    result = cli(
        "demo",
        "--root",
        str(tmp_path / "mem"),
        cwd=tmp_path,
        env={"DEERFLOW_MEMORY_BASE_URL": down, "DEERFLOW_MEMORY_MODEL_TIMEOUT_SECONDS": "2"},
    )
    assert result.stdout.splitlines()[0].startswith(
        f"deerflow-memory demo, model path: gpt-4o-mini at {down}"
    )
    assert_one_error_line(result.returncode, result.stderr, "Connection")
    assert f"the model gpt-4o-mini at {down} failed" in result.stderr  # names what is down
    assert result.returncode == 2  # the environment's answer, not an unexpected failure


def test_reading_a_folder_names_the_folder_not_a_descriptor(tmp_path: Path) -> None:
    from deerflow_memory.terminal import read_bounded

    with pytest.raises(IsADirectoryError) as raised:
        read_bounded(tmp_path, 100)
    assert raised.value.filename == str(tmp_path)


def test_the_model_line_shows_no_credentials_of_its_endpoint() -> None:
    # The demo's failure line repeated the URL with its password (attack 38).
    from deerflow_memory.cli import _model_at
    from deerflow_memory.config import MemoryConfig

    for url, secret in (
        ("http://alice:s3cr3tpass@127.0.0.1:9/v1", "s3cr3tpass"),
        ("http://127.0.0.1:9/v1?api_key=topsecret", "topsecret"),
    ):
        line = _model_at(MemoryConfig(base_url=url, model_name="m"))
        assert secret not in line and "127.0.0.1:9" in line


def test_debug_shows_the_traceback_and_keeps_the_exit_status(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # --debug re-raised, so every failure exited 1 where the one line exits 2 (newcomer 55).
    missing = str(tmp_path / "missing.yaml")
    empty = str(tmp_path / "nothing-here")
    import deerflow_memory.cli as cli_module

    def broken(*_: object) -> int:
        raise RuntimeError("a fault of our own")

    monkeypatch.setitem(cli_module._COMMANDS, "stats", broken)
    for argv in (
        ["show", "--config", missing],
        ["show", "--user", "ann", "--root", empty],
        ["stats"],
    ):
        status, _, err = run(capsys, *argv)
        assert status in (1, 2) and "Traceback" not in err
        debug_status, _, debug_err = run(capsys, *argv, "--debug")
        assert debug_status == status, (argv, debug_err)
        assert debug_err.startswith("Traceback") and "deerflow-memory: error:" not in debug_err


def test_a_bad_openai_base_url_is_one_line_without_its_password(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # httpx said "InvalidURL: Invalid port: 'pa'" (exit 1); with a space in the password
    # the demo printed the whole endpoint on its first line
    password = "Lx42" + "nRw"
    for endpoint in (f"https://bob:{password}/x@127.0.0.1:9/v1", f"https://bob:{password} x@h/v1"):
        monkeypatch.setenv("OPENAI_BASE_URL", endpoint)
        status, out, err = run(capsys, "--root", str(tmp_path / "m"), "demo")
        assert_one_error_line(status, err, "OPENAI_BASE_URL")
        assert status == 2 and password not in out + err


def _letter(root: Path, user: str, agent: str | None, said: str) -> None:
    from langchain_core.messages import HumanMessage

    from deerflow_memory.storage.file import FileMemoryStorage
    from deerflow_memory.update.dead_letter import dead_letter_for
    from deerflow_memory.update.queue import UpdateJob

    job = UpdateJob(f"t-{user}", user, agent, (HumanMessage(said, id=f"h-{user}"),))
    FileMemoryStorage(root).put_dead_letter(dead_letter_for(job, "ModelCallError: 503", attempts=8))


def test_where_only_failed_updates_are_kept_every_command_points_to_pending(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # They said "no memory is stored here (check --root)" or named only other agents
    # (attacker 302): what the user said waits in a failed update.
    root = tmp_path / "mem"
    _letter(root, "ann", None, "I keep bees.")
    _letter(root, "bob", "coder", "I write Go.")
    hints = {
        ("show", "--user", "ann"): "for user 'ann' in",
        ("export", "--user", "bob"): "1 failed update of theirs for agent coder is kept",
        ("show", "--user", "ann", "--agent", "coder"): "of theirs for the default agent is kept",
        ("list",): "no memory is stored in",
        ("stats",): "2 failed updates are kept",
        ("show", "--user", "zed"): "2 failed updates are kept",
    }
    for argv, words in hints.items():
        status, _, err = run(capsys, "--root", str(root), *argv)
        assert_one_error_line(status, err, words, "deerflow-memory pending lists them")
        assert status == 1
    # With memory under another agent, both are said: the letter and the agents stored.
    source = write(tmp_path, "tea.json", {"facts": [{"content": "Drinks oolong"}]})
    assert main(["--root", str(root), "import", "--user", "ann", "--agent", "tea", source]) == 0
    capsys.readouterr()
    status, _, err = run(capsys, "--root", str(root), "show", "--user", "ann")
    assert_one_error_line(status, err, "1 failed update of theirs is kept", "stored agents: tea")


def test_failed_updates_that_cannot_be_listed_leave_the_usual_answer(
    root: str, capsys: pytest.CaptureFixture[str]
) -> None:
    # A dead_letters path that is a file made show exit 2 with "Not a directory" (attacker 302).
    (Path(root) / "dead_letters").write_text("", encoding="utf-8")
    status, _, err = run(capsys, "--root", root, "show", "--user", "bea")
    assert_one_error_line(status, err, "no memory for user 'bea'", "stored users: ann")
    assert status == 1


def test_import_of_a_dash_reads_a_text_stream_put_in_place_of_stdin(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # main() called with sys.stdin = io.StringIO(…) failed: a StringIO has no .buffer.
    import io

    from deerflow_memory.storage.file import FileMemoryStorage

    monkeypatch.setattr(sys, "stdin", io.StringIO('{"facts": [{"content": "Rides a tandem"}]}'))
    status, out, _ = run(capsys, "--root", str(tmp_path), "import", "--user", "cy", "-")
    assert status == 0 and "imported 1 fact into cy" in out
    assert [f.content for f in FileMemoryStorage(tmp_path).load("cy").facts] == ["Rides a tandem"]
    monkeypatch.setattr(sys, "stdin", io.StringIO("{" * 10 + "x" * 5000))
    monkeypatch.setenv("DEERFLOW_MEMORY_MAX_IMPORT_BYTES", "4096")
    status, _, err = run(capsys, "--root", str(tmp_path), "import", "--user", "dee", "-")
    assert_one_error_line(status, err, "stdin", "import limit")


def test_clear_of_a_user_with_nothing_stored_says_so_before_asking_and_writes_nothing(
    root: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # A mistyped --user was asked about, then its fence and locks were written (newcomer 304).
    before = sorted(str(p) for p in Path(root).rglob("*"))
    for argv in (("clear", "--user", "anne"), ("clear", "--user", "anne", "--yes")):
        status, _, err = run(capsys, "--root", root, *argv)
        assert_one_error_line(status, err, "nothing to delete: no memory for user 'anne'")
        assert status == 1 and "did you mean 'ann'?" in err
    assert sorted(str(p) for p in Path(root).rglob("*")) == before
    # a user with memory is still asked (no terminal here: --yes is needed)
    status, _, err = run(capsys, "--root", root, "clear", "--user", "ann")
    assert_one_error_line(status, err, "pass --yes")


def test_show_without_a_user_where_only_failed_updates_are_kept_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = tmp_path / "mem"
    _letter(root, "ann", None, "I keep bees.")
    status, _, err = run(capsys, "--root", str(root), "show")
    assert_one_error_line(status, err, "show needs --user", "1 failed update is kept")
    assert "check --root" not in err


def test_an_empty_file_to_import_is_said_to_be_empty(
    root: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for text in ("", "  \n"):
        empty = write(tmp_path, "empty.json", text)
        status, _, err = run(capsys, "--root", root, "import", "--user", "ann", empty, "--yes")
        assert_one_error_line(status, err, "empty.json is empty: nothing to import")


def test_clear_still_deletes_a_memory_document_that_cannot_be_read(
    root: str, capsys: pytest.CaptureFixture[str]
) -> None:
    # The check for "nothing to delete" read the document first and refused (attacker 306).
    from deerflow_memory.storage.file import FileMemoryStorage

    [path] = Path(root).rglob("memory.json")
    path.write_text("{bad", encoding="utf-8")
    status, out, err = run(capsys, "--root", root, "clear", "--user", "ann", "--yes")
    assert status == 0 and out.startswith("deleted the memory of 'ann'"), err
    assert FileMemoryStorage(root).load("ann", None).facts == ()


class _Terminal(io.StringIO):
    """A terminal whose person types ``self.getvalue()`` (``""``: Ctrl-D at once)."""

    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize(("typed", "said"), [("", "nothing deleted"), ("y\n", None)])
def test_clear_asks_a_terminal_and_ctrl_d_there_is_no(
    typed: str,
    said: str | None,
    root: str,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr("sys.stdin", _Terminal(typed))
    status, _, err = run(capsys, "clear", "--user", "ann", "--root", root)
    assert "Delete the memory of 'ann'" in err
    if said is None:
        assert status == 0
        assert run(capsys, "show", "--user", "ann", "--root", root)[0] == 1
    else:  # one line after the question, and not "no terminal to ask": there was one
        assert status == 1
        assert err.splitlines()[-1] == f"deerflow-memory: error: {said}"
        assert run(capsys, "show", "--user", "ann", "--root", root)[0] == 0


@pytest.mark.parametrize(
    "argv",
    [("show",), ("export",), ("stats",), ("forget", "fact_1"), ("clear", "--yes")],
    ids=lambda argv: argv[0],
)
def test_a_user_whose_memory_was_deleted_is_told_so_not_check_the_root(
    argv: tuple[str, ...], root: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(capsys, "clear", "--user", "ann", "--yes", "--root", root)[0] == 0
    status, _, err = run(capsys, *argv, "--user", "ann", "--root", root)
    assert_one_error_line(status, err, "no memory for user 'ann'", "it was deleted at 20")
    assert status == 1
    assert "check --root" not in err


def test_clear_of_a_mistyped_user_writes_nothing_while_another_users_update_waits(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from deerflow_memory.storage.outbox_file import FileOutbox
    from deerflow_memory.update.durable import decode_messages, encode_messages
    from tests.test_migrate_pending import a_pending_update, left_by_a_stopped_process

    root = tmp_path / "mem"
    assert run(capsys, "--root", str(root), "remember", "--user", "alice", "Plays oboe")[0] == 0
    outbox = FileOutbox(root, encode_messages, decode_messages)
    left_by_a_stopped_process(outbox, a_pending_update())  # alice's, waiting
    files = sorted(p.relative_to(root) for p in root.rglob("*"))
    status, _, err = run(capsys, "clear", "--user", "alcie", "--yes", "--root", str(root))
    assert_one_error_line(status, err, "'alcie'", "did you mean 'alice'")
    assert status == 1
    assert sorted(p.relative_to(root) for p in root.rglob("*")) == files  # no fence, no lock
    # the user whose update waits is cleared, the update with it
    assert run(capsys, "clear", "--user", "alice", "--yes", "--root", str(root))[0] == 0


def test_a_deerflow_memory_json_put_in_place_by_hand_is_memory_to_clear_and_add_to(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # DeerFlow's memory.json has no revision (0 here): it was refused by clear ("no memory
    # to delete") and remember said "this fact starts it"
    root = tmp_path / "mem"
    (root / "users" / "ann").mkdir(parents=True)
    (root / "users" / "ann" / "memory.json").write_text(json.dumps(DEERFLOW_V1), "utf-8")
    status, _, err = run(capsys, "remember", "--user", "ann", "Plays oboe", "--root", str(root))
    assert status == 0 and "starts it" not in err
    status, out, _ = run(capsys, "clear", "--user", "ann", "--yes", "--root", str(root))
    assert status == 0 and "deleted the memory of 'ann'" in out
    (root / "users" / "bob").mkdir()
    (root / "users" / "bob" / "memory.json").write_text(json.dumps(DEERFLOW_V1), "utf-8")
    status, out, _ = run(capsys, "clear", "--user", "bob", "--yes", "--root", str(root))
    assert status == 0 and "deleted the memory of 'bob'" in out
    assert run(capsys, "show", "--user", "bob", "--root", str(root))[0] == 1


@pytest.mark.parametrize("mark", ["\x1b[8m", "Z" * 5000, "", "yesterday"])
def test_a_delete_mark_that_is_no_moment_is_not_printed(
    mark: str, root: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(capsys, "clear", "--user", "ann", "--yes", "--root", root)[0] == 0
    path = Path(root) / "users" / "ann" / "memory.json"
    document = json.loads(path.read_text("utf-8"))
    document["deletedAt"] = document["clearedAt"] = mark
    path.write_text(json.dumps(document), "utf-8")
    status, _, err = run(capsys, "show", "--user", "ann", "--root", root)
    assert_one_error_line(status, err, "no memory for user 'ann'", "it was deleted")
    assert "\x1b" not in err and len(err) < 300


def test_a_hand_placed_document_holding_only_deleted_facts_history_can_be_cleared(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = tmp_path / "mem"
    assert run(capsys, "--root", str(root), "remember", "--user", "ann", "Plays oboe")[0] == 0
    from deerflow_memory.storage.file import FileMemoryStorage

    path = root / "users" / "ann" / "memory.json"
    fact_id = FileMemoryStorage(root).load("ann").facts[0].id
    assert run(capsys, "--root", str(root), "forget", "--user", "ann", fact_id)[0] == 0
    document = FileMemoryStorage(root).load("ann").to_dict()
    assert document["supersededFacts"] and not document["facts"]
    document["revision"] = 0  # as if put in place by hand
    for name in path.parent.glob("memory.journal*"):
        name.unlink()
    path.write_text(json.dumps(document), "utf-8")
    status, out, _ = run(capsys, "clear", "--user", "ann", "--yes", "--root", str(root))
    assert status == 0 and "deleted the memory of 'ann'" in out
