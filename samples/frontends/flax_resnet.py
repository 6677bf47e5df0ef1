"""A flax ResNet-style CNN (BatchNorm, residual blocks) compiled with
``compile_jax``: the ``{"params", "batch_stats"}`` pytree is an argument,
the batch is symbolic, and the results are checked against JAX.

    python samples/frontends/flax_resnet.py [--batch 1 4 ...]

Needs ``pip install 'tensorvm[flax]'``.
"""
from __future__ import annotations

import argparse
import pathlib
import sys

import numpy as np

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from check import compare, finish, timed  # noqa: E402


def build():
    import flax.linen as nn

    class Block(nn.Module):
        features: int
        stride: int = 1

        @nn.compact
        def __call__(self, x):
            h = nn.Conv(self.features, (3, 3), self.stride, use_bias=False)(x)
            h = nn.relu(nn.BatchNorm(use_running_average=True)(h))
            h = nn.Conv(self.features, (3, 3), use_bias=False)(h)
            h = nn.BatchNorm(use_running_average=True)(h)
            if x.shape[-1] != self.features or self.stride != 1:
                x = nn.Conv(self.features, (1, 1), self.stride, use_bias=False)(x)
            return nn.relu(h + x)

    class ResNet(nn.Module):
        @nn.compact
        def __call__(self, x):
            x = nn.relu(nn.Conv(16, (3, 3))(x))
            for features, stride in ((16, 1), (32, 2), (64, 2)):
                x = Block(features, stride)(x)
            return nn.Dense(10)(x.mean(axis=(1, 2)))

    return ResNet()


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--batch", type=int, nargs="+", default=[1, 4])
    args = p.parse_args(argv)
    import jax
    from tensorvm.compiler.frontends import compile_jax, spec
    from tensorvm.runtime import load_module

    model = build()
    rng = np.random.default_rng(0)
    variables = model.init(jax.random.PRNGKey(0), np.zeros((1, 32, 32, 3), np.float32))
    # non-trivial running statistics, so BatchNorm is not the identity
    variables = {"params": variables["params"], "batch_stats": jax.tree_util.tree_map(
        lambda a: np.asarray(a) + rng.uniform(0.1, 0.5, a.shape).astype(np.float32),
        variables["batch_stats"])}
    vmfb = timed("compile_jax", compile_jax, model.apply, variables, spec("b, 32, 32, 3"))
    module = load_module(vmfb)
    print(module.main)
    ok = True
    for b in args.batch:
        x = rng.standard_normal((b, 32, 32, 3)).astype(np.float32)
        got = timed(f"tensorvm batch {b}", module.main, variables, x)
        ok &= compare(f"batch {b}", got, model.apply(variables, x))
    finish(ok)


if __name__ == "__main__":
    sys.exit(main())
