"""Bytecode verification: tables at load, each function body before its first use.

After ``verify_module`` accepts a ModuleDef, the interpreter can rely on:
every register operand in range and of its field's bank, branch targets at
instruction starts, no falling off the end of a function, call arity and
banks matching the callee (imports: variadic segment counts too), table
indices in range, global banks matching the op.  Each failure raises
``VerificationError(message, function, pc)``.
"""
from __future__ import annotations

from functools import lru_cache

from tensorvm.vmfb.bytecode import decode_function
from tensorvm.vmfb.element_types import BY_NAME as _ELEMENT_TYPES
from tensorvm.vmfb.errors import VerificationError, VmfbError
from tensorvm.vmfb.isa import BANK_CHAR, BANKS, MAX_REGISTERS, OPS as _ISA_OPS
from tensorvm.vmfb.model import Initializer, parse_signature

_INT_RANGE = {"i32": (-(1 << 31), (1 << 32) - 1), "i64": (-(1 << 63), (1 << 64) - 1)}


def _signature(text, what, allow_variadic, function=None):
    try:
        return parse_signature(text, allow_variadic=allow_variadic)
    except VmfbError as e:
        raise VerificationError(f"{what}: {e}", function) from None


def _check_registers(fn, sig):
    regs = fn.registers
    if not isinstance(regs, dict) or set(regs) - set(BANKS):
        raise VerificationError(f"register counts {regs!r} must be a dict over {BANKS}", fn.name)
    for bank in BANKS:
        n = regs.get(bank, 0)
        if not isinstance(n, int) or isinstance(n, bool) or not 0 <= n <= MAX_REGISTERS:
            raise VerificationError(f"{bank} register count {n!r} not in [0, {MAX_REGISTERS}]",
                                    fn.name)
    args = fn.signature[:fn.signature.index("->")]   # (exports take 100s of weights:
    for bank in BANKS:                                  # count in C, not per argument)
        n = args.count(BANK_CHAR[bank])
        if n > regs.get(bank, 0):
            raise VerificationError(f"{n} {bank} arguments but only {regs.get(bank, 0)} "
                                    f"{bank} registers", fn.name)


_NO_SHAPE = []


def _plain_reflection(e, bank) -> bool:
    """``e`` is a well-formed reflection entry for a ``bank`` value (the fast
    check; False sends it through the one that names the defect)."""
    if e.__class__ is not dict:
        return False
    dtype, shape = e.get("dtype"), e.get("shape", _NO_SHAPE)
    if dtype is not None and (dtype.__class__ is not str or dtype not in _ELEMENT_TYPES):
        return False
    if shape is _NO_SHAPE:
        return True
    if shape.__class__ is not list or (shape and bank != "ref"):
        return False
    for d in shape:
        if d.__class__ is int:
            if d < 0:
                return False
        elif d != "?":
            return False
    return True


def _check_reflection(fn, sig):
    refl = fn.reflection
    if refl is None:
        return
    if not isinstance(refl, dict):
        raise VerificationError("reflection must be a dict", fn.name)
    for key, params in (("args", sig.args), ("results", sig.results)):
        entries = refl.get(key, [])
        if not isinstance(entries, list) or len(entries) != len(params):
            n = len(entries) if isinstance(entries, list) else entries
            raise VerificationError(f"reflection lists {n} {key} but the signature "
                                    f"has {len(params)}", fn.name)
        for i, (e, p) in enumerate(zip(entries, params)):
            if _plain_reflection(e, p.bank):        # most are fine: no messages built
                continue
            if not isinstance(e, dict):
                raise VerificationError(f"reflection {key}[{i}] must be a dict", fn.name)
            dtype, shape = e.get("dtype"), e.get("shape", [])
            if dtype is not None and (not isinstance(dtype, str) or dtype not in _ELEMENT_TYPES):
                raise VerificationError(f"reflection {key}[{i}]: unknown dtype {dtype!r}",
                                        fn.name)
            if not isinstance(shape, list) or not all(
                    d == "?" or (isinstance(d, int) and not isinstance(d, bool) and d >= 0)
                    for d in shape):
                raise VerificationError(f"reflection {key}[{i}]: shape {shape!r} must list "
                                        f"non-negative ints and '?'", fn.name)
            if p.bank != "ref" and shape:
                raise VerificationError(f"reflection {key}[{i}]: a {p.bank} value has no "
                                        f"shape, got {shape!r}", fn.name)
    for key, params in (("pytree_args", sig.args), ("pytree_results", sig.results)):
        if key in refl:                 # a frontend's nesting (runtime/pytree.py)
            from ..pytree import check
            try:
                leaves = check(refl[key], key)
            except ValueError as e:
                raise VerificationError(f"reflection {e}", fn.name) from None
            if leaves != len(params):
                raise VerificationError(f"reflection {key} holds {leaves} leaves but the "
                                        f"signature has {len(params)}", fn.name)


# Index operand kinds -> (what the message calls it, ModuleDef table).
_TABLES = {"func": ("function", "functions"), "import": ("import", "imports"),
           "global": ("global", "globals"), "rodata": ("rodata", "rodata"),
           "str": ("string", "strings"), "exe": ("executable", "executables")}

class _FunctionVerifier:
    """Checks one function's decoded instructions against the module tables."""

    def __init__(self, module, fn, sig, fn_sigs, import_sigs, sizes):
        """``sizes``: {index kind: table length} (``table_sizes``)."""
        self.module, self.fn, self.sig = module, fn, sig
        self.fn_sigs, self.import_sigs = fn_sigs, import_sigs
        self.sizes = sizes
        self.pc = None

    def fail(self, message):
        raise VerificationError(message, self.fn.name, self.pc)

    def reg(self, reg, what):
        bank, index = reg
        n = self.fn.registers.get(bank, 0)
        if index >= n:
            self.fail(f"{what}: {bank} register {index} out of range "
                      f"(function declares {n})")

    def banks(self, regs, params, what):
        if len(regs) != len(params):
            self.fail(f"{what}: {len(regs)} values given, {len(params)} expected")
        for i, (reg, p) in enumerate(zip(regs, params)):
            if reg[0] != p.bank:
                self.fail(f"{what}: value {i} is a {reg[0]} register, {p.bank} expected")

    def index(self, kind, i, table):
        if not 0 <= i < len(table):
            self.fail(f"{kind} index {i} out of range (module has {len(table)})")

    def run(self, instrs):
        if not instrs:
            raise VerificationError("function has no code", self.fn.name)
        starts = None                      # instruction starts: built at the first branch
        m = self.module
        counts = self.fn.registers
        sizes = self.sizes
        for ins in instrs:
            op = ins.op
            for k, f, v in zip(_KINDS[op.code], op.fields, ins.operands):
                # (the checks that pass build no message: most operands are fine)
                if k == "reg":
                    if v[1] >= counts.get(v[0], 0) or (f.bank != "any" and v[0] != f.bank):
                        self._field_error(ins, f, v)
                elif k == "regs":
                    for r in v:
                        if r[1] >= counts.get(r[0], 0):
                            self._field_error(ins, f, r)
                elif k == "block":
                    if starts is None:
                        starts = {ins.pc for ins in instrs}
                    if v not in starts:
                        self.pc = ins.pc
                        self.fail(f"{op.mnemonic}: branch target {v} is not an "
                                  f"instruction start in this function")
                elif k is not None:
                    if not 0 <= v < sizes[k] or (k == "global" and m.globals[v].bank
                                                 != op.mnemonic.rsplit(".", 1)[1]):
                        self._field_error(ins, f, v)
            if op.mnemonic in _CONTROL_CHECKED:
                self.control(ins)
        if not instrs[-1].op.terminator:
            self.pc = instrs[-1].pc
            self.fail(f"{instrs[-1].op.mnemonic} falls off the end of the function "
                      f"(the last instruction must be a terminator)")

    def _field_error(self, ins, f, v):
        """Raise the error of operand ``v`` of field ``f``, which failed a check."""
        self.pc = ins.pc
        op, k = ins.op, f.kind
        what = f"{op.mnemonic} {f.name}"
        if k in ("reg", "regs"):
            if k == "reg" and f.bank != "any" and v[0] != f.bank:
                self.fail(f"{what}: {v[0]} register, {f.bank} expected")
            self.reg(v, what)
        else:
            name, table = _TABLES[k]
            self.index(name, v, getattr(self.module, table))
            g = self.module.globals[v]
            self.fail(f"{op.mnemonic} on global '{g.name}' of bank {g.bank}")

    def control(self, ins):
        mn = ins.op.mnemonic
        if mn == "call":
            callee, args, results = ins.operands
            sig = self.fn_sigs[callee]
            if _banks_of(args) != _banks_of(sig.args) or \
                    _banks_of(results) != _banks_of(sig.results):
                name = self.module.functions[callee].name
                self.banks(args, sig.args, f"call @{name} arguments")
                self.banks(results, sig.results, f"call @{name} results")
        elif mn == "call.import":
            callee, segments, args, results = ins.operands
            sig = self.import_sigs[callee]
            expanded = _expanded_banks(sig, tuple(segments))
            if expanded is None or _banks_of(args) != expanded or \
                    _banks_of(results) != _banks_of(sig.results):
                self.pc = ins.pc
                name = self.module.imports[callee].full_name
                variadic = [p for p in sig.args if p.variadic]
                if len(segments) != len(variadic):
                    self.fail(f"call.import @{name}: {len(segments)} segment counts for "
                              f"{len(variadic)} variadic parameters")
                params, seg = [], iter(segments)
                for p in sig.args:
                    params.extend([p] * next(seg) if p.variadic else [p])
                self.banks(args, params, f"call.import @{name} arguments")
                self.banks(results, sig.results, f"call.import @{name} results")
        elif mn == "ret":
            if _banks_of(ins.operands[0]) != _banks_of(self.sig.results):
                self.pc = ins.pc
                self.banks(ins.operands[0], self.sig.results, "ret")


_CONTROL_CHECKED = frozenset(("call", "call.import", "ret"))
#: Per opcode, per field: what ``run`` checks ("reg", "regs", "block", a
#: table kind of _TABLES, or None for immediates).
_KINDS = [tuple(f.kind if f.kind in ("reg", "regs", "block") or f.kind in _TABLES else None
                for f in op.fields) for op in _ISA_OPS]


def table_sizes(module) -> dict:
    """{index operand kind: length of the table it indexes} of ``module``."""
    return {k: len(getattr(module, table)) for k, (_, table) in _TABLES.items()}


def _banks_of(items) -> tuple:
    """The banks of registers (bank, index) or of Params, as a tuple."""
    return tuple(x[0] if x.__class__ is tuple else x.bank for x in items)


@lru_cache(maxsize=4096)
def _expanded_banks(sig, segments):
    """The banks an import call passes, its variadic runs expanded by
    ``segments`` (None when the counts do not match the variadic runs)."""
    out, seg = [], iter(segments)
    for p in sig.args:
        if p.variadic:
            k = next(seg, None)
            if k is None:
                return None
            out += [p.bank] * k
        else:
            out.append(p.bank)
    if next(seg, None) is not None:
        return None
    return tuple(out)


class ModuleTables:
    """A module whose tables (signatures, globals, registers, exports,
    reflection) are verified; function bodies are verified one by one with
    ``body(i)``, each before it is first lowered or run."""

    def __init__(self, module, check_reflection: bool = True):
        """``check_reflection=False``: each export's reflection is checked by
        ``reflection(i)`` on first use instead (a lazy load decodes none)."""
        self.module = module
        self.sizes = table_sizes(module)
        self.fn_sigs = [_signature(f.signature, "bad signature", False, f.name)
                        for f in module.functions]
        self.import_sigs = [_signature(i.signature, f"import {i.module}.{i.name}: bad signature",
                                       True) for i in module.imports]
        self.initializers = []     # (global index, import index, ((kind, index), ...))
        for gi, g in enumerate(module.globals):
            if g.bank not in BANKS:
                raise VerificationError(f"global '{g.name}' has unknown bank {g.bank!r}")
            init = g.initial
            if init.__class__ is Initializer and g.bank == "ref":
                self.initializers.append((gi, *self._initializer(gi, g)))
                continue
            ok = (init is None or (g.bank in _INT_RANGE and type(init) is int
                                   and _INT_RANGE[g.bank][0] <= init <= _INT_RANGE[g.bank][1])
                  or (g.bank in ("f32", "f64") and type(init) in (int, float)))
            if g.bank == "ref" and init is not None:
                ok = False
            if not ok:
                raise VerificationError(f"global '{g.name}' ({g.bank}) has bad initial value "
                                        f"{init!r}")
        exported = set()
        for fn, sig in zip(module.functions, self.fn_sigs):
            _check_registers(fn, sig)
            if fn.exported:
                if fn.name in exported:
                    raise VerificationError("exported twice", fn.name)
                exported.add(fn.name)
                if check_reflection:
                    _check_reflection(fn, sig)
                if fn.name == "__init" and (sig.args or sig.results):
                    raise VerificationError("__init must take and return nothing", fn.name)

    def _initializer(self, gi: int, g) -> tuple:
        """``(import index, args)`` of ref global ``gi``'s Initializer: a call
        of an import taking exactly its operands (all refs, none variadic)
        and returning one ref, with every operand in range and each global
        operand an earlier initialized one."""
        m, init = self.module, g.initial
        what = f"global '{g.name}' initializer"
        k = init.call
        if type(k) is not int or not 0 <= k < len(m.imports):
            raise VerificationError(f"{what}: import index {k!r} out of range "
                                    f"({len(m.imports)} imports)")
        sig, imp = self.import_sigs[k], m.imports[k]
        args = tuple(init.args)
        if any(p.variadic or p.bank != "ref" for p in sig.args) or len(sig.args) != len(args) \
                or [p.bank for p in sig.results] != ["ref"]:
            raise VerificationError(f"{what}: {imp.module}.{imp.name} ({imp.signature}) is "
                                    f"not a call of {len(args)} refs returning one ref")
        limits = {"rodata": len(m.rodata), "executable": len(m.executables)}
        for j, a in enumerate(args):
            kind, index = a if isinstance(a, tuple) and len(a) == 2 else (None, None)
            if kind == "global":
                ok = type(index) is int and 0 <= index < gi \
                     and m.globals[index].initial.__class__ is Initializer
            else:
                ok = kind in limits and type(index) is int and 0 <= index < limits[kind]
            if not ok:
                raise VerificationError(f"{what}: operand {j} {a!r} is not an earlier "
                                        f"initialized global, a rodata or an executable "
                                        f"in range")
        return k, args

    def reflection(self, i: int):
        """Function ``i``'s reflection, decoded (VmfbError) and checked
        against its signature (VerificationError)."""
        fn = self.module.functions[i]
        _check_reflection(fn, self.fn_sigs[i])
        return fn.reflection

    def body(self, i: int) -> list:
        """Decode and verify function ``i``'s code; its instructions."""
        fn = self.module.functions[i]
        instrs = decode_function(fn.code, fn.name)
        _FunctionVerifier(self.module, fn, self.fn_sigs[i], self.fn_sigs,
                          self.import_sigs, self.sizes).run(instrs)
        return instrs


def verify_module(module) -> list:
    """Verify every table and function of ``module``; return each function's
    (signature, decoded instructions)."""
    tables = ModuleTables(module)
    return [(sig, tables.body(i)) for i, sig in enumerate(tables.fn_sigs)]
