"""Contexts: modules linked together, with per-context globals and state.

A ``Context`` registers modules in order; each bytecode module's imports are
resolved against the exports of modules registered before it, by name and
signature.  Invocations never share frames or registers, and globals are
only replaced as whole values, so many threads may ``invoke`` one context at
once.  A module's ref-global initializers (vmfb 1.3) and then its ``__init``
run once per context, under the context's lock, when it is registered.
"""
from __future__ import annotations

import threading

from ..errors import InvalidArgumentError, LinkError
from tensorvm.vmfb.model import parse_signature
from .interpreter import (DEFAULT_MAX_DEPTH, DEFAULT_TIMEOUT_S, BytecodeTarget, Invocation,
                          add_note, bounds_error, coerce)
from .module import BytecodeModule
from .native import NativeModule, NativeTarget
from .numeric import f32, wrap32, wrap64

_INITIAL = {"i32": lambda v: wrap32(int(v or 0)), "i64": lambda v: wrap64(int(v or 0)),
            "f32": lambda v: f32(float(v or 0.0)), "f64": lambda v: float(v or 0.0),
            "ref": lambda v: None}


class ModuleInstance:
    """A bytecode module's state in one context: globals and resolved imports."""
    __slots__ = ("module", "context", "globals", "imports")

    def __init__(self, module, context):
        self.module, self.context = module, context
        self.globals = [_INITIAL[g.bank](g.initial) for g in module.globals]
        self.imports = []


class FunctionHandle:
    """A function found by ``Context.lookup``: name, signature, reflection."""
    __slots__ = ("module_name", "name", "signature", "reflection", "target", "sig", "all_refs")

    def __init__(self, module_name, name, signature, reflection, target):
        self.module_name, self.name, self.signature = module_name, name, signature
        self.reflection, self.target = reflection, target
        self.sig = parse_signature(signature)
        self.all_refs = all(p.bank == "ref" and not p.variadic for p in self.sig.args)

    def __repr__(self):
        return f"<FunctionHandle {self.module_name}.{self.name} {self.signature}>"


class _NativeExports:
    """A native module's exports, each bound to this context's state when it
    is first linked or looked up: a load binds the few dozen HAL functions
    its module imports, not all of them."""
    __slots__ = ("_name", "_functions", "_state", "_plain", "_bound")

    def __init__(self, module, state):
        self._name, self._state, self._plain = module.name, state, type(module).plain
        self._functions = module.functions()      # {name: (signature, fn)}
        self._bound = {}

    def get(self, name, default=None):
        """``(signature, NativeTarget)`` of export ``name`` (``default`` if none)."""
        hit = self._bound.get(name)
        if hit is None:
            entry = self._functions.get(name)
            if entry is None:
                return default
            sig, fn = entry
            hit = (sig, NativeTarget(f"{self._name}.{name}", fn, self._state,
                                     parse_signature(sig), name in self._plain))
            self._bound[name] = hit        # (a racing lookup binds an equal target)
        return hit


class Context:
    """Linked modules plus their per-context state (see module docstring)."""

    def __init__(self, modules=(), *, device=None, max_depth: int = DEFAULT_MAX_DEPTH,
                 default_timeout_s: float | None = DEFAULT_TIMEOUT_S, channel=None,
                 host_queues=None):
        self.device = device
        self.channel = channel             # the hal module's collective channel (or None)
        self.host_queues = host_queues     # the hal module's HostQueues (or None: its own)
        self.max_depth = max_depth
        self.default_timeout_s = default_timeout_s   # for waits with timeout -1
        self._lock = threading.RLock()
        self._modules = []                 # (module, instance or native state)
        self._exports = {}                 # module name -> {export: (signature, target)}
        for m in modules:
            self.register(m)

    @property
    def modules(self) -> list:
        return [m for m, _ in self._modules]

    def register(self, module) -> None:
        """Add a module, link its imports, run its global initializers and its
        ``__init`` if it exports one."""
        with self._lock:
            if module.name in self._exports:
                raise LinkError(f"a module named '{module.name}' is already in this context")
            if isinstance(module, NativeModule):
                state = module.create_state(self)
                self._modules.append((module, state))
                self._exports[module.name] = _NativeExports(module, state)
                return
            if not isinstance(module, BytecodeModule):
                raise TypeError(f"cannot register {type(module).__name__}: expected a "
                                f"BytecodeModule or NativeModule")
            inst = ModuleInstance(module, self)
            inst.imports = [self._resolve(module, m, n, sig) for m, n, sig, _ in module.imports]
            self._exports[module.name] = {
                name: (f.signature, BytecodeTarget(f, inst)) for name, f in module.exports.items()}
            self._modules.append((module, inst))
            if module.initializers:
                self._initialize(module, inst)
            init = module.exports.get("__init")
            if init is not None:
                Invocation(BytecodeTarget(init, inst), [], self.max_depth,
                           self.default_timeout_s).run()

    def _initialize(self, module, inst) -> None:
        """Set each initialized ref global to its import call's result, in
        global order (verified: operands in range, earlier globals only).  A
        native function marked ``lazy_rodata`` (``hal.allocator.import``)
        gets its constants as LazyRodata, checked as they are used (rodata.py)."""
        consts, values = module.consts, inst.globals
        operands = {"global": values, "rodata": consts.rodata, "executable": consts.executables}
        for gi, call, args in module.initializers:
            target = inst.imports[call]
            try:
                if target.__class__ is NativeTarget and target.plain \
                        and getattr(target.fn, "lazy_rodata", False):
                    a = [consts.rodata.lazy(i) if k == "rodata" else operands[k][i]
                         for k, i in args]
                else:
                    a = [operands[k][i] for k, i in args]
                if target.__class__ is NativeTarget and target.plain:   # one ref, always
                    values[gi] = target.fn(target.state, *a)
                else:
                    values[gi] = Invocation(target, a, self.max_depth,
                                            self.default_timeout_s).run()[0]
            except Exception as e:
                m, n, _, _ = module.imports[call]
                add_note(e, f"while initializing global '{module.globals[gi].name}' of module "
                            f"'{module.name}' with {m}.{n}")
                raise

    def _resolve(self, module, imp_module, imp_name, imp_sig):
        exports = self._exports.get(imp_module)
        if exports is not None:
            found = exports.get(imp_name)
            if found is not None and found[0] == imp_sig:
                return found[1]               # (the common case: no message built)
        full = f"{imp_module}.{imp_name}"
        if exports is None:
            raise LinkError(f"module '{module.name}' imports {full} ({imp_sig}) but no module "
                            f"'{imp_module}' is registered before it (have: "
                            f"{', '.join(self._exports) or 'none'})")
        found = exports.get(imp_name)
        if found is None:
            raise LinkError(f"module '{module.name}' imports {full} ({imp_sig}) but module "
                            f"'{imp_module}' has no export '{imp_name}'")
        sig, target = found
        if sig != imp_sig:
            raise LinkError(f"module '{module.name}' imports {full} with signature '{imp_sig}' "
                            f"but module '{imp_module}' exports it with signature '{sig}'")
        return target

    def lookup(self, name: str) -> FunctionHandle:
        """``"module.fn"`` or a bare export name (latest registered module first)."""
        candidates = []
        if "." in name:
            mod, _, fn = name.partition(".")
            if mod in self._exports:
                candidates.append((mod, fn))
        candidates += [(m.name, name) for m, _ in reversed(self._modules)]
        for mod, fn in candidates:
            found = self._exports.get(mod, {}).get(fn)
            if found is not None:
                sig, target = found
                refl = target.function.reflection if isinstance(target, BytecodeTarget) else None
                return FunctionHandle(mod, fn, sig, refl, target)
        raise KeyError(f"no function '{name}' in this context")

    def begin_invoke(self, fn, args=()) -> Invocation:
        """An ``Invocation`` ready to ``step()`` (for schedulers); args are checked."""
        handle = fn if fn.__class__ is FunctionHandle else self.lookup(fn)
        return Invocation(handle.target, self._checked(handle, args), self.max_depth,
                          self.default_timeout_s)

    def _checked(self, handle, args) -> list:
        """``args`` coerced to the signature's banks (InvalidArgumentError if not)."""
        sig = handle.sig
        if handle.all_refs and len(args) == len(sig.args):
            return args
        args = list(args)
        if len(args) != len(sig.args):
            raise InvalidArgumentError(f"{handle.name} takes {len(sig.args)} arguments "
                                       f"({handle.signature}), got {len(args)}")
        values = []
        for i, (p, v) in enumerate(zip(sig.args, args)):
            try:
                if p.variadic:
                    if not isinstance(v, (list, tuple)):
                        raise TypeError(f"a variadic run must be a list, got {type(v).__name__}")
                    values.append([coerce(p.bank, x) for x in v])
                else:
                    values.append(coerce(p.bank, v))
            except (TypeError, ValueError) as e:
                raise InvalidArgumentError(f"{handle.name} argument {i}: expected {p}, "
                                           f"got {v!r} ({e})") from None
        return values

    def invoke(self, fn, args=()) -> list:
        """Call ``fn`` (name or handle) synchronously; returns the list of results.

        A straight-line bytecode function runs as its fused form (no
        Invocation, no lock: nothing is shared between calls); anything else,
        and a fused call that must suspend, runs on an ``Invocation``."""
        handle = fn if fn.__class__ is FunctionHandle else self.lookup(fn)
        target = handle.target
        fused = target.fused if target.__class__ is BytecodeTarget else None
        if fused is not None:
            try:
                return fused(*self._checked(handle, args))
            except Exception as e:            # a native loop stopped on its deadline?
                err = bounds_error(e, target.function.name, None, self.default_timeout_s)
                if err is e:
                    raise
                raise err from e
        return Invocation(target, self._checked(handle, args), self.max_depth,
                          self.default_timeout_s).run()
