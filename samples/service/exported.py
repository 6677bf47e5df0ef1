"""What the service's exported models (bert.py, decode.py) share: random
weights by name, and the command line that writes a model's StableHLO."""
from __future__ import annotations

import argparse
import pathlib

import numpy as np


def random_weights(shapes, seed: int) -> list[np.ndarray]:
    """float32 arrays for ``(name, shape)`` pairs, in order: normal with std
    0.02 (BERT's and GPT-2's initialiser), LayerNorm gains (``*_g``) 1,
    biases (other 1-D weights) 0.  Random, nothing downloaded."""
    rng = np.random.default_rng(seed)
    out = []
    for name, shape in shapes:
        if name.endswith("_g"):
            out.append(np.ones(shape, np.float32))
        elif len(shape) == 1:
            out.append(np.zeros(shape, np.float32))
        else:
            out.append(rng.standard_normal(shape, np.float32) * np.float32(0.02))
    return out


def export_main(description: str, config: dict, output, export_mlir, argv=None) -> int:
    """``--<key> N`` for every config entry and ``-o PATH``: writes
    ``export_mlir(cfg)`` there."""
    ap = argparse.ArgumentParser(description=description)
    for key, value in config.items():
        ap.add_argument(f"--{key}", type=int, default=value)
    ap.add_argument("-o", "--output", default=str(output))
    args = ap.parse_args(argv)
    cfg = {k: getattr(args, k) for k in config}
    pathlib.Path(args.output).write_text(export_mlir(cfg))
    print(f"wrote {args.output} ({cfg})")
    return 0
