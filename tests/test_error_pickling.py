"""Errors cross process boundaries (a worker's failure, a multiprocessing pool) intact.

An ``Exception`` is unpickled by calling its class with ``args``, the message, which
an ``__init__`` that takes other arguments misread: ``FactNotFoundError`` came back
saying "no current fact with id \"no current fact with id 'fact_1'…\"" (attacker 88).
"""

from __future__ import annotations

import errno
import pickle

import pytest

from deerflow_memory import errors as E

SAMPLES = [
    E.FactNotFoundError("fact_1", near="fact_2", why="1 character differs"),
    E.FactNotFoundError("fact_9", text_in=("fact_3", "fact_4"), in_history=True),
    E.IdentityMismatchError("user", "mallory", "alice"),
    E.UnknownTenantError("acme"),
    E.CorruptMemoryError("/tmp/users/ann/memory.json", "not JSON"),
    E.ForkedServiceError(1234),
    E.RevisionConflictError("ann", "coach", 3, 5),
    E.ToolNameError("bad tool names", ("a b", "c/d")),
    E.MemoryBusyError("ann", None, 2.5),
    E.ConfigError("debounce_seconds must be >= 0"),
]


@pytest.mark.parametrize("error", SAMPLES, ids=lambda e: type(e).__name__)
def test_an_error_keeps_its_class_message_and_attributes_through_pickle(
    error: E.DeerflowMemoryError,
) -> None:
    error.add_note("while saving the memory of ann")
    back = pickle.loads(pickle.dumps(error))
    assert type(back) is type(error)
    assert str(back) == str(error) and back.args == error.args
    assert vars(back) == vars(error)  # fields such as ``near`` and the notes


def test_the_fields_of_the_built_in_an_error_derives_from_survive() -> None:
    # The first base-class __reduce__ lost errno and filename, and ImportError's name
    # (attacker 90).
    full = E.StorageError(errno.ENOSPC, "No space left on device", "/data/memory.json")
    back = pickle.loads(pickle.dumps(full))
    assert (back.errno, back.filename, str(back)) == (full.errno, full.filename, str(full))
    missing = pickle.loads(pickle.dumps(E.MissingDependencyError("no psycopg", name="psycopg")))
    assert missing.name == "psycopg"


def test_an_attribute_that_refers_back_to_the_error_is_kept() -> None:
    error = E.FactNotFoundError("fact_1")
    error.me = error  # type: ignore[attr-defined]
    back = pickle.loads(pickle.dumps(error))
    assert back.me is back  # type: ignore[attr-defined]


class _Coded(Exception):
    def __init__(self, code: int) -> None:
        super().__init__(f"code {code}")
        self.code = code


class _Pair:
    def __init__(self, first: str, second: str) -> None:
        Exception.__init__(self, f"{first}/{second}")  # type: ignore[arg-type]
        self.first, self.second = first, second


class _CodedError(E.DeerflowMemoryError, _Coded):
    pass


class _PairError(_Pair, E.ConfigError):
    pass


@pytest.mark.parametrize(
    "error", [_CodedError(5), _PairError("x", "y")], ids=lambda e: type(e).__name__
)
def test_a_users_subclass_built_by_an_init_of_its_own_bases_pickles(
    error: E.DeerflowMemoryError,
) -> None:
    # An __init__ from a base outside the package, or a mixin, was missed: "code code 5",
    # or a TypeError (attacker 91).
    back = pickle.loads(pickle.dumps(error))
    assert (type(back), str(back), vars(back)) == (type(error), str(error), vars(error))


class _Gone(E.StorageError):
    def __init__(self, path: str) -> None:
        super().__init__(errno.ENOENT, "missing", path)
        self.where = path


class _NoModule(E.MissingDependencyError):
    def __init__(self, module: str) -> None:
        super().__init__(f"no {module}", name=module, path="/opt/x")


def test_a_subclass_with_its_own_init_keeps_the_built_ins_fields() -> None:
    # errno, strerror, filename, and ImportError's name and path, live outside args and
    # __dict__: they came back None (attacker 92).
    gone = pickle.loads(pickle.dumps(_Gone("/tmp/f")))
    assert (str(gone), gone.errno, gone.filename) == ("[Errno 2] missing: '/tmp/f'", 2, "/tmp/f")
    module = pickle.loads(pickle.dumps(_NoModule("psycopg")))
    assert (module.name, module.path) == ("psycopg", "/opt/x")
