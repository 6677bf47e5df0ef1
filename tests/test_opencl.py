"""OpenCL end to end: multi-target modules run on the ``opencl`` driver
(PoCL in CI) and match JAX, like the CPU drivers do."""
from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest
from fixtures import MODELS, POLY_MODELS, assert_matches, load_model, load_poly_model
from tvm_testing import assert_poly_model_runs
from tvm_testing import compiled as compiled_for

from tensorvm import compiler, hal, runtime
from tensorvm.hal import HalError
from tensorvm.compiler.codegen.grids import GPU_MARKER
from tensorvm.vmfb import container

REASON = hal.registry.driver_availability("opencl")
pytestmark = pytest.mark.skipif(REASON is not None, reason=f"opencl unavailable: {REASON}")
TOLERANCE = {"rtol": 2e-4, "atol": 1e-5}



def compiled(text: str, targets=("cpu", "opencl")) -> bytes:
    return compiled_for(text, tuple(targets))


@pytest.mark.parametrize("name", MODELS)
def test_model_matches_jax_on_opencl(name):
    text, inputs, expected = load_model(name)
    m = runtime.load_module(compiled(text), device="opencl")
    assert_matches(name, m.main(*inputs), expected, TOLERANCE)
    assert_matches(name, m.main(*inputs), expected, TOLERANCE)   # executables already loaded


def test_multi_target_module_layout():
    text, _, _ = load_model("mlp")
    mdef = container.read_module(compiled(text))
    (exe,) = mdef.executables
    formats = [v.format for v in exe.variants]
    assert formats[0].startswith("cpu-c-") and formats[1] == "opencl-c"
    names = [[e.name for e in v.entry_points] for v in exe.variants]
    assert names[1] == names[0] + [GPU_MARKER]     # codegen/grids.py: the host's GPU-variant test
    src = bytes(exe.variants[1].data).decode()
    assert "__kernel void" in src and "double" not in src
    assert exe.variants[1].target["extensions"] == []


F64 = """
func.func @main(%a: tensor<5xf64>, %b: tensor<5xf64>) -> (tensor<5xf64>, tensor<5xi32>) {
  %0 = stablehlo.multiply %a, %b : tensor<5xf64>
  %1 = stablehlo.sqrt %0 : tensor<5xf64>
  %2 = stablehlo.convert %1 : (tensor<5xf64>) -> tensor<5xi32>
  return %1, %2 : tensor<5xf64>, tensor<5xi32>
}"""


def test_f64_records_the_extension_and_runs_where_supported():
    data = compiler.compile_str(F64, targets=["opencl"])
    (variant,) = container.read_module(data).executables[0].variants
    assert variant.target["extensions"] == ["cl_khr_fp64"]
    dev = runtime.get_device("opencl")
    if "cl_khr_fp64" not in dev.extensions:
        with pytest.raises(HalError, match="cl_khr_fp64"):
            runtime.load_module(data, device="opencl").main(np.ones(5), np.ones(5))
        return
    a = np.array([1.0, 4.0, 9.0, 1e300, -1.0])
    b = np.array([1.0, 4.0, 1.0, 1e10, 1.0])
    r, i = runtime.load_module(data, device="opencl").main(a, b)
    with np.errstate(invalid="ignore", over="ignore"):
        np.testing.assert_array_equal(np.asarray(r), np.sqrt(a * b))
    np.testing.assert_array_equal(np.asarray(i), [1, 4, 3, 2147483647, 0])


def test_missing_extension_is_named_at_load():
    dev = runtime.get_device("opencl")
    with pytest.raises(HalError, match="cl_khr_made_up"):
        dev.load_executable("k", "opencl-c", b"__kernel void f() {}", ["f"],
                            {"extensions": ["cl_khr_made_up"]})


MIXED = """
func.func @main(%a: tensor<8xi32>, %b: tensor<8xi32>, %h: tensor<8xf16>, %x: tensor<8xf32>)
    -> (tensor<8xi32>, tensor<8xi32>, tensor<8xf16>, tensor<8xi32>, tensor<8xi1>) {
  %0 = stablehlo.divide %a, %b : tensor<8xi32>
  %1 = stablehlo.remainder %a, %b : tensor<8xi32>
  %2 = stablehlo.add %h, %h : tensor<8xf16>
  %3 = stablehlo.convert %x : (tensor<8xf32>) -> tensor<8xi32>
  %4 = stablehlo.compare LT, %x, %x, TOTALORDER : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xi1>
  return %0, %1, %2, %3, %4 : tensor<8xi32>, tensor<8xi32>, tensor<8xf16>, tensor<8xi32>, tensor<8xi1>
}"""


def test_integer_f16_and_conversion_semantics_match_the_cpu():
    data = compiled(MIXED)
    rng = np.random.default_rng(1)
    args = [np.array([7, -7, 5, 0, -2147483648, 9, 1, -3], np.int32),
            np.array([2, 2, 0, 3, -1, -4, 1, 0], np.int32),
            rng.standard_normal(8).astype(np.float16),
            np.array([1.5, -2.5, np.nan, np.inf, -np.inf, 3e9, -3e9, 0.0], np.float32)]
    cpu = runtime.load_module(data, device="local-sync").main(*args)
    gpu = runtime.load_module(data, device="opencl").main(*args)
    for c, g in zip(cpu, gpu):
        np.testing.assert_array_equal(np.asarray(g), np.asarray(c))


def test_module_without_opencl_variant_lists_formats():
    text, inputs, _ = load_model("add4")
    data = compiled(text, ("cpu",))
    with pytest.raises(HalError, match=r"carries \['cpu-c-.*'\].*takes \['opencl-c'\]"):
        runtime.load_module(data, device="opencl").main(*inputs)


def test_kernel_build_failure_names_executable_and_shows_log():
    dev = runtime.get_device("opencl")
    src = b"__kernel void broken(__global float* x) { x[0] = undefined_thing; }"
    with pytest.raises(HalError) as info:
        dev.load_executable("my_exe", "opencl-c", src, ["broken"], {})
    msg = str(info.value)
    assert "my_exe" in msg and "undefined_thing" in msg
    assert info.value.__cause__ is None and info.value.__suppress_context__


def test_program_cache_is_per_physical_device():
    text, inputs, expected = load_model("add4")
    data = compiled(text)
    variant = container.read_module(data).executables[0].variants[1]
    a, b = hal.create_device("opencl"), hal.create_device("opencl://0")
    try:
        args = ("k", variant.format, bytes(variant.data), [e.name for e in variant.entry_points],
                variant.target)
        a.load_executable(*args)
        builds = a._shared.builds
        assert a.load_executable(*args) is a.load_executable(*args)
        b.load_executable(*args)                  # another HAL device, same OpenCL device
        assert a._shared is b._shared and a._shared.builds == builds
    finally:
        a.close()
        b.close()


def test_cli_compile_and_dump_extract(tmp_path):
    text, _, _ = load_model("add4")
    src = tmp_path / "add4.mlir"
    src.write_text(text)
    out = tmp_path / "add4.vmfb"
    subprocess.run([sys.executable, "-m", "tensorvm.compiler.cli", str(src), "-o", str(out),
                    "--targets=cpu,opencl"], check=True)
    subprocess.run([sys.executable, "-m", "tensorvm.runtime.cli.dump", str(out), "--extract",
                    str(tmp_path / "x"), "--no-disassembly"], check=True, capture_output=True)
    files = sorted(os.listdir(tmp_path / "x"))
    assert any(f.endswith(".so") for f in files) and any(f.endswith(".cl") for f in files)
    cl_file = next(f for f in files if f.endswith(".cl"))
    assert "__kernel" in (tmp_path / "x" / cl_file).read_text()


WHILE = """
func.func @main(%x: tensor<4xf32>, %n: tensor<i32>) -> (tensor<4xf32>, tensor<i32>) {
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %c1 = stablehlo.constant dense<1> : tensor<i32>
  %r:3 = stablehlo.while(%i = %c0, %acc = %x, %k = %n) : tensor<i32>, tensor<4xf32>, tensor<i32>
    cond {
      %p = stablehlo.compare LT, %i, %k : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %p : tensor<i1>
    } do {
      %i2 = stablehlo.add %i, %c1 : tensor<i32>
      %f = stablehlo.convert %i2 : (tensor<i32>) -> tensor<f32>
      %fb = stablehlo.broadcast_in_dim %f, dims = [] : (tensor<f32>) -> tensor<4xf32>
      %a2 = stablehlo.multiply %acc, %fb : tensor<4xf32>
      stablehlo.return %i2, %a2, %k : tensor<i32>, tensor<4xf32>, tensor<i32>
    }
  return %r#1, %r#0 : tensor<4xf32>, tensor<i32>
}"""


def test_control_flow_and_push_constants_match_the_cpu():
    data = compiled(WHILE)
    x, n = np.array([1, 2, 3, 4], np.float32), np.array(5, np.int32)
    a, i = runtime.load_module(data, device="opencl").main(x, n)
    np.testing.assert_array_equal(np.asarray(a), x * 120)
    assert int(np.asarray(i)) == 5


@pytest.mark.parametrize("f64", [False, True])
def test_every_scalar_helper_builds_as_opencl_c(f64):
    """All of scalar.HELPERS is in every program: one helper OpenCL C cannot
    build breaks every module, so each one is checked here."""
    from tensorvm.compiler.codegen import opencl
    src = opencl.TARGET.prologue(f64) + opencl.TARGET.helpers(f64)
    src = opencl.TARGET.finish(src + "__kernel void k(__global int* x) { x[0] = 1; }\n", f64)
    dev = runtime.get_device("opencl")
    if f64 and "cl_khr_fp64" not in dev.extensions:
        pytest.skip("device has no cl_khr_fp64")
    dev.load_executable(f"helpers_f64={f64}", "opencl-c", src.encode(), ["k"], {})


# -- dynamic shapes: the CPU's dynamic-shape programs, compiled for cpu+opencl --------------
def _dynamic_tests():
    import importlib.util
    import pathlib
    path = pathlib.Path(__file__).resolve().parent / "compiler" / "test_dynamic.py"
    spec = importlib.util.spec_from_file_location("_tvm_dynamic_on_opencl", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


DYNAMIC = _dynamic_tests()
# Cases about compile output rather than results have no opencl meaning.
DYNAMIC_CASES = sorted(n for n in dir(DYNAMIC) if n.startswith("test_")
                       and n not in ("test_static_kernels_unchanged_by_dynamic_support",
                                     "test_gpu_targets_reject_dynamic_kernels_clearly"))


@pytest.mark.parametrize("case", DYNAMIC_CASES)
def test_dynamic_program_on_opencl(case, monkeypatch):
    """Each program of tests/compiler/test_dynamic.py, one module for
    cpu+opencl, run on opencl at every size: the dims reach the OpenCL
    kernels as the same push constants the CPU kernels take."""
    monkeypatch.setattr(DYNAMIC, "_module", lambda src: runtime.load_module(
        compiled(src), device="opencl"))
    getattr(DYNAMIC, case)()


@pytest.mark.parametrize("name", POLY_MODELS)
def test_poly_model_matches_jax_at_every_batch_on_opencl(name):
    text, runs = load_poly_model(name)
    assert_poly_model_runs(runtime.load_module(compiled(text), device="opencl"), name, runs)


def test_dynamic_kernels_declare_the_cpu_push_constant_layout():
    """Shape symbols follow the scalar push constants, two words each, in
    both variants: the host passes one constant list for every target."""
    src = """
func.func @main(%a: tensor<?x?xf32>, %s: tensor<f32>) -> tensor<?x?xf32> {
  %0 = stablehlo.get_dimension_size %a, dim = 0 : (tensor<?x?xf32>) -> tensor<i32>
  %d1 = stablehlo.get_dimension_size %a, dim = 1 : (tensor<?x?xf32>) -> tensor<i32>
  %r0 = stablehlo.reshape %0 : (tensor<i32>) -> tensor<1xi32>
  %r1 = stablehlo.reshape %d1 : (tensor<i32>) -> tensor<1xi32>
  %sh = stablehlo.concatenate %r0, %r1, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %b = stablehlo.dynamic_broadcast_in_dim %s, %sh, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x?xf32>
  %1 = stablehlo.multiply %a, %b : tensor<?x?xf32>
  return %1 : tensor<?x?xf32>
}"""
    exe, = container.read_module(compiled(src)).executables
    cpu, cl = exe.variants
    assert [(e.name, e.constants) for e in cpu.entry_points] == \
           [(e.name, e.constants) for e in cl.entry_points if e.name != GPU_MARKER]
    text = bytes(cl.data).decode()
    assert "const int64_t s" in text
    a = np.arange(12, dtype=np.float32).reshape(3, 4)
    out = runtime.load_module(compiled(src), device="opencl").main(a, np.float32(2))
    np.testing.assert_array_equal(np.asarray(out), a * 2)


# -- tiled contractions ----------------------------------------------------------------------
BATCHED = """
func.func @main(%a: tensor<3x37x19xf32>, %b: tensor<3x19x45xf32>, %c: tensor<45xf32>) -> tensor<3x37x45xf32> {
  %0 = stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<3x37x19xf32>, tensor<3x19x45xf32>) -> tensor<3x37x45xf32>
  %1 = stablehlo.broadcast_in_dim %c, dims = [2] : (tensor<45xf32>) -> tensor<3x37x45xf32>
  %2 = stablehlo.add %0, %1 : tensor<3x37x45xf32>
  %3 = stablehlo.tanh %2 : tensor<3x37x45xf32>
  return %3 : tensor<3x37x45xf32>
}"""


@pytest.fixture(params=["gpu-forms", "cpu-forms"])
def forms(request, monkeypatch):
    """Run a test with the kernels' GPU forms (local-memory tiles, barriers)
    built on PoCL too, and with the CPU forms a CPU device gets by default."""
    from tensorvm.hal.loaders import opencl_c
    monkeypatch.setattr(opencl_c, "CPU_FORMS", request.param == "cpu-forms")
    return request.param


@pytest.mark.parametrize("local_size", [None, 32])
def test_tiled_contraction_edges_and_capped_local_size(local_size, forms):
    """Batches whose rows straddle workgroups, K and N not multiples of the
    tiles, a fused epilogue; with a local size below the tiling's the GPU
    form takes its one-output-per-thread path."""
    data = compiled(BATCHED)
    src = bytes(container.read_module(data).executables[0].variants[1].data).decode()
    assert "barrier(CLK_LOCAL_MEM_FENCE)" in src and "__local float g_Bs" in src
    assert "#ifdef TVM_CPU_DEVICE" in src and "g_tiles" in src
    if local_size is not None:
        mdef = container.read_module(data)
        for exe in mdef.executables:
            exe.variants[1].target["local_size"] = local_size
        data = container.write_module(mdef)
    rng = np.random.default_rng(3)
    a, b = rng.standard_normal((3, 37, 19), np.float32), rng.standard_normal((3, 19, 45), np.float32)
    c = rng.standard_normal(45).astype(np.float32)
    out = runtime.load_module(data, device="opencl").main(a, b, c)
    np.testing.assert_allclose(np.asarray(out), np.tanh(a @ b + c), rtol=2e-5, atol=2e-5)


@pytest.mark.parametrize("m,k,n", [(8, 1000, 700), (3, 600, 1000), (37, 19, 45)])
def test_contraction_column_blocks(m, k, n, forms):
    """Few rows and large K * N: workgroups tile columns as well as rows
    (kernel.contraction_plan); each covers only its column block."""
    src = f"""func.func @main(%a: tensor<{m}x{k}xf32>, %b: tensor<{n}x{k}xf32>) -> tensor<{m}x{n}xf32> {{
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [1] : (tensor<{m}x{k}xf32>, tensor<{n}x{k}xf32>) -> tensor<{m}x{n}xf32>
  return %0 : tensor<{m}x{n}xf32>
}}"""
    rng = np.random.default_rng(m)
    a, b = rng.standard_normal((m, k), np.float32), rng.standard_normal((n, k), np.float32)
    for local_size in (None, 32):
        data = compiled(src)
        if local_size is not None:
            mdef = container.read_module(data)
            for exe in mdef.executables:
                exe.variants[1].target["local_size"] = local_size
            data = container.write_module(mdef)
        out = runtime.load_module(data, device="opencl").main(a, b)
        np.testing.assert_allclose(np.asarray(out), a @ b.T, rtol=1e-4, atol=1e-3)


@pytest.mark.parametrize("case", ["columns", "transposed_lhs", "attention"])
def test_contraction_forms_match_numpy(case, forms):
    """The CPU form's column-vector and dot (K-contiguous) shapes and the GPU
    form on: a batched product whose N ends inside a tile, a transposed lhs
    (scalar K stride), attention scores over a [batch, seq, heads, dim]
    layout (two batch runs, both operands contiguous in K, K % 8 != 0)."""
    rng = np.random.default_rng(7)
    if case == "columns":
        a, b = rng.standard_normal((2, 5, 7), np.float32), rng.standard_normal((2, 7, 24), np.float32)
        dims, want = "batching_dims = [0] x [0], contracting_dims = [2] x [1]", a @ b
        out = "2x5x24"
    elif case == "transposed_lhs":
        a, b = rng.standard_normal((9, 6), np.float32), rng.standard_normal((9, 32), np.float32)
        dims, want, out = "contracting_dims = [0] x [0]", a.T @ b, "6x32"
    else:
        a, b = rng.standard_normal((2, 6, 3, 13), np.float32), rng.standard_normal((2, 10, 3, 13), np.float32)
        dims = "batching_dims = [0, 2] x [0, 2], contracting_dims = [3] x [3]"
        want, out = np.einsum("bshd,bthd->bhst", a, b), "2x3x6x10"
    ta, tb = ("x".join(map(str, x.shape)) for x in (a, b))
    src = f"""func.func @main(%a: tensor<{ta}xf32>, %b: tensor<{tb}xf32>) -> tensor<{out}xf32> {{
  %0 = stablehlo.dot_general %a, %b, {dims} : (tensor<{ta}xf32>, tensor<{tb}xf32>) -> tensor<{out}xf32>
  %1 = stablehlo.tanh %0 : tensor<{out}xf32>
  return %1 : tensor<{out}xf32>
}}"""
    got = runtime.load_module(compiled(src), device="opencl").main(a, b)
    np.testing.assert_allclose(np.asarray(got), np.tanh(want), rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("shape", ["3x1000x7", "2x70001", "5x1"])
def test_loop_kernel_runs_cross_rows_and_column_chunks(shape, forms):
    """Loop kernels: a work-item's contiguous run (CPU form) that starts and
    ends mid-row, rows split into column chunks (wide last dim), and rows of
    one element; with a transposed and a broadcast operand in the body."""
    dims = [int(d) for d in shape.split("x")]
    rev = "x".join(map(str, dims[::-1]))
    perm = ", ".join(str(k) for k in range(len(dims) - 1, -1, -1))
    last = dims[-1]
    src = f"""func.func @main(%x: tensor<{shape}xf32>, %y: tensor<{rev}xf32>, %z: tensor<{last}xf32>) -> tensor<{shape}xf32> {{
  %0 = stablehlo.transpose %y, dims = [{perm}] : (tensor<{rev}xf32>) -> tensor<{shape}xf32>
  %1 = stablehlo.broadcast_in_dim %z, dims = [{len(dims) - 1}] : (tensor<{last}xf32>) -> tensor<{shape}xf32>
  %2 = stablehlo.multiply %x, %0 : tensor<{shape}xf32>
  %3 = stablehlo.add %2, %1 : tensor<{shape}xf32>
  %4 = stablehlo.tanh %3 : tensor<{shape}xf32>
  return %4 : tensor<{shape}xf32>
}}"""
    rng = np.random.default_rng(len(dims))
    x = rng.standard_normal(dims).astype(np.float32)
    y = rng.standard_normal(dims[::-1]).astype(np.float32)
    z = rng.standard_normal(last).astype(np.float32)
    got = runtime.load_module(compiled(src), device="opencl").main(x, y, z)
    np.testing.assert_allclose(np.asarray(got), np.tanh(x * y.T + z), rtol=1e-5, atol=1e-6)


# -- prepared once, replayed: host work per submission ------------------------------------

# the loops below run while max(acc) < %lim: a condition the device computes
MAX_BELOW_LIM = """
    cond {
      %z = stablehlo.constant dense<0xFF800000> : tensor<f32>
      %m = stablehlo.reduce(%acc init: %z) applies stablehlo.maximum across dimensions = [0]
           : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
      %p = stablehlo.compare LT, %m, %lim : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %p : tensor<i1>
    } do {
"""

DEVICE_CONDITION = """
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %lim = stablehlo.constant dense<1000.0> : tensor<f32>
  %r = stablehlo.while(%acc = %x) : tensor<4xf32>
""" + MAX_BELOW_LIM + """      %two = stablehlo.constant dense<2.0> : tensor<4xf32>
      %a2 = stablehlo.multiply %acc, %two : tensor<4xf32>
      stablehlo.return %a2 : tensor<4xf32>
    }
  return %r : tensor<4xf32>
}"""


def test_a_static_function_is_prepared_once_and_replayed():
    """The second call of a static-shape function prepares nothing: its
    recording (binding-table slots) is bound to the call's buffers and its
    kernels are enqueued back to back, one submission per call."""
    text, inputs, expected = load_model("mlp")
    m = runtime.load_module(compiled(text), device="opencl")
    first = m.device.stats()            # (the device is shared: counts are differences)
    assert_matches("mlp", m.main(*inputs), expected, TOLERANCE)
    before = m.device.stats()
    for _ in range(3):
        assert_matches("mlp", m.main(*inputs), expected, TOLERANCE)
    after = m.device.stats()
    assert after["programs_prepared"] == before["programs_prepared"]
    assert after["submissions"] - before["submissions"] == 3
    per_call = before["commands"] - first["commands"]
    assert per_call > 0 and after["commands"] - before["commands"] == 3 * per_call
    assert after["host_cpu_ns"] > before["host_cpu_ns"] and after["host_us_per_command"] > 0


def _vm_loops(monkeypatch):
    """Hide the loops' one-launch entry points (codegen/gpu_loop.py): the
    tests below cover the VM loop that GPU variants keep for loops the
    GPU form cannot compose."""
    from tensorvm.runtime.modules import hal as hal_module
    sig, real = hal_module.FUNCTIONS["executable.has_entry"]
    monkeypatch.setitem(hal_module.FUNCTIONS, "executable.has_entry", (sig, lambda state, exe, name: (
        0 if str(name).endswith("_native") else real(state, exe, name))))


def test_a_device_loop_is_one_launch():
    """The same loop with its GPU entry point: one submission per call."""
    m = runtime.load_module(compiled(DEVICE_CONDITION), device="opencl")
    x = np.array([1, 2, 3, 4], np.float32)
    np.testing.assert_array_equal(np.asarray(m.main(x)), x * 256)
    before = m.device.stats()
    np.testing.assert_array_equal(np.asarray(m.main(x)), x * 256)
    s = {k: v - before[k] for k, v in m.device.stats().items()}
    assert s["submissions"] == 1, s


def test_loop_iterations_bind_one_prepared_template(monkeypatch):
    """A loop whose condition is read back each iteration submits once per
    iteration (its condition's dispatch and the recorded body nested, one
    row: host_replay.py); every submission after the first of its shape is
    bound to the prepared template, within a call and across calls."""
    _vm_loops(monkeypatch)
    m = runtime.load_module(compiled(DEVICE_CONDITION), device="opencl")
    x = np.array([1, 2, 3, 4], np.float32)
    before = m.device.stats()
    for _ in range(2):
        np.testing.assert_array_equal(np.asarray(m.main(x)), x * 256)   # 8 iterations
    s = {k: v - before[k] for k, v in m.device.stats().items()}
    assert s["templates_built"] <= 3 and s["templates_reused"] >= 2 * 9 - 3, s
    assert s["programs_prepared"] == s["templates_built"], s


SLICED_LOOP = """
func.func @main(%t: tensor<8x4xf32>, %x: tensor<4xf32>) -> (tensor<4xf32>, tensor<i32>) {
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %c1 = stablehlo.constant dense<1> : tensor<i32>
  %lim = stablehlo.constant dense<40.0> : tensor<f32>
  %r:2 = stablehlo.while(%i = %c0, %acc = %x) : tensor<i32>, tensor<4xf32>
""" + MAX_BELOW_LIM + """      %row = stablehlo.dynamic_slice %t, %i, %c0, sizes = [1, 4]
             : (tensor<8x4xf32>, tensor<i32>, tensor<i32>) -> tensor<1x4xf32>
      %r4 = stablehlo.reshape %row : (tensor<1x4xf32>) -> tensor<4xf32>
      %e = stablehlo.exponential %r4 : tensor<4xf32>
      %a2 = stablehlo.add %acc, %e : tensor<4xf32>
      %i2 = stablehlo.add %i, %c1 : tensor<i32>
      stablehlo.return %i2, %a2 : tensor<i32>, tensor<4xf32>
    }
  return %r#1, %r#0 : tensor<4xf32>, tensor<i32>
}"""


def _sliced_loop_reference(t, x):
    acc, i = x.astype(np.float64), 0
    while acc.max() < 40.0:
        acc = acc + np.exp(t[min(i, 7)].astype(np.float64))
        i += 1
    return acc, i


def test_a_loop_body_is_recorded_once_and_replayed(monkeypatch):
    """A body of device work plus host scalars (the slice offset, a push
    constant that changes every iteration) is recorded on the first call
    only; each iteration after that nests the recording with its buffers
    and constants (no body command is recorded again) and its host work
    per submission shows in the trace summary."""
    from tensorvm.hal.command_buffer import CommandBuffer
    from tensorvm.hal.trace import Tracer, format_summary, summary
    _vm_loops(monkeypatch)
    m = runtime.load_module(compiled(SLICED_LOOP), device="opencl")
    t = (np.arange(32, dtype=np.float32).reshape(8, 4) % 5) * 0.5
    x = np.array([0.5, 1, 1.5, 2], np.float32)
    want, iterations = _sliced_loop_reference(t, x)
    dispatched, nested = [], []
    real_dispatch, real_nest = CommandBuffer.dispatch, CommandBuffer.execute_commands
    monkeypatch.setattr(CommandBuffer, "dispatch", lambda cb, exe, entry, *a, **k: (
        dispatched.append(entry), real_dispatch(cb, exe, entry, *a, **k))[1])
    monkeypatch.setattr(CommandBuffer, "execute_commands", lambda cb, body, *a: (
        nested.append(body), real_nest(cb, body, *a))[1])
    for call in range(3):
        dispatched.clear(), nested.clear()
        if call == 2:
            m.device.tracer = tracer = Tracer()
        a, i = m.main(t, x)
        m.device.tracer = None
        np.testing.assert_allclose(np.asarray(a), want, rtol=1e-5)
        assert int(np.asarray(i)) == iterations
        assert len(nested) == iterations and len({id(b) for b in nested}) == 1
        body_entries = {c.entry for c in nested[0].commands if hasattr(c, "bindings")}
        assert body_entries
        if call:                          # recorded on the first call only
            assert not body_entries & set(dispatched), (body_entries, dispatched)
        # the slice offset is a constant slot: one table per iteration's offset
        assert nested[0].constant_count == 1
        assert len(nested[0]._by_constants) == iterations
    queue = summary(tracer)["queue"]
    assert queue["enqueue"]["runs"] >= iterations and queue["enqueue"]["host_cpu_us"] > 0
    assert "queue enqueue:" in format_summary(tracer)


def test_concurrent_callers_share_prepared_programs():
    """Callers on several threads share one device's recordings and
    templates (kernel arguments are set and captured on its submit thread):
    every caller gets its own result."""
    from concurrent.futures import ThreadPoolExecutor
    static = runtime.load_module(compiled(WHILE), device="opencl")
    looped = runtime.load_module(compiled(DEVICE_CONDITION), device="opencl")

    def caller(k):
        for j in range(6):
            x = np.arange(4, dtype=np.float32) + k * 10 + j + 1
            a, i = static.main(x, np.array(3, np.int32))
            np.testing.assert_array_equal(np.asarray(a), x * 6)
            scale = 2.0 ** np.ceil(np.log2(1000.0 / x.max()))
            np.testing.assert_allclose(np.asarray(looped.main(x)), x * scale)
    with ThreadPoolExecutor(4) as pool:
        for done in [pool.submit(caller, k) for k in range(4)]:
            done.result(120)            # (raises a caller's failure)
    assert looped.device.stats()["templates_reused"] > 0
