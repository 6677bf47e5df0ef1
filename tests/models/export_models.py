"""Export the model fixtures in this folder from JAX (run once; commit the outputs).

    python tests/models/export_models.py [names...]

Needs JAX on CPU. For each model writes `<name>.mlir` (StableHLO text from
`jax.jit(f).lower(*specs).as_text()`, weights closed over as numpy arrays so
they are `stablehlo.constant`s) and `<name>.npz` (`arg0..argN` inputs,
`out0..outM` JAX's results), then `manifest.json` (shapes, dtypes, op counts,
tolerances). Every weight and input comes from a seeded numpy Generator, so
re-running reproduces the files (up to JAX version changes in the text).
Refuses to write text with ops outside func/stablehlo (chlo, custom_call).
"""
from __future__ import annotations

import json
import pathlib
import sys

import numpy as np

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from fixtures import op_counts  # noqa: E402

MAX_BYTES = 1 << 20
F32_TOL = {"rtol": 1e-4, "atol": 1e-5}


def rng(seed: int) -> np.random.Generator:
    return np.random.default_rng(seed)


def dense(g: np.random.Generator, fan_in: int, fan_out: int):
    w = (g.standard_normal((fan_in, fan_out)) * np.sqrt(2.0 / fan_in)).astype(np.float32)
    b = (g.standard_normal((fan_out,)) * 0.1).astype(np.float32)
    return w, b


# ---------------------------------------------------------------- models
# Each builder returns (fn, inputs, tolerance, note). fn closes over numpy weights.


def build_mlp():
    import jax.numpy as jnp

    g = rng(1)
    layers = [dense(g, a, b) for a, b in [(64, 64), (64, 32), (32, 10)]]

    def mlp(x):
        for w, b in layers[:-1]:
            x = jnp.maximum(x @ w + b, 0.0)
        w, b = layers[-1]
        return x @ w + b

    x = g.random((8, 64), dtype=np.float32)
    return mlp, [x], F32_TOL, "64->64->32->10 relu MLP (the digits sample's shape), batch 8, random weights"


def build_transformer_block():
    import jax
    import jax.numpy as jnp

    batch, seq, dim, heads, hidden = 2, 16, 32, 4, 128
    head_dim = dim // heads
    g = rng(2)
    ln1_g = (1 + 0.1 * g.standard_normal(dim)).astype(np.float32)
    ln1_b = (0.1 * g.standard_normal(dim)).astype(np.float32)
    ln2_g = (1 + 0.1 * g.standard_normal(dim)).astype(np.float32)
    ln2_b = (0.1 * g.standard_normal(dim)).astype(np.float32)
    w_qkv, b_qkv = dense(g, dim, 3 * dim)
    w_o, b_o = dense(g, dim, dim)
    w_1, b_1 = dense(g, dim, hidden)
    w_2, b_2 = dense(g, hidden, dim)
    causal = np.tril(np.ones((seq, seq), dtype=bool))

    def layernorm(x, gamma, beta, eps=1e-5):
        mean = jnp.mean(x, axis=-1, keepdims=True)
        centered = x - mean
        var = jnp.mean(centered * centered, axis=-1, keepdims=True)  # jnp.square lowers to chlo.square
        return (x - mean) * jax.lax.rsqrt(var + eps) * gamma + beta

    def attention(x):
        qkv = x @ w_qkv + b_qkv                                    # [B,S,3D]
        qkv = qkv.reshape(batch, seq, 3, heads, head_dim)
        q, k, v = qkv[:, :, 0], qkv[:, :, 1], qkv[:, :, 2]          # [B,S,H,Dh]
        scores = jnp.einsum("bqhd,bkhd->bhqk", q, k) / np.float32(np.sqrt(head_dim))
        scores = jnp.where(causal, scores, np.float32(-1e9))
        probs = jax.nn.softmax(scores, axis=-1)
        out = jnp.einsum("bhqk,bkhd->bqhd", probs, v).reshape(batch, seq, dim)
        return out @ w_o + b_o

    def block(x):
        x = x + attention(layernorm(x, ln1_g, ln1_b))
        h = jax.nn.gelu(layernorm(x, ln2_g, ln2_b) @ w_1 + b_1, approximate=True)
        return x + h @ w_2 + b_2

    x = g.standard_normal((batch, seq, dim), dtype=np.float32)
    return block, [x], F32_TOL, ("pre-LN transformer block: D=32, 4 heads, S=16, B=2, causal softmax "
                                 "attention, MLP 32->128->32 with tanh-approximated gelu")


def build_cnn_dot():
    """3x3 'same' convolutions as im2col (pad + slice + concatenate) and dot_general."""
    import jax.numpy as jnp

    g = rng(3)
    n, h, w, c0, c1, c2 = 2, 8, 8, 1, 8, 16
    k1 = (g.standard_normal((9 * c0, c1)) * np.sqrt(2 / (9 * c0))).astype(np.float32)
    b1 = (0.1 * g.standard_normal(c1)).astype(np.float32)
    k2 = (g.standard_normal((9 * c1, c2)) * np.sqrt(2 / (9 * c1))).astype(np.float32)
    b2 = (0.1 * g.standard_normal(c2)).astype(np.float32)
    wf, bf = dense(g, (h // 2) * (w // 2) * c2, 10)

    def conv3x3(x, kmat, bias):
        nb, hh, ww, _ = x.shape
        xp = jnp.pad(x, ((0, 0), (1, 1), (1, 1), (0, 0)))
        patches = jnp.concatenate(
            [xp[:, dy:dy + hh, dx:dx + ww, :] for dy in range(3) for dx in range(3)], axis=-1)
        y = jnp.einsum("nhwk,kc->nhwc", patches, kmat)
        return jnp.maximum(y + bias, 0.0)

    def maxpool2(x):
        nb, hh, ww, cc = x.shape
        return jnp.max(x.reshape(nb, hh // 2, 2, ww // 2, 2, cc), axis=(2, 4))

    def cnn(x):
        y = conv3x3(x, k1, b1)
        y = maxpool2(conv3x3(y, k2, b2))
        return y.reshape(n, -1) @ wf + bf

    x = g.random((n, h, w, c0), dtype=np.float32)
    return cnn, [x], F32_TOL, ("two 3x3 same convolutions as im2col (pad, slice, concatenate) + "
                               "dot_general, relu, 2x2 max pool as reshape + reduce max, dense to 10")


def build_cnn_conv():
    import jax.numpy as jnp
    from jax import lax

    g = rng(4)
    n, h, w, c0, c1, c2 = 2, 8, 8, 1, 8, 16
    k1 = (g.standard_normal((3, 3, c0, c1)) * np.sqrt(2 / (9 * c0))).astype(np.float32)
    b1 = (0.1 * g.standard_normal(c1)).astype(np.float32)
    k2 = (g.standard_normal((3, 3, c1, c2)) * np.sqrt(2 / (9 * c1))).astype(np.float32)
    b2 = (0.1 * g.standard_normal(c2)).astype(np.float32)
    wf, bf = dense(g, (h // 2) * (w // 2) * c2, 10)
    dn = ("NHWC", "HWIO", "NHWC")

    def conv(x, k, b):
        y = lax.conv_general_dilated(x, k, window_strides=(1, 1), padding="SAME", dimension_numbers=dn)
        return jnp.maximum(y + b, 0.0)

    def maxpool2(x):
        return lax.reduce_window(x, -np.inf, lax.max, (1, 2, 2, 1), (1, 2, 2, 1), "VALID")

    def cnn(x):
        y = maxpool2(conv(conv(x, k1, b1), k2, b2))
        return y.reshape(n, -1) @ wf + bf

    x = g.random((n, h, w, c0), dtype=np.float32)
    return cnn, [x], F32_TOL, ("same CNN as cnn_dot but with stablehlo.convolution (NHWC/HWIO) "
                               "and reduce_window max pooling")


def build_multi_result():
    import jax.numpy as jnp

    def f(x, i):
        a = jnp.tanh(x) * 2.0 + i.astype(jnp.float32)[None, :]           # f32 [4,8]
        b = jnp.clip(i * 3 + 1, -10, 10)                                    # i32 [8]
        c = jnp.sum(x * x)                                                  # f32 []
        return a, b, c

    g = rng(5)
    x = g.standard_normal((4, 8), dtype=np.float32)
    i = g.integers(-5, 6, size=(8,), dtype=np.int32)
    return f, [x, i], F32_TOL, "2 inputs (f32[4,8], i32[8]) -> 3 results f32[4,8], i32[8], f32[] (scalar)"


def build_elementwise_zoo():
    """Unary, binary, compare, select, clamp, convert, bitwise ops over f32, f64, i32 and i1."""
    import jax.numpy as jnp
    from jax import lax

    def zoo(a, b, c, d, i, j):
        # a, b: f32[16]; c, d: f64[16]; i, j: i32[16] (j has no zeros)
        pos = jnp.abs(a) + 0.5
        f32 = [
            jnp.abs(a), -a, jnp.exp(a), jnp.log(pos), jnp.log1p(jnp.abs(a)), jnp.expm1(a),
            jnp.sqrt(pos), lax.rsqrt(pos), lax.cbrt(a), jnp.tanh(a), lax.logistic(a),
            jnp.sin(a), jnp.cos(a), jnp.tan(a * 0.5), jnp.floor(a), jnp.ceil(a),
            lax.round(a, lax.RoundingMethod.TO_NEAREST_EVEN),
            lax.round(a, lax.RoundingMethod.AWAY_FROM_ZERO), jnp.sign(a),
            a + b, a - b, a * b, a / b, jnp.maximum(a, b), jnp.minimum(a, b),
            lax.pow(pos, b), jnp.arctan2(a, b), lax.rem(a, b),
            lax.clamp(np.float32(-0.5), a, np.float32(0.5)),
            lax.select(a > b, a, b * 2.0),
            lax.convert_element_type(i, jnp.float32),
            lax.convert_element_type(c, jnp.float32),
        ]
        f64 = [
            c + d, c * d, c / d, jnp.exp(c), jnp.log(jnp.abs(c) + 1.0), jnp.sqrt(jnp.abs(d)),
            jnp.tanh(c), jnp.maximum(c, d), lax.select(c <= d, c, d),
            lax.convert_element_type(a, jnp.float64),
        ]
        i32 = [
            i + j, i - j, i * j, lax.div(i, j), lax.rem(i, j), -i, jnp.abs(i), jnp.sign(i),
            jnp.maximum(i, j), jnp.minimum(i, j), lax.clamp(np.int32(-3), i, np.int32(3)),
            i & j, i | j, i ^ j, ~i,
            lax.shift_left(i, np.int32(2)), lax.shift_right_arithmetic(i, np.int32(1)),
            lax.shift_right_logical(i, np.int32(1)), lax.population_count(i),
            lax.convert_element_type(a * 10.0, jnp.int32),  # truncation toward zero
            lax.select(i == j, i, j),
        ]
        preds = [
            a < b, a <= b, a == b, a != b, a >= b, a > b, c < d, i < j, i >= j,
            jnp.isfinite(a / (b - b)),  # inf and nan
            (a < b) & (i > 0), (a < b) | (i > 0), (a < b) ^ (i > 0), ~(a < b),
        ]
        return tuple(f32 + f64 + i32 + preds)

    g = rng(6)
    n = 16
    a = g.uniform(-3, 3, n).astype(np.float32)
    a[:4] = [0.5, -0.5, 1.5, -2.5]  # ties for the rounding ops
    b = g.uniform(-3, 3, n).astype(np.float32)
    b[np.abs(b) < 0.1] = 0.7
    b[4] = a[4]  # one equal pair for == / !=
    c = g.uniform(-3, 3, n)
    d = g.uniform(0.5, 3, n) * g.choice([-1.0, 1.0], n)
    i = g.integers(-50, 50, n, dtype=np.int32)
    i[0] = np.iinfo(np.int32).min // 2
    j = g.integers(1, 9, n, dtype=np.int32) * g.choice(np.array([-1, 1], np.int32), n)
    j[5] = i[5]
    return zoo, [a, b, c, d, i, j], F32_TOL, "about 75 elementwise results over f32, f64, i32 and i1"


def build_add4():
    def add(x, y):
        return x + y
    g = rng(7)
    return add, [g.random(4, dtype=np.float32), g.random(4, dtype=np.float32)], F32_TOL, \
        "x + y on tensor<4xf32>: per-call overhead benchmark"


def build_matmul512():
    import jax.numpy as jnp

    def matmul(x, y):
        return jnp.matmul(x, y, precision="highest")
    g = rng(8)
    # small integers, so the f32 result is exact and independent of summation order
    x = g.integers(-2, 3, (512, 512)).astype(np.float32)
    y = g.integers(-2, 3, (512, 512)).astype(np.float32)
    return matmul, [x, y], {"rtol": 0.0, "atol": 0.0}, \
        "512x512 @ 512x512 f32 dot_general of two arguments (inputs are small integers: exact)"


def build_rnn_scan():
    """Elman RNN over 12 steps with lax.scan (a while loop carrying the state)."""
    import jax
    import jax.numpy as jnp

    g = rng(11)
    wx, b = dense(g, 8, 16)
    wh = (g.standard_normal((16, 16)) * 0.3).astype(np.float32)

    def rnn(xs, h0):
        def step(h, x):
            h = jnp.tanh(x @ wx + h @ wh + b)
            return h, h
        h, hs = jax.lax.scan(step, h0, xs)
        return h, hs

    xs = g.standard_normal((12, 2, 8)).astype(np.float32)
    h0 = np.zeros((2, 16), np.float32)
    return rnn, [xs, h0], F32_TOL, "Elman RNN, 12 steps of lax.scan, batch 2, hidden 16"


def build_while_data_dependent():
    """lax.while_loop whose condition is computed on the device from tensor data."""
    import jax
    import jax.numpy as jnp

    def grow(x):
        def cond(s):
            return jnp.sum(s[0]) < 100.0
        def body(s):
            return s[0] * 1.5 + 1.0, s[1] + 1
        return jax.lax.while_loop(cond, body, (x, jnp.int32(0)))

    x = rng(12).random((4, 3), dtype=np.float32)
    return grow, [x], F32_TOL, "data-dependent while_loop: grow until the sum passes 100, count steps"


def build_cond_switch():
    """lax.cond on a device-computed predicate and lax.switch on an argument index."""
    import jax
    import jax.numpy as jnp

    def branches(x, k):
        y = jax.lax.cond(jnp.sum(x) > 0.0, lambda v: jnp.sin(v) * 2.0, lambda v: jnp.cos(v) - 1.0, x)
        z = jax.lax.switch(k, [lambda v: v + 1.0, lambda v: v * v, lambda v: jnp.exp(-v)], y)
        return y, z

    x = rng(13).standard_normal((3, 5)).astype(np.float32)
    return branches, [x, np.array(2, np.int32)], F32_TOL, "lax.cond (device predicate) and lax.switch (index argument)"


def build_embed_topk():
    """Embedding lookup (gather) scored against a query, then lax.top_k."""
    import jax
    import jax.numpy as jnp

    g = rng(14)
    table = g.standard_normal((50, 16)).astype(np.float32)

    def lookup(ids, q):
        emb = jnp.take(table, ids, axis=0)
        scores = emb @ q
        return jax.lax.top_k(scores, 3)

    ids = g.integers(0, 50, (7,)).astype(np.int32)
    q = g.standard_normal((16,)).astype(np.float32)
    return lookup, [ids, q], F32_TOL, "embedding gather, dot with a query, top-3 (values and indices)"


def build_mixed_precision():
    """bf16 and f16 matmuls accumulating in f32, layernorm in f32, f16 output."""
    import jax.numpy as jnp

    g = rng(15)
    w1 = g.standard_normal((32, 24)).astype(np.float32) * 0.2
    w2 = g.standard_normal((24, 8)).astype(np.float32) * 0.2

    def mixed(x):
        h = jnp.dot(x.astype(jnp.bfloat16), w1.astype(jnp.bfloat16), preferred_element_type=jnp.float32)
        c = h - h.mean(-1, keepdims=True)
        h = c * jax_rsqrt((c * c).mean(-1, keepdims=True) + 1e-5)
        y = jnp.dot(h.astype(jnp.float16), w2.astype(jnp.float16), preferred_element_type=jnp.float32)
        return y.astype(jnp.float16)

    x = g.standard_normal((4, 32)).astype(np.float32)
    return mixed, [x], {"rtol": 2e-2, "atol": 2e-2}, "bf16/f16 matmuls with f32 accumulation, f16 result"


def jax_rsqrt(v):
    import jax
    return jax.lax.rsqrt(v)


BUILDERS = {
    "mlp": build_mlp,
    "transformer_block": build_transformer_block,
    "cnn_dot": build_cnn_dot,
    "cnn_conv": build_cnn_conv,
    "multi_result": build_multi_result,
    "elementwise_zoo": build_elementwise_zoo,
    "add4": build_add4,
    "matmul512": build_matmul512,
    "rnn_scan": build_rnn_scan,
    "while_data_dependent": build_while_data_dependent,
    "cond_switch": build_cond_switch,
    "embed_topk": build_embed_topk,
    "mixed_precision": build_mixed_precision,
}
# chlo ops a model may carry (tensorvm lowers them; IREE's importer does too).
ALLOWED_CHLO = {"embed_topk": {"chlo.top_k"}}
NEEDS_X64 = {"elementwise_zoo"}


def export(name: str) -> dict:
    import jax

    jax.config.update("jax_enable_x64", name in NEEDS_X64)
    fn, inputs, tol, note = BUILDERS[name]()
    specs = [jax.ShapeDtypeStruct(x.shape, x.dtype) for x in inputs]
    text = jax.jit(fn).lower(*specs).as_text(dialect="stablehlo")
    ops = op_counts(text)
    bad = sorted(op for op in ops if op.split(".")[0] not in ("func", "stablehlo")
                 and op not in ALLOWED_CHLO.get(name, ()))
    if bad or "custom_call" in text:
        raise SystemExit(f"{name}: ops outside func/stablehlo: {bad or 'custom_call'}")
    if len(text) > MAX_BYTES:
        raise SystemExit(f"{name}: {len(text)} bytes of text, limit {MAX_BYTES}")
    outs = jax.jit(fn)(*inputs)
    outs = list(outs) if isinstance(outs, (tuple, list)) else [outs]
    outs = [np.asarray(o) for o in outs]
    for x, s in zip(inputs, specs):
        assert x.dtype == s.dtype
    (HERE / f"{name}.mlir").write_text(text)
    arrays = {f"arg{k}": x for k, x in enumerate(inputs)}
    arrays.update({f"out{k}": o for k, o in enumerate(outs)})
    np.savez_compressed(HERE / f"{name}.npz", **arrays)
    sig = lambda xs: [f"{x.dtype}{list(x.shape)}" for x in xs]  # noqa: E731
    print(f"{name}: {len(text)} bytes, {len(inputs)} args, {len(outs)} results; {ops}")
    return {"note": note, "inputs": sig(inputs), "outputs": sig(outs), "ops": ops,
            "tolerance": tol, "mlir_bytes": len(text), "x64": name in NEEDS_X64}


# ------------------------------------------------ batch-polymorphic models
# Exported once with a symbolic batch dim (jax.export): the text has `?` dims
# and a shape_assertion; one compiled module must serve every batch size.


def build_mlp_batch_poly():
    import jax.numpy as jnp

    g = rng(7)
    layers = [dense(g, a, b) for a, b in [(64, 64), (64, 32), (32, 10)]]

    def mlp(x):
        for w, b in layers[:-1]:
            x = jnp.maximum(x @ w + b, 0.0)
        w, b = layers[-1]
        return jax_softmax(x @ w + b)

    batches = {b: g.random((b, 64), dtype=np.float32) for b in (1, 5, 33)}
    return mlp, "b, 64", batches, F32_TOL, "64->64->32->10 relu MLP + softmax, batch symbolic"


def jax_softmax(z):
    import jax.numpy as jnp
    z = z - jnp.max(z, axis=-1, keepdims=True)
    e = jnp.exp(z)
    return e / jnp.sum(e, axis=-1, keepdims=True)


POLY_BUILDERS = {"mlp_batch_poly": build_mlp_batch_poly}


def export_poly(name: str) -> dict:
    """`<name>.mlir` from jax.export with a symbolic shape; the npz holds
    `arg_b<B>_<k>` inputs and `out_b<B>_<k>` JAX results for each batch B."""
    import jax
    from jax import export as jexport

    jax.config.update("jax_enable_x64", False)
    fn, spec, batches, tol, note = POLY_BUILDERS[name]()
    shape = jexport.symbolic_shape(spec)
    exp = jexport.export(jax.jit(fn))(jax.ShapeDtypeStruct(shape, np.float32))
    text = exp.mlir_module()
    ops = op_counts(text)
    bad = sorted(op for op in ops if op.split(".")[0] not in ("func", "stablehlo"))
    if bad:
        raise SystemExit(f"{name}: ops outside func/stablehlo: {bad}")
    arrays = {}
    for b, x in batches.items():
        outs = jax.jit(fn)(x)
        outs = list(outs) if isinstance(outs, (tuple, list)) else [outs]
        arrays[f"arg_b{b}_0"] = x
        arrays.update({f"out_b{b}_{k}": np.asarray(o) for k, o in enumerate(outs)})
    (HERE / f"{name}.mlir").write_text(text)
    np.savez_compressed(HERE / f"{name}.npz", **arrays)
    print(f"{name}: {len(text)} bytes, batches {sorted(batches)}; {ops}")
    return {"note": note, "spec": spec, "batches": sorted(batches), "ops": ops,
            "tolerance": tol, "mlir_bytes": len(text)}


def main(argv: list[str]) -> int:
    import jax

    jax.config.update("jax_platforms", "cpu")
    names = argv or list(BUILDERS) + list(POLY_BUILDERS)
    manifest_path = HERE / "manifest.json"
    manifest = json.loads(manifest_path.read_text()) if manifest_path.exists() else {"models": {}}
    for name in names:
        if name in POLY_BUILDERS:
            manifest.setdefault("poly_models", {})[name] = export_poly(name)
            continue
        manifest["models"][name] = export(name)
    manifest["models"] = {k: manifest["models"][k] for k in BUILDERS if k in manifest["models"]}
    manifest["jax_version"] = jax.__version__
    manifest_path.write_text(json.dumps(manifest, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
