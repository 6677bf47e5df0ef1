"""The VHLO dialect (StableHLO's versioned portable form), declared as data.

VHLO ops are ``vhlo.<op>_v<N>``; a portable artifact stores each op's
attributes as properties in name order, and keeps apart, as tensors or
plain integers, what StableHLO gathers into structs or holds as
``array<i64>``.  What mlir/vhlo.py needs to read them back into StableHLO,
by the VHLO op's unversioned name: the attribute names per version, the
defaults StableHLO leaves out (VhloLegalizeToStablehlo's removeDefaults),
which attributes become ``array<i64>`` / ``array<i1>``, and which are
gathered into which struct.  Default specs: ``("int", n)``, ``("bool", b)``,
``("str", s)``, ``("splat", v)`` (a tensor of v), ``("enum", value)``,
``"empty"`` (an empty array, dict or tensor), ``"precision"`` (every
precision DEFAULT), ``"accuracy"`` (a default result accuracy),
``("either", spec, ...)``.
"""
from __future__ import annotations

#: VHLO ops without attributes.
NO_ATTRIBUTES = frozenset((
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
#: Each versioned VHLO op's attributes in the order its properties store them
#: (name order; VhloOps.td's attribute names).
ATTRIBUTES = {
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

_CONV = {"window_strides": ("splat", 1), "lhs_dilation": ("splat", 1),
         "rhs_dilation": ("splat", 1), "window_reversal": ("splat", False),
         "precision_config": "precision"}
_COLLECTIVE = {"channel_id": ("int", 0), "use_global_device_ids": ("bool", False)}
#: Defaults StableHLO leaves out: VHLO op -> attribute -> default spec.
DEFAULTS = {
    "func": {"sym_visibility": ("str", ""), "arg_attrs": "empty", "res_attrs": "empty"},
    "all_gather": _COLLECTIVE, "all_reduce": _COLLECTIVE, "reduce_scatter": _COLLECTIVE,
    "all_to_all": {"channel_id": ("int", 0)}, "collective_permute": {"channel_id": ("int", 0)},
    "collective_broadcast": {"channel_id": ("int", 0), "has_dynamic_root": ("bool", False)},
    "collective_reduce": {**_COLLECTIVE, "has_dynamic_root": ("bool", False)},
    "cholesky": {"lower": ("bool", False)},
    "compare": {"compare_type": ("enum", "NOTYPE")},
    "composite": {"version": ("int", 0), "composite_attributes": "empty"},
    "convolution": {**_CONV, "padding": ("splat", 0)},
    "dynamic_conv": _CONV,
    "custom_call": {"has_side_effect": ("bool", False),
                    "backend_config": ("either", ("str", ""), "empty"),
                    "api_version": ("enum", "API_VERSION_ORIGINAL"),
                    "called_computations": "empty", "output_operand_aliases": "empty",
                    "result_tilings": "empty"},
    "dot_general": {"precision_config": "precision"},
    "dot": {"precision_config": "precision"},
    "dynamic_broadcast_in_dim": {"known_expanding_dimensions": "empty",
                                 "known_nonexpanding_dimensions": "empty"},
    "gather": {"indices_are_sorted": ("bool", False)},
    "dynamic_gather": {"indices_are_sorted": ("bool", False)},
    "infeed": {"layout": "empty"},      # an empty *_config stays, as jaxlib 0.10 keeps it
    "recv": {"is_host_transfer": ("bool", False), "source_target_pairs": "empty"},
    "send": {"is_host_transfer": ("bool", False), "source_target_pairs": "empty"},
    "reduce_window": {"window_strides": ("splat", 1), "base_dilations": ("splat", 1),
                      "window_dilations": ("splat", 1), "padding": ("splat", 0)},
    "scatter": {"indices_are_sorted": ("bool", False), "unique_indices": ("bool", False)},
    "select_and_scatter": {"window_strides": ("splat", 1), "padding": ("splat", 0)},
    "sort": {"dimension": ("int", -1), "is_stable": ("bool", False)},
    **{op: {"result_accuracy": "accuracy"}
       for op in "cbrt cosine exponential exponential_minus_one log log_plus_one logistic "
                 "rsqrt sine sqrt tan tanh".split()},
}
#: Attributes StableHLO holds as ``array<i64: ...>`` (VHLO: i64 tensors).
I64_ARRAYS = {
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
#: Attributes StableHLO holds as ``array<i1: ...>`` (VHLO: i1 tensors).
BOOL_ARRAYS = {"convolution": ("window_reversal",), "dynamic_conv": ("window_reversal",)}


def _fields(lists: str, scalars: str = "") -> tuple:
    return tuple((f, f, True) for f in lists.split()) + tuple((f, f, False)
                                                             for f in scalars.split())


#: Struct fields: (VHLO attribute, StableHLO field, is a list).
DOT_FIELDS = _fields("lhs_batching_dimensions rhs_batching_dimensions "
                     "lhs_contracting_dimensions rhs_contracting_dimensions")
GATHER_FIELDS = _fields("offset_dims collapsed_slice_dims operand_batching_dims "
                        "start_indices_batching_dims start_index_map", "index_vector_dim")
SCATTER_FIELDS = _fields("update_window_dims inserted_window_dims input_batching_dims "
                         "scatter_indices_batching_dims scatter_dims_to_operand_dims",
                         "index_vector_dim")
CHANNEL_HANDLE_FIELDS = (("channel_id", "handle", False), ("channel_type", "type", False))
#: VHLO attributes gathered into one StableHLO struct: (VHLO ops, StableHLO
#: attribute, struct, fields; None: the parser's CONV_FIELDS, each its own name).
STRUCTS = (
    ("dot_general", "dot_dimension_numbers", "stablehlo.dot", DOT_FIELDS),
    ("gather dynamic_gather", "dimension_numbers", "stablehlo.gather", GATHER_FIELDS),
    ("scatter", "scatter_dimension_numbers", "stablehlo.scatter", SCATTER_FIELDS),
    ("convolution dynamic_conv", "dimension_numbers", "stablehlo.conv raw", None),
    ("recv send", "channel_handle", "stablehlo.channel_handle", CHANNEL_HANDLE_FIELDS),
)
#: Ops whose ``channel_id`` integer is StableHLO's ``channel_handle`` struct.
CHANNEL_OPS = frozenset("all_gather all_reduce all_to_all collective_permute reduce_scatter "
                        "collective_broadcast collective_reduce".split())
#: dot_general's algorithm attributes, in #stablehlo.dot_algorithm's order.
ALGORITHM = ("lhs_precision_type", "rhs_precision_type", "accumulation_type",
             "lhs_component_count", "rhs_component_count", "num_primitive_operations",
             "allow_imprecise_accumulation")
