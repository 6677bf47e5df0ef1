"""Structural IR verifier: ``verify_module(module)``.

Checks SSA dominance (a use follows its definition in the block, or the
value comes from an enclosing scope; in multi-block regions any earlier
block of the region counts), terminators, func.return / func.call types
against the function types, and operand/result counts of common ops.
Raises ``CompileError`` naming the op and its location.
"""
from __future__ import annotations

import re

from ..dialects.registry import KEEPS_ELEMENT, OPS, SAME_ELEMENT
from ..errors import CompileError
from .attributes import ints
from .types import FunctionType, is_integer

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


_SYMBOL = re.compile(r"[\x21-\x7e]+")


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
        check = _CHECKS.get(op.name)
        if check is not None:
            check(self, op, func)
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

    # -- op-specific checks --
    def check_func(self, op, func):
        fty = op.attributes.get("function_type")
        if fty is None or not isinstance(getattr(fty, "type", None), FunctionType):
            _fail(op, "needs a function_type attribute")
        if "sym_name" not in op.attributes:
            _fail(op, "needs a sym_name attribute")
        name = getattr(op.attributes["sym_name"], "value", None)
        if not isinstance(name, str) or not _SYMBOL.fullmatch(name):
            _fail(op, f"symbol name {name!r} must be non-empty printable ASCII")
        if len(op.regions) != 1:
            _fail(op, f"has {len(op.regions)} regions, expected 1")
        blocks = op.regions[0].blocks
        vis = op.attributes.get("sym_visibility")
        if not blocks and (getattr(vis, "value", vis) or "public") != "private":
            _fail(op, "has no body (only private functions may be declarations)")
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

    def check_scatter(self, op, func):
        """The StableHLO constraints on scatter's operands and dimension numbers
        that the lowering relies on (index in range, sorted/unique, ranks add up)."""
        n = len(op.results)
        if n == 0 or len(op.operands) != 2 * n + 1:
            _fail(op, f"takes N inputs, the indices and N updates for N results; got "
                      f"{len(op.operands)} operands for {n} results")
        inputs, indices, updates = op.operands[:n], op.operands[n], op.operands[n + 1:]
        ranked = (*inputs, indices, *updates)
        if any(getattr(v.type, "shape", None) is None for v in ranked):
            _fail(op, "operands must be ranked tensors")
        if any(v.type.shape != inputs[0].type.shape for v in inputs) or \
                any(r.type.shape != inputs[0].type.shape for r in op.results):
            _fail(op, "inputs and results must all have the same shape")
        if any(u.type.shape != updates[0].type.shape for u in updates):
            _fail(op, "updates must all have the same shape")
        if not is_integer(str(getattr(indices.type, "element", ""))):
            _fail(op, f"scatter_indices must be integers, got {indices.type}")
        if len(op.regions) != 1 or len(op.regions[0].blocks) != 1 or \
                len(op.regions[0].blocks[0].arguments) != 2 * n:
            _fail(op, f"needs one update computation region whose block takes {2 * n} arguments")
        dn = getattr(op.attr("scatter_dimension_numbers"), "fields", None)
        if not isinstance(dn, dict):
            _fail(op, "needs a scatter_dimension_numbers attribute")
        R, I, U = inputs[0].type.rank, indices.type.rank, updates[0].type.rank

        def dims(key, bound, of, ordered=False):
            """StableHLO's checks of a dims list, in its order and words."""
            v = dn.get(key, ())
            if not isinstance(v, (tuple, list)) or not all(
                    isinstance(d, int) and not isinstance(d, bool) for d in v):
                _fail(op, f"{key} must be a list of integers, got {v!r}")
            v = tuple(v)
            if ordered and list(v) != sorted(v):
                _fail(op, f"Expects {key} to be sorted; got: {list(v)}.")
            if len(set(v)) != len(v):
                _fail(op, f"Expects {key} to not repeat; got: {list(v)}.")
            for d in v:
                if d < 0 or d >= bound:
                    _fail(op, f"Expects each element of {key} to be in range [0, rank-of('{of}')) "
                              f"i.e. [0, {bound}). got: {d}.")
            return v

        ivd = dn.get("index_vector_dim", 0)
        if not isinstance(ivd, int) or isinstance(ivd, bool) or not 0 <= ivd <= I:
            _fail(op, f"Expects index_vector_dim to be in range [0, rank-of('scatter_indices')] "
                      f"i.e. [0, {I}]. got: {ivd!r}.")
        uwd = dims("update_window_dims", U, "updates", True)
        inserted = dims("inserted_window_dims", R, "operand", True)
        in_batch = dims("input_batching_dims", R, "operand", True)
        idx_batch = dims("scatter_indices_batching_dims", I, "scatter_indices")
        to_operand = dims("scatter_dims_to_operand_dims", R, "operand")
        if set(inserted) & set(in_batch) or set(to_operand) & set(in_batch):
            _fail(op, "input_batching_dims overlaps inserted_window_dims or "
                      "scatter_dims_to_operand_dims")
        if len(idx_batch) != len(in_batch) or ivd in idx_batch:
            _fail(op, "scatter_indices_batching_dims must pair with input_batching_dims and "
                      "exclude index_vector_dim")
        if R != len(uwd) + len(inserted) + len(in_batch):
            _fail(op, f"input rank {R} != update_window_dims + inserted_window_dims + "
                      f"input_batching_dims ({len(uwd)} + {len(inserted)} + {len(in_batch)})")
        scatter_rank = I - (1 if ivd < I else 0)
        if U != len(uwd) + scatter_rank:
            _fail(op, f"updates rank {U} != update_window_dims ({len(uwd)}) + scatter "
                      f"dimensions of the indices ({scatter_rank})")
        vec = indices.type.shape[ivd] if ivd < I else 1
        if isinstance(vec, int) and len(to_operand) != vec:
            _fail(op, f"scatter_dims_to_operand_dims has {len(to_operand)} entries but the "
                      f"index vector has {vec}")

    def _dims(self, op, key, bound, *, length=None, required=True, unique=True):
        """Attribute ``key`` of ``op`` as ints, each in [0, bound)."""
        attr = op.attributes.get(key)
        if attr is None:
            if required:
                _fail(op, f"needs a {key} attribute")
            return ()
        try:
            v = ints(attr)
        except (TypeError, ValueError, AttributeError):
            _fail(op, f"{key} must be a list of integers, got {attr}")
        if length is not None and len(v) != length:
            _fail(op, f"{key} has {len(v)} entries, expected {length}")
        if bound is not None and any(d < 0 or d >= bound for d in v):
            _fail(op, f"{key} = {list(v)} has a dimension outside [0, {bound})")
        if unique and len(set(v)) != len(v):
            _fail(op, f"{key} = {list(v)} repeats a dimension")
        return v

    def check_dims(self, op, func):
        """Dimension attributes of the ops that index by them: present, ints,
        inside the rank (codegen indexes lists with them)."""
        name = op.name
        rank_in = getattr(op.operands[0].type, "rank", None) if op.operands else None
        rank_out = getattr(op.results[0].type, "rank", None) if op.results else None
        if rank_in is None and name not in ("stablehlo.iota",):
            return
        if name == "stablehlo.transpose":
            self._dims(op, "permutation", rank_in, length=rank_in)
        elif name == "stablehlo.broadcast_in_dim":
            self._dims(op, "broadcast_dimensions", rank_out, length=rank_in)
        elif name == "stablehlo.concatenate":
            if op.attributes.get("dimension") is None:
                _fail(op, "needs a dimension attribute")
            self._dims(op, "dimension", rank_in, length=1)
            if any(getattr(v.type, "rank", None) != rank_in for v in op.operands):
                _fail(op, "operands must all have the same rank")
        elif name in ("stablehlo.reduce", "stablehlo.reverse"):
            if name == "stablehlo.reduce" and (len(op.operands) % 2 or not op.regions):
                _fail(op, "takes N inputs and N init values and one body region")
            dims = self._dims(op, "dimensions", rank_in)
            if name == "stablehlo.reduce":
                want = [d for k, d in enumerate(op.operands[0].type.shape) if k not in dims]
                for r in op.results:
                    got = getattr(r.type, "shape", None)
                    if got is not None and (len(got) != len(want) or any(
                            a is not None and b is not None and a != b for a, b in zip(got, want))):
                        _fail(op, f"result {r.type} does not match the input "
                                  f"{op.operands[0].type} reduced over dimensions {list(dims)}")
        elif name == "stablehlo.sort":
            self._dims(op, "dimension", rank_in, length=1)
            if len(op.regions) != 1 or not op.regions[0].blocks:
                _fail(op, "needs one comparator region")
        elif name == "stablehlo.iota":
            self._dims(op, "iota_dimension", rank_out, length=1)
        elif name == "stablehlo.slice":
            for key in ("start_indices", "limit_indices"):
                self._dims(op, key, None, length=rank_in, unique=False)
            self._dims(op, "strides", None, length=rank_in, unique=False, required=False)
        elif name == "stablehlo.dynamic_slice":
            if len(op.operands) != 1 + rank_in:
                _fail(op, f"takes the operand and {rank_in} start indices, got "
                          f"{len(op.operands)} operands")
            self._dims(op, "slice_sizes", None, length=rank_in, unique=False)
        elif name == "stablehlo.dynamic_update_slice":
            if len(op.operands) != 2 + rank_in:
                _fail(op, f"takes the operand, the update and {rank_in} start indices, got "
                          f"{len(op.operands)} operands")
        elif name == "stablehlo.compare":
            if op.attributes.get("comparison_direction") is None:
                _fail(op, "needs a comparison_direction attribute")
        elif name in ("stablehlo.dot_general", "stablehlo.gather"):
            key = "dot_dimension_numbers" if name == "stablehlo.dot_general" else "dimension_numbers"
            dn = getattr(op.attributes.get(key), "fields", None)
            if not isinstance(dn, dict):
                _fail(op, f"needs a {key} attribute")
            if name == "stablehlo.dot_general":
                self._dot_dims(op, dn)

    def _dot_dims(self, op, dn):
        ranks = [getattr(v.type, "rank", None) for v in op.operands]
        got = {}
        for side, rank in zip(("lhs", "rhs"), ranks):
            for kind in ("batching", "contracting"):
                key = f"{side}_{kind}_dimensions"
                v = dn.get(key, ())
                if not isinstance(v, (tuple, list)) or not all(
                        isinstance(d, int) and not isinstance(d, bool) for d in v):
                    _fail(op, f"{key} must be a list of integers, got {v!r}")
                if rank is not None and any(d < 0 or d >= rank for d in v):
                    _fail(op, f"{key} = {list(v)} has a dimension outside [0, {rank})")
                got[key] = tuple(v)
            both = got[f"{side}_batching_dimensions"] + got[f"{side}_contracting_dimensions"]
            if len(set(both)) != len(both):
                _fail(op, f"{side} batching and contracting dimensions repeat a dimension")
        for kind in ("batching", "contracting"):
            if len(got[f"lhs_{kind}_dimensions"]) != len(got[f"rhs_{kind}_dimensions"]):
                _fail(op, f"lhs and rhs have different numbers of {kind} dimensions")


_DIM_OPS = ("sort", "transpose", "broadcast_in_dim", "concatenate", "reduce", "reverse", "iota", "slice",
            "dynamic_slice", "dynamic_update_slice", "compare", "dot_general", "gather")

def _any_quantized(elements) -> bool:
    """Quantized element types differ in scale and zero point where the spec
    allows it; ir/op_constraints.py checks them (storage and expressed types)."""
    return any(str(e).startswith("!quant") for e in elements if e is not None)


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
           "func.call": _Verifier.check_call, "stablehlo.constant": _Verifier.check_constant,
           "stablehlo.scatter": _Verifier.check_scatter,
           **{"stablehlo." + n: _Verifier.check_dims for n in _DIM_OPS}}


def verify_module(module) -> None:
    """Raise CompileError at the first structural defect of ``module``."""
    _Verifier(module).run()
