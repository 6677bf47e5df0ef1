"""Fused attention: scores, softmax and the product with the values in one
kernel (issue 36.2), FlashAttention's online softmax.

The pattern (``match``): ``S = dot_general(q, k)`` with result
[batch..., M, N]; ``X`` = S through same-index elementwise ops and batch
regrouping reshapes (scale, mask, bias: their other operands are read at
X's index); ``E = exp(X - broadcast(shift))`` with ``shift`` a row value
(normally the row max; softmax does not depend on it); ``P = E /
broadcast(sum of E over the last dim)``; optionally P guarded per row,
``select(pred, 0, P)`` or ``select(pred, P, 0)``, ``pred`` a row value made
from reductions of X over the last dim (torch's "all masked" row); then
``dot_general(P, v)`` contracting P's last dim, the batch dims leading.

The kernel walks each query row's keys once, keeping a running max ``m``,
the sum ``l`` of exp(x - m) and the accumulator sum exp(x - m) v, rescaled
by exp(m_old - m_new) when the max grows; the row's result is acc / l.
The side reductions ``pred`` needs run over the same walk.  Values match
the unfused kernels to rounding (the shift differs, the sums' order too).

``render_plain`` is the plan every target has (the CPU's, one item per
workgroup on GPUs); gpu_attention.py holds the GPU's tiled plan.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from math import prod

from ..dialects import stablehlo as shlo
from ..ir.attributes import DenseElementsAttr, ints
from . import scalar
from .index_maps import delinearize_decls
from .lane_reduce import combiner

ATTENTION = "tvm.attention"     # attribute on the p.v dot_general of a fused attention
CPU_ROW_WORK = 1 << 15          # multiply-adds a CPU workgroup's rows should carry, at least
KEY_CHUNK = 16                  # keys a row's walk scores before one max / rescale / exp pass


@dataclass
class Attention:
    """The roles of a matched attention's ops (see the module docstring)."""
    qk: object          # the scores' dot_general
    pv: object          # the probabilities' dot_general
    x: object           # the scores after their elementwise epilogue [xbatch..., M, N]
    sides: list         # reductions of X over the last dim that ``pred`` reads
    pred: object        # [xbatch..., M, 1] row predicate of the guard, or None
    zero_first: bool    # select(pred, 0, P) (else select(pred, P, 0))
    B: int
    M: int
    N: int
    D: int
    Dv: int


def _dims(op):
    dn = op.attr("dot_dimension_numbers").fields
    return tuple(tuple(dn.get(f"{s}_{k}_dimensions", ())) for s in ("lhs", "rhs")
                 for k in ("batching", "contracting"))


def _static(v) -> bool:
    return all(type(d) is int for d in getattr(v.type, "shape", (None,)))


def _row_bcast(v, rank):
    """The row value [..., M] (rank ``rank`` - 1) broadcast along the last dim into ``v``."""
    op = v.defining_op
    if op is None or op.name != "stablehlo.broadcast_in_dim":
        return None
    src = op.operands[0]
    if src.type.rank != rank - 1 or tuple(ints(op.attr("broadcast_dimensions"))) != tuple(range(rank - 1)):
        return None
    return src


def _is_zero(v) -> bool:
    while v.defining_op is not None and v.defining_op.name == "stablehlo.broadcast_in_dim":
        v = v.defining_op.operands[0]
    op = v.defining_op
    if op is None or op.name != "stablehlo.constant":
        return False
    attr = op.attr("value")
    return isinstance(attr, DenseElementsAttr) and attr.array.size > 0 and attr.is_splat \
        and attr.array.flat[0] == 0


def _last_dim_reduce(op, rank=None) -> bool:
    return (op is not None and op.name == "stablehlo.reduce" and len(op.operands) == 2
            and len(op.results) == 1
            and tuple(ints(op.attr("dimensions"))) == (op.operands[0].type.rank - 1,)
            and (rank is None or op.operands[0].type.rank == rank))


def match(pv) -> Attention | None:
    """The attention ending in dot_general ``pv``, or None."""
    if pv.name != "stablehlo.dot_general" or len(pv.operands) != 2:
        return None
    lhs, v = pv.operands
    el = pv.result.type.element
    r = lhs.type.rank
    lb, lc, rb, rc = _dims(pv)
    if el not in ("f32", "f64") or lhs.type.element != el or v.type.element != el \
            or not (_static(lhs) and _static(v) and _static(pv.result)) or r < 2 \
            or lb != tuple(range(r - 2)) or lc != (r - 1,) or len(rc) != 1 or v.type.rank - len(rb) != 2:
        return None
    p2 = lhs
    while p2.defining_op is not None and p2.defining_op.name == "stablehlo.reshape" \
            and p2.defining_op.operands[0].type.shape[-2:] == p2.type.shape[-2:]:
        p2 = p2.defining_op.operands[0]
    rank = p2.type.rank
    M, N = lhs.type.shape[-2:]
    pred, zero_first, p = None, False, p2
    op = p2.defining_op
    if op is not None and op.name == "stablehlo.select":
        c, a, b = op.operands
        if _is_zero(a):
            p, zero_first = b, True
        elif _is_zero(b):
            p = a
        else:
            return None
        bc = c.defining_op
        if bc is None or bc.name != "stablehlo.broadcast_in_dim" or bc.operands[0].type.rank != rank \
                or bc.operands[0].type.shape[-1] != 1 \
                or tuple(ints(bc.attr("broadcast_dimensions"))) != tuple(range(rank)):
            return None
        pred = bc.operands[0]
    div = p.defining_op
    if div is None or div.name != "stablehlo.divide":
        return None
    e, lsum_b = div.operands
    lsum = _row_bcast(lsum_b, rank)
    red = lsum.defining_op if lsum is not None else None
    ex = e.defining_op
    if not _last_dim_reduce(red, rank) or red.operands[0] is not e or not _is_zero(red.operands[1]) \
            or combiner(red) != "stablehlo.add" or ex is None or ex.name != "stablehlo.exponential":
        return None
    sub = ex.operands[0].defining_op
    if sub is None or sub.name != "stablehlo.subtract" or _row_bcast(sub.operands[1], rank) is None:
        return None
    x = sub.operands[0]
    qk = _score_dot(x)
    if qk is None or x.type.shape[-2:] != (M, N):
        return None
    qb, qc, kb, kc = _dims(qk)
    q, k = qk.operands
    s = qk.result
    if len(qc) != 1 or len(kc) != 1 or qb != tuple(range(len(qb))) or kb != tuple(range(len(kb))) \
            or q.type.rank != len(qb) + 2 or k.type.rank != len(kb) + 2 \
            or tuple(s.type.shape[-2:]) != (M, N) or s.type.element != el \
            or not (_static(q) and _static(k)):
        return None
    B = prod(s.type.shape[:-2])
    if B != prod(x.type.shape[:-2]) or B != prod(lhs.type.shape[:-2]) or not _static(x):
        return None
    inside = _between(qk, pv)
    if inside is None:
        return None
    rows = B * M
    sides = _side_reductions(pred, inside, rows) if pred is not None else []
    if sides is None or any(not _reads_only_x(o.operands[0], x, inside, qk) for o in sides):
        return None
    if _side_reductions(sub.operands[1].defining_op.operands[0], inside, rows) is None:
        return None
    return Attention(qk, pv, x, sides, pred, zero_first, B, M, N,
                     q.type.shape[qc[0]], pv.result.type.shape[-1])


def _score_dot(x):
    """The dot_general X is made from through elementwise ops and reshapes
    (the only operand of each that leads to one)."""
    v = x
    for _ in range(64):
        op = v.defining_op
        if op is None:
            return None
        if op.name == "stablehlo.dot_general":
            return op
        if op.name == "stablehlo.reshape":
            v = op.operands[0]
            continue
        if op.name not in shlo.ELEMENTWISE or len(op.results) != 1:
            return None
        leads = [o for o in op.operands if _leads_to_dot(o)]
        if len(leads) != 1:
            return None
        v = leads[0]
    return None


def _leads_to_dot(v, limit=64) -> bool:
    """Whether a dot_general makes ``v`` through elementwise ops and reshapes."""
    stack, seen = [v], set()
    while stack and len(seen) < limit:
        op = stack.pop().defining_op
        if op is None or id(op) in seen:
            continue
        seen.add(id(op))
        if op.name == "stablehlo.dot_general":
            return True
        if op.name in shlo.ELEMENTWISE or op.name == "stablehlo.reshape":
            stack.extend(op.operands)
    return False


def _between(qk, pv):
    """The ops on paths from ``qk`` to ``pv`` (both included), if no value
    they make is read outside them; else None."""
    down, stack = {id(qk): qk}, [qk]
    while stack:
        op = stack.pop()
        for res in op.results:
            for user, _ in res.uses:
                if id(user) not in down and user.parent is qk.parent:
                    down[id(user)] = user
                    if user is not pv:
                        stack.append(user)
    inside, stack = {id(pv): pv}, [pv]
    while stack:
        op = stack.pop()
        for o in op.operands:
            d = o.defining_op
            if d is not None and id(d) in down and id(d) not in inside:
                inside[id(d)] = d
                stack.append(d)
    for op in inside.values():
        if op is pv:
            continue
        if any(id(u) not in inside and not dead(u) for res in op.results for u, _ in res.uses):
            return None
        if op is not qk and op.name not in shlo.ELEMENTWISE and op.name != "stablehlo.reshape" \
                and op.name != "stablehlo.broadcast_in_dim" and not _last_dim_reduce(op):
            return None
    return inside


def dead(op) -> bool:
    """Whether no value ``op`` makes is read (a reshape left behind by an
    earlier rewrite, not yet cleaned up)."""
    return bool(op.results) and not any(r.uses for r in op.results)


def _side_reductions(pred, inside, rows):
    """The reductions over the last dim that the row value ``pred`` (or the
    softmax's shift) reads through ops on ``rows`` elements (one per query
    row), or None if it reads anything else of the attention."""
    out, stack, seen = [], [pred], set()
    while stack:
        op = stack.pop().defining_op
        if op is None or id(op) not in inside or id(op) in seen:
            continue
        seen.add(id(op))
        if _last_dim_reduce(op):
            out.append(op)
            continue
        if op.name not in shlo.ELEMENTWISE and op.name != "stablehlo.broadcast_in_dim" \
                and op.name != "stablehlo.reshape" or prod(op.result.type.shape) != rows:
            return None
        stack.extend(op.operands)
    return out


def _reads_only_x(v, x, inside, qk) -> bool:
    """Whether ``v`` is computed from X (and values outside the attention)
    by elementwise ops only."""
    stack, seen = [v], set()
    while stack:
        u = stack.pop()
        op = u.defining_op
        if u is x or op is None or id(op) not in inside or id(op) in seen:
            continue
        seen.add(id(op))
        if op.name not in shlo.ELEMENTWISE or op is qk:
            return False
        stack.extend(op.operands)
    return True


# -- rendering -------------------------------------------------------------------------------
def emitter_class(base):
    """``base`` (a target's BodyEmitter) with values fixed to C expressions
    whatever index they are asked at (``fixed``): the score, X and the side
    reductions, which the kernel computes itself and asks for at one element."""
    class AttentionEmitter(base):
        fixed = None

        def _load(self, v, idx):
            f = (self.fixed or {}).get(v)
            return f if f is not None else super()._load(v, idx)
    return AttentionEmitter


class Indices:
    """C index tuples of the attention's operands for batch ``b`` (already
    delinearized by ``decls``), query row ``i``, key ``j`` and dim ``d``."""

    def __init__(self, a: Attention, b: str):
        s, x, out = a.qk.result, a.x, a.pv.result
        self.decls = (delinearize_decls(b, s.type.shape[:-2], "aq")
                      + delinearize_decls(b, x.type.shape[:-2], "ax")
                      + delinearize_decls(b, out.type.shape[:-2], "av"))
        self.a = a
        self.qb = [f"aq{k}" for k in range(s.type.rank - 2)]
        self.xb = [f"ax{k}" for k in range(x.type.rank - 2)]
        self.vb = [f"av{k}" for k in range(out.type.rank - 2)]

    @staticmethod
    def _operand(op, side, batch, free, contract):
        lb, lc, rb, rc = _dims(op)
        b, c = (lb, lc) if side == 0 else (rb, rc)
        v = op.operands[side]
        idx = [None] * v.type.rank
        for d, e in zip(b, batch):
            idx[d] = e
        idx[c[0]] = contract
        idx[next(d for d in range(v.type.rank) if d not in b and d not in c)] = free
        return tuple(idx)

    def q(self, i, d):
        return self._operand(self.a.qk, 0, self.qb, i, d)

    def k(self, j, d):
        return self._operand(self.a.qk, 1, self.qb, j, d)

    def v(self, j, d):
        return self._operand(self.a.pv, 1, self.vb, d, j)

    def x(self, i, j):
        return tuple(self.xb) + (i, j)

    def out(self, i, d):
        return tuple(self.vb) + (i, d)


def prepare(renderer, kernel):
    """(match, emitter, params, setup) for an attention kernel."""
    a = match(kernel_pv(kernel))
    if a is None:
        from ..errors import UnsupportedOpError
        raise UnsupportedOpError("stablehlo.dot_general", "the fused attention no longer matches")
    em = emitter_class(renderer.emitter)({}, indent=2)
    params, setup = renderer.params(kernel, em)
    em.fixed = {}
    return a, em, params, setup


def kernel_pv(kernel):
    """The attention's p.v dot_general of ``kernel`` (its root, or what a
    transposing root stores)."""
    from .kernel import store_view
    return store_view(kernel.outputs[0])[0].defining_op


def score(em, a, ix, i, j, q_at=None, k_at=None, dot=None) -> str:
    """Emit X at (i, j): the dot product of q's row and k's row (``dot``
    when computed already; else read through ``q_at(d)`` / ``k_at(d)`` when
    staged, or through the views), then the scores' epilogue; returns X's
    C variable."""
    el = a.pv.result.type.element
    ct = scalar.ctype(el)
    s = dot
    if s is None:
        s = em.var(ct, scalar.literal(el, 0))
        em.open(f"for (int64_t a_d = 0; a_d < {a.D}; ++a_d)")
        qv = q_at("a_d") if q_at else em.value(a.qk.operands[0], ix.q(i, "a_d"))
        kv = k_at("a_d") if k_at else em.value(a.qk.operands[1], ix.k(j, "a_d"))
        em.line(f"{s} += {qv} * {kv};")
        em.close()
    em.fixed[a.qk.result] = s
    em.bindings[a.qk.result] = "a_s"
    x = em.tmp(ct, em.value(a.x, ix.x(i, j)))
    del em.bindings[a.qk.result]
    return x


def side_inits(em, a) -> list:
    """Declare each side reduction's accumulator; their C names."""
    out = []
    for red in a.sides:
        el = red.result.type.element
        out.append(em.var(scalar.ctype(el), em.value(red.operands[1], ())))
    return out


def side_updates(em, a, ix, accs, x, i, j) -> None:
    """Fold X's element ``x`` at (i, j) into the side accumulators."""
    if not a.sides:
        return
    em.open("")
    em.fixed[a.x] = x
    em.bindings[a.x] = "a_x"
    for red, acc in zip(a.sides, accs):
        val = em.value(red.operands[0], ix.x(i, j))
        new, = em.region_call(red.regions[0].blocks[0], [acc, val])
        em.line(f"{acc} = {new};")
    del em.bindings[a.x]
    em.close()


def finish(em, kernel, a, ix, accs, i, d, acc: str, lsum: str) -> None:
    """Store out[i, d] = acc / lsum, the guard applied (side reductions
    taken from ``accs``)."""
    el = a.pv.result.type.element
    ct = scalar.ctype(el)
    val = em.tmp(ct, f"{acc} / {lsum}")
    if a.pred is not None:
        for red, s in zip(a.sides, accs):
            em.fixed[red.result] = s
            em.bindings[red.result] = "a_r"
        pr = em.value(a.pred, ix.x(i, "0"))
        zero = scalar.literal(el, 0)
        val = em.tmp(ct, f"({pr} ? {zero} : {val})" if a.zero_first else f"({pr} ? {val} : {zero})")
        for red in a.sides:
            del em.bindings[red.result]
    from .body import fused_store
    em.line(fused_store(em, kernel, a.pv.result, ix.out(i, d), val))


def render_plain(renderer, kernel):
    """Every target's plan: each workgroup's rows, one after another, each
    walking its keys once with the online softmax (a C array holds the row's
    accumulator)."""
    a, em, params, setup = prepare(renderer, kernel)
    rows = max(1, min(a.M, -(-CPU_ROW_WORK // max(1, a.N * (a.D + a.Dv)))))
    blocks = -(-a.M // rows)
    bytes_ = getattr(renderer, "vector_bytes", None)      # the CPU's: GCC vector extensions
    ct = scalar.ctype(a.pv.result.type.element)
    vec = CVectors(bytes_, ct) if bytes_ else None
    emit_rows(em, kernel, a, renderer.workgroup, rows, blocks,
              vec=(vec, vec.widths()) if vec else None)
    out = [renderer.header(kernel, params)] + setup + renderer.each_workgroup()
    return em.decls, "\n".join(out + em.lines + ["  }", *renderer.kernel_end]), a.B * blocks


def emit_rows(em, kernel, a, wg: str, rows: int, blocks: int, first: str = "0", step: str = "1",
              vec=None) -> None:
    """Workgroup ``wg``'s ``rows`` query rows (of ``blocks`` per batch),
    rows ``first``, ``first + step``, ... of them on this item, each with
    the online softmax over all keys.  ``vec``: (renderer, vector widths)
    to read q, k and v rows as vectors (the widest dividing both head
    dims) where they are contiguous."""
    el = a.pv.result.type.element
    ct = scalar.ctype(el)
    em.line(f"const int64_t a_b = {wg} / {blocks}, a_r0 = ({wg} % {blocks}) * {rows};")
    ix = Indices(a, "a_b")
    for line in ix.decls:
        em.line(line)
    inf, zero = scalar.literal(el, float("-inf")), scalar.literal(el, 0)
    em.open(f"for (int64_t a_i = a_r0 + {first}; a_i < a_r0 + {rows} && a_i < {a.M}; a_i += {step})")
    m, lsum = em.var(ct, inf), em.var(ct, zero)
    em.line(f"{ct} a_acc[{a.Dv}];")
    row = (_vector_rows(em, a, ix, vec) if vec else None) or ScalarRows(em, a, ix)
    accs = side_inits(em, a)
    c = min(KEY_CHUNK, a.N)
    em.line(f"{ct} a_xs[{c}];")
    em.open(f"for (int64_t a_j0 = 0; a_j0 < {a.N}; a_j0 += {c})")
    em.line(f"const int64_t a_n = {a.N} - a_j0 < {c} ? {a.N} - a_j0 : {c};")
    em.open("for (int64_t a_c = 0; a_c < a_n; ++a_c)")
    em.line("const int64_t a_j = a_j0 + a_c;")
    x = score(em, a, ix, "a_i", "a_j", dot=row.score())
    side_updates(em, a, ix, accs, x, "a_i", "a_j")
    em.line(f"a_xs[a_c] = {x};")
    em.close()
    em.line(f"{ct} a_mx = {m};")
    em.line("for (int64_t a_c = 0; a_c < a_n; ++a_c) a_mx = a_xs[a_c] > a_mx ? a_xs[a_c] : a_mx;")
    exp = lambda e: scalar.unary("exponential", el, e)     # noqa: E731
    em.open(f"if (a_mx > {m})")
    em.line(f"const {ct} a_alpha = {exp(f'{m} - a_mx')};")
    em.line(f"{lsum} *= a_alpha;")
    row.scale("a_alpha")
    em.line(f"{m} = a_mx;")
    em.close()
    # (two loops rather than a select per key: the exps vectorise without if-conversion)
    em.line(f"if ({m} == {inf}) for (int64_t a_c = 0; a_c < a_n; ++a_c) a_xs[a_c] = {zero};")
    em.line(f"else for (int64_t a_c = 0; a_c < a_n; ++a_c) a_xs[a_c] = {exp(f'a_xs[a_c] - {m}')};")
    em.line(f"for (int64_t a_c = 0; a_c < a_n; ++a_c) {lsum} += a_xs[a_c];")
    em.open("for (int64_t a_c = 0; a_c < a_n; ++a_c)")
    em.line("const int64_t a_j = a_j0 + a_c;")
    row.accumulate("a_xs[a_c]")
    em.close()
    em.close()
    row.spill("a_acc")
    em.open(f"for (int64_t a_d = 0; a_d < {a.Dv}; ++a_d)")
    finish(em, kernel, a, ix, accs, "a_i", "a_d", "a_acc[a_d]", lsum)
    em.close()
    em.close()


_LOAD = re.compile(r"^const \w+ (\w+) = (\w+)\[(.*)\];$")


def row_pointer(em, operand, idx, d: str, emit: bool = True):
    """C pointer to ``operand``'s element at ``idx`` with its dim read at
    ``d`` set to 0, when the emitter reads the operand (through its views)
    from a binding at an offset that ends in ``+ d``: consecutive elements
    along that dim.  The index temporaries it needs are emitted into ``em``
    (``emit``); None when the read is not such a load."""
    probe = type(em)(em.bindings, em.depth)
    probe.fixed, probe.counter = {}, em.counter
    probe.value(operand, idx)
    lines = [x.strip() for x in probe.lines]
    hit = _LOAD.match(lines[-1]) if lines else None
    if hit is None or hit.group(2) not in em.bindings.values():
        return None
    at = hit.group(3)
    if at == d:
        base = "0"
    elif at.endswith(f" + {d}") and len(re.findall(rf"\b{d}\b", at)) == 1:
        base = at[: -len(f" + {d}")]
    else:
        return None
    if emit:
        em.lines += probe.lines[:-1]
        em.counter = probe.counter
    return f"({hit.group(2)} + {base})"


def _vector_rows(em, a, ix, vec):
    """The vector form of a row's dot products and accumulator (``VectorRows``),
    declared here, or None where q, k or v rows are not contiguous."""
    target, widths = vec
    w = next((w for w in widths if a.D % w == 0 and a.Dv % w == 0), None)
    if w is None:
        return None
    k = row_pointer(em, a.qk.operands[1], ix.k("a_j", "a_d"), "a_d", emit=False)
    v = row_pointer(em, a.pv.operands[1], ix.v("a_j", "a_d"), "a_d", emit=False)
    q = row_pointer(em, a.qk.operands[0], ix.q("a_i", "a_d"), "a_d") if k and v else None
    if q is None:
        return None
    return VectorRows(em, target, w, scalar.ctype(a.pv.result.type.element), a, ix, q)


class ScalarRows:
    """A query row's dot products (score's loop) and its accumulator, the
    C array ``a_acc``, element by element."""

    def __init__(self, em, a, ix):
        self.em, self.a, self.ix = em, a, ix
        em.line(f"for (int64_t a_d = 0; a_d < {a.Dv}; ++a_d) a_acc[a_d] = "
                f"{scalar.literal(a.pv.result.type.element, 0)};")

    def score(self):
        return None

    def scale(self, alpha: str) -> None:
        self.em.line(f"for (int64_t a_d = 0; a_d < {self.a.Dv}; ++a_d) a_acc[a_d] *= {alpha};")

    def accumulate(self, p: str) -> None:
        em, a = self.em, self.a
        em.open(f"for (int64_t a_d = 0; a_d < {a.Dv}; ++a_d)")
        em.line(f"a_acc[a_d] += {p} * {em.value(a.pv.operands[1], self.ix.v('a_j', 'a_d'))};")
        em.close()

    def spill(self, acc: str) -> None:
        pass


class CVectors:
    """GCC's vector extensions spelled as VectorRows asks a GPU target for
    its vectors (the CPU variants' rows)."""

    def __init__(self, vector_bytes: int, ct: str):
        self.vb, self.ct = vector_bytes, ct
        self.size = 8 if ct == "double" else 4

    def widths(self) -> tuple:
        w, out = self.vb // self.size, []
        while w >= 2:
            out.append(w)
            w //= 2
        return tuple(out)

    def decls(self, w: int) -> list:
        vt, n = self.vector_type(self.ct, w), w * self.size
        return [f"typedef {self.ct} {vt} __attribute__((vector_size({n})));",
                f"typedef {self.ct} {vt}u __attribute__((vector_size({n}), aligned({self.size}), may_alias));"]

    def vector_type(self, ct: str, w: int) -> str:
        return f"tvm_{ct}x{w}"

    def vector_splat(self, ct: str, w: int, value: str) -> str:
        return f"(({self.vector_type(ct, w)}){{0}} + ({value}))"

    def vector_load(self, w: int, pointer: str) -> str:
        return f"(*(const {self.vector_type(self.ct, w)}u*)({pointer}))"

    def vector_store(self, w: int, value: str, pointer: str) -> str:
        return f"*({self.vector_type(self.ct, w)}u*)({pointer}) = {value};"

    def vector_sum(self, w: int, value: str) -> str:
        lanes = [f"{value}[{k}]" for k in range(w)]
        while len(lanes) > 1:
            lanes = [f"({a} + {b})" for a, b in zip(lanes[::2], lanes[1::2])]
        return lanes[0]


class VectorRows:
    """A query row's q (held in vectors), its dot products with k rows and
    its accumulator over v rows, in vectors of ``w`` lanes."""

    def __init__(self, em, target, w, ct, a, ix, q):
        self.em, self.t, self.w, self.ct, self.a, self.ix = em, target, w, ct, a, ix
        self.nq, self.nv = a.D // w, a.Dv // w
        self.vt = target.vector_type(ct, w)
        em.decls += [d for d in getattr(target, "decls", lambda w: [])(w) if d not in em.decls]
        zero = target.vector_splat(ct, w, scalar.literal(a.pv.result.type.element, 0))
        em.line(f"{self.vt} a_qv[{self.nq}], a_av[{self.nv}];")
        em.line(f"for (int a_u = 0; a_u < {self.nq}; ++a_u) a_qv[a_u] = {target.vector_load(w, f'{q} + a_u * {w}')};")
        em.line(f"for (int a_u = 0; a_u < {self.nv}; ++a_u) a_av[a_u] = {zero};")
        self.zero = zero

    def score(self) -> str:
        em, t, w = self.em, self.t, self.w
        em.line(f"{self.vt} a_sv = {self.zero};")
        k = row_pointer(em, self.a.qk.operands[1], self.ix.k("a_j", "a_d"), "a_d")
        em.line(f"for (int a_u = 0; a_u < {self.nq}; ++a_u) a_sv += a_qv[a_u] * {t.vector_load(w, f'{k} + a_u * {w}')};")
        return self.em.tmp(self.ct, t.vector_sum(w, "a_sv"))

    def scale(self, alpha: str) -> None:
        self.em.line(f"for (int a_u = 0; a_u < {self.nv}; ++a_u) a_av[a_u] *= {alpha};")

    def accumulate(self, p: str) -> None:
        t, w = self.t, self.w
        v = row_pointer(self.em, self.a.pv.operands[1], self.ix.v("a_j", "a_d"), "a_d")
        self.em.line(f"for (int a_u = 0; a_u < {self.nv}; ++a_u) a_av[a_u] += {p} * {t.vector_load(w, f'{v} + a_u * {w}')};")

    def spill(self, acc: str) -> None:
        """The accumulator into the scalar array ``acc``."""
        t, w = self.t, self.w
        self.em.line(f"for (int a_u = 0; a_u < {self.nv}; ++a_u) {t.vector_store(w, 'a_av[a_u]', f'{acc} + a_u * {w}')}")
