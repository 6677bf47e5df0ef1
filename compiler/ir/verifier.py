"""Structural IR verifier: ``verify_module(module)``.

Checks SSA dominance (a use follows its definition in the block, or the
value comes from an enclosing scope; in multi-block regions any earlier
block of the region counts), terminators, func.return / func.call types
against the function types, and the counts, regions and element-type
traits the op declarations give (dialects/opdef.py); then each op's spec
rules (ir/spec_checks.py) and its declared ``structure`` rules.  Raises
``CompileError`` naming the op and its location.
"""
from __future__ import annotations

from ..dialects.registry import KEEPS_ELEMENT, OPS, SAME_ELEMENT
from ..errors import CompileError

# The per-op tables below are read from the op registry (dialects/registry.py).
# op -> (operand count or None for any, result count or None for any)
COUNTS = {d.name: (d.operands, d.results) for d in OPS.values()
          if d.operands is not None or d.results is not None}
# ops taking a variable number of operands, with the fewest they need
MIN_OPERANDS = {d.name: d.min_operands for d in OPS.values() if d.min_operands is not None}
# binary elementwise ops whose operands and result share one element type
_SAME_ELEMENT = frozenset(d.name for d in OPS.values() if d.types == SAME_ELEMENT)
# ops with a fixed number of regions, each needing a body block
_REGIONS = {d.name: d.regions for d in OPS.values() if d.regions is not None}
# ops that move elements without changing their type
_KEEPS_ELEMENT = frozenset(d.name for d in OPS.values() if d.types == KEEPS_ELEMENT)
# ops whose region blocks must end with stablehlo.return
_STABLEHLO_REGION_OPS = frozenset(d.name for d in OPS.values() if d.region_return)
# ops with MLIR's Terminator trait: what a func.func body block may end with
_TERMINATORS = frozenset(d.name for d in OPS.values() if d.terminator)


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
                name = getattr(sym, "value", None)
                if name in self.symbols:
                    first = self.symbols[name].location
                    _fail(op, f"redefines symbol @{name}" + (f" (first defined at {first})"
                                                             if first is not None else ""))
                self.symbols[name] = op

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
        if op.name in _SAME_ELEMENT and len(op.operands) == 2 and op.results:
            els = {getattr(v.type, "element", None) for v in (*op.operands, op.results[0])}
            if len(els) != 1 and not _any_quantized(els):   # quantized: the spec's rules
                _fail(op, f"operands and result must have one element type, got "
                          f"{_types(op.operands)} -> {op.results[0].type}")
        if op.name in _KEEPS_ELEMENT and op.operands and op.results and \
                getattr(op.operands[0].type, "element", None) != \
                getattr(op.results[0].type, "element", None) and not _any_quantized(
                    (getattr(op.operands[0].type, "element", None),)):
            _fail(op, f"changes the element type: {op.operands[0].type} -> {op.results[0].type}")
        regions = _REGIONS.get(op.name)
        if regions is not None and (len(op.regions) != regions
                                    or any(not r.blocks for r in op.regions)):
            _fail(op, f"needs {regions} region(s) with a body, got {len(op.regions)}")
        if op.name == "stablehlo.while":
            term = op.regions[0].blocks[0].terminator
            if term is None or len(term.operands) != 1:
                _fail(op, "cond region must return one i1 value")
        least = MIN_OPERANDS.get(op.name)
        if least is not None and len(op.operands) < least:
            _fail(op, f"expects at least {least} operands, got {len(op.operands)}")
        if op.name in MIN_OPERANDS and len(op.results) < 1:
            _fail(op, "expects results")
        _spec_constraints(op)         # the spec's wording first (the verify suite's)
        d = OPS.get(op.name)
        for rule in d.structure if d is not None else ():
            rule(self, op, func)
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
                # MLIR: the block ends with a terminator (func.func names none;
                # compiling one needs func.return, pipeline.py checks that)
                if term is None or term.name not in _TERMINATORS:
                    _fail(op, "body block must end with a terminator (func.return)")
            elif op.name in _STABLEHLO_REGION_OPS:
                if term is None or term.name != "stablehlo.return":
                    _fail(op, "region blocks must end with stablehlo.return")


def _any_quantized(elements) -> bool:
    """Quantized element types differ in scale and zero point where the spec
    allows it; the op declarations check them (storage and expressed types)."""
    return any(str(e).startswith("!quant") for e in elements if e is not None)


def _spec_constraints(op) -> None:
    """The per-op constraints the op declarations state (ir/spec_checks.py)."""
    from .spec_checks import check_op
    check_op(op)


def verify_module(module) -> None:
    """Raise CompileError at the first structural defect of ``module``."""
    _Verifier(module).run()
