"""Row reductions in lanes: a reduce over its operand's contiguous last
dimension keeps ``LANE_BYTES`` of accumulators, so the C compiler vectorises
the loop instead of running one dependent combine per element.

A softmax's row maximum was one ``tvm_fmaxf`` blend per element, each
waiting for the last (about 13 cycles an element); its row sum one add
latency per element.  With lanes, element ``r`` goes to accumulator
``r % L`` and the lanes are combined at the end, pairwise.  That is exact for
``maximum`` / ``minimum`` / ``and`` / ``or`` (idempotent, associative: every
lane may start at the init) and for integer ``add`` / ``xor`` / ``multiply``
(wrapping arithmetic is associative: lane 0 starts at the init, the others at
the identity).  A float ``add`` is reassociated: StableHLO leaves a
reduction's order to the implementation (XLA vectorises its row sums the
same way), and partial sums are more accurate than one long chain.  Float
``multiply`` and other bodies keep the sequential loop.  Used by the CPU
emitter only: a GPU thread would spill the lanes.
"""
from __future__ import annotations

from ..dialects import registry as R
from ..ir.attributes import ints
from ..ir.types import is_complex, is_float, numpy_dtype
from . import scalar

#: Bytes of accumulators per reduction: two AVX-512 vectors, four AVX2 ones
#: (half that for rows under 8 times as many elements: a softmax over 32 keys).
LANE_BYTES = 128


def combiner(op):
    """The one binary op a reduce's body applies to its two arguments, or None."""
    (body,) = op.regions[0].blocks
    ops = body.operations
    if len(ops) != 2 or ops[1].name != "stablehlo.return" or list(ops[1].operands) != [ops[0].result]:
        return None
    if sorted(map(id, ops[0].operands)) != sorted(map(id, body.arguments)):
        return None
    return ops[0].name


def selection_body(op) -> bool:
    """A variadic reduce whose body picks, for every operand, either its
    accumulator or its element, by predicates built from comparisons of the
    arguments: JAX's argmax / argmin (value, index) pairs, whose tie-break on
    the index makes the pick a total order.  Such a body is idempotent
    (picking between two equal pairs gives that pair) and its result is the
    best pair of the row whatever the order, so every lane may start at the
    init like ``maximum``."""
    n = len(op.results)
    (body,) = op.regions[0].blocks
    args = list(body.arguments)
    if n < 2 or len(args) != 2 * n:
        return False
    *ops, ret = body.operations
    if ret.name != "stablehlo.return" or len(ret.operands) != n:
        return False
    for o in ops:
        if not R.has(o.name, R.SELECTION):         # the ops a selection body is made of
            return False
        if o.name == "stablehlo.compare" and not all(v in args for v in o.operands):
            return False
    for k, v in enumerate(ret.operands):
        pick = v.defining_op
        if pick is None or pick.name != "stablehlo.select" or pick.parent is not body \
                or {id(x) for x in pick.operands[1:]} != {id(args[k]), id(args[n + k])}:
            return False
    return True


def lanes_for(op) -> int:
    """How many lanes reduce ``op`` (0: keep the sequential loop)."""
    n = len(op.results)
    if len(op.operands) != 2 * n:
        return 0
    x = op.operands[0]
    shape = x.type.shape
    last = len(shape) - 1
    if last < 0 or last not in ints(op.attr("dimensions")) or type(shape[last]) is not int:
        return 0
    elements = [v.type.element for v in op.operands[:n]]
    if n == 1:
        name, el = combiner(op), elements[0]
        if not R.is_combiner(name) or is_complex(el) \
                or (is_float(el) and name != "stablehlo.add" and not R.has(name, R.ORDER_PICK)):
            return 0
    elif not selection_body(op) or any(is_complex(el) for el in elements):
        return 0
    try:
        size = max(numpy_dtype(el).itemsize for el in elements)
    except (KeyError, TypeError):
        return 0
    lanes = LANE_BYTES // max(1, size)
    if shape[last] < 8 * lanes:          # short rows: the lanes' final combine dominates
        lanes //= 2
    while lanes > 1 and shape[last] < lanes:
        lanes //= 2
    return lanes if lanes >= 4 else 0


def emit_lane_reduction(em, op, idx, lanes: int) -> list:
    """Emit ``op`` (lanes_for(op) == lanes > 0) at result index ``idx``
    through BodyEmitter ``em``; returns its result expressions."""
    n = len(op.results)
    xs, inits = op.operands[:n], op.operands[n:]
    cts = [scalar.ctype(r.type.element) for r in op.results]
    body = op.regions[0].blocks[0]
    shape = xs[0].type.shape
    last = len(shape) - 1
    dims = ints(op.attr("dimensions"))
    name = combiner(op) if n == 1 else None
    accs, lane = [em.fresh("acc") for _ in range(n)], em.fresh("l")
    starts = [em.value(init, ()) for init in inits]
    for acc, ct, start in zip(accs, cts, starts):
        em.line(f"{ct} {acc}[{lanes}];")
        if n > 1 or R.has(name, R.IDEMPOTENT):      # selection bodies are idempotent too
            em.line(f"for (int {lane} = 0; {lane} < {lanes}; ++{lane}) {acc}[{lane}] = {start};")
        else:
            el = op.result.type.element
            ident = scalar.literal(el, -0.0 if is_float(el) else R.identity(name))
            em.line(f"for (int {lane} = 1; {lane} < {lanes}; ++{lane}) {acc}[{lane}] = {ident};")
            em.line(f"{acc}[0] = {start};")
    loop_vars = {}
    for d in dims:
        if d != last:
            loop_vars[d] = em.fresh("r")
            em.open(f"for (int64_t {loop_vars[d]} = 0; {loop_vars[d]} < {shape[d]}; ++{loop_vars[d]})")
    r = em.fresh("r")
    em.line(f"int64_t {r} = 0;")

    def step(position, slot):
        it = iter(idx)
        src = tuple(position if k == last else loop_vars[k] if k in loop_vars else next(it)
                    for k in range(len(shape)))
        new = em.region_call(body, [f"{acc}[{slot}]" for acc in accs] + [em.value(x, src) for x in xs])
        for acc, v in zip(accs, new):
            em.line(f"{acc}[{slot}] = {v};")

    em.open(f"for (; {r} + {lanes} <= {shape[last]}; {r} += {lanes})")
    em.open(f"for (int {lane} = 0; {lane} < {lanes}; ++{lane})")
    step(f"({r} + {lane})", lane)
    em.close()
    em.close()
    em.open(f"for (; {r} < {shape[last]}; ++{r})")
    step(r, "0")
    em.close()
    for _ in loop_vars:
        em.close()
    width = lanes // 2        # lanes is a power of two: combine them as a tree
    while width:
        em.open(f"for (int {lane} = 0; {lane} < {width}; ++{lane})")
        new = em.region_call(body, [f"{acc}[{lane}]" for acc in accs]
                             + [f"{acc}[{lane} + {width}]" for acc in accs])
        for acc, v in zip(accs, new):
            em.line(f"{acc}[{lane}] = {v};")
        em.close()
        width //= 2
    return [em.tmp(ct, f"{acc}[0]") for acc, ct in zip(accs, cts)]


def _row_reduce_of(op, shape) -> bool:
    return (op.name == "stablehlo.reduce" and len(op.operands) == 2
            and tuple(op.operands[0].type.shape) == shape
            and ints(op.attr("dimensions")) == (len(shape) - 1,))


def nested_row_reductions(op, bindings) -> list:
    """The row reductions fused into the input of row reduction ``op`` (a row
    kernel's variance holds its mean, passes/row_fusion.py), in program
    order: they are read at ``op``'s own row, so computing them first, once,
    keeps them out of ``op``'s loop (where they would run per element)."""
    shape = tuple(op.operands[0].type.shape)
    if not _row_reduce_of(op, shape):
        return []
    found, seen, work = [], set(), [op.operands[0]]
    while work:
        v = work.pop()
        producer = v.defining_op
        if v in bindings or producer is None or id(producer) in seen:
            continue
        seen.add(id(producer))
        if _row_reduce_of(producer, shape):
            found.append(producer)
            continue
        work.extend(producer.operands)
    order = {id(o): i for i, o in enumerate(op.parent.operations)} if op.parent else {}
    return sorted(found, key=lambda o: order.get(id(o), 0))
