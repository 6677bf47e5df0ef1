"""Export the real-model benchmark set from Keras, keras_hub and Flax (run once; commit the outputs).

    KERAS_BACKEND=jax python benchmarks/models/export.py [names...]

Needs the `models` extra (keras, keras-hub, flax; jax on CPU). Every model is
built by its library from a small config with RANDOM weights (weights=None;
nothing is downloaded). Each float weight tensor i is then replaced by

    mean_i + std_i * np.random.default_rng([seed, i]).standard_normal(shape)   (as float32)

where mean_i / std_i are those of the library's own initializer output (a
constant-initialised tensor, e.g. a BatchNorm variance, has std 0 and stays
that constant). The weights are set into the library model, the library
computes the reference outputs, and `jax.export` exports the forward pass with
the weights as ARGUMENTS (weights first, then inputs), so the .mlir text stays
small and load.py can regenerate the weights with numpy alone.

Writes `<name>.mlir` (location info stripped), `<name>.npz` (`<run>_in<k>`
inputs and `<run>_out<k>` library outputs for each run, e.g. two batch sizes
of the symbolic-batch model) and `manifest.json` (weights' shapes/dtypes/
mean/std/seed, inputs, outputs, library versions, op counts). Refuses text
with ops outside func/stablehlo other than jax's shape_assertion.
"""
from __future__ import annotations

import json
import os
import pathlib
import sys

os.environ.setdefault("KERAS_BACKEND", "jax")

import numpy as np  # noqa: E402

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from load import regenerate_weight  # noqa: E402

WEIGHT_RULE = ("weight i = float32(mean_i + std_i * numpy.random.default_rng([seed, i])"
               ".standard_normal(shape_i)); mean/std from the library's initializer output")


# ----------------------------------------------------------------- weights


def weight_specs(arrays, names) -> list[dict]:
    """mean/std of each initializer output (std 0 when the tensor is constant)."""
    out = []
    for a, n in zip(arrays, names):
        a = np.asarray(a, np.float64)
        const = a.size == 0 or bool(np.all(a == a.flat[0]))
        out.append({"name": n, "shape": list(a.shape), "dtype": "float32",
                    "mean": float(a.flat[0]) if const and a.size else float(a.mean()),
                    "std": 0.0 if const else float(a.std())})
    return out


def regenerate(specs, seed) -> list[np.ndarray]:
    return [regenerate_weight(s, seed, i) for i, s in enumerate(specs)]


# ----------------------------------------------------------------- keras


class KerasModel:
    """A Keras model's float variables as a flat weight list, and a pure
    forward function of (weights, inputs) through `stateless_call`."""

    def __init__(self, model, seed):
        import keras
        self.model = model
        self.tv = list(model.trainable_variables)
        self.ntv = list(model.non_trainable_variables)
        self.float_idx = [k for k, v in enumerate(self.tv + self.ntv)
                          if keras.backend.standardize_dtype(v.dtype) == "float32"]
        every = self.tv + self.ntv
        self.specs = weight_specs([np.asarray(every[k].numpy()) for k in self.float_idx],
                                  [every[k].path for k in self.float_idx])
        self.seed = seed
        self.weights = regenerate(self.specs, seed)
        for k, w in zip(self.float_idx, self.weights):   # set into the library model
            every[k].assign(w)

    def split(self, weights):
        every = [v.value for v in self.tv + self.ntv]
        for k, w in zip(self.float_idx, weights):
            every[k] = w
        return every[:len(self.tv)], every[len(self.tv):]

    def forward(self, weights, *inputs):
        tv, ntv = self.split(weights)
        out, _ = self.model.stateless_call(tv, ntv, *inputs, training=False)
        return out


def keras_export(name, km: KerasModel, inputs: list, note: str, call=None):
    """Reference = the Keras model called on the inputs; export = stateless forward."""
    import jax
    call = call or (lambda *xs: km.model(*xs, training=False))
    ref = jax.tree_util.tree_leaves(call(*inputs))
    fn = lambda *flat: km.forward(list(flat[:len(km.weights)]), *_unflat(inputs, flat[len(km.weights):]))  # noqa: E731
    return export(name, fn, km.specs, km.seed, {"default": (_leaves(inputs), ref)}, note, library="keras")


def _leaves(inputs):
    import jax
    return [np.asarray(x) for x in jax.tree_util.tree_leaves(inputs)]


def _unflat(template, flat):
    import jax
    treedef = jax.tree_util.tree_structure(template)
    return jax.tree_util.tree_unflatten(treedef, list(flat))


def build_mobilenet_v2():
    import keras
    m = keras.applications.MobileNetV2(input_shape=(96, 96, 3), alpha=0.35, weights=None,
                                       classes=10, classifier_activation=None)
    x = np.random.default_rng(1).random((1, 96, 96, 3), dtype=np.float32)
    return keras_export("mobilenet_v2", KerasModel(m, 101), [x],
                        "keras.applications.MobileNetV2(alpha=0.35, 96x96x3, 10 classes, logits), batch 1")


def build_resnet50():
    import keras
    m = keras.applications.ResNet50(input_shape=(64, 64, 3), weights=None, classes=10,
                                    classifier_activation=None)
    x = np.random.default_rng(2).random((1, 64, 64, 3), dtype=np.float32)
    return keras_export("resnet50", KerasModel(m, 102), [x],
                        "keras.applications.ResNet50(64x64x3, 10 classes, logits), batch 1")


def _rnn(layer_cls, name, seed):
    import keras
    m = keras.Sequential([keras.Input((24, 16)), layer_cls(64, return_sequences=True),
                          layer_cls(64), keras.layers.Dense(10)])
    x = np.random.default_rng(seed).standard_normal((4, 24, 16)).astype(np.float32)
    return keras_export(name, KerasModel(m, 100 + seed), [x],
                        f"keras {layer_cls.__name__}(64, seq) -> {layer_cls.__name__}(64) -> Dense(10); "
                        "batch 4, 24 steps, 16 features")


def build_lstm():
    import keras
    return _rnn(keras.layers.LSTM, "lstm", 3)


def build_gru():
    import keras
    return _rnn(keras.layers.GRU, "gru", 4)


TINY = dict(vocabulary_size=1000, num_layers=2, num_heads=2, hidden_dim=128,
            intermediate_dim=512, max_sequence_length=32)


def build_bert_tiny():
    import keras_hub
    m = keras_hub.models.BertBackbone(**TINY, num_segments=2, dropout=0.0)
    g = np.random.default_rng(5)
    x = {"token_ids": g.integers(0, 1000, (2, 32), dtype=np.int32),
         "segment_ids": (np.arange(32)[None] >= 16).repeat(2, 0).astype(np.int32),
         "padding_mask": (np.arange(32)[None] < np.array([[32], [24]])).astype(np.int32)}
    return keras_export("bert_tiny", KerasModel(m, 105), [x],
                        "keras_hub BertBackbone(2 layers, hidden 128, 2 heads, vocab 1000), batch 2, "
                        "seq 32 (one row padded to 24); outputs pooled_output, sequence_output")


def _gpt2():
    import keras_hub
    m = keras_hub.models.GPT2Backbone(**TINY, dropout=0.0)
    return KerasModel(m, 106)


def _embedding_index(km: KerasModel) -> int:
    names = [s["name"] for s in km.specs]
    hits = [i for i, n in enumerate(names) if "token_embedding" in n and n.endswith("embeddings")]
    if len(hits) != 1:
        raise SystemExit(f"gpt2: cannot find the token embedding among {names}")
    return hits[0]


def build_gpt2_tiny():
    """GPT-2 causal LM forward: backbone + tied token-embedding head -> logits."""
    import jax.numpy as jnp

    km = _gpt2()
    e = _embedding_index(km)
    g = np.random.default_rng(6)
    x = {"token_ids": g.integers(0, 1000, (2, 32), dtype=np.int32),
         "padding_mask": np.ones((2, 32), np.int32)}

    def reference(inp):  # keras_hub's GPT2CausalLM head: token_embedding(h, reverse=True)
        h = km.model(inp, training=False)
        return km.model.token_embedding(h, reverse=True)

    def fn(*flat):
        w = list(flat[:len(km.weights)])
        h = km.forward(w, _unflat(x, flat[len(km.weights):]))
        return jnp.einsum("bsh,vh->bsv", h, w[e])
    return export("gpt2_tiny", fn, km.specs, km.seed,
                  {"default": (_leaves(x), [np.asarray(reference(x))])},
                  "keras_hub GPT2Backbone(2 layers, hidden 128, 2 heads, vocab 1000) + tied LM head; "
                  "batch 2, seq 32 -> logits", library="keras_hub")


GREEDY_PROMPT, GREEDY_NEW = 8, 6


def build_gpt2_greedy():
    """Greedy decoding: a lax.fori_loop of GPT-2 forwards over a fixed 32-token
    buffer; step t reads the logits at position PROMPT+t-1 and writes the argmax."""
    import jax
    import jax.numpy as jnp

    km = _gpt2()
    e = _embedding_index(km)
    g = np.random.default_rng(7)
    tokens = np.zeros((1, 32), np.int32)
    tokens[0, :GREEDY_PROMPT] = g.integers(0, 1000, GREEDY_PROMPT)

    def reference(toks):  # the same loop in eager Keras
        toks = toks.copy()
        for t in range(GREEDY_NEW):
            pos = GREEDY_PROMPT + t
            mask = (np.arange(32)[None] < pos).astype(np.int32)
            h = km.model({"token_ids": toks, "padding_mask": mask}, training=False)
            logits = np.asarray(km.model.token_embedding(h, reverse=True))
            toks[0, pos] = int(np.argmax(logits[0, pos - 1]))
        return toks

    def fn(*flat):
        w = list(flat[:len(km.weights)])
        toks = flat[len(km.weights)]

        def step(t, toks):
            pos = GREEDY_PROMPT + t
            mask = (jnp.arange(32)[None] < pos).astype(jnp.int32)
            h = km.forward(w, {"token_ids": toks, "padding_mask": mask})
            last = jax.lax.dynamic_index_in_dim(h[0], pos - 1, keepdims=False)
            nxt = jnp.argmax(w[e] @ last).astype(jnp.int32)
            return jax.lax.dynamic_update_index_in_dim(toks, nxt[None], pos, axis=1)
        return jax.lax.fori_loop(0, GREEDY_NEW, step, toks)
    return export("gpt2_greedy", fn, km.specs, km.seed,
                  {"default": ([tokens], [reference(tokens)])},
                  f"greedy decoding with gpt2_tiny: lax.fori_loop of {GREEDY_NEW} full forwards over "
                  f"a 32-token buffer, prompt {GREEDY_PROMPT} tokens -> int32 tokens", library="keras_hub")


# ----------------------------------------------------------------- flax


def _flax_cnn():
    import flax.linen as nn

    class CNN(nn.Module):
        """A small flax.linen CNN: conv-BN-relu, avg-pool, conv-relu, max-pool, flatten, 2 dense."""
        @nn.compact
        def __call__(self, x):
            x = nn.Conv(16, (3, 3))(x)
            x = nn.BatchNorm(use_running_average=True)(x)
            x = nn.avg_pool(nn.relu(x), (2, 2), (2, 2))
            x = nn.relu(nn.Conv(32, (3, 3))(x))
            x = nn.max_pool(x, (2, 2), (2, 2))
            x = x.reshape((x.shape[0], -1))
            x = nn.relu(nn.Dense(64)(x))
            return nn.Dense(10)(x)
    return CNN()


FLAX_BATCHES = (1, 16)


def build_flax_cnn(symbolic: bool):
    import jax

    model = _flax_cnn()
    init = model.init(jax.random.key(0), np.zeros((1, 32, 32, 3), np.float32))
    leaves, treedef = jax.tree_util.tree_flatten_with_path(init)
    names = [jax.tree_util.keystr(p) for p, _ in leaves]
    specs = weight_specs([np.asarray(v) for _, v in leaves], names)
    seed = 108
    weights = regenerate(specs, seed)
    variables = jax.tree_util.tree_unflatten(treedef, weights)
    g = np.random.default_rng(8)
    batches = FLAX_BATCHES if symbolic else FLAX_BATCHES[-1:]
    runs = {}
    for b in batches:
        x = g.random((b, 32, 32, 3), dtype=np.float32)
        runs[f"b{b}"] = ([x], [np.asarray(model.apply(variables, x))])

    def fn(*flat):
        return model.apply(jax.tree_util.tree_unflatten(treedef, list(flat[:-1])), flat[-1])
    shape = "b, 32, 32, 3" if symbolic else f"{batches[0]}, 32, 32, 3"
    kind = "symbolic batch (jax.export.symbolic_shape)" if symbolic else "static batch"
    return export("flax_cnn_dyn" if symbolic else "flax_cnn_static", fn, specs, seed, runs,
                  f"flax.linen CNN (conv16-BN-relu-avgpool, conv32-relu-maxpool, flatten, dense64, dense10), "
                  f"32x32x3, {kind}", library="flax", input_shape=shape)


# ----------------------------------------------------------------- export


def export(name, fn, specs, seed, runs: dict, note: str, library: str, input_shape: str | None = None) -> dict:
    """jax.export `fn(*weights, *inputs)` and write `<name>.mlir` / `.npz`; return its manifest entry."""
    import jax
    from jax import export as jexport

    inputs0, _ = next(iter(runs.values()))
    weight_structs = [jax.ShapeDtypeStruct(tuple(s["shape"]), np.float32) for s in specs]
    in_structs = [jax.ShapeDtypeStruct(x.shape, x.dtype) for x in inputs0]
    if input_shape is not None:  # the first input's shape, possibly symbolic
        in_structs[0] = jax.ShapeDtypeStruct(jexport.symbolic_shape(input_shape), inputs0[0].dtype)
    exp = jexport.export(jax.jit(fn, keep_unused=True))(*weight_structs, *in_structs)
    text = strip_locations(exp.mlir_module())
    ops = op_counts(text)
    bad = sorted(op for op in ops if op.split(".")[0] not in ("func", "stablehlo"))
    if bad or text.count("custom_call") != text.count("custom_call @shape_assertion"):
        raise SystemExit(f"{name}: ops outside func/stablehlo: {bad or 'custom_call'}")

    weights = regenerate(specs, seed)
    arrays = {}
    for run, (inputs, ref) in runs.items():
        got = jax.tree_util.tree_leaves(exp.call(*weights, *inputs))  # the export agrees with the library
        for k, (g, r) in enumerate(zip(got, ref)):
            scale = max(float(np.max(np.abs(r))), 1e-30)
            err = float(np.max(np.abs(np.asarray(g, np.float64) - r))) / scale
            if err > 1e-4:
                raise SystemExit(f"{name} {run} out{k}: exported fn differs from the library by {err:.2g}")
        arrays.update({f"{run}_in{k}": np.asarray(x) for k, x in enumerate(inputs)})
        arrays.update({f"{run}_out{k}": np.asarray(r) for k, r in enumerate(ref)})
    (HERE / f"{name}.mlir").write_text(text)
    np.savez_compressed(HERE / f"{name}.npz", **arrays)
    sig = lambda xs: [{"shape": list(x.shape), "dtype": str(x.dtype)} for x in xs]  # noqa: E731
    n_params = sum(int(np.prod(s["shape"])) for s in specs)
    print(f"{name}: {len(text)} bytes, {len(specs)} weights ({n_params} params), runs {list(runs)}; "
          f"{sum(ops.values())} ops")
    return {"note": note, "library": library, "mlir": f"{name}.mlir", "npz": f"{name}.npz",
            "input_shape": input_shape, "runs": {r: {"inputs": sig(i), "outputs": sig(o)}
                                                  for r, (i, o) in runs.items()},
            "weights": {"seed": seed, "params": n_params, "tensors": specs},
            "ops": ops, "mlir_bytes": len(text)}


def strip_locations(text: str) -> str:
    """Re-print the module without debug locations (absolute site-packages paths)."""
    from jax._src.interpreters import mlir
    from jax._src.lib.mlir import ir
    with mlir.make_ir_context():
        module = ir.Module.parse(text)
        return module.operation.get_asm(enable_debug_info=False)


def op_counts(text: str) -> dict[str, int]:
    import re
    counts: dict[str, int] = {}
    for m in re.finditer(r"^\s*(?:%[^=]*=\s*)?\"?([a-z_]+\.[a-z_0-9.]+)", text, re.M):
        counts[m.group(1)] = counts.get(m.group(1), 0) + 1
    return dict(sorted(counts.items()))


BUILDERS = {
    "mobilenet_v2": build_mobilenet_v2,
    "resnet50": build_resnet50,
    "flax_cnn_dyn": lambda: build_flax_cnn(symbolic=True),
    "flax_cnn_static": lambda: build_flax_cnn(symbolic=False),
    "bert_tiny": build_bert_tiny,
    "gpt2_tiny": build_gpt2_tiny,
    "gpt2_greedy": build_gpt2_greedy,
    "lstm": build_lstm,
    "gru": build_gru,
}


def versions() -> dict:
    import importlib.metadata as md
    out = {}
    for dist in ("jax", "jaxlib", "keras", "keras-hub", "flax", "numpy"):
        try:
            out[dist] = md.version(dist)
        except md.PackageNotFoundError:
            pass
    return out


def main(argv: list[str]) -> int:
    import jax
    jax.config.update("jax_platforms", "cpu")
    import keras
    if keras.backend.backend() != "jax":
        raise SystemExit("set KERAS_BACKEND=jax")
    names = argv or list(BUILDERS)
    unknown = set(names) - set(BUILDERS)
    if unknown:
        raise SystemExit(f"unknown models {sorted(unknown)}; have {list(BUILDERS)}")
    path = HERE / "manifest.json"
    manifest = json.loads(path.read_text()) if path.exists() else {}
    manifest.setdefault("models", {})
    manifest["weight_rule"] = WEIGHT_RULE
    manifest["arg_order"] = "weights (manifest order) then inputs (npz <run>_in0..)"
    manifest["versions"] = versions()
    for name in names:
        keras.utils.clear_session()
        manifest["models"][name] = BUILDERS[name]()
    manifest["models"] = {k: manifest["models"][k] for k in BUILDERS if k in manifest["models"]}
    path.write_text(json.dumps(manifest, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
