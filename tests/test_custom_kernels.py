"""User kernels (C, OpenCL C) and host calls behind ``stablehlo.custom_call``:
the sample's JAX model with a fused bias+GELU kernel runs on local-task and
opencl and matches the model computed without it; bad declarations, calls
and bindings raise typed errors that name the call."""
from __future__ import annotations

import pathlib
import shutil
import sys

import numpy as np
import pytest

from tensorvm import compiler, hal, runtime
from tensorvm.compiler import CustomKernel, CustomKernelError, HostCall, UnsupportedOpError
from tensorvm.runtime import MissingCustomCallError

SAMPLE = pathlib.Path(__file__).resolve().parent.parent / "samples" / "custom_kernel"
sys.path.insert(0, str(SAMPLE))
import model as sample  # noqa: E402

pytestmark = pytest.mark.skipif(shutil.which("cc") is None, reason="needs a C compiler")
OPENCL = hal.registry.driver_availability("opencl")


def _gelu_reference(params, x):
    """The sample model in numpy (GELU's tanh form)."""
    h = x @ params["w1"] + params["b1"]
    g = 0.5 * h * (1 + np.tanh(0.7978845608 * (h + 0.044715 * h ** 3)))
    return g @ params["w2"] + params["b2"]


@pytest.fixture(scope="module")
def inputs():
    params = sample.weights()
    x = np.random.default_rng(1).standard_normal((sample.BATCH, sample.IN)).astype(np.float32)
    return params, x


def _run(vmfb, device, params, x, **kw):
    m = runtime.load_module(vmfb, device=device, **kw)
    return np.asarray(m.main(params["w1"], params["b1"], params["w2"], params["b2"], x))


@pytest.mark.parametrize("device", ["local-task", "local-sync"])
def test_c_kernel_in_jax_model(inputs, device):
    params, x = inputs
    got = _run(sample.compile_model(("cpu",)), device, params, x)
    np.testing.assert_allclose(got, _gelu_reference(params, x), rtol=1e-5, atol=1e-5)


@pytest.mark.skipif(OPENCL is not None, reason=f"opencl unavailable: {OPENCL}")
def test_opencl_kernel_in_jax_model(inputs):
    params, x = inputs
    vmfb = sample.compile_model(("cpu", "opencl"))
    np.testing.assert_allclose(_run(vmfb, "opencl", params, x), _gelu_reference(params, x),
                               rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(_run(vmfb, "local-task", params, x), _gelu_reference(params, x),
                               rtol=1e-5, atol=1e-5)


def test_fresh_jax_export_matches_jax(inputs):
    """jax.export -> custom_call -> tensorvm, against the model run by JAX."""
    pytest.importorskip("jax")
    params, x = inputs
    text = sample.export()
    assert "stablehlo.custom_call @bias_gelu" in text
    got = _run(sample.compile_model(("cpu",), text=text), "local-task", params, x)
    np.testing.assert_allclose(got, sample.reference(params, x), rtol=1e-5, atol=1e-5)


def test_custom_kernel_is_its_own_dispatch():
    res = compiler.api.compile_text((SAMPLE / "model.mlir").read_text(), compiler.CompileOptions(
        custom_kernels=sample.kernels(), keep_source=True))
    src = res.stats["c_source"]
    assert src.count("static int bias_gelu(") == 1
    assert "return bias_gelu(st, wg_begin, wg_end);" in src
    assert res.stats["dispatches"]["main"] == 3     # dot, bias_gelu, dot+bias


TWICE = """
func.func @main(%a: tensor<10xf32>) -> tensor<10xf32> {
  %0 = stablehlo.custom_call @twice(%a) : (tensor<10xf32>) -> tensor<10xf32>
  %1 = stablehlo.custom_call @twice(%0) : (tensor<10xf32>) -> tensor<10xf32>
  %2 = stablehlo.negate %1 : tensor<10xf32>
  return %2 : tensor<10xf32>
}"""
# four elements per workgroup: the count is an expression over the result dims
TWICE_C = r"""
static int twice(const tvm_dispatch_state_t* st, uint32_t wg_begin, uint32_t wg_end) {
  const float* x = (const float*)st->bindings[0];
  float* y = (float*)st->bindings[1];
  const int64_t n = (int64_t)(st->binding_lengths[1] / sizeof(float));
  for (int64_t i = (int64_t)wg_begin * 4; i < (int64_t)wg_end * 4 && i < n; ++i) y[i] = 2 * x[i];
  return 0;
}"""
TWICE_CL = r"""
void twice(__global const float* x, __global float* y) {
  const long i = get_group_id(0) * 4 + get_local_id(0);
  if (get_local_id(0) < 4 && i < 10) y[i] = 2 * x[i];
}"""


def _twice(**kw):
    return CustomKernel("twice", ["10xf32"], ["10xf32"], workgroups="cdiv(out0[0], 4)", **kw)


@pytest.mark.parametrize("targets,device", [(("cpu",), "local-task"),
                                            (("cpu", "opencl"), "opencl")])
def test_kernel_called_twice_with_workgroup_expression(targets, device):
    if device == "opencl" and OPENCL is not None:
        pytest.skip(f"opencl unavailable: {OPENCL}")
    vmfb = compiler.compile_str(TWICE, targets=list(targets),
                                custom_kernels=[_twice(c=TWICE_C, opencl=TWICE_CL)])
    a = np.arange(10, dtype=np.float32)
    np.testing.assert_array_equal(np.asarray(runtime.load_module(vmfb, device=device).main(a)),
                                  -4 * a)


# -- host calls -------------------------------------------------------------------------------
HOST = """
func.func @main(%a: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = stablehlo.exponential %a : tensor<2x3xf32>
  %1 = stablehlo.custom_call @py.softmax(%0) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %2 = stablehlo.add %1, %1 : tensor<2x3xf32>
  return %2 : tensor<2x3xf32>
}"""
HOST_DECL = HostCall("py.softmax", ["2x3xf32"], ["2x3xf32"])


def _normalize(e):
    return (e / e.sum(axis=1, keepdims=True)).astype(np.float32)


@pytest.mark.parametrize("device", ["local-sync", "local-task"])
def test_host_call_bound_at_load(device):
    seen = []

    def softmax_rows(e):
        seen.append(e.copy())
        return _normalize(e)
    m = runtime.load_module(compiler.compile_str(HOST, custom_kernels=[HOST_DECL]), device=device,
                            custom_calls={"py.softmax": softmax_rows})
    a = np.random.default_rng(0).standard_normal((2, 3)).astype(np.float32)
    np.testing.assert_allclose(np.asarray(m.main(a)), 2 * _normalize(np.exp(a)), rtol=1e-6)
    np.testing.assert_allclose(seen[0], np.exp(a), rtol=1e-6)   # the device's result, waited for


def test_host_call_may_return_jax_arrays():
    jnp = pytest.importorskip("jax.numpy")
    m = runtime.load_module(compiler.compile_str(HOST, custom_kernels=[HOST_DECL]),
                            custom_calls={"py.softmax": lambda e: jnp.asarray(_normalize(e))})
    a = np.zeros((2, 3), np.float32)
    np.testing.assert_allclose(np.asarray(m.main(a)), np.full((2, 3), 2 / 3, np.float32))


def test_unbound_host_call_is_named_at_load():
    vmfb = compiler.compile_str(HOST, custom_kernels=[HOST_DECL])
    with pytest.raises(MissingCustomCallError, match=r"'py\.softmax'.*custom_calls=") as e:
        runtime.load_module(vmfb)
    assert e.value.names == ["py.softmax"]


def test_host_call_result_of_wrong_type_is_named():
    m = runtime.load_module(compiler.compile_str(HOST, custom_kernels=[HOST_DECL]),
                            custom_calls={"py.softmax": lambda e: e.astype(np.float64)})
    with pytest.raises(Exception, match=r"result #0 of host call py\.softmax"):
        m.main(np.zeros((2, 3), np.float32))
    m = runtime.load_module(compiler.compile_str(HOST, custom_kernels=[HOST_DECL]),
                            custom_calls={"py.softmax": lambda e: (e, e)})
    with pytest.raises(runtime.InvalidArgumentError, match=r"py\.softmax.*returned 2"):
        m.main(np.zeros((2, 3), np.float32))


# -- compile-time errors ----------------------------------------------------------------------
def test_undeclared_custom_call_is_named():
    with pytest.raises(UnsupportedOpError, match=r"@twice is not declared"):
        compiler.compile_str(TWICE)


def test_call_with_other_signature_is_named():
    bad = CustomKernel("twice", ["8xf32"], ["8xf32"], c=TWICE_C)
    with pytest.raises(CustomKernelError, match=r"'twice'.*called as \(tensor<10xf32>\).*"
                                                r"declared as \(tensor<8xf32>\)"):
        compiler.compile_str(TWICE, custom_kernels=[bad])


def test_missing_target_source_is_named():
    with pytest.raises(CustomKernelError, match=r"'twice'.*no kernel for target 'opencl'"):
        compiler.compile_str(TWICE, targets=["cpu", "opencl"], custom_kernels=[_twice(c=TWICE_C)])


def test_bad_declarations_are_named():
    with pytest.raises(CustomKernelError, match="has no source"):
        CustomKernel("k", ["4xf32"], ["4xf32"])
    with pytest.raises(CustomKernelError, match=r"does not define 'k\(\.\.\.\)'"):
        CustomKernel("k", ["4xf32"], ["4xf32"], c="int other(void) { return 0; }")
    with pytest.raises(CustomKernelError, match=r"workgroups 'out3\[0\]'"):
        CustomKernel("k", ["4xf32"], ["4xf32"], c="int k(void);", workgroups="out3[0]")
    with pytest.raises(CustomKernelError, match=r"__import__.*is not allowed"):
        CustomKernel("k", ["4xf32"], ["4xf32"], c="int k(void);", workgroups="__import__('os')")
    with pytest.raises(CustomKernelError, match="bad tensor type"):
        CustomKernel("k", ["?x4xf32"], ["4xf32"], c="int k(void);")
    with pytest.raises(CustomKernelError, match="declared twice"):
        compiler.compile_str(TWICE, custom_kernels=[_twice(c=TWICE_C), HostCall("twice", ["10xf32"],
                                                                               ["10xf32"])])


def test_c_error_names_the_custom_kernel():
    broken = _twice(c=TWICE_C.replace("return 0;", "return undefined_name;"))
    with pytest.raises(CustomKernelError, match=r"'twice': its C source does not compile"
                                                r"(.|\n)*undefined_name"):
        compiler.compile_str(TWICE, custom_kernels=[broken])


def test_column_major_layout_is_refused():
    text = TWICE.replace("@twice(%a) :", "@twice(%a) {operand_layouts = [dense<0> : tensor<1xindex>]"
                         ", result_layouts = [dense<0> : tensor<1xindex>]} :", 1)
    compiler.compile_str(text, custom_kernels=[_twice(c=TWICE_C)])      # 1-d: row-major
    mat = """
    func.func @main(%a: tensor<2x2xf32>) -> tensor<2x2xf32> {
      %0 = stablehlo.custom_call @t(%a) {operand_layouts = [dense<[0, 1]> : tensor<2xindex>],
           result_layouts = [dense<[1, 0]> : tensor<2xindex>]} : (tensor<2x2xf32>) -> tensor<2x2xf32>
      return %0 : tensor<2x2xf32>
    }"""
    with pytest.raises(CustomKernelError, match=r"'t': operand_layouts\[0\] = \[0, 1\]"):
        compiler.compile_str(mat, custom_kernels=[HostCall("t", ["2x2xf32"], ["2x2xf32"])])


def test_kernel_error_code_raises():
    failing = _twice(c=TWICE_C.replace("return 0;", "return 7;"))
    m = runtime.load_module(compiler.compile_str(TWICE, custom_kernels=[failing]), device="local-sync")
    with pytest.raises(hal.HalError, match="failed with code 7"):
        m.main(np.zeros(10, np.float32))


TWICE_CU = r"""
__device__ void twice(const float* __restrict__ x, float* __restrict__ y) {
  const long i = blockIdx.x * 4L + threadIdx.x;
  if (threadIdx.x < 4 && i < 10) y[i] = 2 * x[i];
}"""


def test_cuda_kernel_compiles_to_checked_ptx():
    from tensorvm.compiler.codegen import cuda
    missing = cuda.have_toolchain()
    if missing is not None:
        pytest.skip(f"cuda toolchain unavailable: {missing}")
    res = compiler.api.compile_text(TWICE, compiler.CompileOptions(
        targets=("cpu", "cuda"), keep_source=True,
        custom_kernels=[_twice(c=TWICE_C, cuda=TWICE_CU)]))
    src = res.stats["cuda_source"]
    assert src.count("__device__ void twice(") == 1
    assert "twice(b0, o0);" in src
    from tensorvm.vmfb import container
    (exe,) = container.read_module(res.vmfb).executables
    assert [v.format for v in exe.variants][1] == cuda.FORMAT
    CUDA = hal.registry.driver_availability("cuda")
    if CUDA is None:          # a GPU: run it too
        a = np.arange(10, dtype=np.float32)
        np.testing.assert_array_equal(
            np.asarray(runtime.load_module(res.vmfb, device="cuda").main(a)), -4 * a)


@pytest.mark.parametrize("device", ["local-sync", "local-task"])
def test_host_call_in_async_call(device):
    m = runtime.load_module(compiler.compile_str(HOST, custom_kernels=[HOST_DECL]), device=device,
                            custom_calls={"py.softmax": _normalize})
    a = np.random.default_rng(2).standard_normal((2, 3)).astype(np.float32)
    got = m.main.invoke_async(a).result(timeout=30)
    np.testing.assert_allclose(np.asarray(got), 2 * _normalize(np.exp(a)), rtol=1e-6)


def test_embedder_supplies_its_own_custom_module():
    from tensorvm.runtime.custom_calls import CustomCallModule
    inst = runtime.Instance(native_modules=[CustomCallModule({"py.softmax": _normalize},
                                                             {"py.softmax": "r->r"})])
    m = inst.load_module(compiler.compile_str(HOST, custom_kernels=[HOST_DECL]))
    a = np.ones((2, 3), np.float32)
    np.testing.assert_allclose(np.asarray(m.main(a)), np.full((2, 3), 2 / 3, np.float32))
