"""Text assembly -> ModuleDef (syntax: docs/internals.md section 3).

Two passes: the first reads every declaration (module, import, global,
rodata, string, func headers) so bodies may reference anything by name,
forward or backward; the second assembles each function body.  Operand
layout comes from ``isa.OPS``: written register fields left of ``=``, all
other fields right of the mnemonic in table order, a read ``regs`` field
after a callee written as ``(..)``, and a ``counts`` field implied by the
``[..]`` lists of variadic runs.

Registers: named registers (``%x``) take their bank from their first
definition in text order (a read before it is an error) and are allocated
per bank after the function's arguments.  A function whose registers are
*all* spelled ``%<bank char><index>`` (``%i0 %I2 %f1 %F0 %r3``, what
disassemble_module prints) is in explicit mode: each spelling is that very
register, and reads need no earlier definition (bytecode may define a
register textually after a branch back to its use).
"""
from __future__ import annotations

import dataclasses
import math
import re

from .asmlex import Cursor, Token, parse_float_text, parse_int
from .bytecode import NaNBits, encode
from .errors import AssemblyError, VmfbError
from .isa import BANKS, BY_MNEMONIC, CHAR_BANK, MAX_REGISTERS
from .model import (FunctionDef, GlobalDef, ImportDef, ModuleDef, Param, RodataDef,
                    Signature, empty_registers, parse_signature)

__all__ = ["assemble", "disassemble_module", "AssemblyError"]

# %i3, %I0, %f2, %F1, %r7: when every register of a function is spelled so,
# the spelling is the register itself (bank and index); see _FunctionAssembler.
_EXPLICIT_REG = re.compile(r"([iIfFr])(\d+)\Z")
_LABEL_LINE = re.compile(r"\s*[A-Za-z_][A-Za-z0-9_.$]*\s*:\s*(;.*)?\Z")


def assemble(text: str, base: ModuleDef | None = None) -> ModuleDef:
    """Assemble ``text``; with ``base``, declarations are appended to (a
    shallow copy of) base's tables, so bodies can name base's executables,
    functions, rodata... The base object itself is not modified."""
    if base is None:
        module = ModuleDef(name="module")
    else:
        module = dataclasses.replace(
            base, requirements=dict(base.requirements), functions=list(base.functions),
            imports=list(base.imports), globals=list(base.globals), rodata=list(base.rodata),
            executables=list(base.executables), strings=list(base.strings))
    return _Assembler(module).run(text)


class _Assembler:
    def __init__(self, module: ModuleDef):
        self.m = module
        self.bodies = []          # (FunctionDef, args [(Token, bank)], declared regs, lines)

    # -- pass 1: declarations --------------------------------------------------
    def run(self, text: str) -> ModuleDef:
        lines = text.split("\n")
        i = 0
        while i < len(lines):
            cur = Cursor(lines[i], i + 1)
            i += 1
            tok = cur.next()
            if tok.kind == "end":
                continue
            if tok.kind != "ident" or tok.value not in _DECLS:
                raise cur.error(f"expected a declaration (module, import, global, rodata, "
                                f"string, func), got {tok.value!r}", tok)
            if tok.value == "func":
                i = self.func_header(cur, lines, i)
            else:
                getattr(self, "decl_" + tok.value)(cur)
        for fn, args, declared, body in self.bodies:
            _FunctionAssembler(self, fn, args, declared).run(body)
        return self.m

    def _new_name(self, cur: Cursor, table: list, what: str, key=lambda d: d.name) -> Token:
        tok = cur.expect("sym", what=f"@name of the {what}")
        if any(key(d) == tok.value for d in table):
            raise cur.error(f"{what} @{tok.value} is already defined", tok)
        return tok

    def decl_module(self, cur: Cursor):
        self.m.name = cur.expect("sym", what="@module_name").value
        while cur.peek().kind != "end":
            kw = cur.expect("ident", what="'version' or 'requirements'")
            if kw.value == "version":
                self.m.version = parse_int(cur.next(), cur)
            elif kw.value == "requirements":
                self.m.requirements = cur.json_object()
            else:
                raise cur.error(f"unknown module clause {kw.value!r}", kw)

    def decl_import(self, cur: Cursor):
        tok = self._new_name(cur, self.m.imports, "import", key=lambda d: d.full_name)
        module, dot, name = tok.value.partition(".")
        if not dot or not module or not name:
            raise cur.error(f"import @{tok.value} must be spelled @module.function", tok)
        args = self._type_list(cur, variadic=True)
        results = self._type_list(cur) if cur.accept("->") else ()
        cur.expect_end()
        sig = str(Signature(tuple(args), tuple(results)))
        self.m.imports.append(ImportDef(module, name, sig))

    def _type_list(self, cur: Cursor, variadic=False) -> list:
        """``(i32, *r, ...)``: bank names or calling-convention characters."""
        cur.expect("punct", "(")
        out = []
        while not cur.accept(")"):
            if out:
                cur.expect("punct", ",")
            star = bool(variadic and cur.accept("*"))
            out.append(Param(self._bank(cur), star))
        return out

    def _bank(self, cur: Cursor) -> str:
        tok = cur.expect("ident", what="a type (i32, i64, f32, f64, ref)")
        bank = tok.value if tok.value in BANKS else CHAR_BANK.get(tok.value)
        if bank is None:
            raise cur.error(f"unknown type {tok.value!r} (expected i32, i64, f32, f64, ref)", tok)
        return bank

    def decl_global(self, cur: Cursor):
        name = self._new_name(cur, self.m.globals, "global").value
        cur.expect("punct", ":")
        bank = self._bank(cur)
        initial = None
        if cur.accept("="):
            tok = cur.next()
            if bank == "ref":
                raise cur.error("ref globals start null and take no initial value", tok)
            initial = parse_int(tok, cur) if bank in ("i32", "i64") else parse_float_text(tok, cur)
        cur.expect_end()
        self.m.globals.append(GlobalDef(name, bank, initial))

    def decl_rodata(self, cur: Cursor):
        name = self._new_name(cur, self.m.rodata, "rodata").value
        cur.expect("punct", "=")
        tok = cur.next()
        if tok.kind == "hex":
            data = tok.value
        elif tok.kind == "str":
            data = tok.value.encode("utf-8")
        else:
            raise cur.error('expected hex"..." or a string literal', tok)
        alignment = 64
        if cur.accept("align"):
            at = cur.peek()
            alignment = parse_int(cur.next(), cur)
            if alignment <= 0 or alignment & (alignment - 1):
                raise cur.error("alignment must be a power of two", at)
        cur.expect_end()
        self.m.rodata.append(RodataDef(name, data, alignment))

    def decl_string(self, cur: Cursor):
        self.m.strings.append(cur.expect("str", what="a string literal").value)
        cur.expect_end()

    def func_header(self, cur: Cursor, lines: list, i: int) -> int:
        name_tok = self._new_name(cur, self.m.functions, "function")
        cur.expect("punct", "(")
        args = []
        while not cur.accept(")"):
            if args:
                cur.expect("punct", ",")
            reg = cur.expect("reg", what="an argument register (%name)")
            cur.expect("punct", ":")
            args.append((reg, self._bank(cur)))
        results = [p.bank for p in self._type_list(cur)] if cur.accept("->") else []
        fn = FunctionDef(name_tok.value, "", empty_registers(), b"")
        fn.signature = "".join(str(Param(b)) for _, b in args) + "->" + \
            "".join(str(Param(b)) for b in results)
        declared = {}
        while not cur.accept("{"):
            kw = cur.expect("ident", what="'{', 'export', 'registers' or 'reflection'")
            if kw.value == "export":
                fn.exported = True
            elif kw.value == "reflection":
                fn.reflection = cur.json_object()
            elif kw.value == "registers":
                cur.expect("punct", "(")
                while not cur.accept(")"):
                    if declared:
                        cur.expect("punct", ",")
                    bank = self._bank(cur)
                    cur.expect("punct", "=")
                    declared[bank] = parse_int(cur.next(), cur)
            else:
                raise cur.error(f"unknown function attribute {kw.value!r}", kw)
        cur.expect_end()
        body = []
        while True:
            if i >= len(lines):
                raise AssemblyError(f"function @{fn.name} has no closing '}}'",
                                    name_tok.line, name_tok.column)
            inner = Cursor(lines[i], i + 1)
            i += 1
            if inner.accept("}"):
                inner.expect_end()
                break
            body.append(inner)
        self.m.functions.append(fn)
        self.bodies.append((fn, args, declared, body))
        return i

    # -- name resolution shared with the body pass ----------------------------------
    def resolve(self, kind: str, tok: Token, cur: Cursor) -> int:
        tables = {"func": self.m.functions, "import": self.m.imports,
                  "global": self.m.globals, "rodata": self.m.rodata,
                  "exe": self.m.executables, "str": self.m.strings}
        table = tables[kind]
        if tok.kind == "idx":
            index = int(tok.value)
            if index >= len(table):
                raise cur.error(f"#{index} is out of range ({len(table)} {kind} entries)", tok)
            return index
        if kind == "str":
            if tok.kind != "str":
                raise cur.error(f"expected a string literal, got {tok.value!r}", tok)
            if tok.value not in table:
                table.append(tok.value)
            return table.index(tok.value)
        if tok.kind != "sym":
            raise cur.error(f"expected @name of a {_KIND_NAMES[kind]}, got {tok.value!r}", tok)
        for index, d in enumerate(table):
            if (d.full_name if kind == "import" else d.name) == tok.value:
                return index
        raise cur.error(f"unknown {_KIND_NAMES[kind]} @{tok.value}", tok)


_DECLS = {"module", "import", "global", "rodata", "string", "func"}
_KIND_NAMES = {"func": "function", "import": "import", "global": "global",
               "rodata": "rodata", "exe": "executable", "str": "string"}


class _FunctionAssembler:
    """Assembles one body: registers, labels, encoding with forward targets."""

    def __init__(self, asm: _Assembler, fn: FunctionDef, args: list, declared: dict):
        self.asm, self.fn, self.args, self.declared = asm, fn, args, declared
        self.banks = {}       # register name -> bank (fixed by first definition)
        self.sig = parse_signature(fn.signature, allow_variadic=False)

    def run(self, body: list):
        names = [t.value for t, _ in self.args]
        for cur in body:
            scan = Cursor(cur.text, cur.line)
            while (t := scan.next()).kind != "end":
                if t.kind == "reg":
                    names.append(t.value)
        # Explicit mode: every register is spelled like %i3 (disassembler output).
        self.explicit = bool(names) and all(_EXPLICIT_REG.match(n) for n in names)
        for tok, bank in self.args:
            if tok.value in self.banks:
                raise AssemblyError(f"argument %{tok.value} declared twice", tok.line, tok.column)
            self.define(tok, bank, None)
        labels, pending = {}, []
        for cur in body:
            tok = cur.peek()
            if tok.kind == "end":
                continue
            if _LABEL_LINE.match(cur.text):
                cur.next()
                cur.expect("punct", ":")
                cur.expect_end()
                if tok.value in labels:
                    raise cur.error(f"label {tok.value!r} is defined twice", tok)
                labels[tok.value] = len(pending)
                continue
            pending.append(self.instruction(cur))
        index = self.allocate()
        # Sizes do not depend on branch targets: encode once with 0 to place labels.
        pcs, pc = [], 0
        for mnemonic, ops, _, _ in pending:
            pcs.append(pc)
            pc += len(encode(mnemonic, *self.operands(ops, index, lambda t, c: 0)))
        pcs.append(pc)
        label_pc = {name: pcs[i] for name, i in labels.items()}

        def target(tok, cur):
            if tok.kind == "idx":
                return int(tok.value)
            if tok.kind != "ident" or tok.value not in label_pc:
                raise cur.error(f"unknown label {tok.value!r}", tok)
            return label_pc[tok.value]

        code = []
        for mnemonic, ops, cur, mtok in pending:
            try:
                code.append(encode(mnemonic, *self.operands(ops, index, target)))
            except VmfbError as e:
                if isinstance(e, AssemblyError):
                    raise
                raise cur.error(str(e), mtok) from None
        self.fn.code = b"".join(code)

    # -- registers -------------------------------------------------------------------
    def _explicit_bank(self, tok: Token):
        """The bank a name fixes in explicit mode (None in named mode)."""
        if not self.explicit:
            return None
        return CHAR_BANK[_EXPLICIT_REG.match(tok.value).group(1)]

    def define(self, tok: Token, bank: str, cur):
        fixed = self._explicit_bank(tok) or self.banks.get(tok.value)
        if fixed is not None and fixed != bank:
            hint = " (every register of this function is spelled %<bank char><index>, " \
                   "which fixes bank and index)" if self.explicit else ""
            raise AssemblyError(f"register %{tok.value} is {fixed}, cannot hold a {bank} "
                                f"value{hint}", tok.line, tok.column)
        self.banks.setdefault(tok.value, bank)

    def use(self, tok: Token, bank: str | None, cur) -> str:
        have = self.banks.get(tok.value)
        if have is None:
            if not self.explicit:
                raise cur.error(f"register %{tok.value} is used before it is defined", tok)
            have = self.banks[tok.value] = self._explicit_bank(tok)
        if bank not in (None, "any") and have != bank:
            raise cur.error(f"register %{tok.value} is {have}, expected {bank}", tok)
        return have

    def allocate(self) -> dict:
        """Register index per name: in explicit mode the index the name
        spells; otherwise arguments first, then the rest of each bank in
        order of first definition."""
        index, used = {}, {b: set() for b in BANKS}
        nth = {b: 0 for b in BANKS}
        for tok, bank in self.args:
            want = (bank, nth[bank])
            nth[bank] += 1
            if self.explicit and int(tok.value[1:]) != want[1]:
                raise AssemblyError(f"argument %{tok.value} is register {want[1]} of bank "
                                    f"{bank}: spell it %{tok.value[0]}{want[1]}",
                                    tok.line, tok.column)
            index[tok.value] = want
            used[bank].add(want[1])
        if self.explicit:
            for name, bank in self.banks.items():
                index[name] = (bank, int(name[1:]))
                used[bank].add(int(name[1:]))
        free = {b: 0 for b in BANKS}
        for name, bank in self.banks.items():
            if name in index:
                continue
            while free[bank] in used[bank]:
                free[bank] += 1
            index[name] = (bank, free[bank])
            used[bank].add(free[bank])
        regs = {b: (max(used[b]) + 1 if used[b] else 0) for b in BANKS}
        for bank, n in self.declared.items():
            if n < regs[bank]:
                raise AssemblyError(f"function @{self.fn.name} declares {n} {bank} registers "
                                    f"but uses {regs[bank]}")
            regs[bank] = n
        if any(n > MAX_REGISTERS for n in regs.values()):
            raise AssemblyError(f"function @{self.fn.name} needs more than {MAX_REGISTERS} "
                                f"registers in one bank")
        self.fn.registers = regs
        return index

    # -- one instruction ----------------------------------------------------------------
    def instruction(self, cur: Cursor):
        """Parse a line into (mnemonic, operand specs, cursor); banks are
        checked and fixed here, in text order."""
        lhs = []
        if cur.peek().kind == "reg":
            lhs.append(cur.next())
            while cur.accept(","):
                lhs.append(cur.expect("reg", what="a result register"))
            cur.expect("punct", "=")
        mtok = cur.expect("ident", what="an instruction")
        op = BY_MNEMONIC.get(mtok.value)
        if op is None:
            raise cur.error(f"unknown instruction {mtok.value!r}", mtok)
        specs, first, callee_sig, written = [], True, None, []
        for f in op.fields:
            if f.role == "w" and f.kind in ("reg", "regs"):
                written.append((f, len(specs)))
                specs.append(None)
                continue
            if f.kind == "counts":
                specs.append(("counts", None))
                continue
            if f.kind == "regs" and callee_sig is not None:
                specs.extend(self.call_args(cur, op, callee_sig, specs))
                continue
            if f.kind == "regs":
                regs = []
                while cur.peek().kind != "end":
                    if not first or regs:
                        cur.expect("punct", ",")
                    regs.append(cur.expect("reg", what="a register"))
                self.check_ret(op, cur, mtok, regs)
                specs.append(("regs", regs))
                first = False
                continue
            if not first:
                cur.expect("punct", ",")
            first = False
            tok = cur.next()
            if f.kind == "reg":
                self.use(tok if tok.kind == "reg" else self._bad(cur, tok, "a register"), f.bank, cur)
                specs.append(("reg", tok))
            elif f.kind in ("i32", "i64"):
                specs.append(("imm", parse_int(tok, cur)))
            elif f.kind in ("f32", "f64"):
                specs.append(("imm", self.float_imm(tok, cur, f.kind)))
            elif f.kind == "block":
                if tok.kind not in ("ident", "idx"):
                    self._bad(cur, tok, "a block label")
                specs.append(("block", (tok, cur)))
            else:
                index = self.asm.resolve(f.kind, tok, cur)
                specs.append(("imm", index))
                if f.kind in ("func", "import"):
                    callee_sig = self.callee_signature(f.kind, index, cur, tok)
        cur.expect_end()
        self.bind_results(op, cur, mtok, lhs, written, specs, callee_sig)
        return op.mnemonic, specs, cur, mtok

    @staticmethod
    def _bad(cur, tok, what):
        raise cur.error(f"expected {what}, got {'end of line' if tok.kind == 'end' else repr(tok.value)}", tok)

    def float_imm(self, tok, cur, kind):
        if tok.kind == "ident" and tok.value == "nan" and cur.accept("("):
            bits = parse_int(cur.next(), cur)
            cur.expect("punct", ")")
            width = 32 if kind == "f32" else 64
            mant = 23 if width == 32 else 52
            exp_all_ones = (1 << (width - 1 - mant)) - 1
            if not 0 <= bits < (1 << width) or (bits >> mant) & exp_all_ones != exp_all_ones \
                    or bits & ((1 << mant) - 1) == 0:
                raise cur.error(f"nan(0x{bits:x}) is not a {kind} NaN bit pattern", tok)
            return NaNBits(bits, width)
        return parse_float_text(tok, cur)

    def callee_signature(self, kind, index, cur, tok) -> Signature:
        d = (self.asm.m.functions if kind == "func" else self.asm.m.imports)[index]
        try:
            return parse_signature(d.signature, allow_variadic=(kind == "import"))
        except VmfbError as e:
            raise cur.error(f"callee @{d.name}: {e}", tok) from None

    def call_args(self, cur, op, sig: Signature, specs):
        """``(a, [b, c], d)`` matched against the callee's parameters."""
        cur.expect("punct", "(")
        regs, segments = [], []
        for n, p in enumerate(sig.args):
            if n:
                cur.expect("punct", ",", what=f"',' ({len(sig.args)} arguments expected)")
            if p.variadic:
                cur.expect("punct", "[", what=f"'[' (argument {n + 1} is a variadic *{p.bank} run)")
                run = []
                while not cur.accept("]"):
                    if run:
                        cur.expect("punct", ",")
                    run.append(cur.expect("reg", what="a register"))
                    self.use(run[-1], p.bank, cur)
                regs.extend(run)
                segments.append(len(run))
            else:
                tok = cur.expect("reg", what=f"a {p.bank} register (argument {n + 1})")
                self.use(tok, p.bank, cur)
                regs.append(tok)
        cur.expect("punct", ")", what=f"')' ({len(sig.args)} arguments expected)")
        if specs and specs[-1] == ("counts", None):
            specs[-1] = ("imm", segments)
        return [("regs", regs)]

    def check_ret(self, op, cur, mtok, regs):
        if op.mnemonic != "ret":
            return
        want = [p.bank for p in self.sig.results]
        if len(regs) != len(want):
            raise cur.error(f"@{self.fn.name} returns {len(want)} values, ret gives {len(regs)}", mtok)
        for tok, bank in zip(regs, want):
            self.use(tok, bank, cur)

    def bind_results(self, op, cur, mtok, lhs, written, specs, callee_sig):
        if not written:
            if lhs:
                raise cur.error(f"{op.mnemonic} writes no register", lhs[0])
            return
        pos = 0
        for f, slot in written:
            if f.kind == "reg":
                if pos >= len(lhs):
                    raise cur.error(f"{op.mnemonic} writes {f.name}: write '%{f.name} = "
                                    f"{op.mnemonic} ...'", mtok)
                self.define(lhs[pos], f.bank, cur)
                specs[slot] = ("reg", lhs[pos])
                pos += 1
            else:
                banks = [p.bank for p in callee_sig.results] if callee_sig else []
                if len(lhs) - pos != len(banks):
                    raise cur.error(f"callee returns {len(banks)} values, "
                                    f"{len(lhs) - pos} result registers given", mtok)
                for tok, bank in zip(lhs[pos:], banks):
                    self.define(tok, bank, cur)
                specs[slot] = ("regs", lhs[pos:])
                pos = len(lhs)
        if pos != len(lhs):
            raise cur.error(f"{op.mnemonic} writes {pos} register(s), {len(lhs)} given", lhs[pos])

    def operands(self, specs, index, target):
        out = []
        for kind, v in specs:
            if kind == "reg":
                out.append(index[v.value])
            elif kind == "regs":
                out.append(tuple(index[t.value] for t in v))
            elif kind == "block":
                out.append(target(*v))
            else:
                out.append(v)
        return out


def disassemble_module(module: ModuleDef, max_rodata_bytes: int | None = None) -> str:
    """Assembly text for ``module`` (see vmfb.disasm)."""
    from .disasm import disassemble_module as impl
    return impl(module, max_rodata_bytes)
