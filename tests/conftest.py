"""Shared fixtures; area-specific helpers live in their own modules (``tests/openai_server.py``)."""

from __future__ import annotations

import socket
import sys
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
from langchain_core.messages import BaseMessage
from starlette.applications import Starlette
from starlette.authentication import AuthenticationBackend
from starlette.middleware import Middleware
from starlette.middleware.authentication import AuthenticationMiddleware
from starlette.testclient import TestClient

from deerflow_memory.config import MemoryConfig
from deerflow_memory.identity import MemoryIdentity
from deerflow_memory.service import MemoryService


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


class Terminal:
    """A stdin that is a terminal and answers ``answer`` to every question."""

    def __init__(self, answer: str) -> None:
        self.answer = answer

    def isatty(self) -> bool:
        return True

    def readline(self) -> str:
        return self.answer


@pytest.fixture
def terminal(monkeypatch: pytest.MonkeyPatch) -> Callable[[str], None]:
    """``terminal(answer)``: from now on stdin is a terminal whose user types ``answer``
    (e.g. ``"y\\n"``) to each confirmation; undone after the test."""

    def answer_with(answer: str) -> None:
        monkeypatch.setattr(sys, "stdin", Terminal(answer))

    return answer_with


@pytest.fixture
def service(tmp_path: Path) -> Iterator[MemoryService]:
    """A file-backed service on ``tmp_path/memory``: no outbox, updates wait 600 s (a test
    that needs them runs ``service.flush()``). Test modules needing other settings define
    their own ``service``."""
    config = MemoryConfig(storage_path=tmp_path / "memory", debounce_seconds=600, outbox=False)
    with MemoryService(config, register_atexit=False) as memory:
        yield memory


@pytest.fixture
def learned(tmp_path: Path) -> Callable[..., list[str]]:
    """``learned(who, *conversations)``: the facts ``who`` (a ``MemoryIdentity``) has once a
    service on ``tmp_path/memory`` was given each conversation (a message list, enqueued
    for ``who`` and flushed before the next), in order. Updates wait an hour otherwise."""

    def learn(who: MemoryIdentity, *conversations: list[BaseMessage]) -> list[str]:
        config = MemoryConfig(storage_path=tmp_path / "memory", debounce_seconds=3600)
        with MemoryService(config, register_atexit=False) as memory:
            for messages in conversations:
                memory.enqueue(who, messages)
                assert memory.flush(timeout=30)
            return [fact.content for fact in memory.load(who).facts]

    return learn


@pytest.fixture
def client(service: MemoryService) -> Iterator[TestClient]:
    """A client of the memory routes of ``service``, on ``http://127.0.0.1``."""
    from deerflow_memory.api import memory_routes

    with TestClient(
        Starlette(routes=memory_routes(service)), base_url="http://127.0.0.1"
    ) as test_client:
        yield test_client


@pytest.fixture
def auth_client(request: pytest.FixtureRequest) -> Iterator[Any]:
    """``auth_client(backend, memory=None, **options)``: a client of the memory routes of
    ``memory`` (by default the ``service`` fixture's; ``options`` go to ``memory_routes``)
    behind Starlette's ``AuthenticationMiddleware`` with ``backend``, on
    ``http://127.0.0.1``; closed after the test (``memory`` is the caller's)."""
    from deerflow_memory.api import memory_routes

    with ExitStack() as clients:

        def make(
            backend: AuthenticationBackend, memory: MemoryService | None = None, **options: Any
        ) -> TestClient:
            if memory is None:
                memory = request.getfixturevalue("service")
            app = Starlette(
                routes=memory_routes(memory, **options),
                middleware=[Middleware(AuthenticationMiddleware, backend=backend)],
            )
            return clients.enter_context(TestClient(app, base_url="http://127.0.0.1"))

        yield make


@pytest.fixture
def make_client(tmp_path: Path) -> Iterator[Any]:
    """``make(**settings)``: a client of the memory routes of a new service on ``tmp_path/memory``.

    It talks to ``http://127.0.0.1``: the routes accept only known host names.
    """
    services: list[MemoryService] = []

    def make(**settings: Any) -> TestClient:
        from deerflow_memory.api import memory_routes

        config = MemoryConfig(
            storage_path=tmp_path / "memory", debounce_seconds=600, outbox=False, **settings
        )
        service = MemoryService(config, register_atexit=False)
        services.append(service)
        return TestClient(Starlette(routes=memory_routes(service)), base_url="http://127.0.0.1")

    yield make
    for service in services:
        service.close()
