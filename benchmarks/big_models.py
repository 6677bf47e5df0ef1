"""Real-size models for ``run.py --big``: ResNet-50 at 224x224, BERT-base at
seq 128 and a GPT-2-small forward (with its tied LM head) at seq 128, batch 1,
and GPT-2-small decode steps (one token per sequence against a KV cache of
128) for 1 and 16 sequences.

Each is written here in plain jax.numpy (the published architectures:
ResNet-50 v1.5 with inference batch norm as scale and shift, BERT-base's 12
post-norm layers with erf GELU, GPT-2's 12 pre-norm causal layers with tanh
GELU), with RANDOM weights from numpy (seeded, scaled 1/sqrt(fan-in) so
activations stay O(1)), and exported by ``jax.export`` with the weights as
ARGUMENTS (weights first, then the input), so the text stays small and every
engine gets the same weights per call.  The reference output is the jitted
JAX function's.  Exports are cached in ``$TENSORVM_BIG_CACHE`` (default
``~/.cache/tensorvm-big``) keyed by name.  ``flops`` counts the multiply-adds
of the dots and convolutions, twice.
"""
from __future__ import annotations

import os
import pathlib

import numpy as np

CACHE = pathlib.Path(os.environ.get("TENSORVM_BIG_CACHE", "~/.cache/tensorvm-big")).expanduser()
SEQ = 128


class _Weights:
    """Random weights, created in call order (their order as arguments)."""

    def __init__(self, seed: int):
        self.rng = np.random.default_rng(seed)
        self.arrays = []

    def normal(self, shape, fan_in=None) -> int:
        scale = 1.0 / np.sqrt(fan_in if fan_in else shape[0])
        self.arrays.append((self.rng.standard_normal(shape, np.float32) * np.float32(scale)))
        return len(self.arrays) - 1

    def near(self, shape, center: float) -> int:
        self.arrays.append((center + 0.1 * self.rng.standard_normal(shape, np.float32)).astype(np.float32))
        return len(self.arrays) - 1


def resnet50(w: _Weights):
    """(forward(weights, x), input, flops): v1.5 bottlenecks [3, 4, 6, 3]."""
    import jax
    import jax.numpy as jnp
    flops = [0]

    def conv(x, k, stride, out_hw):
        flops[0] += 2 * out_hw * out_hw * int(np.prod(w.arrays[k].shape))
        pad = w.arrays[k].shape[0] // 2
        return lambda W, x: jax.lax.conv_general_dilated(
            x, W[k], (stride, stride), [(pad, pad), (pad, pad)],
            dimension_numbers=("NHWC", "HWIO", "NHWC"))

    plan = []                         # (kind, params) in order; weights are made now

    def conv_bn(cin, cout, ksz, stride, hw_out, relu=True):
        k = w.normal((ksz, ksz, cin, cout), ksz * ksz * cin)
        s, b = w.near((cout,), 1.0), w.near((cout,), 0.0)
        return (conv(None, k, stride, hw_out), s, b, relu)

    def apply(W, x, layer):
        f, s, b, relu = layer
        y = f(W, x) * W[s] + W[b]
        return jnp.maximum(y, 0.0) if relu else y

    stem = conv_bn(3, 64, 7, 2, 112)
    hw, cin = 56, 64
    for stage, (width, blocks) in enumerate(zip((64, 128, 256, 512), (3, 4, 6, 3))):
        for i in range(blocks):
            stride = 2 if i == 0 and stage > 0 else 1
            out_hw = hw // stride
            block = [conv_bn(cin, width, 1, 1, hw), conv_bn(width, width, 3, stride, out_hw),
                     conv_bn(width, 4 * width, 1, 1, out_hw, relu=False)]
            proj = conv_bn(cin, 4 * width, 1, stride, out_hw, relu=False) if i == 0 else None
            plan.append((block, proj))
            hw, cin = out_hw, 4 * width
    fc, fc_b = w.normal((2048, 1000)), w.near((1000,), 0.0)
    flops[0] += 2 * 2048 * 1000

    def forward(W, x):
        x = apply(W, x, stem)
        x = jax.lax.reduce_window(x, -jnp.inf, jax.lax.max, (1, 3, 3, 1), (1, 2, 2, 1),
                                  [(0, 0), (1, 1), (1, 1), (0, 0)])
        for block, proj in plan:
            y = x
            for layer in block:
                y = apply(W, y, layer)
            sc = x if proj is None else apply(W, x, proj)
            x = jnp.maximum(y + sc, 0.0)
        return jnp.mean(x, axis=(1, 2)) @ W[fc] + W[fc_b]

    x = np.random.default_rng(1).standard_normal((1, 224, 224, 3), np.float32)
    return forward, x, flops[0]


def _layer_norm(x, g, b):
    import jax.numpy as jnp
    m = jnp.mean(x, -1, keepdims=True)
    v = jnp.mean(jnp.square(x - m), -1, keepdims=True)
    return (x - m) * (1.0 / jnp.sqrt(v + 1e-5)) * g + b


def _attention(q, k, v, heads, causal):
    import jax
    import jax.numpy as jnp
    s, d = q.shape
    split = lambda t: t.reshape(s, heads, d // heads).transpose(1, 0, 2)  # noqa: E731
    q, k, v = split(q), split(k), split(v)
    a = jnp.einsum("hqd,hkd->hqk", q, k) / np.sqrt(d // heads).astype(q.dtype)
    if causal:
        a = jnp.where(jnp.tril(jnp.ones((s, s), bool)), a, np.asarray(-1e9, q.dtype))
    p = jax.nn.softmax(a, axis=-1)
    return jnp.einsum("hqk,hkd->hqd", p, v).transpose(1, 0, 2).reshape(s, d)


def _layer_weights(w: _Weights, d: int, ff: int) -> dict:
    """One transformer layer's weights (indices into ``w``), made in order."""
    return dict(qkv=w.normal((d, 3 * d)), qkv_b=w.near((3 * d,), 0.0), o=w.normal((d, d)),
                o_b=w.near((d,), 0.0), ln1=(w.near((d,), 1.0), w.near((d,), 0.0)),
                up=w.normal((d, ff)), up_b=w.near((ff,), 0.0), down=w.normal((ff, d)),
                down_b=w.near((d,), 0.0), ln2=(w.near((d,), 1.0), w.near((d,), 0.0)))


def _transformer(w: _Weights, vocab: int, causal: bool, head: bool):
    """(forward(weights, ids), ids, flops) of 12 layers, hidden 768, 12
    heads, MLP 3072: BERT-base (post-norm, erf GELU, no head) or GPT-2 small
    (pre-norm, tanh GELU, final norm, tied LM head)."""
    import jax
    import jax.numpy as jnp
    d, ff, heads, layers = 768, 3072, 12, 12
    emb, pos = w.normal((vocab, d), 50.0), w.normal((512 if not causal else 1024, d), 50.0)
    ln0 = (w.near((d,), 1.0), w.near((d,), 0.0))
    L = []
    for _ in range(layers):
        L.append(_layer_weights(w, d, ff))
    flops = layers * (2 * SEQ * d * (4 * d + 2 * ff) + 4 * SEQ * SEQ * d)
    if head:
        flops += 2 * SEQ * d * vocab

    def forward(W, ids):
        x = W[emb][ids[0]] + W[pos][:SEQ]
        ln = lambda x, p: _layer_norm(x, W[p[0]], W[p[1]])  # noqa: E731
        if not causal:
            x = ln(x, ln0)
        for p in L:
            h = ln(x, p["ln1"]) if causal else x
            q, k, v = jnp.split(h @ W[p["qkv"]] + W[p["qkv_b"]], 3, axis=-1)
            a = _attention(q, k, v, heads, causal) @ W[p["o"]] + W[p["o_b"]]
            x = x + a if causal else ln(x + a, p["ln1"])
            h = ln(x, p["ln2"]) if causal else x
            m = jax.nn.gelu(h @ W[p["up"]] + W[p["up_b"]], approximate=causal)
            m = m @ W[p["down"]] + W[p["down_b"]]
            x = x + m if causal else ln(x + m, p["ln2"])
        if head:
            x = ln(x, ln0)
            return (x @ W[emb].T)[None]
        return x[None]

    ids = np.random.default_rng(2).integers(0, vocab, (1, SEQ), dtype=np.int32)
    return forward, ids, flops


def _decode_step(w: _Weights, batch: int, cache: int = SEQ):
    """(forward(weights, (tokens, positions, k_cache, v_cache)), inputs,
    flops) of one GPT-2-small decode step for ``batch`` sequences: each
    sequence's next token attends over its own first ``positions[i]``
    cached keys and values (of ``cache``) and itself; returns the logits
    (tied LM head) and the token's keys and values per layer, which a
    caller appends to its cache.  Every weight is read once per step, so
    the step is bound by memory traffic where the forward pass is bound by
    arithmetic."""
    import jax
    import jax.numpy as jnp
    d, ff, heads, layers, vocab = 768, 3072, 12, 12, 50257
    hd = d // heads
    emb, pos = w.normal((vocab, d), 50.0), w.normal((1024, d), 50.0)
    lnf = (w.near((d,), 1.0), w.near((d,), 0.0))
    L = []
    for _ in range(layers):
        L.append(_layer_weights(w, d, ff))
    flops = 2 * batch * (layers * (4 * d * d + 2 * d * ff + 2 * (cache + 1) * d) + d * vocab)

    def forward(W, tok, at, kc, vc):
        ln = lambda x, p: _layer_norm(x, W[p[0]], W[p[1]])  # noqa: E731
        x = W[emb][tok] + W[pos][at]
        seen = jnp.arange(cache)[None, None, :] < at[:, None, None]        # (b, 1, cache)
        ks, vs = [], []
        for i, p in enumerate(L):
            q, k, v = jnp.split(ln(x, p["ln1"]) @ W[p["qkv"]] + W[p["qkv_b"]], 3, axis=-1)
            q, k, v = (t.reshape(batch, heads, hd) for t in (q, k, v))
            old = jnp.einsum("bhd,bhtd->bht", q, kc[:, i]) / np.sqrt(hd).astype(np.float32)
            new = jnp.sum(q * k, -1, keepdims=True) / np.sqrt(hd).astype(np.float32)
            a = jax.nn.softmax(jnp.concatenate([jnp.where(seen, old, -1e9), new], -1), axis=-1)
            ctx = jnp.einsum("bht,bhtd->bhd", a[..., :cache], vc[:, i]) + a[..., cache:] * v
            x = x + ctx.reshape(batch, d) @ W[p["o"]] + W[p["o_b"]]
            m = jax.nn.gelu(ln(x, p["ln2"]) @ W[p["up"]] + W[p["up_b"]], approximate=True)
            x = x + m @ W[p["down"]] + W[p["down_b"]]
            ks.append(k)
            vs.append(v)
        return ln(x, lnf) @ W[emb].T, jnp.stack(ks, 1), jnp.stack(vs, 1)

    rng = np.random.default_rng(3)
    kv = lambda: rng.standard_normal((batch, layers, heads, cache, hd), np.float32)  # noqa: E731
    inputs = (rng.integers(0, vocab, batch, dtype=np.int32),
              rng.integers(cache // 2, cache + 1, batch, dtype=np.int32), kv(), kv())
    return forward, inputs, flops


BUILDERS = {
    "resnet50_224": (lambda w: resnet50(w), 50,
                     "ResNet-50 v1.5, 224x224x3, batch 1, 1000 classes"),
    "bert_base_128": (lambda w: _transformer(w, 30522, causal=False, head=False), 51,
                      "BERT-base encoder (12 x 768, 12 heads, 3072), seq 128, batch 1"),
    "gpt2_small_128": (lambda w: _transformer(w, 50257, causal=True, head=True), 52,
                       "GPT-2 small (12 x 768, 12 heads, 3072) with tied LM head, seq 128, batch 1"),
    "gpt2_small_decode": (lambda w: _decode_step(w, 1), 52,
                          "GPT-2 small decode step (tied LM head), KV cache of 128, batch 1"),
    "gpt2_small_decode_b16": (lambda w: _decode_step(w, 16), 52,
                              "GPT-2 small decode step, KV cache of 128, 16 sequences"),
    # the same models with bf16 weights (and image), so bf16 activations throughout (as a
    # HuggingFace model loaded with torch_dtype=bfloat16 runs)
    "bert_base_128_bf16": (lambda w: _transformer(w, 30522, causal=False, head=False), 51,
                           "BERT-base encoder, bf16 weights and activations, seq 128, batch 1",
                           "bfloat16"),
    "resnet50_224_bf16": (lambda w: resnet50(w), 50,
                          "ResNet-50 v1.5, bf16 weights, image and activations, batch 1", "bfloat16"),
}

# A bf16 model's output against JAX's: each engine rounds every op to 8
# significant bits, in its own order (the float32 models' bound is 1e-4 of the
# largest output value; see load.mismatch).  Measured on BERT-base: tensorvm
# 0.021 of the largest value (mean 0.009 relative), IREE 0.047 (mean 0.022).
BF16_REL_TO_MAX = 5e-2


def build(name: str) -> dict:
    """{text, inputs, expected, flops, note} of model ``name``, exported once
    and cached (the weights are regenerated from the seed each time)."""
    make, seed, note, *element = BUILDERS[name]
    w = _Weights(seed)
    forward, x, flops = make(w)
    xs = x if isinstance(x, tuple) else (x,)      # the inputs after the weights
    dtype = _dtype(element[0]) if element else None
    weights = w.arrays if dtype is None else [a.astype(dtype) for a in w.arrays]
    if dtype is not None:
        xs = tuple(a.astype(dtype) if a.dtype.kind == "f" else a for a in xs)
    mlir = CACHE / f"{name}.mlir"
    ref = lambda k: CACHE / (f"{name}.npy" if k == 0 else f"{name}.{k}.npy")  # noqa: E731  output k
    if not (mlir.exists() and ref(0).exists()):
        import jax
        from jax import export as jexport

        def fn(*flat):
            return forward(flat[:-len(xs)], *flat[-len(xs):])
        structs = [jax.ShapeDtypeStruct(a.shape, a.dtype) for a in (*weights, *xs)]
        exp = jexport.export(jax.jit(fn, keep_unused=True))(*structs)
        from models.export import strip_locations
        CACHE.mkdir(parents=True, exist_ok=True)
        outs = exp.call(*weights, *xs)
        for k, out in enumerate(outs if isinstance(outs, (tuple, list)) else [outs]):
            out = np.asarray(out)
            assert dtype is None or out.dtype == dtype, f"{name} computes in {out.dtype}"
            np.save(ref(k), out if dtype is None else out.view(np.uint16))   # .npy has no bf16
        mlir.write_text(strip_locations(exp.mlir_module()))
    expected = []
    while ref(len(expected)).exists():
        expected.append(np.load(ref(len(expected))))
    return dict(text=mlir.read_text(), inputs=[*weights, *xs],
                expected=[e if dtype is None else e.view(dtype) for e in expected], flops=flops,
                note=note, rel_to_max=None if dtype is None else BF16_REL_TO_MAX)


def _dtype(name: str):
    import ml_dtypes
    return np.dtype(getattr(ml_dtypes, name))
