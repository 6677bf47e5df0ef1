"""Native (Python) VM modules and the suspension token they may return.

A native module exports Python callables to VM code (``hal`` is one; user
modules for custom calls are others).  A function that has to wait returns
``Suspend`` instead of blocking, so the invocation can be parked as a
coroutine and resumed later, possibly by another thread.
"""
from __future__ import annotations


#: "module.function" names some NativeModule class declares plain: a fused
#: plan assumes them plain, and binding checks that the targets really are.
PLAIN_IMPORTS: set = set()


class NativeModule:
    """Base class for modules written in Python.

    Subclasses set ``name`` and implement ``functions()``; each fn is called as
    ``fn(state, *args)`` with variadic runs passed as lists, and returns None,
    one value, or a tuple of values (one per result of its signature).
    """

    name: str = ""
    #: Functions whose result is always plain: exactly the one ref of their
    #: signature (or None without results), never a Suspend or a tuple.  A
    #: fused function calls them without checking what came back (the check
    #: was a third of the generated text of a function with many arguments).
    plain: frozenset = frozenset()

    def __init_subclass__(cls, **kw):
        super().__init_subclass__(**kw)
        if cls.plain and cls.name:
            PLAIN_IMPORTS.update(f"{cls.name}.{f}" for f in cls.plain)

    def functions(self) -> dict:
        """``{export name: (signature, fn)}``."""
        raise NotImplementedError

    def create_state(self, context) -> object:
        """Per-context state passed as the first argument of every fn."""
        return None

    def __repr__(self):
        return f"<{type(self).__name__} '{self.name}'>"


class Suspend:
    """Returned by a native fn to make its invocation wait.

    ``waitable`` has ``wait(timeout_s)`` (raising on failure or timeout) and
    ``is_signaled`` (and ``on_ready(fn)`` for schedulers); None means "just
    yield" (resume at once).  ``timeout_ms`` < 0 or None means the context's
    default timeout (never infinite).  On resume the call's results are ``then()`` if
    given (called after a successful wait), else zero / null for each result.
    """

    __slots__ = ("waitable", "timeout_ms", "then")

    def __init__(self, waitable=None, timeout_ms: int | None = -1, then=None):
        self.waitable = waitable
        self.timeout_ms = timeout_ms
        self.then = then

    @property
    def is_ready(self) -> bool:
        """True when resuming will not block."""
        return self.waitable is None or bool(self.waitable.is_signaled)

    def __repr__(self):
        return f"Suspend({self.waitable!r}, timeout_ms={self.timeout_ms})"


class NativeTarget:
    """A native module function bound to its per-context state."""
    __slots__ = ("name", "fn", "state", "sig", "plain")

    def __init__(self, name, fn, state, sig, plain=False):
        self.name, self.fn, self.state, self.sig = name, fn, state, sig
        self.plain = plain           # its module declares it plain (NativeModule.plain)
