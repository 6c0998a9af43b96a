"""A local OpenAI-compatible chat-completions server for tests (no network beyond 127.0.0.1).

It answers ``POST /v1/chat/completions`` with a JSON completion, or with SSE
chunks and ``data: [DONE]`` when the request has ``"stream": true``, so the
real ``ChatOpenAI`` client path (sync and async httpx pools) is exercised.

Answers are scripted: queue them with :meth:`OpenAIServer.reply` (served in
order), or set :attr:`OpenAIServer.responder` to a function of the request body.
Failure modes: an HTTP status with an error body (and headers such as
``Retry-After``), a body that is no completion (a proxy's HTML page with status
200), a delay past the client's timeout, a body trickled a byte at a time,
a transport-truncated body, and a
model-truncated answer (``finish_reason="length"``). Every request body is recorded.

Use the ``openai_server`` fixture (import it into a test module, or list this
module in ``pytest_plugins``)::

    def test_x(openai_server):
        openai_server.reply('{"newFacts": []}')
        model = openai_server.chat_model()
"""

from __future__ import annotations

import contextlib
import json
import socket
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

__all__ = ["OpenAIServer", "Reply", "openai_server"]


@dataclass(frozen=True)
class Reply:
    """One scripted answer.

    Attributes:
        content: the assistant message text.
        status: HTTP status; anything but 200 sends an OpenAI-style error body.
        delay: seconds to wait before answering (exceed the client timeout to test timeouts).
        truncate_body: send a Content-Length larger than the body and close (transport failure).
        finish_reason: ``"length"`` marks an answer the model cut off.
        tool_calls: ``({"name": ..., "arguments": {...}}, ...)``: the answer calls tools
            (``finish_reason`` becomes ``"tool_calls"``).
        usage: ``(prompt_tokens, completion_tokens)`` of the answer's ``usage``
            block; None sends no ``usage`` (a server that reports none).
    """

    content: str = ""
    status: int = 200
    delay: float = 0.0
    truncate_body: bool = False
    finish_reason: str = "stop"
    headers: tuple[tuple[str, str], ...] = ()
    """Extra response headers, e.g. ``(("Retry-After", "2"),)`` with a 429."""
    tool_calls: tuple[dict[str, Any], ...] = ()
    usage: tuple[int, int] | None = (10, 10)
    error_message: str | None = None
    """The error body's ``message`` when ``status`` is not 200 (default ``scripted <status>``)."""
    raw_body: bytes | None = None
    """Send these bytes as the whole body instead of a completion (an HTML page from a proxy)."""
    content_type: str = "text/html; charset=utf-8"
    """The ``Content-Type`` of ``raw_body``."""
    trickle: float = 0.0
    """Seconds between the body's bytes (a slow proxy: no single read waits long)."""

    def openai_tool_calls(self) -> list[dict[str, Any]]:
        """The calls as OpenAI's ``message.tool_calls`` list."""
        return [
            {
                "id": f"call_{index}",
                "type": "function",
                "function": {"name": call["name"], "arguments": json.dumps(call["arguments"])},
            }
            for index, call in enumerate(self.tool_calls)
        ]


Responder = Callable[[dict[str, Any]], "Reply | str"]


class OpenAIServer:
    """The server; start with :meth:`start` (the fixture does) and stop with :meth:`stop`."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._script: deque[Reply | str | Responder] = deque()
        self._stop = threading.Event()
        # Open keep-alive connections: stop() closes them, or their handler threads
        # (and through them this server and every recorded request) outlive the test.
        self._connections: set[socket.socket] = set()
        self.requests: list[dict[str, Any]] = []
        self.responder: Responder = lambda body: Reply('{"newFacts": []}')
        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), _make_handler(self))
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(
            target=self._httpd.serve_forever,
            kwargs={"poll_interval": 0.05},
            name="openai-test-server",
            daemon=True,
        )

    @property
    def url(self) -> str:
        """``http://127.0.0.1:<port>``; the client's ``base_url`` is ``url + "/v1"``."""
        host, port = self._httpd.server_address[:2]
        return f"http://{host!s}:{port}"

    @property
    def request_count(self) -> int:
        """Chat-completion requests received so far."""
        with self._lock:
            return len(self.requests)

    def reply(self, *answers: Reply | str | Responder) -> None:
        """Queue answers for the next requests, in order; a string is a plain 200 answer."""
        with self._lock:
            self._script.extend(answers)

    def chat_model(self, *, timeout: float = 5.0, model: str = "test-model", **kwargs: Any) -> Any:
        """A real ``ChatOpenAI`` pointed at this server (no retries)."""
        from langchain_openai import ChatOpenAI

        return ChatOpenAI(
            model=model,
            base_url=self.url + "/v1",
            api_key="sk-test",
            max_retries=0,
            timeout=timeout,
            **kwargs,
        )

    def memory_config(self, storage_path: Any, **settings: Any) -> Any:
        """A ``MemoryConfig`` whose memory model is this server: files under
        ``storage_path``, no debounce, no model-call retries; ``settings`` override."""
        from deerflow_memory.config import MemoryConfig

        base: dict[str, Any] = {
            "storage_path": str(storage_path),
            "debounce_seconds": 0.0,
            "model_name": "test-model",
            "base_url": self.url + "/v1",
            "api_key": "sk-test",
            "model_call_retries": 0,
        }
        return MemoryConfig(**{**base, **settings})

    def start(self) -> OpenAIServer:
        """Serve on a daemon thread."""
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop serving and close open connections; delayed answers are abandoned.

        A pooled client (``ChatOpenAI`` caches its httpx clients process-wide) keeps
        its connection open, and the handler thread would wait on it for good.
        """
        self._stop.set()
        self._httpd.shutdown()
        self._httpd.server_close()
        with self._lock:
            connections, self._connections = self._connections, set()
        for connection in connections:
            with contextlib.suppress(OSError):
                connection.shutdown(socket.SHUT_RDWR)
        _forget_cached_clients()

    def _opened(self, connection: socket.socket) -> None:
        with self._lock:
            if self._stop.is_set():  # accepted just before stop(): close it too
                with contextlib.suppress(OSError):
                    connection.shutdown(socket.SHUT_RDWR)
            else:
                self._connections.add(connection)

    def _closed(self, connection: socket.socket) -> None:
        with self._lock:
            self._connections.discard(connection)

    def _next_reply(self, body: dict[str, Any]) -> Reply:
        with self._lock:
            self.requests.append(body)
            item = self._script.popleft() if self._script else self.responder
        answer = item(body) if callable(item) else item
        return Reply(answer) if isinstance(answer, str) else answer

    def _sleep(self, seconds: float) -> None:
        self._stop.wait(seconds)


def _forget_cached_clients() -> None:
    """Drop the httpx clients ``ChatOpenAI`` caches process-wide, one sync and one async per
    base URL, each with its own TLS context (~1.6 MB a pair), up to 128 of each.

    Every test server listens on a new port, so without this the suite keeps ~200 MB of
    clients for servers that are gone. Models already made keep their own clients.
    """
    utils = sys.modules.get("langchain_openai.chat_models._client_utils")
    for name in ("_cached_sync_httpx_client", "_cached_async_httpx_client"):
        cache_clear = getattr(getattr(utils, name, None), "cache_clear", None)
        if cache_clear is not None:
            cache_clear()


def _completion(body: dict[str, Any], reply: Reply) -> dict[str, Any]:
    return {
        "id": "chatcmpl-test",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": body.get("model", "test-model"),
        "choices": [
            {
                "index": 0,
                "message": {
                    "role": "assistant",
                    "content": reply.content,
                    **({"tool_calls": reply.openai_tool_calls()} if reply.tool_calls else {}),
                },
                "finish_reason": "tool_calls" if reply.tool_calls else reply.finish_reason,
            }
        ],
        **(
            {
                "usage": {
                    "prompt_tokens": reply.usage[0],
                    "completion_tokens": reply.usage[1],
                    "total_tokens": sum(reply.usage),
                }
            }
            if reply.usage is not None
            else {}
        ),
    }


def _sse(body: dict[str, Any], reply: Reply) -> bytes:
    def chunk(delta: dict[str, Any], finish: str | None) -> str:
        data = {
            "id": "chatcmpl-test",
            "object": "chat.completion.chunk",
            "created": int(time.time()),
            "model": body.get("model", "test-model"),
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
        }
        return f"data: {json.dumps(data)}\n\n"

    text = reply.content
    step = max(1, len(text) // 3)
    pieces = [text[i : i + step] for i in range(0, len(text), step)] or [""]
    events = [chunk({"role": "assistant", "content": ""}, None)]
    events += [chunk({"content": piece}, None) for piece in pieces]
    calls = [{"index": i, **call} for i, call in enumerate(reply.openai_tool_calls())]
    if calls:
        events.append(chunk({"tool_calls": calls}, None))
    events.append(chunk({}, "tool_calls" if calls else reply.finish_reason))
    events.append("data: [DONE]\n\n")
    return "".join(events).encode()


def _make_handler(server: OpenAIServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"  # keep-alive, like a real endpoint: pooled connections

        def log_message(self, format: str, *args: Any) -> None:
            pass

        def setup(self) -> None:
            super().setup()
            # Headers and body go out in two writes: without this, Nagle's algorithm
            # meets the client's delayed ACK and every answer waits ~40 ms.
            self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            server._opened(self.connection)

        def finish(self) -> None:
            server._closed(self.connection)
            super().finish()

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length", "0"))
            raw = self.rfile.read(length)
            if not self.path.rstrip("/").endswith("/chat/completions"):
                self._send(404, b'{"error": {"message": "not found"}}', "application/json")
                return
            body = json.loads(raw or b"{}")
            reply = server._next_reply(body)
            if reply.delay:
                server._sleep(reply.delay)
            try:
                if reply.raw_body is not None:
                    self._send(reply.status, reply.raw_body, reply.content_type, False, reply)
                elif reply.status != 200:
                    error = {
                        "error": {
                            "message": reply.error_message or f"scripted {reply.status}",
                            "type": "server_error",
                        }
                    }
                    self._send(
                        reply.status, json.dumps(error).encode(), "application/json", False, reply
                    )
                elif body.get("stream"):
                    self._send(200, _sse(body, reply), "text/event-stream", reply.truncate_body)
                else:
                    payload = json.dumps(_completion(body, reply)).encode()
                    self._send(200, payload, "application/json", reply.truncate_body, reply)
            except (BrokenPipeError, ConnectionResetError):
                pass  # the client gave up (timeout test): nothing to answer

        def _send(
            self,
            status: int,
            payload: bytes,
            ctype: str,
            truncate: bool = False,
            reply: Reply | None = None,
        ) -> None:
            self.send_response(status)
            self.send_header("Content-Type", ctype)
            for name, value in reply.headers if reply is not None else ():
                self.send_header(name, value)
            if truncate:
                self.send_header("Content-Length", str(len(payload) + 100))
                self.send_header("Connection", "close")
                self.end_headers()
                self.wfile.write(payload[: len(payload) // 2])
                self.wfile.flush()
                self.close_connection = True
                return
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            if reply is not None and reply.trickle:
                self.wfile.flush()
                for at in range(len(payload)):
                    if server._stop.is_set():
                        return
                    self.wfile.write(payload[at : at + 1])
                    self.wfile.flush()
                    server._sleep(reply.trickle)
                return
            self.wfile.write(payload)

    return Handler


@pytest.fixture
def openai_server() -> Iterator[OpenAIServer]:
    """A running :class:`OpenAIServer`, stopped after the test."""
    server = OpenAIServer().start()
    try:
        yield server
    finally:
        server.stop()
