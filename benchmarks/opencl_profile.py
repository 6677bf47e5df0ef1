"""Per-kernel OpenCL timing of one model: every entry point of the module's
opencl-c variants runs alone (random-filled buffers of its binding sizes,
zero push constants) on a profiling queue; prints the slowest kernels with
their share of the total, so a codegen change can be aimed at what costs.

    python benchmarks/opencl_profile.py mobilenet_v2 [--top 15] [--reps 3]

Kernels whose workgroup count depends on push constants (dynamic shapes)
are skipped: the profile is of static models.
"""
from __future__ import annotations

import argparse
import pathlib
import sys

import numpy as np

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE / "models"))
import load as model_set  # noqa: E402


def profile(text: str, reps: int = 3):
    """[(kernel name, min ms, workgroups, what it computes)] for every static entry point."""
    import pyopencl as cl

    from tensorvm import compiler
    from tensorvm.compiler.codegen import opencl
    from tensorvm.hal.loaders.opencl_c import build_options
    from tensorvm.vmfb import container
    kinds, build = {}, opencl.build_opencl_executable

    def recording(kernels, *rest):
        for k in kernels:
            kinds[k.name] = _describe(k)
        return build(kernels, *rest)      # (rest: the loops gpu_loop.py adds, their entries)
    opencl.build_opencl_executable = recording
    try:
        mdef = container.read_module(compiler.compile_str(text, targets=["opencl"]))
    finally:
        opencl.build_opencl_executable = build
    ctx = cl.create_some_context(interactive=False)
    queue = cl.CommandQueue(ctx, properties=cl.command_queue_properties.PROFILING_ENABLE)
    rng = np.random.default_rng(0)
    out = []
    for exe in mdef.executables:
        for v in exe.variants:
            if v.format != "opencl-c":
                continue
            prog = cl.Program(ctx, bytes(v.data).decode()).build(
                options=build_options(ctx.devices[0]))
            local = int(v.target.get("local_size", 64))
            for ep in v.entry_points:
                n = getattr(ep, "workgroups", None)
                if type(n) is not int or n == 0:
                    continue
                k = cl.Kernel(prog, ep.name)
                bufs = []
                for size in ep.binding_bytes:
                    host = rng.standard_normal(max(1, size // 4 + 1)).astype(np.float32) * 0.1
                    bufs.append(cl.Buffer(ctx, cl.mem_flags.READ_WRITE | cl.mem_flags.COPY_HOST_PTR,
                                          hostbuf=host))
                args = bufs + [np.uint64(0)] * len(bufs) + [np.uint32(0)] * ep.constants
                k.set_args(*args)
                best = float("inf")
                for _ in range(reps + 1):
                    ev = cl.enqueue_nd_range_kernel(queue, k, (n * local,), (local,))
                    ev.wait()
                    best = min(best, (ev.profile.end - ev.profile.start) * 1e-6)
                out.append((ep.name, best, n, kinds.get(ep.name, "")))
    return out


def _describe(k) -> str:
    shape = "x".join(str(d) for d in k.shape)
    if k.contraction is not None:
        c = k.contraction
        return f"contraction B{c.B} M{c.M} N{c.N} K{c.K} -> {shape}"
    if k.convolution is not None:
        c = k.convolution
        return (f"conv {c.KH}x{c.KW} IC{c.IC} OC{c.OC} g{c.groups} s{c.stride[0]} "
                f"-> {shape}")
    ops = sorted({o.name.split(".")[-1] for o in k.root.parent.operations} - {"return"})
    heavy = [o for o in ops if o in ("reduce", "dot_general", "convolution", "sort", "scatter",
                                     "gather", "reduce_window")]
    return f"{k.kind} {','.join(heavy) or 'elementwise'} -> {shape}"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("case")
    ap.add_argument("--top", type=int, default=15)
    ap.add_argument("--reps", type=int, default=3)
    args = ap.parse_args(argv)
    text, _, _ = model_set.load_case(args.case)
    rows = sorted(profile(text, args.reps), key=lambda r: -r[1])
    total = sum(r[1] for r in rows)
    print(f"{args.case}: {len(rows)} kernels, {total:.2f} ms in all")
    for name, ms, n, what in rows[:args.top]:
        print(f"  {ms:8.3f} ms {100 * ms / total:5.1f}%  wg={n:<6} {name:<16} {what}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
