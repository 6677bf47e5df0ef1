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


def torch_cnn():
    import torch
    from torch import nn
    torch.manual_seed(0)
    return nn.Sequential(
        nn.Conv2d(3, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU(), nn.MaxPool2d(2),
        nn.Conv2d(8, 16, 3, stride=2), nn.Hardswish(), nn.AdaptiveAvgPool2d(1),
        nn.Flatten(), nn.Linear(16, 10)).eval()


def torch_transformer(dim=32, heads=4, hidden=64):
    import torch
    torch.manual_seed(1)
    return torch.nn.TransformerEncoderLayer(dim, heads, hidden, dropout=0.0,
                                            batch_first=True).eval()


def keras_cnn():
    import keras
    keras.utils.set_random_seed(0)
    return keras.Sequential([
        keras.Input((16, 16, 3)),
        keras.layers.Conv2D(8, 3, padding="same"), keras.layers.BatchNormalization(),
        keras.layers.ReLU(), keras.layers.DepthwiseConv2D(3, strides=2),
        keras.layers.GlobalAveragePooling2D(), keras.layers.Dense(10, activation="softmax")])


def keras_transformer(seq=8, dim=32, heads=4, hidden=64):
    import keras
    keras.utils.set_random_seed(1)
    x = inputs = keras.Input((seq, dim))
    h = keras.layers.LayerNormalization()(x)
    x = x + keras.layers.MultiHeadAttention(heads, dim // heads)(h, h)
    h = keras.layers.LayerNormalization()(x)
    x = x + keras.layers.Dense(dim)(keras.layers.Dense(hidden, activation="gelu")(h))
    return keras.Model(inputs, x)


def tf_dense_module():
    """A tf.Module with variables and a dict output (a SavedModel's usual shape)."""
    import tensorflow as tf

    class Dense(tf.Module):
        def __init__(self):
            super().__init__()
            rng = np.random.default_rng(2)
            self.w = tf.Variable(rng.standard_normal((4, 3)).astype(np.float32), name="w")
            self.b = tf.Variable(rng.standard_normal(3).astype(np.float32), name="b")

        @tf.function(input_signature=[tf.TensorSpec((None, 4), tf.float32)])
        def __call__(self, x):
            return {"y": tf.nn.relu(tf.matmul(x, self.w) + self.b), "total": tf.reduce_sum(x)}

    return Dense()
