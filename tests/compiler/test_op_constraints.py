"""The spec's per-op constraints in the verifier (the rules declared on each op, dialects/):
errors are CompileErrors located at the op; dynamic dims stay accepted."""
import pytest

from tensorvm.compiler.errors import CompileError
from tensorvm.compiler.mlir import parse_module
from tensorvm.compiler.ir.verifier import verify_module


def _verify(body, args):
    verify_module(parse_module(f"func.func @f({args}) {{\n{body}\n  return\n}}"))


def _rejects(body, args, match):
    with pytest.raises(CompileError, match=match) as e:
        _verify(body, args)
    assert ":2:3: error:" in str(e.value)      # located at the op


def test_result_shape_must_match_the_inferred_one():
    _rejects("  %0 = stablehlo.transpose %a, dims = [1, 0] : (tensor<2x3xf32>) -> tensor<2x3xf32>",
             "%a: tensor<2x3xf32>", "failed to infer returned types")
    _verify("  %0 = stablehlo.transpose %a, dims = [1, 0] : (tensor<?x3xf32>) -> tensor<3x?xf32>",
            "%a: tensor<?x3xf32>")
    _rejects('  %0 = "stablehlo.gather"(%a, %i) {dimension_numbers = #stablehlo.gather<offset_dims = [1], '
             'collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, '
             'slice_sizes = array<i64: 1, 3>} : (tensor<4x3xf32>, tensor<2x1xi64>) -> tensor<2x4xf32>',
             "%a: tensor<4x3xf32>, %i: tensor<2x1xi64>", "failed to infer returned types")


def test_dims_attributes_and_element_types():
    _rejects("  %0 = stablehlo.broadcast_in_dim %a, dims = [2] : (tensor<3xf32>) -> tensor<2x3xf32>",
             "%a: tensor<3xf32>", "broadcast_dimensions contains invalid value 2")
    _rejects('  %0 = "stablehlo.floor"(%a) : (tensor<4xi32>) -> tensor<4xi32>',
             "%a: tensor<4xi32>", "must be ranked tensor of float values")
    _rejects("  %0 = stablehlo.add %a, %b : (tensor<4xf32>, tensor<5xf32>) -> tensor<4xf32>",
             "%a: tensor<4xf32>, %b: tensor<5xf32>", "compatible shapes")


def test_reduction_regions_and_collectives():
    body = ('  %0 = stablehlo.reduce(%a init: %z) applies stablehlo.add across dimensions = [0] : '
            '(tensor<4xf32>, tensor<f32>) -> tensor<f32>')
    _verify(body, "%a: tensor<4xf32>, %z: tensor<f32>")
    _rejects('  %0 = "stablehlo.reduce"(%a, %z) ({\n  ^bb0(%x: tensor<f32>):\n    stablehlo.return %x : tensor<f32>\n'
             '  }) {dimensions = array<i64: 0>} : (tensor<4xf32>, tensor<f32>) -> tensor<f32>',
             "%a: tensor<4xf32>, %z: tensor<f32>", "must take 2 parameters")
    _rejects('  %0 = "stablehlo.collective_permute"(%a) {source_target_pairs = dense<[[0, 1], [0, 2]]> : '
             'tensor<2x2xi64>} : (tensor<4xf32>) -> tensor<4xf32>', "%a: tensor<4xf32>",
             "duplicate sources")


def test_custom_call_layouts_and_quantized_types():
    _rejects('  %0 = "stablehlo.custom_call"(%a) {call_target_name = "foo", operand_layouts = '
             '[dense<[0, 2]> : tensor<2xindex>], result_layouts = [dense<[0]> : tensor<1xindex>]} : '
             '(tensor<2x3xf32>) -> tensor<4xf32>', "%a: tensor<2x3xf32>", "incorrect layout")
    _rejects("  %0 = stablehlo.add %a, %a : tensor<2x!quant.uniform<i8:f32, 1.0:300>>",
             "%a: tensor<2x!quant.uniform<i8:f32, 1.0:300>>", "well-formed quantized")
    _verify("  %0 = stablehlo.add %a, %a : tensor<2x!quant.uniform<i8:f32, 1.0:-30>>",
            "%a: tensor<2x!quant.uniform<i8:f32, 1.0:-30>>")


_SCATTER = ('  %0 = "stablehlo.scatter"(%a, %i, %u) ({{\n  ^bb0(%x: tensor<{el}>, %y: tensor<{el}>):\n'
            '    stablehlo.return %x : tensor<{el}>\n  }}) {{scatter_dimension_numbers = #stablehlo.scatter<'
            'update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], '
            'index_vector_dim = 1>}} : (tensor<4x3xf32>, tensor<2x1xi32>, tensor<2x{w}xf32>) -> tensor<4x3xf32>')
_SCATTER_ARGS = "%a: tensor<4x3xf32>, %i: tensor<2x1xi32>, %u: tensor<2x{w}xf32>"


def test_scatter_region_and_update_bounds():
    _verify(_SCATTER.format(el="f32", w=3), _SCATTER_ARGS.format(w=3))
    _rejects(_SCATTER.format(el="i32", w=3), _SCATTER_ARGS.format(w=3), "promotable")
    _rejects(_SCATTER.format(el="f32", w=4), _SCATTER_ARGS.format(w=4),
             "window dimensions of updates to not exceed")


def test_quantized_add_and_dot_general():
    q, q4 = "tensor<2x!quant.uniform<i8:f32, 1.0:3>>", "tensor<2x!quant.uniform<i4:f32, 1.0:3>>"
    _verify(f"  %0 = stablehlo.add %a, %a : ({q}, {q}) -> {q}", f"%a: {q}")
    _rejects(f"  %0 = stablehlo.add %a, %a : ({q}, {q}) -> {q4}", f"%a: {q}", "storage types")
    _rejects(f"  %0 = stablehlo.add %a, %a : ({q}, {q}) -> tensor<2xf32>", f"%a: {q}",
             "either quantized or non-quantized")
    rhs = "tensor<3x2x!quant.uniform<i8:f32, 1.0:{zp}>>"
    dot = ('  %0 = "stablehlo.dot_general"(%a, %b) {{dot_dimension_numbers = #stablehlo.dot<'
           'lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}} : '
           '(tensor<4x3xf32>, {rhs}) -> tensor<4x2xf32>')
    _verify(dot.format(rhs=rhs.format(zp=0)), f"%a: tensor<4x3xf32>, %b: {rhs.format(zp=0)}")
    _rejects(dot.format(rhs=rhs.format(zp=5)), f"%a: tensor<4x3xf32>, %b: {rhs.format(zp=5)}",
             "Zero point of rhs should be 0")


def test_result_accuracy_and_dot_algorithm():
    acc = ('  %0 = "stablehlo.exponential"(%a) {{result_accuracy = #stablehlo.result_accuracy<atol = {t}, '
           'rtol = 0.0, ulps = 0, mode = #stablehlo.result_accuracy_mode<{mode}>>}} : '
           '(tensor<2xf32>) -> tensor<2xf32>')
    _verify(acc.format(t="1.0", mode="TOLERANCE"), "%a: tensor<2xf32>")
    _rejects(acc.format(t="1.0", mode="HIGHEST"), "%a: tensor<2xf32>", "must be all zero")
    alg = ('  %0 = "stablehlo.dot_general"(%a, %a) {{dot_dimension_numbers = #stablehlo.dot<'
           'lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, algorithm = '
           '#stablehlo.dot_algorithm<lhs_precision_type = {t}, rhs_precision_type = {t}, '
           'accumulation_type = f32, lhs_component_count = 1, rhs_component_count = 1, '
           'num_primitive_operations = 1, allow_imprecise_accumulation = false>}} : '
           '(tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>')
    _verify(alg.format(t="bf16"), "%a: tensor<2x2xf32>")
    with pytest.raises(CompileError, match=r":2:.*not known to be supported"):
        _verify(alg.format(t="i8"), "%a: tensor<2x2xf32>")      # located at the attribute


def test_async_start_wraps_one_collective():
    body = ('  %0 = "stablehlo.async_start"(%a) ({{\n  ^bb0(%x: tensor<4xf32>):\n'
            '    %1 = "stablehlo.{op}"(%x) {{source_target_pairs = dense<[[0, 1]]> : tensor<1x2xi64>}} : '
            '(tensor<4xf32>) -> tensor<4xf32>\n    stablehlo.return %1 : tensor<4xf32>\n'
            '  }}) : (tensor<4xf32>) -> !stablehlo.future<tensor<{n}xf32>>')
    _verify(body.format(op="collective_permute", n=4), "%a: tensor<4xf32>")
    _rejects(body.format(op="collective_permute", n=8), "%a: tensor<4xf32>", "incompatible with return")
    _rejects(body.format(op="negate", n=4), "%a: tensor<4xf32>", "collective or slice")


def test_bounded_results_have_one_bounded_dim():
    one = "tensor<?x3xf32, #stablehlo.bounds<5, ?>>"
    two = "tensor<?x?xf32, #stablehlo.bounds<5, 5>>"
    _verify(f"  %0 = stablehlo.reshape %a : ({one}) -> {one}", f"%a: {one}")
    _rejects(f"  %0 = stablehlo.reshape %a : ({two}) -> {two}", f"%a: {two}", "single bounded dimension")
    # unbounded '?' results: StablehloOps.td's statically-shaped-or-single-bounded
    # type (dynamic_reshape / dynamic_broadcast_in_dim carry a shape operand)
    _rejects("  %0 = stablehlo.reshape %a : (tensor<?x?xf32>) -> tensor<?x?xf32>", "%a: tensor<?x?xf32>",
             "single bounded dimension")
    _rejects("  %0 = stablehlo.broadcast_in_dim %a, dims = [1] : (tensor<3xf32>) -> tensor<?x3xf32>",
             "%a: tensor<3xf32>", "statically shaped or single bounded dimension")
    _verify("  %0 = stablehlo.broadcast_in_dim %a, dims = [1] : (tensor<3xf32>) -> "
            "tensor<?x3xf32, #stablehlo.bounds<4, ?>>", "%a: tensor<3xf32>")


def test_unranked_tensors_only_where_the_dialect_takes_them():
    """RankedTensorOf vs TensorOf (registry ``unranked``): custom_call and most
    CHLO ops take tensor<*xT>; the rest of StableHLO needs a rank."""
    _verify('  %0 = stablehlo.custom_call @foo(%a) : (tensor<*xf32>) -> tensor<*xf32>', "%a: tensor<*xf32>")
    _verify("  %0 = chlo.erf %a : tensor<*xf32> -> tensor<*xf32>", "%a: tensor<*xf32>")
    _rejects("  %0 = stablehlo.abs %a : tensor<*xf32>", "%a: tensor<*xf32>",
             r"operand #0 must be ranked tensor of .*, but got 'tensor<\*xf32>'")
    # chlo.broadcast_select: the predicate is RankedTensorOf, the values TensorOf
    _verify("  %0 = chlo.broadcast_select %p, %a, %a : (tensor<2xi1>, tensor<*xf32>, tensor<*xf32>) -> "
            "tensor<*xf32>", "%p: tensor<2xi1>, %a: tensor<*xf32>")
    _rejects("  %0 = chlo.broadcast_select %p, %a, %a : (tensor<*xi1>, tensor<*xf32>, tensor<*xf32>) -> "
             "tensor<*xf32>", "%p: tensor<*xi1>, %a: tensor<*xf32>", "operand #0 must be ranked tensor")


def test_builtin_integers_of_other_widths_parse_but_ops_need_stablehlo_types():
    _verify("", "%a: tensor<3xi10>, %b: tensor<2xui24>, %c: tensor<si3>")
    _rejects('  %0 = "stablehlo.abs"(%a) : (tensor<3xi10>) -> tensor<3xi10>', "%a: tensor<3xi10>",
             r"operand #0 must be ranked tensor of .*, but got 'tensor<3xi10>'")
    _rejects('  %0 = "stablehlo.is_finite"(%a) : (tensor<3xf32>) -> tensor<3xi10>', "%a: tensor<3xf32>",
             r"result #0 must be ranked tensor of .*, but got 'tensor<3xi10>'")


@pytest.mark.parametrize("op,attrs,key,what", [
    ("convolution", "feature_group_count = 0 : i64", "feature_group_count", "64-bit .* positive"),
    ("convolution", "batch_group_count = -2 : i64", "batch_group_count", "64-bit .* positive"),
    ("convolution", "feature_group_count = 1 : i32", "feature_group_count", "64-bit .* positive"),
])
def test_constrained_int_attributes_are_reported_at_the_pretty_attr_dict(op, attrs, key, what):
    """ConfinedAttr<I64Attr, [IntPositive]> (registry ``int_attrs``): a pretty
    form's attr-dict is where MLIR's generated parser checks them; the generic
    form reports them at the op."""
    pretty = (f"  %0 = stablehlo.{op}(%a, %k)\n"
              "         dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {}\n"
              f"         {{{attrs}}} : (tensor<1x4x2xf32>, tensor<3x2x2xf32>) -> tensor<1x2x2xf32>")
    args = "%a: tensor<1x4x2xf32>, %k: tensor<3x2x2xf32>"
    with pytest.raises(CompileError, match=f"'stablehlo.{op}' op attribute '{key}' failed to satisfy "
                                           f"constraint: {what}") as e:
        _verify(pretty, args)
    assert ":4:10: error:" in str(e.value)
    generic = pretty.replace(f"{{{attrs}}}", "").rstrip()
    _verify(generic, args)              # defaults: both counts 1


def test_constrained_int_attributes_written_as_keywords_or_generic_are_reported_at_the_op():
    msg = "op attribute 'dimension' failed to satisfy constraint: 64-bit signless integer attribute " \
          "whose value is non-negative"
    _rejects("  %0 = stablehlo.concatenate %a, %a, dim = -1 : (tensor<2xf32>, tensor<2xf32>) -> tensor<4xf32>",
             "%a: tensor<2xf32>", msg)
    _rejects('  %0 = "stablehlo.concatenate"(%a, %a) {dimension = -1 : i64} : '
             '(tensor<2xf32>, tensor<2xf32>) -> tensor<4xf32>', "%a: tensor<2xf32>", msg)
    _rejects('  %0 = "stablehlo.get_tuple_element"(%t) {index = 0 : i64} : (tuple<tensor<f32>>) -> tensor<f32>',
             "%t: tuple<tensor<f32>>", "'index' failed to satisfy constraint: 32-bit signless")
