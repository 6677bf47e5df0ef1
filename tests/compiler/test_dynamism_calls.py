"""The dynamism custom calls JAX emits for symbolic shapes (issue 35):
``@stablehlo.dynamic_reduce_window`` (pooling, cumulative ops over a
symbolic length), ``dynamic_top_k``, ``dynamic_approx_top_k`` (and the static
``ApproxTopK``), ``dynamic_rng_bit_generator`` (``jax.random`` under the rbg
PRNGs).  Each program is exported with ``jax.export`` and symbolic shapes,
compiled once, run at several sizes on local-sync, local-task and opencl
(PoCL) and compared with JAX."""
from __future__ import annotations

import functools

import numpy as np
import pytest
from tvm_testing import compiled

from tensorvm import hal, runtime

jax = pytest.importorskip("jax", reason="the programs are exported from JAX")
jnp = pytest.importorskip("jax.numpy")
from jax import export, lax  # noqa: E402

DEVICES = ["local-sync", "local-task"] + (
    ["opencl"] if hal.registry.driver_availability("opencl") is None else [])


def _sym(spec):
    return export.symbolic_shape(spec, constraints=["n >= 4"] if "n" in spec else ())


@functools.lru_cache(maxsize=None)
def exported(name):
    fn, spec, dtype = PROGRAMS[name]
    shape = _sym(spec)
    e = export.export(jax.jit(fn), platforms=["cpu"])(jax.ShapeDtypeStruct(shape, dtype))
    return e.mlir_module()


def _pool2d(x):
    return lax.reduce_window(x, -jnp.inf, lax.max, (1, 3, 3, 1), (1, 2, 2, 1), "SAME")


def _avgpool2d(x):
    return lax.reduce_window(x, 0.0, lax.add, (1, 2, 2, 1), (1, 2, 1, 1), "VALID") / 4


PROGRAMS = {   # name: (function, symbolic shape, dtype)
    "maxpool_1d": (lambda x: lax.reduce_window(x, -jnp.inf, lax.max, (3,), (2,), "SAME"),
                   "n", np.float32),
    "cumsum": (lambda x: jnp.cumsum(x, axis=1), "3, n", np.float32),
    "cummax": (lambda x: lax.cummax(x, axis=0), "n, 2", np.float32),
    "maxpool_2d": (_pool2d, "1, h, w, 2", np.float32),
    "avgpool_2d": (_avgpool2d, "2, h, w, 3", np.float32),
    "top_k_half": (lambda x: lax.top_k(x, x.shape[-1] // 2), "3, n", np.float32),
    "top_k_int": (lambda x: lax.top_k(x, x.shape[0] - 1), "n", np.int32),
    "approx_max_k": (lambda x: lax.approx_max_k(x, x.shape[0] - 2), "n", np.float32),
    "approx_min_k_static": (lambda x: lax.approx_min_k(x, 3, reduction_dimension=1),
                            "2, n", np.float32),
}


def _input(name, sizes):
    fn, spec, dtype = PROGRAMS[name]
    dims = [sizes.get(d.strip(), None) or int(d) for d in spec.split(",")]
    rng = np.random.RandomState(sum(dims))
    if np.dtype(dtype).kind == "i":
        return rng.permutation(np.prod(dims)).reshape(dims).astype(dtype) - 5
    return rng.randn(*dims).astype(dtype)


def run_case(name, device, sizes_list):
    text = exported(name)
    targets = ("cpu", "opencl") if device == "opencl" else ("cpu",)
    m = runtime.load_module(compiled(text, targets), device=device)
    fn = PROGRAMS[name][0]
    for sizes in sizes_list:
        x = _input(name, sizes)
        got = m.main(x)
        want = fn(x)
        got = got if isinstance(got, tuple) else (got,)
        want = want if isinstance(want, (tuple, list)) else (want,)
        assert len(got) == len(want)
        for g, w in zip(got, want):
            g, w = np.asarray(g), np.asarray(w)
            assert g.shape == w.shape and g.dtype == w.dtype, (name, sizes, g.shape, w.shape)
            np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-6, err_msg=f"{name} {sizes}")


SIZES = [{"n": 4, "h": 5, "w": 4}, {"n": 9, "h": 8, "w": 7}, {"n": 16, "h": 3, "w": 11}]


def test_jax_emits_the_dynamism_calls():
    texts = {name: exported(name) for name in PROGRAMS}
    assert "@stablehlo.dynamic_reduce_window" in texts["cumsum"]
    assert "@stablehlo.dynamic_reduce_window" in texts["maxpool_2d"]
    assert "@stablehlo.dynamic_top_k" in texts["top_k_half"]
    assert "@stablehlo.dynamic_approx_top_k" in texts["approx_max_k"]
    assert "@ApproxTopK" in texts["approx_min_k_static"]


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_matches_jax_local_sync(name):
    run_case(name, "local-sync", SIZES)


@pytest.mark.parametrize("device", DEVICES[1:])
@pytest.mark.parametrize("name", ["cumsum", "maxpool_2d", "top_k_half", "approx_max_k"])
def test_matches_jax_on_other_devices(name, device):
    run_case(name, device, SIZES[:2])


@pytest.mark.parametrize("impl", ["threefry2x32", "rbg", "unsafe_rbg"])
def test_jax_random_bit_exact_for_each_prng_impl(impl):
    """jax.random under each default PRNG, over a symbolic shape (the rbg
    PRNGs reach dynamic_rng_bit_generator) and static ones."""
    old = jax.config.jax_default_prng_impl
    jax.config.update("jax_default_prng_impl", impl)
    try:
        def f(seed, x):
            k1, k2 = jax.random.split(jax.random.key(seed))
            return (jax.random.bits(k1, x.shape, jnp.uint32), jax.random.uniform(k2, x.shape),
                    jax.random.normal(k1, (3, 5)), jax.random.randint(k2, (7,), 0, 100),
                    jax.random.bits(k2, (5,), jnp.uint8))
        n, = export.symbolic_shape("n")
        text = export.export(jax.jit(f), platforms=["cpu"])(
            jax.ShapeDtypeStruct((), jnp.uint32), jax.ShapeDtypeStruct((n, 3), jnp.float32)).mlir_module()
        if impl != "threefry2x32":
            assert "@stablehlo.dynamic_rng_bit_generator" in text
        for device in ("local-sync", DEVICES[-1]):
            targets = ("cpu", "opencl") if device == "opencl" else ("cpu",)
            m = runtime.load_module(compiled(text, targets), device=device)
            for rows in (2, 5):
                seed, x = np.uint32(42 + rows), np.zeros((rows, 3), np.float32)
                for j, (g, w) in enumerate(zip(m.main(seed, x), jax.jit(f)(seed, x))):
                    g, w = np.asarray(g), np.asarray(w)
                    assert g.dtype == w.dtype and g.shape == w.shape
                    if j == 2:      # normal: erf_inv of the bits, within an ulp or two
                        np.testing.assert_allclose(g, w, rtol=2e-6, atol=1e-7)
                    else:           # bits, and uniform / randint made of them: exact
                        assert g.tobytes() == w.tobytes(), (impl, device, rows, j)
    finally:
        jax.config.update("jax_default_prng_impl", old)


def test_verify_each_accepts_the_rewritten_forms():
    """With --verify-each, the internal forms (host size operands listed in
    tvm.shape_operands) are not re-checked as spec ops."""
    from tensorvm.compiler import compile_str
    for name in ("cumsum", "top_k_half"):
        compile_str(exported(name), verify_each=True)


BAD_WINDOW = """func.func @main(%x: tensor<?xf32>) -> tensor<?xf32> {
  %i = stablehlo.constant dense<0.0> : tensor<f32>
  %w = stablehlo.constant dense<2> : tensor<1xi32>
  %p = stablehlo.constant dense<0> : tensor<1x2xi32>
  %0 = stablehlo.custom_call @stablehlo.dynamic_reduce_window(%x, %i, %w, %w, %w, %w, %p)
       : (tensor<?xf32>, tensor<f32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1x2xi32>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}"""

BAD_TOP_K = """func.func @main(%x: tensor<?xf32>, %k: tensor<2xi32>) -> (tensor<?xf32>, tensor<?xi32>) {
  %0:2 = stablehlo.custom_call @stablehlo.dynamic_top_k(%x, %k)
       : (tensor<?xf32>, tensor<2xi32>) -> (tensor<?xf32>, tensor<?xi32>)
  return %0#0, %0#1 : tensor<?xf32>, tensor<?xi32>
}"""


@pytest.mark.parametrize("text,message", [
    (BAD_WINDOW, r"custom_call @stablehlo.dynamic_reduce_window.*called_computations"),
    (BAD_TOP_K, r"custom_call @stablehlo.dynamic_top_k.*k of type"),
])
def test_malformed_calls_are_named(text, message):
    from tensorvm.compiler import compile_str
    from tensorvm.compiler.errors import UnsupportedOpError
    with pytest.raises(UnsupportedOpError, match=message):
        compile_str(text)


# JAX's own back-compat programs for these calls (in the installed jax package), with the
# inputs and outputs XLA gave when they were recorded
BACK_COMPAT = [("stablehlo_dynamic_rng_bit_generator", "data_2023_06_17"),
               ("stablehlo_dynamic_top_k", "data_2023_07_16"),
               ("stablehlo_dynamic_top_k", "data_2023_08_11"),
               ("stablehlo_dynamic_approx_top_k", "data_2024_05_30"),
               ("tpu_stablehlo_dynamic_reduce_window", "data_unary_2023_06_17"),
               ("tpu_ApproxTopK", "data_2023_04_17")]
# (data_variadic_2023_06_17 is left out: its init values are no identity of its body, so
# the result is implementation-defined, and TPU folded them in once per window element)


@pytest.mark.parametrize("module,name", BACK_COMPAT)
def test_jax_back_compat_programs(module, name):
    import importlib
    try:
        data = getattr(importlib.import_module(
            f"jax._src.internal_test_util.export_back_compat_test_data.{module}"), name)
    except (ImportError, AttributeError) as e:
        pytest.skip(f"this jax has no {module}.{name}: {e}")
    m = runtime.load_module(compiled(data["mlir_module_text"]), device="local-sync")
    got = m.main(*data["inputs"])
    got = got if isinstance(got, tuple) else (got,)
    assert len(got) == len(data["expected_outputs"])
    for g, e in zip(got, data["expected_outputs"]):
        np.testing.assert_allclose(np.asarray(g), e, rtol=1e-6)
