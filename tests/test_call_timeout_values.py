"""A model call's and a clear's time bounds: seconds > 0, refused when they cannot be waited."""

from __future__ import annotations

import math

import pytest
from langchain_core.language_models.fake_chat_models import FakeListChatModel

from deerflow_memory.errors import ConfigError
from deerflow_memory.storage.file import FileMemoryStorage
from deerflow_memory.update.forget import clear_memory
from deerflow_memory.update.llm import ModelExtractor


@pytest.mark.parametrize("bad", [0, 0.0, -1, math.nan, -math.inf])
def test_a_call_timeout_that_cannot_bound_a_call_is_a_config_error(bad: float) -> None:
    with pytest.raises(ConfigError, match="call_timeout"):
        ModelExtractor(FakeListChatModel(responses=["{}"]), call_timeout=bad)


@pytest.mark.parametrize("huge", [math.inf, 1e300, 10**400])
def test_an_endless_call_timeout_is_no_bound_not_an_overflow(huge: float) -> None:
    extractor = ModelExtractor(FakeListChatModel(responses=["{}"]), call_timeout=huge)
    assert extractor.call_timeout is not None and math.isfinite(extractor.call_timeout)


@pytest.mark.parametrize("bad", [math.nan, -1])
def test_a_clear_lock_timeout_that_cannot_be_waited_is_a_config_error(tmp_path, bad) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(ConfigError, match="lock_timeout"):
        clear_memory(FileMemoryStorage(tmp_path), "u", None, lock_timeout=bad)


def test_an_endless_clear_lock_timeout_clears(tmp_path) -> None:  # type: ignore[no-untyped-def]
    clear_memory(FileMemoryStorage(tmp_path), "u", None, lock_timeout=math.inf)
