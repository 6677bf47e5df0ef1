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
    "cnn_dot": 6,
    "transformer_block": 22,
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
