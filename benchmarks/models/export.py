"""Export the real-model benchmark set from Keras, keras_hub, Flax, HuggingFace
transformers (torch, through torchax) and plain JAX (run once; commit the outputs).

    KERAS_BACKEND=jax python benchmarks/models/export.py [names...]

Needs the `models` and `torch` extras (keras, keras-hub, flax, transformers;
torch, torchax; jax on CPU). Every model is
built by its library from a small config with RANDOM weights (weights=None;
nothing is downloaded). Each float weight tensor i is then replaced by

    mean_i + std_i * np.random.default_rng([seed, i]).standard_normal(shape)   (as float32)

where mean_i / std_i are those of the library's own initializer output (a
constant-initialised tensor, e.g. a BatchNorm variance, has std 0 and stays
that constant). The weights are set into the library model, the library
computes the reference outputs (the torch module itself for transformers;
the jitted JAX function for the JAX decoder), and `jax.export` exports the
forward pass (torch modules: torch.export, then torchax) with
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


# ----------------------------------------------------------------- transformers and decoding
# The set `run.py --transformers` times (load.GROUPS["transformers"]).


def torch_export(name, model, inputs: dict, outputs, seed, note) -> dict:
    """A torch module (HuggingFace transformers) through the repo's torch route
    (compiler/frontends/from_torch.py: torch.export with the math attention
    backend, then torchax's JAX interpretation of the graph, 64-bit types on),
    except that the module's PARAMETERS become arguments (by the weight rule);
    its buffers and lifted constants (position ids, RoPE frequencies) stay
    baked in. ``outputs(model_output) -> tuple of tensors``; the reference is
    the torch module's own forward with the regenerated weights."""
    import jax
    import torch
    from torch.nn.attention import SDPBackend, sdpa_kernel
    from torchax import export as tx_export

    names = list(inputs)

    class Forward(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.model = model

        def forward(self, *xs):
            return tuple(outputs(self.model(**dict(zip(names, xs)))))

    module = Forward().eval()
    xs = tuple(torch.from_numpy(x) for x in inputs.values())
    with torch.no_grad(), sdpa_kernel([SDPBackend.MATH]):
        ep = torch.export.export(module, xs)
    params = list(ep.graph_signature.parameters)     # tied weights appear once
    specs = weight_specs([module.get_parameter(p).detach().numpy() for p in params],
                         [p.removeprefix("model.") for p in params])
    with torch.no_grad():
        for p, w in zip(params, regenerate(specs, seed)):    # set into the library model
            module.get_parameter(p).copy_(torch.from_numpy(w))
        ref = [t.numpy() for t in module(*xs)]
    with sdpa_kernel([SDPBackend.MATH]), jax.enable_x64(True):
        states, func = tx_export.exported_program_to_jax(ep)
        baked = list(states[len(params):])

        def fn(*flat):
            return tuple(func(list(flat[:len(params)]) + baked, flat[len(params):]))
        return export(name, fn, specs, seed, {"default": (list(inputs.values()), ref)}, note,
                      library="transformers")


def _hf_tokens(seed, batch=2, seq=32, vocab=1000) -> np.ndarray:
    return np.random.default_rng(seed).integers(0, vocab, (batch, seq), dtype=np.int64)


def _hf_padding(batch=2, seq=32, lengths=(32, 24)) -> np.ndarray:
    return (np.arange(seq)[None] < np.array(lengths)[:batch, None]).astype(np.int64)


def build_hf_bert():
    import transformers as hf
    cfg = hf.BertConfig(vocab_size=1000, hidden_size=128, num_hidden_layers=2, num_attention_heads=2,
                        intermediate_size=512, max_position_embeddings=64, hidden_dropout_prob=0.0,
                        attention_probs_dropout_prob=0.0)
    x = {"input_ids": _hf_tokens(11), "attention_mask": _hf_padding(),
         "token_type_ids": (np.arange(32)[None] >= 16).repeat(2, 0).astype(np.int64)}
    return torch_export("hf_bert", hf.BertModel(cfg), x,
                        lambda o: (o.last_hidden_state, o.pooler_output), 111,
                        "transformers BertModel (2 layers, hidden 128, 2 heads, vocab 1000) via "
                        "torchax; batch 2, seq 32 (one row padded to 24); outputs "
                        "last_hidden_state, pooler_output")


def build_hf_gpt2():
    import transformers as hf
    cfg = hf.GPT2Config(vocab_size=1000, n_embd=128, n_layer=2, n_head=2, n_positions=64,
                        resid_pdrop=0.0, embd_pdrop=0.0, attn_pdrop=0.0, use_cache=False,
                        bos_token_id=0, eos_token_id=0)
    return torch_export("hf_gpt2", hf.GPT2LMHeadModel(cfg), {"input_ids": _hf_tokens(12)},
                        lambda o: (o.logits,), 112,
                        "transformers GPT2LMHeadModel (2 layers, hidden 128, 2 heads, vocab 1000, "
                        "tied head) via torchax; batch 2, seq 32 -> logits")


def build_hf_t5():
    import transformers as hf
    cfg = hf.T5Config(vocab_size=1000, d_model=128, d_kv=64, d_ff=256, num_layers=2,
                      num_decoder_layers=2, num_heads=2, dropout_rate=0.0, use_cache=False)
    x = {"input_ids": _hf_tokens(13), "attention_mask": _hf_padding(),
         "decoder_input_ids": _hf_tokens(14)}
    return torch_export("hf_t5", hf.T5ForConditionalGeneration(cfg), x, lambda o: (o.logits,), 113,
                        "transformers T5ForConditionalGeneration (2+2 layers, d_model 128, 2 heads, "
                        "vocab 1000, relative position buckets) via torchax; encoder 2x32 (one row "
                        "padded to 24), decoder_input_ids 2x32 -> logits")


def build_hf_llama():
    import transformers as hf
    cfg = hf.LlamaConfig(vocab_size=1000, hidden_size=128, intermediate_size=256, num_hidden_layers=2,
                         num_attention_heads=4, num_key_value_heads=2, max_position_embeddings=64,
                         use_cache=False)
    return torch_export("hf_llama", hf.LlamaForCausalLM(cfg), {"input_ids": _hf_tokens(15)},
                        lambda o: (o.logits,), 115,
                        "transformers LlamaForCausalLM (2 layers, hidden 128, 4 query heads over "
                        "2 KV heads (GQA), RMSNorm, RoPE, SwiGLU 256, vocab 1000) via torchax; "
                        "batch 2, seq 32 -> logits")


def build_hf_vit():
    import transformers as hf
    cfg = hf.ViTConfig(image_size=48, patch_size=8, num_channels=3, hidden_size=128, num_hidden_layers=2,
                       num_attention_heads=2, intermediate_size=512, hidden_dropout_prob=0.0,
                       attention_probs_dropout_prob=0.0)
    x = {"pixel_values": np.random.default_rng(16).standard_normal((2, 3, 48, 48)).astype(np.float32)}
    return torch_export("hf_vit", hf.ViTModel(cfg), x,
                        lambda o: (o.last_hidden_state, o.pooler_output), 116,
                        "transformers ViTModel (2 layers, hidden 128, 2 heads, 48x48 image, 8x8 "
                        "patches -> 37 tokens) via torchax; batch 2; outputs last_hidden_state, "
                        "pooler_output")


GENERATE_PROMPT = 8


def build_kh_gpt2_generate():
    """keras_hub GPT2CausalLM.generate (greedy sampler, no preprocessor): its
    `generate_step` as CausalLM.make_generate_function jits it for JAX, a
    prefill that builds the KV cache, then the sampler's while loop of
    one-token `call_with_cache` steps to the end of the 32-token buffer. The
    weights are arguments (the StatelessScope mapping generate's jitted
    function uses); baked in: the sampler (greedy, no state) and
    stop_token_ids=None (runs to max length)."""
    import keras
    import keras_hub

    backbone = keras_hub.models.GPT2Backbone(**TINY, dropout=0.0)
    lm = keras_hub.models.GPT2CausalLM(backbone=backbone, preprocessor=None)
    lm.compile(sampler="greedy")
    if lm.sampler.variables:
        raise SystemExit("kh_gpt2_generate: the greedy sampler has state; export it as arguments")
    km = KerasModel(lm, 117)
    tokens = np.zeros((1, 32), np.int32)
    tokens[0, :GENERATE_PROMPT] = np.random.default_rng(17).integers(0, 1000, GENERATE_PROMPT)
    x = {"token_ids": tokens, "padding_mask": (np.arange(32) < GENERATE_PROMPT)[None].astype(np.int32)}
    ref = lm.generate(x, stop_token_ids=None)["token_ids"]       # the library's own jitted loop

    def fn(*flat):
        tv, ntv = km.split(list(flat[:len(km.weights)]))
        mapping = [*zip(lm.trainable_variables, tv), *zip(lm.non_trainable_variables, ntv)]
        with keras.StatelessScope(state_mapping=mapping):
            return lm.generate_step(_unflat(x, flat[len(km.weights):]), stop_token_ids=None)["token_ids"]
    return export("kh_gpt2_generate", fn, km.specs, km.seed,
                  {"default": (_leaves(x), [np.asarray(ref)])},
                  f"keras_hub GPT2CausalLM.generate_step (GPT2Backbone 2 layers, hidden 128, 2 heads, "
                  f"vocab 1000; greedy sampler, no preprocessor): prefill + while loop over a KV cache, "
                  f"prompt {GENERATE_PROMPT} of 32 tokens -> 32 token ids", library="keras_hub")


# the JAX decoder: vocab, width, heads, layers, cache length, prompt length
KV = dict(vocab=1000, dim=128, heads=4, layers=2, max_len=64, prompt=8)


def _kv_init() -> tuple[list[str], list[np.ndarray]]:
    """The decoder's initializer: N(0, 1/fan_in) matrices, N(0, 0.02^2)
    embeddings, unit norm scales (names, arrays in argument order)."""
    v, d, t = KV["vocab"], KV["dim"], KV["max_len"]
    shapes = [("embed", (v, d)), ("pos", (t, d))]
    for i in range(KV["layers"]):
        shapes += [(f"l{i}.norm1", (d,)), (f"l{i}.wqkv", (d, 3 * d)), (f"l{i}.wo", (d, d)),
                   (f"l{i}.norm2", (d,)), (f"l{i}.w1", (d, 4 * d)), (f"l{i}.w2", (4 * d, d))]
    shapes.append(("norm_f", (d,)))
    g = np.random.default_rng(0)
    arrays = [np.ones(s, np.float32) if "norm" in n else
              (g.standard_normal(s) * (0.02 if n in ("embed", "pos") else s[0] ** -0.5)).astype(np.float32)
              for n, s in shapes]
    return [n for n, _ in shapes], arrays


def _kv_chunk(w: dict, cache, toks, start):
    """Tokens `toks` at positions start.. through the decoder: their K/V
    written into `cache` (layers, 2, max_len, heads, head_dim) with
    dynamic_update_slice, attention over the cache up to each position;
    returns (cache, logits of the last token)."""
    import jax
    import jax.numpy as jnp
    n, (h, d, t) = toks.shape[0], (KV["heads"], KV["dim"], KV["max_len"])
    hd = d // h
    pos = start + jnp.arange(n)

    def norm(x, scale):
        x = x - x.mean(-1, keepdims=True)
        return x * jax.lax.rsqrt((x * x).mean(-1, keepdims=True) + 1e-5) * scale

    x = jnp.take(w["embed"], toks, axis=0) + jax.lax.dynamic_slice_in_dim(w["pos"], start, n)
    for i in range(KV["layers"]):
        q, k, v = jnp.split(norm(x, w[f"l{i}.norm1"]) @ w[f"l{i}.wqkv"], 3, axis=-1)
        kv = jnp.stack([k.reshape(n, h, hd), v.reshape(n, h, hd)])[None]
        cache = jax.lax.dynamic_update_slice(cache, kv, (i, 0, start, 0, 0))
        s = jnp.einsum("nhd,thd->hnt", q.reshape(n, h, hd), cache[i, 0]) * hd ** -0.5
        s = jnp.where(jnp.arange(t)[None, None] <= pos[None, :, None], s, -1e30)
        o = jnp.einsum("hnt,thd->nhd", jax.nn.softmax(s, axis=-1), cache[i, 1]).reshape(n, d)
        x = x + o @ w[f"l{i}.wo"]
        x = x + jax.nn.gelu(norm(x, w[f"l{i}.norm2"]) @ w[f"l{i}.w1"]) @ w[f"l{i}.w2"]
    return cache, norm(x[-1], w["norm_f"]) @ w["embed"].T


def _kv_generate(w: dict, prompt, eos):
    """Greedy decoding: one prefill of the prompt, then a lax.while_loop of
    one-token steps that stops at `eos` or a full buffer (data-dependent).
    Returns (the max_len token buffer, the number of valid tokens)."""
    import jax
    import jax.numpy as jnp
    p, t = KV["prompt"], KV["max_len"]
    shape = (KV["layers"], 2, t, KV["heads"], KV["dim"] // KV["heads"])
    cache, logits = _kv_chunk(w, jnp.zeros(shape, jnp.float32), prompt, 0)
    tok = jnp.argmax(logits).astype(jnp.int32)
    out = jax.lax.dynamic_update_slice(jnp.zeros(t, jnp.int32), prompt, (0,))
    out = jax.lax.dynamic_update_index_in_dim(out, tok, p, 0)

    def cond(c):
        n, tok, _, _ = c
        return (tok != eos) & (n < t)

    def body(c):
        n, tok, cache, out = c
        cache, logits = _kv_chunk(w, cache, tok[None], n - 1)
        tok = jnp.argmax(logits).astype(jnp.int32)
        return n + 1, tok, cache, jax.lax.dynamic_update_index_in_dim(out, tok, n, 0)
    n, _, _, out = jax.lax.while_loop(cond, body, (jnp.int32(p + 1), tok, cache, out))
    return out, n


def build_jax_kv_decode():
    """The JAX greedy decoder with a KV cache and an EOS exit. The stored
    run's EOS is the generated token that first appears nearest the middle of
    a run without one, so the loop exits about half way."""
    import jax
    names, init = _kv_init()
    specs = weight_specs(init, names)
    seed = 118
    weights = regenerate(specs, seed)
    prompt = np.random.default_rng(18).integers(0, KV["vocab"], KV["prompt"]).astype(np.int32)
    gen = jax.jit(lambda ws, p, e: _kv_generate(dict(zip(names, ws)), p, e))
    full = np.asarray(gen(weights, prompt, np.int32(-1))[0])[KV["prompt"]:]
    first = {int(tk): k for k, tk in reversed(list(enumerate(full)))}
    eos = np.array(min(first, key=lambda tk: abs(first[tk] - len(full) // 2)), np.int32)
    ref = [np.asarray(r) for r in gen(weights, prompt, eos)]
    return export("jax_kv_decode", lambda *flat: gen(list(flat[:len(names)]), *flat[len(names):]),
                  specs, seed, {"default": ([prompt, eos], ref)},
                  f"JAX greedy decoder (2 layers, width 128, 4 heads, vocab 1000) with a KV cache of "
                  f"{KV['max_len']} written by dynamic_update_slice: prefill of an {KV['prompt']}-token "
                  f"prompt, then a lax.while_loop that stops at EOS (an input, here {int(eos)}: "
                  f"{int(ref[1])} of {KV['max_len']} tokens) -> tokens, length", library="jax")


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
    "hf_bert": build_hf_bert,
    "hf_gpt2": build_hf_gpt2,
    "hf_t5": build_hf_t5,
    "hf_llama": build_hf_llama,
    "hf_vit": build_hf_vit,
    "kh_gpt2_generate": build_kh_gpt2_generate,
    "jax_kv_decode": build_jax_kv_decode,
}


def versions() -> dict:
    import importlib.metadata as md
    out = {}
    for dist in ("jax", "jaxlib", "keras", "keras-hub", "flax", "numpy", "torch", "torchax",
                 "transformers"):
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
