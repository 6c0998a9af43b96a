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

from deerflow_memory.config.environment import CONFIG_PATH_ENV, ENV_PREFIX, TEST_ENV_PREFIX
from deerflow_memory.config.json_keys import DuplicateKeyError, json_object_without_duplicates
from deerflow_memory.config.load import load_config
from deerflow_memory.config.origins import normalize_origin
from deerflow_memory.config.paths import check_path
from deerflow_memory.config.secrets import redact_secrets
from deerflow_memory.config.settings import (
    SQLITE_FILE_NAME,
    MemoryConfig,
    RetrievalConfig,
    TenantOverrides,
)
from deerflow_memory.config.yaml_file import (
    DEERFLOW_IGNORED_KEYS,
    MAX_ALIASED_VALUES,
    MAX_CONFIG_BYTES,
)

__all__ = [
    "CONFIG_PATH_ENV",
    "DEERFLOW_IGNORED_KEYS",
    "ENV_PREFIX",
    "MAX_ALIASED_VALUES",
    "MAX_CONFIG_BYTES",
    "SQLITE_FILE_NAME",
    "TEST_ENV_PREFIX",
    "DuplicateKeyError",
    "MemoryConfig",
    "RetrievalConfig",
    "TenantOverrides",
    "check_path",
    "json_object_without_duplicates",
    "load_config",
    "normalize_origin",
    "redact_secrets",
]
