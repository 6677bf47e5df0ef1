"""GEMM roofline: tensorvm contractions and convolutions beside numpy/OpenBLAS.

    python benchmarks/gemm_roofline.py [--only NAME,...] [--rounds N] [--const]

Each shape (BERT-base's projections and attention, ResNet-50's convolutions,
2048^3) is compiled by tensorvm as one StableHLO function; weights are
arguments, or constants with ``--const`` (then the compiler may pre-pack
them).  Per shape, in interleaved rounds, it times:
  - tensorvm local-sync (one thread: thread CPU time of the call),
  - tensorvm local-task (all workers: wall time),
  - numpy/OpenBLAS on one thread (threadpoolctl) and on all threads, the
    same GEMM (a convolution as the GEMM of its im2col, the im2col not timed),
and prints GFLOP/s and tensorvm's fraction of OpenBLAS per column, best
(minimum) of the rounds: on a shared machine the minimum is the figure
least moved by other load.  The 2048^2 f32 GEMM of numpy on all threads is
the reference the issue 34 goal is stated against.
"""
from __future__ import annotations

import argparse
import time

import numpy as np

# name -> ("dot" or "dot_t" (B as N x K), M, K, N, batch) or ("conv", H, W, C, OC, KH, stride)
SHAPES = {
    "bert_qkv": ("dot", 128, 768, 768, 1),
    "bert_ffn1": ("dot", 128, 768, 3072, 1),
    "bert_ffn2": ("dot", 128, 3072, 768, 1),
    "bert_attn": ("dot", 128, 64, 128, 12),
    "gemm2048": ("dot", 2048, 2048, 2048, 1),
    "gpt2_head_t": ("dot_t", 128, 768, 50257, 1),
    "conv_56x64x64_1": ("conv", 56, 56, 64, 64, 1, 1),
    "conv_56x64x64_3": ("conv", 56, 56, 64, 64, 3, 1),
    "conv_56x64x256_1": ("conv", 56, 56, 64, 256, 1, 1),
    "conv_28x128x128_3": ("conv", 28, 28, 128, 128, 3, 1),
    "conv_14x256x256_3": ("conv", 14, 14, 256, 256, 3, 1),
    "conv_7x512x512_3": ("conv", 7, 7, 512, 512, 3, 1),
    "conv_14x1024x256_1": ("conv", 14, 14, 1024, 256, 1, 1),
    "conv_112x3x64_7s2": ("conv", 224, 224, 3, 64, 7, 2),
    "conv_56x256x64_1": ("conv", 56, 56, 256, 64, 1, 1),
    "conv_28x512x128_1": ("conv", 28, 28, 512, 128, 1, 1),
    "conv_56x128x128_3s2": ("conv", 56, 56, 128, 128, 3, 2),
    "conv_14x1024x2048_1s2": ("conv", 14, 14, 1024, 2048, 1, 2),
    "conv_7x2048x512_1": ("conv", 7, 7, 2048, 512, 1, 1),
    "conv_7x512x2048_1": ("conv", 7, 7, 512, 2048, 1, 1),
}


def _tensor(shape) -> str:
    return "tensor<" + "x".join(str(d) for d in shape) + "xf32>"


def _literal(w: np.ndarray) -> str:
    return f'dense<"0x{w.astype("<f4").tobytes().hex().upper()}">'


def workload(name: str, const: bool, rng):
    """(mlir text, inputs, numpy reference fn (inputs) -> out, flops, GEMM
    operands (a, b) numpy multiplies for the OpenBLAS column)."""
    spec = SHAPES[name]
    if spec[0] in ("dot", "dot_t"):
        _, m, k, n, b = spec
        a = rng.standard_normal((b, m, k) if b > 1 else (m, k), np.float32)
        w = rng.standard_normal((b, k, n) if b > 1 else (k, n), np.float32) / np.float32(np.sqrt(k))
        out = (b, m, n) if b > 1 else (m, n)
        dims = ("batching_dims = [0] x [0], contracting_dims = [2] x [1]" if b > 1
                else "contracting_dims = [1] x [0]")
        if spec[0] == "dot_t":            # B stored transposed (N x K), as a tied LM head reads it
            w, dims = np.ascontiguousarray(w.T), "contracting_dims = [1] x [1]"
        body = f"stablehlo.dot_general %a, %w, {dims} : ({_tensor(a.shape)}, {_tensor(w.shape)}) -> {_tensor(out)}"
        ref = (lambda a, w: a @ w.T) if spec[0] == "dot_t" else np.matmul
        flops, ga, gb = 2 * b * m * k * n, a, (w.T if spec[0] == "dot_t" else w)
    else:
        _, h, wd, c, oc, kh, s = spec
        a = rng.standard_normal((1, h, wd, c), np.float32)
        w = rng.standard_normal((kh, kh, c, oc), np.float32) / np.float32(np.sqrt(kh * kh * c))
        p = kh // 2
        oh, ow = (h + 2 * p - kh) // s + 1, (wd + 2 * p - kh) // s + 1
        out = (1, oh, ow, oc)
        body = (f"stablehlo.convolution(%a, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], "
                f"window = {{stride = [{s}, {s}], pad = [[{p}, {p}], [{p}, {p}]]}} "
                f"{{batch_group_count = 1 : i64, feature_group_count = 1 : i64}} : "
                f"({_tensor(a.shape)}, {_tensor(w.shape)}) -> {_tensor(out)}")

        def im2col(a):
            xp = np.pad(a[0], ((p, p), (p, p), (0, 0)))
            cols = [xp[i:i + s * oh:s, j:j + s * ow:s, :] for i in range(kh) for j in range(kh)]
            return np.concatenate(cols, axis=-1).reshape(oh * ow, kh * kh * c)

        ref = lambda a, w: (im2col(a) @ w.reshape(-1, oc)).reshape(out)
        flops, ga, gb = 2 * oh * ow * kh * kh * c * oc, im2col(a), w.reshape(-1, oc)
    if const:
        text = (f"func.func public @main(%a: {_tensor(a.shape)}) -> {_tensor(out)} {{\n"
                f"  %w = stablehlo.constant {_literal(w)} : {_tensor(w.shape)}\n"
                f"  %0 = {body}\n  return %0 : {_tensor(out)}\n}}\n")
        inputs = (a,)
    else:
        text = (f"func.func public @main(%a: {_tensor(a.shape)}, %w: {_tensor(w.shape)}) -> {_tensor(out)} {{\n"
                f"  %0 = {body}\n  return %0 : {_tensor(out)}\n}}\n")
        inputs = (a, w)
    return text, inputs, ref(a, w), flops, (np.ascontiguousarray(ga), np.ascontiguousarray(gb))


def best(fn, clock, reps: int) -> float:
    fn()
    t = []
    for _ in range(reps):
        t0 = clock()
        fn()
        t.append(clock() - t0)
    return min(t)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", default="", help="comma-separated shape names")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--const", action="store_true", help="weights as compile-time constants")
    ap.add_argument("--cpu", default="host", help="tensorvm's --cpu (e.g. x86-64-v3 for AVX2)")
    ap.add_argument("--single", action="store_true", help="the one-thread columns only")
    args = ap.parse_args(argv)
    from threadpoolctl import threadpool_limits
    from tensorvm import runtime
    from tensorvm.compiler import compile_str

    rng = np.random.default_rng(0)
    names = [n for n in args.only.split(",") if n] or list(SHAPES)
    cells = {}
    for name in names:
        text, inputs, want, flops, (ga, gb) = workload(name, args.const, rng)
        vm = compile_str(text, targets=["cpu"], cpu=args.cpu)
        mods = {d: runtime.load_module(vm, device=d).main for d in ("local-sync", "local-task")}
        for d, f in mods.items():
            got = np.asarray(f(*inputs))
            err = float(np.max(np.abs(got - want)) / (np.max(np.abs(want)) or 1))
            if err > 1e-4:
                raise SystemExit(f"{name} on {d}: relative error {err:.2e}")
        reps = max(2, min(50, int(2e9 / flops)))
        cells[name] = dict(mods=mods, inputs=inputs, flops=flops, ga=ga, gb=gb, reps=reps,
                           t={k: [] for k in ("sync", "task", "np1", "npT")})
    ref = rng.standard_normal((2048, 2048), np.float32)
    ref_t = {"np1": [], "npT": []}
    for _ in range(args.rounds):
        with threadpool_limits(1):
            ref_t["np1"].append(best(lambda: ref @ ref, time.thread_time, 2))
        if not args.single:
            ref_t["npT"].append(best(lambda: ref @ ref, time.perf_counter, 3))
        for name, c in cells.items():
            m, x, r = c["mods"], c["inputs"], c["reps"]
            c["t"]["sync"].append(best(lambda: np.asarray(m["local-sync"](*x)), time.thread_time, r))
            if not args.single:
                c["t"]["task"].append(best(lambda: np.asarray(m["local-task"](*x)), time.perf_counter, r))
            with threadpool_limits(1):
                c["t"]["np1"].append(best(lambda: c["ga"] @ c["gb"], time.thread_time, r))
            if not args.single:
                c["t"]["npT"].append(best(lambda: c["ga"] @ c["gb"], time.perf_counter, r))
    g = lambda flops, ts: flops / min(ts) / 1e9 if ts else float("nan")
    ref1, refT = g(2 * 2048 ** 3, ref_t["np1"]), g(2 * 2048 ** 3, ref_t["npT"])
    print(f"numpy/OpenBLAS 2048^3 reference: 1 thread {ref1:.1f} GFLOP/s, all threads {refT:.1f} GFLOP/s "
          f"(weights {'constant' if args.const else 'arguments'}; best of {args.rounds} rounds)")
    print(f"{'shape':22s} {'GFLOP':>7s} | {'tvm 1T':>7s} {'np 1T':>7s} {'/np':>5s} {'/ref':>5s} | "
          f"{'tvm all':>7s} {'np all':>7s} {'/np':>5s} {'/ref':>5s}")
    for name, c in cells.items():
        f, t = c["flops"], c["t"]
        s1, n1, sT, nT = (g(f, t[k]) for k in ("sync", "np1", "task", "npT"))
        print(f"{name:22s} {f / 1e9:7.3f} | {s1:7.1f} {n1:7.1f} {s1 / n1:5.2f} {s1 / ref1:5.2f} | "
              f"{sT:7.1f} {nT:7.1f} {sT / nT:5.2f} {sT / refT:5.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
