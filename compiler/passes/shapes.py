"""Symbolic shape analysis: a ``Dim`` for every ``?`` dim of a function.

Walks a function in program order, dispatch and control-flow regions
included, and gives each dynamic dim of each value an integer expression
over *symbols*.  A symbol has a host definition the VM code evaluates:
``("arg", j, k)`` is dim k of argument j (``hal.buffer_view.dim``),
``("host", v, k)`` element k of host value v (a shape operand).  Op rules
derive result dims from operand dims (concatenate sums, slices divide,
reductions drop, contractions pick); elementwise ops *unify*: a symbol is
bound to an int or an earlier expression, so later users see one name.
Elements of shape tensors are traced through the host ops that build them
(constants, get_dimension_size, convert, reshape, concatenate, arithmetic),
so a shape computed from other dims needs no host value at all.
"""
from __future__ import annotations

import numpy as np

from ..dialects.dims import dims_generic, tensor
from ..dialects.registry import ALIAS, OPS, ORDER_PICK, has
from ..errors import UnsupportedOpError
from ..ir.attributes import DenseElementsAttr, ints
from ..ir.symbolic import Dim, cdiv, make, shape_product
from ..ir.types import TensorType

# Operand positions that only carry shapes / window parameters (read on the
# host): each op's declared ``shape_operands``.
SHAPE_OPERANDS = {n: d.shape_operands for n, d in OPS.items() if d.shape_operands}


def shape_operands(op) -> tuple:
    if op.name == "stablehlo.custom_call" and is_shape_assertion(op):
        return tuple(range(len(op.operands)))
    tagged = op.attributes.get("tvm.shape_operands")     # passes/dynamism.py's host operands
    if tagged is not None:
        return tuple(ints(tagged))
    return SHAPE_OPERANDS.get(op.name, ())


def is_shape_assertion(op) -> bool:
    t = op.attributes.get("call_target_name")
    return op.name == "stablehlo.custom_call" and getattr(t, "value", t) == "shape_assertion"


def has_dynamic(func) -> bool:
    for op in func.walk():
        for v in op.results:
            if isinstance(v.type, TensorType) and not v.type.is_static:
                return True
        for r in op.regions:
            for b in r.blocks:
                if any(isinstance(a.type, TensorType) and not a.type.is_static for a in b.arguments):
                    return True
    return False


class Shapes:
    """The analysis result: ``dims(v)`` and symbol definitions."""

    def __init__(self, func):
        self.func = func
        self.raw: dict = {}         # Value -> tuple of int | Dim (unresolved)
        self.binding: dict = {}     # symbol -> int | Dim it equals
        self.defs: dict = {}        # root symbol -> ("arg", j, k) | ("host", value, k)
        self.params: dict = {}      # op -> {name: tuple of int | Dim} (host scalars kernels read)
        self.counter = 0
        self._elem_cache: dict = {}
        block = func.regions[0].blocks[0]
        for j, a in enumerate(block.arguments):
            if isinstance(a.type, TensorType):
                self.raw[a] = tuple(self.new(("arg", j, k)) if d is None else d
                                    for k, d in enumerate(a.type.shape))
        self.run_block(block)

    # -- symbols ---------------------------------------------------------------------
    def new(self, definition) -> Dim:
        s = Dim.symbol(self.counter)
        self.counter += 1
        self.defs[s] = definition
        return s

    def resolve(self, d):
        if not isinstance(d, Dim):
            return d
        return d.substitute(self._resolve_symbol)

    def _resolve_symbol(self, s):
        b = self.binding.get(s)
        if b is None:
            return s
        r = self.resolve(b)
        self.binding[s] = r
        return r

    def dims(self, v) -> tuple:
        raw = self.raw.get(v)
        if raw is None:
            t = v.type
            if isinstance(t, TensorType) and t.is_static:
                return tuple(t.shape)
            raise UnsupportedOpError("shape analysis", f"no dims known for {v}")
        return tuple(self.resolve(d) for d in raw)

    def unify(self, a, b) -> None:
        a, b = self.resolve(a), self.resolve(b)
        if a == b or (not isinstance(a, Dim) and not isinstance(b, Dim)):
            return
        for x, y in ((a, b), (b, a)):       # an underivable dim takes any value
            if isinstance(x, Dim) and x.is_symbol and self.defs[x][0] == "unknown" \
                    and x not in (y.symbols() if isinstance(y, Dim) else ()):
                self.binding[x] = y
                return
        for x, y in ((a, b), (b, a)):       # bind the later symbol to the earlier value
            if isinstance(x, Dim) and x.is_symbol and self._earlier(y, x):
                self.binding[x] = y
                return

    @staticmethod
    def _earlier(value, sym) -> bool:
        if not isinstance(value, Dim):
            return True
        n = sym.args[0]
        return all(s.args[0] < n for s in value.symbols())

    def symbols_of(self, exprs) -> set:
        out = set()
        for e in exprs:
            e = self.resolve(e)
            if isinstance(e, Dim):
                out |= e.symbols()
        return out

    # -- host elements of shape tensors ----------------------------------------------------
    def element(self, v, k):
        """Element ``k`` (row-major) of integer tensor ``v`` as int | Dim."""
        key = (v, k)
        if key not in self._elem_cache:
            self._elem_cache[key] = self._trace(v, k)
        return self._elem_cache[key]

    def elements(self, v) -> tuple:
        n = v.type.num_elements if v.type.rank else 1
        return tuple(self.element(v, k) for k in range(n))

    def _trace(self, v, k):
        op = v.defining_op
        t = v.type
        name = op.name if op is not None else None
        if name == "stablehlo.constant" and isinstance(op.attr("value"), DenseElementsAttr):
            arr = np.asarray(op.attr("value").array).reshape(-1)
            return int(arr[0] if arr.size == 1 else arr[k])
        if name == "stablehlo.get_dimension_size":
            return self.dims(op.operands[0])[ints(op.attr("dimension"))[0]]
        if (name == "stablehlo.convert" or has(name, ALIAS)) and \
                op.operands[0].type.element.startswith(("i", "ui", "si")) and \
                t.element.startswith(("i", "ui", "si")):
            return self.element(op.operands[0], k)
        if name == "stablehlo.broadcast_in_dim" and op.operands[0].type.num_elements == 1:
            return self.element(op.operands[0], 0)
        if name == "stablehlo.concatenate" and t.rank == 1:
            for x in op.operands:
                n = x.type.shape[0]
                if k < n:
                    return self.element(x, k)
                k -= n
        if name == "stablehlo.slice" and t.rank == 1:
            start = ints(op.attr("start_indices"))[0]
            stride = (ints(op.attr("strides")) or (1,))[0]
            return self.element(op.operands[0], start + k * stride)
        sym = OPS[name].c_infix if name in OPS else None
        if sym is not None and sym in "+-*/%" and all(x.type.shape == t.shape for x in op.operands):
            a, b = (self.element(x, k) for x in op.operands)
            if isinstance(a, int) and isinstance(b, int) and name == "stablehlo.divide":
                return int(np.trunc(a / b)) if b else -1
            return make(sym, a, b)
        if has(name, ORDER_PICK):
            a, b = (self.element(x, k) for x in op.operands)
            return make(name[10:13], a, b)
        return self.new(("host", v, k))

    # -- the walk ------------------------------------------------------------------------------
    def run_block(self, block) -> None:
        for op in block.operations:
            self.run_op(op)

    def run_op(self, op) -> None:
        rule = RULES.get(op.name, dims_generic)
        inferred = rule(self, op)
        for r, inf in zip(op.results, inferred or [None] * len(op.results)):
            if not isinstance(r.type, TensorType):
                continue
            dims = []
            for k, declared in enumerate(r.type.shape):
                got = inf[k] if inf is not None and k < len(inf) else None
                if declared is not None:
                    if isinstance(got, Dim):
                        self.unify(got, declared)
                    dims.append(declared)
                elif got is not None:
                    dims.append(got)
                else:       # bound later by unification, or an error where it is used
                    dims.append(self.new(("unknown", op, k)))
            self.raw[r] = tuple(dims)

    def bind_block_args(self, block, dims_list) -> None:
        for a, dims in zip(block.arguments, dims_list):
            if isinstance(a.type, TensorType):
                self.raw[a] = tuple(dims)


def bind_dispatch(dispatch, S: Shapes) -> None:
    """Give the values in ``dispatch``'s region their symbolic dims (so kernel
    emitters see C expressions), attach host scalars to ops that read them
    (``tvm.params``) and record the symbols the kernel takes (``tvm.dims``)."""
    syms = set()
    values = []
    for op in dispatch.walk():
        if op is not dispatch:
            values += op.results
        for region in op.regions:
            for b in region.blocks:
                values += b.arguments
    for v in values:
        t = v.type
        if isinstance(t, TensorType) and not t.is_static:
            dims = S.dims(v)
            v.type = TensorType(dims, t.element, t.encoding)
            syms |= S.symbols_of(dims)
    for op in dispatch.walk():
        p = S.params.get(op)
        if p:
            resolved = {k: tuple(S.resolve(x) for x in vals) for k, vals in p.items()}
            op.attributes["tvm.params"] = resolved
            for vals in resolved.values():
                syms |= S.symbols_of(vals)
    if syms:
        dispatch.attributes["tvm.dims"] = tuple(sorted(syms, key=lambda x: x.args[0]))



def _dispatch_dims(S, op):
    """tvm.dispatch (ours): its region's yielded dims."""
    b = op.regions[0].blocks[0]
    S.bind_block_args(b, [S.dims(v) if tensor(v) else () for v in op.operands])
    S.run_block(b)
    return [S.dims(v) for v in b.terminator.operands]


# each op's result-dims rule: its declaration's ``shape`` (dialects/dims.py)
RULES = {d.name: d.shape for d in OPS.values() if d.shape is not None}
RULES["tvm.dispatch"] = _dispatch_dims

_REGISTRY: dict = {}


def analyze(func) -> Shapes:
    """Analyze ``func`` (cached until ``forget``): codegen and host code share one result."""
    hit = _REGISTRY.get(id(func))
    if hit is not None and hit.func is func:
        return hit
    s = Shapes(func)
    _REGISTRY[id(func)] = s
    return s


def lookup(func):
    hit = _REGISTRY.get(id(func))
    return hit if hit is not None and hit.func is func else None


def forget() -> None:
    _REGISTRY.clear()


def byte_size_expr(dims, itemsize: int):
    return make("*", shape_product(dims), itemsize)


__all__ = ["Shapes", "analyze", "lookup", "forget", "shape_operands", "is_shape_assertion",
           "has_dynamic", "cdiv", "SHAPE_OPERANDS"]
