"""The op registry: every op tensorvm knows, declared once, as data.

One ``OpDef`` per op of the StableHLO and CHLO dialects (the op lists of
``StablehloOps.td`` / ``ChloOps.td``; tests/compiler/test_op_registry.py
fails when one lacks an entry), plus the ``func`` ops.  The verifier, the
printer, the host-value analysis, shape inference, constant folding and
dispatch formation read their tables from here (``dialects/stablehlo.py``
keeps the derived sets under their old names).

Fields:

- ``lowering``: how the op reaches code.
  ``elementwise``  one scalar expression per element (codegen/scalar.py,
                   codegen/body.py); ``arity`` is its operand count for the
                   scalar emitter (None: map and reduce_precision, which carry
                   their own emitters).
  ``structured``   a loop-kernel op; ``fusion`` says how dispatch formation
                   treats it: ``index_remap`` (fuses into consumers as index
                   arithmetic), ``heavy`` (roots its own dispatch unless taken
                   as an epilogue), ``sequential`` (a sequential workgroup
                   program writing its outputs; codegen/sequential.py),
                   ``constant``.
  ``host``         control flow, calls, tuples, custom calls, collectives and
                   shape queries: run by the host program, never a kernel.
  ``decomposed``   rewritten into other ops before dispatch
                   (passes/canonicalize.py); ``reason`` says into what.
  ``rejected``     compiling it raises ``UnsupportedOpError`` naming the op;
                   ``reason`` says why.
- ``operands`` / ``results``: exact counts the verifier checks (None: not
  checked by count); ``min_operands``: the fewest operands of a variadic op
  (such an op also needs a result).  ``regions``: a fixed region count the
  verifier checks, each with a body (None: not checked); ``region_return``:
  region blocks end with ``stablehlo.return``.
- ``types``: ``same_element`` (operands and result share one element type) or
  ``keeps_element`` (the result keeps operand 0's element type).
- ``commutative``: a commutative binary op; the pretty ``reduce ... applies OP``
  form may name it (frontend/region_forms.py).
- ``keywords``: the ``key = value`` items of its pretty form, as
  ``(keyword, attribute, "dims" | "int" | "string")``: ``dims = [1, 0]`` is a
  dense i64 array, ``dim = 1`` an i64 integer, ``config = "ab->ba"`` a string.  The parser accepts them
  (frontend/op_forms.py) and the printer writes them for ``pretty`` ops.
- ``syntax``: ``pretty`` (the default ``name operands attrs : types`` form
  prints and parses) or ``own`` (a form of its own, in frontend/op_forms.py /
  region_forms.py and ir/printer.py; the generic form always parses).
- ``host_value``: small results of this op may be computed on the host
  (passes/host_values.py).
- ``shape``: the name of its rule in passes/shape_rules.py (None: the generic
  rule, which keeps the declared result types).
- ``fold``: ``(numpy ufunc name, "float" | "int" | "float+int")``: constant
  operands of these element kinds fold exactly (passes/fold.py).
- ``int_attrs``: the dialect's constrained integer attributes
  (``ConfinedAttr<I64Attr, [IntPositive]>`` ...), as ``(attribute, bits,
  "positive" | "non-negative")``; the verifier checks them with the dialect's
  message, located where MLIR reports them (ir/op_constraints.py).
- ``unranked``: which operands may be unranked tensors (``tensor<*xT>``, the
  dialect's ``TensorOf`` rather than ``RankedTensorOf``): ``ANY`` for all of
  them, or a tuple of operand indices; the results of such an op may be
  unranked too.  Every other op of the dialects takes ranked tensors.
- ``terminator``: the op has MLIR's ``Terminator`` trait; a ``func.func``
  body block may end with any such op, as MLIR allows (compiling needs
  ``func.return`` there: pipeline.py).
- ``in_td``: False for names the dialect files do not define (func ops, and
  ``stablehlo.atan``, accepted as CHLO's atan).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

ELEMENTWISE, STRUCTURED, HOST, DECOMPOSED, REJECTED = (
    "elementwise", "structured", "host", "decomposed", "rejected")
LOWERINGS = (ELEMENTWISE, STRUCTURED, HOST, DECOMPOSED, REJECTED)
INDEX_REMAP, HEAVY, SEQUENTIAL, CONSTANT = "index_remap", "heavy", "sequential", "constant"
SAME_ELEMENT, KEEPS_ELEMENT = "same_element", "keeps_element"
PRETTY, OWN = "pretty", "own"
ANY = "any"
POSITIVE, NON_NEGATIVE = "positive", "non-negative"


@dataclass(frozen=True)
class OpDef:
    name: str
    lowering: str
    arity: Optional[int] = None
    fusion: Optional[str] = None
    operands: Optional[int] = None
    results: Optional[int] = None
    min_operands: Optional[int] = None
    regions: Optional[int] = None
    region_return: bool = False
    types: Optional[str] = None
    commutative: bool = False
    keywords: tuple = ()
    syntax: str = PRETTY
    host_value: bool = False
    shape: Optional[str] = None
    fold: Optional[tuple] = None
    reason: str = ""
    int_attrs: tuple = ()
    unranked: object = ()
    terminator: bool = False
    in_td: bool = True

    def __post_init__(self):
        if self.lowering not in LOWERINGS:
            raise ValueError(f"{self.name}: unknown lowering {self.lowering!r}")
        if (self.fusion is not None) != (self.lowering == STRUCTURED):
            raise ValueError(f"{self.name}: fusion is for structured ops only, and required there")
        if self.lowering in (DECOMPOSED, REJECTED) and not self.reason:
            raise ValueError(f"{self.name}: a {self.lowering} op needs a reason")
        for attr, bits, pred in self.int_attrs:
            if bits not in (32, 64) or pred not in (POSITIVE, NON_NEGATIVE):
                raise ValueError(f"{self.name}: bad int_attrs entry for {attr}")
        if self.unranked != ANY and not isinstance(self.unranked, tuple):
            raise ValueError(f"{self.name}: unranked is ANY or a tuple of operand indices")


_op = OpDef

#: How every chlo.broadcast_* op is decomposed.
_CHLO_BROADCAST = ('broadcast_in_dim of the operands (numpy-style or along broadcast_dimensions), '
                   'then the elementwise op')

_OPS = (
    _op('func.call', HOST, syntax=OWN, in_td=False),
    _op('func.func', HOST, operands=0, results=0, syntax=OWN, in_td=False),
    _op('func.return', HOST, syntax=OWN, terminator=True, in_td=False),
    _op('chlo._asin_acos_kernel', ELEMENTWISE, arity=1, shape='elementwise', unranked=ANY),
    _op('chlo.acos', ELEMENTWISE, arity=1, shape='elementwise', unranked=ANY),
    _op('chlo.acosh', ELEMENTWISE, arity=1, shape='elementwise', unranked=ANY),
    _op('chlo.asin', ELEMENTWISE, arity=1, shape='elementwise', unranked=ANY),
    _op('chlo.asinh', ELEMENTWISE, arity=1, shape='elementwise', unranked=ANY),
    _op('chlo.atan', ELEMENTWISE, arity=1, shape='elementwise', unranked=ANY),
    _op('chlo.atanh', ELEMENTWISE, arity=1, shape='elementwise', unranked=ANY),
    _op('chlo.bessel_i1e', ELEMENTWISE, arity=1, shape='elementwise', unranked=ANY),
    _op('chlo.broadcast_add', DECOMPOSED, reason=_CHLO_BROADCAST, unranked=ANY),
    _op('chlo.broadcast_and', DECOMPOSED, reason=_CHLO_BROADCAST, unranked=ANY),
    _op('chlo.broadcast_atan2', DECOMPOSED, reason=_CHLO_BROADCAST, unranked=ANY),
    _op('chlo.broadcast_compare', DECOMPOSED, reason=_CHLO_BROADCAST, unranked=ANY),
    _op('chlo.broadcast_complex', DECOMPOSED, reason=_CHLO_BROADCAST, unranked=ANY),
    _op('chlo.broadcast_divide', DECOMPOSED, reason=_CHLO_BROADCAST, unranked=ANY),
    _op('chlo.broadcast_maximum', DECOMPOSED, reason=_CHLO_BROADCAST, unranked=ANY),
    _op('chlo.broadcast_minimum', DECOMPOSED, reason=_CHLO_BROADCAST, unranked=ANY),
    _op('chlo.broadcast_multiply', DECOMPOSED, reason=_CHLO_BROADCAST, unranked=ANY),
    _op('chlo.broadcast_next_after', DECOMPOSED, reason=_CHLO_BROADCAST, unranked=ANY),
    _op('chlo.broadcast_or', DECOMPOSED, reason=_CHLO_BROADCAST, unranked=ANY),
    _op('chlo.broadcast_polygamma', DECOMPOSED, reason=_CHLO_BROADCAST, unranked=ANY),
    _op('chlo.broadcast_power', DECOMPOSED, reason=_CHLO_BROADCAST, unranked=ANY),
    _op('chlo.broadcast_remainder', DECOMPOSED, reason=_CHLO_BROADCAST, unranked=ANY),
    _op('chlo.broadcast_select', DECOMPOSED, reason=_CHLO_BROADCAST, unranked=(1, 2)),
    _op('chlo.broadcast_shift_left', DECOMPOSED, reason=_CHLO_BROADCAST, unranked=ANY),
    _op('chlo.broadcast_shift_right_arithmetic', DECOMPOSED, reason=_CHLO_BROADCAST, unranked=ANY),
    _op('chlo.broadcast_shift_right_logical', DECOMPOSED, reason=_CHLO_BROADCAST, unranked=ANY),
    _op('chlo.broadcast_subtract', DECOMPOSED, reason=_CHLO_BROADCAST, unranked=ANY),
    _op('chlo.broadcast_xor', DECOMPOSED, reason=_CHLO_BROADCAST, unranked=ANY),
    _op('chlo.broadcast_zeta', DECOMPOSED, reason=_CHLO_BROADCAST, unranked=ANY),
    _op('chlo.conj', ELEMENTWISE, arity=1, shape='elementwise', unranked=ANY),
    _op('chlo.constant', DECOMPOSED, reason='stablehlo.constant'),
    _op('chlo.constant_like', DECOMPOSED, reason='a splat stablehlo.constant in the shape of its operand', unranked=ANY),
    _op('chlo.cosh', ELEMENTWISE, arity=1, shape='elementwise', unranked=ANY),
    _op('chlo.digamma', ELEMENTWISE, arity=1, shape='elementwise', unranked=ANY),
    _op('chlo.erf', ELEMENTWISE, arity=1, shape='elementwise', unranked=ANY),
    _op('chlo.erf_inv', ELEMENTWISE, arity=1, shape='elementwise', unranked=ANY),
    _op('chlo.erfc', ELEMENTWISE, arity=1, shape='elementwise', unranked=ANY),
    _op('chlo.is_inf', DECOMPOSED, reason='compare of abs(x) with +inf', unranked=ANY),
    _op('chlo.is_neg_inf', DECOMPOSED, reason='compare with -inf', unranked=ANY),
    _op('chlo.is_pos_inf', DECOMPOSED, reason='compare with +inf', unranked=ANY),
    _op('chlo.lgamma', ELEMENTWISE, arity=1, shape='elementwise', unranked=ANY),
    _op('chlo.mulhi', DECOMPOSED, reason='integer multiply of the widened halves'),
    _op('chlo.next_after', ELEMENTWISE, arity=2, shape='elementwise', unranked=ANY),
    _op('chlo.polygamma', ELEMENTWISE, arity=2, shape='elementwise', unranked=ANY),
    _op('chlo.ragged_dot', DECOMPOSED, reason='masked dot_general per group', unranked=(0, 1)),
    _op('chlo.scan', DECOMPOSED, syntax=OWN, reason='a stablehlo.while over the scan dimension', int_attrs=(('dimension', 64, NON_NEGATIVE), ('scan_dim_size', 64, NON_NEGATIVE),), unranked=ANY),
    _op('chlo.sinh', ELEMENTWISE, arity=1, shape='elementwise', unranked=ANY),
    _op('chlo.square', ELEMENTWISE, arity=1, shape='elementwise', unranked=ANY),
    _op('chlo.tan', ELEMENTWISE, arity=1, shape='elementwise', unranked=ANY),
    _op('chlo.top_k', STRUCTURED, fusion=SEQUENTIAL, syntax=OWN, shape='top_k', keywords=(('k', 'k', 'int'),), unranked=ANY),
    _op('chlo.zeta', ELEMENTWISE, arity=2, shape='elementwise', unranked=ANY),
    _op('stablehlo.abs', ELEMENTWISE, arity=1, operands=1, results=1, host_value=True, shape='elementwise', fold=('absolute', 'float')),
    _op('stablehlo.add', ELEMENTWISE, arity=2, commutative=True, operands=2, results=1, types=SAME_ELEMENT, host_value=True, shape='elementwise', fold=('add', 'float+int')),
    _op('stablehlo.after_all', HOST),
    _op('stablehlo.all_gather', HOST, syntax=OWN, keywords=(('dim', 'all_gather_dim', 'int'),), int_attrs=(('all_gather_dim', 64, NON_NEGATIVE),)),
    _op('stablehlo.all_reduce', HOST, region_return=True),
    _op('stablehlo.all_to_all', HOST, int_attrs=(('split_dimension', 64, NON_NEGATIVE), ('concat_dimension', 64, NON_NEGATIVE), ('split_count', 64, POSITIVE),)),
    _op('stablehlo.and', ELEMENTWISE, arity=2, commutative=True, operands=2, results=1, types=SAME_ELEMENT, host_value=True, shape='elementwise', fold=('bitwise_and', 'int')),
    _op('stablehlo.async_done', DECOMPOSED, reason='forwards the values of the computation of its async_start'),
    _op('stablehlo.async_start', DECOMPOSED, reason='its called computation inlined in place (scheduling follows data flow)'),
    _op('stablehlo.atan', ELEMENTWISE, arity=1, shape='elementwise', in_td=False),
    _op('stablehlo.atan2', ELEMENTWISE, arity=2, operands=2, results=1, types=SAME_ELEMENT, shape='elementwise'),
    _op('stablehlo.batch_norm_grad', DECOMPOSED, reason='the spec decomposition: broadcast_in_dim along feature_index, elementwise ops, add-reduce over the other dims', int_attrs=(('feature_index', 64, NON_NEGATIVE),)),
    _op('stablehlo.batch_norm_inference', DECOMPOSED, reason='the spec decomposition: broadcast_in_dim along feature_index, elementwise ops, add-reduce over the other dims', int_attrs=(('feature_index', 64, NON_NEGATIVE),)),
    _op('stablehlo.batch_norm_training', DECOMPOSED, reason='the spec decomposition: broadcast_in_dim along feature_index, elementwise ops, add-reduce over the other dims', int_attrs=(('feature_index', 64, NON_NEGATIVE),)),
    _op('stablehlo.bitcast_convert', STRUCTURED, fusion=INDEX_REMAP, operands=1, results=1),
    _op('stablehlo.broadcast', STRUCTURED, fusion=INDEX_REMAP, operands=1, results=1, types=KEEPS_ELEMENT, keywords=(('sizes', 'broadcast_sizes', 'dims'),)),
    _op('stablehlo.broadcast_in_dim', STRUCTURED, fusion=INDEX_REMAP, operands=1, results=1, min_operands=1, types=KEEPS_ELEMENT, host_value=True, shape='broadcast_in_dim', keywords=(('dims', 'broadcast_dimensions', 'dims'),)),
    _op('stablehlo.case', HOST, region_return=True, shape='branches'),
    _op('stablehlo.cbrt', ELEMENTWISE, arity=1, operands=1, results=1, shape='elementwise'),
    _op('stablehlo.ceil', ELEMENTWISE, arity=1, operands=1, results=1, shape='elementwise'),
    _op('stablehlo.cholesky', STRUCTURED, fusion=SEQUENTIAL, shape='same_as_first'),
    _op('stablehlo.clamp', ELEMENTWISE, arity=3, operands=3, results=1, host_value=True, shape='elementwise'),
    _op('stablehlo.collective_broadcast', HOST),
    _op('stablehlo.collective_permute', HOST),
    _op('stablehlo.collective_reduce', HOST),
    _op('stablehlo.compare', ELEMENTWISE, arity=2, operands=2, results=1, syntax=OWN, host_value=True, shape='elementwise'),
    _op('stablehlo.complex', ELEMENTWISE, arity=2, operands=2, results=1, shape='elementwise'),
    _op('stablehlo.composite', DECOMPOSED, syntax=OWN, reason='inlined as a call of its decomposition'),
    _op('stablehlo.concatenate', STRUCTURED, fusion=INDEX_REMAP, results=1, min_operands=1, types=KEEPS_ELEMENT, host_value=True, shape='concatenate', keywords=(('dim', 'dimension', 'int'),), int_attrs=(('dimension', 64, NON_NEGATIVE),)),
    _op('stablehlo.constant', STRUCTURED, fusion=CONSTANT, operands=0, results=1, syntax=OWN, host_value=True, shape='nothing'),
    _op('stablehlo.convert', ELEMENTWISE, arity=1, operands=1, results=1, host_value=True, shape='elementwise'),
    _op('stablehlo.convolution', STRUCTURED, fusion=HEAVY, operands=2, results=1, syntax=OWN, shape='convolution', int_attrs=(('feature_group_count', 64, POSITIVE), ('batch_group_count', 64, POSITIVE),)),
    _op('stablehlo.cosine', ELEMENTWISE, arity=1, operands=1, results=1, shape='elementwise'),
    _op('stablehlo.count_leading_zeros', ELEMENTWISE, arity=1, operands=1, results=1, shape='elementwise'),
    _op('stablehlo.create_token', HOST),
    _op('stablehlo.cross-replica-sum', DECOMPOSED, reason='all_reduce with an add body over its replica_groups'),
    _op('stablehlo.custom_call', HOST, syntax=OWN, unranked=ANY),
    _op('stablehlo.divide', ELEMENTWISE, arity=2, operands=2, results=1, types=SAME_ELEMENT, host_value=True, shape='elementwise', fold=('divide', 'float')),
    _op('stablehlo.dot', DECOMPOSED, operands=2, results=1, syntax=OWN, shape='dot', reason='rewritten as dot_general'),
    _op('stablehlo.dot_general', STRUCTURED, fusion=HEAVY, operands=2, results=1, syntax=OWN, shape='dot_general'),
    _op('stablehlo.dynamic_broadcast_in_dim', STRUCTURED, fusion=INDEX_REMAP, min_operands=2, types=KEEPS_ELEMENT, shape='shape_operand_1', keywords=(('dims', 'broadcast_dimensions', 'dims'),)),
    _op('stablehlo.dynamic_conv', STRUCTURED, fusion=HEAVY, syntax=OWN, shape='convolution', int_attrs=(('feature_group_count', 64, POSITIVE), ('batch_group_count', 64, POSITIVE),)),
    _op('stablehlo.dynamic_gather', STRUCTURED, fusion=INDEX_REMAP, shape='gather'),
    _op('stablehlo.dynamic_iota', STRUCTURED, fusion=INDEX_REMAP, min_operands=1, shape='shape_operand_0', keywords=(('dim', 'iota_dimension', 'int'),), int_attrs=(('iota_dimension', 64, NON_NEGATIVE),)),
    _op('stablehlo.dynamic_pad', STRUCTURED, fusion=INDEX_REMAP, min_operands=5, shape='dynamic_pad'),
    _op('stablehlo.dynamic_reshape', STRUCTURED, fusion=INDEX_REMAP, min_operands=2, types=KEEPS_ELEMENT, shape='shape_operand_1'),
    _op('stablehlo.dynamic_slice', STRUCTURED, fusion=INDEX_REMAP, min_operands=1, types=KEEPS_ELEMENT, shape='nothing', keywords=(('sizes', 'slice_sizes', 'dims'),)),
    _op('stablehlo.dynamic_update_slice', STRUCTURED, fusion=INDEX_REMAP, min_operands=2, types=KEEPS_ELEMENT, shape='same_as_first'),
    _op('stablehlo.einsum', DECOMPOSED, keywords=(('config', 'einsum_config', 'string'),), reason='diagonal select + reduce, dot_general, transpose'),
    _op('stablehlo.exponential', ELEMENTWISE, arity=1, operands=1, results=1, shape='elementwise'),
    _op('stablehlo.exponential_minus_one', ELEMENTWISE, arity=1, operands=1, results=1, shape='elementwise'),
    _op('stablehlo.fft', STRUCTURED, fusion=HEAVY, syntax=OWN, keywords=(('length', 'fft_length', 'dims'),)),
    _op('stablehlo.floor', ELEMENTWISE, arity=1, operands=1, results=1, shape='elementwise'),
    _op('stablehlo.gather', STRUCTURED, fusion=INDEX_REMAP, operands=2, results=1, shape='gather'),
    _op('stablehlo.get_dimension_size', HOST, operands=1, results=1, host_value=True, shape='nothing', keywords=(('dim', 'dimension', 'int'),), int_attrs=(('dimension', 64, NON_NEGATIVE),)),
    _op('stablehlo.get_tuple_element', HOST, syntax=OWN, int_attrs=(('index', 32, NON_NEGATIVE),)),
    _op('stablehlo.if', HOST, regions=2, region_return=True, shape='branches'),
    _op('stablehlo.imag', ELEMENTWISE, arity=1, operands=1, results=1, shape='elementwise'),
    _op('stablehlo.infeed', HOST),
    _op('stablehlo.iota', STRUCTURED, fusion=INDEX_REMAP, operands=0, results=1, shape='nothing', keywords=(('dim', 'iota_dimension', 'int'),), int_attrs=(('iota_dimension', 64, NON_NEGATIVE),)),
    _op('stablehlo.is_finite', ELEMENTWISE, arity=1, operands=1, results=1, shape='elementwise'),
    _op('stablehlo.log', ELEMENTWISE, arity=1, operands=1, results=1, shape='elementwise'),
    _op('stablehlo.log_plus_one', ELEMENTWISE, arity=1, operands=1, results=1, shape='elementwise'),
    _op('stablehlo.logistic', ELEMENTWISE, arity=1, operands=1, results=1, shape='elementwise'),
    _op('stablehlo.map', ELEMENTWISE, min_operands=1, regions=1, region_return=True, shape='map'),
    _op('stablehlo.maximum', ELEMENTWISE, arity=2, commutative=True, operands=2, results=1, types=SAME_ELEMENT, host_value=True, shape='elementwise', fold=('maximum', 'float+int')),
    _op('stablehlo.minimum', ELEMENTWISE, arity=2, commutative=True, operands=2, results=1, types=SAME_ELEMENT, host_value=True, shape='elementwise', fold=('minimum', 'float+int')),
    _op('stablehlo.multiply', ELEMENTWISE, arity=2, commutative=True, operands=2, results=1, types=SAME_ELEMENT, host_value=True, shape='elementwise', fold=('multiply', 'float+int')),
    _op('stablehlo.negate', ELEMENTWISE, arity=1, operands=1, results=1, host_value=True, shape='elementwise', fold=('negative', 'float+int')),
    _op('stablehlo.not', ELEMENTWISE, arity=1, operands=1, results=1, host_value=True, shape='elementwise', fold=('invert', 'int')),
    _op('stablehlo.optimization_barrier', DECOMPOSED, reason='forwarded: its operands'),
    _op('stablehlo.or', ELEMENTWISE, arity=2, commutative=True, operands=2, results=1, types=SAME_ELEMENT, host_value=True, shape='elementwise', fold=('bitwise_or', 'int')),
    _op('stablehlo.outfeed', HOST),
    _op('stablehlo.pad', STRUCTURED, fusion=INDEX_REMAP, operands=2, results=1, min_operands=2, types=KEEPS_ELEMENT, shape='pad', keywords=(('low', 'edge_padding_low', 'dims'), ('high', 'edge_padding_high', 'dims'), ('interior', 'interior_padding', 'dims'))),
    _op('stablehlo.partition_id', HOST, host_value=True),
    _op('stablehlo.popcnt', ELEMENTWISE, arity=1, operands=1, results=1, shape='elementwise'),
    _op('stablehlo.power', ELEMENTWISE, arity=2, operands=2, results=1, types=SAME_ELEMENT, shape='elementwise'),
    _op('stablehlo.real', ELEMENTWISE, arity=1, operands=1, results=1, shape='elementwise'),
    _op('stablehlo.real_dynamic_slice', STRUCTURED, fusion=INDEX_REMAP, min_operands=4, shape='real_dynamic_slice'),
    _op('stablehlo.recv', HOST),
    _op('stablehlo.reduce', STRUCTURED, fusion=HEAVY, min_operands=2, regions=1, region_return=True, syntax=OWN, shape='reduce'),
    _op('stablehlo.reduce_precision', ELEMENTWISE, operands=1, results=1, syntax=OWN, shape='elementwise', int_attrs=(('exponent_bits', 32, POSITIVE), ('mantissa_bits', 32, NON_NEGATIVE),)),
    _op('stablehlo.reduce_scatter', HOST, region_return=True, int_attrs=(('scatter_dimension', 64, NON_NEGATIVE),)),
    _op('stablehlo.reduce_window', STRUCTURED, fusion=HEAVY, min_operands=2, regions=1, region_return=True, shape='reduce_window'),
    _op('stablehlo.remainder', ELEMENTWISE, arity=2, operands=2, results=1, types=SAME_ELEMENT, host_value=True, shape='elementwise'),
    _op('stablehlo.replica_id', HOST, host_value=True),
    _op('stablehlo.reshape', STRUCTURED, fusion=INDEX_REMAP, operands=1, results=1, types=KEEPS_ELEMENT, host_value=True, shape='reshape'),
    _op('stablehlo.return', HOST, terminator=True),
    _op('stablehlo.reverse', STRUCTURED, fusion=INDEX_REMAP, operands=1, results=1, min_operands=1, types=KEEPS_ELEMENT, shape='same_as_first', keywords=(('dims', 'dimensions', 'dims'),)),
    _op('stablehlo.rng', DECOMPOSED, syntax=OWN, reason='rng_bit_generator (THREE_FRY, a fixed key per op) bits mapped to [a, b) or Box-Muller normals'),
    _op('stablehlo.rng_bit_generator', STRUCTURED, fusion=SEQUENTIAL, syntax=OWN, shape='rng_bit_generator'),
    _op('stablehlo.round_nearest_afz', ELEMENTWISE, arity=1, operands=1, results=1, shape='elementwise'),
    _op('stablehlo.round_nearest_even', ELEMENTWISE, arity=1, operands=1, results=1, shape='elementwise'),
    _op('stablehlo.rsqrt', ELEMENTWISE, arity=1, operands=1, results=1, shape='elementwise'),
    _op('stablehlo.scatter', STRUCTURED, fusion=SEQUENTIAL, regions=1, region_return=True, shape='same_as_first'),
    _op('stablehlo.select', ELEMENTWISE, arity=3, operands=3, results=1, host_value=True, shape='elementwise'),
    _op('stablehlo.select_and_scatter', STRUCTURED, fusion=HEAVY, operands=3, results=1, regions=2, region_return=True, shape='same_as_first'),
    _op('stablehlo.send', HOST),
    _op('stablehlo.set_dimension_size', DECOMPOSED, syntax=OWN, reason='a static dim set to its own size forwards the operand; a dynamic or bounded result dim is a real_dynamic_slice of the first size elements', keywords=(('dim', 'dimension', 'int'),), int_attrs=(('dimension', 64, NON_NEGATIVE),)),
    _op('stablehlo.shift_left', ELEMENTWISE, arity=2, operands=2, results=1, types=SAME_ELEMENT, host_value=True, shape='elementwise'),
    _op('stablehlo.shift_right_arithmetic', ELEMENTWISE, arity=2, operands=2, results=1, types=SAME_ELEMENT, host_value=True, shape='elementwise'),
    _op('stablehlo.shift_right_logical', ELEMENTWISE, arity=2, operands=2, results=1, types=SAME_ELEMENT, host_value=True, shape='elementwise'),
    _op('stablehlo.sign', ELEMENTWISE, arity=1, operands=1, results=1, shape='elementwise'),
    _op('stablehlo.sine', ELEMENTWISE, arity=1, operands=1, results=1, shape='elementwise'),
    _op('stablehlo.slice', STRUCTURED, fusion=INDEX_REMAP, operands=1, results=1, min_operands=1, types=KEEPS_ELEMENT, syntax=OWN, host_value=True, shape='nothing'),
    _op('stablehlo.sort', STRUCTURED, fusion=SEQUENTIAL, min_operands=1, regions=1, region_return=True, shape='same_as_first'),
    _op('stablehlo.sqrt', ELEMENTWISE, arity=1, operands=1, results=1, shape='elementwise', fold=('sqrt', 'float')),
    _op('stablehlo.subtract', ELEMENTWISE, arity=2, operands=2, results=1, types=SAME_ELEMENT, host_value=True, shape='elementwise', fold=('subtract', 'float+int')),
    _op('stablehlo.tan', ELEMENTWISE, arity=1, operands=1, results=1, shape='elementwise'),
    _op('stablehlo.tanh', ELEMENTWISE, arity=1, operands=1, results=1, shape='elementwise'),
    _op('stablehlo.torch_index_select', DECOMPOSED, reason='gather of size-1 slices along dim, batch_dims as gather batching dims'),
    _op('stablehlo.transpose', STRUCTURED, fusion=INDEX_REMAP, operands=1, results=1, min_operands=1, types=KEEPS_ELEMENT, shape='transpose', keywords=(('dims', 'permutation', 'dims'),)),
    _op('stablehlo.triangular_solve', STRUCTURED, fusion=SEQUENTIAL, shape='same_as_first'),
    _op('stablehlo.tuple', HOST),
    _op('stablehlo.unary_einsum', DECOMPOSED, keywords=(('config', 'einsum_config', 'string'),), reason='diagonal select + reduce, transpose'),
    _op('stablehlo.uniform_dequantize', DECOMPOSED, reason='passes/quantized.py: the spec dequantize formula in float ops on the storage integers'),
    _op('stablehlo.uniform_quantize', DECOMPOSED, reason='passes/quantized.py: the spec quantize formula in float ops on the storage integers'),
    _op('stablehlo.while', HOST, regions=2, region_return=True, syntax=OWN, shape='while'),
    _op('stablehlo.xor', ELEMENTWISE, arity=2, commutative=True, operands=2, results=1, types=SAME_ELEMENT, host_value=True, shape='elementwise', fold=('bitwise_xor', 'int')),
)

OPS = {d.name: d for d in _OPS}
if len(OPS) != len(_OPS):
    raise ValueError("an op is declared twice in the registry")


def lookup(name: str) -> Optional[OpDef]:
    return OPS.get(name)


def names(**where) -> frozenset:
    """Names of the ops whose fields equal ``where`` (``names(lowering=HOST)``)."""
    return frozenset(d.name for d in _OPS
                     if all(getattr(d, k) == v for k, v in where.items()))


def rejected_reason(name: str) -> Optional[str]:
    """Why ``name`` does not compile, when the registry rejects it."""
    d = OPS.get(name)
    return d.reason if d is not None and d.lowering == REJECTED else None
