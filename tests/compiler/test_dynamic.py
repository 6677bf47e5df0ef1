"""Dynamic shapes end to end: one compiled module runs at several sizes.

Each case is hand-written StableHLO with ``?`` dims, compiled once and run
at several sizes against numpy."""
import numpy as np
import pytest

from tensorvm.compiler import compile_str
from tensorvm.runtime import load_module
from tensorvm.runtime.errors import VmTrap

SIZES = (1, 5, 33)
rng = np.random.default_rng(0)


def _module(src):
    return load_module(compile_str(src), device="local-task")


def _f32(*shape):
    return rng.standard_normal(shape).astype(np.float32)


def _check(mod, make_args, ref, sizes=SIZES, rtol=1e-5):
    for n in sizes:
        args = make_args(n)
        out = mod.main(*args)
        outs = out if isinstance(out, (list, tuple)) else [out]
        refs = ref(n, *args)
        refs = refs if isinstance(refs, (list, tuple)) else [refs]
        for o, r in zip(outs, refs):
            o = np.asarray(o)
            assert o.shape == np.shape(r), (n, o.shape, np.shape(r))
            np.testing.assert_allclose(o, r, rtol=rtol, atol=1e-5)


def test_elementwise():
    m = _module("""
func.func @main(%a: tensor<?x4xf32>, %b: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %0 = stablehlo.multiply %a, %b : tensor<?x4xf32>
  %1 = stablehlo.tanh %0 : tensor<?x4xf32>
  return %1 : tensor<?x4xf32>
}""")
    _check(m, lambda n: (_f32(n, 4), _f32(n, 4)), lambda n, a, b: np.tanh(a * b))


def test_all_dims_dynamic_large():
    m = _module("""
func.func @main(%a: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %0 = stablehlo.negate %a : tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}""")
    _check(m, lambda n: (_f32(n, 3 * n + 1),), lambda n, a: -a, sizes=(1, 7, 300))


# x + b with the broadcast shape computed on the host from x's dim
BROADCAST_BIAS = """
func.func @main(%x: tensor<?x8xf32>, %b: tensor<8xf32>) -> tensor<?x8xf32> {
  %0 = stablehlo.get_dimension_size %x, dim = 0 : (tensor<?x8xf32>) -> tensor<i32>
  %1 = stablehlo.reshape %0 : (tensor<i32>) -> tensor<1xi32>
  %c = stablehlo.constant dense<8> : tensor<1xi32>
  %2 = stablehlo.concatenate %1, %c, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %3 = stablehlo.dynamic_broadcast_in_dim %b, %2, dims = [1] : (tensor<8xf32>, tensor<2xi32>) -> tensor<?x8xf32>
  %4 = stablehlo.add %x, %3 : tensor<?x8xf32>
  return %4 : tensor<?x8xf32>
}"""


def test_broadcast_and_bias():
    m = _module(BROADCAST_BIAS)
    _check(m, lambda n: (_f32(n, 8), _f32(8)), lambda n, x, b: x + b)


def test_reduce_over_dynamic_dim():
    m = _module("""
func.func @main(%x: tensor<3x?xf32>) -> tensor<3xf32> {
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %0 = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [1] : (tensor<3x?xf32>, tensor<f32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}""")
    _check(m, lambda n: (_f32(3, n),), lambda n, x: x.sum(axis=1), rtol=1e-4)


def test_reduce_keeps_dynamic_dim():
    m = _module("""
func.func @main(%x: tensor<?x6xf32>) -> tensor<?xf32> {
  %z = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %0 = stablehlo.reduce(%x init: %z) applies stablehlo.maximum across dimensions = [1] : (tensor<?x6xf32>, tensor<f32>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}""")
    _check(m, lambda n: (_f32(n, 6),), lambda n, x: x.max(axis=1))


def test_dot_dynamic_batch():
    m = _module("""
func.func @main(%x: tensor<?x16xf32>, %w: tensor<16x8xf32>) -> tensor<?x8xf32> {
  %0 = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<?x16xf32>, tensor<16x8xf32>) -> tensor<?x8xf32>
  %1 = stablehlo.tanh %0 : tensor<?x8xf32>
  return %1 : tensor<?x8xf32>
}""")
    _check(m, lambda n: (_f32(n, 16), _f32(16, 8)), lambda n, x, w: np.tanh(x @ w), rtol=1e-4)


def test_batched_dot_dynamic_batch_dim():
    m = _module("""
func.func @main(%x: tensor<?x3x4xf32>, %y: tensor<?x4x2xf32>) -> tensor<?x3x2xf32> {
  %0 = stablehlo.dot_general %x, %y, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<?x3x4xf32>, tensor<?x4x2xf32>) -> tensor<?x3x2xf32>
  return %0 : tensor<?x3x2xf32>
}""")
    _check(m, lambda n: (_f32(n, 3, 4), _f32(n, 4, 2)), lambda n, x, y: x @ y, rtol=1e-4)


def test_dynamic_reshape_and_transpose():
    m = _module("""
func.func @main(%x: tensor<?x4xf32>) -> tensor<4x?xf32> {
  %0 = stablehlo.get_dimension_size %x, dim = 0 : (tensor<?x4xf32>) -> tensor<i32>
  %c2 = stablehlo.constant dense<2> : tensor<i32>
  %1 = stablehlo.multiply %0, %c2 : tensor<i32>
  %2 = stablehlo.reshape %1 : (tensor<i32>) -> tensor<1xi32>
  %c = stablehlo.constant dense<2> : tensor<1xi32>
  %3 = stablehlo.concatenate %2, %c, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %4 = stablehlo.dynamic_reshape %x, %3 : (tensor<?x4xf32>, tensor<2xi32>) -> tensor<?x2xf32>
  %5 = stablehlo.exponential %4 : tensor<?x2xf32>
  %r0 = stablehlo.reshape %0 : (tensor<i32>) -> tensor<1xi32>
  %c4 = stablehlo.constant dense<4> : tensor<1xi32>
  %s6 = stablehlo.concatenate %r0, %c4, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %6 = stablehlo.dynamic_reshape %5, %s6 : (tensor<?x2xf32>, tensor<2xi32>) -> tensor<?x4xf32>
  %7 = stablehlo.transpose %6, dims = [1, 0] : (tensor<?x4xf32>) -> tensor<4x?xf32>
  return %7 : tensor<4x?xf32>
}""")
    _check(m, lambda n: (_f32(n, 4),), lambda n, x: np.exp(x).T)


def test_dynamic_iota_from_argument():
    m = _module("""
func.func @main(%n: tensor<i64>, %x: tensor<?xf32>) -> tensor<?xf32> {
  %0 = stablehlo.convert %n : (tensor<i64>) -> tensor<i32>
  %1 = stablehlo.reshape %0 : (tensor<i32>) -> tensor<1xi32>
  %2 = stablehlo.dynamic_iota %1, dim = 0 : (tensor<1xi32>) -> tensor<?xf32>
  %3 = stablehlo.add %x, %2 : tensor<?xf32>
  return %3 : tensor<?xf32>
}""")
    _check(m, lambda n: (np.array(n, np.int64), _f32(n)),
           lambda n, k, x: x + np.arange(n, dtype=np.float32))


def test_real_dynamic_slice():
    m = _module("""
func.func @main(%x: tensor<?x4xf32>) -> tensor<?x2xf32> {
  %0 = stablehlo.get_dimension_size %x, dim = 0 : (tensor<?x4xf32>) -> tensor<i32>
  %1 = stablehlo.reshape %0 : (tensor<i32>) -> tensor<1xi32>
  %c4 = stablehlo.constant dense<4> : tensor<1xi32>
  %start = stablehlo.constant dense<[1, 1]> : tensor<2xi32>
  %lim = stablehlo.concatenate %1, %c4, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %st = stablehlo.constant dense<[2, 2]> : tensor<2xi32>
  %2 = stablehlo.real_dynamic_slice %x, %start, %lim, %st : (tensor<?x4xf32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<?x2xf32>
  return %2 : tensor<?x2xf32>
}""")
    _check(m, lambda n: (_f32(n, 4),), lambda n, x: x[1::2, 1::2], sizes=(2, 5, 33))


def test_concatenate_dynamic_parts():
    m = _module("""
func.func @main(%a: tensor<?x3xf32>, %b: tensor<?x3xf32>) -> tensor<?x3xf32> {
  %0 = stablehlo.concatenate %a, %b, %a, dim = 0 : (tensor<?x3xf32>, tensor<?x3xf32>, tensor<?x3xf32>) -> tensor<?x3xf32>
  return %0 : tensor<?x3xf32>
}""")
    _check(m, lambda n: (_f32(n, 3), _f32(2 * n + 1, 3)),
           lambda n, a, b: np.concatenate([a, b, a]))


def test_dynamic_pad():
    m = _module("""
func.func @main(%x: tensor<?x3xf32>, %p: tensor<f32>) -> tensor<?x6xf32> {
  %lo = stablehlo.constant dense<[1, 0]> : tensor<2xi32>
  %hi = stablehlo.constant dense<[2, 1]> : tensor<2xi32>
  %in = stablehlo.constant dense<[0, 1]> : tensor<2xi32>
  %0 = stablehlo.dynamic_pad %x, %p, %lo, %hi, %in : (tensor<?x3xf32>, tensor<f32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<?x6xf32>
  return %0 : tensor<?x6xf32>
}""")

    def ref(n, x, p):
        out = np.full((n + 3, 6), p, np.float32)
        out[1:n + 1, 0:5:2] = x
        return out
    _check(m, lambda n: (_f32(n, 3), np.float32(7.5)), ref)


def test_get_dimension_size_feeds_while_loop():
    m = _module("""
func.func @main(%x: tensor<?xf32>) -> (tensor<f32>, tensor<i32>) {
  %n = stablehlo.get_dimension_size %x, dim = 0 : (tensor<?xf32>) -> tensor<i32>
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %i0 = stablehlo.constant dense<0> : tensor<i32>
  %r:2 = stablehlo.while(%i = %i0, %acc = %z) : tensor<i32>, tensor<f32>
    cond {
      %c = stablehlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %c : tensor<i1>
    } do {
      %one = stablehlo.constant dense<1> : tensor<i32>
      %e = stablehlo.dynamic_slice %x, %i, sizes = [1] : (tensor<?xf32>, tensor<i32>) -> tensor<1xf32>
      %s = stablehlo.reshape %e : (tensor<1xf32>) -> tensor<f32>
      %a = stablehlo.add %acc, %s : tensor<f32>
      %j = stablehlo.add %i, %one : tensor<i32>
      stablehlo.return %j, %a : tensor<i32>, tensor<f32>
    }
  return %r#1, %r#0 : tensor<f32>, tensor<i32>
}""")
    _check(m, lambda n: (_f32(n),), lambda n, x: [np.float32(x.sum()), np.int32(n)], rtol=1e-4)


def test_shape_assertion_fails_with_its_message():
    m = _module("""
func.func @main(%x: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %n = stablehlo.get_dimension_size %x, dim = 0 : (tensor<?x4xf32>) -> tensor<i32>
  %c = stablehlo.constant dense<2> : tensor<i32>
  %ok = stablehlo.compare GE, %n, %c, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
  stablehlo.custom_call @shape_assertion(%ok, %n) {api_version = 2 : i32, error_message = "Expected value >= 2 for dimension variable 'b'", has_side_effect = true} : (tensor<i1>, tensor<i32>) -> ()
  %0 = stablehlo.abs %x : tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}""")
    _check(m, lambda n: (_f32(n, 4),), lambda n, x: np.abs(x), sizes=(2, 9))
    with pytest.raises(VmTrap, match="Expected value >= 2 for dimension variable 'b'"):
        m.main(_f32(1, 4))


def test_wrong_static_dim_is_rejected():
    m = _module("""
func.func @main(%x: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %0 = stablehlo.abs %x : tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}""")
    with pytest.raises(ValueError, match=r"\?x4xf32"):
        m.main(_f32(3, 5))


def test_static_kernels_unchanged_by_dynamic_support():
    from tensorvm.compiler.api import CompileOptions, compile_text
    src = """
func.func @main(%a: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %0 = stablehlo.exponential %a : tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}"""
    c = compile_text(src, CompileOptions(keep_source=True)).stats["c_source"]
    assert "int64_t s0" not in c and "wg % 1" in c


def test_masked_sum_over_materialized_broadcast():
    # Also the GCC 12 loop if-conversion miscompile (cpu.if_convert_guard).
    m = _module("""
func.func @main(%w: tensor<?x8x4xi1>, %x: tensor<?x8x4xf32>) -> (tensor<f32>, tensor<?x8x4xf32>) {
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %n = stablehlo.get_dimension_size %x, dim = 0 : (tensor<?x8x4xf32>) -> tensor<i32>
  %n1 = stablehlo.reshape %n : (tensor<i32>) -> tensor<1xi32>
  %c84 = stablehlo.constant dense<[8, 4]> : tensor<2xi32>
  %sh = stablehlo.concatenate %n1, %c84, dim = 0 : (tensor<1xi32>, tensor<2xi32>) -> tensor<3xi32>
  %5 = stablehlo.dynamic_broadcast_in_dim %z, %sh, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<?x8x4xf32>
  %6 = stablehlo.select %w, %x, %5 : tensor<?x8x4xi1>, tensor<?x8x4xf32>
  %7 = stablehlo.reduce(%6 init: %z) applies stablehlo.add across dimensions = [0, 1, 2] : (tensor<?x8x4xf32>, tensor<f32>) -> tensor<f32>
  return %7, %5 : tensor<f32>, tensor<?x8x4xf32>
}""")
    _check(m, lambda n: (rng.integers(0, 2, (n, 8, 4)).astype(bool), _f32(n, 8, 4)),
           lambda n, w, x: [np.float32(np.where(w, x, 0).sum()), np.zeros((n, 8, 4), np.float32)],
           rtol=1e-4)


def test_sort_rows_of_dynamic_count():
    m = _module("""
func.func @main(%x: tensor<?x5xf32>) -> tensor<?x5xf32> {
  %0 = "stablehlo.sort"(%x) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %c = stablehlo.compare LT, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }) {dimension = 1 : i64, is_stable = true} : (tensor<?x5xf32>) -> tensor<?x5xf32>
  return %0 : tensor<?x5xf32>
}""")
    _check(m, lambda n: (_f32(n, 5),), lambda n, x: np.sort(x, axis=1))


def test_shape_from_device_value_is_read_back():
    m = _module("""
func.func @main(%k: tensor<i32>, %v: tensor<f32>) -> tensor<?xf32> {
  %c = stablehlo.constant dense<2> : tensor<i32>
  %0 = stablehlo.multiply %k, %c : tensor<i32>
  %1 = stablehlo.reshape %0 : (tensor<i32>) -> tensor<1xi32>
  %2 = stablehlo.dynamic_broadcast_in_dim %v, %1, dims = [] : (tensor<f32>, tensor<1xi32>) -> tensor<?xf32>
  return %2 : tensor<?xf32>
}""")
    _check(m, lambda n: (np.int32(n), np.float32(n)),
           lambda n, k, v: np.full(2 * n, v, np.float32), sizes=(0, 1, 7))


def test_gpu_targets_take_the_shape_push_constants():
    """GPU variants read the dims from the same push-constant words as the
    CPU's (tests/test_opencl.py runs these programs on opencl)."""
    from tensorvm.vmfb import container
    src = """
func.func @main(%a: tensor<?xf32>) -> tensor<?xf32> {
  %0 = stablehlo.sine %a : tensor<?xf32>
  return %0 : tensor<?xf32>
}"""
    cpu, cl = container.read_module(compile_str(src, targets=("cpu", "opencl"))).executables[0].variants
    from tensorvm.compiler.codegen.grids import GPU_MARKER
    assert [e.constants for e in cpu.entry_points] == [2]
    assert [e.constants for e in cl.entry_points if e.name != GPU_MARKER] == [2]
    assert "const int64_t s0 = " in bytes(cl.data).decode()


def test_dynamic_ops_with_constant_shape_operands_take_static_forms():
    """dynamic_pad / dynamic_gather / dynamic_conv with constant edge, slice
    size and padding operands compile as pad / gather / convolution."""
    from tensorvm.compiler.mlir.parser import parse_module
    from tensorvm.compiler.passes.canonicalize import CanonicalizeOps
    src = """
func.func @main(%x: tensor<5x4xf32>, %o: tensor<3x4x2xf32>, %i: tensor<2x2xi64>, %a: tensor<1x4x4x1xf32>, %k: tensor<3x3x1x1xf32>) -> (tensor<7x5xf32>, tensor<2x2x2xf32>, tensor<1x2x2x1xf32>) {
  %v = stablehlo.constant dense<-1.0> : tensor<f32>
  %low = stablehlo.constant dense<[1, -1]> : tensor<2xi64>
  %high = stablehlo.constant dense<[1, -1]> : tensor<2xi64>
  %int = stablehlo.constant dense<[0, 1]> : tensor<2xi64>
  %p = stablehlo.dynamic_pad %x, %v, %low, %high, %int : (tensor<5x4xf32>, tensor<f32>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<7x5xf32>
  %sz = stablehlo.constant dense<[1, 2, 2]> : tensor<3xi64>
  %g = "stablehlo.dynamic_gather"(%o, %i, %sz) {dimension_numbers = #stablehlo.gather<offset_dims = [1, 2], collapsed_slice_dims = [0], start_index_map = [1, 0], index_vector_dim = 1>, indices_are_sorted = false} : (tensor<3x4x2xf32>, tensor<2x2xi64>, tensor<3xi64>) -> tensor<2x2x2xf32>
  %pad = stablehlo.constant dense<1> : tensor<2x2xi64>
  %c = "stablehlo.dynamic_conv"(%a, %k, %pad) {window_strides = array<i64: 4, 4>, lhs_dilation = array<i64: 2, 2>, rhs_dilation = array<i64: 1, 1>, dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>, batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x4x4x1xf32>, tensor<3x3x1x1xf32>, tensor<2x2xi64>) -> tensor<1x2x2x1xf32>
  return %p, %g, %c : tensor<7x5xf32>, tensor<2x2x2xf32>, tensor<1x2x2x1xf32>
}"""
    module = parse_module(src)
    CanonicalizeOps().run(module)
    names = {op.name for op in module.walk()}
    assert {"stablehlo.pad", "stablehlo.gather", "stablehlo.convolution"} <= names
    assert not any(n.startswith("stablehlo.dynamic_") for n in names)
    x, o = _f32(5, 4), _f32(3, 4, 2)
    a, k = _f32(1, 4, 4, 1), _f32(3, 3, 1, 1)
    idx = np.array([[0, 0], [2, 1]], np.int64)
    p, g, c = _module(src).main(x, o, idx, a, k)
    ref_p = np.full((7, 5), -1, np.float32)
    inner = np.full((5, 7), -1, np.float32)
    inner[:, ::2] = x
    ref_p = np.full((7, 5), -1, np.float32)
    ref_p[1:6] = inner[:, 1:6]
    np.testing.assert_array_equal(p, ref_p)
    np.testing.assert_array_equal(g, np.stack([o[0, 0:2], o[1, 2:4]]))
    # lhs dilated to 7x7, padded by 1 -> 9x9, 3x3 window at stride 4
    dil = np.zeros((7, 7), np.float32)
    dil[::2, ::2] = a[0, :, :, 0]
    padded = np.pad(dil, 1)
    ref_c = np.array([[(padded[4 * r:4 * r + 3, 4 * s:4 * s + 3] * k[:, :, 0, 0]).sum()
                       for s in range(2)] for r in range(2)], np.float32)
    np.testing.assert_allclose(np.asarray(c)[0, :, :, 0], ref_c, rtol=1e-5, atol=1e-5)


def test_column_reduction_dynamic_dims():
    """Interchanged column reduction with the reduced and the kept dim both
    dynamic: the chunking of the kept dim is evaluated from runtime shapes."""
    m = _module("""
func.func @main(%a: tensor<?x?xf32>) -> tensor<?xf32> {
  %init = stablehlo.constant dense<0.0> : tensor<f32>
  %0 = stablehlo.reduce(%a init: %init) applies stablehlo.add across dimensions = [0]
     : (tensor<?x?xf32>, tensor<f32>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}""")
    _check(m, lambda n: (_f32(n + 3, 2 * n + 5),), lambda n, a: a.sum(0), rtol=1e-4)


def test_recorded_commands_reused_per_argument_dims():
    """A straight-line dynamic function records its command buffer once per
    set of argument dims (vm_host/host_program cache): calls that alternate
    sizes, repeat them, and run concurrently from several threads all see
    their own sizes' commands."""
    import threading
    m = _module(BROADCAST_BIAS)
    b = _f32(8)
    inputs = {n: _f32(n, 8) for n in (1, 3, 40)}
    for n in (1, 3, 1, 40, 40, 3, 1):
        np.testing.assert_allclose(m.main(inputs[n], b), (inputs[n] + b), rtol=1e-5, atol=1e-6)
    errors = []

    def worker(sizes):
        try:
            for n in sizes * 20:
                np.testing.assert_allclose(m.main(inputs[n], b), (inputs[n] + b),
                                           rtol=1e-5, atol=1e-6)
        except Exception as e:          # noqa: BLE001 - reported below
            errors.append(e)
    threads = [threading.Thread(target=worker, args=(s,)) for s in ([1, 40], [3, 1], [40, 3])]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors[0]
