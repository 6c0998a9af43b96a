"""Request bodies over their limit are refused with 413 without reading past the limit.

Driven at the ASGI level: Starlette's TestClient reads a streamed body whole
before the app sees it, which would hide how much the route reads.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from starlette.applications import Starlette
from starlette.types import ASGIApp, Message

from deerflow_memory.api.routes import memory_routes
from deerflow_memory.config import MemoryConfig
from deerflow_memory.service import MemoryService

LIMIT = 4096
CHUNK = 1024


class Upload:
    """An ASGI request body of ``chunks``, counting how many the app pulled."""

    def __init__(self, chunks: list[bytes]) -> None:
        self.chunks = chunks
        self.pulled = 0

    async def receive(self) -> Message:
        if self.pulled < len(self.chunks):
            self.pulled += 1
            more = self.pulled < len(self.chunks)
            return {"type": "http.request", "body": self.chunks[self.pulled - 1], "more_body": more}
        await asyncio.sleep(0)
        return {"type": "http.disconnect"}


def call(
    app: ASGIApp, method: str, path: str, upload: Upload, headers: dict[str, str]
) -> tuple[int, Any]:
    sent: list[Message] = []

    async def send(message: Message) -> None:
        sent.append(message)

    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": method,
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": [
            (k.lower().encode(), v.encode())
            for k, v in {"content-type": "application/json", **headers}.items()
        ],
        "client": ("127.0.0.1", 5000),
        "server": ("127.0.0.1", 8000),
    }
    asyncio.run(app(scope, upload.receive, send))
    start = next(m for m in sent if m["type"] == "http.response.start")
    body = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
    return start["status"], json.loads(body)


@pytest.fixture
def app(tmp_path: Path) -> Any:
    config = MemoryConfig(storage_path=tmp_path / "memory", max_import_bytes=LIMIT)
    with MemoryService(config, register_atexit=False) as memory:
        yield Starlette(routes=memory_routes(memory, ui=False))


def padded_document(size: int) -> bytes:
    text = json.dumps({"facts": [], "padding": ""})
    return text.replace('""', '"' + "x" * (size - len(text)) + '"').encode()


def test_an_import_declaring_a_length_over_the_limit_is_refused_before_reading(app: Any) -> None:
    upload = Upload([b"x" * CHUNK] * 1000)
    status, answer = call(app, "PUT", "/memory/users/ann", upload, {"content-length": "1024000"})
    assert status == 413
    assert "1,024,000 bytes" in answer["error"] and "max_import_bytes" in answer["error"]
    assert upload.pulled == 0


@pytest.mark.parametrize(
    "headers", [{}, {"content-length": "10"}], ids=["chunked", "understated-length"]
)
def test_a_streamed_import_stops_being_read_once_past_the_limit(
    app: Any, headers: dict[str, str]
) -> None:
    upload = Upload([b"x" * CHUNK] * 1000)
    status, answer = call(app, "PUT", "/memory/users/ann", upload, headers)
    assert status == 413 and "max_import_bytes" in answer["error"]
    assert upload.pulled == LIMIT // CHUNK + 1  # the chunk that crossed it, no more


def test_an_import_at_the_limit_is_read_and_saved(app: Any) -> None:
    body = padded_document(LIMIT)
    upload = Upload([body[i : i + CHUNK] for i in range(0, len(body), CHUNK)])
    status, answer = call(app, "PUT", "/memory/users/ann", upload, {})
    assert status == 200, answer
    assert answer["imported"] == 0


def test_a_fact_body_far_over_one_fact_is_refused_without_reading_it_all(app: Any) -> None:
    upload = Upload([b"x" * CHUNK] * 10_000)
    status, answer = call(app, "POST", "/memory/users/ann/facts", upload, {})
    assert status == 413 and "one fact" in answer["error"]
    assert upload.pulled < 10_000
    small = json.dumps({"content": "Likes green tea"}).encode()
    status, answer = call(app, "POST", "/memory/users/ann/facts", Upload([small]), {})
    assert status == 201 and answer["fact"]["content"] == "Likes green tea"


def test_a_content_length_that_is_not_a_number_is_a_400(app: Any) -> None:
    status, answer = call(app, "PUT", "/memory/users/ann", Upload([b"{}"]), {"content-length": "x"})
    assert status == 400 and "Content-Length" in answer["error"]
