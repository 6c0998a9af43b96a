"""Settings from ``DEERFLOW_MEMORY_*`` environment variables."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

from deerflow_memory.config.json_keys import DuplicateKeyError, json_object_without_duplicates
from deerflow_memory.config.messages import ERRORS_SHOWN, clipped, closest, first_few, quoted
from deerflow_memory.config.settings import DEERFLOW_ALIASES, MemoryConfig
from deerflow_memory.errors import ConfigError

ENV_PREFIX = "DEERFLOW_MEMORY_"
CONFIG_PATH_ENV = "DEERFLOW_MEMORY_CONFIG"
TEST_ENV_PREFIX = "DEERFLOW_MEMORY_TEST_"


def environment_values(environ: Mapping[str, str]) -> dict[str, Any]:
    """The settings ``environ``'s ``DEERFLOW_MEMORY_*`` variables give, by setting name.

    Values stay text for :class:`~deerflow_memory.config.MemoryConfig` to
    convert, except ``retrieval`` and ``tenants`` (a JSON object), the list
    settings (a JSON list or comma-separated) and ``none``/``null`` for the
    optional ones. ``DEERFLOW_MEMORY_CONFIG`` and ``DEERFLOW_MEMORY_TEST_*``
    are not settings and are skipped.

    Raises:
        ConfigError: an unknown variable (with a "did you mean"), two spellings
            of one setting, or a JSON value that does not parse.
    """
    fields = MemoryConfig.model_fields
    named: dict[str, tuple[str, str]] = {}  # setting name -> (variable, value)
    unknown: list[str] = []
    for key, raw in environ.items():
        if not key.startswith(ENV_PREFIX) or key == CONFIG_PATH_ENV:
            continue
        if key.startswith(TEST_ENV_PREFIX):  # the project's own test settings, not memory ones
            continue
        name = key[len(ENV_PREFIX) :].lower()
        name = DEERFLOW_ALIASES.get(name, name)
        if name in named:  # MAX_FACTS and max_facts, or an alias and the name
            first = named[name][0]
            raise ConfigError(
                f"environment variables {clipped(min(first, key))} and "
                f"{clipped(max(first, key))} are two spellings of one setting ({name}); "
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
    for key in keys[:ERRORS_SHOWN]:
        name = key[len(ENV_PREFIX) :].lower()
        close = closest(name, fields)
        hint = f"; did you mean {ENV_PREFIX}{close.upper()}?" if close else ""
        described.append(f"{clipped(key)}: no memory setting {quoted(name)}{hint}")
    listed = first_few(described, len(keys), "unknown variables")
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
