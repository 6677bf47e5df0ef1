"""Functions built in memory: the one encoder behind the assembler and the
compiler's host programs.

A ``FunctionBuilder`` records instructions with symbolic operands, one per
field of the instruction's ``isa.OPS`` entry in table order: register names
(any hashable, e.g. ``"%t3"``), label names for ``block`` fields, module
names (or indices) for ``func``/``import``/``global``/``rodata``/``exe``
fields, the string itself for ``str`` fields and numbers for immediates.
A ``counts`` field is not given: it follows from the variadic runs (Python
lists) among a ``call.import``'s arguments.  ``build`` resolves the names
against a ModuleDef, checks each register's bank (fixed by its first
definition, as in assembly text), allocates registers and encodes.

The text assembler (vmfb.assembler) parses into the same steps: it shares
``assign_registers`` and ``encode_body`` with ``build``, so a module built
here and its disassembly assembled back give the same bytes.
"""
from __future__ import annotations

from .bytecode import encode
from .errors import VmfbError
from .isa import BANKS, BY_MNEMONIC, MAX_REGISTERS
from .model import FunctionDef, ModuleDef, Param, empty_registers, parse_signature

_TABLES = {"func": "functions", "import": "imports", "global": "globals",
           "rodata": "rodata", "exe": "executables"}


def table_index(module: ModuleDef, kind: str, name) -> int:
    """Index of ``name`` (or the index itself) in ``module``'s ``kind`` table;
    a ``str`` operand is added to the string table on first use."""
    if kind == "str":
        if name not in module.strings:
            module.strings.append(name)
        return module.strings.index(name)
    table = getattr(module, _TABLES[kind])
    if isinstance(name, int):
        if not 0 <= name < len(table):
            raise VmfbError(f"#{name} is out of range ({len(table)} {kind} entries)")
        return name
    for index, d in enumerate(table):
        if (d.full_name if kind == "import" else d.name) == name:
            return index
    raise VmfbError(f"unknown {kind} @{name}")


def assign_registers(args, banks: dict, fixed: dict, declared: dict, fname: str):
    """Register (bank, index) per name: ``fixed`` ones as given, arguments
    next in their bank's order, then every other name of ``banks`` (name ->
    bank, in order of first definition) at its bank's lowest free index.
    Returns (index per name, register counts per bank)."""
    index, used = dict(fixed), {b: set() for b in BANKS}
    for bank, i in fixed.values():
        used[bank].add(i)
    nth = {b: 0 for b in BANKS}
    for name, bank in args:
        if name not in index:
            index[name] = (bank, nth[bank])
            used[bank].add(nth[bank])
        nth[bank] += 1
    free = {b: 0 for b in BANKS}
    for name, bank in banks.items():
        if name in index:
            continue
        while free[bank] in used[bank]:
            free[bank] += 1
        index[name] = (bank, free[bank])
        used[bank].add(free[bank])
    regs = {b: (max(used[b]) + 1 if used[b] else 0) for b in BANKS}
    for bank, n in declared.items():
        if n < regs[bank]:
            raise VmfbError(f"function @{fname} declares {n} {bank} registers "
                            f"but uses {regs[bank]}")
        regs[bank] = n
    if any(n > MAX_REGISTERS for n in regs.values()):
        raise VmfbError(f"function @{fname} needs more than {MAX_REGISTERS} "
                        f"registers in one bank")
    return index, regs


def encode_body(instructions, labels: dict, target, wrap=None) -> bytes:
    """Bytecode of ``instructions``, each (mnemonic, operands) with its
    ``block`` fields symbolic: ``target(symbol, label_pc)`` gives a field's
    pc, ``label_pc`` mapping each label of ``labels`` (name -> index of the
    instruction it precedes) to its byte offset.  ``wrap(i, error)``, when
    given, turns instruction i's encoding error into the one to raise."""
    blocks = [[k for k, f in enumerate(BY_MNEMONIC[m].fields) if f.kind == "block"]
              for m, _ in instructions]

    def encoded(i, ops, pc_of):
        if blocks[i]:
            ops = list(ops)
            for k in blocks[i]:
                ops[k] = pc_of(ops[k])
        try:
            return encode(instructions[i][0], *ops)
        except VmfbError as e:
            if wrap is None:
                raise
            raise wrap(i, e) from None
    # Sizes do not depend on branch targets: encode once with 0 to place labels.
    pcs, pc = [], 0
    for i, (_, ops) in enumerate(instructions):
        pcs.append(pc)
        pc += len(encoded(i, ops, lambda s: 0))
    pcs.append(pc)
    label_pc = {name: pcs[i] for name, i in labels.items()}
    return b"".join(encoded(i, ops, lambda s: target(s, label_pc))
                    for i, (_, ops) in enumerate(instructions))


class FunctionBuilder:
    """One function's instructions, symbolic until ``build``."""

    def __init__(self, name: str, args=(), results=(), exported: bool = False):
        """``args``: (register name, bank) per argument; ``results``: banks."""
        self.name, self.args, self.results = name, list(args), list(results)
        self.exported = exported
        self.body: list = []          # (mnemonic, operands) or (None, label name)

    def op(self, mnemonic: str, *operands) -> None:
        """Append one instruction (operands as the module docstring says)."""
        if mnemonic not in BY_MNEMONIC:
            raise VmfbError(f"unknown instruction {mnemonic!r}")
        self.body.append((mnemonic, operands))

    def label(self, name: str) -> None:
        """Place label ``name`` before the next instruction."""
        self.body.append((None, name))

    def signature(self) -> str:
        return "".join(str(Param(b)) for _, b in self.args) + "->" + \
            "".join(str(Param(b)) for b in self.results)

    def declare(self, module: ModuleDef) -> FunctionDef:
        """Append this function's (still empty) entry to ``module``."""
        fn = FunctionDef(self.name, self.signature(), empty_registers(), b"", self.exported)
        module.functions.append(fn)
        return fn

    def build(self, module: ModuleDef, fn: FunctionDef) -> FunctionDef:
        """Encode into ``fn`` (declared in ``module``): every name resolved."""
        banks = {}
        for name, bank in self.args:
            if name in banks:
                raise VmfbError(f"@{self.name}: argument {name} declared twice")
            banks[name] = bank
        labels, pending = {}, []
        for mnemonic, operands in self.body:
            if mnemonic is None:
                if operands in labels:
                    raise VmfbError(f"@{self.name}: label {operands!r} is defined twice")
                labels[operands] = len(pending)
                continue
            try:
                pending.append((mnemonic, self._resolve(module, mnemonic, operands, banks)))
            except VmfbError as e:
                raise VmfbError(f"@{self.name}: {mnemonic}: {e}") from None
        index, fn.registers = assign_registers(self.args, banks, {}, {}, self.name)
        ops = [(m, [tuple(index[r] for r in v) if isinstance(v, _Regs) else
                    index[v] if isinstance(v, _Reg) else v for v in vals])
               for m, vals in pending]

        def target(label, label_pc):
            if label not in label_pc:
                raise VmfbError(f"@{self.name}: unknown label {label!r}")
            return label_pc[label]
        fn.code = encode_body(ops, labels, target)
        return fn

    def _resolve(self, module, mnemonic, operands, banks) -> list:
        """Operands with names resolved to indices and registers marked;
        reads are checked and writes fix banks, in field order."""
        op = BY_MNEMONIC[mnemonic]
        given = len([f for f in op.fields if f.kind != "counts"])
        if len(operands) != given:
            raise VmfbError(f"takes {given} operands, got {len(operands)}")

        def use(r, bank):
            have = banks.get(r)
            if have is None:
                raise VmfbError(f"register {r} is used before it is defined")
            if bank not in (None, "any") and have != bank:
                raise VmfbError(f"register {r} is {have}, expected {bank}")
            return _Reg(r)
        out, writes, sig, it, counts_at = [], [], None, iter(operands), None
        for f in op.fields:
            if f.kind == "counts":
                counts_at = len(out)
                out.append(())
                continue
            v = next(it)
            if f.kind == "reg":
                if f.role == "w":
                    writes.append((v, f.bank))
                    out.append(_Reg(v))
                else:
                    out.append(use(v, f.bank))
            elif f.kind == "regs" and f.role == "w":
                want = [p.bank for p in sig.results] if sig else []
                if len(v) != len(want):
                    raise VmfbError(f"callee returns {len(want)} values, "
                                    f"{len(v)} result registers given")
                writes += zip(v, want)
                out.append(_Regs(v))
            elif f.kind == "regs":
                params = sig.args if sig else [Param(b) for b in self.results]
                flat, segments = self._arguments(v, params, use)
                if counts_at is not None:
                    out[counts_at] = tuple(segments)
                out.append(_Regs(flat))
            elif f.kind in _TABLES or f.kind == "str":
                out.append(table_index(module, f.kind, v))
                if f.kind in ("func", "import"):
                    d = getattr(module, _TABLES[f.kind])[out[-1]]
                    sig = parse_signature(d.signature, allow_variadic=(f.kind == "import"))
            else:
                out.append(v)
        for r, bank in writes:
            fixed = banks.setdefault(r, bank)
            if fixed != bank:
                raise VmfbError(f"register {r} is {fixed}, cannot hold a {bank} value")
        return out

    @staticmethod
    def _arguments(values, params, use):
        """Registers of a call's (or ``ret``'s) ``values`` against ``params``:
        a variadic parameter takes a list.  Returns (flat names, run lengths)."""
        if len(values) != len(params):
            raise VmfbError(f"{len(params)} values expected, {len(values)} given")
        flat, segments = [], []
        for v, p in zip(values, params):
            if p.variadic:
                if not isinstance(v, (list, tuple)):
                    raise VmfbError(f"a variadic *{p.bank} run must be a list, got {v!r}")
                flat += [use(r, p.bank) for r in v]
                segments.append(len(v))
            else:
                flat.append(use(v, p.bank))
        return flat, segments


class _Reg(str):
    """A register name, told apart from a string operand once resolved."""
    __slots__ = ()


class _Regs(tuple):
    """The register names of a ``regs`` field."""
    __slots__ = ()


def build_functions(module: ModuleDef, builders) -> ModuleDef:
    """Declare every builder's function in ``module`` (so bodies may call
    each other), then encode them in order."""
    fns = [b.declare(module) for b in builders]
    for b, fn in zip(builders, fns):
        b.build(module, fn)
    return module
