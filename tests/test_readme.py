"""The README's code keeps working: its "Add memory to your graph" example runs as written."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path
from typing import Any

import pytest

README = Path(__file__).resolve().parent.parent / "README.md"


def python_block_after(heading: str) -> str:
    text = README.read_text(encoding="utf-8")
    section = text.split(heading, 1)[1]
    match = re.search(r"```python\n(.*?)```", section, re.DOTALL)
    assert match, f"no python block after {heading!r}"
    return match.group(1)


@pytest.fixture(autouse=True)
def offline_in_tmp_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Run each example in ``tmp_path`` (they use the default ./.deerflow_memory), offline."""
    monkeypatch.chdir(tmp_path)
    for name in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "DEERFLOW_MEMORY_CONFIG"):
        monkeypatch.delenv(name, raising=False)


def run_examples(*headings: str) -> tuple[str, dict[str, Any]]:
    """Run the python block after each heading, in order, in one namespace.

    Returns what the last block printed and the namespace.
    """
    namespace: dict[str, Any] = {}
    out = io.StringIO()
    for heading in headings:
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            exec(compile(python_block_after(heading), str(README), "exec"), namespace)
    return out.getvalue(), namespace


def test_the_add_memory_example_runs_and_remembers_across_threads(tmp_path: Path) -> None:
    printed, namespace = run_examples("## Add memory to your graph")
    assert "<user_memory>" in printed
    assert "allergic to peanuts" in printed
    namespace["memory"].close()
    assert (tmp_path / ".deerflow_memory/users/alice/memory.json").exists()


def test_the_create_agent_example_runs_and_remembers_across_threads(tmp_path: Path) -> None:
    printed, namespace = run_examples("## With `create_agent`")
    assert "allergic to peanuts" in printed
    namespace["memory"].close()
    assert (tmp_path / ".deerflow_memory/users/alice/memory.json").exists()


def test_the_recall_events_example_shows_what_was_taken_into_account() -> None:
    printed, namespace = run_examples("## Add memory to your graph", "**Recall events.**")
    namespace["memory"].close()
    assert "I took into account: User is allergic to peanuts" in printed


def test_the_tenants_example_keeps_one_user_in_two_tenants_apart(tmp_path: Path) -> None:
    printed, _ = run_examples("### Tenants")
    code = python_block_after("### Tenants")
    expected = [line.removeprefix("# ") for line in code.splitlines() if line.startswith("# ")]
    assert printed.splitlines() == expected
    assert (tmp_path / ".deerflow_memory/tenants/shop/users/carol/memory.json").is_file()


def test_the_close_before_the_store_example_keeps_the_turn(tmp_path: Path) -> None:
    from langgraph.store.sqlite import SqliteStore

    from deerflow_memory import MemoryConfig, MemoryService

    run_examples("**Close memory before its store.**")
    with (
        SqliteStore.from_conn_string(str(tmp_path / "memory.sqlite")) as store,
        MemoryService(MemoryConfig(storage="store"), register_atexit=False) as memory,
    ):
        facts = memory.storage_for(store).load("alice", None).facts
    assert any("peanut" in f.content for f in facts), facts
