"""Donated arguments: a result that takes over an argument's storage.

``jax.jit(f, donate_argnums=...)`` exports ``jax.buffer_donor = true`` on the
donated arguments (older JAX and TensorFlow write ``tf.aliasing_output = N``,
naming the result).  A donated argument reaches a result of the same type
through a chain of in-place updates: dispatches whose region's root is a
``dynamic_update_slice`` of the value, which the region reads nowhere
else (a KV cache written at one position; a stacked cache written once per
layer), or a large GPU scatter into it (passes/scatter_in_place.py).  Every
other reader of a value in the chain must run before the
update that overwrites it (program order; the static schedule in
passes/memory.py waits for them) and cannot pass it on.  The chain's
dispatches then write into the argument's buffer, each only its update
window (update_window.py) or its scatter's updates: the result IS the argument's storage, so a cache
passed in and returned stays in one buffer across calls.

Reflection marks the pair (``donated_to`` on the argument, ``donor`` on the
result); the runtime then invalidates a DeviceArray passed for that
argument, and copies a host array first (the caller's memory is never
written).  A donation that does not fit this rule is not used, as JAX
ignores a donation it cannot use.
"""
from __future__ import annotations

from ..dialects.registry import LOOP, has, terminates


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
    return {j: i for j, (i, _) in update_chains(func).items()}


def dispatch_donors(func) -> dict:
    """{id(dispatch): argument index} for the dispatches that write in place:
    every update of a chain (one stacked cache updated per layer) writes
    into the donated argument's buffer."""
    return {d: i for i, chain in update_chains(func).values() for d in chain}


def update_chains(func) -> dict:
    """{result index: (argument index, its update chain)} of the donated
    arguments that reach a result through in-place updates only (the chain:
    {id(dispatch): True}, in program order)."""
    donated = donated_args(func)
    if not donated:
        return {}
    block = func.regions[0].blocks[0]
    ret = block.terminator.operands
    order = {id(o): k for k, o in enumerate(block.operations)}
    out = {}
    for i, want in donated.items():
        if i >= len(block.arguments):
            continue
        a = block.arguments[i]
        if not getattr(a.type, "is_static", False):
            continue
        chain, end = update_chain(a, block, order, _top_level_update)
        js = [j for j, v in enumerate(ret) if v is end]
        if not chain or len(js) != 1 or end.type != a.type or js[0] in out \
                or (want is not None and want != js[0]) \
                or any(v is not end and same_bytes(v, end) for v in ret):
            continue
        out[js[0]] = (i, chain)
    return out


def in_place_operand(d):
    """The operand index dispatch ``d`` may update in place, or None: a
    scatter's mark (passes/scatter_in_place.py), else a window update's."""
    from ..codegen.gpu_scatter import IN_PLACE_ATTR
    mark = d.attributes.get(IN_PLACE_ATTR)
    if mark is not None:
        return mark.value
    found = updated_operand(d)
    return found[0] if found is not None else None


def _top_level_update(d, i):
    """Dispatch ``d`` updates its operand ``i`` in place (True) or not (None)."""
    return True if in_place_operand(d) == i else None


def update_chain(start, block, order, as_update):
    """(chain, end): the dispatches of ``block`` that carry ``start`` on by
    in-place updates, {id(dispatch): as_update(dispatch, operand index)}, as
    far as each value has exactly one such update and every other reader of
    it runs before that update and cannot pass the value on (a region
    terminator, a nested while); ``end`` is the last value of the chain."""
    chain, v = {}, start
    while True:
        nxt = _sole_update(v, block, order, as_update)
        if nxt is None:
            return chain, v
        d, upd = nxt
        chain[id(d)] = upd
        v = d.results[0]


def readers(v):
    """The ops that read ``v``'s bytes: through device reshapes (aliases)."""
    for u, i in v.uses:
        if u.name == "stablehlo.reshape" and "tvm.host" not in u.attributes:
            yield from readers(u.result)
        else:
            yield u, i


def _top(u, block):
    """The op of ``block`` that is ``u`` or holds it in a region."""
    while u is not None and u.parent is not block:
        u = u.parent_op
    return u


def _sole_update(v, block, order, as_update):
    found = list(readers(v))
    ups = [(u, upd) for u, i in found
           if u.name == "tvm.dispatch" and u.parent is block and len(u.results) == 1
           for upd in [as_update(u, i)] if upd]
    if len(ups) != 1:
        return None
    d, upd = ups[0]
    if sum(u is d for u, _ in found) != 1:      # it reads the state elsewhere too
        return None
    for u, _ in found:
        if u is d:
            continue
        if u.name == "tvm.yield" or has(u.name, LOOP) or terminates(u.name):
            return None
        top = _top(u, block)
        if top is None or top is block.terminator or order[id(top)] >= order[id(d)]:
            return None
    return d, upd


def same_bytes(a, b) -> bool:
    """``a`` is ``b`` or a chain of reshapes of it (the same buffer)."""
    while a is not b:
        op = a.defining_op
        if op is None or op.name != "stablehlo.reshape":
            return False
        a = op.operands[0]
    return True


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
