"""An extractor that records what the memory model would be sent: the offline one underneath."""

from __future__ import annotations

import threading

from deerflow_memory.models import MemoryUpdate
from deerflow_memory.update.extraction import ExtractionRequest
from deerflow_memory.update.offline.extractor import OfflineExtractor


class Recording:
    """The offline extractor, recording every user line it was sent (thread-safe)."""

    def __init__(self) -> None:
        self.inner = OfflineExtractor()
        self.sent: list[str] = []
        self.lock = threading.Lock()

    def extract(self, request: ExtractionRequest) -> MemoryUpdate:
        with self.lock:
            self.sent += [str(m.content) for m in request.messages if m.type == "human"]
        return self.inner.extract(request)
