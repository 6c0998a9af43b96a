"""A config file is small: a regular file read up to 1 MiB; anything else is one clear error.

``--config /dev/zero`` (or any huge file) used to be read whole: the command
line was killed for lack of memory, or said "nested too deeply". A FIFO with no
writer made it wait forever in open().
"""

from __future__ import annotations

import contextlib
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


def load_within(seconds: float, *args: object, **kwargs: object) -> BaseException | None:
    """What ``load_config(*args, **kwargs)`` raised (None: it loaded), failing the test
    if it has not answered within ``seconds``, instead of hanging it."""
    outcome: list[BaseException | None] = []

    def load() -> None:
        try:
            load_config(*args, **kwargs)  # type: ignore[arg-type]
            outcome.append(None)
        except BaseException as e:  # handed to the test
            outcome.append(e)

    worker = threading.Thread(target=load, daemon=True)
    worker.start()
    worker.join(seconds)
    return outcome[0] if outcome else pytest.fail(f"load_config still waiting after {seconds} s")


def release(fifo: Path) -> None:
    """Lets a reader blocked in open(fifo) go on (after a failure), so no thread is left hanging."""
    with contextlib.suppress(OSError):  # nobody was waiting on it
        os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))


def test_a_config_that_is_a_fifo_with_no_writer_is_refused_at_once(
    tmp_path: Path,
) -> None:
    fifo = tmp_path / "config.fifo"
    os.mkfifo(fifo)
    try:
        by_path = load_within(10, fifo, environ={})
        by_env = load_within(10, environ={"DEERFLOW_MEMORY_CONFIG": str(fifo)})
    finally:
        release(fifo)
    for error in (by_path, by_env):  # it used to wait in open() for a writer, forever
        assert isinstance(error, ConfigError), error
        assert f"{fifo} is a FIFO (named pipe), not a regular file" in str(error)


def test_a_fifo_swapped_in_after_the_check_is_refused_once_open(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    regular = tmp_path / "regular.yaml"
    regular.write_text(SETTING, encoding="utf-8")
    fifo = tmp_path / "config.fifo"
    os.mkfifo(fifo)
    real_stat = os.stat
    monkeypatch.setattr(  # the check sees a regular file, the open a FIFO
        os, "stat", lambda p, *a, **k: real_stat(regular if p == fifo else p, *a, **k)
    )
    try:
        error = load_within(10, fifo, environ={})
    finally:
        release(fifo)
    assert isinstance(error, ConfigError) and "is a FIFO" in str(error), error


def test_a_config_file_is_still_read_through_a_symlink(tmp_path: Path) -> None:
    target = tmp_path / "real.yaml"
    target.write_text(SETTING, encoding="utf-8")
    (tmp_path / "link.yaml").symlink_to(target)
    assert load_config(tmp_path / "link.yaml", environ={}).max_facts == 7


def test_a_config_path_naming_a_folder_is_refused_as_a_folder(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="is a folder, not a file"):
        load_config(tmp_path, environ={})


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


def show_with_config(config: str, root: Path, timeout: float = 60) -> str:
    """The one stderr line of ``show`` run with ``--config config`` under the memory limit
    (the CLI must exit 2: a configuration error)."""
    environ = {k: v for k, v in os.environ.items() if not k.startswith("DEERFLOW_MEMORY_")}
    command = ["--config", config, "--root", str(root / "mem"), "show", "--user", "a"]
    done = subprocess.run(
        [sys.executable, "-m", "deerflow_memory.cli", *command],
        env=environ,
        capture_output=True,
        text=True,
        timeout=timeout,
        preexec_fn=_limit_memory,
    )
    assert done.returncode == 2, (done.returncode, done.stderr[-500:])
    (line,) = done.stderr.splitlines()
    return line


def test_config_from_dev_zero_is_one_error_line_naming_the_limit(tmp_path: Path) -> None:
    line = show_with_config("/dev/zero", tmp_path)
    assert "/dev/zero is a device, not a regular file" in line and "1 MiB" in line, line


def test_config_from_a_fifo_is_one_error_line_not_a_hang(tmp_path: Path) -> None:
    fifo = tmp_path / "config.fifo"
    os.mkfifo(fifo)
    try:
        line = show_with_config(str(fifo), tmp_path, timeout=30)
    finally:
        release(fifo)
    assert f"{fifo} is a FIFO (named pipe), not a regular file" in line, line


def laughs(setting: str) -> str:
    """A few hundred bytes of YAML whose aliases stand for 10**9 strings (billion laughs)."""
    lines = ["anchors:", '  a0: &a0 ["xxxxxxxxxx"' + ', "xxxxxxxxxx"' * 9 + "]"]
    lines += [f"  a{k}: &a{k} [" + ", ".join([f"*a{k - 1}"] * 10) + "]" for k in range(1, 9)]
    return "\n".join([*lines, "memory:", f"  {setting}: *a8", ""])


@pytest.mark.parametrize(
    "setting", ["debounce_seconds", "model_name", "tenants", "guaranteed_categories"]
)
def test_a_small_config_whose_aliases_expand_to_billions_is_one_short_error(
    tmp_path: Path, setting: str
) -> None:
    config = tmp_path / "laughs.yaml"
    config.write_text(laughs(setting), encoding="utf-8")
    assert config.stat().st_size < 1_000
    line = show_with_config(str(config), tmp_path)  # the value used to be walked whole
    # refused while reading the YAML, at the alias that goes over the bound: line 5
    # ("a3: [*a2, ...]"), the eighth *a2 (8 x 1,111 values + 1,220 before > 10,000)
    assert "laughs.yaml, line 5: aliases (*a2 and those before it) repeat more than" in line
    assert len(line) < 1_000, line
