"""Text assembly -> ModuleDef (syntax: docs/internals.md section 3).

Two passes: the first reads every declaration (module, import, global,
rodata, string, func headers) so bodies may reference anything by name,
forward or backward; the second assembles each function body.  Operand
layout comes from ``isa.OPS``: written register fields left of ``=``, all
other fields right of the mnemonic in table order, a read ``regs`` field
after a callee written as ``(..)``, and a ``counts`` field implied by the
``[..]`` lists of variadic runs.

Registers and function bodies: see vmfb.asmfunc.
"""
from __future__ import annotations

import dataclasses

from .asmfunc import FunctionAssembler
from .asmlex import Cursor, Token, parse_float_text, parse_int
from .bytecode import INITIALIZER_TABLES
from .errors import AssemblyError
from .isa import BANKS, CHAR_BANK
from .model import (INITIALIZER_OPERANDS, FunctionDef, GlobalDef, ImportDef, Initializer,
                    ModuleDef, Param, RodataDef, Signature, empty_registers)

__all__ = ["assemble", "disassemble_module", "AssemblyError"]



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
        for g in self.m.globals:
            if callable(g.initial):           # (an initializer's names, now all declared)
                g.initial = g.initial()
        for fn, args, declared, body in self.bodies:
            FunctionAssembler(self, fn, args, declared).run(body)
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
        def param():
            star = bool(variadic and cur.accept("*"))
            return Param(self._bank(cur), star)
        return _parenthesized(cur, param)

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
                if tok.kind != "ident" or tok.value != "call":
                    raise cur.error("a ref global starts null or takes an initializer: "
                                    "= call @module.fn(global|rodata|executable @name, ...)", tok)
                initial = self._initializer(cur)
            elif bank in ("i32", "i64"):
                initial = parse_int(tok, cur)
                bits = 32 if bank == "i32" else 64
                if not -(1 << (bits - 1)) <= initial < (1 << (bits - 1)):
                    raise cur.error(f"{initial} does not fit in {bank}", tok)
            else:
                initial = parse_float_text(tok, cur)
        cur.expect_end()
        self.m.globals.append(GlobalDef(name, bank, initial))

    def _initializer(self, cur: Cursor):
        """``@import(kind @name, ...)`` after ``= call``, as a function that
        resolves the names once every declaration is read (a disassembly
        lists rodata after globals)."""
        call = cur.next()

        def operand():
            kind = cur.expect("ident", what="an operand kind (global, rodata, executable)")
            if kind.value not in INITIALIZER_OPERANDS:
                raise cur.error(f"operand kind {kind.value!r} is not one of "
                                f"{', '.join(INITIALIZER_OPERANDS)}", kind)
            return kind.value, cur.next()
        args = _parenthesized(cur, operand)
        return lambda: Initializer(self.resolve("import", call, cur), tuple(
            (k, self.resolve(INITIALIZER_TABLES[k], tok, cur)) for k, tok in args))

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
            if alignment <= 0 or alignment & (alignment - 1) or alignment > 1 << 16:
                raise cur.error("alignment must be a power of two, at most 65536", at)
        cur.expect_end()
        self.m.rodata.append(RodataDef(name, data, alignment))

    def decl_string(self, cur: Cursor):
        self.m.strings.append(cur.expect("str", what="a string literal").value)
        cur.expect_end()

    def func_header(self, cur: Cursor, lines: list, i: int) -> int:
        name_tok = self._new_name(cur, self.m.functions, "function")

        def argument():
            reg = cur.expect("reg", what="an argument register (%name)")
            cur.expect("punct", ":")
            return reg, self._bank(cur)
        args = _parenthesized(cur, argument)
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


def _parenthesized(cur: Cursor, item) -> list:
    """``(item, item, ...)``: each read by ``item()``."""
    cur.expect("punct", "(")
    out = []
    while not cur.accept(")"):
        if out:
            cur.expect("punct", ",")
        out.append(item())
    return out


_DECLS = {"module", "import", "global", "rodata", "string", "func"}
_KIND_NAMES = {"func": "function", "import": "import", "global": "global",
               "rodata": "rodata", "exe": "executable", "str": "string"}


def disassemble_module(module: ModuleDef, max_rodata_bytes: int | None = None) -> str:
    """Assembly text for ``module`` (see vmfb.disasm)."""
    from .disasm import disassemble_module as impl
    return impl(module, max_rodata_bytes)
