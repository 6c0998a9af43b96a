"""The README's code keeps working: its "Add memory to your graph" example runs as written."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

import pytest

README = Path(__file__).resolve().parent.parent / "README.md"


def python_block_after(heading: str) -> str:
    text = README.read_text(encoding="utf-8")
    section = text.split(heading, 1)[1]
    match = re.search(r"```python\n(.*?)```", section, re.DOTALL)
    assert match, f"no python block after {heading!r}"
    return match.group(1)


def test_the_add_memory_example_runs_and_remembers_across_threads(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # the example uses the default ./.deerflow_memory
    for name in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "DEERFLOW_MEMORY_CONFIG"):
        monkeypatch.delenv(name, raising=False)
    code = python_block_after("## Add memory to your graph")
    out = io.StringIO()
    namespace: dict[str, object] = {}
    with contextlib.redirect_stdout(out):
        exec(compile(code, str(README), "exec"), namespace)
    assert "<user_memory>" in out.getvalue()
    assert "allergic to peanuts" in out.getvalue()
    memory = namespace["memory"]
    memory.close()  # type: ignore[attr-defined]
    assert (tmp_path / ".deerflow_memory/users/alice/memory.json").exists()


def test_the_create_agent_example_runs_and_remembers_across_threads(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    for name in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "DEERFLOW_MEMORY_CONFIG"):
        monkeypatch.delenv(name, raising=False)
    code = python_block_after("## With `create_agent`")
    out = io.StringIO()
    namespace: dict[str, object] = {}
    with contextlib.redirect_stdout(out):
        exec(compile(code, str(README), "exec"), namespace)
    assert "allergic to peanuts" in out.getvalue()
    memory = namespace["memory"]
    memory.close()  # type: ignore[attr-defined]
    assert (tmp_path / ".deerflow_memory/users/alice/memory.json").exists()


def test_the_recall_events_example_shows_what_was_taken_into_account(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    for name in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "DEERFLOW_MEMORY_CONFIG"):
        monkeypatch.delenv(name, raising=False)
    setup = python_block_after("## Add memory to your graph")
    display = python_block_after("**Recall events.**")
    out = io.StringIO()
    namespace: dict[str, object] = {}
    with contextlib.redirect_stdout(out):
        exec(compile(setup, str(README), "exec"), namespace)
        out.seek(0)
        out.truncate()
        exec(compile(display, str(README), "exec"), namespace)
    namespace["memory"].close()  # type: ignore[attr-defined]
    assert "I took into account: User is allergic to peanuts" in out.getvalue()


def test_the_tenants_example_keeps_one_user_in_two_tenants_apart(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    for name in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "DEERFLOW_MEMORY_CONFIG"):
        monkeypatch.delenv(name, raising=False)
    code = python_block_after("### Tenants")
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, str(README), "exec"), {})
    expected = [line.removeprefix("# ") for line in code.splitlines() if line.startswith("# ")]
    assert out.getvalue().splitlines() == expected
    assert (tmp_path / ".deerflow_memory/tenants/shop/users/carol/memory.json").is_file()
