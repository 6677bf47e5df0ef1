"""Fused attention (codegen/attention.py, gpu_attention.py,
passes/fuse_attention.py): scores, softmax and p.v as one dispatch in
cpu+opencl compiles, checked against numpy on PoCL and on the CPU variants
(local-sync, local-task) for MHA, GQA, a causal mask, an additive bias, a
torch-style all-masked-row guard and sizes that are not multiples of the
tiles; the CUDA form must pass ptxas."""
from __future__ import annotations

import numpy as np
import pytest

from tensorvm import runtime
from tensorvm.compiler.api import CompileOptions, compile_text
from tensorvm.hal import registry
from tensorvm.hal.loaders import opencl_c
from test_gpu_kernels import launches  # noqa: F401  (the fixture: launch shapes)

OPENCL = registry.driver_availability("opencl")


def attention(B, H, Hkv, S, T, D, Dv, causal=False, bias=False, guard=False) -> str:
    """StableHLO of softmax(q k^T * D^-0.5 [+ bias] [causal]) v, k and v
    with Hkv heads repeated to H (GQA), as torch's export spells it."""
    f = "f32"
    G = H // Hkv
    args = [f"%q: tensor<{B}x{H}x{S}x{D}x{f}>", f"%k: tensor<{B}x{Hkv}x{T}x{D}x{f}>",
            f"%v: tensor<{B}x{Hkv}x{T}x{Dv}x{f}>"]
    if bias:
        args.append(f"%bias: tensor<{B}x{H}x{S}x{T}x{f}>")
    st = f"tensor<{B}x{H}x{S}x{T}x{f}>"
    rt = f"tensor<{B}x{H}x{S}x{f}>"
    lines = []
    for name, n in (("k", D), ("v", Dv)):
        lines += [f"%{name}b = stablehlo.broadcast_in_dim %{name}, dims = [0, 1, 3, 4] : "
                  f"(tensor<{B}x{Hkv}x{T}x{n}x{f}>) -> tensor<{B}x{Hkv}x{G}x{T}x{n}x{f}>",
                  f"%{name}r = stablehlo.reshape %{name}b : (tensor<{B}x{Hkv}x{G}x{T}x{n}x{f}>) "
                  f"-> tensor<{B}x{H}x{T}x{n}x{f}>"]
    lines += [
        f"%s = stablehlo.dot_general %q, %kr, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [3] "
        f": (tensor<{B}x{H}x{S}x{D}x{f}>, tensor<{B}x{H}x{T}x{D}x{f}>) -> {st}",
        f"%c = stablehlo.constant dense<{D ** -0.5}> : tensor<{f}>",
        f"%cb = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<{f}>) -> {st}",
        f"%x0 = stablehlo.multiply %s, %cb : {st}",
        f"%ninf = stablehlo.constant dense<0xFF800000> : tensor<{f}>",
        f"%ninfb = stablehlo.broadcast_in_dim %ninf, dims = [] : (tensor<{f}>) -> {st}"]
    x = "%x0"
    if bias:
        lines.append(f"%x1 = stablehlo.add {x}, %bias : {st}")
        x = "%x1"
    if causal:
        lines += [f"%ii = stablehlo.iota dim = 2 : tensor<{B}x{H}x{S}x{T}xi32>",
                  f"%jj = stablehlo.iota dim = 3 : tensor<{B}x{H}x{S}x{T}xi32>",
                  f"%ok = stablehlo.compare GE, %ii, %jj, SIGNED : (tensor<{B}x{H}x{S}x{T}xi32>, "
                  f"tensor<{B}x{H}x{S}x{T}xi32>) -> tensor<{B}x{H}x{S}x{T}xi1>",
                  f"%x2 = stablehlo.select %ok, {x}, %ninfb : tensor<{B}x{H}x{S}x{T}xi1>, {st}"]
        x = "%x2"
    lines += [
        f"%mx = stablehlo.reduce({x} init: %ninf) applies stablehlo.maximum across dimensions = [3] "
        f": ({st}, tensor<{f}>) -> {rt}",
        f"%mb = stablehlo.broadcast_in_dim %mx, dims = [0, 1, 2] : ({rt}) -> {st}",
        f"%d = stablehlo.subtract {x}, %mb : {st}",
        f"%e = stablehlo.exponential %d : {st}",
        f"%zero = stablehlo.constant dense<0.0> : tensor<{f}>",
        f"%l = stablehlo.reduce(%e init: %zero) applies stablehlo.add across dimensions = [3] "
        f": ({st}, tensor<{f}>) -> {rt}",
        f"%lb = stablehlo.broadcast_in_dim %l, dims = [0, 1, 2] : ({rt}) -> {st}",
        f"%p = stablehlo.divide %e, %lb : {st}"]
    p = "%p"
    if guard:
        it = f"tensor<{B}x{H}x{S}x{T}xi1>"
        lines += [
            f"%ne = stablehlo.compare NE, {x}, %ninfb, FLOAT : ({st}, {st}) -> {it}",
            "%false = stablehlo.constant dense<false> : tensor<i1>",
            f"%any = stablehlo.reduce(%ne init: %false) applies stablehlo.or across dimensions = [3] "
            f": ({it}, tensor<i1>) -> tensor<{B}x{H}x{S}xi1>",
            f"%anyb = stablehlo.broadcast_in_dim %any, dims = [0, 1, 2] : (tensor<{B}x{H}x{S}xi1>) "
            f"-> tensor<{B}x{H}x{S}x1xi1>",
            f"%none = stablehlo.not %anyb : tensor<{B}x{H}x{S}x1xi1>",
            f"%noneb = stablehlo.broadcast_in_dim %none, dims = [0, 1, 2, 3] : (tensor<{B}x{H}x{S}x1xi1>) -> {it}",
            f"%zb = stablehlo.broadcast_in_dim %zero, dims = [] : (tensor<{f}>) -> {st}",
            f"%pg = stablehlo.select %noneb, %zb, %p : {it}, {st}"]
        p = "%pg"
    ot = f"tensor<{B}x{H}x{S}x{Dv}x{f}>"
    lines += [f"%o = stablehlo.dot_general {p}, %vr, batching_dims = [0, 1] x [0, 1], "
              f"contracting_dims = [3] x [2] : ({st}, tensor<{B}x{H}x{T}x{Dv}x{f}>) -> {ot}",
              f"return %o : {ot}"]
    body = "\n  ".join(lines)
    return f"func.func @main({', '.join(args)}) -> {ot} {{\n  {body}\n}}"


def reference(q, k, v, bias=None, causal=False, guard=False):
    """numpy's attention in f64 (k and v heads repeated)."""
    g = q.shape[1] // k.shape[1]
    k = np.repeat(k, g, axis=1).astype(np.float64)
    v = np.repeat(v, g, axis=1).astype(np.float64)
    x = np.einsum("bhsd,bhtd->bhst", q.astype(np.float64), k) * q.shape[-1] ** -0.5
    if bias is not None:
        x = x + bias
    if causal:
        S, T = x.shape[-2:]
        x = np.where(np.arange(S)[:, None] >= np.arange(T)[None, :], x, -np.inf)
    with np.errstate(invalid="ignore"):
        e = np.exp(x - x.max(-1, keepdims=True))
        p = e / e.sum(-1, keepdims=True)
    if guard:
        p = np.where(np.all(x == -np.inf, -1, keepdims=True), 0.0, p)
    return np.einsum("bhst,bhtd->bhsd", p, v)


CASES = {
    # name: (B, H, Hkv, S, T, D, Dv, causal, bias, guard)
    "mha": (2, 3, 3, 20, 20, 16, 16, False, False, False),
    "gqa_causal": (1, 4, 2, 33, 33, 8, 8, True, False, True),
    "bias_odd": (2, 2, 2, 37, 45, 24, 20, False, True, False),
    "masked_rows_guard": (1, 2, 1, 9, 70, 12, 12, False, True, True),
}


def _inputs(case, seed=0):
    B, H, Hkv, S, T, D, Dv, causal, bias, guard = CASES[case]
    rng = np.random.default_rng(seed)
    q = rng.standard_normal((B, H, S, D), dtype=np.float32)
    k = rng.standard_normal((B, Hkv, T, D), dtype=np.float32)
    v = rng.standard_normal((B, Hkv, T, Dv), dtype=np.float32)
    args = [q, k, v]
    if bias:
        b = rng.standard_normal((B, H, S, T), dtype=np.float32)
        if case == "masked_rows_guard":
            b[:, :, ::3, :] = -np.inf          # every third query row fully masked: the guard's zeros
        args.append(b)
    return args


@pytest.fixture(scope="module")
def modules():
    out = {}
    for case, (B, H, Hkv, S, T, D, Dv, causal, bias, guard) in CASES.items():
        r = compile_text(attention(B, H, Hkv, S, T, D, Dv, causal, bias, guard),
                         CompileOptions(targets=["cpu", "opencl"], keep_source=True))
        out[case] = r
    return out


@pytest.mark.parametrize("case", list(CASES))
def test_attention_is_one_dispatch(modules, case):
    r = modules[case]
    extra = 1 if CASES[case][7] else 0        # the causal mask's compare: a buffer of its own
    assert r.stats["dispatches"]["main"] == 1 + extra
    assert "a0_attention" in r.stats["opencl_source"] and "a0_attention" in r.stats["c_source"]


@pytest.mark.parametrize("device", ["local-sync", "local-task"] + ([] if OPENCL else ["opencl", "opencl-gpu-form"]))
@pytest.mark.parametrize("case", list(CASES))
def test_attention_matches_numpy(modules, case, device, monkeypatch):
    """opencl: PoCL's CPU-device form (rows per item); opencl-gpu-form: the
    tiled FlashAttention kernel that GPUs run, built on PoCL."""
    if device == "opencl-gpu-form":
        monkeypatch.setattr(opencl_c, "CPU_FORMS", False)
        device = "opencl"
    args = _inputs(case)
    B, H, Hkv, S, T, D, Dv, causal, bias, guard = CASES[case]
    want = reference(*args[:3], bias=args[3] if bias else None, causal=causal, guard=guard)
    m = runtime.load_module(modules[case].vmfb, device=device)
    got = np.asarray(m.main(*args))
    np.testing.assert_allclose(got, want, rtol=2e-4, atol=2e-5)


def test_opencl_runs_the_tiled_kernel_once(modules, launches):
    """One launch of (batch x heads) x row blocks work-groups, K/V tiles in local memory."""
    r = modules["bias_odd"]
    assert "__local float a_k[" in r.stats["opencl_source"]
    m = runtime.load_module(r.vmfb, device="opencl")
    m.main(*_inputs("bias_odd"))
    assert [w[0] for _, w in launches] == [2 * 2 * 2]        # 37 rows in blocks of 32


def test_attention_passes_ptxas():
    """compile_ptx runs ptxas over the PTX: a rejected kernel is a CompileError."""
    from tensorvm.compiler.codegen import cuda as cuda_codegen
    why = cuda_codegen.have_toolchain()
    if why is not None:
        pytest.skip(f"no CUDA toolchain: {why}")
    for case, c in CASES.items():
        source = compile_text(attention(*c), CompileOptions(targets=["cuda"], keep_source=True)).stats["cuda_source"]
        assert "__shared__ float a_k[" in source and "__syncthreads();" in source, case


def test_cpu_only_compiles_keep_the_unfused_kernels():
    """The pass runs for GPU compiles only: CPU-only modules keep their row kernels."""
    r = compile_text(attention(*CASES["mha"]), CompileOptions(targets=["cpu"]))
    assert r.stats["dispatches"]["main"] > 1


def test_probabilities_read_elsewhere_are_not_fused():
    """A value of the pattern read outside it (here the probabilities returned
    too) leaves the attention unfused: fusing would compute it twice."""
    text = attention(*CASES["mha"])
    text = text.replace("return %o : tensor<2x3x20x16xf32>", "return %o, %p : tensor<2x3x20x16xf32>, tensor<2x3x20x20xf32>")
    text = text.replace("-> tensor<2x3x20x16xf32> {", "-> (tensor<2x3x20x16xf32>, tensor<2x3x20x20xf32>) {")
    r = compile_text(text, CompileOptions(targets=["cpu", "opencl"], keep_source=True))
    assert "_attention" not in r.stats["opencl_source"] and r.stats["dispatches"]["main"] > 1


def test_attention_in_a_loop_body():
    """The pass forms the dispatch in a while body too (FormDispatchRegions
    leaves it alone there as well): three attention steps, each reading the
    last one's output as q."""
    body = attention(1, 2, 2, 8, 8, 8, 8)
    inner = body[body.index("{\n") + 2: body.rindex("return")]
    t = "tensor<1x2x8x8xf32>"
    text = f"""func.func @main(%q0: {t}, %k: {t}, %v: {t}) -> {t} {{
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %c3 = stablehlo.constant dense<3> : tensor<i32>
  %c1 = stablehlo.constant dense<1> : tensor<i32>
  %r:2 = stablehlo.while(%i = %c0, %q = %q0) : tensor<i32>, {t}
    cond {{
      %lt = stablehlo.compare LT, %i, %c3, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %lt : tensor<i1>
    }} do {{
      {inner}
      %n = stablehlo.add %i, %c1 : tensor<i32>
      stablehlo.return %n, %o : tensor<i32>, {t}
    }}
  return %r#1 : {t}
}}"""
    rng = np.random.default_rng(3)
    q, k, v = (rng.standard_normal((1, 2, 8, 8), dtype=np.float32) for _ in range(3))
    want = q
    for _ in range(3):
        want = reference(want, k, v)
    r = compile_text(text, CompileOptions(targets=["cpu", "opencl"], keep_source=True))
    assert "a0_attention(" in r.stats["opencl_source"]
    for device in ["local-task"] + ([] if OPENCL else ["opencl"]):
        got = np.asarray(runtime.load_module(r.vmfb, device=device).main(q, k, v))
        np.testing.assert_allclose(got, want, rtol=2e-4, atol=2e-5)
