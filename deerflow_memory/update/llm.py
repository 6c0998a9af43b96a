"""The model path: a chat-model-backed :class:`Extractor`, and building the default model.

:class:`ModelExtractor` calls the model with the **synchronous** ``invoke``
only. It runs on the queue's worker threads, and must never create or run an
event loop there: DeerFlow issue #2615 was memory updates colliding with the
agent's async HTTP connection pool. The sync client of ``ChatOpenAI`` has its
own pool, so the agent's ``ainvoke``/``astream`` on the same model instance is
unaffected.

Failures: 429, 5xx, timeouts, connection errors and a body that is no
completion at all (a proxy's or captive portal's HTML page with status 200:
the model never answered) are retried with backoff (honouring
``Retry-After``) and then raised as :class:`TransientModelError`, so
the updater can requeue the job. A timeout is per call and in all
(``model_timeout_seconds``, :mod:`~deerflow_memory.update.call_deadline`): a
server that trickles its answer a byte at a time is given up on like one that
does not answer. Any other error of the model call becomes
:class:`ModelCallError` chained to the original; an answer that is not a
complete update is asked for once more, then becomes :class:`UpdateParseError`.
Building a model with a model name but neither a key nor an endpoint raises
:class:`ConfigError`.

``langchain_openai`` is imported only when a model is built, to keep
``import deerflow_memory`` cheap.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Literal, get_args

from deerflow_memory.arguments import expect, expect_chat_model, expect_number, wrong_type
from deerflow_memory.errors import ConfigError, ModelCallError, UpdateParseError, install_hint
from deerflow_memory.logs import package_logger
from deerflow_memory.models import MemoryUpdate
from deerflow_memory.update.call_deadline import AbandonedCalls, call_within, check_call_timeout
from deerflow_memory.update.extraction import ExtractionRequest, Extractor, ModelUsage
from deerflow_memory.update.incremental import budgeted_memory_text, estimate_tokens
from deerflow_memory.update.prompt import build_update_prompt, parse_update
from deerflow_memory.update.retry import RetryPolicy, TransientModelError

if TYPE_CHECKING:
    from langchain_core.language_models import BaseChatModel
    from langchain_core.messages import BaseMessage

    from deerflow_memory.config import MemoryConfig

__all__ = [
    "DEFAULT_MODEL_NAME",
    "KNOWN_PROVIDERS",
    "ModelExtractor",
    "build_chat_model",
    "build_extractor",
    "retry_policy",
    "split_model_name",
    "supports_json_schema",
    "update_json_schema",
]

logger = package_logger(__name__)

DEFAULT_MODEL_NAME = "gpt-4o-mini"
# Local OpenAI-compatible servers (vLLM, Ollama) ignore the key, but the client requires one.
_PLACEHOLDER_API_KEY = "sk-no-key-required"


StructuredOutput = Literal["auto", "on", "off"]
_STRUCTURED_OUTPUT: tuple[str, ...] = get_args(StructuredOutput)


def update_json_schema() -> dict[str, Any]:
    """The ``response_format`` asking for a :class:`MemoryUpdate` as a JSON schema (camelCase)."""
    return {
        "type": "json_schema",
        "json_schema": {
            "name": "memory_update",
            "description": "Changes to the user's long-term memory.",
            "schema": MemoryUpdate.model_json_schema(by_alias=True),
            "strict": False,
        },
    }


def supports_json_schema(model: BaseChatModel) -> bool:
    """True for OpenAI-style chat models (``ChatOpenAI``, Azure, and their subclasses)."""
    declared = getattr(model, "supports_json_schema", None)
    if isinstance(declared, bool):
        return declared
    return any(cls.__name__ == "BaseChatOpenAI" for cls in type(model).__mro__)


class ModelExtractor:
    """Extract memory updates with a LangChain chat model (sync ``invoke`` only).

    Args:
        model: any ``BaseChatModel``; the same instance may serve the agent's
            async calls at the same time.
        structured_output: ``"on"`` always sends the update schema as
            ``response_format`` (JSON schema); ``"auto"`` does so for models
            that support it (:func:`supports_json_schema`) and drops it for good
            when the endpoint rejects it (HTTP 400); ``"off"`` never does. The
            answer is read by the tolerant parser in every case.
        retry: backoff for transient failures (429, 5xx, timeouts, connection errors).
        memory_max_tokens: budget of the memory part of the prompt.
        count_tokens: token counter for that budget.
        call_timeout: seconds one model call may take in all, every byte of the
            answer included (``model_timeout_seconds``; the client's own timeout
            bounds each socket read only); past it the call is given up as a
            timeout (:func:`~deerflow_memory.update.call_deadline.call_within`).
            None: no bound beyond the client's.

    Raises:
        InvalidArgumentError: ``model`` is not a chat model (None, a model name:
            :func:`build_chat_model` builds one), ``retry`` not a
            :class:`RetryPolicy` or ``count_tokens`` not callable.
        ConfigError: ``structured_output`` is not ``"auto"``, ``"on"`` or
            ``"off"``, ``memory_max_tokens`` is not an int or ``call_timeout``
            not seconds > 0 or None (NaN, 0 or negative; infinity is no bound).
    """

    def __init__(
        self,
        model: BaseChatModel,
        *,
        structured_output: StructuredOutput = "auto",
        retry: RetryPolicy | None = None,
        memory_max_tokens: int = 4000,
        count_tokens: Callable[[str], int] = estimate_tokens,
        call_timeout: float | None = None,
    ) -> None:
        expect_chat_model(model)
        if not (isinstance(structured_output, str) and structured_output in _STRUCTURED_OUTPUT):
            shown = repr(structured_output)[:40]
            raise ConfigError(f"structured_output must be 'auto', 'on' or 'off', got {shown}")
        expect(retry, RetryPolicy, "retry", "a RetryPolicy", optional=True)
        expect_number(memory_max_tokens, "memory_max_tokens", ConfigError, integer=True)
        if not callable(count_tokens):
            wrong_type("count_tokens", "a function of text to a token count", count_tokens)
        call_timeout = check_call_timeout(call_timeout)  # not seconds > 0: ConfigError
        self.model = model
        self.call_timeout = call_timeout
        self._abandoned = AbandonedCalls()  # calls of this model given up on, still running
        self.structured_output = structured_output
        self.retry = retry if retry is not None else RetryPolicy()
        self.memory_max_tokens = memory_max_tokens
        self.count_tokens = count_tokens
        self._schema_ok = structured_output == "on" or (
            structured_output == "auto" and supports_json_schema(model)
        )

    def prompt_for(self, request: ExtractionRequest) -> list[BaseMessage]:
        """The messages one call sends for ``request`` (memory part within its budget)."""
        memory_text, _ = budgeted_memory_text(
            request.document, self.memory_max_tokens, count_tokens=self.count_tokens
        )
        return build_update_prompt(
            request.document,
            request.messages,
            correction_detected=request.correction_detected,
            reinforcement_detected=request.reinforcement_detected,
            review=request.review,
            today=request.today,
            context_messages=request.context_messages,
            memory_text=memory_text,
            max_chars=10**9,
        )

    def extract(self, request: ExtractionRequest) -> MemoryUpdate:
        """Build the prompt, call the model, and parse its answer (one retry if unparsable).

        Raises:
            TransientModelError: 429/5xx/timeout/connection failures (or bodies that are
                no completion, such as a proxy's HTML page) outlasted the retries.
            ModelCallError: the call failed for another reason (bad request, auth, ...).
            UpdateParseError: two answers in a row were not a complete, valid update.
        """
        return self.extract_counted(request)[0]

    def extract_counted(self, request: ExtractionRequest) -> tuple[MemoryUpdate, ModelUsage]:
        """:meth:`extract`, plus the tokens the model reported for both answers when asked twice.

        Raises:
            The same errors as :meth:`extract`.
        """
        prompt = self.prompt_for(request)
        usage = ModelUsage()
        for attempt in (1, 2):
            try:
                answer = self._invoke(prompt)
                usage = usage + ModelUsage.of(answer)
                text = _answer_text(answer.content)
                if not text.strip():
                    raise UpdateParseError("memory model returned an empty answer")
                return parse_update(text), usage
            except UpdateParseError as e:
                if attempt == 2:
                    raise
                logger.info("memory model answer unparsable (%s); asking once more", e)
        raise AssertionError("unreachable")

    def _invoke(self, prompt: list[BaseMessage]) -> Any:
        limit = self.call_timeout
        if self._schema_ok:
            bound = self.model.bind(response_format=update_json_schema())
            try:
                return self.retry.call(
                    lambda: call_within(lambda: bound.invoke(prompt), limit, self._abandoned)
                )
            except TransientModelError:
                raise
            except Exception as e:
                if "LengthFinishReason" in type(e).__name__:
                    raise UpdateParseError(f"memory model answer was cut off: {e}") from e
                if self.structured_output != "auto" or _status(e) not in (400, 422):
                    raise ModelCallError(
                        f"memory model call failed: {type(e).__name__}: {e}"
                    ) from e
                logger.info("endpoint rejected response_format (%s); using the plain prompt", e)
                self._schema_ok = False
        try:
            return self.retry.call(
                lambda: call_within(lambda: self.model.invoke(prompt), limit, self._abandoned)
            )
        except TransientModelError:
            raise
        except Exception as e:  # the model's own error types vary by provider
            raise ModelCallError(f"memory model call failed: {type(e).__name__}: {e}") from e

    def __repr__(self) -> str:
        return f"ModelExtractor({type(self.model).__name__})"


def _status(error: BaseException) -> int | None:
    status = getattr(error, "status_code", None)
    return status if isinstance(status, int) else None


def _answer_text(content: Any) -> str:
    # Content is a string, or a list of blocks (text blocks, reasoning blocks, ...).
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        parts = []
        for block in content:
            if isinstance(block, str):
                parts.append(block)
            elif isinstance(block, dict) and block.get("type") == "text":
                parts.append(str(block.get("text", "")))
        return "".join(parts)
    return str(content)


# Providers ``init_chat_model`` knows (langchain 1.x). Only these prefixes mean
# "provider:model": "qwen2.5:7b" (an Ollama tag behind an OpenAI endpoint) stays one name.
KNOWN_PROVIDERS = frozenset(
    {
        "anthropic", "anthropic_bedrock", "azure_ai", "azure_openai", "baseten", "bedrock",
        "bedrock_converse", "cohere", "deepseek", "fireworks", "google_anthropic_vertex",
        "google_genai", "google_vertexai", "groq", "huggingface", "ibm", "litellm",
        "mistralai", "nvidia", "ollama", "openai", "openrouter", "perplexity", "together",
        "upstage", "xai",
    }
)  # fmt: skip


def split_model_name(name: str) -> tuple[str, str]:
    """Split ``"provider:model"``: ``"anthropic:claude-x"`` → ``("anthropic", "claude-x")``.

    A name without a known provider prefix is an OpenAI model: ``("openai", name)``.
    """
    provider, sep, model = name.partition(":")
    if sep and model and provider.strip().lower() in KNOWN_PROVIDERS:
        return provider.strip().lower(), model.strip()
    return "openai", name


def build_chat_model(config: MemoryConfig) -> BaseChatModel | None:
    """The memory model from ``config``: ``ChatOpenAI``, or any provider via ``init_chat_model``.

    Args:
        config: uses ``model_name`` (default ``gpt-4o-mini``; ``"provider:model"``
            such as ``"anthropic:claude-sonnet-4-5"`` goes through LangChain's
            ``init_chat_model``, OpenAI is the default provider), ``base_url``
            (else ``OPENAI_BASE_URL`` for OpenAI), ``api_key`` (else the provider's
            own variable, ``OPENAI_API_KEY`` for OpenAI; a placeholder when only an
            endpoint is set) and ``model_timeout_seconds``.

    Returns:
        The model, or None when neither ``model_name`` nor an endpoint is set
        (the offline path; an API key alone does not switch).

    Raises:
        ConfigError: ``config`` is not a :class:`MemoryConfig`; an OpenAI model name
            is set but neither an API key nor an endpoint; ``OPENAI_BASE_URL`` is
            not an http(s) URL with a host; or the provider's package is missing
            (the message is the one-line install command).
    """
    from deerflow_memory.config import MemoryConfig  # deferred, as for the annotations

    expect(config, MemoryConfig, "config", "a MemoryConfig", ConfigError)
    if not config.has_model_settings:
        return None
    provider, model_name = split_model_name(config.model_name or DEFAULT_MODEL_NAME)
    if provider != "openai":
        return _init_provider_model(config, provider, model_name)
    base_url = config.endpoint
    if config.api_key is not None:
        api_key: str | None = config.api_key.get_secret_value()
    else:
        api_key = os.environ.get("OPENAI_API_KEY") or None
    if api_key is None:
        if base_url is None:
            raise ConfigError(
                f"model_name={config.model_name!r} is set but there is no API key: set api_key "
                "(or OPENAI_API_KEY), or base_url for a local OpenAI-compatible server"
            )
        api_key = _PLACEHOLDER_API_KEY
    from langchain_openai import ChatOpenAI  # deferred: heavy import, only for the model path

    kwargs: dict[str, Any] = {
        "model": model_name,
        "api_key": api_key,
        "timeout": config.model_timeout_seconds,
        "max_retries": 0,  # ModelExtractor retries with backoff and Retry-After itself
        "temperature": 0,
    }
    if base_url:
        kwargs["base_url"] = base_url
    return ChatOpenAI(**kwargs)


def _init_provider_model(config: MemoryConfig, provider: str, model_name: str) -> BaseChatModel:
    try:
        from langchain.chat_models import init_chat_model
    except ImportError as e:
        raise ConfigError(
            f"model {config.model_name!r} needs LangChain's init_chat_model: "
            f"{install_hint('langchain')}, and langchain-{provider.split('_')[0]}"
        ) from e
    kwargs: dict[str, Any] = {
        "timeout": config.model_timeout_seconds,
        "max_retries": 1,
        "temperature": 0,
    }
    if config.base_url:
        kwargs["base_url"] = config.base_url
    if config.api_key is not None:
        kwargs["api_key"] = config.api_key.get_secret_value()
    try:
        return init_chat_model(model_name, model_provider=provider, **kwargs)
    except ImportError as e:
        package = _install_hint(str(e)) or f"langchain-{provider.replace('_', '-')}"
        raise ConfigError(
            f"model {config.model_name!r} needs the {package} package: pip install {package}"
        ) from e
    except Exception as e:  # the providers' own validation errors (missing key, bad option)
        raise ConfigError(f"cannot build model {config.model_name!r}: {e}") from e


def _install_hint(message: str) -> str | None:
    # init_chat_model says "... Please install it with `pip install langchain-anthropic`".
    marker = "pip install "
    if marker not in message:
        return None
    return message.split(marker, 1)[1].split("`")[0].strip().split()[-1] or None


def build_extractor(config: MemoryConfig, model: BaseChatModel | None = None) -> Extractor:
    """The extractor for ``config``: the given or configured model, else the offline one.

    Args:
        config: memory configuration.
        model: a chat model to use instead of the configured one.

    Returns:
        :class:`ModelExtractor` with a model (wrapped in a ``JudgedExtractor``
        when ``judge="model"``; the judge uses ``judge_model_name`` if set, else
        the same model), else ``OfflineExtractor()``.

    Raises:
        ConfigError: as :func:`build_chat_model` (``config`` not a :class:`MemoryConfig`).
        InvalidArgumentError: ``model`` is not a chat model or None.
    """
    from deerflow_memory.config import MemoryConfig

    expect(config, MemoryConfig, "config", "a MemoryConfig", ConfigError)
    expect_chat_model(model, optional=True)
    if model is None:
        model = build_chat_model(config)
    if model is not None:
        extractor = ModelExtractor(
            model,
            structured_output=config.structured_output,
            retry=retry_policy(config),
            memory_max_tokens=config.update_memory_max_tokens,
            call_timeout=config.model_timeout_seconds,
        )
        if config.judge == "model":
            from deerflow_memory.update.judge import JudgedExtractor

            judge = model
            if config.judge_model_name:
                judge = (
                    build_chat_model(
                        config.model_copy(update={"model_name": config.judge_model_name})
                    )
                    or model
                )
            return JudgedExtractor(extractor, judge, call_timeout=config.model_timeout_seconds)
        return extractor
    from deerflow_memory.update.offline.extractor import OfflineExtractor

    return OfflineExtractor()


def retry_policy(config: MemoryConfig) -> RetryPolicy:
    """The :class:`RetryPolicy` of ``config`` (real sleep, real jitter)."""
    return RetryPolicy(
        call_retries=config.model_call_retries,
        base_seconds=config.retry_base_seconds,
        max_backoff_seconds=config.retry_max_backoff_seconds,
        max_attempts=config.update_max_attempts,
        max_total_seconds=config.update_retry_window_seconds,
        requeue_base_seconds=config.requeue_base_seconds,
    )
