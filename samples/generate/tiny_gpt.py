"""The model's shape and its random weights, in numpy only.

export.py (jax) and run.py (tensorvm, IREE, XLA) both call ``init_weights``,
so the committed StableHLO takes the weights as arguments and stays small:
nothing is downloaded, the same seed gives the same arrays everywhere.

A GPT-2-style decoder: learned token and position embeddings, pre-LayerNorm
blocks (causal multi-head attention, GELU MLP), a final LayerNorm and an
output projection. The output projection is a separate matrix, not the
token embedding transposed as in GPT-2: with random weights a tied head
mostly repeats the input token, which would make the token check weak.
"""
from __future__ import annotations

import numpy as np

SEED = 0
VOCAB = 512        # V
D_MODEL = 128      # D
HEADS = 4          # H
HEAD_DIM = D_MODEL // HEADS
LAYERS = 2         # L
MAX_LEN = 64       # T: the KV caches hold this many positions
PROMPT_LEN = 8     # P: prefill takes exactly this many tokens
PROMPT = [17, 301, 5, 88, 412, 9, 250, 63]

# (name, shape) of every weight, in the order the exported functions take them.
LAYER_WEIGHTS = [
    ("ln1_g", (D_MODEL,)), ("ln1_b", (D_MODEL,)),
    ("w_qkv", (D_MODEL, 3 * D_MODEL)), ("b_qkv", (3 * D_MODEL,)),
    ("w_o", (D_MODEL, D_MODEL)), ("b_o", (D_MODEL,)),
    ("ln2_g", (D_MODEL,)), ("ln2_b", (D_MODEL,)),
    ("w_fc", (D_MODEL, 4 * D_MODEL)), ("b_fc", (4 * D_MODEL,)),
    ("w_proj", (4 * D_MODEL, D_MODEL)), ("b_proj", (D_MODEL,)),
]
WEIGHTS = ([("wte", (VOCAB, D_MODEL)), ("wpe", (MAX_LEN, D_MODEL))]
           + [(f"h{layer}.{name}", shape) for layer in range(LAYERS) for name, shape in LAYER_WEIGHTS]
           + [("lnf_g", (D_MODEL,)), ("lnf_b", (D_MODEL,)), ("lm_head", (D_MODEL, VOCAB))])


def init_weights(seed: int = SEED) -> list[np.ndarray]:
    """float32 arrays in ``WEIGHTS`` order. Matrices are N(0, 1/fan_in) so
    activations stay O(1) through the blocks; the output projection is
    scaled up so the logits spread over several units and argmax has a
    clear winner (a tie would let float rounding pick different tokens)."""
    rng = np.random.default_rng(seed)
    out = []
    for name, shape in WEIGHTS:
        short = name.split(".")[-1]
        if short.endswith("_g"):                       # LayerNorm gains around 1
            a = 1.0 + 0.1 * rng.standard_normal(shape)
        elif short.startswith(("b_", "ln")):           # biases, LayerNorm shifts
            a = 0.02 * rng.standard_normal(shape)
        elif short in ("wte", "wpe"):
            a = rng.standard_normal(shape)
        elif short == "lm_head":
            a = 4.0 * rng.standard_normal(shape) / np.sqrt(shape[0])
        else:
            a = rng.standard_normal(shape) / np.sqrt(shape[0])
        out.append(a.astype(np.float32))
    return out
