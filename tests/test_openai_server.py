"""The test server itself: stopping it releases what it holds, so tests do not pile memory up."""

from __future__ import annotations

import gc
import threading
import time
import weakref

from tests.openai_server import OpenAIServer


def _handler_threads() -> list[threading.Thread]:
    return [
        t
        for t in threading.enumerate()
        if getattr(getattr(t, "_target", None), "__name__", "") == "process_request_thread"
    ]


def test_a_stopped_server_leaves_no_connection_thread_no_cached_client_and_is_freed() -> None:
    from langchain_openai.chat_models import _client_utils

    before = len(_handler_threads())
    server = OpenAIServer().start()
    server.reply('{"newFacts": []}', '{"newFacts": []}')
    model = server.chat_model()
    model.invoke("hello")  # the process-wide cached pool keeps its connection open
    assert len(_handler_threads()) == before + 1
    server.stop()

    deadline = time.monotonic() + 5
    while len(_handler_threads()) > before and time.monotonic() < deadline:
        time.sleep(0.01)
    assert len(_handler_threads()) == before
    assert _client_utils._cached_sync_httpx_client.cache_info().currsize == 0
    assert _client_utils._cached_async_httpx_client.cache_info().currsize == 0
    gone = weakref.ref(server)
    del server, model
    gc.collect()
    assert gone() is None  # nothing keeps the server and its recorded requests
