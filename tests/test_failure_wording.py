"""Failure messages read as sentences: counts agree in number, jobs are named, not tuples."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import pytest
from langchain_core.messages import AIMessage, HumanMessage

from deerflow_memory import MemoryConfig
from deerflow_memory.errors import ModelCallError
from deerflow_memory.identity import MemoryIdentity
from deerflow_memory.service import MemoryService
from deerflow_memory.update.extraction import ExtractionRequest
from deerflow_memory.update.offline.extractor import OfflineExtractor
from deerflow_memory.update.retry import RetryPolicy, TransientModelError


def always_timing_out() -> None:
    raise TimeoutError("read timed out")


@pytest.mark.parametrize(("retries", "said"), [(0, "failed once:"), (2, "failed 3 times:")])
def test_the_give_up_message_counts_the_calls_in_words(retries: int, said: str) -> None:
    policy = RetryPolicy(call_retries=retries, sleep=lambda _: None)
    with pytest.raises(TransientModelError) as raised:
        policy.call(always_timing_out)
    assert str(raised.value).startswith(f"memory model call {said} TimeoutError")


class ModelDown(OfflineExtractor):
    def extract(self, request: ExtractionRequest) -> Any:
        raise ModelCallError("model endpoint refused the connection")


def test_a_failed_update_is_logged_with_user_agent_and_thread_not_a_tuple(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    config = MemoryConfig(storage_path=tmp_path, debounce_seconds=600, outbox=False)
    with (
        caplog.at_level(logging.WARNING, logger="deerflow_memory"),
        MemoryService(config, extractor=ModelDown(), register_atexit=False) as memory,
    ):
        identity = MemoryIdentity("dave", None, "t1")
        memory.enqueue(identity, [HumanMessage("I own a boat."), AIMessage("Noted.")])
        memory.flush()
    lines = [r.getMessage() for r in caplog.records if "memory update for" in r.getMessage()]
    assert lines and all("user=dave agent=- thread=t1" in line for line in lines), lines
    assert not any("('t1'" in line for line in lines)
