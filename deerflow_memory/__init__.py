"""Long-term user memory for LangGraph agents, as graph nodes.

After a conversation, durable facts about the user are extracted into a
persistent memory document; before every later turn, in any thread, that
memory is formatted within a token budget and put in front of the model.

Public names are imported lazily so ``import deerflow_memory`` stays cheap.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

# public name -> module that defines it
_EXPORTS: dict[str, str] = {
    "ConfigError": "errors",
    "CorruptMemoryError": "errors",
    "DeerflowMemoryError": "errors",
    "ExtractionRequest": "extraction",
    "Extractor": "extraction",
    "Fact": "models",
    "FactCategory": "models",
    "FileMemoryStorage": "storage.file",
    "InvalidNameError": "errors",
    "MemoryConfig": "config",
    "MemoryDocument": "models",
    "MemoryStorage": "storage.base",
    "MemoryUpdate": "models",
    "ModelCallError": "errors",
    "RevisionConflictError": "errors",
    "SourceType": "models",
    "StateSchemaError": "errors",
    "StorageError": "errors",
    "UpdateParseError": "errors",
    "format_memory_for_injection": "injection",
    "load_config": "config",
}

__all__ = sorted([*_EXPORTS, "__version__"])

if TYPE_CHECKING:
    from deerflow_memory.config import MemoryConfig, load_config
    from deerflow_memory.errors import (
        ConfigError,
        CorruptMemoryError,
        DeerflowMemoryError,
        InvalidNameError,
        ModelCallError,
        RevisionConflictError,
        StateSchemaError,
        StorageError,
        UpdateParseError,
    )
    from deerflow_memory.extraction import ExtractionRequest, Extractor
    from deerflow_memory.injection import format_memory_for_injection
    from deerflow_memory.models import Fact, FactCategory, MemoryDocument, MemoryUpdate, SourceType
    from deerflow_memory.storage.base import MemoryStorage
    from deerflow_memory.storage.file import FileMemoryStorage


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'deerflow_memory' has no attribute {name!r}")
    value = getattr(importlib.import_module(f"deerflow_memory.{module}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return __all__
