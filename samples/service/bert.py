"""A BERT-style sentence classifier with a symbolic batch, for the service.

    python samples/service/bert.py [--layers 4 --hidden 256 --heads 4 --seq 128]
                                   [-o samples/service/bert_b.mlir]

exports (JAX, ``jax.export`` with the batch symbolic: ``ids: tensor<?x128xi32>``)
an encoder of ``layers`` post-LayerNorm transformer blocks (BERT's layout:
token + position embeddings, self-attention, GELU feed-forward) with a
classifier on the first token, and writes its StableHLO text.  The weights
are ARGUMENTS, not constants, so the checked-in text is a few dozen KB and
the service makes them at start from a seed with numpy alone (``weights``;
random, nothing downloaded); the serving process needs neither JAX nor the
weights on disk.  ``main(*weights, ids) -> logits: tensor<?xNxf32>``.
"""
from __future__ import annotations

import pathlib
import sys

import numpy as np

from exported import export_main, random_weights

HERE = pathlib.Path(__file__).resolve().parent
MLIR = HERE / "bert_b.mlir"
# BERT-mini's shape (Turc et al. 2019: 4 layers, hidden 256, 4 heads), a
# smaller vocabulary (the gather's cost does not depend on it), 2 classes
CONFIG = dict(layers=4, hidden=256, heads=4, ffn=1024, vocab=8192, seq=128, classes=2)


def weight_shapes(cfg=CONFIG) -> list[tuple[str, tuple]]:
    """(name, shape) of every weight, in argument order."""
    h, f = cfg["hidden"], cfg["ffn"]
    out = [("tok_emb", (cfg["vocab"], h)), ("pos_emb", (cfg["seq"], h)),
           ("emb_ln_g", (h,)), ("emb_ln_b", (h,))]
    for i in range(cfg["layers"]):
        out += [(f"l{i}_{n}", s) for n, s in [
            ("wqkv", (h, 3 * h)), ("bqkv", (3 * h,)), ("wo", (h, h)), ("bo", (h,)),
            ("ln1_g", (h,)), ("ln1_b", (h,)), ("w1", (h, f)), ("b1", (f,)),
            ("w2", (f, h)), ("b2", (h,)), ("ln2_g", (h,)), ("ln2_b", (h,))]]
    return out + [("cls_w", (h, cfg["classes"])), ("cls_b", (cfg["classes"],))]


def weights(seed=0, cfg=CONFIG) -> list[np.ndarray]:
    """Random float32 weights (BERT's initialiser: exported.random_weights)."""
    return random_weights(weight_shapes(cfg), seed)


def forward(cfg, flat_weights, ids):
    """The encoder in jax.numpy: ids (b, seq) int32 -> logits (b, classes)."""
    import jax
    import jax.numpy as jnp
    w = dict(zip((n for n, _ in weight_shapes(cfg)), flat_weights))
    h, heads = cfg["hidden"], cfg["heads"]

    def ln(x, g, b):
        mu = x.mean(-1, keepdims=True)
        var = ((x - mu) ** 2).mean(-1, keepdims=True)
        return (x - mu) * jax.lax.rsqrt(var + 1e-12) * g + b

    x = ln(w["tok_emb"][ids] + w["pos_emb"][None], w["emb_ln_g"], w["emb_ln_b"])
    b, s = x.shape[0], cfg["seq"]
    for i in range(cfg["layers"]):
        p = lambda n: w[f"l{i}_{n}"]       # noqa: E731
        qkv = (x @ p("wqkv") + p("bqkv")).reshape(b, s, 3, heads, h // heads)
        q, k, v = (qkv[:, :, j].transpose(0, 2, 1, 3) for j in range(3))
        att = jax.nn.softmax(q @ k.transpose(0, 1, 3, 2) / np.sqrt(h // heads), axis=-1)
        ctx = (att @ v).transpose(0, 2, 1, 3).reshape(b, s, h)
        x = ln(x + ctx @ p("wo") + p("bo"), p("ln1_g"), p("ln1_b"))
        ff = jax.nn.gelu(x @ p("w1") + p("b1"), approximate=True) @ p("w2") + p("b2")
        x = ln(x + ff, p("ln2_g"), p("ln2_b"))
    return jnp.tanh(x[:, 0]) @ w["cls_w"] + w["cls_b"]


def export_mlir(cfg=CONFIG) -> str:
    """StableHLO text of ``main(*weights, ids)`` with the batch symbolic."""
    import jax
    from jax import export
    specs = [jax.ShapeDtypeStruct(s, np.float32) for _, s in weight_shapes(cfg)]
    (b,) = export.symbolic_shape("b")
    ids = jax.ShapeDtypeStruct((b, cfg["seq"]), np.int32)
    fn = jax.jit(lambda *a: forward(cfg, a[:-1], a[-1]))
    return export.export(fn)(*specs, ids).mlir_module()


def main(argv=None) -> int:
    return export_main(__doc__.splitlines()[0], CONFIG, MLIR, export_mlir, argv)


if __name__ == "__main__":
    sys.exit(main())
