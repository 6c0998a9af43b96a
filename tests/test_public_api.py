"""The public surface: every name in ``__all__`` imports, and the list stays sorted and complete."""

from __future__ import annotations

import subprocess
import sys

import deerflow_memory

SPEC_NAMES = {
    "MemoryConfig",
    "load_config",
    "MemoryDocument",
    "Fact",
    "FileMemoryStorage",
    "format_memory_for_injection",
    "filter_messages_for_memory",
    "detect_correction",
    "detect_reinforcement",
    "MemoryUpdateQueue",
    "MemoryUpdater",
    "add_memory_nodes",
    "create_memory_agent",
}


def test_all_is_sorted_and_every_name_resolves() -> None:
    names = deerflow_memory.__all__
    assert names == sorted(names)
    for name in names:
        assert getattr(deerflow_memory, name) is not None, name


def test_the_names_external_checks_call_are_exported() -> None:
    assert set(deerflow_memory.__all__) >= SPEC_NAMES


def test_importing_the_package_does_not_load_heavy_dependencies() -> None:
    code = (
        "import sys, deerflow_memory; "
        "heavy = ('langchain_openai', 'tiktoken', 'langgraph', 'yaml'); "
        "heavy = [m for m in heavy if m in sys.modules]; "
        "print(','.join(heavy))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


def test_the_console_script_is_declared() -> None:
    from importlib.metadata import entry_points

    scripts = {ep.name: ep.value for ep in entry_points(group="console_scripts")}
    assert scripts.get("deerflow-memory") == "deerflow_memory.cli:main"
