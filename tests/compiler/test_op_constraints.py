"""The spec's per-op constraints in the verifier (ir/op_constraints.py):
errors are CompileErrors located at the op; dynamic dims stay accepted."""
import pytest

from tensorvm.compiler.errors import CompileError
from tensorvm.compiler.frontend import parse_module
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
