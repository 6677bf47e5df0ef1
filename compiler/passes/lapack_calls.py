"""JAX's CPU linear algebra: the LAPACK custom calls as native kernels.

``jnp.linalg`` / ``jax.scipy.linalg`` exported for the CPU carry
``stablehlo.custom_call @lapack_<x><routine>_ffi`` (``x`` the element type:
s f32, d f64, c complex64, z complex128) around StableHLO that reads
LAPACK's outputs (packed reflectors, 1-based pivots, info codes).  Each such
call becomes a custom kernel of tensorvm's own (codegen/linalg_c.py,
codegen/linalg_jacobi.py) with cpu, opencl and cuda sources, one matrix per
workgroup, batched over the leading dims; the binding pass
(passes/custom_calls.py) tags it like a user kernel.  A declared user kernel
of the same name still wins.

| target | computes | outputs |
|---|---|---|
| ``?geqrf`` | Householder QR | packed R + reflectors, tau |
| ``?orgqr`` / ``?ungqr``, ``ProductOfElementaryHouseholderReflectors`` | Q from reflectors | Q |
| ``?gesdd`` (``mode`` A / S / N) | SVD, one-sided Jacobi | work, s, U, VT, info |
| ``?syevd`` / ``?heevd`` (``mode`` V / N, ``uplo``) | eigh, two-sided Jacobi | vectors, values, info |
| ``?potrf`` (``uplo``) | Cholesky | factor, info |
| ``?getrf`` | LU, partial pivoting | packed LU, ipiv (1-based), info |
| ``?trsm`` (``side``, ``uplo``, ``trans_x``, ``diag``) | triangular solve | X |
| ``?geev`` (``compute_left``, ``compute_right``) | eig, complex Schur form | values, VL, VR, info |

Other ``lapack_*`` targets (``?gesvd``, ``?gees``, ...) raise
``UnsupportedOpError`` naming the target.
"""
from __future__ import annotations

import hashlib
import re

from ..codegen import linalg_c, linalg_jacobi, linalg_schur
from ..codegen.linalg_c import Binding, Element
from ..custom_kernels import CustomKernel
from ..errors import UnsupportedOpError
from ..ir.core import Value
from ..ir.types import TensorType

_TARGET = re.compile(r"^lapack_([sdcz])([a-z]+?)(?:_ffi)?$")
_HOUSEHOLDER = "ProductOfElementaryHouseholderReflectors"
_LETTER = {"s": "f32", "d": "f64", "c": "complex<f32>", "z": "complex<f64>"}
_ROUTINES = {"geqrf", "orgqr", "ungqr", "gesdd", "syevd", "heevd", "potrf", "getrf", "trsm",
             "geev"}
_REFUSED = {"gesvd": "SVD by gesvd",
            "gees": "Schur decomposition", "gehrd": "Hessenberg reduction",
            "sytrd": "tridiagonal reduction", "hetrd": "tridiagonal reduction",
            "gtsv": "tridiagonal solve"}


def is_linalg_target(target: str) -> bool:
    return target == _HOUSEHOLDER or bool(_TARGET.match(target))


def declaration(op, target: str) -> CustomKernel:
    """The kernel for the LAPACK call ``op`` (``@target``); may append a
    scratch result to ``op`` (the eigendecomposition's working matrix)."""
    where = f"custom_call @{target}"
    if target == _HOUSEHOLDER:
        routine, letter = "orgqr", None
    else:
        letter, routine = _TARGET.match(target).groups()
        if routine not in _ROUTINES:
            what = _REFUSED.get(routine, "this LAPACK routine")
            raise UnsupportedOpError(where, f"{what} has no native kernel in tensorvm (targets cpu, "
                                     "opencl, cuda); supported: geqrf, orgqr/ungqr, gesdd, "
                                     "syevd/heevd, geev, potrf, getrf, trsm", op.location)
    for v in (*op.operands, *op.results):
        if not isinstance(v.type, TensorType) or not v.type.is_static:
            raise UnsupportedOpError(where, f"needs static shapes, got {v.type}", op.location)
    if not op.operands or op.operands[0].type.rank < 2:
        raise UnsupportedOpError(where, "takes a batch of matrices (rank >= 2)", op.location)
    mlir = op.operands[0].type.element
    if mlir not in linalg_c.ELEMENTS or (letter is not None and _LETTER[letter] != mlir):
        raise UnsupportedOpError(where, f"element type {mlir} (f32, f64, complex<f32> and "
                                 "complex<f64> match the target's letter)", op.location)
    el = Element(mlir)
    batch = tuple(op.operands[0].type.shape[:-2])
    config = _config(op)
    build = _BUILDERS[routine]
    core_of, expect = build(el, op, config, batch, where)
    scratch = {"syevd": [mlir], "heevd": [mlir],           # the working copy of A
               "geev": ["complex<" + el.real_mlir + ">"] * 2}.get(routine, [])   # T and Q
    for s in scratch:
        op.results.append(Value(TensorType(op.operands[0].type.shape, s), op, len(op.results)))
        expect = expect + [op.operands[0].type.shape]
    if routine == "geev":           # computes in complex arithmetic, real input or not
        el = Element("complex<" + el.real_mlir + ">")
    got = [tuple(r.type.shape) for r in op.results]
    if [tuple(s) for s in expect] != got:
        raise UnsupportedOpError(where, f"result shapes {got}, expected {[tuple(s) for s in expect]}",
                                 op.location)
    allowed = {mlir, el.real_mlir, "i32", "complex<" + el.real_mlir + ">"}
    for v in op.results:
        if v.type.element not in allowed:
            raise UnsupportedOpError(where, f"result element type {v.type.element} (expected "
                                     f"one of {sorted(allowed)})", op.location)
    nb = len(batch)
    binds = [Binding(_ctype(el, v), _size(v.type.shape[nb:])) for v in (*op.operands, *op.results)]
    for v in (*op.operands, *op.results):
        if tuple(v.type.shape[:nb]) != batch:
            raise UnsupportedOpError(where, f"operand/result batch dims differ: {v.type} vs "
                                     f"batch {batch}", op.location)
    shapes = "_".join("x".join(map(str, v.type.shape)) or "s" for v in (*op.operands, *op.results))
    digest = hashlib.sha1(f"{target}|{shapes}|{sorted(config.items())}".encode()).hexdigest()[:10]
    entry = f"la_{el.letter}{routine}_{digest}"
    core = core_of(entry)
    nin = len(op.operands)
    sources = {t: linalg_c.kernel_source(t, entry, el, core, binds[:nin], binds[nin:])
               for t in ("cpu", "opencl", "cuda")}
    types = [(tuple(v.type.shape), v.type.element) for v in (*op.operands, *op.results)]
    return CustomKernel(f"{target}.{entry}", types[:nin], types[nin:], workgroups=_size(batch),
                        c=sources["cpu"], opencl=sources["opencl"], cuda=sources["cuda"],
                        entry=entry)


def _config(op) -> dict:
    """backend_config's byte-character fields: {'mode': 'A', 'uplo': 'L', ...}."""
    cfg = op.attributes.get("mhlo.backend_config")
    out = {}
    for key, a in (getattr(cfg, "entries", None) or {}).items():
        v = getattr(a, "value", None)
        if isinstance(v, int) and 0 < v < 128:
            out[key] = chr(v)
    return out


def _ctype(el: Element, v) -> str:
    e = v.type.element
    if e == "i32":
        return "int32_t"
    return el.ctype if e == el.mlir else el.real


def _size(dims) -> int:
    n = 1
    for d in dims:
        n *= d
    return n


def _mn(op):
    return tuple(op.operands[0].type.shape[-2:])


def _geqrf(el, op, cfg, batch, where):
    m, n = _mn(op)
    return (lambda e: linalg_c.geqrf(e, m, n)), [batch + (m, n), batch + (min(m, n),)]


def _orgqr(el, op, cfg, batch, where):
    m, n = _mn(op)
    if len(op.operands) != 2:
        raise UnsupportedOpError(where, "takes (reflectors, taus)", op.location)
    k = op.operands[1].type.shape[-1]
    if not k <= n <= m:
        raise UnsupportedOpError(where, f"needs taus <= columns <= rows, got {k}, {n}, {m}",
                                 op.location)
    return (lambda e: linalg_c.orgqr(e, m, n, k)), [batch + (m, n)]


def _gesdd(el, op, cfg, batch, where):
    m, n = _mn(op)
    mode = cfg.get("mode", "A")
    if mode not in "ASN" or len(op.results) != 5:
        raise UnsupportedOpError(where, f"mode {mode!r} with {len(op.results)} results "
                                 "(A, S or N with 5 results)", op.location)
    k = min(m, n)
    nb = len(batch)
    u, vt = tuple(op.results[2].type.shape[nb:]), tuple(op.results[3].type.shape[nb:])
    want_u, want_vt = {"A": ((m, m), (n, n)), "S": ((m, k), (k, n))}.get(mode, (u, vt))
    expect = [batch + (m, n), batch + (k,), batch + tuple(want_u), batch + tuple(want_vt), batch]
    return (lambda e: linalg_jacobi.gesdd(e, m, n, mode, tuple(want_u), tuple(want_vt))), expect


def _syevd(el, op, cfg, batch, where):
    m, n = _mn(op)
    if m != n:
        raise UnsupportedOpError(where, f"needs square matrices, got {m}x{n}", op.location)
    lower, vectors = cfg.get("uplo", "L") == "L", cfg.get("mode", "V") == "V"
    return (lambda e: linalg_jacobi.syevd(e, n, lower, vectors)), [batch + (n, n), batch + (n,), batch]


def _potrf(el, op, cfg, batch, where):
    m, n = _mn(op)
    if m != n:
        raise UnsupportedOpError(where, f"needs square matrices, got {m}x{n}", op.location)
    lower = cfg.get("uplo", "L") == "L"
    return (lambda e: linalg_c.potrf(e, n, lower)), [batch + (n, n), batch]


def _getrf(el, op, cfg, batch, where):
    m, n = _mn(op)
    return (lambda e: linalg_c.getrf(e, m, n)), [batch + (m, n), batch + (min(m, n),), batch]


def _trsm(el, op, cfg, batch, where):
    if len(op.operands) != 2:
        raise UnsupportedOpError(where, "takes (a, b)", op.location)
    na, na2 = _mn(op)
    rows, cols = op.operands[1].type.shape[-2:]
    left = cfg.get("side", "L") == "L"
    if na != na2 or na != (rows if left else cols):
        raise UnsupportedOpError(where, f"a {na}x{na2} does not fit b {rows}x{cols}", op.location)
    lower, trans, unit = cfg.get("uplo", "L") == "L", cfg.get("trans_x", "N"), cfg.get("diag", "N") == "U"
    if trans not in "NTC":
        raise UnsupportedOpError(where, f"trans_x {trans!r}", op.location)
    return ((lambda e: linalg_c.trsm(e, rows, cols, left, lower, trans, unit)),
            [batch + (rows, cols)])


def _geev(el, op, cfg, batch, where):
    m, n = _mn(op)
    if m != n:
        raise UnsupportedOpError(where, f"needs square matrices, got {m}x{n}", op.location)
    left, right = cfg.get("compute_left", "N") == "V", cfg.get("compute_right", "V") == "V"
    real = not el.is_complex
    values = [batch + (n,)] * (2 if real else 1)
    return ((lambda e: linalg_schur.geev(e, n, real, left, right)),
            values + [batch + (n, n), batch + (n, n), batch])


_BUILDERS = {"geqrf": _geqrf, "orgqr": _orgqr, "ungqr": _orgqr, "gesdd": _gesdd,
             "syevd": _syevd, "heevd": _syevd, "potrf": _potrf, "getrf": _getrf, "trsm": _trsm,
             "geev": _geev}
