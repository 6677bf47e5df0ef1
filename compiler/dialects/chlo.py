"""The CHLO dialect: its ops, the rules its ``.td`` file states, and how
the compiler lowers each (elementwise special functions, decomposed
broadcast forms, top_k)."""
from __future__ import annotations

from ..ir.types import TensorType, is_complex, is_integer
from .opdef import ELEMENTWISE, STRUCTURED, DECOMPOSED, SEQUENTIAL, OWN, ANY, NON_NEGATIVE, SCALAR_CALL, defop
from .checks import attr_ints, compat_type, element_of, fail, shape_of
from .dims import dims_elementwise
from .quant_checks import element_kind


_C = "chlo."


_CHLO_SAME_ELEMENT = ("broadcast_add", "broadcast_subtract", "broadcast_multiply", "broadcast_divide",
                      "broadcast_remainder", "broadcast_maximum", "broadcast_minimum", "broadcast_power",
                      "broadcast_atan2", "broadcast_and", "broadcast_or", "broadcast_xor",
                      "broadcast_shift_left", "broadcast_shift_right_arithmetic",
                      "broadcast_shift_right_logical", "broadcast_next_after", "broadcast_polygamma",
                      "broadcast_zeta")


def _chlo_same_element(op):
    kinds = {element_kind(element_of(v)) for v in (*op.operands, *op.results) if isinstance(v.type, TensorType)}
    if len(kinds) > 1:
        fail(op, "requires compatible element types for all operands and results")


def _chlo_asin_acos_kernel(op):
    """ChloOps.td: HLO_AnyComplexTensor operand, the same type as result."""
    for v in (*op.operands, *op.results):
        if isinstance(v.type, TensorType) and not is_complex(element_of(v)):
            fail(op, f"operand #0 must be ranked tensor of complex values, but got '{v.type}'")
    _chlo_same_element(op)


def _chlo_mulhi(op):
    for i, v in enumerate(op.operands):
        el = element_of(v)
        if not is_integer(el) or el in ("i1", "ui1"):
            fail(op, f"operand #{i} must be ranked tensor of 2/4/8/16/32/64-bit integer values, "
                     f"but got '{v.type}'")


def _chlo_constant_like(op):
    value = op.attributes.get("value")
    vt = getattr(value, "type", None)
    vt = getattr(vt, "element", vt)
    if op.results and isinstance(vt, str) and isinstance(op.results[0].type, TensorType) and \
            vt != element_of(op.results[0]):
        fail(op, f"value's type doesn't match element return type: '{vt}' vs '{op.results[0].type}'")


def _chlo_top_k(op):
    xs = shape_of(op.operands[0]) if op.operands else None
    k = attr_ints(op, "k", (None,))[0]
    if xs is None:
        return
    if not xs:
        fail(op, "operand's rank must be at least 1 (failed to infer returned types)")
    if k is not None and xs[-1] is not None and xs[-1] < k:
        fail(op, f"operand's last dimension must be at least {k} (failed to infer returned types)")


def _chlo_scan(op):
    """scan: per-step slices of the inputs along ``dimension`` plus the carries
    are the body's arguments."""
    seg = attr_ints(op, "operandSegmentSizes", (len(op.operands), 0))
    n_in = seg[0]
    inputs, inits = op.operands[:n_in], op.operands[n_in:]
    if len(op.regions) != 1 or not op.regions[0].blocks:
        return
    args = op.regions[0].blocks[0].arguments
    if len(args) != len(op.operands):
        fail(op, f"expects {len(op.operands)} arguments in the body, but got {len(args)}")
    dim = attr_ints(op, "dimension", (0,))[0]
    size = op.attributes.get("scan_dim_size")
    size = attr_ints(op, "scan_dim_size")[0] if size is not None else None
    for i, v in enumerate(inputs):
        xs = shape_of(v)
        if xs is None:
            continue
        if not 0 <= dim < len(xs):
            fail(op, f"scan dimension of operand {i} is out of bounds")
        if size is not None and xs[dim] is not None and xs[dim] != size:
            fail(op, f"invalid scan dimension size of operand {i}")
        step = TensorType(xs[:dim] + xs[dim + 1:], element_of(v))
        if not compat_type(step, args[i].type):
            fail(op, f"operand and body argument {i} are incompatible")
    for j, v in enumerate(inits, start=len(inputs)):
        if not compat_type(v.type, args[j].type):
            fail(op, f"operand and body argument {j} are incompatible")


#: How every chlo.broadcast_* op is decomposed.
_CHLO_BROADCAST = ('broadcast_in_dim of the operands (numpy-style or along broadcast_dimensions), '
                   'then the elementwise op')


def _broadcasting(target, verify=(_chlo_same_element,), unranked=ANY):
    """The declaration of ``chlo.broadcast_<target's name>``: ``target`` after
    its operands are broadcast to one shape (passes/decompose.py)."""
    return defop('chlo.broadcast_' + target.split('.', 1)[1], DECOMPOSED, reason=_CHLO_BROADCAST,
                 unranked=unranked, verify=verify, broadcasts=target,
                 rewrite='decompose:_broadcast_elementwise')


# -- shape rules (opdef ``shape``; dialects/dims.py) ----------------------------------------

def _dims_top_k(S, op):
    """The operand's dims with k (attribute, or dynamic_top_k's host operand) last."""
    x = S.dims(op.operands[0])
    k = S.element(op.operands[1], 0) if len(op.operands) > 1 else \
        getattr(op.attributes.get("k"), "value", None)
    d = x[:-1] + (k,)
    return [d, d]


OPS = (
    *(_broadcasting(t) for t in (
        'stablehlo.add', 'stablehlo.and', 'stablehlo.atan2', 'stablehlo.divide',
        'stablehlo.maximum', 'stablehlo.minimum', 'stablehlo.multiply', 'chlo.next_after',
        'stablehlo.or', 'chlo.polygamma', 'stablehlo.power', 'stablehlo.remainder',
        'stablehlo.shift_left', 'stablehlo.shift_right_arithmetic',
        'stablehlo.shift_right_logical', 'stablehlo.subtract', 'stablehlo.xor', 'chlo.zeta')),
    _broadcasting('stablehlo.compare', verify=()),
    _broadcasting('stablehlo.complex', verify=()),
    _broadcasting('stablehlo.select', verify=(), unranked=(1, 2)),
    defop('chlo._asin_acos_kernel', ELEMENTWISE, arity=1, shape=dims_elementwise, unranked=ANY, verify=(_chlo_asin_acos_kernel,), complex_fn='asin_acos_kernel'),
    defop('chlo.acos', ELEMENTWISE, arity=1, shape=dims_elementwise, unranked=ANY, c_fn='acos', complex_fn='acos', recompute=SCALAR_CALL),
    defop('chlo.acosh', ELEMENTWISE, arity=1, shape=dims_elementwise, unranked=ANY, c_fn='acosh', complex_fn='acosh', recompute=SCALAR_CALL),
    defop('chlo.asin', ELEMENTWISE, arity=1, shape=dims_elementwise, unranked=ANY, c_fn='asin', complex_fn='asin', recompute=SCALAR_CALL),
    defop('chlo.asinh', ELEMENTWISE, arity=1, shape=dims_elementwise, unranked=ANY, c_fn='asinh', complex_fn='asinh', recompute=SCALAR_CALL),
    defop('chlo.atan', ELEMENTWISE, arity=1, shape=dims_elementwise, unranked=ANY, c_fn='atan', complex_fn='atan', recompute=SCALAR_CALL),
    defop('chlo.atanh', ELEMENTWISE, arity=1, shape=dims_elementwise, unranked=ANY, c_fn='atanh', complex_fn='atanh', recompute=SCALAR_CALL),
    defop('chlo.bessel_i1e', ELEMENTWISE, arity=1, shape=dims_elementwise, unranked=ANY, c_fn='tvm_bessel_i1e', recompute=SCALAR_CALL),
    defop('chlo.conj', ELEMENTWISE, arity=1, shape=dims_elementwise, unranked=ANY, complex_fn='conj'),
    defop('chlo.constant', DECOMPOSED, reason='stablehlo.constant', rewrite='decompose:_constant'),
    defop('chlo.constant_like', DECOMPOSED, reason='a splat stablehlo.constant in the shape of its operand', unranked=ANY, verify=(_chlo_constant_like,), rewrite='decompose:_constant_like'),
    defop('chlo.cosh', ELEMENTWISE, arity=1, shape=dims_elementwise, unranked=ANY, c_fn='cosh', complex_fn='cosh', recompute=SCALAR_CALL),
    defop('chlo.digamma', ELEMENTWISE, arity=1, shape=dims_elementwise, unranked=ANY, c_fn='tvm_digamma', recompute=SCALAR_CALL),
    defop('chlo.erf', ELEMENTWISE, arity=1, shape=dims_elementwise, unranked=ANY, c_fn='erf'),
    defop('chlo.erf_inv', ELEMENTWISE, arity=1, shape=dims_elementwise, unranked=ANY, c_fn='tvm_erf_inv', recompute=SCALAR_CALL),
    defop('chlo.erfc', ELEMENTWISE, arity=1, shape=dims_elementwise, unranked=ANY, c_fn='erfc', recompute=SCALAR_CALL),
    defop('chlo.is_inf', DECOMPOSED, reason='compare of abs(x) with +inf', unranked=ANY, rewrite='decompose:_is_inf'),
    defop('chlo.is_neg_inf', DECOMPOSED, reason='compare with -inf', unranked=ANY, rewrite='decompose:_is_inf'),
    defop('chlo.is_pos_inf', DECOMPOSED, reason='compare with +inf', unranked=ANY, rewrite='decompose:_is_inf'),
    defop('chlo.lgamma', ELEMENTWISE, arity=1, shape=dims_elementwise, unranked=ANY, c_fn='lgamma', recompute=SCALAR_CALL),
    defop('chlo.mulhi', DECOMPOSED, reason='integer multiply of the widened halves', verify=(_chlo_mulhi,)),
    defop('chlo.next_after', ELEMENTWISE, arity=2, shape=dims_elementwise, unranked=ANY, c_fn='nextafter'),
    defop('chlo.polygamma', ELEMENTWISE, arity=2, shape=dims_elementwise, unranked=ANY, c_fn='tvm_polygamma', recompute=SCALAR_CALL),
    defop('chlo.ragged_dot', DECOMPOSED, reason='masked dot_general per group', unranked=(0, 1)),
    defop('chlo.scan', DECOMPOSED, syntax=OWN, reason='a stablehlo.while over the scan dimension', int_attrs=(('dimension', 64, NON_NEGATIVE), ('scan_dim_size', 64, NON_NEGATIVE),), unranked=ANY, verify=(_chlo_scan,), parser='parse_scan'),
    defop('chlo.sinh', ELEMENTWISE, arity=1, shape=dims_elementwise, unranked=ANY, c_fn='sinh', complex_fn='sinh', recompute=SCALAR_CALL),
    defop('chlo.square', ELEMENTWISE, arity=1, shape=dims_elementwise, unranked=ANY),
    defop('chlo.tan', ELEMENTWISE, arity=1, shape=dims_elementwise, unranked=ANY, c_fn='tan', recompute=SCALAR_CALL),
    defop('chlo.top_k', STRUCTURED, fusion=SEQUENTIAL, syntax=OWN, shape=_dims_top_k, keywords=(('k', 'k', 'int'),), unranked=ANY, verify=(_chlo_top_k,), program='sequential:_top_k', parser='parse_paren_default'),
    defop('chlo.zeta', ELEMENTWISE, arity=2, shape=dims_elementwise, unranked=ANY, c_fn='tvm_zeta', recompute=SCALAR_CALL),
)
