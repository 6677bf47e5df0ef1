"""JAX's linear algebra exported for the CPU (LAPACK custom calls: geqrf,
orgqr, gesdd, syevd/heevd, potrf, getrf, trsm) compiled to tensorvm's own
kernels (passes/lapack_calls.py) and run on local-task and opencl.

One exported program per element type computes every decomposition at once
(one compile each, cached for the module).  Values are checked against JAX
where they are unique (singular values, eigenvalues, Cholesky, solve, inv,
det, LU with its pivots, triangular solve) and through reconstruction and
orthogonality where the decomposition has sign / phase freedom (QR's and
SVD's vectors, eigenvectors).
"""
import functools

import numpy as np
import pytest

jax = pytest.importorskip("jax")
import jax.numpy as jnp  # noqa: E402
import jax.scipy.linalg as jsl  # noqa: E402
from jax import export  # noqa: E402

from tensorvm import hal  # noqa: E402
from tensorvm.compiler import compile_str  # noqa: E402
from tensorvm.compiler.codegen import cuda as cuda_codegen  # noqa: E402
from tensorvm.compiler.errors import UnsupportedOpError  # noqa: E402
from tensorvm.runtime import load_module  # noqa: E402

OPENCL = hal.registry.driver_availability("opencl")
CUDA = hal.registry.driver_availability("cuda")
CUDA_TOOLCHAIN = cuda_codegen.have_toolchain()
DTYPES = ["float32", "float64", "complex64", "complex128"]
SHAPES = {"sq": (2, 5, 5), "herm": (2, 4, 4), "tall": (2, 5, 3), "wide": (3, 5),
          "low": (2, 4, 4), "b": (2, 5, 2)}
#: Element types that run every decomposition and shape (the others run the
#: square ones: the same templates, another element type).
FULL = ("float32", "complex128")


def _program(sq, herm, tall, wide, low, b):
    spd = herm
    q1, r1 = jnp.linalg.qr(tall)
    q2, r2 = jnp.linalg.qr(tall, mode="complete")
    q3, r3 = jnp.linalg.qr(wide)
    u1, s1, v1 = jnp.linalg.svd(tall)
    u2, s2, v2 = jnp.linalg.svd(wide, full_matrices=False)
    u3, s3, v3 = jnp.linalg.svd(wide)
    u4, s4, v4 = jnp.linalg.svd(low)                   # rank 1: completed bases
    w, v = jnp.linalg.eigh(herm)
    chol = jnp.linalg.cholesky(spd)
    p, l, u = jax.vmap(jsl.lu)(sq)
    tri = jsl.solve_triangular(chol, b[:, :4], lower=True, trans="C")
    return (q1, r1, q2, r2, q3, r3, u1, s1, v1, u2, s2, v2, u3, s3, v3, u4, s4, v4,
            jnp.linalg.svd(sq, compute_uv=False), w, v, chol,
            jnp.linalg.solve(sq, b), jnp.linalg.inv(sq), jnp.linalg.det(sq), p, l, u, tri)


def _square_program(sq, herm, b):
    q, r = jnp.linalg.qr(sq)
    u, s, vh = jnp.linalg.svd(sq)
    w, v = jnp.linalg.eigh(herm)
    return (q, r, u, s, vh, w, v, jnp.linalg.cholesky(herm), jnp.linalg.solve(sq, b),
            jnp.linalg.inv(sq), jnp.linalg.det(sq))


def _inputs(dtype):
    rng = np.random.default_rng(7)

    def draw(shape):
        x = rng.standard_normal(shape)
        if "complex" in dtype:
            x = x + 1j * rng.standard_normal(shape)
        return x
    x = {k: draw(s) for k, s in SHAPES.items()}
    h = x["herm"]
    x["herm"] = h @ np.conj(np.swapaxes(h, -1, -2)) + 4 * np.eye(4)
    c = draw((2, 4, 1))
    x["low"] = c @ np.conj(np.swapaxes(c, -1, -2))
    return [x[k].astype(dtype) for k in SHAPES]


@functools.lru_cache(maxsize=None)
def _exported(dtype):
    """(MLIR text, JAX's results on _inputs) of the dtype's program."""
    fn = jax.jit(_program if dtype in FULL else _square_program)
    with jax.enable_x64(True):
        args = _args(dtype)
        specs = [jax.ShapeDtypeStruct(a.shape, dtype) for a in args]
        text = export.export(fn, platforms=["cpu"])(*specs).mlir_module()
        return text, [np.asarray(r) for r in fn(*args)]


def _args(dtype):
    x = _inputs(dtype)
    return x if dtype in FULL else [x[0], x[1], x[5]]


@functools.lru_cache(maxsize=None)
def _compiled(dtype):
    """One module per dtype, for every device (opencl too where it exists)."""
    targets = ["cpu"] if OPENCL is not None else ["cpu", "opencl"]
    return compile_str(_exported(dtype)[0], targets=targets)


def _run(dtype, device):
    if device == "opencl" and OPENCL is not None:
        pytest.skip(f"opencl unavailable: {OPENCL}")
    _, ref = _exported(dtype)
    got = [np.asarray(g) for g in load_module(_compiled(dtype), device=device).main(*_args(dtype))]
    assert [g.shape for g in got] == [r.shape for r in ref]
    assert [g.dtype for g in got] == [r.dtype for r in ref]
    tol = 5e-5 if dtype in ("float32", "complex64") else 1e-11
    return got, ref, tol


def _h(x):
    return np.conj(np.swapaxes(x, -1, -2))


def _close(got, want, tol, what):
    scale = max(1.0, float(np.max(np.abs(want))) if np.size(want) else 1.0)
    np.testing.assert_allclose(got, want, rtol=0, atol=tol * scale, err_msg=what)


def _unitary(q, tol, what, rows=False):
    g = q @ _h(q) if rows else _h(q) @ q
    _close(g, np.broadcast_to(np.eye(g.shape[-1]), g.shape), tol, what + " orthonormal")


@pytest.mark.parametrize("dtype,device", [(d, "local-task") for d in FULL] + [("float32", "opencl")])
def test_jnp_linalg_matches_jax(dtype, device):
    got, ref, tol = _run(dtype, device)
    sq, herm, tall, wide, low, b = _inputs(dtype)
    (q1, r1, q2, r2, q3, r3, u1, s1, v1, u2, s2, v2, u3, s3, v3, u4, s4, v4,
     s5, w, v, chol, x, inv, det, p, l, u, tri) = got
    for q, r, a, name in ((q1, r1, tall, "qr"), (q2, r2, tall, "qr complete"),
                          (q3, r3, wide, "qr wide")):
        _close(q @ r, a, tol, name)
        _unitary(q, tol, name)
        assert np.all(np.tril(r, -1) == 0), name
    for k, (uu, ss, vv, a, full) in enumerate(((u1, s1, v1, tall, True), (u2, s2, v2, wide, False),
                                               (u3, s3, v3, wide, True), (u4, s4, v4, low, True))):
        name = f"svd #{k}"
        _close(ss, ref[7 + 3 * k], tol, name + " values")
        kk = ss.shape[-1]
        _close((uu[..., :kk] * ss[..., None, :]) @ vv[..., :kk, :], a, tol, name)
        _unitary(uu, tol, name + " U")
        _unitary(vv, tol, name + " Vh", rows=True)
        if full:
            assert uu.shape[-1] == a.shape[-2] and vv.shape[-2] == a.shape[-1]
    _close(s5, ref[18], tol, "svdvals")
    _close(w, ref[19], tol, "eigh values")
    _close((v * w[..., None, :]) @ _h(v), herm, tol, "eigh")
    _unitary(v, tol, "eigh vectors")
    for k, name in ((21, "cholesky"), (22, "solve"), (23, "inv"), (24, "det"), (25, "lu P"),
                    (26, "lu L"), (27, "lu U"), (28, "solve_triangular")):
        _close(got[k], ref[k], tol * 10, name)


@pytest.mark.parametrize("dtype,device", [(d, "local-task") for d in DTYPES if d not in FULL]
                         + [("complex64", "opencl")])
def test_square_decompositions_per_dtype(dtype, device):
    _check_square(dtype, *_run(dtype, device))


def _check_square(dtype, got, ref, tol):
    sq, herm = _inputs(dtype)[:2]
    q, r, u, s, vh, w, v = got[:7]
    _close(q @ r, sq, tol, "qr")
    _unitary(q, tol, "qr")
    _close(s, ref[3], tol, "svd values")
    _close((u * s[..., None, :]) @ vh, sq, tol, "svd")
    _unitary(u, tol, "svd U")
    _unitary(vh, tol, "svd Vh", rows=True)
    _close(w, ref[5], tol, "eigh values")
    _close((v * w[..., None, :]) @ _h(v), herm, tol, "eigh")
    _unitary(v, tol, "eigh vectors")
    for k, name in ((7, "cholesky"), (8, "solve"), (9, "inv"), (10, "det")):
        _close(got[k], ref[k], tol * 10, name)


@pytest.mark.skipif(CUDA_TOOLCHAIN is not None, reason=f"no CUDA toolchain: {CUDA_TOOLCHAIN}")
def test_cuda_sources_build_and_run_where_a_gpu_is():
    """The same kernels as CUDA C: nvcc and ptxas accept them; run on a GPU."""
    vmfb = compile_str(_exported("complex64")[0], targets=["cuda"])
    if CUDA is not None:
        pytest.skip(f"cuda driver unavailable: {CUDA}")
    got = [np.asarray(g) for g in load_module(vmfb, device="cuda").main(*_args("complex64"))]
    _check_square("complex64", got, _exported("complex64")[1], 5e-5)


def test_not_positive_definite_cholesky_is_nan_like_jax():
    text = export.export(jax.jit(jnp.linalg.cholesky), platforms=["cpu"])(
        jax.ShapeDtypeStruct((2, 3, 3), "float32")).mlir_module()
    a = np.stack([np.eye(3), -np.eye(3)]).astype(np.float32)
    got = np.asarray(load_module(compile_str(text), device="local-task").main(a))
    want = np.asarray(jnp.linalg.cholesky(a))
    assert np.isnan(want[1, 0, 0])
    np.testing.assert_array_equal(got, want)      # NaN where JAX has NaN


def test_singular_lu_and_householder_product():
    """A singular matrix's LU (info > 0 keeps the factors, as LAPACK does) and
    IREE's ``ProductOfElementaryHouseholderReflectors`` spelling of orgqr."""
    a = np.array([[1, 2, 3], [2, 4, 6], [1, 0, 1]], np.float32)
    text = export.export(jax.jit(jsl.lu), platforms=["cpu"])(
        jax.ShapeDtypeStruct((3, 3), "float32")).mlir_module()
    got = load_module(compile_str(text), device="local-sync").main(a)
    for g, r in zip(got, jsl.lu(a)):
        np.testing.assert_allclose(np.asarray(g), np.asarray(r), atol=1e-6)
    mlir = """
func.func @main(%a: tensor<4x3xf32>, %t: tensor<3xf32>) -> tensor<4x3xf32> {
  %0 = stablehlo.custom_call @ProductOfElementaryHouseholderReflectors(%a, %t)
       : (tensor<4x3xf32>, tensor<3xf32>) -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}"""
    rng = np.random.default_rng(1)
    packed, taus = rng.standard_normal((4, 3)).astype(np.float32), np.float32([1.2, 0.4, 1.9])
    want = np.eye(4)[:, :3]
    for j in reversed(range(3)):                # Q = H_0 H_1 H_2 I[:, :3]
        vec = np.concatenate([np.zeros(j), [1.0], packed[j + 1:, j]])
        want = want - taus[j] * np.outer(vec, vec @ want)
    got = load_module(compile_str(mlir), device="local-sync").main(packed, taus)
    np.testing.assert_allclose(np.asarray(got), want, atol=1e-5)


def _eig_program(a, c):
    return (*jax.lax.linalg.eig(a, compute_left_eigenvectors=True),
            *jax.lax.linalg.eig(c, compute_left_eigenvectors=True))


@functools.lru_cache(maxsize=None)
def _eig_module():
    rng = np.random.default_rng(3)
    rotation = np.zeros((5, 5))
    rotation[:2, :2] = [[0, 1], [-1, 0]]                      # +-i, and 2, 2, 5
    rotation[2:, 2:] = np.diag([2.0, 2, 5])
    special = [np.zeros((5, 5)), np.diag([3.0, 1, 2, 1, 0]),    # zero, repeated values,
               np.eye(5, k=1) + np.eye(5), rotation]              # a Jordan block
    a = np.concatenate([rng.standard_normal((2, 5, 5)), np.stack(special)]).astype(np.float32)
    c = (rng.standard_normal((4, 4)) + 1j * rng.standard_normal((4, 4))).astype(np.complex128)
    with jax.enable_x64(True):
        fn = jax.jit(_eig_program)
        text = export.export(fn, platforms=["cpu"])(
            jax.ShapeDtypeStruct(a.shape, a.dtype), jax.ShapeDtypeStruct(c.shape, c.dtype)).mlir_module()
        ref = [np.asarray(r) for r in fn(a, c)]
    targets = ["cpu"] if OPENCL is not None else ["cpu", "opencl"]
    return compile_str(text, targets=targets), (a, c), ref


@pytest.mark.parametrize("device", ["local-task", "opencl"])
def test_eig_general_matrices(device):
    """?geev (real and complex): eigenvalues as JAX's up to order, right and
    left eigenvectors through their residuals, unit norm."""
    if device == "opencl" and OPENCL is not None:
        pytest.skip(f"opencl unavailable: {OPENCL}")
    vmfb, (a, c), ref = _eig_module()
    got = [np.asarray(g) for g in load_module(vmfb, device=device).main(a, c)]
    assert [g.dtype for g in got] == [r.dtype for r in ref]
    for (w, vl, vr), rw, m, tol in ((got[:3], ref[0], a, 1e-4), (got[3:], ref[3], c, 1e-11)):
        m = m.astype(w.dtype)
        dist = np.abs(w[..., :, None] - rw[..., None, :])      # each of JAX's values is one of ours
        np.testing.assert_allclose(dist.min(-2), 0, atol=tol * 10)
        np.testing.assert_allclose(dist.min(-1), 0, atol=tol * 10)
        _close(m @ vr, vr * w[..., None, :], tol, "right eigenvectors")
        _close(_h(vl) @ m, w[..., :, None] * _h(vl), tol, "left eigenvectors")
        for v in (vl, vr):
            _close(np.linalg.norm(v, axis=-2), np.ones(w.shape), tol, "unit norm")
    wa = got[0]
    pairs = np.abs(wa.imag) > 0                                 # a real matrix: conjugate pairs
    assert np.all(np.sort_complex(wa[pairs]) == np.sort_complex(np.conj(wa[pairs])))


def test_unimplemented_lapack_call_is_refused_by_name():
    text = export.export(jax.jit(jax.lax.linalg.hessenberg), platforms=["cpu"])(
        jax.ShapeDtypeStruct((3, 3), "float32")).mlir_module()
    with pytest.raises(UnsupportedOpError, match=r"lapack_sgehrd_ffi.*Hessenberg reduction has no "
                                                 r"native kernel"):
        compile_str(text)
