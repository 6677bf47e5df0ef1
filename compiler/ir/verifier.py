"""Structural IR verifier: ``verify_module(module)``.

Checks SSA dominance (a use follows its definition in the block, or the
value comes from an enclosing scope; in multi-block regions any earlier
block of the region counts), terminators, func.return / func.call types
against the function types, and operand/result counts of common ops.
Raises ``CompileError`` naming the op and its location.
"""
from __future__ import annotations

from ..errors import CompileError
from .types import FunctionType

_UNARY = ("abs", "cbrt", "ceil", "convert", "cosine", "count_leading_zeros", "exponential",
          "exponential_minus_one", "floor", "imag", "is_finite", "log", "log_plus_one",
          "logistic", "negate", "not", "popcnt", "real", "round_nearest_afz",
          "round_nearest_even", "rsqrt", "sign", "sine", "sqrt", "tan", "tanh", "reshape",
          "transpose", "broadcast_in_dim", "reverse", "bitcast_convert", "reduce_precision",
          "get_dimension_size", "slice")
_BINARY = ("add", "and", "atan2", "complex", "compare", "divide", "maximum", "minimum",
           "multiply", "or", "power", "remainder", "shift_left", "shift_right_arithmetic",
           "shift_right_logical", "subtract", "xor", "dot", "dot_general", "pad")
# op -> (operand count or None for any, result count or None for any)
COUNTS = {"stablehlo." + n: (1, 1) for n in _UNARY}
COUNTS.update({"stablehlo." + n: (2, 1) for n in _BINARY})
COUNTS.update({"stablehlo.select": (3, 1), "stablehlo.clamp": (3, 1),
               "stablehlo.constant": (0, 1), "stablehlo.iota": (0, 1),
               "stablehlo.concatenate": (None, 1), "func.func": (0, 0)})
# ops whose region blocks must end with stablehlo.return
_STABLEHLO_REGION_OPS = frozenset("stablehlo." + n for n in (
    "reduce", "while", "if", "case", "sort", "scatter", "map", "reduce_window",
    "select_and_scatter", "all_reduce", "reduce_scatter"))


def _fail(op, message: str):
    where = f"{op.location}: " if op.location is not None else ""
    raise CompileError(f"{where}error: '{op.name}' {message}")


def _types(vals) -> str:
    return "(" + ", ".join(str(v.type) for v in vals) + ")"


class _Verifier:
    def __init__(self, module):
        self.module = module
        self.symbols = {}
        for op in module.body.operations:
            sym = op.attributes.get("sym_name")
            if sym is not None:
                self.symbols[sym.value] = op

    def run(self):
        scopes = [set()]
        for op in self.module.body.operations:
            self.op(op, scopes, None)

    def op(self, op, scopes, func):
        for i, v in enumerate(op.operands):
            if not any(id(v) in s for s in scopes):
                label = f"%{v.name}" if v.name else f"#{i}"
                _fail(op, f"operand {i} ({label}) does not dominate this use")
            if v.type is None:
                _fail(op, f"operand {i} has no type")
        counts = COUNTS.get(op.name)
        if counts is not None:
            n_in, n_out = counts
            if n_in is not None and len(op.operands) != n_in:
                _fail(op, f"expects {n_in} operands, got {len(op.operands)}")
            if n_out is not None and len(op.results) != n_out:
                _fail(op, f"expects {n_out} results, got {len(op.results)}")
        check = _CHECKS.get(op.name)
        if check is not None:
            check(self, op, func)
        _spec_constraints(op)
        if op.name == "func.func":
            func = op
            scopes = [set()]          # functions are isolated from above
        for region in op.regions:
            self.region(op, region, scopes, func)

    def region(self, op, region, scopes, func):
        local = set()
        inner = scopes + [local]
        for block in region.blocks:
            for a in block.arguments:
                local.add(id(a))
            for child in block.operations:
                self.op(child, inner, func)
                for r in child.results:
                    local.add(id(r))
            term = block.terminator
            if op.name == "func.func":
                if term is None or term.name != "func.return":
                    _fail(op, "body block must end with func.return")
            elif op.name in _STABLEHLO_REGION_OPS:
                if term is None or term.name != "stablehlo.return":
                    _fail(op, "region blocks must end with stablehlo.return")

    # -- op-specific checks --
    def check_func(self, op, func):
        fty = op.attributes.get("function_type")
        if fty is None or not isinstance(getattr(fty, "type", None), FunctionType):
            _fail(op, "needs a function_type attribute")
        if "sym_name" not in op.attributes:
            _fail(op, "needs a sym_name attribute")
        if len(op.regions) != 1:
            _fail(op, f"has {len(op.regions)} regions, expected 1")
        blocks = op.regions[0].blocks
        if blocks:
            types = tuple(a.type for a in blocks[0].arguments)
            if types != fty.type.inputs:
                _fail(op, f"entry block arguments {_types(blocks[0].arguments)} do not match "
                          f"the function type {fty.type}")

    def check_return(self, op, func):
        if func is None:
            return
        if op.parent is not None and op.parent.parent is not None \
                and op.parent.parent.parent is not func:
            _fail(op, "must be directly inside a func.func body")
        want = func.attributes["function_type"].type.results
        got = tuple(v.type for v in op.operands)
        if got != want:
            _fail(op, f"returns {_types(op.operands)} but @{func.attributes['sym_name'].value} "
                      f"is declared to return ({', '.join(map(str, want))})")

    def check_call(self, op, func):
        callee = op.attributes.get("callee")
        if callee is None:
            _fail(op, "needs a callee attribute")
        target = self.symbols.get(callee.name)
        if target is None or target.name != "func.func":
            _fail(op, f"calls @{callee.name}, which is not a function of this module")
        fty = target.attributes["function_type"].type
        if tuple(v.type for v in op.operands) != fty.inputs:
            _fail(op, f"passes {_types(op.operands)} to @{callee.name} which takes "
                      f"({', '.join(map(str, fty.inputs))})")
        if tuple(r.type for r in op.results) != fty.results:
            _fail(op, f"expects {_types(op.results)} from @{callee.name} which returns "
                      f"({', '.join(map(str, fty.results))})")

    def check_constant(self, op, func):
        value = op.attributes.get("value")
        ty = getattr(value, "type", None)
        if ty is None:
            _fail(op, "needs a value attribute")
        if op.results and ty != op.results[0].type and not _quantized_storage(ty, op.results[0].type):
            _fail(op, f"value has type {ty} but the result is {op.results[0].type}")


def _spec_constraints(op) -> None:
    """The StableHLO spec's per-op constraints (ir/op_constraints.py)."""
    from .op_constraints import check_op
    check_op(op)


def _quantized_storage(value_type, result_type) -> bool:
    """A quantized constant holds its storage values: ``dense<..> : tensor<2xi8>``
    for ``tensor<2x!quant.uniform<i8:f32, ..>>``."""
    el = getattr(result_type, "element", "")
    if not el.startswith("!quant."):
        return False
    storage = el.split("<", 1)[1].split(":", 1)[0].split("<", 1)[0].strip()
    return getattr(value_type, "shape", None) == result_type.shape and \
        value_type.element in (storage, storage.removeprefix("s"))


_CHECKS = {"func.func": _Verifier.check_func, "func.return": _Verifier.check_return,
           "func.call": _Verifier.check_call, "stablehlo.constant": _Verifier.check_constant}


def verify_module(module) -> None:
    """Raise CompileError at the first structural defect of ``module``."""
    _Verifier(module).run()
