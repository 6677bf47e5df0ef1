"""StableHLO elementwise ops (arithmetic, math, logic, comparison,
conversion, quantize) and the spec rules that check them."""
from __future__ import annotations

from ...ir.types import TensorType, is_complex
from ..opdef import (
    ELEMENTWISE, STRUCTURED, DECOMPOSED, INDEX_REMAP, SAME_ELEMENT, OWN, POSITIVE, NON_NEGATIVE,
    FLOAT_OR_COMPLEX, FLOAT, INTEGER, INT_OR_BOOL, MOVE, IDEMPOTENT, ORDER_PICK, NATIVE_SCALAR, EXACT_FLOAT,
    CHEAP, VECTOR, SCALAR_CALL, SCALAR_OPERANDS, CONDITIONAL, SELECTION, defop)
from ..checks import (
    always, compat_shapes, component, element_of, expect_result, fail, fail_structure, is_quant,
    rank_of, shape_of, within_bounds)
from ..dims import dims_elementwise
from ..quant_checks import quant_params


def _elementwise(op):
    name = op.short_name
    tensors = [v for v in list(op.operands) + list(op.results) if isinstance(v.type, TensorType)]
    shapes = [shape_of(v) for v in tensors]
    for v, s in zip(tensors[1:], shapes[1:]):
        if not compat_shapes(shapes[0], s):
            fail(op, f"requires compatible shapes for all operands and results, got "
                     f"'{tensors[0].type}' and '{v.type}'")
    within_bounds(op, tensors)
    if name == "is_finite" and op.results and element_of(op.results[0]) != "i1":
        fail(op, f"result #0 must be ranked tensor of bool values, but got '{op.results[0].type}'")


def _select(op):
    ps, ts, fs = (shape_of(v) for v in op.operands[:3])
    if ts is None or fs is None:
        return
    if not compat_shapes(ts, fs):
        fail(op, "requires compatible types for non-predicate operands")
    if ps not in (None, ()) and not compat_shapes(ps, ts):
        fail(op, "requires the same shape for all operands")
    if element_of(op.operands[0]) != "i1":
        fail(op, f"operand #0 must be ranked tensor of bool values, but got '{op.operands[0].type}'")
    expect_result(op, ts)
    el, rel = element_of(op.operands[1]), element_of(op.results[0])
    if rel and el != rel and not (is_quant(el) or is_quant(rel)):
        fail(op, f"inferred type(s) '{op.operands[1].type}' are incompatible with return type(s) of "
                 f"operation '{op.results[0].type}' (failed to infer returned types)")


def _clamp(op):
    ms, xs, Ms = (shape_of(v) for v in op.operands[:3])
    if xs is None:
        return
    for name, s in (("min", ms), ("max", Ms)):
        if s not in (None, ()) and not compat_shapes(s, xs):
            fail(op, f"{name} shape {list(s)} is not scalar and is not compatible to operand "
                     f"shape {list(xs)}")
    expect_result(op, xs)


def _abs(op):
    """abs: complex<T> -> T, otherwise the operand's element type."""
    x, r = op.operands[0], op.results[0]
    want = component(element_of(x))
    if isinstance(r.type, TensorType) and element_of(r) != want and not (is_quant(want) or is_quant(element_of(r))):
        fail(op, f"inferred type(s) '{TensorType(shape_of(x), want)}' are incompatible with return "
                 f"type(s) of operation '{r.type}' (failed to infer returned types)")


def _real_imag(op):
    """real / imag: the result holds the operand's component type."""
    x, r = op.operands[0], op.results[0]
    want = component(element_of(x))
    if isinstance(r.type, TensorType) and element_of(r) != want:
        fail(op, f"inferred type(s) '{TensorType(shape_of(x), want)}' are incompatible with return "
                 f"type(s) of operation '{r.type}' (failed to infer returned types)")


def _bitcast_convert(op):
    from ...ir.types import bit_width
    x, r = op.operands[0], op.results[0]
    xs, rs, xe, re_ = shape_of(x), shape_of(r), element_of(x), element_of(r)
    if xs is None or rs is None:
        return
    if is_quant(xe) or is_quant(re_):       # quantized: its storage type's width
        qx, qr = quant_params(xe) if is_quant(xe) else None, quant_params(re_) if is_quant(re_) else None
        if (is_quant(xe) and qx is None) or (is_quant(re_) and qr is None):
            return
        xe, re_ = (qx[0].lstrip("s") if qx else xe), (qr[0].lstrip("s") if qr else re_)
    if is_complex(xe) != is_complex(re_):
        fail(op, "cannot convert between real and complex types")
    wx, wr = bit_width(xe), bit_width(re_)
    if wx == wr:
        if not compat_shapes(xs, rs):
            fail(op, "operand and result shapes must match except for the innermost dimension of "
                     "the shape with the smaller element type")
        return
    small, large, ws, wl = (rs, xs, wr, wx) if wr < wx else (xs, rs, wx, wr)
    if len(small) != len(large) + 1:
        fail(op, f"rank of smaller element type ({len(small)}) should be 1 more than rank of larger "
                 f"element type ({len(large)}), but {len(small)} != {len(large)} + 1.")
    if not compat_shapes(small[:-1], large):
        fail(op, "operand and result shapes must match except for the innermost dimension of the "
                 "shape with the smaller element type")
    if small[-1] is not None and small[-1] * ws != wl:
        fail(op, f"requires compatible bit widths. Got: '{x.type}' and '{r.type}', but "
                 f"{ws} * {small[-1]} != {wl}.")


def _add_quant(op):
    """add on quantized tensors (spec add C2-C7): all quantized or none, one
    storage and one expressed type, per-axis operands keep the result's axis."""
    tensors = [v for v in (*op.operands, *op.results) if isinstance(v.type, TensorType)]
    quant = [is_quant(element_of(v)) for v in tensors]
    if not any(quant):
        return
    if not all(quant):
        fail(op, "expects all operands and results to be either quantized or non-quantized")
    qs = [quant_params(element_of(v)) for v in tensors]
    if any(q is None for q in qs):
        return
    if len({q[0] for q in qs}) > 1:
        fail(op, "mismatched operands and result quantization storage types")
    if len({q[3] for q in qs}) > 1:
        fail(op, "mismatched operands and result quantization expressed types")
    *ins, out = qs
    if out[4] is None and any(q[4] is not None for q in ins):
        fail(op, "result is not per_axis quantized but lhs or rhs are")
    for name, q in zip(("lhs", "rhs"), ins):
        if q[4] is not None and q[4] != out[4]:
            fail(op, f"quantization_dimension of {name} and result are not same")


def _uniform_quantize(op):
    x, r = op.operands[0], op.results[0]
    q = quant_params(element_of(r))
    want = element_of(x)
    if is_quant(want):                  # requantization keeps the expressed type
        qx = quant_params(want)
        want = qx[3] if qx is not None else None
    if q is not None and want is not None and q[3] != want:
        fail(op, f"Expressed type of result expected to be '{want}', but got '{q[3]}'")


def _compare_direction(v, op, func):
    if rank_of(op.operands) is not None and op.attributes.get("comparison_direction") is None:
        fail_structure(op, "needs a comparison_direction attribute")


OPS = (
    defop('stablehlo.abs', ELEMENTWISE, arity=1, operands=1, results=1, host_value=True, shape=dims_elementwise, fold=('absolute', 'float'), verify=(_elementwise, _abs,), per_axis=False, complex_fn='abs', traits=(NATIVE_SCALAR, EXACT_FLOAT), c_fn='fabs', recompute=CHEAP, host_unary='abs'),
    defop('stablehlo.add', ELEMENTWISE, arity=2, commutative=True, operands=2, results=1, types=SAME_ELEMENT, host_value=True, shape=dims_elementwise, fold=('add', 'float+int'), verify=(_elementwise, _add_quant,), same_type=True, complex_fn='add', host_binary=('add', 'add'), identity=0, traits=(NATIVE_SCALAR,), c_infix='+', recompute=CHEAP, atomic='add'),
    defop('stablehlo.and', ELEMENTWISE, arity=2, commutative=True, operands=2, results=1, types=SAME_ELEMENT, host_value=True, shape=dims_elementwise, fold=('bitwise_and', 'int'), verify=(_elementwise,), elements=INT_OR_BOOL, same_type=True, per_axis=False, host_binary=('and', None), identity=-1, traits=(IDEMPOTENT, NATIVE_SCALAR, SELECTION), c_infix='&', recompute=CHEAP, atomic='and'),
    defop('stablehlo.atan', ELEMENTWISE, arity=1, shape=dims_elementwise, in_td=False),
    defop('stablehlo.atan2', ELEMENTWISE, arity=2, operands=2, results=1, types=SAME_ELEMENT, shape=dims_elementwise, verify=(_elementwise,), elements=FLOAT_OR_COMPLEX, same_type=True, per_axis=False, complex_fn='atan2', recompute=SCALAR_CALL),
    defop('stablehlo.bitcast_convert', STRUCTURED, fusion=INDEX_REMAP, operands=1, results=1, verify=(_bitcast_convert,), recompute=CHEAP, pull='pull_compute:bitcast_convert'),
    defop('stablehlo.cbrt', ELEMENTWISE, arity=1, operands=1, results=1, shape=dims_elementwise, verify=(_elementwise,), elements=FLOAT_OR_COMPLEX, same_type=True, per_axis=False, complex_fn='cbrt', recompute=SCALAR_CALL),
    defop('stablehlo.ceil', ELEMENTWISE, arity=1, operands=1, results=1, shape=dims_elementwise, verify=(_elementwise,), elements=FLOAT, same_type=True, per_axis=False, traits=(NATIVE_SCALAR,), c_fn='ceil', recompute=CHEAP),
    defop('stablehlo.clamp', ELEMENTWISE, arity=3, operands=3, results=1, host_value=True, shape=dims_elementwise, verify=(_clamp,), per_axis=False, quant=MOVE, recompute=CHEAP, traits=(SCALAR_OPERANDS, CONDITIONAL)),
    defop('stablehlo.compare', ELEMENTWISE, arity=2, operands=2, results=1, syntax=OWN, host_value=True, shape=dims_elementwise, verify=(_elementwise,), per_axis=False, structure=(_compare_direction,), traits=(NATIVE_SCALAR, CONDITIONAL, SELECTION), recompute=CHEAP),
    defop('stablehlo.complex', ELEMENTWISE, arity=2, operands=2, results=1, shape=dims_elementwise, verify=(_elementwise,), recompute=CHEAP),
    defop('stablehlo.convert', ELEMENTWISE, arity=1, operands=1, results=1, host_value=True, shape=dims_elementwise, noop=always, traits=(NATIVE_SCALAR,), recompute=CHEAP),
    defop('stablehlo.cosine', ELEMENTWISE, arity=1, operands=1, results=1, shape=dims_elementwise, verify=(_elementwise,), elements=FLOAT_OR_COMPLEX, same_type=True, per_axis=False, complex_fn='cos', recompute=SCALAR_CALL),
    defop('stablehlo.count_leading_zeros', ELEMENTWISE, arity=1, operands=1, results=1, shape=dims_elementwise, verify=(_elementwise,), elements=INTEGER, same_type=True, per_axis=False),
    defop('stablehlo.divide', ELEMENTWISE, arity=2, operands=2, results=1, types=SAME_ELEMENT, host_value=True, shape=dims_elementwise, fold=('divide', 'float'), verify=(_elementwise,), same_type=True, per_axis=False, complex_fn='div', host_binary=(None, 'div'), traits=(NATIVE_SCALAR,), c_infix='/', recompute=VECTOR),
    defop('stablehlo.exponential', ELEMENTWISE, arity=1, operands=1, results=1, shape=dims_elementwise, verify=(_elementwise,), elements=FLOAT_OR_COMPLEX, same_type=True, per_axis=False, complex_fn='exp', traits=(NATIVE_SCALAR,), c_fn='exp'),
    defop('stablehlo.exponential_minus_one', ELEMENTWISE, arity=1, operands=1, results=1, shape=dims_elementwise, verify=(_elementwise,), elements=FLOAT_OR_COMPLEX, same_type=True, per_axis=False, complex_fn='expm1', recompute=SCALAR_CALL),
    defop('stablehlo.floor', ELEMENTWISE, arity=1, operands=1, results=1, shape=dims_elementwise, verify=(_elementwise,), elements=FLOAT, same_type=True, per_axis=False, traits=(NATIVE_SCALAR,), c_fn='floor', recompute=CHEAP),
    defop('stablehlo.imag', ELEMENTWISE, arity=1, operands=1, results=1, shape=dims_elementwise, verify=(_elementwise, _real_imag,), recompute=CHEAP),
    defop('stablehlo.is_finite', ELEMENTWISE, arity=1, operands=1, results=1, shape=dims_elementwise, verify=(_elementwise,), elements=FLOAT, per_axis=False),
    defop('stablehlo.log', ELEMENTWISE, arity=1, operands=1, results=1, shape=dims_elementwise, verify=(_elementwise,), elements=FLOAT_OR_COMPLEX, same_type=True, per_axis=False, complex_fn='log', traits=(NATIVE_SCALAR,), c_fn='log'),
    defop('stablehlo.log_plus_one', ELEMENTWISE, arity=1, operands=1, results=1, shape=dims_elementwise, verify=(_elementwise,), elements=FLOAT_OR_COMPLEX, same_type=True, per_axis=False, complex_fn='log1p', recompute=SCALAR_CALL),
    defop('stablehlo.logistic', ELEMENTWISE, arity=1, operands=1, results=1, shape=dims_elementwise, verify=(_elementwise,), elements=FLOAT_OR_COMPLEX, same_type=True, per_axis=False, complex_fn='logistic'),
    defop('stablehlo.maximum', ELEMENTWISE, arity=2, commutative=True, operands=2, results=1, types=SAME_ELEMENT, host_value=True, shape=dims_elementwise, fold=('maximum', 'float+int'), verify=(_elementwise,), same_type=True, per_axis=False, quant=MOVE, complex_fn='max', host_binary=(None, 'max'), traits=(IDEMPOTENT, ORDER_PICK, NATIVE_SCALAR, EXACT_FLOAT), recompute=CHEAP, atomic='max'),
    defop('stablehlo.minimum', ELEMENTWISE, arity=2, commutative=True, operands=2, results=1, types=SAME_ELEMENT, host_value=True, shape=dims_elementwise, fold=('minimum', 'float+int'), verify=(_elementwise,), same_type=True, per_axis=False, quant=MOVE, complex_fn='min', host_binary=(None, 'min'), traits=(IDEMPOTENT, ORDER_PICK, NATIVE_SCALAR, EXACT_FLOAT), recompute=CHEAP, atomic='min'),
    defop('stablehlo.multiply', ELEMENTWISE, arity=2, commutative=True, operands=2, results=1, types=SAME_ELEMENT, host_value=True, shape=dims_elementwise, fold=('multiply', 'float+int'), verify=(_elementwise,), same_type=True, per_axis=False, complex_fn='mul', host_binary=('mul', 'mul'), identity=1, traits=(NATIVE_SCALAR,), c_infix='*', recompute=CHEAP),
    defop('stablehlo.negate', ELEMENTWISE, arity=1, operands=1, results=1, host_value=True, shape=dims_elementwise, fold=('negative', 'float+int'), verify=(_elementwise,), same_type=True, per_axis=False, complex_fn='neg', traits=(NATIVE_SCALAR, EXACT_FLOAT), recompute=CHEAP, host_unary='neg'),
    defop('stablehlo.not', ELEMENTWISE, arity=1, operands=1, results=1, host_value=True, shape=dims_elementwise, fold=('invert', 'int'), verify=(_elementwise,), elements=INT_OR_BOOL, same_type=True, per_axis=False, traits=(NATIVE_SCALAR, SELECTION), recompute=CHEAP),
    defop('stablehlo.or', ELEMENTWISE, arity=2, commutative=True, operands=2, results=1, types=SAME_ELEMENT, host_value=True, shape=dims_elementwise, fold=('bitwise_or', 'int'), verify=(_elementwise,), elements=INT_OR_BOOL, same_type=True, per_axis=False, host_binary=('or', None), identity=0, traits=(IDEMPOTENT, NATIVE_SCALAR, SELECTION), c_infix='|', recompute=CHEAP, atomic='or'),
    defop('stablehlo.popcnt', ELEMENTWISE, arity=1, operands=1, results=1, shape=dims_elementwise, verify=(_elementwise,), elements=INTEGER, same_type=True, per_axis=False),
    defop('stablehlo.power', ELEMENTWISE, arity=2, operands=2, results=1, types=SAME_ELEMENT, shape=dims_elementwise, verify=(_elementwise,), same_type=True, per_axis=False, complex_fn='pow', recompute=SCALAR_CALL),
    defop('stablehlo.real', ELEMENTWISE, arity=1, operands=1, results=1, shape=dims_elementwise, verify=(_elementwise, _real_imag,), recompute=CHEAP),
    defop('stablehlo.reduce_precision', ELEMENTWISE, operands=1, results=1, syntax=OWN, shape=dims_elementwise, int_attrs=(('exponent_bits', 32, POSITIVE), ('mantissa_bits', 32, NON_NEGATIVE),), verify=(_elementwise,), per_axis=False, recompute=CHEAP, pull='pull_compute:reduce_precision'),
    defop('stablehlo.remainder', ELEMENTWISE, arity=2, operands=2, results=1, types=SAME_ELEMENT, host_value=True, shape=dims_elementwise, verify=(_elementwise,), same_type=True, per_axis=False, host_binary=(None, 'rem'), traits=(NATIVE_SCALAR,), c_infix='%', c_fn='fmod', recompute=SCALAR_CALL),
    defop('stablehlo.round_nearest_afz', ELEMENTWISE, arity=1, operands=1, results=1, shape=dims_elementwise, verify=(_elementwise,), elements=FLOAT, same_type=True, per_axis=False, recompute=SCALAR_CALL),
    defop('stablehlo.round_nearest_even', ELEMENTWISE, arity=1, operands=1, results=1, shape=dims_elementwise, verify=(_elementwise,), elements=FLOAT, same_type=True, per_axis=False, recompute=SCALAR_CALL),
    defop('stablehlo.rsqrt', ELEMENTWISE, arity=1, operands=1, results=1, shape=dims_elementwise, verify=(_elementwise,), elements=FLOAT_OR_COMPLEX, same_type=True, per_axis=False, complex_fn='rsqrt', traits=(NATIVE_SCALAR,), recompute=VECTOR),
    defop('stablehlo.select', ELEMENTWISE, arity=3, operands=3, results=1, host_value=True, shape=dims_elementwise, verify=(_select,), per_axis=False, quant=MOVE, traits=(NATIVE_SCALAR, SCALAR_OPERANDS, CONDITIONAL, SELECTION), recompute=CHEAP),
    defop('stablehlo.shift_left', ELEMENTWISE, arity=2, operands=2, results=1, types=SAME_ELEMENT, host_value=True, shape=dims_elementwise, verify=(_elementwise,), elements=INTEGER, same_type=True, per_axis=False, host_binary=('shl', None)),
    defop('stablehlo.shift_right_arithmetic', ELEMENTWISE, arity=2, operands=2, results=1, types=SAME_ELEMENT, host_value=True, shape=dims_elementwise, verify=(_elementwise,), elements=INTEGER, same_type=True, per_axis=False, host_binary=('shr.s', None)),
    defop('stablehlo.shift_right_logical', ELEMENTWISE, arity=2, operands=2, results=1, types=SAME_ELEMENT, host_value=True, shape=dims_elementwise, verify=(_elementwise,), elements=INTEGER, same_type=True, per_axis=False, host_binary=('shr.u', None)),
    defop('stablehlo.sign', ELEMENTWISE, arity=1, operands=1, results=1, shape=dims_elementwise, verify=(_elementwise,), same_type=True, per_axis=False, complex_fn='sign', traits=(NATIVE_SCALAR,), recompute=CHEAP),
    defop('stablehlo.sine', ELEMENTWISE, arity=1, operands=1, results=1, shape=dims_elementwise, verify=(_elementwise,), elements=FLOAT_OR_COMPLEX, same_type=True, per_axis=False, complex_fn='sin', recompute=SCALAR_CALL),
    defop('stablehlo.sqrt', ELEMENTWISE, arity=1, operands=1, results=1, shape=dims_elementwise, fold=('sqrt', 'float'), verify=(_elementwise,), elements=FLOAT_OR_COMPLEX, same_type=True, per_axis=False, complex_fn='sqrt', traits=(NATIVE_SCALAR,), c_fn='sqrt', recompute=VECTOR),
    defop('stablehlo.subtract', ELEMENTWISE, arity=2, operands=2, results=1, types=SAME_ELEMENT, host_value=True, shape=dims_elementwise, fold=('subtract', 'float+int'), verify=(_elementwise,), same_type=True, per_axis=False, complex_fn='sub', host_binary=('sub', 'sub'), traits=(NATIVE_SCALAR,), c_infix='-', recompute=CHEAP),
    defop('stablehlo.tan', ELEMENTWISE, arity=1, operands=1, results=1, shape=dims_elementwise, verify=(_elementwise,), elements=FLOAT_OR_COMPLEX, same_type=True, per_axis=False, complex_fn='tan', recompute=SCALAR_CALL),
    defop('stablehlo.tanh', ELEMENTWISE, arity=1, operands=1, results=1, shape=dims_elementwise, verify=(_elementwise,), elements=FLOAT_OR_COMPLEX, same_type=True, per_axis=False, complex_fn='tanh'),
    defop('stablehlo.uniform_dequantize', DECOMPOSED, reason='passes/quantized.py: the spec dequantize formula in float ops on the storage integers'),
    defop('stablehlo.uniform_quantize', DECOMPOSED, reason='passes/quantized.py: the spec quantize formula in float ops on the storage integers', verify=(_uniform_quantize,)),
    defop('stablehlo.xor', ELEMENTWISE, arity=2, commutative=True, operands=2, results=1, types=SAME_ELEMENT, host_value=True, shape=dims_elementwise, fold=('bitwise_xor', 'int'), verify=(_elementwise,), elements=INT_OR_BOOL, same_type=True, per_axis=False, host_binary=('xor', None), identity=0, traits=(NATIVE_SCALAR,), c_infix='^', recompute=CHEAP, atomic='xor'),
)
