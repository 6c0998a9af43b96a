"""``load_config``: defaults, then a YAML file, then the environment, then overrides."""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from deerflow_memory.arguments import expect
from deerflow_memory.config.environment import CONFIG_PATH_ENV, environment_values
from deerflow_memory.config.paths import check_path
from deerflow_memory.config.settings import MemoryConfig
from deerflow_memory.config.yaml_file import read_yaml
from deerflow_memory.errors import ConfigError


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
    expect(
        environ,
        Mapping,
        "environ",
        "a mapping of variable names to values",
        ConfigError,
        optional=True,
    )
    env = os.environ if environ is None else environ
    values: dict[str, Any] = {}
    if path is None and env.get(CONFIG_PATH_ENV):
        path = env[CONFIG_PATH_ENV]
    if path is not None:
        values.update(read_yaml(check_path(path, "config file", file=True)))
    values.update(environment_values(env))
    values.update(overrides)
    # MemoryConfig(...) turns a ValidationError into one ConfigError, secrets masked
    # (model_validate would run that __init__ inside validation and nest the message).
    return MemoryConfig(**values)
