"""The settings models: :class:`MemoryConfig`, :class:`RetrievalConfig`, :class:`TenantOverrides`.

A bad value raises one :class:`~deerflow_memory.errors.ConfigError` naming every
field at fault (ten at most) and what is allowed, secrets masked.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
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

from deerflow_memory.arguments import expect_text
from deerflow_memory.config.messages import ERRORS_SHOWN, clipped, did_you_mean, first_few, shown
from deerflow_memory.config.origins import normalize_origin
from deerflow_memory.config.paths import control_character, looks_like_url, spelled_as_folder
from deerflow_memory.config.secrets import SECRET_FIELDS, redact_secrets
from deerflow_memory.errors import ConfigError, InvalidNameError
from deerflow_memory.models import FactCategory, validate_name

# The SQLite database inside a folder given as storage_path (storage: sqlite).
SQLITE_FILE_NAME = "memory.sqlite"

StorageKind = Literal["file", "store", "sqlite", "postgres"]
TokenCounting = Literal["tiktoken", "char"]


class SettingsConfigError(ConfigError):
    """Bad values of one settings model; ``parts`` says each (``"top_k: …"``), so that
    a model holding it (``retrieval``, ``tenants.acme``) can put its own path in front."""

    def __init__(self, parts: list[str], message: str) -> None:
        super().__init__(message)
        self.parts = parts


class _NumbersNotBooleans(BaseModel):
    """Refuses ``true``/``false`` for a number field (pydantic's lax mode reads them as 1/0).

    ``max_facts: true`` in YAML is a mistake, never "one fact". Numbers given as
    text (``DEERFLOW_MEMORY_MAX_FACTS=50``) still convert as before. A bad value
    given to the constructor raises :class:`ConfigError` (one line per problem,
    secrets masked), not pydantic's ``ValidationError``.
    """

    def __init__(self, **data: Any) -> None:
        try:
            super().__init__(**data)
        except ValidationError as e:
            secrets = [str(data[k]) for k in SECRET_FIELDS if data.get(k) is not None]
            parts = _validation_problems(e, type(self))
            error = SettingsConfigError(parts, redact_secrets(_said(parts, e), secrets))
            if redact_secrets(str(e), secrets) != str(e):  # pydantic's holds the input as given
                raise error from None
            raise error from e

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
        60.0,
        gt=0.0,
        le=3600.0,
        description="Timeout of one memory model call, in all (not per read): then retried.",
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
            if "use" not in value:  # {backend: sqlite} must not quietly become the file backend
                raise ValueError(
                    "a storage mapping names its backend with 'use' (DeerFlow's form, e.g. "
                    "{use: file}); or give the backend as text: file, store, sqlite or postgres"
                )
            use = value["use"]
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
            problem = control_character(os.fspath(value))
            if problem:
                raise ValueError(problem)
            if looks_like_url(os.fspath(value)):  # a folder named after it held the password
                raise ValueError("is a URL, not a folder (a database's DSN goes in storage_dsn)")
        if (
            isinstance(value, str)
            and info.data.get("storage") == "sqlite"
            and spelled_as_folder(value)
        ):
            # Spelled as a folder ("db.sqlite/"): the database inside it, as for a folder
            # without a suffix; Path would drop the "/" and name a file db.sqlite.
            value = os.path.join(value, SQLITE_FILE_NAME)
        if isinstance(value, str | os.PathLike):  # "~/mem" is the home folder's (check_path)
            return os.path.expanduser(value)
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

    @field_validator("base_url")
    @classmethod
    def _endpoint(cls, value: str | None) -> str | None:
        if value is not None:
            _check_endpoint(value)
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

        Raises:
            InvalidArgumentError: ``tenant_id`` is neither text nor None.
        """
        expect_text(tenant_id, "tenant_id", optional=True)
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

    @property
    def endpoint(self) -> str | None:
        """The OpenAI-compatible endpoint: ``base_url``, else ``OPENAI_BASE_URL``, else None.

        Raises:
            ConfigError: ``OPENAI_BASE_URL`` is not an http(s) URL with a host (checked as
                ``base_url`` is; the message never quotes it: it may hold a password).
        """
        if self.base_url is not None:
            return self.base_url
        value = os.environ.get("OPENAI_BASE_URL") or None
        if value is not None:
            try:
                _check_endpoint(value)
            except ValueError as e:
                raise ConfigError(f"OPENAI_BASE_URL {e}") from None
        return value


def _check_endpoint(value: str) -> None:
    """Raise ValueError (saying what is wrong, never quoting ``value``) unless ``value`` is
    an http(s) URL with a host. A malformed URL failed only when the model was built, as
    httpx's InvalidURL, whose text quotes a password ended early by "/", "?" or "#"."""
    if any(char.isspace() or not char.isprintable() for char in value):
        raise ValueError("holds whitespace or control characters")
    try:
        parts = urlsplit(value)
    except ValueError:
        raise ValueError("is not a URL") from None
    try:
        parts.port  # noqa: B018  # raises ValueError for a port that is no number
    except ValueError:
        raise ValueError(
            "is not a URL: what follows the colon after the host is no port number "
            "(percent-encode a password that holds a slash, a question mark or a hash)"
        ) from None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ValueError("is not an http(s) URL with a host")
    if "@" in value[value.index(parts.netloc) + len(parts.netloc) :]:
        # "http://TOKEN/x@host/v1": a password or token with a "/" made its host
        raise ValueError(
            "holds '@' after its host (percent-encode a password that holds a slash, a "
            "question mark or a hash)"
        )


# DeerFlow names that mean the same as ours.
DEERFLOW_ALIASES = {"max_injection_tokens": "injected_memory_max_tokens"}


def _said(parts: list[str], error: ValidationError) -> str:
    return redact_secrets(_PREFIX + first_few(parts, len(error.errors()), "errors"))


def _validation_problems(error: ValidationError, model: type[BaseModel] | None) -> list[str]:
    parts: list[str] = []
    errors = error.errors()
    for item in errors[:ERRORS_SHOWN]:
        field = ".".join(clipped(str(p)) for p in item["loc"]) or "<config>"
        if item["type"] == "extra_forbidden":
            # retrieval.<key> or tenants.<tenant_id>.<key>; any other place is a top-level key
            nested = _NESTED_SETTINGS.get(str(item["loc"][0])) if len(item["loc"]) > 1 else None
            known = (nested or model or MemoryConfig).model_fields
            hint = did_you_mean(str(item["loc"][-1]), known)
            parts.append(f"{field}: unknown setting{hint}")
            continue
        inner = item.get("ctx", {}).get("error")
        if isinstance(inner, SettingsConfigError):  # a nested model's: its path in front
            parts += [f"{field}.{part}" for part in inner.parts]
            continue
        if isinstance(inner, ConfigError):  # already said in these words: not again, not wrapped
            parts.append(str(inner).removeprefix(_PREFIX))
            continue
        got = item.get("input")
        value = "***" if item["loc"] and item["loc"][0] in SECRET_FIELDS else shown(got)
        parts.append(f"{field}: {item['msg']} (got {value})")
    return parts


_PREFIX = "invalid memory configuration: "
# The settings that are mappings of their own fields: an unknown key in them is
# told the names of those fields, not of MemoryConfig's.
_NESTED_SETTINGS: dict[str, type[BaseModel]] = {
    "retrieval": RetrievalConfig,
    "tenants": TenantOverrides,
}
