"""Reading an app's auth user object: an attribute it does not have, or a read that failed.

The graphs and the ``/memory`` routes read ``identity``, ``display_name``,
``tenant_id`` and ``is_authenticated`` off the auth user
(:func:`deerflow_memory.identity.authenticated_caller`): an object your auth
handler returned, LangGraph's ``ProxyUser`` forwarding to it, a Starlette
user, or a mapping. "Absent" means no tenant (any tenant may be named) or the
next identity source (a display name many accounts may share), so only a
lookup that says "no such attribute" is absent (:func:`auth_attribute`,
the rule in ``_absent``); any other failure is refused with
:class:`~deerflow_memory.errors.InvalidNameError` (the routes answer 403).
"""

from __future__ import annotations

import weakref
from collections.abc import Iterator, Mapping
from types import FrameType, FunctionType, GetSetDescriptorType, MemberDescriptorType
from typing import Any

from deerflow_memory.errors import InvalidNameError

__all__ = ["auth_attribute", "says_authenticated", "unreadable"]


# Starlette's BaseUser raises NotImplementedError for the properties it leaves
# out (LangGraph then reads display_name for identity): absent, not unreadable.
_STARLETTE_PROPERTIES = frozenset({"identity", "display_name"})


def unreadable(what: str) -> InvalidNameError:
    """The error refusing an auth user whose ``what`` (an attribute name) could not be read."""
    if what == "is_authenticated":
        return InvalidNameError(
            "the auth user cannot say whether it is authenticated (reading is_authenticated "
            "raised): refused, never taken for the operator"
        )
    return InvalidNameError(
        f"the auth user's {what} cannot be read as text (reading it raised): refused, never "
        "taken for the operator"
    )


_CLASS_DICT = type.__dict__["__dict__"].__get__  # a class's own namespace, read statically
_CLASS_MRO = type.__dict__["__mro__"].__get__


def _class_declares(klass: type, key: str) -> bool:
    """Whether ``klass`` or a base declares ``key`` (a property, a slot...).

    Not cached: a class given ``key`` later must read as declaring it (a stale "no"
    would let a failed read pass as an absence); a few dict lookups per base.
    """
    return any(key in _CLASS_DICT(base) for base in _CLASS_MRO(klass))


def _declares(holder: object, key: str) -> bool:
    """Whether ``holder``'s class or instance declares ``key`` (runs none of its code).

    What ``inspect.getattr_static`` finds, read more cheaply (it runs on every
    read of an absent attribute, in the nodes' hot path).
    """
    klass: Any = type(holder)
    try:
        if _class_declares(klass, key):
            return True
        namespace = object.__getattribute__(holder, "__dict__")
    except AttributeError:  # no instance dict (slots)
        return False
    except Exception:  # a class whose layout cannot be read statically: say declared
        return True
    return isinstance(namespace, dict) and key in namespace


_LOOKUP_HOOKS = frozenset({"__getattr__", "__getattribute__"})
_NOT_A_HOOK = object()


def _hook_owner(frame: FrameType) -> object:
    """The object whose attribute lookup hook ``frame`` runs, or ``_NOT_A_HOOK`` when it
    is not one. A hook: a function named ``__getattr__`` or ``__getattribute__``, or the
    ``__getattr__`` of its first argument's class under another name (Django's
    ``SimpleLazyObject``: ``__getattr__ = new_method_proxy(getattr)``).
    """
    code = frame.f_code
    owner = frame.f_locals.get(code.co_varnames[0]) if code.co_argcount else None
    if code.co_name in _LOOKUP_HOOKS:
        return owner
    for base in _CLASS_MRO(type(owner)):
        hook = _CLASS_DICT(base).get("__getattr__")
        if hook is not None:
            return (
                owner if isinstance(hook, FunctionType) and hook.__code__ is code else _NOT_A_HOOK
            )
    return _NOT_A_HOOK


_SCALARS = frozenset({str, bytes, int, float, bool, type(None)})
_REACH = 3  # hops from a proxy to the object it forwards to (user -> token -> payload)
_LOOKED_AT = 64  # objects looked at to find it, at most


def _held_by(holder: object) -> Iterator[object]:
    """What ``holder`` holds itself, read without running its code: its instance dict's
    values and set slots, a C-coded ``__wrapped__`` (wrapt's ``ObjectProxy``), and the
    object behind a ``weakref.ref`` it keeps."""
    try:
        namespace = object.__getattribute__(holder, "__dict__")
    except Exception:
        namespace = None
    if isinstance(namespace, dict):
        for value in list(namespace.values()):
            yield value() if type(value) is weakref.ReferenceType else value
    for base in _CLASS_MRO(type(holder)):
        for name, member in list(_CLASS_DICT(base).items()):
            coded_in_c = type(member) is GetSetDescriptorType and name == "__wrapped__"
            if type(member) is MemberDescriptorType or coded_in_c:
                try:
                    yield member.__get__(holder)
                except Exception:  # a slot never set, a proxy wrapping nothing
                    continue


def _reached(holder: object, target: object) -> list[object] | None:
    """Every object looked at from ``holder`` (excluded) until ``target`` (included) is
    reached through what each holds (:func:`_held_by`, or ``holder`` a
    ``weakref.proxy`` of ``target``), the whole level of the search that reached it
    included; None when ``target`` is not reached within :data:`_REACH` hops.

    Types are compared exactly (``type(value)``): ``isinstance`` reads ``__class__``,
    which runs the code of lazy objects.
    """
    if target is holder:
        return []
    if any(ref is holder for ref in weakref.getweakrefs(target)):
        return [target]
    looked_at: list[object] = []
    seen = {id(holder)}
    level = [holder]
    for _ in range(_REACH):
        found = False
        reached = []
        for value in (value for held in level for value in _held_by(held)):
            if type(value) in _SCALARS or id(value) in seen:
                continue
            seen.add(id(value))
            if len(seen) > _LOOKED_AT:
                return None
            looked_at.append(value)
            reached.append(value)
            found = found or value is target
        if found:
            return looked_at
        level = reached
    return None


def _absent(user: object, key: str, error: AttributeError) -> bool:
    """Whether ``error``, raised reading ``user``'s ``key``, says only "no such attribute".

    The rule (Python 3.10+ sets an AttributeError's ``name`` and ``obj``):

    1. it is a plain ``AttributeError`` about ``key`` itself: ``error.name == key``
       and its text is the interpreter's (``... has no attribute 'key'``) or the
       bare name (``raise AttributeError(name)``), not "claims not fetched";
    2. it was raised where a lookup is made, not inside the attribute's code: the
       lookup on ``user`` itself failed (no code of the user's ran), or every
       frame it passed through is a lookup hook (``__getattr__`` or
       ``__getattribute__``: proxies forwarding the name, as LangGraph's
       ``ProxyUser`` and ``DotDict`` do, or a class answering "no such
       attribute"), none a property, a descriptor or anything a hook calls;
    3. the object it failed on (``error.obj``) is the one whose lookup ran last
       (the user, or the last hook's object) or one that object holds itself
       (the object a proxy forwards to, in its instance dict or slots), not
       None (a proxy wrapping nothing) nor anything further away (a C-coded
       property of the wrapped user reading ``self.claims.tenant_id``); and
       neither it, ``user`` nor any object whose hook the lookup passed
       through declares ``key`` (``inspect.getattr_static``):
       a ``__slots__`` slot declared but never set, or a property whose
       AttributeError Python handed over to ``__getattr__``, is unreadable.

    Anything else is a read that failed (fail closed).
    """
    if type(error) is not AttributeError or error.name != key:
        return False
    text = str(error)
    if text != key and not text.endswith(f"has no attribute {key!r}"):
        return False
    if _declares(user, key):
        return False  # declared (a property, a slot) yet not read: it failed
    holder: object = user  # the object whose lookup ran last: the user, then each hook's
    frames = error.__traceback__  # starts at the reading frame (auth_attribute)
    targets: list[object] = []
    while frames is not None and (frames := frames.tb_next) is not None:
        owner = _hook_owner(frames.tb_frame)
        if owner is _NOT_A_HOOK:
            return False  # raised in (or below) a property, descriptor, helper...
        targets.append(owner)
    if error.obj is None:
        return False  # a proxy wrapping nothing
    targets.append(error.obj)
    for target in targets:
        looked_at = _reached(holder, target)
        # Not reached from the last lookup (code that left no frame, as a C-coded
        # property, ran between), or an object met on the way declares ``key`` (a
        # property whose AttributeError Python handed to ``__getattr__``, a user a
        # wrapper holds beside its token): failed.
        if looked_at is None or any(_declares(seen, key) for seen in looked_at):
            return False
        holder = target
    return True


def auth_attribute(user: Any, key: str) -> Any:
    """``user``'s ``key`` (attribute, or key of a Mapping), or None when absent.

    Absent: a Mapping without ``key`` (or holding None), an object without the
    attribute (:func:`_absent` tells "no such attribute", also through a proxy's
    ``__getattr__``, from "reading it failed"), or Starlette's
    ``NotImplementedError`` for ``identity``/``display_name``. A declared
    ``__slots__`` slot never set is unreadable (the class says the user has a
    tenant; which one is unknown).

    Raises:
        InvalidNameError: reading it raised anything else: an exception other
            than those, an AttributeError raised in a property or descriptor or
            in code a ``__getattr__`` calls, about another name, with another
            text, or any AttributeError from a Mapping's ``get`` (fail closed).
    """
    # LangGraph passes the auth user as the object your handler returned, a
    # proxy answering attributes from it (ProxyUser), or a dict after serialization.
    try:
        if isinstance(user, Mapping):
            return user.get(key)
        return getattr(user, key)
    except AttributeError as error:
        try:
            absent = not isinstance(user, Mapping) and _absent(user, key, error)
        except Exception:  # looking through the user ran its code, and that failed
            absent = False
        if not absent:
            raise unreadable(key) from None
        return None
    except NotImplementedError:
        if key in _STARLETTE_PROPERTIES:
            return None
        raise unreadable(key) from None
    except Exception:  # a lazy lookup that failed, a proxy raising KeyError...
        raise unreadable(key) from None


def says_authenticated(user: Any) -> bool | None:
    """``user.is_authenticated`` as a bool, None when absent (:func:`auth_attribute`'s rule).

    Raises:
        InvalidNameError: reading it (or its truth value) raises: fail closed.
    """
    value = auth_attribute(user, "is_authenticated")
    try:
        return None if value is None else bool(value)
    except Exception:  # a flag whose truth value raises
        raise unreadable("is_authenticated") from None
