"""Shared fixtures; area-specific helpers live in their own modules (``tests/openai_server.py``)."""

from __future__ import annotations

import socket
from collections.abc import Iterator

import pytest


class NetworkBlocked(RuntimeError):
    """Raised when code under test tries to open a non-loopback connection."""


@pytest.fixture
def no_network(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[object]]:
    """Make every outbound socket connection fail; yields the list of attempted addresses."""
    attempts: list[object] = []
    real_connect = socket.socket.connect

    def guarded_connect(self: socket.socket, address: object) -> None:
        attempts.append(address)
        raise NetworkBlocked(f"network access attempted: {address!r}")

    def guarded_create_connection(address: object, *args: object, **kwargs: object) -> None:
        attempts.append(address)
        raise NetworkBlocked(f"network access attempted: {address!r}")

    monkeypatch.setattr(socket.socket, "connect", guarded_connect)
    monkeypatch.setattr(socket, "create_connection", guarded_create_connection)
    yield attempts
    monkeypatch.setattr(socket.socket, "connect", real_connect)
