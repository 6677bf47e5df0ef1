"""Bytecode modules: a verified ModuleDef whose functions are lowered on first use.

``from_def`` verifies the module's tables (signatures, globals, registers,
exports) at once, and every function body and export reflection either at
once (``lazy=False``) or the first time something asks for its closures
(``ops``/``sites``/``pcs``), fused plan or ``reflection``, before they are
used: nothing unverified ever runs, a load pays for the tables only, and a
function that is never called (``main$async`` in a synchronous program) is
never decoded.  A ``BytecodeModule`` is immutable after
``from_def`` (lazy preparation happens once, under the module's lock) and
may be shared by any number of contexts (and threads); per-context state
(globals, resolved imports) lives in the context's ``ModuleInstance``.
"""
from __future__ import annotations

import re
import threading

from tensorvm.vmfb.isa import BANKS, CHAR_BANK

from .fused import plan as fused_plan
from .lowering import Layout, lower_function
from .rodata import RodataViews
from .verifier import ModuleTables


_LAZY = frozenset(("ops", "sites", "pcs", "fused", "reflection"))


class VmFunction:
    """One verified function: frame template and argument slots at once;
    closures, control sites, byte pcs and fused plan on first access."""

    __slots__ = ("module", "index", "name", "signature", "sig", "exported", "reflection",
                 "ops", "sites", "pcs", "template", "arg_slots", "result_banks", "fused",
                 "_instrs", "_layout", "_consts")

    def __init__(self, module, index, fdef, sig, instrs, consts):
        """``instrs``: the verified instructions, or None to verify on first use."""
        self.module, self.index, self.name = module, index, fdef.name
        self.signature, self.sig = fdef.signature, sig
        self.exported = fdef.exported
        layout, self.arg_slots, self.result_banks = _frame_shape(fdef.registers, fdef.signature,
                                                                 sig)
        self.template = layout.template
        self._instrs, self._layout, self._consts = instrs, layout, consts

    def __getattr__(self, name):
        """Called only for a lazy slot not yet filled: prepare it, once."""
        if name not in _LAZY:
            raise AttributeError(name)
        with self.module._prepare_lock:
            try:                             # another thread may have won the race
                return object.__getattribute__(self, name)
            except AttributeError:
                pass
            if name == "reflection":         # decoded and checked on first use
                self.reflection = self.module._tables.reflection(self.index)
                return self.reflection
            if self._instrs is None:         # VerificationError leaves it unprepared
                self._instrs = self.module._tables.body(self.index)
            if name == "fused":
                self.fused = fused_plan(self, self._instrs, self._layout, self._consts)
            else:
                try:           # fused: the interpreter runs only its rare branches
                    lazy = object.__getattribute__(self, "fused") is not None
                except AttributeError:
                    lazy = False
                ops, sites, pcs = lower_function(self._instrs, self._layout, self._consts,
                                                 lazy=lazy)
                functions = self.module.functions    # internal call targets
                self.sites = [s._replace(callee=functions[s.callee]) if s is not None
                              and s.kind == "call" else s for s in sites]
                self.pcs = pcs
                self.ops = ops                       # last: readers test ops first
        return object.__getattribute__(self, name)

    def __repr__(self):
        return f"<VmFunction {self.module.name}.{self.name} {self.signature}>"


_SHAPES: dict = {}     # (register counts, signature) -> (Layout, arg slots, result banks)


def _frame_shape(registers: dict, signature: str, sig) -> tuple:
    """``(Layout, arg_slots, result_banks)`` of a function with these
    (verified) register counts and signature: immutable, and shared by every
    function of every module with the same frame (most modules repeat a few
    frame shapes), so a load builds each shape once per process."""
    key = (tuple(registers.get(b, 0) for b in BANKS), signature)
    shape = _SHAPES.get(key)
    if shape is None:
        layout = Layout(registers)
        shape = (layout, _arg_slots(signature, layout.base),
                 tuple(p.bank for p in sig.results))
        if len(_SHAPES) < 4096:           # (bounded: a hostile stream of shapes)
            _SHAPES[key] = shape
    return shape


def _arg_slots(signature: str, base: dict) -> tuple:
    """The register of each argument: arguments take the first registers of
    each bank, in order.  Built run by run of one bank (an export taking
    hundreds of weights is one run, one ``range``), not per argument."""
    slots, used = [], {}
    for run in _RUNS.finditer(signature, 0, signature.index("->")):
        bank = CHAR_BANK[run.group(1)]
        k = used.get(bank, 0)
        n = run.end() - run.start()
        slots.extend(range(base[bank] + k, base[bank] + k + n))
        used[bank] = k + n
    return tuple(slots)


_RUNS = re.compile(r"(.)\1*")     # a run of one character


class _Consts:
    """Module-wide immutable operands: rodata views, strings, executables."""

    def __init__(self, mdef, import_sigs):
        """``import_sigs``: the imports' parsed signatures (ModuleTables has them)."""
        self.rodata = RodataViews(mdef.rodata)
        self.strings = list(mdef.strings)
        self.executables = list(mdef.executables)
        self.import_sigs = import_sigs
        self.import_names = [f"{i.module}.{i.name}" for i in mdef.imports]


class BytecodeModule:
    """A verified, lowered bytecode module (build with ``from_def``)."""

    def __init__(self, mdef, functions, consts):
        self.definition = mdef
        self.name = mdef.name
        self.functions = functions
        self.consts = consts
        self.exports = {f.name: f for f in functions if f.exported}
        self.imports = [(i.module, i.name, i.signature, sig)
                        for i, sig in zip(mdef.imports, consts.import_sigs)]
        self.globals = list(mdef.globals)
        self.initializers = []     # verified (global, import, args): ModuleTables
        self._prepare_lock = threading.RLock()
        self.source = None            # the immutable bytes it was read from (cache.py)

    @classmethod
    def from_def(cls, mdef, *, lazy: bool = False) -> "BytecodeModule":
        """Verify ``mdef`` (VerificationError on any defect); ``lazy``: verify
        each function body just before its first use, and each constant's
        checksums as its bytes are used, instead of now."""
        tables = ModuleTables(mdef, check_reflection=not lazy)
        consts = _Consts(mdef, tables.import_sigs)
        self = cls.__new__(cls)
        functions = [VmFunction(self, i, fdef, sig, None if lazy else tables.body(i), consts)
                     for i, (fdef, sig) in enumerate(zip(mdef.functions, tables.fn_sigs))]
        cls.__init__(self, mdef, functions, consts)
        self.initializers = tables.initializers
        self._tables = tables
        if not lazy:
            consts.rodata.check_all()
        return self

    def verify_bodies(self) -> None:
        """Verify every function body not verified yet, and check every
        constant's bytes (``verify="eager"``)."""
        self.consts.rodata.check_all()
        with self._prepare_lock:
            for f in self.functions:
                if f._instrs is None:
                    f._instrs = self._tables.body(f.index)
                if f.exported:
                    f.reflection                     # noqa: B018  (decode and check it now)

    def __repr__(self):
        return f"<BytecodeModule '{self.name}' exports={sorted(self.exports)}>"
