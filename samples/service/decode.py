"""A GPT-2-small decode step with a symbolic batch, for the decode service.

    python samples/service/decode.py [--layers 12 --hidden 768 --heads 12 --cache 128]
                                     [-o samples/service/decode_b.mlir]

exports (JAX, ``jax.export`` with the batch symbolic) one step of greedy
decoding for ``b`` sequences, each against its own KV cache:

    main(*weights, tok: ?xi32, at: ?xi32, *k_cache, *v_cache)
        -> (logits: ?xVxf32, k: ?xLxHxDxf32, v: ?xLxHxDxf32)

with one key and one value cache per layer (``?xHxTxDxf32``, HuggingFace's
``past_key_values`` layout).  Sequence i's token ``tok[i]`` sits at
position ``at[i]`` and attends over the first ``at[i]`` entries of its
cache rows and itself; the step returns the logits (tied LM head) and the
token's keys and values per layer, which the caller writes at ``at[i]`` of
its caches.  GPT-2 small's
layout (pre-norm, tanh GELU, final norm); the weights are ARGUMENTS, made at
start from a seed with numpy alone (``weights``; random, nothing downloaded),
so the checked-in text is small and the serving process needs no JAX.
"""
from __future__ import annotations

import pathlib
import sys

import numpy as np

from exported import export_main, random_weights

HERE = pathlib.Path(__file__).resolve().parent
MLIR = HERE / "decode_b.mlir"
# GPT-2 small (Radford et al. 2019: 12 layers, hidden 768, 12 heads, MLP
# 3072, 50257 tokens, 1024 positions) with a KV cache of 128 positions
CONFIG = dict(layers=12, hidden=768, heads=12, ffn=3072, vocab=50257, positions=1024, cache=128)


def weight_shapes(cfg=CONFIG) -> list[tuple[str, tuple]]:
    """(name, shape) of every weight, in argument order."""
    h, f = cfg["hidden"], cfg["ffn"]
    out = [("tok_emb", (cfg["vocab"], h)), ("pos_emb", (cfg["positions"], h))]
    for i in range(cfg["layers"]):
        out += [(f"l{i}_{n}", s) for n, s in [
            ("ln1_g", (h,)), ("ln1_b", (h,)), ("wqkv", (h, 3 * h)), ("bqkv", (3 * h,)),
            ("wo", (h, h)), ("bo", (h,)), ("ln2_g", (h,)), ("ln2_b", (h,)),
            ("w1", (h, f)), ("b1", (f,)), ("w2", (f, h)), ("b2", (h,))]]
    return out + [("lnf_g", (h,)), ("lnf_b", (h,))]


def weights(seed=0, cfg=CONFIG) -> list[np.ndarray]:
    """Random float32 weights (GPT-2's initialiser: exported.random_weights)."""
    return random_weights(weight_shapes(cfg), seed)


def cache_shape(cfg=CONFIG, sequences=1) -> tuple:
    """The shape of ``sequences`` sequences' key (or value) cache of one layer."""
    return (sequences, cfg["heads"], cfg["cache"], cfg["hidden"] // cfg["heads"])


def step(cfg, flat_weights, tok, at, kc, vc):
    """One decode step in jax.numpy (see the module docstring)."""
    import jax
    import jax.numpy as jnp
    w = dict(zip((n for n, _ in weight_shapes(cfg)), flat_weights))
    h, heads, cache = cfg["hidden"], cfg["heads"], cfg["cache"]
    hd, b = h // heads, tok.shape[0]
    scale = np.float32(1.0 / np.sqrt(hd))

    def ln(x, g, bias):
        mu = x.mean(-1, keepdims=True)
        var = ((x - mu) ** 2).mean(-1, keepdims=True)
        return (x - mu) * jax.lax.rsqrt(var + 1e-5) * g + bias

    x = w["tok_emb"][tok] + w["pos_emb"][at]
    seen = jnp.arange(cache)[None, None, :] < at[:, None, None]          # (b, 1, cache)
    ks, vs = [], []
    for i in range(cfg["layers"]):
        p = lambda n: w[f"l{i}_{n}"]       # noqa: E731
        qkv = ln(x, p("ln1_g"), p("ln1_b")) @ p("wqkv") + p("bqkv")
        q, k, v = (qkv[:, j * h:(j + 1) * h].reshape(b, heads, hd) for j in range(3))
        old = jnp.einsum("bhd,bhtd->bht", q, kc[i]) * scale
        new = jnp.sum(q * k, -1, keepdims=True) * scale
        a = jax.nn.softmax(jnp.concatenate([jnp.where(seen, old, -1e9), new], -1), axis=-1)
        ctx = jnp.einsum("bht,bhtd->bhd", a[..., :cache], vc[i]) + a[..., cache:] * v
        x = x + ctx.reshape(b, h) @ p("wo") + p("bo")
        m = jax.nn.gelu(ln(x, p("ln2_g"), p("ln2_b")) @ p("w1") + p("b1"), approximate=True)
        x = x + m @ p("w2") + p("b2")
        ks.append(k)
        vs.append(v)
    logits = ln(x, w["lnf_g"], w["lnf_b"]) @ w["tok_emb"].T
    return logits, jnp.stack(ks, 1), jnp.stack(vs, 1)


def export_mlir(cfg=CONFIG) -> str:
    """StableHLO text of ``main(*weights, tok, at, *k_cache, *v_cache)`` with
    the batch symbolic."""
    import jax
    from jax import export
    specs = [jax.ShapeDtypeStruct(s, np.float32) for _, s in weight_shapes(cfg)]
    (b,) = export.symbolic_shape("b")
    tok = jax.ShapeDtypeStruct((b,), np.int32)
    kv = [jax.ShapeDtypeStruct((b, *cache_shape(cfg)[1:]), np.float32)] * cfg["layers"]
    n = len(specs)
    fn = jax.jit(lambda *a: step(cfg, a[:n], a[n], a[n + 1], a[n + 2:n + 2 + cfg["layers"]],
                                 a[n + 2 + cfg["layers"]:]))
    return export.export(fn)(*specs, tok, tok, *kv, *kv).mlir_module()


def main(argv=None) -> int:
    return export_main(__doc__.splitlines()[0], CONFIG, MLIR, export_mlir, argv)


if __name__ == "__main__":
    sys.exit(main())
