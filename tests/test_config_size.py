"""A config file is small: it is read up to 1 MiB, and a larger one is one clear error.

``--config /dev/zero`` (or any huge file) used to be read whole: the command
line was killed for lack of memory, or said "nested too deeply".
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from deerflow_memory.config import MAX_CONFIG_BYTES, load_config
from deerflow_memory.errors import ConfigError

SETTING = "memory:\n  max_facts: 7\n"


def padded(size: int) -> str:
    """A valid config of exactly ``size`` bytes: the setting, then comment lines."""
    line = "# " + "x" * 61 + "\n"
    body = SETTING + line * ((size - len(SETTING)) // len(line))
    return body + "#" * (size - len(body) - 1) + "\n"


def test_a_config_file_of_the_limit_loads(tmp_path: Path) -> None:
    path = tmp_path / "config.yaml"
    path.write_text(padded(MAX_CONFIG_BYTES), encoding="utf-8")
    assert path.stat().st_size == MAX_CONFIG_BYTES
    assert load_config(path, environ={}).max_facts == 7


def test_a_config_file_over_the_limit_is_refused_naming_it(tmp_path: Path) -> None:
    path = tmp_path / "config.yaml"
    path.write_text(padded(MAX_CONFIG_BYTES + 1), encoding="utf-8")
    with pytest.raises(ConfigError, match=r"larger than 1,048,576 bytes \(1 MiB\)"):
        load_config(path, environ={})


def test_a_config_through_a_pipe_is_read_up_to_the_limit(tmp_path: Path) -> None:
    fifo = tmp_path / "config.fifo"
    os.mkfifo(fifo)
    writer = threading.Thread(target=fifo.write_text, args=(SETTING,), daemon=True)
    writer.start()
    assert load_config(fifo, environ={}).max_facts == 7
    writer.join(5)


def test_a_config_that_runs_out_of_memory_says_so_not_that_it_is_nested(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import yaml

    def exhausted(*_: object, **__: object) -> None:
        raise MemoryError

    path = tmp_path / "config.yaml"
    path.write_text(SETTING, encoding="utf-8")
    monkeypatch.setattr(yaml, "load", exhausted)
    with pytest.raises(ConfigError, match="needs more memory than is available"):
        load_config(path, environ={})


def _limit_memory() -> None:  # the child may use 2 GB at most: a failure cannot hurt the host
    resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))


def show_with_config(config: str, root: Path) -> str:
    """The one stderr line of ``show`` run with ``--config config`` under the memory limit
    (the CLI must exit 2: a configuration error)."""
    environ = {k: v for k, v in os.environ.items() if not k.startswith("DEERFLOW_MEMORY_")}
    command = ["--config", config, "--root", str(root / "mem"), "show", "--user", "a"]
    done = subprocess.run(
        [sys.executable, "-m", "deerflow_memory.cli", *command],
        env=environ,
        capture_output=True,
        text=True,
        timeout=60,
        preexec_fn=_limit_memory,
    )
    assert done.returncode == 2, (done.returncode, done.stderr[-500:])
    (line,) = done.stderr.splitlines()
    return line


def test_config_from_dev_zero_is_one_error_line_naming_the_limit(tmp_path: Path) -> None:
    line = show_with_config("/dev/zero", tmp_path)
    assert "/dev/zero" in line and "1 MiB" in line and "nested" not in line, line


def laughs(setting: str) -> str:
    """A few hundred bytes of YAML whose aliases stand for 10**9 strings (billion laughs)."""
    lines = ["anchors:", '  a0: &a0 ["xxxxxxxxxx"' + ', "xxxxxxxxxx"' * 9 + "]"]
    lines += [f"  a{k}: &a{k} [" + ", ".join([f"*a{k - 1}"] * 10) + "]" for k in range(1, 9)]
    return "\n".join([*lines, "memory:", f"  {setting}: *a8", ""])


@pytest.mark.parametrize("setting", ["debounce_seconds", "model_name", "tenants"])
def test_a_small_config_whose_aliases_expand_to_billions_is_one_short_error(
    tmp_path: Path, setting: str
) -> None:
    config = tmp_path / "laughs.yaml"
    config.write_text(laughs(setting), encoding="utf-8")
    assert config.stat().st_size < 1_000
    line = show_with_config(str(config), tmp_path)  # the value used to be walked whole
    assert f"{setting}:" in line and len(line) < 1_000, line
