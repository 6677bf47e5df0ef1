"""Donated arguments: a result that takes over an argument's storage.

``jax.jit(f, donate_argnums=...)`` exports ``jax.buffer_donor = true`` on the
donated arguments (older JAX and TensorFlow write ``tf.aliasing_output = N``,
naming the result).  A donated argument whose only reader is the dispatch
making a result of the same type by updating it in place (its region's root
is a ``dynamic_update_slice`` of that argument, which the region reads
nowhere else: a KV cache written at one position) gives that dispatch its
buffer.  The kernel reads each element before writing the same element, so
running it over its own input is safe; the result IS the argument's storage,
so a cache passed in and returned stays in one buffer across calls.

Reflection marks the pair (``donated_to`` on the argument, ``donor`` on the
result); the runtime then invalidates a DeviceArray passed for that
argument, and copies a host array first (the caller's memory is never
written).  A donation that does not fit this rule is not used, as JAX
ignores a donation it cannot use.
"""
from __future__ import annotations

DONOR_ATTR = "jax.buffer_donor"
ALIASING_ATTR = "tf.aliasing_output"


def donated_args(func) -> dict:
    """{argument index: result index it names, or None} of the donated arguments."""
    out = {}
    arg_attrs = func.attributes.get("arg_attrs")
    for i, d in enumerate(getattr(arg_attrs, "elements", ()) or ()):
        entries = getattr(d, "entries", {}) if d is not None else {}
        if ALIASING_ATTR in entries:
            out[i] = int(getattr(entries[ALIASING_ATTR], "value", -1))
        elif DONOR_ATTR in entries and getattr(entries[DONOR_ATTR], "value", True) is not False:
            out[i] = None
    return out


def aliases(func) -> dict:
    """{result index: argument index} of the results that reuse a donated
    argument's buffer (see the module docstring)."""
    donated = donated_args(func)
    if not donated:
        return {}
    block = func.regions[0].blocks[0]
    ret = block.terminator.operands
    out = {}
    for i, want in donated.items():
        if i >= len(block.arguments):
            continue
        a = block.arguments[i]
        if len(a.uses) != 1:
            continue
        d, k = a.uses[0]
        if d.name != "tvm.dispatch" or d.parent is not block:
            continue
        r = d.results[0]
        js = [j for j, v in enumerate(ret) if v is r]
        if len(js) != 1 or r.type != a.type or not getattr(a.type, "is_static", False):
            continue
        j = js[0]
        upd = updated_operand(d)
        if (want is not None and want != j) or j in out or upd is None or upd[0] != k:
            continue
        out[j] = i
    return out


def dispatch_donors(func) -> dict:
    """{id(dispatch): argument index} for the dispatches that write in place."""
    block = func.regions[0].blocks[0]
    ret = block.terminator.operands
    return {id(ret[j].defining_op): i for j, i in aliases(func).items()}


def updated_operand(d):
    """(operand index, the dynamic_update_slice) when dispatch ``d`` makes
    one result whose root is a dynamic_update_slice of one of its operands,
    which its region reads nowhere else (so the update may run in place)."""
    if len(d.results) != 1:
        return None
    blk = d.regions[0].blocks[0]
    root = blk.terminator.operands[0].defining_op
    if root is None or root.name != "stablehlo.dynamic_update_slice":
        return None
    state = root.operands[0]
    args = list(blk.arguments)
    if state not in args or len(state.uses) != 1:
        return None
    return args.index(state), root
