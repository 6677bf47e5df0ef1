"""The interpreter: invocations as resumable coroutines over a frame stack.

An ``Invocation`` holds everything one call needs (frame stack, current
function, registers, pc), so it can stop at any ``Suspend`` and be resumed
later from any thread.  VM calls push frames on a list (no Python recursion),
so deep VM recursion traps with "stack overflow" at ``max_depth`` frames.
The hot loop is ``while pc >= 0: pc = ops[pc](r)``; control ops return the
complement of their index (or raise ``Control``) and are handled here from
the op's site.  Python exceptions raised by an op (which a
verified module can only cause through a bug) become ``VmTrap``.

Bounds: a call's deadline (``default_timeout_s`` after its first step) and
``cancel()`` are checked every ``BACKEDGE_BUDGET`` backward branches (a
counter in the branch op) and every ``_CALL_CHECK`` VM calls (cancellation
also at each resume), so neither a loop nor recursion runs past them.
"""
from __future__ import annotations

import operator
import threading
import time

import numpy as np

from tensorvm.vmfb.cpu_abi import BOUNDS_DEADLINE, BOUNDS_STOP, BOUNDS_WORDS

from ..errors import CallCancelledError, CallTimeoutError, VmTrap
from .lowering import (GLOBALS_SLOT, INSTANCE_SLOT, BadResults, Control, NativeRaised,
                       Suspended)
from .native import Suspend
from .numeric import f32, wrap32, wrap64

DEFAULT_MAX_DEPTH = 1000
DEFAULT_TIMEOUT_S = 60.0        # what a Suspend with timeout -1 ("the default") waits
_ZERO = {"i32": 0, "i64": 0, "f32": 0.0, "f64": 0.0, "ref": None}
_CALL_CHECK = 1023              # VM calls between two bounds checks, minus one (a mask)
_INT_LIMIT = {"i32": (1 << 31, 1 << 32, wrap32), "i64": (1 << 63, 1 << 64, wrap64)}


def coerce(bank: str, v):
    """``v`` as a value of ``bank`` (TypeError/ValueError when it cannot be)."""
    if bank == "ref":
        return v
    if bank in _INT_LIMIT:
        lo, hi, wrap = _INT_LIMIT[bank]
        i = operator.index(v)
        if not -lo <= i < hi:
            raise ValueError(f"{i} does not fit in {bank}")
        return wrap(i)
    if isinstance(v, (str, bytes, bytearray)) or v is None:
        raise TypeError(f"expected a number, got {type(v).__name__}")
    x = float(v)
    return f32(x) if bank == "f32" else x


class BytecodeTarget:
    """A bytecode function bound to its module's instance in one context;
    ``fused``: its fused form there (runtime/vm/fused.py), or None, bound on
    first access (a racing thread may bind its own copy: both are equal)."""
    __slots__ = ("function", "instance", "fused")

    def __init__(self, function, instance):
        self.function, self.instance = function, instance

    def __getattr__(self, name):
        if name != "fused":
            raise AttributeError(name)
        from .fused import bind
        self.fused = fused = bind(self)
        return fused


def _is_timeout(e) -> bool:
    if isinstance(e, TimeoutError):
        return True
    try:
        from tensorvm.hal.errors import HalTimeoutError
    except ImportError:
        return False
    return isinstance(e, HalTimeoutError)


def add_note(e: BaseException, text: str) -> None:
    if hasattr(e, "add_note"):
        e.add_note(text)


_running = threading.local()     # .inv: the Invocation stepping on this thread


def current_invocation():
    """The invocation whose step is running on this thread (None outside one):
    native functions that need their caller's bounds ask for it."""
    return getattr(_running, "inv", None)


def bounds_error(e: BaseException, function, pc, timeout_s) -> BaseException:
    """``e``, or the CallCancelledError / CallTimeoutError it stands for when
    native code stopped on its call's bounds (a HAL error with ``stopped``
    set, possibly re-raised by fence waiters: the chain is searched)."""
    if isinstance(e, (CallCancelledError, CallTimeoutError)):
        return e                        # mapped already (by a nested frame or import)
    cause, seen = e, 0
    while cause is not None and seen < 8:
        reason = getattr(cause, "stopped", None)
        if reason is not None:
            if reason == "cancelled":
                err = CallCancelledError("call cancelled", function, pc)
            else:
                err = CallTimeoutError(f"call timed out: still running after its timeout_s of "
                                       f"{timeout_s} s", function, pc)
            err.__cause__ = e
            return err
        cause, seen = cause.__cause__ or cause.__context__, seen + 1
    return e


class Invocation:
    """One call of a function; ``step()`` runs it until it suspends or ends.

    States: "ready", "suspended" (``suspend`` holds what it waits for),
    "done" (``results``), "failed" (``error``).  ``step`` is serialised by a
    lock, so a scheduler may resume an invocation from any thread; while
    suspended, ``suspend.is_ready`` says whether ``step`` would block.
    """

    def __init__(self, target, args: list, max_depth: int = DEFAULT_MAX_DEPTH,
                 default_timeout_s: float | None = DEFAULT_TIMEOUT_S):
        self._lock = threading.Lock()
        self.target, self.max_depth = target, max_depth
        self.default_timeout_s = default_timeout_s
        self.state, self.suspend, self.results, self.error = "ready", None, None, None
        self._stack, self._pending, self._deadline = [], None, None
        self._pc_of_call = 0
        self._run_deadline, self._calls, self.cancelled = None, 0, False
        self._bounds = None                 # see bounds()
        if isinstance(target, BytecodeTarget):
            fn, inst = target.function, target.instance
            r = fn.template[:]
            r[GLOBALS_SLOT], r[INSTANCE_SLOT] = inst.globals, inst
            for s, v in zip(fn.arg_slots, args):
                r[s] = v
            self._fn, self._r, self._pc = fn, r, 0
        else:
            self._args = list(args)

    @classmethod
    def resume_after_import(cls, target, r, index, res, max_depth, default_timeout_s):
        """The invocation of a fused function that left at the import at op
        ``index`` with result ``res`` (frame ``r``): it continues as the
        interpreter would have after that native call returned ``res``."""
        self = cls(target, (), max_depth, default_timeout_s)
        fn = target.function
        site = fn.sites[index]
        name = target.instance.imports[site.index].name
        self._r, self._pc_of_call = r, index
        if res.__class__ is Suspend:
            self._pending = (site.results, site.result_banks, name, r)
            self._pc = index + 1
            self.state, self.suspend = "suspended", res
            self._deadline = time.monotonic() + self.timeout_s(res)
            return self
        self._store(res, site.results, site.result_banks, name, r)
        self._pc = index + 1
        return self

    @classmethod
    def resume_at(cls, target, r, index, max_depth, default_timeout_s):
        """The invocation of a fused function that left at op ``index`` (a
        guard) with frame ``r``: it runs that op and on, as the interpreter."""
        self = cls(target, (), max_depth, default_timeout_s)
        self._r, self._pc = r, index
        return self

    # -- driving ---------------------------------------------------------------
    def run(self) -> list:
        """Run to completion on this thread, blocking on every suspension."""
        while self.step() is not None:
            pass
        return self.results

    def step(self):
        """Advance; returns the ``Suspend`` it stopped at, or None when done."""
        with self._lock:
            if self.state in ("done", "failed"):
                if self.error is not None:
                    raise self.error
                return None
            outer, _running.inv = getattr(_running, "inv", None), self
            try:
                if self._run_deadline is None:
                    d = self.default_timeout_s
                    self._run_deadline = float("inf") if d is None else time.monotonic() + d
                elif self.cancelled:          # (waits keep their own timeouts)
                    self._check_bounds(*self._where())
                if self.state == "suspended":
                    self._finish_wait()
                sus = self._run() if isinstance(self.target, BytecodeTarget) else self._run_native()
            except BaseException as e:
                e = self._stopped(e)
                self.state, self.error, self.suspend = "failed", e, None
                raise e
            finally:
                _running.inv = outer
            if sus is None:
                self.state, self.suspend = "done", None
                return None
            self.state, self.suspend = "suspended", sus
            self._deadline = time.monotonic() + self.timeout_s(sus)
            return sus

    def cancel(self) -> None:
        """Stop this invocation at its next bounds check (any thread may call
        it): it fails with ``CallCancelledError``."""
        self.cancelled = True
        if self._bounds is not None:
            self._bounds[BOUNDS_STOP] = 1   # native loops read it every iteration

    def bounds(self):
        """This call's bounds as native code reads them (vmfb/cpu_abi.py:
        BOUNDS_*): uint64 [stop, deadline, measure, 0]; stop != 0 once
        cancelled; the deadline in CLOCK_MONOTONIC ns, which time.monotonic()
        reads on Linux, 0 = none.  Compiled loops that run outside the
        interpreter (native loops) stop on them."""
        if self._bounds is None:
            d = self._run_deadline
            b = np.zeros(BOUNDS_WORDS, np.uint64)
            b[BOUNDS_STOP] = int(self.cancelled)
            b[BOUNDS_DEADLINE] = 0 if d is None or d == float("inf") else max(1, int(d * 1e9))
            self._bounds = b
        return self._bounds

    def _stopped(self, e: BaseException) -> BaseException:
        return bounds_error(e, *self._where(), self.default_timeout_s)

    def _check_bounds(self, function, pc) -> None:
        """Raise if the call was cancelled or ran past its deadline."""
        if self.cancelled:
            raise CallCancelledError("call cancelled", function, pc)
        if time.monotonic() > self._run_deadline:
            raise CallTimeoutError(f"call timed out: still running after its timeout_s of "
                                   f"{self.default_timeout_s} s", function, pc)

    def timeout_s(self, sus) -> float:
        """Seconds ``sus`` may wait: its own timeout, or the default for < 0."""
        t = sus.timeout_ms
        if t is None or t < 0:
            d = self.default_timeout_s
            return float("inf") if d is None else d
        return t / 1000.0

    def _where(self):
        if isinstance(self.target, BytecodeTarget):
            fn = self._fn
            return fn.name, fn.pcs[self._pc_of_call]
        return self.target.name, None

    def _finish_wait(self):
        sus, (dsts, banks, name, r) = self.suspend, self._pending
        if sus.waitable is not None:
            remaining = max(0.0, self._deadline - time.monotonic())
            try:
                sus.waitable.wait(None if remaining == float("inf") else remaining)
            except Exception as e:
                function, pc = self._where()
                if _is_timeout(e) and getattr(sus.waitable, "failure", None) is None:
                    # this wait ran out (not: the awaited work failed with a timeout)
                    ms = round(self.timeout_s(sus) * 1000)
                    if sus.timeout_ms is None or sus.timeout_ms < 0:   # the call's own bound
                        raise CallTimeoutError(f"{name}: timed out after {ms} ms (the call's "
                                               f"timeout_s)", function, pc) from e
                    raise VmTrap(f"{name}: timed out after {ms} ms", function, pc) from e
                add_note(e, f"while {function} waited in {name}")
                raise
        values = sus.then() if sus.then is not None else tuple(_ZERO[b] for b in banks)
        self._store(values, dsts, banks, name, r)

    def _store(self, res, dsts, banks, name, r):
        """Write a native call's results (None, a value or a tuple) per the signature."""
        n = len(banks)
        if res is None:
            values = ()
        elif type(res) is tuple and (n != 1 or len(res) == 1):
            values = res
        else:
            values = (res,)
        if len(values) != n:
            function, pc = self._where()
            raise VmTrap(f"native function {name} returned {len(values)} values, its "
                         f"signature has {n} results", function, pc)
        out = []
        for i, (b, v) in enumerate(zip(banks, values)):
            try:
                out.append(coerce(b, v))
            except (TypeError, ValueError) as e:
                function, pc = self._where()
                raise VmTrap(f"native function {name} returned {v!r} for {b} result {i}: {e}",
                             function, pc) from None
        if dsts is None:
            self.results = out
        else:
            for d, v in zip(dsts, out):
                r[d] = v

    def _run_native(self):
        t = self.target
        if self._pending is None:
            self._pending = (None, tuple(p.bank for p in t.sig.results), t.name, None)
            res = t.fn(t.state, *self._args)
            if isinstance(res, Suspend):
                return res
            self._store(res, None, self._pending[1], t.name, None)
        return None

    # -- the interpreter loop ------------------------------------------------------
    def _run(self):
        fn, r, pc, stack = self._fn, self._r, self._pc, self._stack
        limit = self.max_depth - 1          # frames below the current one
        while True:
            ops = fn.ops
            raised = None
            try:
                while pc >= 0:
                    pc = ops[pc](r)
                pc = ~pc
            except Control:
                pass
            except Suspended as s:
                self._fn, self._r, self._pc = fn, r, pc + 1
                self._pc_of_call = pc
                self._pending = (s.dsts, s.banks, s.name, r)
                return s.suspend
            except NativeRaised as w:
                raised = w
            except BadResults as b:
                self._fn, self._pc_of_call = fn, pc
                self._store(b.res, b.dsts, b.banks, b.name, r)
                pc += 1
                continue
            except VmTrap as t:
                if t.function is None:
                    t.function, t.pc = fn.name, fn.pcs[pc]
                raise
            except Exception as e:
                raise VmTrap(f"internal error: {type(e).__name__}: {e}",
                             fn.name, fn.pcs[pc]) from e
            if raised is not None:
                e = raised.exc
                if isinstance(e, VmTrap):
                    if e.function is None:
                        e.function, e.pc = fn.name, fn.pcs[pc]
                else:
                    add_note(e, f"raised by native {raised.name} called from VM function "
                             f"'{fn.name}' at pc {fn.pcs[pc]}")
                raise e
            site = fn.sites[pc]
            kind = site.kind
            if kind == "call" or (kind == "import" and
                                  type(r[INSTANCE_SLOT].imports[site.index]) is BytecodeTarget):
                if len(stack) >= limit:
                    raise VmTrap(f"stack overflow: call depth exceeds {self.max_depth} frames",
                                 fn.name, fn.pcs[pc])
                self._calls += 1
                if not self._calls & _CALL_CHECK:
                    self._check_bounds(fn.name, fn.pcs[pc])
                if kind == "call":
                    callee, g, inst = site.callee, r[GLOBALS_SLOT], r[INSTANCE_SLOT]
                else:
                    tgt = r[INSTANCE_SLOT].imports[site.index]
                    callee, inst = tgt.function, tgt.instance
                    g = inst.globals
                nr = callee.template[:]
                nr[GLOBALS_SLOT], nr[INSTANCE_SLOT] = g, inst
                for s, d in zip(site.args, callee.arg_slots):
                    nr[d] = r[s]
                stack.append((fn, r, pc + 1, site.results))
                fn, r, pc = callee, nr, 0
            elif kind == "ret":
                values = [r[s] for s in site.values]
                if not stack:
                    self.results = values
                    self._fn, self._r, self._pc = fn, None, pc
                    return None
                fn, r, pc, dsts = stack.pop()
                for d, v in zip(dsts, values):
                    r[d] = v
            elif kind == "import":
                sus = self._call_native(fn, r, pc, site)
                if sus is not None:
                    self._fn, self._r, self._pc = fn, r, pc + 1
                    self._pc_of_call = pc
                    return sus
                pc += 1
            elif kind == "backedge":                # the branch's budget ran out
                self._check_bounds(fn.name, fn.pcs[pc])
                pc = site.if_true if site.cond is None or r[site.cond] else site.if_false
            else:                                   # yield
                self._fn, self._r, self._pc = fn, r, site.target
                self._pc_of_call = pc
                self._pending = ((), (), "yield", r)
                return Suspend(None, -1)

    def _call_native(self, fn, r, pc, site):
        tgt = r[INSTANCE_SLOT].imports[site.index]
        args = [r[s] for s in site.args]
        if site.segments:                           # regroup variadic runs into lists
            grouped, pos, seg = [], 0, iter(site.segments)
            for p in tgt.sig.args:
                if p.variadic:
                    n = next(seg)
                    grouped.append(args[pos:pos + n])
                    pos += n
                else:
                    grouped.append(args[pos])
                    pos += 1
            args = grouped
        try:
            res = tgt.fn(tgt.state, *args)
        except VmTrap as t:
            if t.function is None:
                t.function, t.pc = fn.name, fn.pcs[pc]
            raise
        except Exception as e:
            add_note(e, f"raised by native {tgt.name} called from VM function "
                     f"'{fn.name}' at pc {fn.pcs[pc]}")
            raise
        self._pc_of_call = pc
        if isinstance(res, Suspend):
            self._pending = (site.results, site.result_banks, tgt.name, r)
            return res
        self._fn = fn
        self._store(res, site.results, site.result_banks, tgt.name, r)
        return None
