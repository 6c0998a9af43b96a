"""The ASGI lifespans and the signal handler close services through one helper.

A service whose close fails is logged; the ones after it are still flushed and
closed (what the failing one left pending stays in its outbox).
"""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path
from typing import Any

import pytest

from deerflow_memory import MemoryConfig, MemoryService, lifespan_for
from deerflow_memory.service import close_open_services, open_services


def opened(root: Path) -> MemoryService:
    return MemoryService(MemoryConfig(storage_path=root, outbox=False))  # registered: open


def failing_close(timeout: float | None = None) -> Any:
    raise RuntimeError("the disk went away")


def test_a_lifespan_closes_every_service_even_when_one_fails_to_close(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    broken, fine = opened(tmp_path / "a"), opened(tmp_path / "b")
    monkeypatch.setattr(broken, "close", failing_close)
    lifespan = lifespan_for(broken, fine, timeout=5)

    async def serve() -> None:
        async with lifespan(None):
            pass

    try:
        with caplog.at_level(logging.ERROR):
            asyncio.run(serve())
        assert fine not in open_services()  # closed although the other one failed
        assert "flushing memory on shutdown failed" in caplog.text
        assert "the disk went away" in caplog.text
    finally:
        monkeypatch.undo()
        broken.close()
        fine.close()


def test_closing_at_exit_closes_every_service_even_when_one_fails_to_close(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    broken, fine = opened(tmp_path / "a"), opened(tmp_path / "b")
    # The broken one first, whatever order the registry keeps: the next must still close.
    monkeypatch.setattr("deerflow_memory.service.open_services", lambda: [broken, fine])
    monkeypatch.setattr(broken, "close", failing_close)
    try:
        with caplog.at_level(logging.ERROR):
            assert close_open_services(5) is False
        assert fine not in open_services()
        assert "flushing memory on exit failed" in caplog.text
    finally:
        monkeypatch.undo()
        broken.close()
        fine.close()
