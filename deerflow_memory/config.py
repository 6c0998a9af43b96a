"""``MemoryConfig`` and ``load_config``: settings from code, a YAML file or the environment.

Precedence, lowest to highest: defaults, the YAML file, ``DEERFLOW_MEMORY_*``
environment variables, keyword overrides. A DeerFlow ``config.yaml`` with a
``memory:`` section loads as is (``token_counting: true``, ``storage: {use: ...}``).
Invalid values raise :class:`~deerflow_memory.errors.ConfigError` naming the
field and what is allowed.

Strictness: an unknown key (in YAML, ``DEERFLOW_MEMORY_*`` or keyword
overrides) is an error with a "did you mean"; only the DeerFlow settings we
knowingly ignore (:data:`DEERFLOW_IGNORED_KEYS`) are a warning. A key given
twice in one YAML mapping is an error, and so are two spellings of one setting
in one source (an alias beside its name in YAML, ``DEERFLOW_MEMORY_MAX_FACTS``
beside ``DEERFLOW_MEMORY_max_facts``) and a settings key that is not text.
Names from input are shown escaped (``\\n``, ``\\x1b``) in every message.
An empty ``storage_path`` or ``storage_dsn`` is an error (never "the current
directory"). Secrets (the API key, passwords in ``storage_dsn`` or ``base_url``)
are replaced by ``***`` in every error message and in ``repr(config)``.

Bounds: a config file is a regular file of at most :data:`MAX_CONFIG_BYTES`
(a FIFO or device is refused without waiting on it), its YAML aliases repeat at
most :data:`MAX_ALIASED_VALUES` values, and a bad value is shown bounded in its
error (an int too long to print by its size). Unknown names are listed ten at
most, each cut to 80 characters, with a "did you mean" for those ten only.
"""

from __future__ import annotations

import difflib
import json
import os
import re
import reprlib
import stat
import unicodedata
from collections.abc import Hashable, Iterable, Mapping
from pathlib import Path
from typing import Any, Literal, get_args
from urllib.parse import urlsplit

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SecretStr,
    ValidationError,
    ValidationInfo,
    field_validator,
)

from deerflow_memory.errors import ConfigError, InvalidNameError
from deerflow_memory.logs import package_logger
from deerflow_memory.models import FactCategory, validate_name

# The SQLite database inside a folder given as storage_path (storage: sqlite).
SQLITE_FILE_NAME = "memory.sqlite"

__all__ = [
    "DEERFLOW_IGNORED_KEYS",
    "ENV_PREFIX",
    "MAX_ALIASED_VALUES",
    "MAX_CONFIG_BYTES",
    "DuplicateKeyError",
    "MemoryConfig",
    "RetrievalConfig",
    "check_path",
    "json_object_without_duplicates",
    "load_config",
    "normalize_origin",
    "redact_secrets",
]

logger = package_logger(__name__)

ENV_PREFIX = "DEERFLOW_MEMORY_"
CONFIG_PATH_ENV = "DEERFLOW_MEMORY_CONFIG"
TEST_ENV_PREFIX = "DEERFLOW_MEMORY_TEST_"
MAX_CONFIG_BYTES = 1 << 20
"""A config file is read up to this many bytes (1 MiB); a larger one (or an endless
device such as ``/dev/zero``) is refused with a :class:`ConfigError`, never read whole."""

StorageKind = Literal["file", "store", "sqlite", "postgres"]
TokenCounting = Literal["tiktoken", "char"]


class _NumbersNotBooleans(BaseModel):
    """Refuses ``true``/``false`` for a number field (pydantic's lax mode reads them as 1/0).

    ``max_facts: true`` in YAML is a mistake, never "one fact". Numbers given as
    text (``DEERFLOW_MEMORY_MAX_FACTS=50``) still convert as before.
    """

    @field_validator("*", mode="before")
    @classmethod
    def _no_booleans_for_numbers(cls, value: Any, info: ValidationInfo) -> Any:
        if isinstance(value, bool) and info.field_name is not None:
            field = cls.model_fields[info.field_name]
            kinds = set(get_args(field.annotation)) or {field.annotation}
            if bool not in kinds and kinds & {int, float}:
                raise ValueError(f"must be a number, not a boolean ({str(value).lower()})")
        return value


class RetrievalConfig(_NumbersNotBooleans):
    """Knobs of relevance retrieval (``injection_mode="relevant"``).

    Relevance is by rank: BM25 alone, or BM25 and embeddings fused by
    reciprocal rank (``1/(fusion_k + rank)`` summed over the sources).
    Importance and recency only break near-ties: they can close a relevance
    gap of at most ``tie_break`` (relative to the best match), never more.
    The cut is rank-based (``top_k``); ``similarity_threshold`` adds an
    absolute cut on the source's own scale when set.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    candidates: int = Field(
        20, ge=1, le=10_000, description="Best matches of each similarity source that are ranked."
    )
    top_k: int = Field(
        5, ge=1, le=1_000, description="Relevant facts kept after ranking (guaranteed ones extra)."
    )
    similarity_threshold: float | None = Field(
        None,
        ge=0.0,
        le=1.0,
        description=(
            "Optional absolute cut: normalised BM25 without an embedder, cosine with one "
            "(calibrate per embedder: e5 cosines sit in 0.7-0.9). None = rank-based only."
        ),
    )
    fusion_k: int = Field(
        60, ge=1, le=10_000, description="k of reciprocal-rank fusion of BM25 and embeddings."
    )
    tie_break: float = Field(
        0.05,
        ge=0.0,
        le=1.0,
        description="Largest relevance gap (share of the best match) importance and recency close.",
    )
    similarity_weight: float = Field(
        0.5, ge=0.0, le=1.0, description="Unused since rank fusion; kept so older configs load."
    )
    importance_weight: float = Field(
        0.3, ge=0.0, le=1.0, description="Share of importance in the tie-breaker."
    )
    recency_weight: float = Field(
        0.2, ge=0.0, le=1.0, description="Share of recency in the tie-breaker."
    )
    recency_decay_days: float = Field(
        30.0, gt=0.0, le=36_500.0, description="Recency is exp(-age_days / recency_decay_days)."
    )


class TenantOverrides(_NumbersNotBooleans):
    """Per-tenant thresholds and budgets (``MemoryConfig.tenants[name]``); None = global value."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    # The upper bounds of the global fields of MemoryConfig (a test keeps them equal); a
    # tenant may have a smaller injection budget than the global floor of 50 tokens.
    max_facts: int | None = Field(None, ge=1, le=100_000)
    fact_confidence_threshold: float | None = Field(None, ge=0.0, le=1.0)
    max_new_facts_per_update: int | None = Field(None, ge=1, le=10_000)
    injected_memory_max_tokens: int | None = Field(None, ge=0, le=200_000)
    guaranteed_token_budget: int | None = Field(None, ge=0, le=200_000)
    constraint_token_budget: int | None = Field(None, ge=0, le=200_000)
    debounce_seconds: float | None = Field(None, ge=0.0, le=3600.0)


_MAX_CATEGORY_NAMES = 64  # a list of categories longer than this is no setting


class MemoryConfig(_NumbersNotBooleans):
    """Every knob of the memory system, with DeerFlow's names and defaults."""

    model_config = ConfigDict(extra="forbid", validate_assignment=True, frozen=False)

    def __init__(self, **data: Any) -> None:
        """Validate keyword settings; bad values raise :class:`ConfigError`, secrets masked."""
        try:
            super().__init__(**data)
        except ValidationError as e:
            secrets = [str(data[k]) for k in _SECRET_FIELDS if data.get(k) is not None]
            raise ConfigError(redact_secrets(_format_validation_error(e), secrets)) from e

    enabled: bool = Field(True, description="Master switch: capture, update and injection.")
    injection_enabled: bool = Field(True, description="Inject memory into the model input.")

    # storage
    storage: StorageKind = Field(
        "file", description="Backend: file, store (runtime store), sqlite or postgres."
    )
    storage_path: Path = Field(
        Path(".deerflow_memory"),
        description=(
            "Root folder of the file backend, or the SQLite database file (a folder, or a "
            "path spelled as one, 'db/', holds memory.sqlite)."
        ),
    )
    storage_dsn: str | None = Field(
        None, description="PostgreSQL connection string for storage=postgres."
    )
    file_journal: bool = Field(
        True,
        description=(
            "File backend: append each save's changes to memory.journal.jsonl (one fsync) "
            "and fold them into memory.json from time to time; false rewrites memory.json "
            "on every save, for programs such as DeerFlow that read the file itself."
        ),
    )

    # capture and queue
    debounce_seconds: float = Field(
        30.0, ge=0.0, le=3600.0, description="Quiet time before a queued update runs."
    )
    max_wait_seconds: float = Field(
        120.0,
        ge=0.0,
        le=86400.0,
        description="Longest a queued update may be postponed by new turns.",
    )
    max_workers: int = Field(2, ge=1, le=32, description="Threads running memory updates.")
    shutdown_flush_timeout_seconds: float = Field(
        10.0, ge=0.0, le=600.0, description="How long a clean exit waits for pending updates."
    )
    outbox: bool = Field(
        True,
        description="Record captured turns durably in the storage backend until updated.",
    )
    outbox_commit_interval_ms: float = Field(
        5.0,
        ge=0.0,
        le=1000.0,
        description="Group-commit window of the outbox: the most a crash can lose, in ms.",
    )
    outbox_lease_seconds: float = Field(
        300.0,
        gt=0.0,
        le=86400.0,
        description="Store outbox: a claimed update is retaken by another process after this.",
    )
    outbox_poll_seconds: float = Field(
        5.0,
        gt=0.0,
        le=3600.0,
        description="Outbox: how often a process looks for updates others left (died, late).",
    )
    update_lock_timeout_seconds: float = Field(
        120.0,
        gt=0.0,
        le=3600.0,
        description="Longest an update waits for its user's lock before it is dead-lettered.",
    )
    correction_patterns: list[str] = Field(
        default_factory=list, description="Extra regular expressions that mark a user correction."
    )
    reinforcement_patterns: list[str] = Field(
        default_factory=list, description="Extra regular expressions that mark user approval."
    )

    # updater
    max_facts: int = Field(
        200, ge=1, le=100_000, description="Facts kept per document; lowest confidence evicted."
    )
    fact_confidence_threshold: float = Field(
        0.7, ge=0.0, le=1.0, description="New facts below this confidence are dropped."
    )
    max_superseded_facts: int = Field(
        100,
        ge=0,
        le=100_000,
        description="Removed or replaced facts kept as history (newest kept).",
    )
    max_new_facts_per_update: int = Field(
        20,
        ge=1,
        le=10_000,
        description=(
            "New facts (and removals) one update may make; also the most stored facts "
            "one update may evict. The rest is dropped with a warning."
        ),
    )
    max_fact_chars: int = Field(
        500,
        ge=20,
        le=100_000,
        description="Longest fact accepted, in characters; longer ones are rejected.",
    )
    max_summary_chars: int = Field(
        2000,
        ge=100,
        le=1_000_000,
        description="Longest summary section kept, in characters; cut at a sentence boundary.",
    )
    max_update_retries: int = Field(
        3, ge=1, le=20, description="Saves tried when the revision moved."
    )
    max_import_bytes: int = Field(
        16 * 1024 * 1024,
        ge=1024,
        le=1 << 40,
        description="Largest file `deerflow-memory import` (and the import route) reads.",
    )
    http_allowed_origins: list[str] = Field(
        default_factory=list,
        description="Other web origins (scheme://host:port) whose pages may change memory "
        "through the HTTP routes; default: the server's own origin only. Their host names "
        "are also the names, besides IP addresses and localhost, the routes answer to.",
    )

    http_require_auth: bool = Field(
        False,
        description="The HTTP routes answer 401 to a request that is not authenticated "
        "(anonymous callers are no operator); default: unauthenticated requests are the "
        "operator, for a server on localhost.",
    )

    # hygiene (issue 16)
    staleness_age_days: float = Field(
        90.0, gt=0.0, le=36_500.0, description="Facts unconfirmed this long are due for review."
    )
    staleness_min_due: int = Field(
        3, ge=1, le=1_000, description="Due facts needed before the model is asked to review."
    )
    consolidation_threshold: float = Field(
        0.85,
        ge=0.0,
        le=1.0,
        description="Lexical similarity above which same-category facts are merged (1 = off).",
    )
    consolidation_embedding_threshold: float = Field(
        0.97,
        ge=0.0,
        le=1.0,
        description=(
            "With an embedder: cosine that also merges facts whose lexical similarity is "
            "at least 0.65 (cosine alone cannot tell look-alikes apart)."
        ),
    )
    judge: Literal["off", "model"] = Field(
        "off", description="model: a second, cheap call drops candidate facts that will not last."
    )
    judge_model_name: str | None = Field(
        None, description="Model of the judge call (default: the memory model)."
    )
    access_flush_seconds: float = Field(
        5.0, gt=0.0, le=3600.0, description="How often injected-fact use counts are written."
    )

    # model
    model_name: str | None = Field(
        None, description="Chat model for memory updates; None = offline extractor."
    )
    base_url: str | None = Field(
        None, description="OpenAI-compatible endpoint (else OPENAI_BASE_URL)."
    )
    api_key: SecretStr | None = Field(None, description="API key (else OPENAI_API_KEY).")
    model_timeout_seconds: float = Field(
        60.0, gt=0.0, le=3600.0, description="Timeout of one memory model call."
    )
    structured_output: Literal["auto", "on", "off"] = Field(
        "auto",
        description="Ask for the update as a JSON schema: auto (OpenAI-style models), on, off.",
    )

    # extraction cost and failures
    update_conversation_max_tokens: int = Field(
        8000,
        ge=200,
        le=1_000_000,
        description="Token budget of the conversation part of one update call; more = more calls.",
    )
    max_model_calls_per_update: int = Field(
        16,
        ge=1,
        le=1000,
        description=(
            "Model calls one update may make; the rest of a longer burst is queued again "
            "(one debounce window later), and one message needing more calls is cut (said "
            "in the prompt)."
        ),
    )
    update_memory_max_tokens: int = Field(
        4000, ge=200, le=1_000_000, description="Token budget of the memory part of the prompt."
    )
    update_context_messages: int = Field(
        1, ge=0, le=10, description="Already-extracted messages shown before the new ones."
    )
    update_gate: bool = Field(
        True, description="Skip the model for bursts with nothing about the user in them."
    )
    model_call_retries: int = Field(
        3, ge=0, le=20, description="Extra calls after a 429/5xx/timeout within one update."
    )
    retry_base_seconds: float = Field(
        1.0, ge=0.0, le=600.0, description="First backoff; doubles per retry, with jitter."
    )
    retry_max_backoff_seconds: float = Field(
        60.0, ge=0.0, le=3600.0, description="Longest single wait (Retry-After is capped here)."
    )
    requeue_base_seconds: float = Field(
        30.0, ge=0.0, le=3600.0, description="Wait before a failed update's first requeued try."
    )
    update_max_attempts: int = Field(
        8, ge=1, le=1000, description="Requeued attempts of a failing update before dead letter."
    )
    update_retry_window_seconds: float = Field(
        3600.0,
        ge=0.0,
        le=7 * 86400.0,
        description="Time after the first failure at which a failing update is dead-lettered.",
    )

    # injection
    token_counting: TokenCounting = Field(
        "tiktoken", description="tiktoken (offline vocabularies) or char estimate."
    )
    tiktoken_encoding: Literal["o200k_base", "cl100k_base"] = Field(
        "o200k_base", description="Vocabulary used when token_counting=tiktoken."
    )
    injected_memory_max_tokens: int = Field(
        2000, ge=50, le=200_000, description="Token budget of the injected memory block."
    )
    guaranteed_categories: list[FactCategory] = Field(
        default_factory=lambda: [FactCategory.CORRECTION],
        description="Fact categories injected first, with their own budget.",
    )
    guaranteed_token_budget: int = Field(
        500, ge=0, le=200_000, description="Token budget of the guaranteed facts."
    )
    constraint_token_budget: int = Field(
        300,
        ge=0,
        le=200_000,
        description=(
            "Token budget of constraints (allergies, diet, medical and accessibility needs), "
            "injected first on every turn in both injection modes."
        ),
    )

    memory_tools: Literal["off", "search", "read_write"] = Field(
        "off",
        description=(
            "Memory tools of create_memory_agent: search (search_memory) or read_write "
            "(also remember and forget, which write manual facts); off = none."
        ),
    )
    injection_mode: Literal["all", "relevant"] = Field(
        "all",
        description=(
            "all: every fact by confidence within the budget (DeerFlow); relevant: guaranteed "
            "facts plus those relevant to the latest user message (seed 001)."
        ),
    )
    retrieval: RetrievalConfig = Field(
        default_factory=RetrievalConfig, description="Ranking used when injection_mode=relevant."
    )
    tenants: dict[str, TenantOverrides] = Field(
        default_factory=dict,
        description="Per-tenant overrides of thresholds and budgets, by tenant id.",
    )
    max_open_tenants: int = Field(
        32,
        ge=1,
        le=4096,
        description=(
            "Tenant services (queue threads, outbox files) open at once; beyond it the least "
            "recently used idle one is closed, or one with updates waiting only in the outbox is "
            "parked until they are due."
        ),
    )
    only_configured_tenants: bool = Field(
        False,
        description="Refuse a tenant_id not named under tenants: (UnknownTenantError).",
    )

    # summarization hook
    summarize_after_messages: int = Field(
        40, ge=2, le=100_000, description="History length that triggers the summarization hook."
    )
    summarize_after_tokens: int | None = Field(
        None,
        ge=100,
        le=10_000_000,
        description="History tokens that trigger the hook (None = off).",
    )
    summarize_keep_messages: int = Field(
        10, ge=0, le=100_000, description="Most recent messages kept when the hook summarizes."
    )
    summarize_max_prompt_tokens: int = Field(
        8000,
        ge=200,
        le=1_000_000,
        description=(
            "Token budget of the summary model's prompt; older removed messages beyond it "
            "are left out (said in the prompt)."
        ),
    )

    @field_validator("token_counting", mode="before")
    @classmethod
    def _deerflow_token_counting(cls, value: Any) -> Any:
        # DeerFlow spells this as a bool: true = tiktoken, false = char estimate.
        if isinstance(value, bool):
            return "tiktoken" if value else "char"
        return value

    @field_validator("storage", mode="before")
    @classmethod
    def _deerflow_storage(cls, value: Any) -> Any:
        # DeerFlow: ``storage: {use: "deerflow.agents.memory.storage:FileMemoryStorage"}``.
        if isinstance(value, Mapping):
            use = value.get("use", "file")
            if not isinstance(use, str):  # never str() it: it may be a huge structure
                raise ValueError(f"storage.use must be a string, got {type(use).__name__}")
            return "file" if "File" in use or use == "file" else use
        return value

    @field_validator("guaranteed_categories", mode="before")
    @classmethod
    def _category_names(cls, value: Any) -> Any:
        # Each item must be a name before FactCategory sees it: the enum puts a full
        # repr() of a bad item in its error, however large the item is.
        if isinstance(value, list | tuple | set | frozenset):
            if len(value) > _MAX_CATEGORY_NAMES:
                raise ValueError(
                    f"at most {_MAX_CATEGORY_NAMES} names (there are {len(FactCategory)} "
                    f"categories), got {len(value):,}"
                )
            for item in value:
                if not isinstance(item, str):
                    raise ValueError(
                        f"each item must be a category name ({', '.join(FactCategory)}), "
                        f"got a {type(item).__name__}"
                    )
        return value

    @field_validator("storage_path", mode="before")
    @classmethod
    def _non_empty_path(cls, value: Any, info: ValidationInfo) -> Any:
        if isinstance(value, str | os.PathLike) and not os.fspath(value).strip():
            raise ValueError("must not be empty (name a folder, e.g. .deerflow_memory)")
        if isinstance(value, str | os.PathLike):
            problem = _control_character(os.fspath(value))
            if problem:
                raise ValueError(problem)
        if (
            isinstance(value, str)
            and info.data.get("storage") == "sqlite"
            and _spelled_as_folder(value)
        ):
            # Spelled as a folder ("db.sqlite/"): the database inside it, as for a folder
            # without a suffix; Path would drop the "/" and name a file db.sqlite.
            return os.path.join(value, SQLITE_FILE_NAME)
        return value

    @field_validator("tenants", mode="before")
    @classmethod
    def _valid_tenant_ids(cls, value: Any) -> Any:
        # The same rule as every tenant_id a run carries: "../x" could never match one.
        if not isinstance(value, Mapping):
            return value
        checked: dict[Any, Any] = {}
        for key, overrides in value.items():
            try:
                name = validate_name(key, "tenant_id")
            except InvalidNameError as e:
                raise ValueError(str(e)) from None
            if name in checked:
                raise ValueError(f"tenant_id {name!r} is given twice (Unicode forms of one name)")
            checked[name] = overrides
        return checked

    @field_validator("http_allowed_origins")
    @classmethod
    def _web_origins(cls, value: list[str]) -> list[str]:
        checked = []
        for origin in value:
            normal = normalize_origin(origin)
            if normal is None:
                raise ValueError(
                    f"{origin[:80]!r} is not a web origin (write it as scheme://host[:port], "
                    "e.g. https://memory.example.com)"
                )
            checked.append(normal)
        return checked

    @field_validator("storage_dsn", "base_url", "model_name", mode="before")
    @classmethod
    def _non_empty_text(cls, value: Any) -> Any:
        if isinstance(value, str) and not value.strip():
            raise ValueError("must not be empty (leave it out, or null, for the default)")
        return value

    def __repr_args__(self) -> Iterable[tuple[str | None, Any]]:
        for name, value in super().__repr_args__():
            if name in {"storage_dsn", "base_url"} and isinstance(value, str):
                value = redact_secrets(value)
            yield name, value

    def for_tenant(self, tenant_id: str | None) -> MemoryConfig:
        """This config with ``tenants[tenant_id]``'s overrides applied (itself when none).

        Args:
            tenant_id: the run's tenant (``None``: no tenant).

        Returns:
            A new ``MemoryConfig`` when the tenant has overrides, else ``self``.
        """
        overrides = self.tenants.get(tenant_id) if tenant_id is not None else None
        if overrides is None:
            return self
        values = overrides.model_dump(exclude_none=True)
        return self.model_copy(update=values) if values else self

    @property
    def has_model_settings(self) -> bool:
        """True when a real chat model is chosen: ``model_name`` or an endpoint is set.

        The endpoint is ``base_url`` or ``OPENAI_BASE_URL``. An API key alone
        (``api_key`` or ``OPENAI_API_KEY``) does not switch to the model path:
        a key exported for other tools must not turn the offline demo online.
        """
        return bool(self.model_name or self.base_url or os.environ.get("OPENAI_BASE_URL"))


# DeerFlow names that mean the same as ours.
_ALIASES = {"max_injection_tokens": "injected_memory_max_tokens"}

# Settings a DeerFlow config.yaml may hold that we knowingly do not use: a warning,
# not an error (the README lists them). Top-level DeerFlow sections appear here
# too, for a file without a ``memory:`` section.
DEERFLOW_IGNORED_KEYS = frozenset(
    {
        "storage_class",
        "models",
        "tools",
        "tool_groups",
        "sandbox",
        "skills",
        "title",
        "summarization",
        "subagents",
        "checkpointer",
        "channels",
    }
)
_SECRET_FIELDS = frozenset({"api_key", "storage_dsn", "base_url"})
_URL_PASSWORD = re.compile(r"(?<=://)([^:/@\s]*):([^@\s]*)@")
_URL_TOKEN = re.compile(r"(?<=://)[^:/?#@\s]+@")  # http://TOKEN@host: the whole userinfo
_KEY_VALUE_SECRET = re.compile(
    r"(?i)\b(password|passwd|pwd|api[_-]?key|secret|(?:access_|refresh_|id_)?token)"
    r"(\s*[=:]\s*)(['\"]?)[^\s'\",;&]+"
)
# URL query parameters that carry credentials (?key=, ?access_token=, ?api-key=, ?sig=).
_QUERY_SECRET = re.compile(
    r"(?i)([?&](?:key|api[_-]?key|[a-z_]*token|secret|client_secret|password|auth|sig|signature)=)"
    r"[^&#\s'\"]+"
)
_OPENAI_KEY = re.compile(r"\bsk-[A-Za-z0-9_\-]{6,}")


def redact_secrets(text: str, secrets: Iterable[str] = ()) -> str:
    """``text`` with credentials masked: URL passwords and bare-token userinfo
    (``http://TOKEN@host``), credential query parameters (``?key=``, ``?api-key=``,
    ``?access_token=``, ``?token=``), ``password=...`` pairs, API keys and ``secrets``.

    Example:
        >>> redact_secrets("postgresql://app:hunter2@db/memory")
        'postgresql://app:***@db/memory'
    """
    for secret in secrets:
        if secret and len(secret) >= 4:
            text = text.replace(secret, "***")
    text = _URL_PASSWORD.sub(lambda m: f"{m.group(1)}:***@", text)
    text = _URL_TOKEN.sub("***@", text)
    text = _QUERY_SECRET.sub(lambda m: f"{m.group(1)}***", text)
    text = _KEY_VALUE_SECRET.sub(lambda m: f"{m.group(1)}{m.group(2)}{m.group(3)}***", text)
    return _OPENAI_KEY.sub("sk-***", text)


class DuplicateKeyError(ValueError):
    """A JSON object repeats a key (``{"content": "a", "content": "b"}``)."""


def json_object_without_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """``object_pairs_hook`` for :func:`json.loads` that refuses a repeated key.

    JSON parsers keep the last of two equal keys silently; for settings and
    imports that hides which value was meant, so it is an error instead.

    Raises:
        DuplicateKeyError: naming the key (``duplicate key 'content'``).
    """
    data = dict(pairs)
    if len(data) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise DuplicateKeyError(f"duplicate key {key[:80]!r} in a JSON object")
            seen.add(key)
    return data


def _control_character(text: str | bytes) -> str | None:
    if isinstance(text, bytes):
        text = text.decode("utf-8", "surrogateescape")
    for position, char in enumerate(text):
        if unicodedata.category(char) == "Cc":  # NUL, \x01-\x1f, DEL, C1 controls
            return (
                f"contains a control character (U+{ord(char):04X}) at position {position}; "
                "name a path without control characters"
            )
    return None


def normalize_origin(origin: str) -> str | None:
    """A web origin as ``scheme://host:port`` (lower case, default port spelled out).

    Args:
        origin: an ``Origin`` header or a configured origin (``https://a.example``).

    Returns:
        The normalized origin, or None when it is not an http(s) origin
        (``null``, a path, user info, a bad port, junk).
    """
    try:
        parts = urlsplit(origin.strip())
        port = parts.port
    except ValueError:  # a port out of range or not a number
        return None
    defaults = {"http": 80, "https": 443}
    scheme = parts.scheme.lower()
    if scheme not in defaults or not parts.hostname or "@" in parts.netloc:
        return None
    if parts.path not in ("", "/") or parts.query or parts.fragment:
        return None
    host = parts.hostname.lower()
    if ":" in host:  # IPv6, bracketed again as in a URL
        host = f"[{host}]"
    return f"{scheme}://{host}:{port or defaults[scheme]}"


def _spelled_as_folder(path: str) -> bool:
    """``path`` ends in a separator, ``.`` or ``..``: it can only name a folder."""
    return os.path.basename(path) in ("", ".", "..")


def check_path(path: str | os.PathLike[str], what: str, *, file: bool = False) -> Path:
    """``path`` as a :class:`~pathlib.Path` if it holds no control character (NUL, ``\\x01``...).

    Args:
        path: a file or folder name given by a user (``--root``, a config file...).
        what: how to call it in the error message (``--root``, ``storage_path``).
        file: ``path`` must name a file: one spelled as a folder (ending in
            ``/``, ``/.`` or ``/..``, or ``.`` itself) is refused, where
            :class:`~pathlib.Path` would drop the ``/`` and name a file
            ``newdir`` for ``newdir/`` (``cp x newdir/`` fails the same way).

    Raises:
        ConfigError: the path is empty or holds a control character (never a
            folder name), or, with ``file``, is spelled as a folder.
    """
    text = os.fspath(path)
    problem = "must not be empty" if not text.strip() else _control_character(text)
    if not problem and file and _spelled_as_folder(text):
        problem = "names a folder, not a file (give a file name)"
    if problem:
        raise ConfigError(f"{what} {text!r} {problem}")
    return Path(text)


def _closest(name: str, known: Iterable[str]) -> str | None:
    """The known name ``name`` is most likely a typo of (difflib, ratio >= 0.6), or None.

    A name over 7/3 times as long as the longest known one cannot reach that ratio
    (at most 2*shorter/(sum of lengths)): it is not compared, where difflib would
    first index every character of it.
    """
    names = list(known)
    if not names or 3 * len(name) > 7 * max(len(n) for n in names):
        return None
    close = difflib.get_close_matches(name, names, n=1, cutoff=0.6)
    return close[0] if close else None


def _did_you_mean(name: str, known: Iterable[str]) -> str:
    close = _closest(name, known)
    return f"; did you mean {close!r}?" if close else ""


_ERRORS_SHOWN = 10  # a file of 300,000 bad items would otherwise make a 40 MB message
_NAME_SHOWN = 80  # characters of an unknown name shown in an error (a key may be 1 MB)


def _escaped(text: str) -> str:
    """``text`` with every character that is not printable (newline, ESC, bidi
    controls, lone surrogates) and the backslash written as its escape
    (``\\n``, ``\\x1b``, ``\\u202e``, ``\\\\``), as ``repr`` does, without quotes."""
    if text.isprintable() and "\\" not in text:
        return text
    return "".join(
        "\\\\" if char == "\\" else char if char.isprintable() else repr(char)[1:-1]
        for char in text
    )


def _clipped(name: str) -> str:
    """``name`` for an error message: cut after :data:`_NAME_SHOWN` characters, and
    escaped (:func:`_escaped`): a name from input never splits a one-line message or
    sends terminal escape codes."""
    if len(name) <= _NAME_SHOWN:
        return _escaped(name)
    return f"{_escaped(name[:_NAME_SHOWN])}… ({len(name):,} characters)"


def _quoted(name: str) -> str:
    """``repr(name)``, cut after :data:`_NAME_SHOWN` characters."""
    if len(name) <= _NAME_SHOWN:
        return repr(name)
    return f"{name[:_NAME_SHOWN]!r}… ({len(name):,} characters)"


def _first_few(described: list[str], total: int, what: str) -> str:
    """``described`` (the first :data:`_ERRORS_SHOWN` of ``total`` problems) joined
    by ``; ``, then how many more ``what`` there are."""
    shown = described[:_ERRORS_SHOWN]
    if total > len(shown):
        shown.append(f"and {total - len(shown):,} more {what}")
    return "; ".join(shown)


def _format_validation_error(error: ValidationError) -> str:
    parts = []
    errors = error.errors()
    for item in errors[:_ERRORS_SHOWN]:
        field = ".".join(_clipped(str(p)) for p in item["loc"]) or "<config>"
        if item["type"] == "extra_forbidden":
            # retrieval.<key> or tenants.<tenant_id>.<key>; any other place is a top-level key
            nested = _NESTED_SETTINGS.get(str(item["loc"][0])) if len(item["loc"]) > 1 else None
            known = (nested or MemoryConfig).model_fields
            hint = _did_you_mean(str(item["loc"][-1]), known)
            parts.append(f"{field}: unknown setting{hint}")
            continue
        inner = item.get("ctx", {}).get("error")
        if isinstance(inner, ConfigError):  # already said in these words: not again, not wrapped
            parts.append(str(inner).removeprefix(_PREFIX))
            continue
        got = item.get("input")
        shown = "***" if item["loc"] and item["loc"][0] in _SECRET_FIELDS else _shown(got)
        parts.append(f"{field}: {item['msg']} (got {shown})")
    return redact_secrets(_PREFIX + _first_few(parts, len(errors), "errors"))


_PREFIX = "invalid memory configuration: "
# The settings that are mappings of their own fields: an unknown key in them is
# told the names of those fields, not of MemoryConfig's.
_NESTED_SETTINGS: dict[str, type[BaseModel]] = {
    "retrieval": RetrievalConfig,
    "tenants": TenantOverrides,
}


class _BoundedRepr(reprlib.Repr):
    """reprlib's bounds, and an int too long to print in full (Python refuses over
    4,300 digits) shown by its size."""

    def repr_int(self, x: int, level: int) -> str:
        bits = x.bit_length()
        return f"<int of {bits:,} bits>" if bits > 1_000 else super().repr_int(x, level)


# A bad value is shown bounded: YAML aliases can make a few hundred bytes stand for
# billions of nested values ("billion laughs"), which a plain repr() would walk.
_SHOWN = _BoundedRepr()
_SHOWN.maxlevel, _SHOWN.maxstring, _SHOWN.maxother = 2, 200, 200
_SHOWN.maxlist = _SHOWN.maxtuple = _SHOWN.maxdict = _SHOWN.maxset = 4


def _shown(value: Any) -> str:
    """``value`` for an error message: bounded, and never an error itself (a repr
    that raises shows the type name)."""
    try:
        return _SHOWN.repr(value)
    except Exception:
        return f"<{type(value).__name__}>"


def _env_values(environ: Mapping[str, str]) -> dict[str, Any]:
    fields = MemoryConfig.model_fields
    named: dict[str, tuple[str, str]] = {}  # setting name -> (variable, value)
    unknown: list[str] = []
    for key, raw in environ.items():
        if not key.startswith(ENV_PREFIX) or key == CONFIG_PATH_ENV:
            continue
        if key.startswith(TEST_ENV_PREFIX):  # the project's own test settings, not memory ones
            continue
        name = key[len(ENV_PREFIX) :].lower()
        name = _ALIASES.get(name, name)
        if name in named:  # MAX_FACTS and max_facts, or an alias and the name
            first = named[name][0]
            raise ConfigError(
                f"environment variables {_clipped(min(first, key))} and "
                f"{_clipped(max(first, key))} are two spellings of one setting ({name}); "
                "set only one"
            )
        if name in fields:
            named[name] = (key, raw)
        else:
            unknown.append(key)
    if unknown:
        raise ConfigError(_unknown_variables(sorted(unknown), fields))
    return {name: _parse_env_value(name, raw) for name, (_, raw) in named.items()}


def _unknown_variables(keys: list[str], fields: Iterable[str]) -> str:
    """The error for unknown ``DEERFLOW_MEMORY_*`` variables: the first few, each
    with a "did you mean", then how many more."""
    described = []
    for key in keys[:_ERRORS_SHOWN]:
        name = key[len(ENV_PREFIX) :].lower()
        close = _closest(name, fields)
        hint = f"; did you mean {ENV_PREFIX}{close.upper()}?" if close else ""
        described.append(f"{_clipped(key)}: no memory setting {_quoted(name)}{hint}")
    listed = _first_few(described, len(keys), "unknown variables")
    what = "unknown environment variable" if len(keys) == 1 else "unknown environment variables:"
    return f"{what} {listed} (known: {', '.join(sorted(fields))})"


def _parse_env_value(name: str, raw: str) -> Any:
    if name in {"retrieval", "tenants"}:
        try:
            return json.loads(raw, object_pairs_hook=json_object_without_duplicates)
        except DuplicateKeyError as e:
            raise ConfigError(f"{ENV_PREFIX}{name.upper()}: {e}") from e
        except (ValueError, RecursionError, MemoryError) as e:  # incl. ints over 4,300 digits
            raise ConfigError(f"{ENV_PREFIX}{name.upper()}: invalid JSON object: {e}") from e
    if name in {
        "guaranteed_categories",
        "correction_patterns",
        "reinforcement_patterns",
        "http_allowed_origins",
    }:
        text = raw.strip()
        if text.startswith("["):
            try:
                return json.loads(text)
            except (ValueError, RecursionError, MemoryError) as e:
                raise ConfigError(f"{ENV_PREFIX}{name.upper()}: invalid JSON list: {e}") from e
        return [part.strip() for part in text.split(",") if part.strip()]
    if raw.strip().lower() in {"none", "null", ""} and name in {
        "model_name",
        "judge_model_name",
        "base_url",
        "api_key",
        "storage_dsn",
        "summarize_after_tokens",
    }:
        return None
    return raw


MAX_ALIASED_VALUES = 10_000
"""YAML aliases (``*name``) in a config file may repeat at most this many values in
all: a few hundred bytes of nested aliases otherwise stand for billions of values
("billion laughs") that validation and error messages would walk. Each character
of a repeated text counts as a value too (:data:`_ALIASED_CHARACTERS` per value):
9,000 aliases of one 50 KB text would otherwise hold 450 MB."""

_ALIASED_CHARACTERS = 100  # characters of repeated text that count as one value


class _AliasError(Exception):
    """A config file's aliases repeat too much, or one holds itself."""

    def __init__(self, problem: str, line: int) -> None:
        super().__init__(problem)
        self.problem, self.line = problem, line


class _KeyNotTextError(Exception):
    """A config file's mapping has a key no dict can hold (a list or a mapping)."""

    def __init__(self, problem: str, line: int) -> None:
        super().__init__(problem)
        self.problem, self.line = problem, line


def _not_text(key: Any) -> str:
    """Why ``key`` is no setting name: its kind and its value, bounded and escaped."""
    kinds = {list: "a list", dict: "a mapping", set: "a set", bool: "a boolean", int: "a number"}
    kinds.update({float: "a number", type(None): "null", bytes: "binary data"})
    kind = kinds.get(type(key)) or f"a {type(key).__name__}"  # a date, a datetime
    return f"a key is {kind} ({_shown(key)}); a setting's name must be text"


def _strict_loader() -> type:
    import yaml  # deferred: only file-based configuration needs it

    class StrictLoader(yaml.SafeLoader):
        """``safe_load`` that refuses a key given twice in one mapping, and aliases
        that repeat more than :data:`MAX_ALIASED_VALUES` values or hold themselves
        (both raise :class:`_AliasError`)."""

        def __init__(self, stream: Any) -> None:
            super().__init__(stream)
            self._aliased = 0  # values repeated through aliases so far
            self._sizes: dict[int, int] = {}  # id(node) -> values it stands for
            self._open: set[str] = set()  # anchors whose value is being read

        def compose_node(self, parent: Any, index: Any) -> Any:
            event = self.peek_event()
            anchor = event.anchor
            if isinstance(event, yaml.AliasEvent):
                line = event.start_mark.line + 1 if event.start_mark else 0
                if anchor in self._open:
                    raise _AliasError(f"alias *{anchor} is inside the value it names", line)
                if anchor in self.anchors:
                    self._aliased += self._size(self.anchors[anchor])
                    if self._aliased > MAX_ALIASED_VALUES:
                        raise _AliasError(
                            f"aliases (*{anchor} and those before it) repeat more than "
                            f"{MAX_ALIASED_VALUES:,} values (a long text counts one per "
                            f"{_ALIASED_CHARACTERS} characters), far more than a configuration "
                            "holds",
                            line,
                        )
                return super().compose_node(parent, index)
            if anchor is None:
                return super().compose_node(parent, index)
            self._open.add(anchor)
            try:
                return super().compose_node(parent, index)
            finally:
                self._open.discard(anchor)

        def _size(self, node: Any) -> int:
            """How many values ``node`` stands for, itself included (a long text: one
            per :data:`_ALIASED_CHARACTERS` characters)."""
            known = self._sizes.get(id(node))
            if known is None:
                known = 1
                if isinstance(node, yaml.ScalarNode):
                    known += len(node.value) // _ALIASED_CHARACTERS
                elif isinstance(node, yaml.SequenceNode):
                    known += sum(self._size(item) for item in node.value)
                elif isinstance(node, yaml.MappingNode):
                    known += sum(self._size(k) + self._size(v) for k, v in node.value)
                self._sizes[id(node)] = known
            return known

        def construct_mapping(self, node: Any, deep: bool = False) -> dict[Any, Any]:
            seen: dict[Any, Any] = {}
            for key_node, _ in node.value:
                if key_node.tag == "tag:yaml.org,2002:merge":  # "<<: *base": keys it merges
                    continue  # may be given again here, where they win (YAML's rule)
                if not isinstance(key_node, yaml.ScalarNode):  # "? [max_facts]": a list key
                    line = key_node.start_mark.line + 1 if key_node.start_mark else 0
                    key = self.construct_object(key_node, deep=True)  # built whole, to show it
                    raise _KeyNotTextError(_not_text(key), line)
                key = self.construct_object(key_node, deep=deep)
                if not isinstance(key, Hashable):  # a scalar of a tag that builds a list
                    line = key_node.start_mark.line + 1 if key_node.start_mark else 0
                    raise _KeyNotTextError(_not_text(key), line)
                if key in seen:
                    raise yaml.constructor.ConstructorError(
                        "while constructing a mapping",
                        node.start_mark,
                        f"found duplicate key {_shown(key)} (first at line {seen[key].line + 1})",
                        key_node.start_mark,
                    )
                seen[key] = key_node.start_mark
            return super().construct_mapping(node, deep=deep)

    return StrictLoader


def _read_config_text(path: Path) -> str:
    """The text of ``path``, a regular file of at most :data:`MAX_CONFIG_BYTES`.

    Anything else is refused before it is read: a FIFO (whose open and read
    wait for a writer, maybe forever), a device (``/dev/zero`` never ends), a
    socket or a folder. The file is opened without blocking and checked again
    once open, so one swapped in between is refused too.

    Raises:
        ConfigError: not a regular file, or more than :data:`MAX_CONFIG_BYTES` bytes.
        OSError, UnicodeDecodeError: missing, unreadable, not UTF-8.
    """
    _check_regular(path, os.stat(path).st_mode)
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
    fd = os.open(path, flags | getattr(os, "O_CLOEXEC", 0))
    with open(fd, "rb", closefd=True) as handle:
        _check_regular(path, os.fstat(fd).st_mode)
        raw = handle.read(MAX_CONFIG_BYTES + 1)  # bounded: it may have grown since
    if len(raw) > MAX_CONFIG_BYTES:
        raise ConfigError(
            f"config file {path} is larger than {MAX_CONFIG_BYTES:,} bytes (1 MiB), "
            "the limit for a config file; it was not read"
        )
    return raw.decode("utf-8")


def _check_regular(path: Path, mode: int) -> None:
    if stat.S_ISREG(mode):
        return
    if stat.S_ISDIR(mode):
        raise ConfigError(f"config file {path} is a folder, not a file")
    kind = (
        "a FIFO (named pipe)"
        if stat.S_ISFIFO(mode)
        else "a device"
        if stat.S_ISCHR(mode) or stat.S_ISBLK(mode)
        else "a socket"
        if stat.S_ISSOCK(mode)
        else "not a regular file"
    )
    raise ConfigError(
        f"config file {path} is {kind}, not a regular file; it was not read "
        f"(a config file is a regular file of at most 1 MiB)"
    )


def _read_yaml(path: Path) -> dict[str, Any]:
    import yaml  # deferred: only file-based configuration needs it

    check_path(path, "config file")
    try:
        text = _read_config_text(path)
    except FileNotFoundError as e:
        raise ConfigError(f"config file not found: {path}") from e
    except (OSError, UnicodeDecodeError) as e:
        raise ConfigError(f"config file {path} cannot be read: {e}") from e
    try:
        data = yaml.load(text, Loader=_strict_loader())
    except (_AliasError, _KeyNotTextError) as e:
        raise ConfigError(f"config file {path}, line {e.line}: {e.problem}") from None
    except yaml.YAMLError as e:
        raise ConfigError(redact_secrets(f"config file {path} is not valid YAML: {e}")) from e
    except RecursionError as e:  # "[[[[…" nested thousands deep
        raise ConfigError(f"config file {path} is nested too deeply to be a configuration") from e
    except MemoryError as e:  # within MAX_CONFIG_BYTES, under a tight memory limit
        raise ConfigError(
            f"config file {path} needs more memory than is available to be read "
            "(too large or too deeply nested to be a configuration)"
        ) from e
    except ValueError as e:  # a value YAML parses but Python refuses (an int over 4,300 digits)
        raise ConfigError(redact_secrets(f"config file {path}: a value cannot be read: {e}")) from e
    except (KeyError, AttributeError, TypeError) as e:
        # A tagged scalar whose text is not of its tag: PyYAML's bool and timestamp
        # constructors raise these on "!!bool x" and "!!timestamp x".
        raise ConfigError(
            f"config file {path}: a value tagged with a YAML type (!!bool, !!timestamp...) "
            "is not of that type"
        ) from e
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise ConfigError(f"config file {path} must hold a mapping, got {type(data).__name__}")
    section = data.get("memory", data)
    if not isinstance(section, dict):
        raise ConfigError(f"config file {path}: 'memory' must be a mapping")
    _check_text_keys(path, section, "memory" if section is not data else "")
    values = _without_aliases(path, section)
    fields = MemoryConfig.model_fields
    unknown = sorted(set(values) - set(fields))
    ignored = [k for k in unknown if k in DEERFLOW_IGNORED_KEYS]
    typos = [k for k in unknown if k not in DEERFLOW_IGNORED_KEYS]
    if typos:  # did-you-mean for the first few only: a file may hold 60,000 typos
        described = [f"{_quoted(k)}{_did_you_mean(k, fields)}" for k in typos[:_ERRORS_SHOWN]]
        problems = _first_few(described, len(typos), "unknown settings")
        raise ConfigError(f"config file {path}: unknown memory setting(s) {problems}")
    if ignored:
        logger.warning("config file %s: ignoring DeerFlow settings %s", path, ignored)
    return {k: v for k, v in values.items() if k not in unknown}


def _check_text_keys(path: Path, section: dict[Any, Any], where: str) -> None:
    """Every key of ``section`` (the memory settings), of its ``retrieval:`` and
    ``tenants:`` mappings and of each tenant's overrides is text.

    YAML reads ``5:``, ``null:``, ``true:``, ``1.5:`` and ``2024-01-01:`` as an int,
    None, a bool, a float and a date: none of them names a setting or a tenant.

    Raises:
        ConfigError: naming the mapping (``retrieval``, ``tenants.acme``) and the key.
    """
    mappings: list[tuple[str, Any]] = [(where, section)]
    for nested in ("retrieval", "tenants"):
        mappings.append((f"{where}.{nested}".lstrip("."), section.get(nested)))
    tenants = section.get("tenants")
    if isinstance(tenants, dict):
        for tenant, overrides in tenants.items():
            if isinstance(tenant, str):
                mappings.append((f"{where}.tenants.{_clipped(tenant)}".lstrip("."), overrides))
    for place, mapping in mappings:
        if not isinstance(mapping, dict):
            continue
        for key in mapping:
            if not isinstance(key, str):
                inside = f"under {place}: " if place else "at the top level: "
                raise ConfigError(f"config file {path}: {inside}{_not_text(key)}")


def _without_aliases(path: Path, section: dict[str, Any]) -> dict[str, Any]:
    """``section`` with DeerFlow's names (:data:`_ALIASES`) spelled as ours.

    Raises:
        ConfigError: both spellings of one setting are given (which one was meant
            cannot be told; YAML would keep the later silently).
    """
    values: dict[str, Any] = {}
    spelled: dict[str, str] = {}  # setting name -> the key that gave it
    for key, value in section.items():
        name = _ALIASES.get(key, key)
        if name in spelled:
            raise ConfigError(
                f"config file {path}: {_quoted(spelled[name])} and {_quoted(key)} are two "
                f"spellings of one setting ({name}); give it once"
            )
        spelled[name] = key
        values[name] = value
    return values


def load_config(
    path: str | os.PathLike[str] | None = None,
    *,
    environ: Mapping[str, str] | None = None,
    **overrides: Any,
) -> MemoryConfig:
    """Build a :class:`MemoryConfig` from a YAML file, the environment and overrides.

    Args:
        path: YAML file; either a bare mapping or a DeerFlow config with a
            ``memory:`` section. Defaults to ``$DEERFLOW_MEMORY_CONFIG`` when set.
        environ: environment to read ``DEERFLOW_MEMORY_*`` from (default ``os.environ``).
        **overrides: field values that win over everything else.

    Raises:
        ConfigError: unreadable file, unknown key or invalid value.

    Example:
        >>> load_config(debounce_seconds=5).debounce_seconds
        5.0
    """
    env = os.environ if environ is None else environ
    values: dict[str, Any] = {}
    if path is None and env.get(CONFIG_PATH_ENV):
        path = env[CONFIG_PATH_ENV]
    if path is not None:
        values.update(_read_yaml(check_path(path, "config file", file=True)))
    values.update(_env_values(env))
    values.update(overrides)
    # MemoryConfig(...) turns a ValidationError into one ConfigError, secrets masked
    # (model_validate would run that __init__ inside validation and nest the message).
    return MemoryConfig(**values)
