"""StableHLO ops as data: which ops are elementwise, which move data, which
are heavy, which the compiler accepts.  Passes and codegen consult these sets
instead of matching names ad hoc."""
from __future__ import annotations

P = "stablehlo."

UNARY_ELEMENTWISE = {P + n for n in (
    "abs", "negate", "not", "sqrt", "rsqrt", "cbrt", "exponential",
    "exponential_minus_one", "log", "log_plus_one", "logistic", "sine", "cosine",
    "tan", "tanh", "atan", "floor", "ceil", "round_nearest_afz", "round_nearest_even",
    "sign", "is_finite", "popcnt", "count_leading_zeros", "convert", "real", "imag",
)}
BINARY_ELEMENTWISE = {P + n for n in (
    "add", "subtract", "multiply", "divide", "remainder", "maximum", "minimum",
    "power", "atan2", "and", "or", "xor", "shift_left", "shift_right_arithmetic",
    "shift_right_logical", "compare", "complex",
)}
# CHLO's elementwise math (special functions; codegen/special_c.py).
UNARY_ELEMENTWISE |= {"chlo." + n for n in (
    "acos", "acosh", "asin", "asinh", "atan", "atanh", "cosh", "sinh", "tan", "erf", "erfc",
    "erf_inv", "lgamma", "digamma", "bessel_i1e", "conj",
)}
BINARY_ELEMENTWISE |= {"chlo.next_after"}
TERNARY_ELEMENTWISE = {P + "select", P + "clamp"}
# map applies its region per element (codegen/pull_ops.py).
ELEMENTWISE = (UNARY_ELEMENTWISE | BINARY_ELEMENTWISE | TERNARY_ELEMENTWISE
               | {P + "map", P + "reduce_precision"})

# Ops whose element at an index is one element of an operand (or a constant):
# they fuse into consumers as index remapping.
INDEX_REMAP = {P + n for n in (
    "broadcast_in_dim", "reshape", "transpose", "slice", "reverse", "pad",
    "concatenate", "iota", "dynamic_slice", "dynamic_update_slice", "gather",
    "bitcast_convert",
    # dynamic-shape forms: their shape operands are read on the host (passes/shapes.py)
    "dynamic_broadcast_in_dim", "dynamic_reshape", "dynamic_iota", "real_dynamic_slice",
    "dynamic_pad", "dynamic_gather",
)}

# Ops that do real work per output element: they root their own dispatch
# unless their single consumer can take them as an epilogue.
HEAVY = {P + n for n in ("reduce", "dot_general", "reduce_window", "select_and_scatter",
                         "convolution", "dynamic_conv", "fft")}

# Ops whose workgroups run a sequential program that writes its outputs
# directly (codegen/sequential.py): they always root a dispatch and their
# results always live in buffers.  Their operands may still be fused (pulled).
SEQUENTIAL = {P + n for n in ("scatter", "sort", "triangular_solve", "cholesky",
                              "rng_bit_generator")} | {"chlo.top_k"}

# Everything the loop-kernel emitter knows how to compute.
KERNEL_OPS = ELEMENTWISE | INDEX_REMAP | HEAVY | SEQUENTIAL | {P + "constant"}

# Ops that carry no computation of their own at the host level.
SIDE_EFFECT_FREE = KERNEL_OPS | {"func.call"}


def device_layout(module) -> tuple:
    """(replicas, partitions) from the module's ``mhlo.num_replicas`` /
    ``mhlo.num_partitions`` (1 where absent or not a positive int)."""
    attrs = getattr(module, "attributes", None) or {}
    out = []
    for key in ("mhlo.num_replicas", "mhlo.num_partitions"):
        a = attrs.get(key)
        v = getattr(a, "value", a)
        out.append(int(v) if isinstance(v, int) and v > 0 else 1)
    return tuple(out)
