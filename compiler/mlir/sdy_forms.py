"""Pretty forms of the Shardy ops JAX writes into sharded exports.

- ``sdy.mesh @mesh = <["x"=2]> {attrs}``: a module-level mesh declaration
  (``sym_name``, ``mesh`` = its text);
- ``sdy.manual_computation(%a, %b) in_shardings=[<@mesh, [...]>, ...]
  out_shardings=[...] manual_axes={"x"} (%l: T, ...) { ... sdy.return ... }
  : (global types) -> (global types)`` (a ``shard_map`` body; shardings are
  kept as their text, ``manual_axes`` as strings);
- ``sdy.sharding_constraint %x <@mesh, [...]> : T``.
"""
from __future__ import annotations

from ..ir import attributes as A
from .lexer import unescape


class SdyFormsMixin:
    def parse_sdy_mesh(self, name, name_tok, loc, nres):
        sym = self.tok
        if sym.kind != "sym":
            raise self.error(f"expected the mesh's @name after '{name}'", sym)
        self.advance()
        self.expect("=", f"after the name of '{name}'")
        if self.tok.kind == "hash":            # an aliased or spelled-out #sdy.mesh<...>
            mesh = self.parse_attribute()
            text = getattr(mesh, "text", None)
            if text is None:
                raise self.error(f"expected a mesh <[...]> in '{name}'", sym)
        else:
            text = self.raw_angle()
        attrs = {"sym_name": A.StringAttr(self.symbol_name(sym)), "mesh": A.OpaqueAttr(text)}
        if self.tok.text == "{":
            attrs.update(self.parse_dict().entries)
        return self.make_op(name, [], [], attrs, [], loc)

    def _sdy_keyword(self, key: str, name: str) -> None:
        """``key =`` of a Shardy op's pretty form."""
        t = self.tok
        if not (t.kind == "ident" and t.text == key):
            raise self.error(f"expected '{key}=' in '{name}', got '{t.text}'", self.wrong_token_pos(t))
        self.advance()
        self.expect("=", f"after '{key}'")

    def _sdy_sharding_list(self, key: str, name: str) -> A.ArrayAttr:
        self._sdy_keyword(key, name)
        self.expect("[", f"to start '{key}'")
        out = []
        if not self.accept("]"):
            while True:
                if self.tok.kind == "hash":
                    out.append(self.parse_attribute())
                else:
                    out.append(A.OpaqueAttr(self.raw_angle()))
                if not self.accept(","):
                    break
            self.expect("]", f"to close '{key}'", alt="','")
        return A.ArrayAttr(tuple(out))

    def parse_sdy_manual_computation(self, name, name_tok, loc, nres):
        self.expect("(", f"to start the operands of '{name}'")
        toks = self.parse_operand_list()
        attrs = {"in_shardings": self._sdy_sharding_list("in_shardings", name),
                 "out_shardings": self._sdy_sharding_list("out_shardings", name)}
        self._sdy_keyword("manual_axes", name)
        self.expect("{", "to start 'manual_axes'")
        axes = []
        if not self.accept("}"):
            while True:
                a = self.tok
                if a.kind != "string":
                    raise self.error(f"expected an axis name string in 'manual_axes', got "
                                     f"'{a.text}'", a)
                axes.append(A.StringAttr(unescape(self.advance().text[1:-1])))
                if not self.accept(","):
                    break
            self.expect("}", "to close 'manual_axes'", alt="','")
        attrs["manual_axes"] = A.ArrayAttr(tuple(axes))
        self.expect("(", f"to start the body arguments of '{name}'")
        args = self.parse_typed_args("body argument")
        region = self.parse_region(entry_args=args)
        if self.tok.text == "{":
            attrs.update(self.parse_dict().entries)
        fty = self.parse_trailing_function_type(name, toks)
        operands = self.resolve_operands(toks, fty.inputs)
        return self.make_op(name, operands, fty.results, attrs, [region], loc)

    def parse_sdy_sharding_constraint(self, name, name_tok, loc, nres):
        t = self.tok
        if t.kind != "value":
            raise self.error(f"expected the operand of '{name}', got '{t.text}'", t)
        self.advance()
        sharding = self.parse_attribute() if self.tok.kind == "hash" else A.OpaqueAttr(self.raw_angle())
        attrs = {"sharding": sharding}
        if self.tok.text == "{":
            attrs.update(self.parse_dict().entries)
        self.expect(":", f"and the type of '{name}'")
        ty = self.parse_type()
        return self.make_op(name, self.resolve_operands([t], [ty]), [ty], attrs, [], loc)
