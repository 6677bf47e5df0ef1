"""Load time of a model whose weights are module constants, beside IREE (issue 34).

    python benchmarks/big_model_load.py build DIR      # export, compile both (~2 min, 5 GB RAM)
    python benchmarks/big_model_load.py measure DIR    # loads from a warm page cache

``build`` exports BERT-base (12 layers, hidden 768, 12 heads, FFN 3072, vocab
30522, sequence 128; random weights, seed 0) from plain JAX with the weights
baked in as constants (440 MB of f32), writes the StableHLO text, the JAX
outputs, and compiles the same text with tensorvm (streamed to the file) and
with ``iree-compile --iree-hal-target-backends=llvm-cpu
--iree-llvmcpu-target-cpu=host``.

``measure`` reads both files once (warm cache), then reports the median of
LOAD_REPEATS loads per mode: tensorvm ``verify="lazy"`` (default; constant
bytes checked chunk by chunk when kernels first bind them), ``"eager"`` (all
checked at load), pinned (``expected_sha256``: the file read and hashed), and
IREE's ``load_vm_flatbuffer_file``; then each one's first call, checked
against JAX.  Absolute times on shared machines are noise; the ratio to IREE
is the figure.
"""
from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import time

import numpy as np

H, L, NH, F, V, P, S = 768, 12, 12, 3072, 30522, 512, 128
LOAD_REPEATS = 11
DEVICE = "local-task"


def _params() -> dict:
    rng = np.random.default_rng(0)

    def w(*shape):
        return (0.02 * rng.standard_normal(shape)).astype(np.float32)

    def z(*shape):
        return np.zeros(shape, np.float32)

    ones = np.ones(H, np.float32)
    layers = [dict(wq=w(H, H), bq=z(H), wk=w(H, H), bk=z(H), wv=w(H, H), bv=z(H),
                   wo=w(H, H), bo=z(H), g1=ones, n1=z(H), w1=w(H, F), b1=z(F),
                   w2=w(F, H), b2=z(H), g2=ones, n2=z(H)) for _ in range(L)]
    return dict(tok=w(V, H), pos=w(P, H), typ=w(2, H), g0=ones, n0=z(H),
                layers=layers, wp=w(H, H), bp=z(H))


def _bert(p, ids):
    import jax
    import jax.numpy as jnp

    def norm(x, g, b):
        m = x.mean(-1, keepdims=True)
        return (x - m) / jnp.sqrt(((x - m) ** 2).mean(-1, keepdims=True) + 1e-12) * g + b

    def heads(t):
        return t.reshape(1, S, NH, H // NH).transpose(0, 2, 1, 3)

    p = jax.tree.map(jnp.asarray, p)
    x = norm(p["tok"][ids] + p["pos"][:S][None] + p["typ"][0], p["g0"], p["n0"])
    for lw in p["layers"]:
        q, k, v = (heads(x @ lw["w" + n] + lw["b" + n]) for n in "qkv")
        a = jax.nn.softmax(q @ k.transpose(0, 1, 3, 2) / 8.0, axis=-1) @ v
        x = norm(x + a.transpose(0, 2, 1, 3).reshape(1, S, H) @ lw["wo"] + lw["bo"],
                 lw["g1"], lw["n1"])
        h = jax.nn.gelu(x @ lw["w1"] + lw["b1"], approximate=False) @ lw["w2"] + lw["b2"]
        x = norm(x + h, lw["g2"], lw["n2"])
    return x, jnp.tanh(x[:, 0] @ p["wp"] + p["bp"])


def build(d: str) -> None:
    import jax
    from tensorvm.compiler import compile_file
    from tensorvm.compiler.frontends import export_jax
    os.makedirs(d, exist_ok=True)
    ids = np.random.default_rng(1).integers(0, V, (1, S)).astype(np.int32)
    params = _params()
    text = export_jax(_bert, params, ids, constants=[0], name="bert_base").mlir
    mlir = os.path.join(d, "bert_base.mlir")
    with open(mlir, "w") as f:
        f.write(text)
    del text
    out = jax.jit(_bert)(params, ids)
    np.savez(os.path.join(d, "io.npz"), ids=ids, out0=np.asarray(out[0]), out1=np.asarray(out[1]))
    t0 = time.perf_counter()
    compile_file(mlir, output=os.path.join(d, "bert_base.vmfb"), targets=("cpu",))
    t1 = time.perf_counter()
    subprocess.run(["iree-compile", "--iree-input-type=stablehlo",
                    "--iree-hal-target-backends=llvm-cpu", "--iree-llvmcpu-target-cpu=host",
                    mlir, "-o", os.path.join(d, "bert_base.iree.vmfb")], check=True)
    print(json.dumps({"compile_s": {"tensorvm": round(t1 - t0, 1),
                                    "iree": round(time.perf_counter() - t1, 1)}}))


def _median_load(load) -> tuple:
    times, module = [], None
    for _ in range(LOAD_REPEATS):
        module = None                   # the previous one is dropped before the next load
        t0 = time.perf_counter()
        module = load()
        times.append(time.perf_counter() - t0)
    return module, sorted(times)[len(times) // 2]


def _first_call(fn, ids, io) -> dict:
    t0 = time.perf_counter()
    out = fn(ids)
    seconds = time.perf_counter() - t0
    err = max(float(np.abs(np.asarray(o) - io[f"out{k}"]).max()) for k, o in enumerate(out))
    return {"first_call_s": round(seconds, 4), "max_abs_err": err}


def measure(d: str) -> None:
    import iree.runtime as ireert
    from tensorvm import runtime
    ours, theirs = os.path.join(d, "bert_base.vmfb"), os.path.join(d, "bert_base.iree.vmfb")
    for path in (ours, theirs):          # warm the page cache
        with open(path, "rb") as f:
            while f.read(64 << 20):
                pass
    with open(ours, "rb") as f:
        digest = hashlib.sha256(f.read()).hexdigest()
    io = np.load(os.path.join(d, "io.npz"))
    ids = io["ids"]
    runtime.load_module(ours, device=DEVICE)          # one-off imports and device creation
    ireert.load_vm_flatbuffer_file(theirs, driver=DEVICE)
    report = {"file_bytes": {"tensorvm": os.path.getsize(ours), "iree": os.path.getsize(theirs)}}
    modes = {"tensorvm lazy": lambda: runtime.load_module(ours, device=DEVICE),
             "tensorvm eager": lambda: runtime.load_module(ours, device=DEVICE, verify="eager"),
             "tensorvm pinned": lambda: runtime.load_module(ours, device=DEVICE,
                                                            expected_sha256=digest),
             "iree": lambda: ireert.load_vm_flatbuffer_file(theirs, driver=DEVICE)}
    for name, load in modes.items():
        module, seconds = _median_load(load)
        report[name] = {"load_s": round(seconds, 5), **_first_call(module.main, ids, io)}
    iree_s = report["iree"]["load_s"]
    for name in modes:
        report[name]["load_over_iree"] = round(report[name]["load_s"] / iree_s, 2)
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] not in ("build", "measure"):
        sys.exit(__doc__)
    (build if sys.argv[1] == "build" else measure)(sys.argv[2])
