"""Pretty forms of ops that carry regions: func.func, reduce, while,
convolution (no region, but a syntax of its own)."""
from __future__ import annotations

import numpy as np

from ..dialects.registry import names
from ..ir import attributes as A
from ..ir.core import Block, Operation, Region
from ..ir.types import FunctionType, TensorType

# ops ``reduce ... applies OP`` may name (MLIR prints only these in that form)
_COMMUTATIVE_BINARY = names(commutative=True)

_WINDOW_KEYS = {"stride": "window_strides", "pad": "padding", "lhs_dilate": "lhs_dilation",
                "rhs_dilate": "rhs_dilation", "reverse": "window_reversal"}


class RegionFormsMixin:
    """Parsers for func.func, stablehlo.reduce/while/convolution."""

    # -- func.func --
    def parse_func(self, name, name_tok, loc, nres):
        vis = None
        if self.tok.kind == "ident" and self.tok.text in ("public", "private", "nested"):
            vis = self.advance().text
        sym = self.tok
        if sym.kind != "sym":
            raise self.error(f"expected the function name (@name), got '{sym.text}'", sym)
        fname = self.symbol_name(self.advance())
        self.expect("(", f"to start the arguments of @{fname}")
        entry, arg_types, arg_attrs = [], [], []
        if not self.accept(")"):
            while True:
                a = self.tok
                if a.kind == "value":
                    self.advance()
                    self.expect(":", f"and a type for argument {a.text}")
                    ty = self.parse_type()
                    entry.append((a, ty))
                else:
                    ty = self.parse_type()
                arg_types.append(ty)
                arg_attrs.append(self.parse_dict().entries if self.tok.text == "{" else {})
                if not self.accept(","):
                    break
            self.expect(")", f"after the arguments of @{fname}", alt="','")
        if entry and len(entry) != len(arg_types):
            raise self.error(f"either all or no arguments of @{fname} must be named", sym)
        res_types, res_attrs = [], []
        if self.accept("->"):
            if self.tok.text == "(" and not self._is_function_type():
                self.advance()
                if not self.accept(")"):
                    while True:
                        res_types.append(self.parse_type())
                        res_attrs.append(self.parse_dict().entries if self.tok.text == "{" else {})
                        if not self.accept(","):
                            break
                    self.expect(")", f"after the results of @{fname}", alt="','")
            else:
                res_types.append(self.parse_type())
                res_attrs.append({})
        attrs = {}
        if self.accept("attributes"):
            attrs.update(self.parse_dict().entries)
        attrs["sym_name"] = A.StringAttr(fname)
        attrs["function_type"] = A.TypeAttr(FunctionType(tuple(arg_types), tuple(res_types)))
        if vis is not None and vis != "public":
            attrs["sym_visibility"] = A.StringAttr(vis)
        aa = self.attr_array_of_dicts(arg_attrs)
        if aa is not None:
            attrs["arg_attrs"] = aa
        ra = self.attr_array_of_dicts(res_attrs)
        if ra is not None:
            attrs["res_attrs"] = ra
        regions = []
        if self.tok.text == "{":
            if not entry and arg_types:
                raise self.error(f"the arguments of @{fname} need names (%arg0: ...) "
                                 "when it has a body", sym)
            regions.append(self.isolated(self.parse_region, entry))
        else:
            regions.append(Region())
        return self.make_op(name, (), (), attrs, regions, loc)

    def _is_function_type(self) -> bool:
        save = self.save()
        try:
            self.parse_paren_types()
            return self.tok.text == "->"
        except Exception:
            return False
        finally:
            self.restore(save)

    # -- stablehlo.reduce --
    def parse_reduce(self, name, name_tok, loc, nres):
        inputs, inits = [], []
        self.expect("(", "to start the reduce operands")
        while True:
            x = self.tok
            if x.kind != "value":
                raise self.error(f"expected a reduce input, got '{x.text}'", x)
            self.advance()
            self.expect("init", "and 'init:' in reduce operands")
            self.expect(":", "after 'init'")
            y = self.tok
            if y.kind != "value":
                raise self.error(f"expected an init value, got '{y.text}'", y)
            self.advance()
            self.expect(")", "after the reduce operand pair")
            inputs.append(x)
            inits.append(y)
            if not self.accept(","):
                break
            self.expect("(", "to start the next reduce operand pair")
        applies = None
        if self.accept("applies"):
            applies = self.tok
            if applies.kind != "ident":
                raise self.error(f"expected an op name after 'applies', got '{applies.text}'", applies)
            if applies.text not in _COMMUTATIVE_BINARY:
                raise self.error(f"expected the inner-op to be a commutative binary-op from the stablehlo "
                                 f"dialect, with zero region, producing single result; got "
                                 f"'{applies.text}'", applies)
            self.advance()
        self.expect("across", "in reduce (reduce(...) across dimensions = [...])")
        self.expect("dimensions", "after 'across'")
        self.expect("=", "after 'dimensions'")
        attrs = {"dimensions": A.DenseArrayAttr("i64", tuple(self.parse_int_list("dims list")))}
        if self.tok.text == "{":
            attrs.update(self.parse_dict().entries)
        self.expect(":", "and the type of reduce")
        ty_tok = self.tok
        fty = self.parse_type()
        if not isinstance(fty, FunctionType):
            raise self.error(f"expected a function type for reduce, got {fty}", ty_tok)
        toks = inputs + inits
        if len(fty.inputs) != len(toks):
            raise self.error(f"reduce has {len(toks)} operands but its type lists "
                             f"{len(fty.inputs)}", ty_tok)
        operands = self.resolve_operands(toks, fty.inputs)
        n = len(inputs)
        if applies is not None:
            if n != 1:
                raise self.error("'applies' needs exactly one input", applies)
            ety = operands[1].type
            block = Block([ety, ety])
            body = Operation(applies.text, block.arguments, [ety], location=loc)
            block.append(body)
            block.append(Operation("stablehlo.return", body.results, location=loc))
            region = Region([block])
        else:
            self.expect("reducer", "or 'applies' to give the reduce body")
            pairs = []
            while self.tok.text == "(":
                self.advance()
                pair = []
                for _ in range(2):
                    a = self.tok
                    if a.kind != "value":
                        raise self.error(f"expected a reducer argument, got '{a.text}'", a)
                    self.advance()
                    self.expect(":", f"and a type for {a.text}")
                    pair.append((a, self.parse_type()))
                    if not self.accept(","):
                        break
                self.expect(")", "after the reducer argument pair")
                if len(pair) != 2:
                    raise self.error("reducer arguments come in pairs", self.tok)
                pairs.append(pair)
            if len(pairs) != n:
                raise self.error(f"reduce has {n} inputs but {len(pairs)} reducer pairs", self.tok)
            args = [p[0] for p in pairs] + [p[1] for p in pairs]
            region = self.parse_region(args)
        return self.make_op(name, operands, fty.results, attrs, [region], loc)

    # -- stablehlo.while --
    def parse_while(self, name, name_tok, loc, nres):
        self.expect("(", "to start the while operands")
        names, toks = [], []
        if not self.accept(")"):
            while True:
                a = self.tok
                if a.kind != "value":
                    raise self.error(f"expected an iteration argument, got '{a.text}'", a)
                self.advance()
                self.expect("=", f"after {a.text} in while")
                v = self.tok
                if v.kind != "value":
                    raise self.error(f"expected an initial value, got '{v.text}'", v)
                self.advance()
                names.append(a)
                toks.append(v)
                if not self.accept(","):
                    break
            self.expect(")", "after the while operands", alt="','")
        types = []
        if self.accept(":"):
            types = [self.parse_type()]
            while self.accept(","):
                types.append(self.parse_type())
        if len(types) != len(toks):
            raise self.error(f"while has {len(toks)} operands but {len(types)} types", self.tok)
        attrs = {}
        if self.accept("attributes"):
            attrs.update(self.parse_dict().entries)
        operands = self.resolve_operands(toks, types)
        self.expect("cond", "to start the while condition")
        cond = self.parse_region(list(zip(names, types)))
        self.expect("do", "to start the while body")
        body = self.parse_region(list(zip(names, types)))
        return self.make_op(name, operands, types, attrs, [cond, body], loc)

    # -- chlo.scan --
    def parse_scan(self, name, name_tok, loc, nres):
        """``chlo.scan(%in, ..) inits(%c, ..) dimension=N [attributes {..}]
        { ^bb0(..): .. } : (T, ..) -> (R, ..)``: the same op as the generic
        form (operands inputs then inits, ``dimension`` i64,
        ``operandSegmentSizes``, other attributes as given, one region)."""
        self.expect("(", f"to start the inputs of '{name}'")
        inputs = self.parse_operand_list()
        inits = []
        if self.tok.kind == "ident" and self.tok.text == "inits":
            self.advance()
            self.expect("(", f"to start the inits of '{name}'")
            inits = self.parse_operand_list()
        attrs = {}
        while self.tok.kind == "ident" and self._next_is("="):
            key = self.advance()
            self.advance()
            t = self.tok
            if key.text == "dimension" and t.kind == "int":
                attrs["dimension"] = A.IntAttr(int(self.advance().text), "i64")
            else:
                attrs[key.text] = self.parse_attribute()
            self.accept(",")
        if self.accept("attributes"):
            attrs.update(self.parse_dict().entries)
        if "dimension" not in attrs:
            raise self.error(f"expected 'dimension=N' in '{name}'", self.tok)
        region = self.parse_region()
        if self.tok.text == "{":
            attrs.update(self.parse_dict().entries)
        toks = inputs + inits
        fty = self.parse_trailing_function_type(name, toks)
        attrs.setdefault("operandSegmentSizes", A.DenseArrayAttr("i32", (len(inputs), len(inits))))
        operands = self.resolve_operands(toks, fty.inputs)
        return self.make_op(name, operands, fty.results, attrs, [region], loc)

    # -- stablehlo.convolution --
    def parse_convolution(self, name, name_tok, loc, nres):
        self.expect("(", f"to start the operands of '{name}'")
        toks = self.parse_operand_list()
        attrs = {}
        while self.tok.kind == "ident" and self._next_is("="):
            key = self.advance()
            self.advance()
            if key.text == "dim_numbers":
                attrs["dimension_numbers"] = A.StructAttr("stablehlo.conv", self.parse_conv_dims())
            elif key.text == "window":
                self.parse_window(attrs)
            else:
                attrs[key.text] = self.parse_attribute()
            self.accept(",")
        if self.tok.text == "{":
            attrs.update(self.parse_attr_dict())
        self.expect(":", f"and the type of '{name}'")
        ty_tok = self.tok
        fty = self.parse_type()
        if not isinstance(fty, FunctionType):
            raise self.error(f"expected a function type for '{name}', got {fty}", ty_tok)
        operands = self.resolve_operands(toks, fty.inputs)
        return self.make_op(name, operands, fty.results, attrs, (), loc)

    def parse_window(self, attrs):
        self.expect("{", "to start the convolution window")
        seen = set()
        if not self.accept("}"):
            while True:
                key = self.tok
                attr = _WINDOW_KEYS.get(key.text)
                if attr is None:
                    raise self.error(f"unknown window field '{key.text}' (expected "
                                     f"{', '.join(_WINDOW_KEYS)})", key)
                if key.text in seen:
                    raise self.error(f"Unexpected keyword {key.text}: the window gives it twice", key)
                seen.add(key.text)
                self.advance()
                self.expect("=", f"after '{key.text}'")
                if key.text == "pad":
                    rows = []
                    self.expect("[", "to start the padding list")
                    if not self.accept("]"):
                        while True:
                            row = self.parse_int_list("padding pair")
                            if len(row) != 2:
                                raise self.error("each padding entry is [low, high]", key)
                            rows.append(row)
                            if not self.accept(","):
                                break
                        self.expect("]", "in padding list", alt="','")
                    arr = np.array(rows, dtype=np.int64).reshape(len(rows), 2)
                    attrs[attr] = A.DenseElementsAttr(TensorType((len(rows), 2), "i64"), arr)
                elif key.text == "reverse":
                    self.expect("[", "to start the reverse list")
                    vals = []
                    if not self.accept("]"):
                        while True:
                            v = self.advance()
                            if v.text not in ("true", "false", "0", "1"):
                                raise self.error(f"expected true or false, got '{v.text}'", v)
                            vals.append(v.text in ("true", "1"))
                            if not self.accept(","):
                                break
                        self.expect("]", "in reverse list", alt="','")
                    attrs[attr] = A.DenseArrayAttr("i1", tuple(vals))
                else:
                    attrs[attr] = A.DenseArrayAttr("i64", tuple(self.parse_int_list(f"{key.text} list")))
                if not self.accept(","):
                    break
            self.expect("}", "to close the convolution window", alt="','")
