"""Small real models the frontend tests and samples share: a CNN and a
transformer encoder block per framework (built only when it is installed)."""
from __future__ import annotations

import numpy as np


def flax_cnn():
    import flax.linen as nn

    class CNN(nn.Module):
        @nn.compact
        def __call__(self, x):
            x = nn.relu(nn.Conv(8, (3, 3))(x))
            x = nn.avg_pool(x, (2, 2), (2, 2))
            x = nn.gelu(nn.Conv(16, (3, 3), strides=2)(x))
            x = x.reshape((x.shape[0], -1))
            return nn.Dense(10)(x)

    return CNN()


def flax_transformer(dim=32, heads=4, hidden=64):
    import flax.linen as nn

    class Block(nn.Module):
        @nn.compact
        def __call__(self, x):
            h = nn.LayerNorm()(x)
            x = x + nn.MultiHeadDotProductAttention(num_heads=heads, qkv_features=dim)(h, h)
            h = nn.LayerNorm()(x)
            return x + nn.Dense(dim)(nn.gelu(nn.Dense(hidden)(h)))

    return Block()


def rand(*shape, seed=0):
    return np.random.default_rng(seed).standard_normal(shape).astype(np.float32)
