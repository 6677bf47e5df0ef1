"""MLIR text -> ``ir.core.Module``: module/func structure, regions, SSA names
and the generic op form.  Pretty op forms live in ``op_forms.py``.

``parse_module(text, filename)`` is the entry point; it raises
``ParseError`` with the 1-based line and column of the offending token.
Nesting is bounded by ``MAX_DEPTH`` so deep input fails with a clear error
instead of a RecursionError.
"""
from __future__ import annotations

import re

from ..errors import ParseError
from ..ir import attributes as A
from ..ir.core import Block, Location, Module, Operation, Region, Value
from ..ir.types import FunctionType
from .attr_parser import AttrParserMixin
from .lexer import Lexer
from .op_forms import OpFormsMixin
from .source import NotUtf8Error, Source, read_source
from .sdy_forms import SdyFormsMixin

MAX_DEPTH = 200
_ISOLATED = frozenset(("func.func", "builtin.module"))
_RESOURCES = re.compile(r"\{-#(.*?)#-\}", re.S)
_BLOB = re.compile(r'([\w.$\-]+)\s*:\s*(")(?:0x([0-9A-Fa-f]*))?"')


def parse_module(text, filename: str = "<input>") -> Module:
    """Parse MLIR text (one module, or bare top-level ops) into a Module.

    ``text``: a str, UTF-8 bytes, an mmap of a file, or a ``source.Source``."""
    return Parser(text, filename).parse_top_level()


def _small_hex(digits: str):
    """A short resource blob's bytes (None if malformed: its use reports that)."""
    try:
        return bytes.fromhex(digits)
    except ValueError:
        return None


class _Scope:
    """SSA names of one function (isolated) with nested region scopes."""
    __slots__ = ("frames", "forward")

    def __init__(self):
        self.frames = [{}]
        self.forward = {}     # key "name#i" -> (placeholder Value, token)


class Parser(OpFormsMixin, SdyFormsMixin, AttrParserMixin):
    """Recursive-descent parser over a pull lexer (see module docstring)."""

    def __init__(self, text, filename: str = "<input>"):
        if not isinstance(text, Source):
            try:
                text = read_source(text)
            except NotUtf8Error as e:
                raise ParseError(str(e), e.line, e.column, filename) from None
        src, text = text, text.text
        self.resources = {}          # blob name -> bytes (4 alignment bytes, then data)
        if "{-#" in text:
            def blank(m):
                for b in _BLOB.finditer(m.group(1)):
                    raw = src.blobs.get(m.start(1) + b.start(2))
                    if raw is None and b.group(3) is not None:
                        raw = _small_hex(b.group(3))
                    self.resources[b.group(1)] = raw if raw is not None else b.group(3)
                return re.sub(r"[^\n]", " ", m.group(0))
            text = _RESOURCES.sub(blank, text)
        self.blobs = src.blobs
        self.filename = filename
        self.lex = Lexer(text, filename, src)
        self.prev_end = 0
        self.tok = self.lex.next()
        self.attr_aliases = {}
        self.type_aliases = {}
        self.scope = _Scope()        # top-level ops; functions get their own
        self.depth = 0
        self.attr_locs = None        # the op being parsed: attribute -> Location

    # -- token helpers --
    def advance(self):
        t = self.tok
        self.prev_end = t.end
        self.tok = self.lex.next()
        return t

    def accept(self, text: str) -> bool:
        if self.tok.text == text and self.tok.kind in ("punct", "ident"):
            self.advance()
            return True
        return False

    def expect(self, text: str, context: str = "", alt: str | None = None):
        t = self.tok
        if t.text == text and t.kind in ("punct", "ident"):
            return self.advance()
        want = f"{alt} or '{text}'" if alt else f"'{text}'"
        got = "end of input" if t.kind == "eof" else f"'{t.text}'"
        raise self.error(f"expected {want} {context}".rstrip() + f", got {got}", self.wrong_token_pos(t))

    def wrong_token_pos(self, t) -> int:
        """Where a missing token is reported: as MLIR does, at the end of the
        previous token when the current one is on a later line (or at EOF)."""
        if t.kind == "eof" or self.lex.text.count("\n", self.prev_end, t.pos):
            return self.prev_end
        return t.pos

    def error(self, message: str, tok) -> ParseError:
        pos = tok if isinstance(tok, int) else tok.pos
        return self.lex.error(message, pos)

    def location(self, tok) -> Location:
        line, col = self.lex.line_col(tok.pos)
        return Location(line, col, self.filename)

    def save(self):
        return (self.lex.pos, self.tok, self.prev_end, self.depth)

    def restore(self, state):
        self.lex.pos, self.tok, self.prev_end, self.depth = state

    def reset(self, pos: int):
        """Continue lexing at ``pos`` (after a raw scan)."""
        self.prev_end = pos
        self.lex.pos = pos
        self.tok = self.lex.next()

    def enter(self, tok):
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise self.error(f"regions or attributes nested deeper than {MAX_DEPTH} levels", tok)

    # -- top level --
    def parse_top_level(self) -> Module:
        module = None
        loose = Module(location=self.location(self.tok))     # where a bare module starts
        while self.tok.kind != "eof":
            t = self.tok
            if t.kind in ("hash", "bang") and self._alias_definition():
                continue
            if t.text == "module" and t.kind == "ident":
                if module is not None or loose.body.operations:
                    raise self.error("more than one module in the input "
                                     "(split it on '// -----' first)", t)
                module = self.parse_module_op()
                continue
            op = self.parse_operation()
            if module is not None:
                raise self.error("operation after the module", t)
            if op.name == "builtin.module" and not loose.body.operations:
                module = self._module_from_generic(op)
                continue
            loose.body.append(op)
        self.check_forward_refs()
        if module is None:
            module = loose
            module.location = Location(1, 1, self.filename)
        return module

    def _alias_definition(self) -> bool:
        t = self.tok
        save = self.save()
        self.advance()
        if self.tok.text != "=":
            self.restore(save)
            return False
        self.advance()
        if t.kind == "bang":
            self.type_aliases[t.text] = self.parse_type()
        elif not self.lex.skipped_loc:          # '#loc = loc(...)' is dropped
            self.attr_aliases[t.text] = self.parse_attribute()
        return True

    @staticmethod
    def _module_from_generic(op) -> Module:
        attrs = dict(op.attributes)
        name = attrs.pop("sym_name", None)
        module = Module(name.value if name is not None else None, attrs, op.location)
        if op.regions and op.regions[0].blocks:
            for inner in list(op.regions[0].blocks[0].operations):
                module.body.append(inner)
        return module

    def parse_module_op(self) -> Module:
        t = self.advance()
        name = None
        if self.tok.kind == "sym":
            name = self.symbol_name(self.advance())
        attrs = {}
        if self.accept("attributes"):
            attrs = self.parse_dict().entries
        module = Module(name, attrs, self.location(t))
        self.expect("{", "to start the module body")
        while not self.accept("}"):
            if self.tok.kind == "eof":
                raise self.error("expected '}' to close the module", self.tok)
            module.body.append(self.parse_operation())
        return module

    # -- SSA names --
    def define(self, name_tok, values: list):
        frames = self.scope.frames
        key = name_tok.text[1:]
        for f in frames:
            if key in f:
                raise self.error(f"redefinition of SSA value %{key}", name_tok)
        frames[-1][key] = values
        fwd = self.scope.forward
        if fwd:
            for i, v in enumerate(values):
                ph = fwd.pop(f"{key}#{i}", None)
                if ph is not None:
                    if ph[0].type is not None and ph[0].type != v.type:
                        raise self.error(f"%{key} defined with type {v.type} but used as "
                                         f"{ph[0].type}", name_tok)
                    ph[0].replace_all_uses_with(v)

    def use(self, tok) -> Value:
        """The value a ``%name`` / ``%name#i`` token refers to."""
        text = tok.text[1:]
        name, _, idx = text.partition("#")
        for f in reversed(self.scope.frames):
            vals = f.get(name)
            if vals is not None:
                if idx:
                    i = int(idx)
                    if i >= len(vals):
                        raise self.error(f"%{name} has only {len(vals)} results", tok)
                    return vals[i]
                if len(vals) != 1:
                    raise self.error(f"%{name} has {len(vals)} results; write %{name}#N", tok)
                return vals[0]
        key = f"{name}#{idx or 0}"
        ph = self.scope.forward.get(key)
        if ph is None:
            ph = (Value(None, None, 0, name), tok)
            self.scope.forward[key] = ph
        return ph[0]

    def check_forward_refs(self):
        if self.scope.forward:
            v, tok = min(self.scope.forward.values(), key=lambda p: p[1].pos)
            raise self.error(f"use of undefined value {tok.text}", tok)

    # -- operations --
    def parse_operation(self) -> Operation:
        first = self.tok
        self.enter(first)
        results = []          # (token, count)
        if first.kind == "value":
            while True:
                t = self.tok
                if t.kind != "value" or "#" in t.text:
                    raise self.error(f"expected a result name, got '{t.text}'", t)
                self.advance()
                count = 1
                if self.accept(":"):
                    c = self.tok
                    if c.kind != "int":
                        raise self.error("expected a result count after ':'", c)
                    count = int(self.advance().text)
                results.append((t, count))
                if not self.accept(","):
                    break
            self.expect("=", "after the result names", alt="','")
        loc = self.location(first)
        t = self.tok
        nres = sum(c for _, c in results) if results else None
        outer, self.attr_locs = self.attr_locs, {}
        try:
            if t.kind == "string":
                op = self.parse_generic_op(loc)
            elif t.kind == "ident":
                op = self.parse_pretty_op(loc, nres)
            else:
                raise self.error(f"expected an operation name, got '{t.text}'", t)
        finally:
            self.attr_locs = outer
        if results:
            if nres != len(op.results):
                raise self.error(f"'{op.name}' has {len(op.results)} results but {nres} "
                                 "names were given", first)
            i = 0
            for tok, count in results:
                vals = op.results[i:i + count]
                for j, v in enumerate(vals):
                    v.name = tok.text[1:] if count == 1 else f"{tok.text[1:]}#{j}"
                self.define(tok, vals)
                i += count
        self.depth -= 1
        return op

    def resolve_operands(self, toks, types=None) -> list:
        vals = [self.use(t) for t in toks]
        if types is not None and len(types) == len(vals):
            for v, ty in zip(vals, types):
                if v.owner is None and v.type is None:
                    v.type = ty
        return vals

    def parse_operand_list(self, close=")") -> list:
        toks = []
        if self.tok.text != close:
            while True:
                t = self.tok
                if t.kind != "value":
                    raise self.error(f"expected an operand (%name), got '{t.text}'", t)
                toks.append(self.advance())
                if not self.accept(","):
                    break
        self.expect(close, "after the operand list", alt="','")
        return toks

    def parse_generic_op(self, loc) -> Operation:
        name_tok = self.advance()
        return self.parse_generic_body(name_tok.text[1:-1], loc)

    def parse_generic_body(self, name, loc) -> Operation:
        """After the op name: ``(operands) <{props}> (regions) {attrs} : type``
        (also after a bare name, e.g. ``stablehlo.constant() {value = ...}``)."""
        self.expect("(", f"to start the operands of '{name}'")
        toks = self.parse_operand_list()
        if self.tok.text == "[":
            raise self.error("block successors are not supported", self.tok)
        attrs = {}
        if self.tok.text == "<" and self.lex.text.startswith("{", self.lex.skip_ws()):
            self.advance()
            attrs.update(self.parse_dict().entries)
            self.expect(">", "to close the properties '<{...}>'")
        regions = []
        if self.accept("("):
            while True:
                if name in _ISOLATED:
                    regions.append(self.isolated(self.parse_region))
                else:
                    regions.append(self.parse_region())
                if not self.accept(","):
                    break
            self.expect(")", "after the regions", alt="','")
        if self.tok.text == "{":
            attrs.update(self.parse_dict().entries)
        fty = self.parse_trailing_function_type(name, toks)
        operands = self.resolve_operands(toks, fty.inputs)
        return self.make_op(name, operands, fty.results, attrs, regions, loc)

    def parse_trailing_function_type(self, name, toks=None) -> FunctionType:
        """``: (operand types) -> result types`` after an op; with ``toks``, the
        operand count must match the type's."""
        self.expect(":", f"and the function type of '{name}'")
        ty_tok = self.tok
        fty = self.parse_type()
        if not isinstance(fty, FunctionType):
            raise self.error(f"expected a function type for '{name}', got {fty}", ty_tok)
        if toks is not None and len(fty.inputs) != len(toks):
            raise self.error(f"'{name}' has {len(toks)} operands but its type lists "
                             f"{len(fty.inputs)}", ty_tok)
        return fty

    def make_op(self, name, operands, result_types, attrs, regions, loc) -> Operation:
        vis = attrs.get("sym_visibility")
        if name == "func.func" and isinstance(vis, A.StringAttr) and vis.value == "public":
            del attrs["sym_visibility"]
        op = Operation(name, operands, result_types, attrs, regions, loc)
        if self.attr_locs:
            op.attr_locations = {k: v for k, v in self.attr_locs.items() if k in attrs}
        return op

    def parse_attr_dict(self) -> dict:
        """The ``attr-dict`` of a pretty form whose MLIR parser is generated
        from a declarative assembly format: MLIR checks the constraints of the
        inherent attributes written there at the dictionary, so the
        attributes remember where it is (``Operation.attr_locations``)."""
        where = self.location(self.tok)
        entries = self.parse_dict().entries
        if self.attr_locs is not None:
            self.attr_locs.update({k: where for k in entries})
        return entries

    # -- regions and blocks --
    def parse_region(self, entry_args=None) -> Region:
        """``{ ops }`` or ``{ ^bb0(%a: T): ops ^bb1: ... }``.

        ``entry_args``: [(name token, type)] for regions whose pretty form
        declares the entry arguments outside the braces."""
        open_tok = self.tok
        self.expect("{", "to start a region")
        self.enter(open_tok)
        frames = self.scope.frames
        frames.append({})
        region = Region()
        if entry_args is not None or self.tok.kind != "caret":
            if entry_args is None and self.tok.text == "}":
                self.advance()
                frames.pop()
                self.depth -= 1
                return region
            args = entry_args or []
            block = Block([ty for _, ty in args])
            for (tok, _), v in zip(args, block.arguments):
                v.name = tok.text[1:]
                self.define(tok, [v])
            region.append(block)
            self.parse_block_body(block)
        while self.tok.kind == "caret":
            label = self.advance()
            args = self.parse_typed_args("block argument") if self.accept("(") else []
            arg_toks, arg_types = [a for a, _ in args], [t for _, t in args]
            self.expect(":", f"after block label {label.text}")
            block = Block(arg_types)
            for a, v in zip(arg_toks, block.arguments):
                v.name = a.text[1:]
                self.define(a, [v])
            region.append(block)
            self.parse_block_body(block)
        self.expect("}", "to close the region")
        frames.pop()
        self.depth -= 1
        return region

    def parse_typed_args(self, what: str) -> list:
        """``%a: T, ...)`` after an opening ``(``: [(name token, type)]."""
        out = []
        if not self.accept(")"):
            while True:
                a = self.tok
                if a.kind != "value":
                    raise self.error(f"expected a {what}, got '{a.text}'", a)
                self.advance()
                self.expect(":", f"and a type for {what} {a.text}")
                out.append((a, self.parse_type()))
                if not self.accept(","):
                    break
            self.expect(")", f"after the {what}s", alt="','")
        return out

    def parse_block_body(self, block: Block):
        while True:
            k = self.tok.kind
            if self.tok.text == "}" or k == "caret":
                return
            if k == "eof":
                raise self.error("expected '}' to close the region", self.tok)
            block.append(self.parse_operation())

    def isolated(self, fn, *args):
        """Run ``fn`` with a fresh SSA scope (functions are isolated)."""
        outer = self.scope
        self.scope = _Scope()
        try:
            result = fn(*args)
            self.check_forward_refs()
            return result
        finally:
            self.scope = outer

    @staticmethod
    def attr_array_of_dicts(dicts) -> A.ArrayAttr | None:
        if not any(d for d in dicts):
            return None
        return A.ArrayAttr(tuple(A.DictAttr(d) for d in dicts))
