"""Large CPU executables are split into translation units compiled
concurrently (codegen/cpu.py ``translation_units``): the split module must
compute what the one-unit module computes, a native loop calls kernels that
live in other units (through prototypes: a loop calling every kernel of a
model must not make its C compile serial), and GEMM kernels of different
units share one thread-local scratch."""
from __future__ import annotations

import numpy as np
import pytest

from tensorvm import runtime
from tensorvm.compiler.api import compile_str
from tensorvm.compiler.codegen import cpu
from tensorvm.vmfb.container import read_module

import test_native_loops

MANY = """
func.func @main(%a: tensor<16x32xf32>, %b: tensor<32x8xf32>, %c: tensor<8x32xf32>) -> (tensor<16x32xf32>, tensor<16x8xf32>) {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<16x32xf32>, tensor<32x8xf32>) -> tensor<16x8xf32>
  %1 = stablehlo.tanh %0 : tensor<16x8xf32>
  %2 = stablehlo.dot_general %1, %c, contracting_dims = [1] x [0] : (tensor<16x8xf32>, tensor<8x32xf32>) -> tensor<16x32xf32>
  %3 = stablehlo.reduce(%2 init: %z) applies stablehlo.add across dimensions = [1] : (tensor<16x32xf32>, tensor<f32>) -> tensor<16xf32>
  %4 = stablehlo.broadcast_in_dim %3, dims = [0] : (tensor<16xf32>) -> tensor<16x32xf32>
  %5 = stablehlo.subtract %2, %4 : tensor<16x32xf32>
  %6 = stablehlo.exponential %5 : tensor<16x32xf32>
  %7 = stablehlo.dot_general %6, %b, contracting_dims = [1] x [0] : (tensor<16x32xf32>, tensor<32x8xf32>) -> tensor<16x8xf32>
  return %6, %7 : tensor<16x32xf32>, tensor<16x8xf32>
}
""".replace("%z)", "%zero)").replace(
    "  %0 =", "  %zero = stablehlo.constant dense<0.0> : tensor<f32>\n  %0 =", 1)


def _units(monkeypatch, budget: int, jobs: int = 4):
    monkeypatch.setattr(cpu, "TU_BYTES", budget)
    monkeypatch.setenv("TENSORVM_COMPILE_JOBS", str(jobs))


def _run(blob, *args):
    out = runtime.load_module(blob, device="local-sync").main(*args)
    return [np.asarray(o) for o in (out if isinstance(out, tuple) else (out,))]


def test_a_split_module_computes_what_one_unit_computes(monkeypatch):
    rng = np.random.default_rng(0)
    args = [rng.standard_normal(s).astype(np.float32) for s in ((16, 32), (32, 8), (8, 32))]
    one = compile_str(MANY)
    _units(monkeypatch, 64)
    split = compile_str(MANY)
    src = read_module(split).executables[0].variants[0]
    assert src.data != read_module(one).executables[0].variants[0].data
    for x, y in zip(_run(one, *args), _run(split, *args)):
        np.testing.assert_allclose(y, x, rtol=1e-6, atol=1e-6)


def test_units_are_balanced_and_keep_groups_whole():
    units = [([f"/*d{i}*/"], [("f%d" % i) * n]) for i, n in enumerate((900, 100, 500, 400, 50))]
    out = cpu.translation_units("P\n", units, budget=100, jobs=2)
    assert len(out) == 2 and all(u.startswith("P\n") for u in out)
    shared = cpu.translation_units("", [(["/*s*/", "/*s*/"], ["a"]), (["/*s*/"], ["b"])], jobs=1)
    assert shared[0].count("/*s*/") == 1                 # a declaration once per unit
    sizes = sorted(sum(u.count(f"f{i}") for i in range(5)) for u in out)
    assert sizes == [950, 1000] or abs(sizes[0] - sizes[1]) <= 200
    assert sum(u.count("/*d") for u in out) == 5          # each group's decls once
    assert cpu.translation_units("P\n", units, budget=10 ** 6, jobs=8) == \
        ["P\n" + "\n".join(f"/*d{i}*/" for i in range(5)) + "\n\n"
         + "\n\n".join(units[i][1][0] for i in range(5)) + "\n"]


def test_a_native_loop_calls_kernels_of_other_units(monkeypatch):
    _units(monkeypatch, 16)
    made, split = [], cpu.translation_units
    monkeypatch.setattr(cpu, "translation_units", lambda *a, **k: made.append(split(*a, **k))
                        or made[-1])
    blob = compile_str(test_native_loops.RNN)
    loop_unit = [u for u in made[0] if "_native(" in u]
    assert len(made[0]) > 1 and len(loop_unit) == 1
    kernels = [ep.name for ep in read_module(blob).executables[0].variants[0].entry_points
               if not ep.name.endswith("_native")]
    assert any(f"int {k}(const tvm_dispatch_state_t* st" in loop_unit[0] and
               f"int {k}(const tvm_dispatch_state_t* st, uint32_t wg_begin, uint32_t wg_end) {{"
               not in loop_unit[0] for k in kernels)       # declared there, defined elsewhere
    v = read_module(blob).executables[0].variants[0]
    assert any(ep.name.endswith("_native") for ep in v.entry_points)
    rng = np.random.default_rng(1)
    x, w, h = (rng.standard_normal(s).astype(np.float32) for s in ((5, 2, 3), (3, 3), (2, 3)))
    h_ref, outs = h.copy(), []
    for t in range(5):
        h_ref = np.tanh(x[t] @ w + h_ref)
        outs.append(h_ref)
    got = _run(blob, x, w, h)
    np.testing.assert_allclose(got[0], h_ref, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(got[1], np.stack(outs), rtol=1e-5, atol=1e-6)


def test_a_failing_unit_is_a_compile_error(monkeypatch):
    from tensorvm.compiler.errors import CompileError
    with pytest.raises(CompileError, match="C compiler failed"):
        cpu.build_shared_object(["int f(void) { return 0; }\n", "int g(void) { syntax error }\n"])
