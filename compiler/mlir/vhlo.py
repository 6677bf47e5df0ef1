"""StableHLO portable artifacts (VHLO bytecode) read natively, without jaxlib.

``read_portable_artifact(data)`` reads MLIR bytecode with ``bytecode.py``,
decodes the VHLO dialect's attributes and types (codes as in StableHLO's
VhloBytecode.cpp), and renders the module as StableHLO text in generic op
form -- the skeleton ``Source`` that ``parser.py`` reads.  Every dense
constant is left in the text as an empty ``dense<"">`` whose bytes wait in
``Source.blobs``: a ``memoryview`` of the input, which ``dense.decode_raw``
turns into a read-only numpy view, so weights are never copied into text or
held twice.  The skeleton is small (no constant data), and the parser keeps
its checks and its one home for every op and attribute form.

VHLO -> StableHLO follows StableHLO's legalisation: ``vhlo.<op>_v<N>`` becomes
``stablehlo.<op>`` (``func_v1``/``call_v1``/``return_v1`` the func dialect's),
attributes that VHLO keeps apart are gathered into their StableHLO structs
(``#stablehlo.dot``, ``gather``, ``scatter``, ``conv``, ``channel_handle``,
``dot_algorithm``), i64 lists StableHLO holds as ``array<i64: ...>`` become
that, and attributes at their default value are dropped.  Each op's
properties are its attributes in name order (the table below: VhloOps.td's
attribute names).  An op, attribute or type this reader does not know
raises ``BytecodeError(unsupported=True)`` naming it.
"""
from __future__ import annotations

import re

import numpy as np

from .attr_parser import CONV_FIELDS
from .bytecode import Asm, Attr, BytecodeError, BytecodeFile, Cursor, DialectReader, Malformed
from .bytecode import Type, composite_type, float_width, int_width
from .source import Source

_NO_ATTRIBUTES = frozenset((
    "abs_v1", "add_v1", "after_all_v1", "and_v1", "async_done_v1", "async_start_v1",
    "atan2_v1", "bitcast_convert_v1", "case_v1", "cbrt_v1", "ceil_v1", "clamp_v1",
    "complex_v1", "convert_v1", "cosine_v1", "count_leading_zeros_v1", "create_token_v1",
    "divide_v1", "dot_v1", "dynamic_pad_v1", "dynamic_reshape_v1", "dynamic_update_slice_v1",
    "exponential_minus_one_v1", "exponential_v1", "floor_v1", "if_v1", "imag_v1",
    "is_finite_v1", "log_plus_one_v1", "log_v1", "logistic_v1", "maximum_v1", "minimum_v1",
    "multiply_v1", "negate_v1", "not_v1", "optimization_barrier_v1", "or_v1",
    "partition_id_v1", "popcnt_v1", "power_v1", "real_dynamic_slice_v1", "real_v1",
    "remainder_v1", "replica_id_v1", "reshape_v1", "return_v1", "round_nearest_afz_v1",
    "round_nearest_even_v1", "rsqrt_v1", "select_v1", "shift_left_v1",
    "shift_right_arithmetic_v1", "shift_right_logical_v1", "sign_v1", "sine_v1", "sqrt_v1",
    "subtract_v1", "tan_v1", "tanh_v1", "tuple_v1", "uniform_dequantize_v1",
    "uniform_quantize_v1", "while_v1", "xor_v1",
))
_ATTRIBUTES = {
    "all_gather_v1": "all_gather_dim channel_id replica_groups use_global_device_ids",
    "all_gather_v2": "all_gather_dim channel_id replica_groups use_global_device_ids",
    "all_reduce_v1": "channel_id replica_groups use_global_device_ids",
    "all_reduce_v2": "channel_id replica_groups use_global_device_ids",
    "all_to_all_v1": "channel_id concat_dimension replica_groups split_count split_dimension",
    "all_to_all_v2": "channel_id concat_dimension replica_groups split_count split_dimension",
    "batch_norm_grad_v1": "epsilon feature_index",
    "batch_norm_inference_v1": "epsilon feature_index",
    "batch_norm_training_v1": "epsilon feature_index",
    "broadcast_in_dim_v1": "broadcast_dimensions",
    "broadcast_v1": "broadcast_sizes",
    "call_v1": "callee",
    "cbrt_v2": "result_accuracy",
    "cholesky_v1": "lower",
    "collective_broadcast_v1": "channel_id replica_groups",
    "collective_broadcast_v2": "channel_id has_dynamic_root replica_groups",
    "collective_permute_v1": "channel_id source_target_pairs",
    "collective_reduce_v1": "channel_id has_dynamic_root replica_groups use_global_device_ids",
    "compare_v1": "compare_type comparison_direction",
    "composite_v1": "composite_attributes decomposition name version",
    "composite_v2": "composite_attributes decomposition name version",
    "concatenate_v1": "dimension",
    "constant_v1": "value",
    "convolution_v1": ("batch_group_count feature_group_count input_batch_dimension "
        "input_feature_dimension input_spatial_dimensions kernel_input_feature_dimension "
        "kernel_output_feature_dimension kernel_spatial_dimensions lhs_dilation "
        "output_batch_dimension output_feature_dimension output_spatial_dimensions padding "
        "precision_config rhs_dilation window_reversal window_strides"),
    "cosine_v2": "result_accuracy",
    "cross-replica-sum_v1": "replica_groups",
    "custom_call_v1": ("api_version backend_config call_target_name called_computations "
        "has_side_effect operand_layouts output_operand_aliases result_layouts"),
    "custom_call_v2": ("api_version backend_config call_target_name called_computations "
        "has_side_effect operand_layouts output_operand_aliases result_layouts result_tilings"),
    "dot_general_v1": ("lhs_batching_dimensions lhs_contracting_dimensions precision_config "
        "rhs_batching_dimensions rhs_contracting_dimensions"),
    "dot_general_v2": ("accumulation_type allow_imprecise_accumulation lhs_batching_dimensions "
        "lhs_component_count lhs_contracting_dimensions lhs_precision_type "
        "num_primitive_operations precision_config rhs_batching_dimensions rhs_component_count "
        "rhs_contracting_dimensions rhs_precision_type"),
    "dynamic_broadcast_in_dim_v1": ("broadcast_dimensions known_expanding_dimensions "
        "known_nonexpanding_dimensions"),
    "dynamic_conv_v1": ("batch_group_count feature_group_count input_batch_dimension "
        "input_feature_dimension input_spatial_dimensions kernel_input_feature_dimension "
        "kernel_output_feature_dimension kernel_spatial_dimensions lhs_dilation "
        "output_batch_dimension output_feature_dimension output_spatial_dimensions padding "
        "precision_config rhs_dilation window_reversal window_strides"),
    "dynamic_conv_v2": ("batch_group_count feature_group_count input_batch_dimension "
        "input_feature_dimension input_spatial_dimensions kernel_input_feature_dimension "
        "kernel_output_feature_dimension kernel_spatial_dimensions lhs_dilation "
        "output_batch_dimension output_feature_dimension output_spatial_dimensions "
        "precision_config rhs_dilation window_reversal window_strides"),
    "dynamic_gather_v1": ("collapsed_slice_dims index_vector_dim indices_are_sorted offset_dims "
        "start_index_map"),
    "dynamic_gather_v2": ("collapsed_slice_dims index_vector_dim indices_are_sorted offset_dims "
        "operand_batching_dims start_index_map start_indices_batching_dims"),
    "dynamic_iota_v1": "iota_dimension",
    "dynamic_slice_v1": "slice_sizes",
    "einsum_v1": "einsum_config",
    "exponential_minus_one_v2": "result_accuracy",
    "exponential_v2": "result_accuracy",
    "fft_v1": "fft_length fft_type",
    "func_v1": "arg_attrs function_type res_attrs sym_name sym_visibility",
    "gather_v1": ("collapsed_slice_dims index_vector_dim indices_are_sorted offset_dims "
        "slice_sizes start_index_map"),
    "gather_v2": ("collapsed_slice_dims index_vector_dim indices_are_sorted offset_dims "
        "operand_batching_dims slice_sizes start_index_map start_indices_batching_dims"),
    "get_dimension_size_v1": "dimension",
    "get_tuple_element_v1": "index",
    "infeed_v1": "infeed_config layout",
    "iota_v1": "iota_dimension",
    "log_plus_one_v2": "result_accuracy",
    "log_v2": "result_accuracy",
    "logistic_v2": "result_accuracy",
    "map_v1": "dimensions",
    "outfeed_v1": "outfeed_config",
    "pad_v1": "edge_padding_high edge_padding_low interior_padding",
    "recv_v1": "channel_id channel_type is_host_transfer",
    "recv_v2": "channel_id channel_type is_host_transfer source_target_pairs",
    "reduce_precision_v1": "exponent_bits mantissa_bits",
    "reduce_scatter_v1": "channel_id replica_groups scatter_dimension use_global_device_ids",
    "reduce_v1": "dimensions",
    "reduce_window_v1": "base_dilations padding window_dilations window_dimensions window_strides",
    "reverse_v1": "dimensions",
    "rng_bit_generator_v1": "rng_algorithm",
    "rng_v1": "rng_distribution",
    "rsqrt_v2": "result_accuracy",
    "scatter_v1": ("index_vector_dim indices_are_sorted inserted_window_dims "
        "scatter_dims_to_operand_dims unique_indices update_window_dims"),
    "scatter_v2": ("index_vector_dim indices_are_sorted input_batching_dims "
        "inserted_window_dims scatter_dims_to_operand_dims scatter_indices_batching_dims "
        "unique_indices update_window_dims"),
    "select_and_scatter_v1": "padding window_dimensions window_strides",
    "send_v1": "channel_id channel_type is_host_transfer",
    "send_v2": "channel_id channel_type is_host_transfer source_target_pairs",
    "set_dimension_size_v1": "dimension",
    "sine_v2": "result_accuracy",
    "slice_v1": "limit_indices start_indices strides",
    "sort_v1": "dimension is_stable",
    "sqrt_v2": "result_accuracy",
    "tan_v2": "result_accuracy",
    "tanh_v2": "result_accuracy",
    "torch_index_select_v1": "batch_dims dim",
    "transpose_v1": "permutation",
    "triangular_solve_v1": "left_side lower transpose_a unit_diagonal",
    "unary_einsum_v1": "einsum_config",
}

_INT64_MIN = -(1 << 63)
_SCALAR_TYPES = {
    0: "i1", 2: "bf16", 3: "f16", 4: "f32", 5: "f64", 6: "f8E4M3FN", 7: "f8E5M2",
    9: "index", 10: "i4", 11: "i8", 12: "i16", 13: "i32", 14: "i64", 15: "ui4", 16: "ui8",
    17: "ui16", 18: "ui32", 19: "ui64", 22: "token", 27: "f8E4M3FNUZ", 28: "f8E5M2FNUZ",
    29: "f8E4M3B11FNUZ", 31: "i2", 32: "ui2", 33: "none", 34: "tf32", 35: "f8E4M3",
    36: "f8E3M4", 37: "f4E2M1FN", 38: "f6E2M3FN", 39: "f6E3M2FN", 40: "f8E8M0FNU"}
_COMPOSITES = {1: "complex", 8: "function", 20: "tensor", 21: "encoded tensor", 23: "tuple",
               25: "unranked tensor"}
_OTHER_TYPES = {24: "uniform quantized", 26: "witness", 30: "per-axis uniform quantized",
                41: "ranked buffer", 42: "future"}
#: VHLO enum attributes: code -> (kind, value names by number).
_ENUMS = {
    3: ("comparison_direction", ("EQ", "NE", "GE", "GT", "LE", "LT")),
    4: ("comparison_type", ("NOTYPE", "FLOAT", "TOTALORDER", "SIGNED", "UNSIGNED")),
    5: ("custom_call_api_version", ("API_VERSION_UNSPECIFIED", "API_VERSION_ORIGINAL",
                                    "API_VERSION_STATUS_RETURNING",
                                    "API_VERSION_STATUS_RETURNING_UNIFIED",
                                    "API_VERSION_TYPED_FFI")),
    7: ("fft_type", ("FFT", "IFFT", "RFFT", "IRFFT")),
    11: ("precision", ("DEFAULT", "HIGH", "HIGHEST")),
    12: ("rng_algorithm", ("DEFAULT", "THREE_FRY", "PHILOX")),
    13: ("rng_distribution", (None, "UNIFORM", "NORMAL")),
    16: ("transpose", ("TRANSPOSE_INVALID", "NO_TRANSPOSE", "TRANSPOSE", "ADJOINT")),
    19: ("result_accuracy_mode", ("DEFAULT", "HIGHEST", "TOLERANCE")),
}
_OTHER_ATTRS = {21: "sub_axis_info", 22: "axis_ref", 23: "replica_group_mesh_axes",
                24: "mesh_axis", 25: "mesh"}


def _int_type(kind: str) -> Type:
    return Type(kind, (int(kind.lstrip("ui")),)) if kind[0] in "iu" and kind != "index" \
        else Type(kind)


class VhloHooks:
    """Decoders of the VHLO dialect's attributes and types (VhloBytecode.cpp)."""
    name = "vhlo"

    def read_type(self, r: DialectReader):
        code = r.varint()
        if code in _SCALAR_TYPES:
            return _int_type(_SCALAR_TYPES[code])
        if code in _COMPOSITES:
            return composite_type(r, _COMPOSITES[code])
        r.fail(f"VHLO type {_OTHER_TYPES.get(code, f'code {code}')} is not supported")

    def read_attribute(self, r: DialectReader):
        code = r.varint()
        if code in _ENUMS:
            kind, names = _ENUMS[code]
            v = r.varint()
            if v >= len(names) or names[v] is None:
                r.fail(f"VHLO {kind} value {v} is unknown", unsupported=False)
            return Attr("enum", (kind, names[v]))
        if code == 1:
            return Attr("array", tuple(r.attributes()))
        if code == 2:
            return Attr("bool", (r.varint() == 1,))
        if code == 6:
            return Attr("dict", tuple((r.attribute(), r.attribute()) for _ in range(r.varint())))
        if code == 8:
            return Attr("float", r.typed_number(float_width))
        if code == 9:
            return Attr("integer", r.typed_number(int_width))
        if code == 10:
            return Attr("output_operand_alias", (tuple(r.svarints()), r.svarint(),
                                                 tuple(r.svarints())))
        if code == 14:
            return Attr("string", (r.string(),))
        if code == 15:
            return Attr("tensor", (r.type(), r.blob()))
        if code == 17:
            return Attr("type", (r.type(),))
        if code == 18:
            return Attr("type_extensions", tuple(r.svarints()))
        if code == 20:
            atol, rtol = r.apint(64), r.apint(64)
            return Attr("result_accuracy", (atol, rtol, r.svarint(), r.attribute()))
        r.fail(f"VHLO attribute {_OTHER_ATTRS.get(code, f'code {code}')} is not supported")


# -- values of decoded attributes --

def _element(t: Type) -> str:
    return t.args[1].kind


def tensor_values(a: Attr) -> np.ndarray:
    """A ``tensor_v1``'s elements (read-only; i1 unpacked from VHLO's bits)."""
    from ..ir.types import numpy_dtype
    t, blob = a.args
    shape, elem = t.args[0], _element(t)
    n = int(np.prod(shape)) if shape else 1
    raw = blob.data
    if elem == "i1":
        b = np.frombuffer(raw, np.uint8)
        if len(b) == 1 and b[0] == 0xFF:           # VHLO's splat of true
            return np.ones(n, bool)
        if len(b) == (n + 7) // 8 and len(b) != n:
            return np.unpackbits(b, bitorder="little")[:n].astype(bool)
        vals = b.astype(bool)
    else:
        vals = np.frombuffer(raw, np.dtype(numpy_dtype(elem)).newbyteorder("<"))
    return np.broadcast_to(vals, (n,)) if len(vals) == 1 and n != 1 else vals   # a splat


def _i1_bytes(a: Attr):
    """A bool tensor's bytes as the parser reads them: one per element (or a splat byte)."""
    v = tensor_values(a)
    n_raw = len(a.args[1].data)
    return np.array([1 if v.all() else 0], np.uint8) if n_raw == 1 and len(v) > 1 and \
        (v.all() or not v.any()) else v.astype(np.uint8)


def _ints(a: Attr) -> list:
    return [int(x) for x in tensor_values(a)]


def _int(a: Attr) -> int:
    t, v = a.args
    w = int_width(t)
    return v - (1 << w) if not t.kind.startswith("ui") and v >> (w - 1) else v


# -- defaults StableHLO leaves out (VhloLegalizeToStablehlo's removeDefaults) --

def _is_int(n):
    return lambda a: a.kind == "integer" and _int(a) == n


def _is_bool(b):
    return lambda a: a.kind == "bool" and a.args[0] == b


def _is_str(s):
    return lambda a: a.kind == "string" and a.args[0] == s


def _is_empty(a):
    if a.kind == "tensor":
        return len(a.args[1].data) == 0
    return a.kind in ("array", "dict") and not a.args


def _is_splat(v):
    def check(a):
        vals = tensor_values(a) if a.kind == "tensor" else None
        return vals is not None and vals.size > 0 and bool(np.all(vals == v))
    return check


def _all_default_precision(a):
    return a.kind == "array" and all(x == Attr("enum", ("precision", "DEFAULT")) for x in a.args)


def _is_default_accuracy(a):
    atol, rtol, ulps, mode = a.args
    return atol == 0 and rtol == 0 and ulps == 0 and mode.args[1] == "DEFAULT"


_CONV_DEFAULTS = {"window_strides": _is_splat(1), "lhs_dilation": _is_splat(1),
                  "rhs_dilation": _is_splat(1), "window_reversal": _is_splat(False),
                  "precision_config": _all_default_precision}
_COLLECTIVE = {"channel_id": _is_int(0), "use_global_device_ids": _is_bool(False)}
_DEFAULTS = {
    "func": {"sym_visibility": _is_str(""), "arg_attrs": _is_empty, "res_attrs": _is_empty},
    "all_gather": _COLLECTIVE, "all_reduce": _COLLECTIVE, "reduce_scatter": _COLLECTIVE,
    "all_to_all": {"channel_id": _is_int(0)}, "collective_permute": {"channel_id": _is_int(0)},
    "collective_broadcast": {"channel_id": _is_int(0), "has_dynamic_root": _is_bool(False)},
    "collective_reduce": {**_COLLECTIVE, "has_dynamic_root": _is_bool(False)},
    "cholesky": {"lower": _is_bool(False)},
    "compare": {"compare_type": lambda a: a.args == ("comparison_type", "NOTYPE")},
    "composite": {"version": _is_int(0), "composite_attributes": _is_empty},
    "convolution": {**_CONV_DEFAULTS, "padding": _is_splat(0)},
    "dynamic_conv": _CONV_DEFAULTS,
    "custom_call": {"has_side_effect": _is_bool(False),
                    "backend_config": lambda a: _is_str("")(a) or (a.kind == "dict" and
                                                                   not a.args),
                    "api_version": lambda a: a.args[1:] == ("API_VERSION_ORIGINAL",),
                    "called_computations": _is_empty, "output_operand_aliases": _is_empty,
                    "result_tilings": _is_empty},
    "dot_general": {"precision_config": _all_default_precision},
    "dot": {"precision_config": _all_default_precision},
    "dynamic_broadcast_in_dim": {"known_expanding_dimensions": _is_empty,
                                 "known_nonexpanding_dimensions": _is_empty},
    "gather": {"indices_are_sorted": _is_bool(False)},
    "dynamic_gather": {"indices_are_sorted": _is_bool(False)},
    "infeed": {"layout": _is_empty},      # an empty *_config stays, as jaxlib 0.10 keeps it
    "recv": {"is_host_transfer": _is_bool(False), "source_target_pairs": _is_empty},
    "send": {"is_host_transfer": _is_bool(False), "source_target_pairs": _is_empty},
    "reduce_window": {"window_strides": _is_splat(1), "base_dilations": _is_splat(1),
                      "window_dilations": _is_splat(1), "padding": _is_splat(0)},
    "scatter": {"indices_are_sorted": _is_bool(False), "unique_indices": _is_bool(False)},
    "select_and_scatter": {"window_strides": _is_splat(1), "padding": _is_splat(0)},
    "sort": {"dimension": _is_int(-1), "is_stable": _is_bool(False)},
}
for _op in ("cbrt", "cosine", "exponential", "exponential_minus_one", "log", "log_plus_one",
            "logistic", "rsqrt", "sine", "sqrt", "tan", "tanh"):
    _DEFAULTS[_op] = {"result_accuracy": lambda a: a.kind == "result_accuracy" and
                      _is_default_accuracy(a)}

#: Attributes StableHLO holds as ``array<i64: ...>`` (VHLO: i64 tensors).
_I64_ARRAYS = {
    "fft": ("fft_length",), "broadcast": ("broadcast_sizes",),
    "dynamic_slice": ("slice_sizes",), "reverse": ("dimensions",),
    "transpose": ("permutation",), "map": ("dimensions",), "reduce": ("dimensions",),
    "pad": ("edge_padding_low", "edge_padding_high", "interior_padding"),
    "slice": ("start_indices", "limit_indices", "strides"),
    "broadcast_in_dim": ("broadcast_dimensions",),
    "dynamic_broadcast_in_dim": ("broadcast_dimensions", "known_expanding_dimensions",
                                 "known_nonexpanding_dimensions"),
    "select_and_scatter": ("window_dimensions", "window_strides"),
    "reduce_window": ("window_dimensions", "window_strides", "base_dilations",
                      "window_dilations"),
    "gather": ("slice_sizes",),
    "convolution": ("lhs_dilation", "rhs_dilation", "window_strides"),
    "dynamic_conv": ("lhs_dilation", "rhs_dilation", "window_strides"),
}
_BOOL_ARRAYS = {"convolution": ("window_reversal",), "dynamic_conv": ("window_reversal",)}
#: VHLO attributes gathered into one StableHLO struct: (op kinds, name, struct, fields
#: (VHLO name, StableHLO field, is a list)).


def _fields(lists: str, scalars: str = "") -> tuple:
    return tuple((f, f, True) for f in lists.split()) + tuple((f, f, False)
                                                             for f in scalars.split())


_DOT_FIELDS = _fields("lhs_batching_dimensions rhs_batching_dimensions "
                      "lhs_contracting_dimensions rhs_contracting_dimensions")
_GATHER_FIELDS = _fields("offset_dims collapsed_slice_dims operand_batching_dims "
                         "start_indices_batching_dims start_index_map", "index_vector_dim")
_SCATTER_FIELDS = _fields("update_window_dims inserted_window_dims input_batching_dims "
                          "scatter_indices_batching_dims scatter_dims_to_operand_dims",
                          "index_vector_dim")
_CONV_FIELDS = tuple((f, f, f.endswith("spatial_dimensions")) for f in CONV_FIELDS)
_STRUCTS = (
    (("dot_general",), "dot_dimension_numbers", "stablehlo.dot", _DOT_FIELDS),
    (("gather", "dynamic_gather"), "dimension_numbers", "stablehlo.gather", _GATHER_FIELDS),
    (("scatter",), "scatter_dimension_numbers", "stablehlo.scatter", _SCATTER_FIELDS),
    (("convolution", "dynamic_conv"), "dimension_numbers", "stablehlo.conv raw", _CONV_FIELDS),
    (("recv", "send"), "channel_handle", "stablehlo.channel_handle",
     (("channel_id", "handle", False), ("channel_type", "type", False))),
)
_CHANNEL_OPS = frozenset(("all_gather", "all_reduce", "all_to_all", "collective_permute",
                          "reduce_scatter", "collective_broadcast", "collective_reduce"))
_ALGORITHM = ("lhs_precision_type", "rhs_precision_type", "accumulation_type",
              "lhs_component_count", "rhs_component_count", "num_primitive_operations",
              "allow_imprecise_accumulation")
_BARE_KEY = re.compile(r"[A-Za-z_][\w$.\-]*\Z")


class Raw(str):
    """Attribute text already in StableHLO form."""


def _struct(name: str, fields) -> Raw:
    def val(v):
        return "[" + ", ".join(map(str, v)) + "]" if isinstance(v, list) else str(v)
    name, _, prefix = name.partition(" ")           # "stablehlo.conv raw"
    return Raw(f"#{name}<" + (prefix + " " if prefix else "") +
               ", ".join(f"{k} = {val(v)}" for k, v in fields) + ">")


def stablehlo_attributes(kind: str, attrs: dict, error) -> dict:
    """StableHLO attributes (name -> Attr or Raw) of VHLO op ``kind``'s ``attrs``."""
    attrs = dict(attrs)
    for name, is_default in _DEFAULTS.get(kind, {}).items():
        if name in attrs and is_default(attrs[name]):
            del attrs[name]
    if kind == "custom_call" and _is_empty(attrs.get("operand_layouts", Attr("array"))) \
            and _is_empty(attrs.get("result_layouts", Attr("array"))):
        attrs.pop("operand_layouts", None), attrs.pop("result_layouts", None)
    out = {}
    for kinds, name, struct, fields in _STRUCTS:
        if kind in kinds:
            vals = []
            for vname, field, is_list in fields:
                a = attrs.pop(vname, None)
                if a is None:
                    continue                      # an older version's missing field
                if a.kind not in ("tensor", "integer"):
                    raise error(f"'{vname}' of vhlo.{kind} is a {a.kind}, not integers")
                vals.append((field, _ints(a) if is_list else _int(a)))
            out[name] = _struct(struct, vals)
    if kind == "dot_general" and "lhs_component_count" in attrs:
        algo = [attrs.pop(n) for n in _ALGORITHM]
        if algo[3] != Attr("type", (Type("none"),)):
            vals = [(n, type_text(a.args[0]) if a.kind == "type" else
                     ("true" if a.args[0] else "false") if a.kind == "bool" else _int(a))
                    for n, a in zip(_ALGORITHM, algo)]
            out["algorithm"] = _struct("stablehlo.dot_algorithm", vals)
    for name, a in attrs.items():
        if kind in _CHANNEL_OPS and name == "channel_id":
            out["channel_handle"] = _struct("stablehlo.channel_handle",
                                            (("handle", _int(a)), ("type", 0)))
        elif name in ("use_global_device_ids", "has_dynamic_root") and a.kind == "bool":
            if a.args[0]:
                out[name] = Raw("")
        elif (kind, name) in (("call", "callee"), ("composite", "decomposition")):
            out[name] = Raw(symbol(a.args[0]))
        elif kind == "custom_call" and name == "called_computations":
            out[name] = Raw("[" + ", ".join(symbol(x.args[0]) for x in a.args) + "]")
        elif name in _I64_ARRAYS.get(kind, ()) and a.kind == "tensor":
            out[name] = Raw("array<i64" + "".join(
                (": " if i == 0 else ", ") + str(v) for i, v in enumerate(_ints(a))) + ">")
        elif name in _BOOL_ARRAYS.get(kind, ()) and a.kind == "tensor":
            out[name] = Raw("array<i1" + "".join(
                (": " if i == 0 else ", ") + ("true" if v else "false")
                for i, v in enumerate(tensor_values(a))) + ">")
        else:
            out[name] = a
    return out


# -- text --

def symbol(name: str) -> str:
    return "@" + (name if _BARE_KEY.match(name) else quote(name))


def quote(s: str) -> str:
    return '"' + "".join(c if c not in '"\\' and ord(c) >= 0x20 else
                         ("\\" + c if c in '"\\' else f"\\{ord(c):02X}") for c in s) + '"'


def type_text(t) -> str:
    if isinstance(t, Asm):
        return t.text
    k = t.kind
    if k == "tensor":
        shape, elem, enc = t.args
        if shape is None:
            return f"tensor<*x{type_text(elem)}>"
        dims = "".join(("?" if d < 0 else str(d)) + "x" for d in shape)
        if enc is not None:
            if not (isinstance(enc, Attr) and enc.kind == "type_extensions"):
                raise ValueError(f"tensor encoding {enc}")
            bounds = ", ".join("?" if b == _INT64_MIN else str(b) for b in enc.args)
            return f"tensor<{dims}{type_text(elem)}, #stablehlo.bounds<{bounds}>>"
        return f"tensor<{dims}{type_text(elem)}>"
    if k == "complex":
        return f"complex<{type_text(t.args[0])}>"
    if k == "tuple":
        return "tuple<" + ", ".join(map(type_text, t.args)) + ">"
    if k == "function":
        ins, outs = t.args
        res = type_text(outs[0]) if len(outs) == 1 and outs[0].kind != "function" else \
            "(" + ", ".join(map(type_text, outs)) + ")"
        return "(" + ", ".join(map(type_text, ins)) + ") -> " + res
    if k == "token":
        return "!stablehlo.token"
    return k


def _float_text(t: Type, bits: int) -> str:
    width = float_width(t)
    return f"0x{bits:0{(width + 3) // 4}X} : {type_text(t)}"


_ENUM_FORMS = {"result_accuracy_mode": "#stablehlo.result_accuracy_mode<{}>"}


class _Renderer:
    """Writes a BytecodeFile's IR as StableHLO text; dense data go to ``blobs``."""

    def __init__(self, file: BytecodeFile):
        self.file = file
        self.out, self.pos, self.blobs = [], 0, {}
        self.refs, self.types = {}, {}           # value id -> "%v1" / "%v1#0", type text

    def emit(self, s: str):
        self.out.append(s)
        self.pos += len(s)

    def error(self, message: str) -> BytecodeError:
        return BytecodeError(message, self.file.filename, unsupported=True)

    # -- attributes --
    def attr(self, a):
        if isinstance(a, Raw):
            return self.emit(a)
        if isinstance(a, Asm):
            return self.emit(a.text)
        k = a.kind.rsplit(".", 1)[-1]
        if k in ("array",):
            self.emit("[")
            for i, x in enumerate(a.args):
                self.emit(", " if i else "")
                self.attr(x)
            return self.emit("]")
        if k == "dict":
            return self.dict(a.args)
        if k == "bool":
            return self.emit("true" if a.args[0] else "false")
        if k == "string":
            return self.emit(quote(a.args[0]))
        if k == "integer":
            t = a.args[0]
            return self.emit(f"{_int(a)} : {type_text(t)}" if t.kind != "i1" else
                             ("true" if a.args[1] else "false"))
        if k == "float":
            return self.emit(_float_text(*a.args))
        if k == "type":
            return self.emit(type_text(a.args[0]))
        if k == "unit":
            return self.emit("unit")
        if k == "enum":
            kind, value = a.args
            if kind == "custom_call_api_version":
                return self.emit(f"{_ENUMS[5][1].index(value)} : i32")
            return self.emit(_ENUM_FORMS.get(kind, f"#stablehlo<{kind} {{}}>").format(value))
        if k in ("tensor", "dense"):
            return self.dense(a)
        if k == "dense_array":
            t, n, blob = a.args
            from ..ir.types import numpy_dtype
            vals = np.frombuffer(blob.data, np.dtype(numpy_dtype(t.kind)).newbyteorder("<"))
            items = ", ".join(("true" if v else "false") if t.kind == "i1" else str(v)
                              for v in vals.tolist())
            return self.emit(f"array<{type_text(t)}" + (f": {items}>" if n else ">"))
        if k == "symbol":
            root, nested = a.args
            return self.emit(symbol(root.args[0]) + "".join("::" + symbol(x.args[0].args[0])
                                                            for x in nested))
        if k == "output_operand_alias":
            outs, idx, ins = a.args
            return self.emit(_struct("stablehlo.output_operand_alias", (
                ("output_tuple_indices", list(outs)), ("operand_index", idx),
                ("operand_tuple_indices", list(ins)))))
        if k == "result_accuracy":
            atol, rtol, ulps, mode = a.args
            f = [float(np.array(x, np.uint64).view(np.float64)) for x in (atol, rtol)]
            return self.emit(f"#stablehlo.result_accuracy<atol = {f[0]!r}, rtol = {f[1]!r}, "
                             f"ulps = {ulps}, mode = #stablehlo.result_accuracy_mode<"
                             f"{mode.args[1]}>>")
        raise self.error(f"attribute {a.kind} cannot be written as StableHLO")

    def dense(self, a):
        t, blob = a.args
        if t.kind != "tensor" or t.args[0] is None:
            raise self.error(f"dense elements of type {type_text(t)}")
        data = _i1_bytes(a) if _element(t) == "i1" else blob.data
        self.emit("dense<")
        self.blobs[self.pos] = data
        self.emit(f'""> : {type_text(t)}')

    def dict(self, entries, skip=()):
        self.emit("{")
        first = True
        for key, value in (entries.items() if isinstance(entries, dict) else entries):
            name = key if isinstance(key, str) else key.args[0]
            if name in skip:
                continue
            self.emit(("" if first else ", ") + (name if _BARE_KEY.match(name) else quote(name)))
            first = False
            if not (isinstance(value, Raw) and value == ""):
                self.emit(" = ")
                self.attr(value)
        self.emit("}")

    # -- ops --
    def split_attributes(self, op, names: list) -> tuple:
        """(inherent, discardable) attributes of ``op``: the inherent ones from
        its properties (bytecode 6: StableHLO 0.15 on) or, before that, from
        its attribute dictionary by name."""
        extra = self.discardable(op)
        if isinstance(op.properties, Cursor):
            r = DialectReader(op.properties, self.file)
            return {n: r.attribute() for n in names}, extra
        if op.properties is not None:
            raise self.error(f"properties of '{op.name}' stored as an attribute")
        return {n: extra.pop(n) for n in names if n in extra}, extra

    def op(self, op, indent: str, parent: str):
        name = op.name
        if name == "builtin.module":
            return self.module(op, indent)
        if not name.startswith("vhlo."):
            raise self.error(f"op '{name}' (only VHLO ops are read natively)")
        base = name[5:]
        if base in _NO_ATTRIBUTES:
            names = []
        elif base in _ATTRIBUTES:
            names = _ATTRIBUTES[base].split()
        else:
            raise self.error(f"op '{name}' (VHLO op or version unknown to this reader)")
        kind = base.rsplit("_v", 1)[0]
        attrs, extra = self.split_attributes(op, names)
        if kind == "func":
            return self.func(op, attrs, extra, indent)
        out = stablehlo_attributes(kind, attrs, self.error)
        target = {"call": "func.call", "return": "func.return" if parent == "func"
                  else "stablehlo.return"}.get(kind, "stablehlo." + kind)
        self.emit(indent)
        self.results(op)
        self.emit(f'"{target}"(' + ", ".join(self.refs[v] for v in op.operands) + ")")
        if op.regions:
            self.emit(" (")
            for i, region in enumerate(op.regions):
                self.emit(", " if i else "")
                self.region(region, indent, kind)
            self.emit(")")
        if out or extra:
            self.emit(" ")
            self.dict({**out, **extra})
        ins = ", ".join(self.types[v] for v in op.operands)
        outs = ", ".join(type_text(t) for _, t in op.results)
        self.emit(f" : ({ins}) -> ({outs})\n")

    def discardable(self, op) -> dict:
        if op.attrs is None:
            return {}
        if not (isinstance(op.attrs, Attr) and op.attrs.kind.endswith("dict")):
            raise self.error(f"the attributes of '{op.name}' are not a dictionary")
        return {k.args[0]: v for k, v in op.attrs.args}

    def results(self, op):
        if not op.results:
            return
        first = op.results[0][0]
        for i, (vid, t) in enumerate(op.results):
            self.refs[vid] = f"%v{first}" if len(op.results) == 1 else f"%v{first}#{i}"
            self.types[vid] = type_text(t)
        self.emit(f"%v{first}" + (f":{len(op.results)}" if len(op.results) > 1 else "") + " = ")

    def define(self, args) -> str:
        for vid, t in args:
            self.refs[vid] = f"%v{vid}"
            self.types[vid] = type_text(t)
        return ", ".join(f"%v{vid}: {type_text(t)}" for vid, t in args)

    def region(self, region, indent: str, parent: str):
        self.emit("{\n")
        for i, block in enumerate(region.blocks):
            if block.args or i:
                self.emit(f"{indent}^bb{i}({self.define(block.args)}):\n")
            for op in block.ops:
                self.op(op, indent + "  ", parent)
        self.emit(indent + "}")

    def module(self, op, indent: str):
        extra = self.discardable(op)
        sym = extra.pop("sym_name", None)
        extra.pop("sym_visibility", None)
        if isinstance(op.properties, Cursor):
            r = DialectReader(op.properties, self.file)
            sym = r.optional_attribute()           # then sym_visibility (dropped)
        elif op.properties is not None:
            raise self.error("builtin.module properties stored as an attribute")
        self.emit(indent + "module" + (" " + symbol(sym.args[0]) if sym is not None else ""))
        if extra:
            self.emit(" attributes ")
            self.dict(extra)
        self.emit(" ")
        for region in op.regions:
            self.region(region, indent, "module")
        self.emit("\n")

    def signature(self, entries: list, attrs: tuple):
        """``(entry {attrs}, ...)``: a function's arguments or results."""
        self.emit("(")
        for i, entry in enumerate(entries):
            self.emit((", " if i else "") + entry)
            if i < len(attrs) and attrs[i].args:
                self.emit(" ")
                self.attr(attrs[i])
        self.emit(")")

    def func(self, op, attrs: dict, extra: dict, indent: str):
        attrs = {k: v for k, v in attrs.items()
                 if not _DEFAULTS["func"].get(k, lambda a: False)(v)}
        fty = attrs["function_type"].args[0]
        ins, outs = fty.args
        vis = attrs.get("sym_visibility")
        self.emit(indent + "func.func " + (vis.args[0] + " " if vis else "") +
                  symbol(attrs["sym_name"].args[0]))
        arg_attrs = attrs.get("arg_attrs", Attr("array")).args
        res_attrs = attrs.get("res_attrs", Attr("array")).args
        block = op.regions[0].blocks[0] if op.regions and op.regions[0].blocks else None
        if block is not None and len(block.args) != len(ins):
            raise self.error(f"function {attrs['sym_name'].args[0]}: {len(block.args)} block "
                             f"arguments for {len(ins)} inputs")
        self.signature([self.define([block.args[i]]) if block is not None else type_text(t)
                        for i, t in enumerate(ins)], arg_attrs)
        if outs:
            self.emit(" -> ")
            self.signature([type_text(t) for t in outs], res_attrs)
        if extra:
            self.emit(" attributes ")
            self.dict(extra)
        if block is None:
            return self.emit("\n")
        if len(op.regions[0].blocks) > 1:
            raise self.error("functions of more than one block")
        self.emit(" {\n")
        for inner in block.ops:
            self.op(inner, indent + "  ", "func")
        self.emit(indent + "}\n")


def read_portable_artifact(data, filename: str = "<input>") -> Source:
    """The StableHLO text skeleton (a ``Source``, dense data as views of
    ``data``) of the VHLO bytecode ``data`` (bytes, mmap or memoryview)."""
    file = BytecodeFile(data, filename, hooks=(VhloHooks(),))
    r = _Renderer(file)
    try:
        for op in file.top:
            r.op(op, "", "top")
    except Malformed as e:                  # an attribute decoded on demand
        raise BytecodeError(str(e), filename) from None
    except (KeyError, IndexError, ValueError, AttributeError, TypeError, ZeroDivisionError,
            OverflowError, RecursionError) as e:
        raise BytecodeError(f"inconsistent VHLO ({type(e).__name__}: {e})", filename) from None
    return Source("".join(r.out), r.blobs, [], len(file.buf))
