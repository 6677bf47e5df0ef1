"""Convolution descriptor: a dispatch rooted at a 1-D or 2-D
``stablehlo.convolution`` seen as strided (n, h, w, c) input, (kh, kw, i, o)
filter and (n, oh, ow, o) output, whatever its dimension numbers.

Targets with a direct convolution kernel (cpu_conv.py, gpu_conv.py) render
from it; convolutions it does not describe keep the pull-compute loop.  Its
workgroup plan is the loop plan's format with a count every target shares
(whole output rows per workgroup).
"""
from __future__ import annotations

from dataclasses import dataclass

from ..ir.symbolic import Dim, cdiv, make
from .pull_ops import _attr_ints, _padding

def workgroup_divisor(count):
    """The workgroup count as a divisor: an int at least 1, or a C
    expression of the batch (a symbolic count may be 0)."""
    return max(count, 1) if isinstance(count, int) else make("max", count, 1)


# Channels of one output row a workgroup unit covers at most: bounds the
# shared workgroup count so every target's kernel has a unit per workgroup.
UNIT_CHANNELS = 64

# A direct kernel's multiply-add is a vector lane, far cheaper than the loop
# kernel's element-op that WORKGROUP_WORK is sized for: a workgroup carries
# this many times more, so small convolutions stay below the task driver's
# split threshold instead of paying a worker hand-off for microseconds.
MACS_PER_WORK = 8


@dataclass
class Convolution:
    op: object
    lhs: object
    rhs: object
    N: object         # int, or a Dim for a symbolic batch
    H: int
    W: int
    C: int            # input features (all groups)
    KH: int
    KW: int
    IC: int           # input features per group
    OC: int
    OH: int
    OW: int
    groups: int       # feature_group_count
    stride: tuple     # (h, w)
    dilation: tuple   # rhs (window) dilation (h, w)
    pad_lo: tuple     # (h, w); negative padding crops
    x_strides: tuple  # element strides of (n, h, w, c) in the input buffer
    w_strides: tuple  # (kh, kw, i, o) in the filter buffer; negative for reversed windows
    w_offset: int     # filter element at (0, 0, 0, 0): nonzero for reversed windows
    out_dims: tuple   # result dims of (n, h, w, o); h is None for a 1-D convolution

    @property
    def depthwise(self) -> bool:
        """One single-channel filter per input channel (channel multiplier 1)."""
        return self.groups == self.C and self.IC == 1 and self.OC == self.C and self.C > 1

    @property
    def reduction(self) -> int:
        return self.KH * self.KW * self.IC


def find_convolution(root, captured) -> Convolution | None:
    """The convolution a dispatch rooted at ``root`` computes, if a direct
    kernel can: f32/f64 with static dims but the batch (N may be a symbol),
    operands captured buffers, no lhs (base) dilation, batch_group_count 1,
    one or two spatial dims."""
    from .kernel import epilogue_root, row_major_strides
    op = epilogue_root(root, "stablehlo.convolution")
    if op is None:
        return None
    lhs, rhs = op.operands[:2]
    el = op.result.type.element
    if lhs not in captured or rhs not in captured or el not in ("f32", "f64"):
        return None
    if lhs.type.element != el or rhs.type.element != el:
        return None
    shapes = (lhs.type.shape, rhs.type.shape, op.result.type.shape)
    dn = op.attr("dimension_numbers").fields
    batch = {(0, dn["input_batch_dimension"]), (2, dn["output_batch_dimension"])}
    if not all(isinstance(d, int) or (k, i) in batch
               for k, s in enumerate(shapes) for i, d in enumerate(s)):
        return None
    lsp = tuple(dn["input_spatial_dimensions"])
    ksp = tuple(dn["kernel_spatial_dimensions"])
    osp = tuple(dn["output_spatial_dimensions"])
    ns = len(lsp)
    gb = getattr(op.attributes.get("batch_group_count"), "value", 1)
    if ns not in (1, 2) or gb != 1 or any(d != 1 for d in _attr_ints(op, "lhs_dilation", ns, 1)):
        return None
    groups = getattr(op.attributes.get("feature_group_count"), "value", 1)
    strides = _attr_ints(op, "window_strides", ns, 1)
    rdil = _attr_ints(op, "rhs_dilation", ns, 1)
    rev = _attr_ints(op, "window_reversal", ns, 0)
    pad = _padding(op, ns)
    lshape, kshape, oshape = shapes
    if not isinstance(oshape[-1], int):
        return None          # a batch-last result: the plan's rows need a static row length
    ls, ks = row_major_strides(lshape), row_major_strides(kshape)
    # A 1-D convolution is a 2-D one with a unit h dim of stride 0.
    sp = lambda dims, shape, k: shape[dims[k - (2 - ns)]] if k >= 2 - ns else 1
    spst = lambda dims, st, k: st[dims[k - (2 - ns)]] if k >= 2 - ns else 0
    kst = [spst(ksp, ks, k) for k in range(2)]
    w_offset = 0
    for k in range(2 - ns, 2):
        if rev[k - (2 - ns)]:
            w_offset += (sp(ksp, kshape, k) - 1) * kst[k]
            kst[k] = -kst[k]
    geo = lambda t, k: t[k - (2 - ns)] if k >= 2 - ns else 0
    return Convolution(
        op, lhs, rhs,
        N=lshape[dn["input_batch_dimension"]], H=sp(lsp, lshape, 0), W=sp(lsp, lshape, 1),
        C=lshape[dn["input_feature_dimension"]],
        KH=sp(ksp, kshape, 0), KW=sp(ksp, kshape, 1), IC=kshape[dn["kernel_input_feature_dimension"]],
        OC=kshape[dn["kernel_output_feature_dimension"]], OH=sp(osp, oshape, 0), OW=sp(osp, oshape, 1),
        groups=groups,
        stride=tuple(geo(strides, k) or 1 for k in range(2)),
        dilation=tuple(geo(rdil, k) or 1 for k in range(2)),
        pad_lo=tuple(geo([p[0] for p in pad], k) for k in range(2)),
        x_strides=(ls[dn["input_batch_dimension"]], spst(lsp, ls, 0), spst(lsp, ls, 1),
                   ls[dn["input_feature_dimension"]]),
        w_strides=(kst[0], kst[1], ks[dn["kernel_input_feature_dimension"]],
                   ks[dn["kernel_output_feature_dimension"]]),
        w_offset=w_offset,
        out_dims=(dn["output_batch_dimension"], osp[0] if ns == 2 else None, osp[-1],
                  dn["output_feature_dimension"]))


def convolution_plan(kernel, workgroup_work: int):
    """Loop-plan tuple (rows per workgroup, chunk, chunks, count) for a
    convolution kernel.  The count (one per ~MACS_PER_WORK x ``workgroup_work`` multiply-adds,
    at most one per output row and 64-channel unit) is what the host passes;
    the loop kernel tiles the result rows by it, the direct kernel splits its
    (row, channel block) units over it.  With a symbolic batch the rows per
    workgroup are fixed from the per-image sizes and the count is an
    expression of the batch the host evaluates."""
    c = kernel.convolution
    shape = kernel.shape
    if isinstance(c.N, Dim):
        return _dynamic_batch_plan(c, shape, workgroup_work)
    rows = 1
    for d in shape[:-1]:
        rows *= d
    total = rows * shape[-1] * c.reduction
    if total == 0:
        return 1, max(shape[-1], 1), 1, 0
    units = c.N * c.OH * -(-c.OC // UNIT_CHANNELS)
    want = max(1, min(units, -(-total // (workgroup_work * MACS_PER_WORK))))
    rpw = -(-rows // want)
    return rpw, shape[-1], 1, -(-rows // rpw)


def _dynamic_batch_plan(c: Convolution, shape, workgroup_work: int):
    """convolution_plan for a symbolic batch: what the static plan gives at a
    large batch (rows per workgroup: enough for a workgroup's work, at least
    one unit's), independent of the batch; the count is cdiv(rows, rpw)."""
    rows, per_image = 1, 1
    for d in shape[:-1]:
        rows = rows * d
        per_image *= d if isinstance(d, int) else 1
    per_row = shape[-1] * c.reduction
    if per_row == 0 or per_image == 0:
        return 1, max(shape[-1], 1), 1, 0
    units = c.OH * -(-c.OC // UNIT_CHANNELS)
    rpw = max(-(-per_image // units), -(-(workgroup_work * MACS_PER_WORK) // per_row))
    return rpw, shape[-1], 1, cdiv(rows, rpw)
