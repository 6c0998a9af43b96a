"""One walk over an exception's causes, shared by every check that looks behind an error."""

from __future__ import annotations

from itertools import pairwise

from deerflow_memory.errors import CHAIN_LIMIT, StorageError, error_chain
from deerflow_memory.storage.closed import is_operational, is_store_closed
from deerflow_memory.storage.outbox import never_writable
from deerflow_memory.update.retry import transient_delay


def chained(*errors: BaseException, cause: bool = True) -> BaseException:
    """``errors[0]``, caused by ``errors[1]``, caused by ... (or raised while handling it)."""
    for outer, inner in pairwise(errors):
        if cause:
            outer.__cause__ = inner
        else:
            outer.__context__ = inner
    return errors[0]


class OperationalError(Exception):
    """Named like a DB-API driver's (the checks go by class name)."""


class ProgrammingError(Exception):
    """Named like sqlite3's."""


def test_the_chain_starts_at_the_error_and_follows_causes_then_contexts() -> None:
    a, b, c = RuntimeError("a"), ValueError("b"), KeyError("c")
    a.__cause__ = b
    b.__context__ = c
    assert list(error_chain(a)) == [a, b, c]
    assert list(error_chain(a, context=False)) == [a, b]


def test_a_cause_wins_over_a_context() -> None:
    a, cause, context = RuntimeError("a"), ValueError("cause"), KeyError("context")
    a.__cause__, a.__context__ = cause, context
    assert list(error_chain(a)) == [a, cause]


def test_a_chain_that_loops_back_yields_each_error_once() -> None:
    a, b = RuntimeError("a"), ValueError("b")
    a.__cause__, b.__cause__ = b, a
    assert list(error_chain(a)) == [a, b]
    assert transient_delay(a) is None  # ends, and nothing in it is transient
    assert not is_store_closed(a) and not is_operational(a)


def test_a_long_chain_is_cut_at_the_limit() -> None:
    errors = [RuntimeError(str(i)) for i in range(CHAIN_LIMIT + 5)]
    head = chained(*errors)
    assert list(error_chain(head)) == errors[:CHAIN_LIMIT]
    assert list(error_chain(head, limit=3)) == errors[:3]


def test_every_check_finds_its_error_anywhere_within_the_limit_and_not_beyond() -> None:
    def behind(depth: int, error: BaseException) -> BaseException:
        return chained(*[RuntimeError(f"wrapper {i}") for i in range(depth)], error)

    closed = ProgrammingError("Cannot operate on a closed database.")
    assert is_store_closed(behind(CHAIN_LIMIT - 1, closed))
    assert not is_store_closed(behind(CHAIN_LIMIT, closed))
    assert is_operational(behind(CHAIN_LIMIT - 1, OperationalError("database is locked")))
    assert not is_operational(behind(CHAIN_LIMIT, OperationalError("database is locked")))
    assert transient_delay(behind(CHAIN_LIMIT - 1, TimeoutError())) == 0.0
    assert transient_delay(behind(CHAIN_LIMIT, TimeoutError())) is None


def test_never_writable_looks_only_behind_storage_errors_and_only_at_their_causes() -> None:
    bad_data = ValueError("cannot encode")
    assert never_writable(chained(StorageError("write failed"), StorageError("row"), bad_data))
    # Behind another kind of error the ValueError is not the reason the write failed.
    assert not never_writable(chained(StorageError("write failed"), OSError("disk"), bad_data))
    # An error raised while handling bad data (no ``from``) is not caused by it.
    assert not never_writable(chained(StorageError("write failed"), bad_data, cause=False))
