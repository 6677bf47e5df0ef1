"""Real PyTorch models (random weights) compiled with compile_torch with a
dynamic batch (torch.export.Dim) and compared with PyTorch eager: the max
error relative to the output's magnitude, compile time, and latency against
eager (min of N calls).  test_frontend_torch.py calls ``check``; as a script
it prints one JSON line per model.

    python tests/frontends/torch_models_check.py [--repeats N] resnet18 mobilenet_v3_small gpt2 bert encoder

Models: torchvision ``resnet18`` / ``mobilenet_v3_small`` (``weights=None``,
64x64 images), HuggingFace ``gpt2`` / ``bert`` (tiny random configs; need
``transformers``), ``encoder`` (``torch.nn.TransformerEncoder``, 2 layers).
"""
from __future__ import annotations

import json
import sys
import time

import numpy as np

BATCHES = (1, 3)      # the batches run against eager; the export sees batch 2


def build(name):
    """(module, example inputs, inputs for a batch b) for the named model."""
    import torch
    torch.manual_seed(0)
    if name in ("resnet18", "mobilenet_v3_small"):
        import torchvision
        model = getattr(torchvision.models, name)(weights=None, num_classes=100)
        return model, lambda b: (torch.randn(b, 3, 64, 64),)
    if name == "encoder":
        layer = torch.nn.TransformerEncoderLayer(64, 4, 128, dropout=0.0, batch_first=True)
        model = torch.nn.TransformerEncoder(layer, 2, enable_nested_tensor=False)
        return model, lambda b: (torch.randn(b, 16, 64),)
    if name in ("gpt2", "bert"):
        import transformers
        if name == "gpt2":
            cfg = transformers.GPT2Config(vocab_size=128, n_positions=32, n_embd=64, n_layer=2,
                                          n_head=4, use_cache=False,
                                          bos_token_id=0, eos_token_id=0)
            model = transformers.GPT2Model(cfg)
        else:
            cfg = transformers.BertConfig(vocab_size=128, hidden_size=64, num_hidden_layers=2,
                                          num_attention_heads=4, intermediate_size=128,
                                          max_position_embeddings=32)
            model = transformers.BertModel(cfg, add_pooling_layer=True)
        model.config.return_dict = False      # a tuple out: plain tensors
        gen = torch.Generator().manual_seed(1)
        return model, lambda b: (torch.randint(0, 128, (b, 16), generator=gen),)
    raise SystemExit(f"unknown model {name}")


def _leaves(out):
    import torch
    if isinstance(out, torch.Tensor):
        return [out.detach().numpy()]
    if isinstance(out, dict):
        return [x for v in out.values() for x in _leaves(v)]
    if isinstance(out, (tuple, list)):
        return [x for v in out for x in _leaves(v)]
    return [np.asarray(out)]


def _min_time(fn, n):
    best = float("inf")
    for _ in range(n):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best


def check(name, repeats=10):
    """The comparison of one model as a dict (errors relative to max |eager|)."""
    import torch
    from tensorvm.compiler.frontends import compile_torch
    from tensorvm.runtime import load_module
    model, inputs = build(name)
    model = model.eval()
    example = inputs(2)
    batch = torch.export.Dim("batch", min=1, max=64)
    start = time.perf_counter()
    vmfb = compile_torch(model, example, dynamic_shapes=tuple({0: batch} for _ in example))
    compile_s = time.perf_counter() - start
    mod = load_module(vmfb)
    n_params = len(list(model.parameters())) + len(list(model.buffers()))
    result = {"model": name, "compile_s": round(compile_s, 2), "vmfb_mb": round(len(vmfb) / 2**20, 2),
              "main_args": len(mod.main.args), "torch_params_and_buffers": n_params,
              "torch": torch.__version__, "threads": torch.get_num_threads()}
    for b in BATCHES:
        args = inputs(b)
        with torch.no_grad():
            want = _leaves(model(*args))
        got = [np.asarray(g) for g in _flatten(mod.main(*(a.numpy() for a in args)))]
        assert len(got) == len(want), (len(got), len(want))
        for g, w in zip(got, want):
            assert g.shape == w.shape, (g.shape, w.shape)
        scale = max(float(np.abs(w).max()) for w in want) or 1.0
        err = max(float(np.abs(g.astype(np.float64) - w).max()) for g, w in zip(got, want))
        result[f"b{b}_max_abs"] = err
        result[f"b{b}_rel"] = err / scale
        np_args = [a.numpy() for a in args]
        mod.main(*np_args)
        with torch.no_grad():
            result[f"b{b}_eager_ms"] = round(1e3 * _min_time(lambda: model(*args), repeats), 3)

        def run():      # results read on the host: the work is done, not only queued
            for leaf in _flatten(mod.main(*np_args)):
                np.asarray(leaf)
        result[f"b{b}_tensorvm_ms"] = round(1e3 * _min_time(run, repeats), 3)
    return result


def _flatten(out):
    if isinstance(out, dict):
        return [x for v in out.values() for x in _flatten(v)]
    if isinstance(out, (tuple, list)):
        return [x for v in out for x in _flatten(v)]
    return [out]


if __name__ == "__main__":
    import os
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import argparse
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("models", nargs="+")
    p.add_argument("--repeats", type=int, default=10, help="calls per latency (the min is kept)")
    a = p.parse_args()
    for item in a.models:
        print(json.dumps(check(item, a.repeats)), flush=True)
