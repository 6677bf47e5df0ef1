"""The ``func`` dialect ops tensorvm reads (func, call, return)."""
from __future__ import annotations

from .opdef import HOST, OWN, CARRY, defop
from .checks import fail, is_quant
from .quant_checks import quant_params, scale_range
import re

from ..ir.types import FunctionType
from .checks import fail_structure


def _signature_quant(op):
    """Quantized types written in a function's signature are well formed where
    they are written: quantized dimension non-negative, scales representable in
    the expressed type."""
    fty = getattr(op.attributes.get("function_type"), "type", None)
    for t in (*getattr(fty, "inputs", ()), *getattr(fty, "results", ())):
        el = getattr(t, "element", "")
        q = quant_params(el) if isinstance(el, str) and is_quant(el) else None
        if q is None:
            continue
        if q[4] is not None and q[4] < 0:
            fail(op, f"illegal quantized dimension: {q[4]} (in '{t}')")
        bounds = scale_range(q[3])
        for scale, _ in q[5]:
            if bounds is not None and not bounds[0] <= scale <= bounds[1]:
                fail(op, f"scale {scale:e} out of expressed type range [{bounds[0]:e}, {bounds[1]:e}] "
                         f"(in '{t}')")


_SYMBOL = re.compile(r"[\x21-\x7e]+")


def _types(vals) -> str:
    return "(" + ", ".join(str(v.type) for v in vals) + ")"


def _check_func(v, op, func):
    fty = op.attributes.get("function_type")
    if fty is None or not isinstance(getattr(fty, "type", None), FunctionType):
        fail_structure(op, "needs a function_type attribute")
    if "sym_name" not in op.attributes:
        fail_structure(op, "needs a sym_name attribute")
    name = getattr(op.attributes["sym_name"], "value", None)
    if not isinstance(name, str) or not _SYMBOL.fullmatch(name):
        fail_structure(op, f"symbol name {name!r} must be non-empty printable ASCII")
    if len(op.regions) != 1:
        fail_structure(op, f"has {len(op.regions)} regions, expected 1")
    blocks = op.regions[0].blocks
    vis = op.attributes.get("sym_visibility")
    if not blocks and (getattr(vis, "value", vis) or "public") != "private":
        fail_structure(op, "has no body (only private functions may be declarations)")
    if blocks:
        types = tuple(a.type for a in blocks[0].arguments)
        if types != fty.type.inputs:
            fail_structure(op, f"entry block arguments {_types(blocks[0].arguments)} do not match "
                      f"the function type {fty.type}")

def _check_return(v, op, func):
    if func is None:
        return
    if op.parent is not None and op.parent.parent is not None \
            and op.parent.parent.parent is not func:
        fail_structure(op, "must be directly inside a func.func body")
    want = func.attributes["function_type"].type.results
    got = tuple(v.type for v in op.operands)
    if got != want:
        fail_structure(op, f"returns {_types(op.operands)} but @{func.attributes['sym_name'].value} "
                  f"is declared to return ({', '.join(map(str, want))})")

def _check_call(v, op, func):
    callee = op.attributes.get("callee")
    if callee is None:
        fail_structure(op, "needs a callee attribute")
    target = v.symbols.get(callee.name)
    if target is None or target.name != "func.func":
        fail_structure(op, f"calls @{callee.name}, which is not a function of this module")
    fty = target.attributes["function_type"].type
    if tuple(v.type for v in op.operands) != fty.inputs:
        fail_structure(op, f"passes {_types(op.operands)} to @{callee.name} which takes "
                  f"({', '.join(map(str, fty.inputs))})")
    if tuple(r.type for r in op.results) != fty.results:
        fail_structure(op, f"expects {_types(op.results)} from @{callee.name} which returns "
                  f"({', '.join(map(str, fty.results))})")


OPS = (
    defop('func.call', HOST, syntax=OWN, in_td=False, structure=(_check_call,), quant=CARRY, parser='parse_call', bare_name='call'),
    defop('func.func', HOST, operands=0, results=0, syntax=OWN, in_td=False, verify=(_signature_quant,), structure=(_check_func,), parser='parse_func'),
    defop('func.return', HOST, syntax=OWN, terminator=True, in_td=False, structure=(_check_return,), quant=CARRY, bare_name='return'),
)
