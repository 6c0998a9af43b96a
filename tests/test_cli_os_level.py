"""The command line when the operating system says no, run as a user runs it.

Closed stdin/stdout, a reader that stops early (``| head``), a full disk, a
``--root`` that is a file, no permission: every subcommand answers with one
line on stderr and a non-zero exit, never a traceback, and loses nothing. Also
pinned here: ``export -o`` over an existing file, the demo resetting only its
own memory, tables that are not cut when piped, and the import size limit.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from deerflow_memory import FileMemoryStorage, MemoryDocument
from deerflow_memory.cli import main
from deerflow_memory.terminal import write_text_replacing
from tests.test_cli_errors import assert_one_error_line, run
from tests.test_models import DEERFLOW_V1

LONG_FACT = (
    "Prefers answers that walk through distributed-systems incidents step by step, "
    "with the exact commands that were run, and Supercalifragilisticexpialidocious"
    "-ThisTokenHasNoSpacesAtAllAndMustNotBeCutWhenPiped"
)


CLI = (sys.executable, "-m", "deerflow_memory.cli")


def shell(script: str, root: Path, env: dict[str, str] | None = None) -> tuple[int, str, str]:
    """Run ``script`` in bash with ``$CLI`` as the command and ``$ROOT`` as its folder."""
    environ = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("OPENAI_", "DEERFLOW_MEMORY_")) and k not in {"COLUMNS", "LINES"}
    }
    environ.update(CLI=f"{sys.executable} -m deerflow_memory.cli", ROOT=str(root), **(env or {}))
    done = subprocess.run(
        ["bash", "-c", script],
        cwd=root.parent,
        env=environ,
        capture_output=True,
        text=True,
        timeout=120,
        stdin=subprocess.DEVNULL,
    )
    return done.returncode, done.stdout, done.stderr


@pytest.fixture
def root(tmp_path: Path) -> Path:
    """A file root holding ann's memory: DeerFlow's three facts plus one long one."""
    document = MemoryDocument.model_validate(DEERFLOW_V1)
    data = json.loads(document.to_json())
    data["facts"].append({"id": "fact_long", "content": LONG_FACT, "category": "preference"})
    folder = tmp_path / "mem"
    FileMemoryStorage(folder).save("ann", None, MemoryDocument.model_validate(data))
    return folder


def ann_facts(root: Path) -> int:
    return len(FileMemoryStorage(root).load("ann", None).facts)


@pytest.mark.slow
def test_closed_stdout_closed_stdin_and_a_full_disk_are_one_line_each(root: Path) -> None:
    cases = {
        "closed_stdout": ("show --user ann <&- >&-", 2, "standard output: it is closed"),
        "clear_closed_stdout": ("clear --user ann --yes >&-", 2, "standard output: it is closed"),
        "clear_closed_stdin": ("clear --user ann <&-", 1, "--yes"),
        "full_stdout": ("show --user ann >/dev/full", 2, "No space left on device"),
        "full_file": ("export --user ann -o /dev/full", 2, "No space left on device"),
    }
    # One bash run for all (a process start each is the slow part); stderr to a file per case.
    script = "".join(
        f'$CLI --root "$ROOT" {command} 2>"$ROOT/../{name}.err"; echo "{name} $?"\n'
        for name, (command, _, _) in cases.items()
    )
    status, out, err = shell(script, root)
    assert status == 0, err
    codes = dict(line.split() for line in out.splitlines())
    for name, (_, code, words) in cases.items():
        error = (root.parent / f"{name}.err").read_text(encoding="utf-8")
        assert codes[name] == str(code), (name, error)
        assert_one_error_line(code, error, words)
    assert ann_facts(root) == 4  # "clear --yes" with stdout closed refused before deleting


@pytest.mark.slow
def test_a_reader_that_went_away_ends_the_command_quietly_like_sigpipe(root: Path) -> None:
    environ = {k: v for k, v in os.environ.items() if not k.startswith("DEERFLOW_MEMORY_")}
    for command in (["export", "--user", "ann"], ["show", "--user", "ann"], ["list"]):
        # `deerflow-memory show | head -1` once head has exited: the pipe has no reader.
        reader, writer = os.pipe()
        os.close(reader)
        try:
            done = subprocess.run(
                [*CLI, "--root", str(root), *command],
                stdout=writer,
                stderr=subprocess.PIPE,
                env=environ,
                text=True,
                timeout=120,
            )
        finally:
            os.close(writer)
        assert done.returncode == 141, done.stderr  # 128 + SIGPIPE, as a shell reports it
        assert done.stderr == ""  # no traceback, no "Exception ignored ... BrokenPipeError"


@pytest.mark.parametrize(
    "argv",
    [
        ["show", "--user", "ann"],
        ["export", "--user", "ann"],
        ["import", "--user", "ann", "--yes", "IMPORT"],
        ["clear", "--user", "ann", "--yes"],
        ["remember", "--user", "ann", "Likes tea"],
        ["forget", "--user", "ann", "fact_1a2b3c4d"],
        ["stats"],
        ["list"],
        ["pending"],
        ["retry"],
        ["demo"],
    ],
    ids=lambda argv: argv[0],
)
def test_every_subcommand_says_plainly_that_root_is_a_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    a_file = tmp_path / "notes.txt"
    a_file.write_text("not a folder", encoding="utf-8")
    source = tmp_path / "in.json"
    source.write_text(json.dumps(DEERFLOW_V1), encoding="utf-8")
    argv = [str(source) if a == "IMPORT" else a for a in argv]
    status, _, err = run(capsys, "--root", str(a_file), *argv)
    assert_one_error_line(status, err, "--root", "notes.txt", "is not a folder")
    assert status == 2
    assert a_file.read_text(encoding="utf-8") == "not a folder"


def test_permission_denied_anywhere_in_storage_is_one_line_naming_the_path(
    root: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    denied = root / "users" / "ann" / "memory.json"

    def refuse(self: object, *args: object, **kwargs: object) -> None:
        raise PermissionError(13, "Permission denied", str(denied))

    monkeypatch.setattr(FileMemoryStorage, "load", refuse)
    monkeypatch.setattr(FileMemoryStorage, "save", refuse)
    for argv in (
        ["show", "--user", "ann"],
        ["remember", "--user", "ann", "Likes tea"],
        ["stats", "--user", "ann"],
    ):
        status, _, err = run(capsys, "--root", str(root), *argv)
        assert_one_error_line(status, err, "Permission denied", "memory.json")
        assert status == 2 and "--debug" not in err


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() == 0, reason="root reads any folder")
def test_an_unreadable_root_folder_is_one_line(root: Path) -> None:
    (root / "users").chmod(0)
    try:
        status, _, err = shell('$CLI --root "$ROOT" show --user ann', root)
    finally:
        (root / "users").chmod(0o755)
    assert_one_error_line(status, err, "Permission denied")


def test_export_refuses_to_replace_an_existing_file_without_yes(
    root: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "notes.json"
    target.write_text("my own notes", encoding="utf-8")
    status, _, err = run(capsys, "--root", str(root), "export", "--user", "ann", "-o", str(target))
    assert_one_error_line(status, err, "notes.json exists", "--yes")
    assert target.read_text(encoding="utf-8") == "my own notes"

    status, out, _ = run(
        capsys, "--root", str(root), "export", "--user", "ann", "-o", str(target), "--yes"
    )
    assert status == 0 and "exported to" in out
    assert len(json.loads(target.read_text(encoding="utf-8"))["facts"]) == 4


def test_export_to_a_dash_writes_to_stdout_and_no_file_named_dash(
    root: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(root.parent)
    status, out, err = run(capsys, "--root", str(root), "export", "--user", "ann", "-o", "-")
    assert status == 0, err
    assert len(json.loads(out)["facts"]) == 4
    assert not (root.parent / "-").exists()


@pytest.mark.slow
def test_import_of_a_dash_reads_stdin_so_an_export_pipes_into_another_user(root: Path) -> None:
    script = (
        '$CLI --root "$ROOT" export --user ann | $CLI --root "$ROOT" import --user bob -; '
        'echo "piped $?"\n'
        # stdin closed, stdin over the limit, stdin empty: one line each, nothing written
        '$CLI --root "$ROOT" import --user cat - <&- 2>"$ROOT/../closed.err"; echo "closed $?"\n'
        "head -c 9000 /dev/zero | DEERFLOW_MEMORY_MAX_IMPORT_BYTES=4096 "
        '$CLI --root "$ROOT" import --user cat - 2>"$ROOT/../big.err"; echo "big $?"\n'
        '$CLI --root "$ROOT" import --user cat - </dev/null 2>"$ROOT/../empty.err"; '
        'echo "empty $?"\n'
    )
    status, out, err = shell(script, root)
    assert status == 0, err
    codes = dict(line.split() for line in out.splitlines() if line.split()[0] in {
        "piped", "closed", "big", "empty"})  # fmt: skip
    assert codes == {"piped": "0", "closed": "2", "big": "2", "empty": "2"}, (out, err)
    assert "imported 4 facts into bob" in out
    assert len(FileMemoryStorage(root).load("bob", None).facts) == 4
    for name, words in (
        ("closed", ("stdin is closed",)),
        ("big", ("stdin", "import limit", "max_import_bytes=4096")),
        ("empty", ("stdin is empty: nothing to import",)),
    ):
        error = (root.parent / f"{name}.err").read_text(encoding="utf-8")
        assert_one_error_line(2, error, *words)
    assert FileMemoryStorage(root).load("cat", None).revision == 0  # nothing written for cat
    assert not (root.parent / "-").exists()


def test_import_of_a_dash_from_a_terminal_says_to_pipe_the_file_in(
    root: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    class Terminal:
        closed = False

        def isatty(self) -> bool:
            return True

    monkeypatch.setattr(sys, "stdin", Terminal())
    status, _, err = run(capsys, "--root", str(root), "import", "--user", "bob", "-")
    assert_one_error_line(status, err, "stdin, which is a terminal", "pipe it in")
    assert status == 2 and FileMemoryStorage(root).load("bob", None).revision == 0


def test_export_asks_on_a_terminal_and_keeps_the_file_on_no(
    root: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], terminal: Callable[[str], None]
) -> None:
    target = tmp_path / "notes.json"
    target.write_text("my own notes", encoding="utf-8")
    terminal("n\n")
    status, _, err = run(capsys, "--root", str(root), "export", "--user", "ann", "-o", str(target))
    assert status == 1 and "Replace it? [y/N]" in err and "left as it was" in err
    assert target.read_text(encoding="utf-8") == "my own notes"
    terminal("y\n")
    status, _, _ = run(capsys, "--root", str(root), "export", "--user", "ann", "-o", str(target))
    assert status == 0 and "Proficient in Rust" in target.read_text(encoding="utf-8")


def test_a_failed_replacing_write_leaves_the_old_file_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "export.json"
    target.write_text("the old export", encoding="utf-8")

    def disk_full(fd: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", disk_full)
    with pytest.raises(OSError, match="No space left"):
        write_text_replacing(target, "the new export")
    assert target.read_text(encoding="utf-8") == "the old export"
    assert [p.name for p in tmp_path.iterdir()] == ["export.json"]  # no temporary file left


@pytest.mark.slow
def test_the_quick_start_demo_runs_twice_and_says_it_resets_its_own_user(tmp_path: Path) -> None:
    work = tmp_path / "work"
    work.mkdir()
    first = shell("$CLI demo", work)
    second = shell("$CLI demo", work)
    assert first[0] == 0 and second[0] == 0, second[2]
    assert "reset" not in first[1]
    assert "reset 'demo-traveller': 4 facts from an earlier demo run removed" in second[1]
    assert "allergic to peanuts" in second[1].split("injected memory_context", 1)[1]


def test_the_demo_refuses_to_reset_its_user_once_it_holds_facts_the_demo_did_not_write(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "DEERFLOW_MEMORY_CONFIG"):
        monkeypatch.delenv(name, raising=False)
    root = str(tmp_path / "mem")
    assert run(capsys, "--root", root, "remember", "--user", "demo-traveller", "Has a cat")[0] == 0
    status, _, err = run(capsys, "--root", root, "demo")
    assert_one_error_line(status, err, "'demo-traveller'", "did not write", "--yes", "--keep")
    facts = FileMemoryStorage(root).load("demo-traveller", None).facts
    assert [f.content for f in facts] == ["Has a cat"]
    status, out, _ = run(capsys, "--root", root, "demo", "--yes")
    assert status == 0 and "1 fact from before (--yes) removed" in out
    # A fact added and then forgotten leaves history only: said as such ("past facts"
    # puzzled newcomer 304).
    other = str(tmp_path / "other")
    assert run(capsys, "--root", other, "demo")[0] == 0
    assert run(capsys, "--root", other, "remember", "--user", "demo-traveller", "Has a dog")[0] == 0
    [dog] = [
        f for f in FileMemoryStorage(other).load("demo-traveller", None).facts if "dog" in f.content
    ]
    assert run(capsys, "--root", other, "forget", "--user", "demo-traveller", dog.id)[0] == 0
    status, _, err = run(capsys, "--root", other, "demo")
    assert_one_error_line(status, err, "facts deleted or edited by hand, kept as its history")


@pytest.mark.slow
def test_piped_tables_keep_every_cell_whole_and_a_terminal_gets_its_width(root: Path) -> None:
    status, out, err = shell('$CLI --root "$ROOT" show --user ann | cat', root)
    assert status == 0, err
    assert any(LONG_FACT in line for line in out.splitlines())  # not wrapped, not "…"
    assert "fact_long" in out  # ids are shown, for forget

    # On a terminal 60 columns wide, every line fits and the long fact folds, whole.
    script = (
        "import os, pty, subprocess, sys, fcntl, struct, termios\n"
        "leader, follower = pty.openpty()\n"
        "fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack('HHHH', 40, 60, 0, 0))\n"
        "cmd = [sys.executable, '-m', 'deerflow_memory.cli', '--root', os.environ['ROOT'],"
        " 'show', '--user', 'ann']\n"
        "p = subprocess.Popen(cmd, stdin=follower, stdout=follower, stderr=follower)\n"
        "os.close(follower)\n"
        "chunks = []\n"
        "while True:\n"
        "    try:\n"
        "        data = os.read(leader, 65536)\n"
        "    except OSError:\n"
        "        break\n"
        "    if not data:\n"
        "        break\n"
        "    chunks.append(data)\n"
        "p.wait()\n"
        "sys.stdout.write(b''.join(chunks).decode())\n"
    )
    status, out, err = shell(f'{sys.executable} -c "$PROBE"', root, env={"PROBE": script})
    assert status == 0, err
    import re

    plain = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", out).replace("\r", "")
    lines = [line for line in plain.splitlines() if line.strip()]
    assert max(len(line) for line in lines) <= 60
    # (60 columns cannot hold the id, category, confidence, date and the content's
    # longest words side by side: each fact comes as "header: value" lines)
    assert "content:" in plain and "│" not in plain
    assert "".join(LONG_FACT.split()) in "".join(plain.split())


def test_list_offers_json_for_scripts(root: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "--root", str(root), "list", "--json")
    assert status == 0 and json.loads(out) == [{"user": "ann", "agent": None}]


def test_import_over_the_size_limit_is_refused_before_it_is_read_whole(
    root: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DEERFLOW_MEMORY_MAX_IMPORT_BYTES", "4096")
    big = tmp_path / "big.json"
    data = {"facts": [{"content": f"Likes colour number {i}"} for i in range(200)]}
    big.write_text(json.dumps(data), encoding="utf-8")
    status, _, err = run(capsys, "--root", str(root), "import", "--user", "ann", "--yes", str(big))
    assert_one_error_line(status, err, "big.json", "import limit", "max_import_bytes=4096")
    assert status == 2 and ann_facts(root) == 4
    # An endless source stops at the limit too, instead of filling memory or hanging.
    status, _, err = run(capsys, "--root", str(root), "import", "--user", "ann", "/dev/zero")
    assert_one_error_line(status, err, "/dev/zero", "import limit")


def test_import_of_json_nested_thousands_deep_is_one_line(
    root: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    deep = tmp_path / "deep.json"
    deep.write_text('{"facts": ' + "[" * 100_000 + "]" * 100_000 + "}", encoding="utf-8")
    status, _, err = run(capsys, "--root", str(root), "import", "--user", "ann", "--yes", str(deep))
    assert_one_error_line(status, err, "deep.json", "nested too deeply")
    assert ann_facts(root) == 4


def test_an_out_of_range_stored_confidence_loads_and_is_logged_with_its_fact(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    folder = tmp_path / "users" / "old"
    folder.mkdir(parents=True)
    facts = [
        {"id": "f_nan", "content": "a", "confidence": float("nan")},
        {"id": "f_big", "content": "b", "confidence": 7},
        {"id": "f_neg", "content": "c", "confidence": -5},
        {"id": "f_ok", "content": "d", "confidence": 0.8},
    ]
    (folder / "memory.json").write_text(json.dumps({"facts": facts}), encoding="utf-8")
    with caplog.at_level("WARNING", logger="deerflow_memory.models"):
        document = FileMemoryStorage(tmp_path).load("old", None)
    assert [f.confidence for f in document.facts] == [0.0, 1.0, 0.0, 0.8]
    warned = [r.getMessage() for r in caplog.records]
    assert len(warned) == 3
    for fact_id in ("f_nan", "f_big", "f_neg"):
        assert any(fact_id in message for message in warned), warned


def test_main_runs_in_process_without_touching_the_real_stdout(
    root: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # The broken-pipe path redirects the real stdout only; in-process callers keep theirs.
    assert main(["--root", str(root), "list"]) == 0
    assert capsys.readouterr().out == "ann\t(default agent)\n"
