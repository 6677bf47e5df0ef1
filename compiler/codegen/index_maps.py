"""Index arithmetic of fused kernels as C text, without a division per
element where the layout allows it.

A kernel's innermost loop walks the last dimension of its result; every
operand it pulls is indexed through the producers' index maps.  A reshape
used to linearize the whole index and split it again (``(t / 512) % 64``),
so an elementwise kernel behind a reshape did a division and a modulo per
element and never vectorised.  Two things remove them:

- ``reshape_index`` maps a reshape group by group: runs of dims whose sizes
  multiply to the same number on both sides.  A dim that maps to one dim is
  passed through; only groups that really merge or split dims combine
  indices, and a split of one index needs no modulo on its outermost part.
- Split parts are ``Split`` strings that remember where they came from, so
  ``linearize`` folds a run of them back into the offset they were split
  from: a load behind a reshape that merges dims reads ``x[t]``, not
  ``x[((t / 64) % 2) * 64 + t % 64]``.
"""
from __future__ import annotations


class Split(str):
    """The C text of ``(lin / stride) % size`` (``size`` None: no modulo,
    the outermost part of a split), remembering its three parts."""
    lin: str
    stride: int
    size: int | None

    def __new__(cls, lin: str, stride: int, size):
        q = lin if stride == 1 else f"({lin} / {stride})"
        s = super().__new__(cls, q if size is None else f"({q} % {size})")
        s.lin, s.stride, s.size = lin, stride, size
        return s


def _chain_end(idx, shape, k) -> int:
    """The last position j >= k such that idx[k..j] (unit dims skipped) are
    Splits of one offset, each the next finer digit of the one before it
    over ``shape``'s dims; k when there is no such run."""
    first = idx[k]
    if not isinstance(first, Split) or (first.size is not None and first.size != shape[k]):
        return k
    end, prev, j = k, first, k + 1
    while j < len(idx):
        if shape[j] == 1:
            j += 1
            continue
        cur = idx[j]
        if not (isinstance(cur, Split) and cur.lin == prev.lin and cur.size == shape[j]
                and prev.stride == cur.stride * shape[j]):
            break
        end, prev, j = j, cur, j + 1
    return end


def _terms(idx, shape):
    """(C index, dim size) per dim of ``idx`` over ``shape``, with each run of
    Split digits of one offset folded into one term."""
    out, k = [], 0
    while k < len(idx):
        end = _chain_end(idx, shape, k)
        if end == k:
            out.append((idx[k], shape[k]))
            k += 1
            continue
        size = 1
        for d in shape[k:end + 1]:
            size *= d
        first, last = idx[k], idx[end]
        out.append((Split(last.lin, last.stride, None if first.size is None else size), size))
        k = end + 1
    return out


def linearize(idx, shape) -> str:
    """Row-major linear offset of ``idx`` in ``shape`` as a C expression."""
    expr = None
    for i, d in _terms(tuple(idx), tuple(shape)):
        if expr is None:
            expr = i
        elif d == 1:
            continue
        elif expr == "0":
            expr = i
        else:
            expr = f"({expr}) * {d} + {i}" if i != "0" else f"({expr}) * {d}"
    return expr if expr is not None else "0"


def delinearize(lin: str, shape) -> tuple:
    """Multi-index of row-major offset ``lin`` (< the size of ``shape``) in
    ``shape``: Split digits; unit dims are "0", the outermost other dim takes
    no modulo."""
    outer = next((k for k, d in enumerate(shape) if d != 1), len(shape))
    out, stride = [], 1
    for k in range(len(shape) - 1, -1, -1):
        d = shape[k]
        out.append("0" if d == 1 else Split(lin, stride, None if k == outer else d))
        stride *= d
    return tuple(reversed(out))


def _groups(src, dst):
    """Pairs (src dims, dst dims) of runs with equal products, unit dims left
    out, covering both shapes in order; None when the sizes do not pair up
    (zero-size shapes)."""
    s = [k for k, d in enumerate(src) if d != 1]
    t = [k for k, d in enumerate(dst) if d != 1]
    out, i, j = [], 0, 0
    while i < len(s) and j < len(t):
        gs, gt = [s[i]], [t[j]]
        ps, pt = src[s[i]], dst[t[j]]
        i, j = i + 1, j + 1
        while ps != pt:
            if ps < pt and i < len(s):
                ps *= src[s[i]]
                gs.append(s[i])
                i += 1
            elif pt < ps and j < len(t):
                pt *= dst[t[j]]
                gt.append(t[j])
                j += 1
            else:
                return None
        out.append((gs, gt))
    return out if i == len(s) and j == len(t) else None


def reshape_index(idx, src, dst, tmp, factors=None):
    """The operand index of a reshape from ``src`` to ``dst`` (static shapes)
    at result index ``idx``; ``tmp(expr)`` names an int64 temporary.  None
    when the shapes do not pair up (the caller goes through one offset).
    ``factors``: index -> (q, p, b) for a loop index walked as ``q * b + p``
    (``split_inner_loop``): a split of it whose last dim is ``b`` takes p."""
    if 0 in src or 0 in dst:
        return None
    groups = _groups(src, dst)
    if groups is None:
        return None
    out = ["0"] * len(src)
    for gs, gt in groups:
        if len(gs) == 1 and len(gt) == 1:
            out[gs[0]] = idx[gt[0]]
            continue
        lin = linearize(tuple(idx[d] for d in gt), tuple(dst[d] for d in gt))
        if len(gs) == 1:
            out[gs[0]] = lin
            continue
        q, p, b = (factors or {}).get(lin, (None, None, None))
        if q is not None and src[gs[-1]] == b:        # no division: the loop walks the digits
            for d, v in zip(gs, delinearize(q, tuple(src[d] for d in gs[:-1])) + (p,)):
                out[d] = v
            continue
        lin = lin if lin.replace("_", "a").isalnum() else tmp(lin)
        for d, v in zip(gs, delinearize(lin, tuple(src[d] for d in gs))):
            out[d] = v
    return tuple(out)


def split_inner_loop(reshapes, inner: int, chunk: int) -> int:
    """A factor ``b`` to walk a kernel's innermost index as ``q * b + p``
    (two loops), taken from the reshapes of its body that merge dims into a
    last dim of size ``inner`` (attention's heads merged after a transpose:
    ``[s, h, d] -> [s, h*d]`` reads d-runs of the source), or 0.  The loop
    chunk must hold whole runs."""
    for src, dst in reshapes:
        if dst and dst[-1] == inner and len(src) >= 2 and 8 <= src[-1] < inner \
                and inner % src[-1] == 0 and chunk % src[-1] == 0 and src[-1] != dst[-1]:
            groups = _groups(src, dst)
            if groups and len(groups[-1][0]) > 1 and groups[-1][1] == [len(dst) - 1]:
                return src[-1]
    return 0


def delinearize_decls(lin, shape, prefix, start=0) -> list[str]:
    """C declarations ``const int64_t <prefix><start+k> = ...`` of the
    multi-index of row-major offset ``lin`` in ``shape``."""
    decls, stride = [], 1
    for k in range(len(shape) - 1, -1, -1):
        d = shape[k]
        q = lin if stride == 1 else f"({lin} / {stride})"
        e = "0" if d == 1 else (q if k == 0 else f"{q} % {d}")
        decls.append(f"const int64_t {prefix}{start + k} = {e};")
        stride *= d
    return list(reversed(decls))
