"""Quantized element types in the verifier: parsing ``!quant.uniform``
parameters, well-formedness of every quantized operand and result, and the
rule that shape ops keep their operand's quantization."""
from __future__ import annotations

from .checks import S, attr_ints, element_of, fail, is_quant, shape_of


def quant_params(el: str):
    """(storage, lo, hi, expressed, axis or None, [(scale, zero point)]) of a
    ``!quant.uniform`` element type, or None when it is not one we read."""
    from ..ir import quant
    try:
        q = quant.parse(el)
    except quant.QuantTypeError:
        return None
    return q.storage, q.storage_min, q.storage_max, q.expressed, q.axis, list(zip(q.scales, q.zero_points))


def quant_types(op):
    """Every quantized operand/result type is well formed: zero points within the
    storage range, the quantized dimension inside the shape, one scale per slice."""
    for i, v in enumerate(list(op.operands) + list(op.results)):
        el = element_of(v)
        if not is_quant(el):
            continue
        q = quant_params(el)
        if q is None:
            continue
        storage, lo, hi, expressed, axis, params = q
        what = f"operand #{i}" if i < len(op.operands) else f"result #{i - len(op.operands)}"
        bad = storage.startswith("s") or any(not lo <= zp <= hi for _, zp in params)   # si8: not signless
        shape = shape_of(v)
        if axis is not None and shape is not None:
            bad = bad or not 0 <= axis < len(shape) or \
                (shape[axis] is not None and len(params) != shape[axis])
        if bad:
            fail(op, f"{what} must be ranked tensor of well-formed quantized values, but got '{v.type}'")


def scale_range(expressed: str):
    """(smallest positive, largest finite) value of a float type, or None."""
    import numpy as np
    try:
        import ml_dtypes
        dtype = {"bf16": ml_dtypes.bfloat16, "f16": np.float16, "f32": np.float32, "f64": np.float64}.get(expressed)
        info = ml_dtypes.finfo(dtype) if dtype is not None else None
    except ImportError:
        dtype = {"f16": np.float16, "f32": np.float32, "f64": np.float64}.get(expressed)
        info = np.finfo(dtype) if dtype is not None else None
    return None if info is None else (float(info.smallest_subnormal), float(info.max))


def same_quant(op, x, r):
    """Shape ops keep the quantization of their operand (per-tensor: same scale
    and zero point; per-axis: the same scales on the moved axis)."""
    qx, qr = quant_params(element_of(x)), quant_params(element_of(r))
    if qx is None or qr is None:
        return
    if qx[4] is None and qr[4] is None:
        if qx[5] != qr[5]:
            fail(op, "expect same quantization scale and zero_point")
        return
    if (qx[4] is None) != (qr[4] is None):
        fail(op, "expect same quantization scale and zero_point")
    axis_x, axis_r = qx[4], qr[4]
    if op.name == S + "transpose":
        perm = attr_ints(op, "permutation")
        if axis_r < len(perm) and perm[axis_r] != axis_x:
            fail(op, f"operand quantization_dimension {axis_x} is not same as permutation[{axis_r}] = "
                     f"{perm[axis_r]}")
    if op.name in (S + "broadcast_in_dim", S + "dynamic_broadcast_in_dim"):
        dims = attr_ints(op, "broadcast_dimensions")
        if axis_x < len(dims) and dims[axis_x] != axis_r:
            fail(op, f"result quantization_dimension {axis_r} not same as broadcast_dimensions"
                     f"[{axis_x}] = {dims[axis_x]}")
        px = qx[5] * len(qr[5]) if len(qx[5]) == 1 else qx[5]     # a size-1 axis broadcasts its scale
        if len(px) == len(qr[5]):
            for k, ((sx, zx), (sr, zr)) in enumerate(zip(px, qr[5])):
                if sx != sr:
                    fail(op, f"mismatch result scale {k} ({sr:e}) and operand scale {k} ({sx:e})")
                if zx != zr:
                    fail(op, f"mismatch result zero_point {k} ({zr}) and operand zero_point {k} ({zx})")
        return
    if qx[5] != qr[5] and len(qx[5]) == len(qr[5]):
        fail(op, "expect same quantization scales and zero_points")
    if op.name == S + "reshape":
        xs, rs = shape_of(x), shape_of(r)
        if xs is not None and rs is not None and axis_r < len(rs) and axis_x < len(xs):
            if xs[axis_x] != rs[axis_r]:
                fail(op, "expect same quantization dimension size for operand and result")
            before = [1, 1]
            for k, (shape, axis) in enumerate(((xs, axis_x), (rs, axis_r))):
                for d in shape[:axis]:
                    before[k] = None if d is None or before[k] is None else before[k] * d
            if None not in before and before[0] != before[1]:
                fail(op, "product of dimensions before quantization dimension must match between "
                         "operand and result")


def keeps_quant(op):
    """Verify rule of the shape ops: the result keeps operand 0's quantization."""
    if op.operands and op.results:
        same_quant(op, op.operands[0], op.results[0])


def element_kind(el: str):
    """An element type up to quantization parameters (storage, expressed)."""
    q = quant_params(el) if is_quant(el) else None
    return (q[0], q[3]) if q is not None else el
