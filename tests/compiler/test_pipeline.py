"""Compiler pipeline: golden dispatch counts (fusion regressions show up as
numbers), memory planning, and typed errors for bad input."""
from __future__ import annotations

import pytest
from fixtures import load_model

from tensorvm.compiler import CompileError, ParseError, UnsupportedOpError, compile_str
from tensorvm.compiler.api import CompileOptions, compile_text

# Dispatches per model after fusion. Lower is better; a rise is a regression.
GOLDEN_DISPATCHES = {
    "add4": 1,
    "matmul512": 1,
    "mlp": 3,              # one contraction per layer, bias + relu fused as epilogues
    "cnn_dot": 7,          # contractions root their dispatches; constant weight reshapes folded
    "transformer_block": 11,  # layer norms and softmaxes are row kernels (CPU-only compile: row fusion); the GELU in its
                              # product; q, k and v read in place from the fused projection (slices are views)
}


@pytest.mark.parametrize("name", sorted(GOLDEN_DISPATCHES))
def test_dispatch_count(name):
    text, _, _ = load_model(name)
    stats = compile_text(text, CompileOptions()).stats
    assert stats["dispatches"]["main"] == GOLDEN_DISPATCHES[name]


def test_transient_memory_is_reused():
    text, _, _ = load_model("mlp")
    stats = compile_text(text, CompileOptions()).stats
    # Three 8x64-ish f32 activations alive at most two at a time.
    assert 0 < stats["transient_bytes"]["main"] <= 4096


def test_elementwise_chain_fuses_into_one_dispatch():
    text = """
    func.func @main(%a: tensor<16xf32>, %b: tensor<16xf32>) -> tensor<16xf32> {
      %0 = stablehlo.add %a, %b : tensor<16xf32>
      %1 = stablehlo.multiply %0, %a : tensor<16xf32>
      %2 = stablehlo.exponential %1 : tensor<16xf32>
      %3 = stablehlo.negate %2 : tensor<16xf32>
      return %3 : tensor<16xf32>
    }"""
    assert compile_text(text, CompileOptions()).stats["dispatches"]["main"] == 1


def test_unsupported_op_is_named():
    text = """
    func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {
      %0 = stablehlo.custom_call @my_kernel(%a) : (tensor<4xf32>) -> tensor<4xf32>
      return %0 : tensor<4xf32>
    }"""
    with pytest.raises(UnsupportedOpError, match="stablehlo.custom_call"):
        compile_str(text)


def test_parse_error_has_line_and_column():
    text = "func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {\n  return %b : tensor<4xf32>\n}"
    with pytest.raises(ParseError) as e:
        compile_str(text)
    assert e.value.line == 2


def test_unknown_target_is_rejected():
    with pytest.raises(CompileError, match="unknown target"):
        compile_str("func.func @main() -> () { return }", targets=["tpu"])


def _dispatch_bodies(text):
    """Names of the heavy ops inside each dispatch region after fusion."""
    from tensorvm.compiler.dialects import stablehlo as shlo
    from tensorvm.compiler.mlir.parser import parse_module
    from tensorvm.compiler.pipeline import ir_passes
    module = parse_module(text)
    for p in ir_passes():
        p.run(module)
    out = []
    for op in module.functions[0].regions[0].blocks[0].operations:
        if op.name == "tvm.dispatch":
            out.append([o.name for o in op.regions[0].blocks[0].operations if o.name in shlo.HEAVY])
    return out


def test_convolution_chain_is_never_recomputed():
    """relu(x + conv(relu(conv(x, w1)), w2)): each convolution roots one
    dispatch with its elementwise epilogue; no dispatch holds two."""
    conv = ('"stablehlo.convolution"({a}, {w}) {{dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x'
            '[0, 1, i, o]->[b, 0, 1, f]>, padding = dense<1> : tensor<2x2xi64>, batch_group_count = 1 : i64, '
            'feature_group_count = 1 : i64}} : (tensor<1x8x8x4xf32>, tensor<3x3x4x4xf32>) -> tensor<1x8x8x4xf32>')
    text = f"""
    func.func @main(%x: tensor<1x8x8x4xf32>, %w1: tensor<3x3x4x4xf32>, %w2: tensor<3x3x4x4xf32>) -> tensor<1x8x8x4xf32> {{
      %z = stablehlo.constant dense<0.0> : tensor<1x8x8x4xf32>
      %0 = {conv.format(a="%x", w="%w1")}
      %1 = stablehlo.maximum %0, %z : tensor<1x8x8x4xf32>
      %2 = {conv.format(a="%1", w="%w2")}
      %3 = stablehlo.add %x, %2 : tensor<1x8x8x4xf32>
      %4 = stablehlo.maximum %3, %z : tensor<1x8x8x4xf32>
      return %4 : tensor<1x8x8x4xf32>
    }}"""
    assert _dispatch_bodies(text) == [["stablehlo.convolution"], ["stablehlo.convolution"]]


def test_reduction_feeding_a_broadcast_is_computed_once():
    """softmax's row max goes through an epilogue then a broadcast: the
    reduction must land in a buffer, not be recomputed per element."""
    text = """
    func.func @main(%x: tensor<8x32xf32>) -> tensor<8x32xf32> {
      %init = stablehlo.constant dense<0xFF800000> : tensor<f32>
      %m = stablehlo.reduce(%x init: %init) applies stablehlo.maximum across dimensions = [1] : (tensor<8x32xf32>, tensor<f32>) -> tensor<8xf32>
      %n = stablehlo.negate %m : tensor<8xf32>
      %b = stablehlo.broadcast_in_dim %n, dims = [0] : (tensor<8xf32>) -> tensor<8x32xf32>
      %s = stablehlo.add %x, %b : tensor<8x32xf32>
      return %s : tensor<8x32xf32>
    }"""
    assert _dispatch_bodies(text) == [["stablehlo.reduce"], []]


@pytest.mark.parametrize("element", ["tf32", "!quant.any<i8:f32>"])
def test_element_types_a_module_cannot_carry_are_a_typed_error(element):
    text = f"""
    func.func @main(%x: tensor<2x{element}>) -> tensor<2x{element}> {{
      return %x : tensor<2x{element}>
    }}"""
    with pytest.raises(UnsupportedOpError, match="element type .* is not supported"):
        compile_str(text)
