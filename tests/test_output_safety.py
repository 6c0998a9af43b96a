"""Stored or reported text cannot steer a terminal or the model, and absurd values are refused.

Text that did not pass our validators (a DeerFlow memory.json, the journal, a
model server's error message) may carry escape sequences or bidi controls; the
CLI prints them as U+FFFD, the memory block drops the invisible ones. A config
integer Python refuses is a ConfigError; a usage block's absurd count is not a bill.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from langchain_core.messages import AIMessage, HumanMessage

from deerflow_memory import MemoryConfig, MemoryIdentity, MemoryService
from deerflow_memory.config import load_config
from deerflow_memory.errors import ConfigError, ModelCallError
from deerflow_memory.inject.format import format_memory_for_injection
from deerflow_memory.models import Fact, MemoryDocument
from deerflow_memory.terminal import terminal_safe
from deerflow_memory.update.extraction import ModelUsage
from tests.test_cli import cli

ESCAPES = "\x1b]0;pwned\x07\x1b[2J\u202e"


def test_a_dead_letters_error_with_escape_sequences_is_printed_inert(tmp_path: Path) -> None:
    class Down:
        def extract(self, request: object) -> object:
            raise ModelCallError(f"model down {ESCAPES}")

    config = MemoryConfig(storage_path=tmp_path / "m", debounce_seconds=3600)
    with MemoryService(config, extractor=Down(), register_atexit=False) as memory:  # type: ignore[arg-type]
        memory.enqueue(
            MemoryIdentity("alice", None, "t1"), [HumanMessage("Hi, I'm Al."), AIMessage("Hi.")]
        )
        memory.flush(timeout=30)
        assert ESCAPES in memory.dead_letters()[0].error  # stored as the server said it
    done = cli("--root", str(tmp_path / "m"), "pending", cwd=tmp_path)
    assert done.returncode == 0 and "model down" in done.stdout, done.stderr
    for control in ("\x1b", "\x07", "\u202e"):
        assert control not in done.stdout


def test_terminal_safe_keeps_text_line_breaks_and_colour_codes() -> None:
    assert terminal_safe("plain\ttext\n") == "plain\ttext\n"
    assert terminal_safe("\x1b[1;31mred\x1b[0m") == "\x1b[1;31mred\x1b[0m"
    assert terminal_safe(f"a{ESCAPES}b").count("\ufffd") == 4


def test_bidi_controls_and_the_bom_never_reach_the_memory_block() -> None:
    fact = Fact.model_construct(
        **{**Fact(content="x").__dict__, "content": "Likes\u202e tea\ufeff"}
    )
    block = format_memory_for_injection(MemoryDocument.model_construct(facts=(fact,)))
    assert "Likes tea" in block
    assert not any(c in block for c in "\u202e\ufeff\u2066")


def test_a_config_integer_python_refuses_is_a_config_error(tmp_path: Path) -> None:
    huge = "9" * 5000
    path = tmp_path / "c.yaml"
    path.write_text(f"memory:\n  max_facts: {huge}\n")
    with pytest.raises(ConfigError, match="cannot be read"):
        load_config(path, environ={})
    with pytest.raises(ConfigError, match="DEERFLOW_MEMORY_TENANTS"):
        load_config(environ={"DEERFLOW_MEMORY_TENANTS": f'{{"shop": {{"max_facts": {huge}}}}}'})


@pytest.mark.parametrize("reported", [10**30, True, -5, 1.5, "7"])
def test_an_absurd_or_malformed_token_count_is_not_taken_as_a_bill(reported: object) -> None:
    answer = AIMessage(
        "{}", usage_metadata={"input_tokens": 0, "output_tokens": 0, "total_tokens": 0}
    )
    answer.usage_metadata = {"input_tokens": reported, "output_tokens": 12}  # type: ignore[typeddict-item]
    assert ModelUsage.of(answer) == ModelUsage(0, 12)
