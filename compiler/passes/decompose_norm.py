"""``batch_norm_inference`` / ``batch_norm_training`` / ``batch_norm_grad``
as the StableHLO spec writes them (spec.md, "batch_norm_*"):
``broadcast_in_dim`` of the per-feature vectors along ``feature_index``,
elementwise arithmetic, and sums over every dim but the feature dim
(``reduce`` with ``add``).  The mean divides the sum by
``size(operand) / dim(operand, feature_index)``; the variance is the mean
of the squared centered operand (biased, as the spec says).  Static shapes
only; dynamic ones raise UnsupportedOpError.  passes/decompose.py
registers them."""
from __future__ import annotations

from ..ir.types import TensorType
from .op_builder import Builder


def _setup(op, n_operands):
    b = Builder(op)
    if len(op.operands) != n_operands:
        b.fail(f"with {len(op.operands)} operands ({n_operands} expected)")
    types = [v.type for v in list(op.operands) + list(op.results)]
    if not all(isinstance(t, TensorType) and t.is_static for t in types):
        b.fail("with dynamic shapes")
    x = op.operands[0]
    el = x.type.element
    if not el.startswith(("f", "bf")):
        b.fail(f"on element type {el} (a float type expected; quantized forms are not lowered)")
    rank = len(x.type.shape)
    fi = int(getattr(op.attributes.get("feature_index"), "value", -1))
    if not 0 <= fi < rank:
        b.fail(f"feature_index {fi} outside the operand's rank {rank}")
    attr = op.attributes.get("epsilon")
    eps = getattr(attr, "value", None)
    if not isinstance(eps, (int, float)):
        b.fail("without a float epsilon")
    if getattr(attr, "type", "f32") == "f32":     # the attribute is an f32: its value, exactly
        import numpy as np
        eps = np.float32(eps)
    return b, x, fi, float(eps)


class _Norm:
    def __init__(self, b, x, fi):
        self.b, self.x, self.fi = b, x, fi
        self.shape = x.type.shape
        self.others = [d for d in range(len(self.shape)) if d != fi]
        n = 1
        for d in self.others:
            n *= self.shape[d]
        self.count = n      # size(operand) / dim(operand, feature_index)

    def bcast(self, v):
        return self.b.bcast(v, self.shape, [self.fi])

    def full(self, value):
        return self.b.splat(self.x, value)

    def sum(self, v):
        return self.b.reduce(v, self.others)

    def mean(self, v):
        s = self.sum(v)
        return self.b.binary("divide", s, self.b.splat(s, self.count))

    def stddev(self, variance_b, eps):
        return self.b.unary("sqrt", self.b.binary("add", variance_b, self.full(eps)))

    def normalize(self, scale, offset, mean, variance, eps):
        b = self.b
        centered = b.binary("subtract", self.x, self.bcast(mean))
        normalized = b.binary("divide", centered, self.stddev(self.bcast(variance), eps))
        return b.binary("add", b.binary("multiply", self.bcast(scale), normalized), self.bcast(offset))


def _inference(op) -> list:
    b, x, fi, eps = _setup(op, 5)
    _, scale, offset, mean, variance = op.operands
    return [_Norm(b, x, fi).normalize(scale, offset, mean, variance, eps)]


def _training(op) -> list:
    b, x, fi, eps = _setup(op, 3)
    _, scale, offset = op.operands
    n = _Norm(b, x, fi)
    mean = n.mean(x)
    centered = b.binary("subtract", x, n.bcast(mean))
    variance = n.mean(b.binary("multiply", centered, centered))
    return [n.normalize(scale, offset, mean, variance, eps), mean, variance]


def _grad(op) -> list:
    b, x, fi, eps = _setup(op, 5)
    _, scale, mean, variance, grad_out = op.operands
    if grad_out.type.shape != x.type.shape:
        b.fail(f"grad_output {grad_out.type} does not have the operand's shape {x.type}")
    n = _Norm(b, x, fi)
    scale_b, var_b = n.bcast(scale), n.bcast(variance)
    centered = b.binary("subtract", x, n.bcast(mean))
    stddev = n.stddev(var_b, eps)
    normalized = b.binary("divide", centered, stddev)
    per_feature = n.full(n.count)
    i1 = b.binary("multiply", grad_out, per_feature)
    i2 = n.bcast(n.sum(grad_out))
    i3 = n.bcast(n.sum(b.binary("multiply", grad_out, centered)))
    i4 = b.binary("multiply", i3, centered)
    i5 = b.binary("divide", i4, b.binary("add", var_b, n.full(eps)))
    i6 = b.binary("subtract", b.binary("subtract", i1, i2), i5)
    grad_operand = b.binary("multiply", b.binary("divide", b.binary("divide", scale_b, stddev), per_feature), i6)
    grad_scale = n.sum(b.binary("multiply", grad_out, normalized))
    grad_offset = n.sum(grad_out)
    return [grad_operand, grad_scale, grad_offset]
