"""Export the decoder's prefill and decode-step functions as StableHLO and
record the tokens JAX generates with them.

Needs JAX (``pip install tensorvm[jax]``). Running it rewrites, next to this file:

  prefill.mlir      prefill(weights..., prompt[P]) -> (k cache x L, v cache x L, first token)
  decode_step.mlir  step(weights..., k cache x L, v cache x L, token, pos)
                        -> (k cache x L, v cache x L, next token); the caches are donated
  reference.json    the prompt, the tokens JAX generated, the model's shape

Weights are arguments (regenerated from the seed by tiny_gpt.py), so the text
holds only the program. Each cache is one [T, H, hd] float32 array per layer,
as HuggingFace's cache keeps them: the step writes position ``pos`` of each
with ``dynamic_update_slice``, and since the cache arguments are donated
(``jax.jit(step, donate_argnums=(1, 2))`` prints ``tf.aliasing_output`` on
them) a compiler that honours donation updates each cache in its own buffer.
Everything is seeded; re-running gives the same files (same jax version).
"""
from __future__ import annotations

import argparse
import json
import pathlib
import re
import sys

import numpy as np

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import tiny_gpt as W  # noqa: E402

L, T, H, HD, D, P = W.LAYERS, W.MAX_LEN, W.HEADS, W.HEAD_DIM, W.D_MODEL, W.PROMPT_LEN
NEW_TOKENS = 48          # generated after the prompt: 1 by prefill, 47 by decode steps


def unpack(ws):
    """The flat weight list as {name: array}."""
    return dict(zip((name for name, _ in W.WEIGHTS), ws))


def layer_norm(x, g, b):
    import jax
    m = x.mean(-1, keepdims=True)
    v = ((x - m) ** 2).mean(-1, keepdims=True)
    return (x - m) * jax.lax.rsqrt(v + 1e-5) * g + b


def mlp(w, l, x):
    import jax
    h = layer_norm(x, w[f"h{l}.ln2_g"], w[f"h{l}.ln2_b"])
    h = jax.nn.gelu(h @ w[f"h{l}.w_fc"] + w[f"h{l}.b_fc"])
    return x + h @ w[f"h{l}.w_proj"] + w[f"h{l}.b_proj"]


def qkv(w, l, x):
    """q, k, v of the rows of x ([..., D]) as [..., H, hd] each."""
    h = layer_norm(x, w[f"h{l}.ln1_g"], w[f"h{l}.ln1_b"])
    y = h @ w[f"h{l}.w_qkv"] + w[f"h{l}.b_qkv"]
    return [part.reshape(*x.shape[:-1], H, HD) for part in (y[..., :D], y[..., D:2 * D], y[..., 2 * D:])]


def next_token(w, x):
    import jax.numpy as jnp
    logits = layer_norm(x, w["lnf_g"], w["lnf_b"]) @ w["lm_head"]
    return jnp.argmax(logits, axis=-1).astype(jnp.int32), logits


def prefill(ws, prompt):
    """The prompt in one pass (causal attention over P rows): the caches with
    positions 0..P-1 filled (zeros after), and the token after the prompt."""
    import jax
    import jax.numpy as jnp
    w = unpack(ws)
    x = w["wte"][prompt] + w["wpe"][:P]
    causal = jnp.tril(jnp.ones((P, P), bool))
    ks, vs = [], []
    for l in range(L):
        q, k, v = qkv(w, l, x)                                       # [P, H, hd]
        s = jnp.einsum("phd,thd->hpt", q, k) / np.sqrt(HD)
        s = jnp.where(causal[None], s, -1e9)
        o = jnp.einsum("hpt,thd->phd", jax.nn.softmax(s, -1), v).reshape(P, D)
        x = x + o @ w[f"h{l}.w_o"] + w[f"h{l}.b_o"]
        x = mlp(w, l, x)
        pad = ((0, T - P), (0, 0), (0, 0))
        ks.append(jnp.pad(k, pad))
        vs.append(jnp.pad(v, pad))
    tok, logits = next_token(w, x[-1])
    return ks, vs, tok, logits


def step(ws, ks, vs, tok, pos):
    """One token at position ``pos``: write its k and v into each layer's
    cache at ``pos``, attend over positions 0..pos, return the next token."""
    import jax
    import jax.numpy as jnp
    w = unpack(ws)
    x = w["wte"][tok] + w["wpe"][pos]
    ks, vs = list(ks), list(vs)
    visible = jnp.arange(T) <= pos
    for l in range(L):
        q, k, v = qkv(w, l, x)                                       # [H, hd]
        ks[l] = jax.lax.dynamic_update_slice(ks[l], k[None], (pos, 0, 0))
        vs[l] = jax.lax.dynamic_update_slice(vs[l], v[None], (pos, 0, 0))
        s = jnp.einsum("hd,thd->ht", q, ks[l]) / np.sqrt(HD)
        s = jnp.where(visible[None], s, -1e9)
        o = jnp.einsum("ht,thd->hd", jax.nn.softmax(s, -1), vs[l]).reshape(D)
        x = x + o @ w[f"h{l}.w_o"] + w[f"h{l}.b_o"]
        x = mlp(w, l, x)
    tok, logits = next_token(w, x)
    return ks, vs, tok, logits


def jitted():
    """The two functions as exported: token only (the logits stay inside)."""
    import jax

    def decoder_prefill(ws, prompt):
        return prefill(ws, prompt)[:3]

    def decoder_step(ws, ks, vs, tok, pos):
        return step(ws, ks, vs, tok, pos)[:3]

    return jax.jit(decoder_prefill), jax.jit(decoder_step, donate_argnums=(1, 2))


def generate_reference(ws, n):
    """JAX's own generation with the same functions, plus the smallest gap
    between the best and second-best logit over the generated tokens (how
    far float rounding would have to move a logit to change a token)."""
    import jax
    import jax.numpy as jnp
    prefill_logits = jax.jit(prefill)
    step_logits = jax.jit(step, donate_argnums=(1, 2))
    ws = [jnp.asarray(a) for a in ws]
    ks, vs, tok, logits = prefill_logits(ws, jnp.asarray(W.PROMPT, jnp.int32))
    tokens, margins = [int(tok)], [top2_gap(logits)]
    for i in range(n - 1):
        ks, vs, tok, logits = step_logits(ws, ks, vs, tok, jnp.int32(P + i))
        tokens.append(int(tok))
        margins.append(top2_gap(logits))
    return tokens, min(margins)


def top2_gap(logits) -> float:
    top = np.sort(np.asarray(logits, np.float64))[-2:]
    return float(top[1] - top[0])


ALLOWED_DIALECTS = {"func", "stablehlo"}


def check_ops(text: str) -> None:
    ops = set(re.findall(r'(?:=\s*|^\s*)"?([a-z_]+\.[a-z_.]+)"?[\s(<{]', text, re.M))
    bad = sorted(op for op in ops if op.split(".")[0] not in ALLOWED_DIALECTS)
    if bad or "custom_call" in text:
        raise SystemExit(f"exported text uses ops outside func/stablehlo: {bad}")


def export_texts(ws):
    import jax
    import jax.numpy as jnp
    prefill_fn, step_fn = jitted()
    spec = [jax.ShapeDtypeStruct(a.shape, a.dtype) for a in ws]
    cache = [jax.ShapeDtypeStruct((T, H, HD), jnp.float32)] * L
    scalar = jax.ShapeDtypeStruct((), jnp.int32)
    texts = {
        "prefill.mlir": prefill_fn.lower(spec, jax.ShapeDtypeStruct((P,), jnp.int32)).as_text(dialect="stablehlo"),
        "decode_step.mlir": step_fn.lower(spec, cache, cache, scalar, scalar).as_text(dialect="stablehlo"),
    }
    for text in texts.values():
        check_ops(text)
    donated = texts["decode_step.mlir"].count("tf.aliasing_output")
    if donated != 2 * L:
        raise SystemExit(f"decode_step.mlir marks {donated} arguments donated, expected {2 * L}")
    return texts


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tokens", type=int, default=NEW_TOKENS, help="tokens to generate for the reference")
    args = ap.parse_args(argv)
    import jax
    jax.config.update("jax_platforms", "cpu")

    ws = W.init_weights(W.SEED)
    for name, text in export_texts(ws).items():
        (HERE / name).write_text(text)
        print(f"wrote {name} ({len(text)} bytes)")
    tokens, margin = generate_reference(ws, args.tokens)
    print(f"JAX tokens: {tokens}")
    print(f"smallest top-1/top-2 logit gap: {margin:.4f}")
    reference = {
        "prompt": W.PROMPT,
        "tokens": tokens,
        "min_logit_gap": round(margin, 6),
        "model": {"vocab": W.VOCAB, "d_model": D, "heads": H, "layers": L, "max_len": T,
                  "prompt_len": P, "seed": W.SEED},
        "jax_version": jax.__version__,
        "files": {"prefill": "prefill.mlir", "step": "decode_step.mlir"},
    }
    (HERE / "reference.json").write_text(json.dumps(reference, indent=2) + "\n")
    print("wrote reference.json")
    return 0


if __name__ == "__main__":
    sys.exit(main())
