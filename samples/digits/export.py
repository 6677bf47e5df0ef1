"""Train a small MLP on scikit-learn's 8x8 digits with JAX and export it as StableHLO.

Needs JAX and scikit-learn (``pip install tensorvm[jax]``). Running it rewrites,
next to this file:

  digits_mlp_b1.mlir      inference for one image  (tensor<1x64xf32> -> tensor<1x10xf32>)
  digits_mlp_test.mlir    inference for the whole test split in one batch
  test_set.npz            x: float32 [N, 64] test images (scaled to 0..1), y: int32 [N] labels
  reference.json          JAX test accuracy and the export settings

The trained weights are closed over as numpy arrays, so they appear in the
StableHLO text as `stablehlo.constant` ops: the .mlir files are self-contained.
Everything is seeded; re-running gives the same files.
"""
from __future__ import annotations

import json
import pathlib
import re
import sys

import numpy as np

HERE = pathlib.Path(__file__).resolve().parent
SEED = 0
LAYERS = (64, 64, 32, 10)
STEPS = 600
LEARNING_RATE = 1e-2


def load_split():
    from sklearn.datasets import load_digits
    from sklearn.model_selection import train_test_split

    digits = load_digits()
    x = (digits.data / 16.0).astype(np.float32)  # pixels are 0..16
    y = digits.target.astype(np.int32)
    return train_test_split(x, y, test_size=0.25, random_state=SEED, stratify=y)


def init_params(key):
    import jax

    params = []
    for fan_in, fan_out in zip(LAYERS[:-1], LAYERS[1:]):
        key, sub = jax.random.split(key)
        w = jax.random.normal(sub, (fan_in, fan_out), dtype=np.float32) * np.sqrt(2.0 / fan_in)
        params.append((w, np.zeros((fan_out,), np.float32)))
    return params


def mlp(params, x):
    import jax.numpy as jnp

    for w, b in params[:-1]:
        x = jnp.maximum(x @ w + b, 0.0)
    w, b = params[-1]
    return x @ w + b


def train(x_train, y_train):
    """Full-batch Adam; a few hundred steps take about a second on a CPU."""
    import jax
    import jax.numpy as jnp

    params = init_params(jax.random.PRNGKey(SEED))
    onehot = jax.nn.one_hot(y_train, LAYERS[-1])

    def loss(p):
        logits = mlp(p, x_train)
        return -jnp.mean(jnp.sum(onehot * jax.nn.log_softmax(logits), axis=-1))

    b1, b2, eps = 0.9, 0.999, 1e-8
    m = jax.tree_util.tree_map(jnp.zeros_like, params)
    v = jax.tree_util.tree_map(jnp.zeros_like, params)

    @jax.jit
    def step(p, m, v, t):
        g = jax.grad(loss)(p)
        m = jax.tree_util.tree_map(lambda a, b: b1 * a + (1 - b1) * b, m, g)
        v = jax.tree_util.tree_map(lambda a, b: b2 * a + (1 - b2) * b * b, v, g)
        mhat = jax.tree_util.tree_map(lambda a: a / (1 - b1**t), m)
        vhat = jax.tree_util.tree_map(lambda a: a / (1 - b2**t), v)
        p = jax.tree_util.tree_map(
            lambda a, mh, vh: a - LEARNING_RATE * mh / (jnp.sqrt(vh) + eps), p, mhat, vhat
        )
        return p, m, v

    for t in range(1, STEPS + 1):
        params, m, v = step(params, m, v, float(t))
    # Plain numpy from here on so the exported closure captures constants.
    return [(np.asarray(w, np.float32), np.asarray(b, np.float32)) for w, b in params]


def export_stablehlo(params, batch: int) -> str:
    import jax

    def infer(x):
        return mlp(params, x)

    spec = jax.ShapeDtypeStruct((batch, LAYERS[0]), np.float32)
    text = jax.jit(infer).lower(spec).as_text(dialect="stablehlo")
    check_ops(text)
    return text


ALLOWED_DIALECTS = {"func", "stablehlo"}


def op_names(text: str) -> dict[str, int]:
    """Counts of `dialect.op` names used as operations in MLIR text."""
    counts: dict[str, int] = {}
    for m in re.finditer(r'(?:=\s*|^\s*)"?([a-z_]+\.[a-z_.]+)"?[\s(<{]', text, re.M):
        counts[m.group(1)] = counts.get(m.group(1), 0) + 1
    return dict(sorted(counts.items()))


def check_ops(text: str) -> None:
    bad = [op for op in op_names(text) if op.split(".")[0] not in ALLOWED_DIALECTS]
    if bad or "custom_call" in text:
        raise SystemExit(f"exported text uses ops outside func/stablehlo: {bad}")


def main() -> int:
    import jax

    jax.config.update("jax_platforms", "cpu")
    x_train, x_test, y_train, y_test = load_split()
    params = train(x_train, y_train)

    logits = np.asarray(jax.jit(lambda x: mlp(params, x))(x_test))
    accuracy = float(np.mean(np.argmax(logits, axis=-1) == y_test))
    train_acc = float(np.mean(np.argmax(np.asarray(mlp(params, x_train)), -1) == y_train))
    print(f"train accuracy {train_acc:.4f}  test accuracy {accuracy:.4f}  (N_test={len(y_test)})")

    n = len(y_test)
    files = {"digits_mlp_b1.mlir": export_stablehlo(params, 1),
             "digits_mlp_test.mlir": export_stablehlo(params, n)}
    for name, text in files.items():
        (HERE / name).write_text(text)
        print(f"wrote {name} ({len(text)} bytes) ops: {op_names(text)}")
    np.savez_compressed(HERE / "test_set.npz", x=x_test.astype(np.float32), y=y_test.astype(np.int32),
                        jax_logits=logits.astype(np.float32))
    reference = {
        "jax_test_accuracy": accuracy,
        "jax_train_accuracy": train_acc,
        "test_size": n,
        "layers": list(LAYERS),
        "seed": SEED,
        "steps": STEPS,
        "jax_version": jax.__version__,
        "files": {"batch1": "digits_mlp_b1.mlir", "test_batch": "digits_mlp_test.mlir"},
    }
    (HERE / "reference.json").write_text(json.dumps(reference, indent=2) + "\n")
    print("wrote test_set.npz, reference.json")
    return 0


if __name__ == "__main__":
    sys.exit(main())
