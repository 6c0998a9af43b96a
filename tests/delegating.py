"""A storage backend of a test's own that hands every call to a file storage."""

from __future__ import annotations

from collections.abc import Iterator

from deerflow_memory.models import MemoryDocument
from deerflow_memory.storage.base import MemoryStorage
from deerflow_memory.storage.file import FileMemoryStorage


class DelegatingStorage(MemoryStorage):
    """Only the abstract methods, each calling ``inner``: what a custom backend must write.

    Everything else (``delete_fenced``, locks, dead letters) is the base class's,
    so a test sees the defaults a custom backend gets; subclasses change one call.
    """

    def __init__(self, inner: FileMemoryStorage) -> None:
        self.inner = inner

    def load(self, user_id: str, agent_name: str | None = None) -> MemoryDocument:
        return self.inner.load(user_id, agent_name)

    def save(
        self,
        user_id: str,
        agent_name: str | None,
        document: MemoryDocument,
        expected_revision: int | None = None,
    ) -> MemoryDocument:
        return self.inner.save(user_id, agent_name, document, expected_revision)

    def delete(self, user_id: str, agent_name: str | None = None) -> bool:
        return self.inner.delete(user_id, agent_name)

    def list_documents(self) -> Iterator[tuple[str, str | None]]:
        return self.inner.list_documents()
