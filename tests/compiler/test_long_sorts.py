"""Long sorts in CPU-only compiles (passes/split_sorts.py): rows past
``CPU_MIN`` become blocks of at most ``CPU_BLOCK`` plus two-cursor merges
instead of one quadratic insertion sort; the result is the stable sort."""
from __future__ import annotations

import numpy as np
import pytest

from tensorvm import runtime
from tensorvm.compiler.api import CompileOptions, compile_text
from tensorvm.compiler.passes import split_sorts

SORT = """func.func @main(%x: tensor<{s}xf32>, %i: tensor<{s}xi32>) -> (tensor<{s}xf32>, tensor<{s}xi32>) {{
  %0:2 = "stablehlo.sort"(%x, %i) ({{
  ^bb0(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<i32>, %d: tensor<i32>):
    %p = stablehlo.compare {dir}, %a, %b, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  }}) {{dimension = {dim} : i64, is_stable = true}} : (tensor<{s}xf32>, tensor<{s}xi32>) -> (tensor<{s}xf32>, tensor<{s}xi32>)
  return %0#0, %0#1 : tensor<{s}xf32>, tensor<{s}xi32>
}}"""


@pytest.mark.parametrize("shape,dim,dir", [((2, 3 * 2 ** 13), 1, "LT"), ((5 * 2 ** 11, 3), 0, "GT")])
def test_a_long_sort_is_blocks_and_merges_and_stays_stable(shape, dim, dir):
    n = shape[dim]
    assert n > split_sorts.CPU_MIN
    text = SORT.format(s="x".join(map(str, shape)), dim=dim, dir=dir)
    res = compile_text(text, CompileOptions(targets=("cpu",)))
    assert sum(res.stats["dispatches"].values()) > 5          # block sorts, then merge passes
    rng = np.random.default_rng(1)
    x = rng.integers(0, 50, shape).astype(np.float32)          # many ties: stability shows
    i = np.arange(x.size, dtype=np.int32).reshape(shape)
    order = np.argsort(-x if dir == "GT" else x, axis=dim, kind="stable")
    for device in ("local-sync", "local-task"):
        v, j = runtime.load_module(res.vmfb, device=device).main(x, i)
        np.testing.assert_array_equal(np.asarray(v), np.take_along_axis(x, order, dim))
        np.testing.assert_array_equal(np.asarray(j), np.take_along_axis(i, order, dim))


def test_a_short_sort_stays_one_kernel():
    res = compile_text(SORT.format(s="2x1000", dim=1, dir="LT"), CompileOptions(targets=("cpu",)))
    assert sum(res.stats["dispatches"].values()) == 1
    m = runtime.load_module(res.vmfb, device="local-sync")
    x = np.random.default_rng(2).standard_normal((2, 1000)).astype(np.float32)
    v, _ = m.main(x, np.zeros((2, 1000), np.int32))
    np.testing.assert_array_equal(np.asarray(v), np.sort(x, axis=1))
