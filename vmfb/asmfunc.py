"""Assembly of one function body (the second pass of vmfb.assembler).

Registers: named registers (``%x``) take their bank from their first
definition in text order (a read before it is an error) and are allocated
per bank after the function's arguments.  A function whose registers are
*all* spelled ``%<bank char><index>`` (``%i0 %I2 %f1 %F0 %r3``, what
disassemble_module prints) is in explicit mode: each spelling is that very
register, and reads need no earlier definition (bytecode may define a
register textually after a branch back to its use).
"""
from __future__ import annotations

import re

from .asmlex import Cursor, Token, parse_float_text, parse_int
from .builder import assign_registers, encode_body
from .bytecode import NaNBits
from .errors import AssemblyError, VmfbError
from .isa import BANKS, BY_MNEMONIC, CHAR_BANK
from .model import FunctionDef, Signature, parse_signature

# %i3, %I0, %f2, %F1, %r7: when every register of a function is spelled so,
# the spelling is the register itself (bank and index).
_EXPLICIT_REG = re.compile(r"([iIfFr])(\d+)\Z")
_LABEL_LINE = re.compile(r"\s*[A-Za-z_][A-Za-z0-9_.$]*\s*:\s*(;.*)?\Z")


class FunctionAssembler:
    """Assembles one body: registers, labels, encoding with forward targets."""

    def __init__(self, asm, fn: FunctionDef, args: list, declared: dict):
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

        def target(v, label_pc):
            tok, cur = v
            if tok.kind == "idx":
                return int(tok.value)
            if tok.kind != "ident" or tok.value not in label_pc:
                raise cur.error(f"unknown label {tok.value!r}", tok)
            return label_pc[tok.value]

        def wrap(i, e):
            _, _, cur, mtok = pending[i]
            return e if isinstance(e, AssemblyError) else cur.error(str(e), mtok)
        self.fn.code = encode_body([(m, self.operands(ops, index)) for m, ops, _, _ in pending],
                                   labels, target, wrap)

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
        fixed = {}
        nth = {b: 0 for b in BANKS}
        for tok, bank in self.args:
            if self.explicit and int(tok.value[1:]) != nth[bank]:
                raise AssemblyError(f"argument %{tok.value} is register {nth[bank]} of bank "
                                    f"{bank}: spell it %{tok.value[0]}{nth[bank]}",
                                    tok.line, tok.column)
            nth[bank] += 1
        if self.explicit:
            fixed = {name: (bank, int(name[1:])) for name, bank in self.banks.items()}
        try:
            index, self.fn.registers = assign_registers(
                [(t.value, b) for t, b in self.args], self.banks, fixed, self.declared,
                self.fn.name)
        except VmfbError as e:
            raise AssemblyError(str(e)) from None
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

    def operands(self, specs, index):
        """Registers resolved to (bank, index); block fields stay (token, cursor)."""
        out = []
        for kind, v in specs:
            if kind == "reg":
                out.append(index[v.value])
            elif kind == "regs":
                out.append(tuple(index[t.value] for t in v))
            else:
                out.append(v)
        return out
