"""Files and questions for the command line: bounded reads, safe replacing writes, yes/no.

- :func:`read_bounded` reads at most a limit, so an import of a huge file (or
  of ``/dev/zero``) fails with one clear error instead of filling memory; a
  named pipe's writer is waited for a few seconds, not forever.
  :func:`read_stream_bounded` does the same for an open stream (stdin).
- :func:`write_text_replacing` writes next to the target and renames over it,
  so a full disk or a crash never leaves a half-written export in place of the
  old file. Devices and FIFOs (``/dev/stdout``, ``/dev/full``) are written directly.
- :func:`ask_yes_no` asks on stderr when stdin is a terminal (Ctrl-D there is
  "no"); otherwise the answer is "none" (``None``), never an exception.
- :func:`describe_os_error` turns any ``OSError`` into one line (reason and path).
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import sys
import threading
from pathlib import Path
from typing import BinaryIO

from deerflow_memory.config.secrets import redact_path
from deerflow_memory.daemons import daemon_thread
from deerflow_memory.errors import InvalidDocumentError

__all__ = [
    "ask_yes_no",
    "describe_os_error",
    "read_bounded",
    "read_stream_bounded",
    "write_text_replacing",
]

_CHUNK = 1 << 20


def read_bounded(
    path: Path, limit: int, *, setting: str = "max_import_bytes", writer_wait: float = 10.0
) -> bytes:
    """The bytes of ``path``, at most ``limit`` of them.

    A named pipe is read as ``mkfifo p; reader p & writer > p`` expects: its
    writer is waited for, at most ``writer_wait`` seconds (its open would wait
    forever); a pipe whose writer is already there (``<(…)``) is read at once.

    Raises:
        InvalidDocumentError: the file holds more than ``limit`` bytes (names
            ``setting``, the knob that raises the limit), or it is a named
            pipe no writer opened within ``writer_wait`` seconds.
        OSError: the file cannot be opened or read (missing, a folder, no permission).
    """
    flags = os.O_RDONLY | getattr(os, "O_CLOEXEC", 0)
    opened, waited = threading.Event(), threading.Event()

    def give_up() -> None:  # a writer of our own lets the open return, at end-of-file
        if opened.wait(writer_wait):
            return
        waited.set()
        with contextlib.suppress(OSError):  # no reader waiting (it opened): nothing to do
            os.close(os.open(path, os.O_WRONLY | getattr(os, "O_NONBLOCK", 0)))

    if stat.S_ISFIFO(os.stat(path).st_mode):
        daemon_thread(give_up, "deerflow-memory-pipe-wait").start()
    try:
        fd = os.open(path, flags)
    finally:
        opened.set()
    if stat.S_ISDIR(os.fstat(fd).st_mode):  # os.open takes a folder; reading it names the fd
        os.close(fd)
        raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), str(path))
    with open(fd, "rb", closefd=True) as handle:
        data = read_stream_bounded(handle, limit, name=str(path), setting=setting)
    if not data and waited.is_set():
        raise InvalidDocumentError(
            f"{path} is a named pipe and no writer opened it within "
            f"{writer_wait:g} s; nothing was imported"
        )
    return data


def read_stream_bounded(
    stream: BinaryIO, limit: int, *, name: str = "stdin", setting: str = "max_import_bytes"
) -> bytes:
    """At most ``limit`` bytes of an open binary ``stream``, read to its end.

    Raises:
        InvalidDocumentError: the stream holds more than ``limit`` bytes (names
            ``setting``, the knob that raises the limit); nothing past the
            limit is read.
        OSError: the stream cannot be read.
    """
    data = bytearray()
    while len(data) <= limit:
        piece = stream.read(min(_CHUNK, limit + 1 - len(data)))
        if not piece:
            return bytes(data)
        data += piece
    raise InvalidDocumentError(
        f"{name} is larger than the import limit of {_size(limit)} "
        f"({setting}={limit}); nothing was imported"
    )


def _size(n: int) -> str:
    if n >= 1 << 20 and n % (1 << 20) == 0:
        return f"{n >> 20} MiB"
    return f"{n:,} bytes"


def write_text_replacing(path: Path, text: str) -> None:
    """Write ``text`` (UTF-8) to ``path``; an existing regular file is replaced only when done.

    The text goes to a temporary file in the same folder, is flushed to disk,
    and then renamed over ``path`` (keeping an existing file's permission
    bits); on any failure the temporary file is removed and ``path`` is
    untouched. An existing non-regular file (device, FIFO) is written directly.

    Raises:
        OSError: the folder is missing or not writable, the disk is full, ...
    """
    try:
        info = path.stat()
    except FileNotFoundError:
        info = None
    if info is not None and not stat.S_ISREG(info.st_mode):
        with path.open("w", encoding="utf-8") as handle:
            handle.write(text)
        return
    target = path.resolve() if path.is_symlink() else path
    temporary = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        if info is not None:
            os.chmod(temporary, stat.S_IMODE(info.st_mode))
        os.replace(temporary, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


def ask_yes_no(question: str) -> bool | None:
    """Ask ``question`` on stderr and read the answer, only when stdin is a terminal.

    Returns:
        True for "y"/"yes", False for any other answer or for end-of-file typed
        at the terminal (Ctrl-D: the person there said no), None when there is no
        one to ask (stdin closed, a pipe or a file: scripts pass ``--yes``).
    """
    stdin, stderr = sys.stdin, sys.stderr
    try:
        if stdin is None or stderr is None or not stdin.isatty():
            return None
        stderr.write(question)
        stderr.flush()
        line = stdin.readline()
        if not line:
            stderr.write("\n")  # Ctrl-D: the error that follows starts its own line
            return False
    except (OSError, ValueError):
        return None
    return line.strip().lower() in {"y", "yes"}


def describe_os_error(error: OSError) -> str:
    """One line for an operating-system error: its reason and the path(s) it concerns."""
    reason = error.strerror or str(error) or type(error).__name__
    # (masked: a DSN given as a path, "File name too long" for a long password, quotes it)
    paths = [
        redact_path(os.fsdecode(p) if isinstance(p, str | bytes) else str(p))  # (an fd: int)
        for p in (error.filename, error.filename2)
        if p is not None
    ]
    return f"{reason}: {' -> '.join(paths)}" if paths else reason
