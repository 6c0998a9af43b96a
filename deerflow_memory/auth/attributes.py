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
from collections.abc import Mapping
from types import FrameType, FunctionType, GetSetDescriptorType
from typing import Any

from deerflow_memory.errors import InvalidNameError

__all__ = ["auth_attribute", "says_authenticated", "unreadable"]


# Starlette's BaseUser raises NotImplementedError for the properties it leaves
# out (LangGraph then reads display_name for identity): absent, not unreadable.
_STARLETTE_PROPERTIES = frozenset({"identity", "display_name"})


def _raised_by_starlette(error: BaseException, key: str) -> bool:
    """Whether ``error`` comes straight from Starlette's ``BaseUser.<key>`` (not provided),
    not from an app's own property raising the same type."""
    frames = error.__traceback__
    if frames is None:
        return False
    while frames.tb_next is not None:
        frames = frames.tb_next
    frame = frames.tb_frame
    return (
        frame.f_globals.get("__name__") == "starlette.authentication"
        and frame.f_code.co_qualname == f"BaseUser.{key}"
    )


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


# Proxies whose lookup hook forwards to an object they keep under a known name:
# (module, class) -> that name. Any other hook counts only for its own "no such
# attribute": where a hook forwards to cannot be told from the outside, and code
# that left no frame (a C-coded property) may have run on the way.
_KNOWN_FORWARDERS = {
    ("langgraph_api.auth.custom", "ProxyUser"): "_user",
    ("django.utils.functional", "SimpleLazyObject"): "_wrapped",
    ("django.utils.functional", "LazyObject"): "_wrapped",
}
_MISSING = object()
# Classes whose own ``__getattr__`` answers from what the object itself stores (a
# dict, pydantic's extra fields), so its "no such attribute" is an absence.
# Any other class's hook may have passed the lookup elsewhere and swallowed a
# failed read there (``hasattr`` then raise, ``getattr`` with a default).
_ANSWER_FOR_THEMSELVES = frozenset(
    {("langgraph_api.auth.custom", "DotDict"), ("pydantic.main", "BaseModel")}
)


def _answers_for_itself(owner: object, frame: FrameType) -> bool:
    """Whether ``frame`` runs the ``__getattr__`` of a class in :data:`_ANSWER_FOR_THEMSELVES`
    (its own, not a subclass's override)."""
    for base in _CLASS_MRO(type(owner)):
        hook = _CLASS_DICT(base).get("__getattr__")
        if hook is not None:
            return (
                (base.__module__, base.__qualname__) in _ANSWER_FOR_THEMSELVES
                and isinstance(hook, FunctionType)
                and hook.__code__ is frame.f_code
            )
    return False


def _forwarded_to(proxy: object) -> object:
    """The object a known proxy's hook forwards to (its instance dict, read statically),
    or ``_MISSING``."""
    for base in _CLASS_MRO(type(proxy)):  # subclasses too (LangGraph's SimpleUser)
        name = _KNOWN_FORWARDERS.get((base.__module__, base.__qualname__))
        if name is not None:
            break
    else:
        return _MISSING
    try:
        namespace = object.__getattribute__(proxy, "__dict__")
    except Exception:
        return _MISSING
    target = namespace.get(name, _MISSING) if isinstance(namespace, dict) else _MISSING
    return _MISSING if target is None else target


# wrapt proxies of wrapt proxies are followed this many deep at most (fail closed beyond).
_MAX_C_HOPS = 16


def _c_wrapped(proxy: object) -> object:
    """What a proxy coded in C keeps (wrapt's ``ObjectProxy``: its ``__wrapped__`` is a
    C-coded member, read without running any Python code), or ``_MISSING``."""
    for base in _CLASS_MRO(type(proxy)):
        member = _CLASS_DICT(base).get("__wrapped__")
        if member is not None:
            if type(member) is not GetSetDescriptorType:
                return _MISSING
            try:
                return member.__get__(proxy)
            except Exception:
                return _MISSING
    return _MISSING


def _c_forward(proxy: object, failed_on: object, key: str) -> bool:
    """Whether proxies coded in C pass a lookup from ``proxy`` on to ``failed_on`` and
    none of them declares ``key``: wrapt ``ObjectProxy`` layers (at most
    :data:`_MAX_C_HOPS`), the last of them possibly a ``weakref.proxy`` of ``failed_on``.
    A layer that cannot be followed (any other kind, a ``weakref.proxy`` of a wrapt
    proxy) is a read that failed."""
    proxies = weakref.getweakrefs(failed_on)
    at = proxy
    for _ in range(_MAX_C_HOPS):
        if _declares(at, key):
            return False
        if any(ref is at for ref in proxies):
            return True
        at = _c_wrapped(at)
        if at is failed_on:
            return True
        if at is _MISSING:
            return False
    return False


def _absent(user: object, key: str, error: AttributeError, through_any_proxy: bool) -> bool:
    """Whether ``error``, raised reading ``user``'s ``key``, says only "no such attribute".

    The rule (Python 3.10+ sets an AttributeError's ``name`` and ``obj``):

    1. it is a plain ``AttributeError`` about ``key`` itself: ``error.name == key``
       and its text is the interpreter's (``... has no attribute 'key'``) or the
       bare name (``raise AttributeError(name)``), not "claims not fetched";
    2. the lookup is followed from ``user`` to the object it failed on
       (``error.obj``), and no object on the way declares ``key`` (a property, a
       slot never set: ``inspect.getattr_static``). Each step is one of:

       - a known proxy's hook (LangGraph's ``ProxyUser``, Django's
         ``SimpleLazyObject``: :data:`_KNOWN_FORWARDERS`) passing the lookup
         to the object it keeps;
       - proxies coded in C passing it on (wrapt's ``ObjectProxy``, layers of
         them, the innermost possibly a ``weakref.proxy``: :func:`_c_forward`);
       - last, any class's own ``__getattr__`` (or ``__getattribute__``)
         answering "no such attribute" about itself (LangGraph's ``DotDict``),
         or the interpreter finding nothing on the object reached.

    Anything else is a read that failed (fail closed): a frame that is no lookup
    hook (a property, a descriptor, a helper), a hook of an unknown class that
    passes the lookup elsewhere (where to cannot be checked: a C-coded property
    on the way would leave no frame), or a failure on another object.

    ``through_any_proxy`` (``is_authenticated`` only, whose absence means
    "authenticated", never someone else's rights): rule 1 and lookup hooks only.
    """
    if type(error) is not AttributeError or error.name != key:
        return False
    text = str(error)
    if text != key and not text.endswith(f"has no attribute {key!r}"):
        return False
    if through_any_proxy:
        frames = error.__traceback__
        while frames is not None and (frames := frames.tb_next) is not None:
            if _hook_owner(frames.tb_frame) is _NOT_A_HOOK:
                return False
        return not _declares(user, key)
    at: object = user  # the object the lookup has reached
    answered = False  # an unknown class's hook ran: it must have answered for itself
    frames = error.__traceback__  # starts at the reading frame (auth_attribute)
    while frames is not None and (frames := frames.tb_next) is not None:
        owner = _hook_owner(frames.tb_frame)
        if owner is _NOT_A_HOOK or answered:
            return False  # a property, a descriptor, a helper, or a hook passing it on
        if owner is not at:
            if not _c_forward(at, owner, key):
                return False
            at = owner
        if _declares(at, key):
            return False
        target = _forwarded_to(at)
        if target is not _MISSING:
            at = target
        elif _answers_for_itself(at, frames.tb_frame):
            answered = True
        else:
            return False  # a hook of the app's own: it may have hidden a failed read
    failed_on = error.obj
    if failed_on is None:
        return False
    if failed_on is not at:
        if answered or not _c_forward(at, failed_on, key):
            return False
        at = failed_on
    return not _declares(at, key)


def auth_attribute(user: Any, key: str, *, through_any_proxy: bool = False) -> Any:
    """``user``'s ``key`` (attribute, or key of a Mapping), or None when absent.

    ``through_any_proxy``: an AttributeError through any class's lookup hooks may be
    an absence (see :func:`_absent`); for ``is_authenticated`` only.

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
            absent = not isinstance(user, Mapping) and _absent(user, key, error, through_any_proxy)
        except Exception:  # looking through the user ran its code, and that failed
            absent = False
        if not absent:
            raise unreadable(key) from None
        return None
    except NotImplementedError as error:
        if key in _STARLETTE_PROPERTIES and _raised_by_starlette(error, key):
            return None
        raise unreadable(key) from None
    except Exception:  # a lazy lookup that failed, a proxy raising KeyError...
        raise unreadable(key) from None


def says_authenticated(user: Any) -> bool | None:
    """``user.is_authenticated`` as a bool, None when absent (:func:`auth_attribute`'s rule).

    Raises:
        InvalidNameError: reading it (or its truth value) raises: fail closed.
    """
    value = auth_attribute(user, "is_authenticated", through_any_proxy=True)
    try:
        return None if value is None else bool(value)
    except Exception:  # a flag whose truth value raises
        raise unreadable("is_authenticated") from None
