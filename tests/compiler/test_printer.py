"""Printer round trips (parse -> print -> parse), equality helper, verifier."""
import glob
import os

import numpy as np
import pytest

from tensorvm.compiler.errors import CompileError
from tensorvm.compiler.mlir import parse_module
from tensorvm.compiler.ir import attributes as A
from tensorvm.compiler.ir.equality import attr_equal, module_diff
from tensorvm.compiler.ir.printer import attr_str, print_module
from tensorvm.compiler.ir.types import TensorType
from tensorvm.compiler.ir.verifier import verify_module

from test_parser_conformance import FOLDERS, ROOT, _files, _sample, cases, needs_data

MODELS = sorted(glob.glob(os.path.join(os.path.dirname(__file__), "..", "models", "*.mlir")))

PROGRAM = """
module @m attributes {mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<2x3xf32> {jax.arg_info = "x"}, %arg1: tensor<i64>) -> (tensor<3xf32> {jax.result_info = ""}) {
    %cst = stablehlo.constant dense<[1.5, 0x7FC00000, -0.0]> : tensor<3xf32>
    %0 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.add across dimensions = [0] : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<3xf32>
    %1 = stablehlo.compare GT, %0, %cst, FLOAT : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xi1>
    %2 = stablehlo.select %1, %0, %cst : tensor<3xi1>, tensor<3xf32>
    %3:2 = stablehlo.while(%it = %arg1, %acc = %2) : tensor<i64>, tensor<3xf32>
    cond {
      %c = stablehlo.constant dense<4> : tensor<i64>
      %p = stablehlo.compare LT, %it, %c : (tensor<i64>, tensor<i64>) -> tensor<i1>
      stablehlo.return %p : tensor<i1>
    } do {
      %n = func.call @step(%acc) : (tensor<3xf32>) -> tensor<3xf32>
      stablehlo.return %it, %n : tensor<i64>, tensor<3xf32>
    }
    %4 = stablehlo.transpose %arg0, dims = [1, 0] : (tensor<2x3xf32>) -> tensor<3x2xf32>
    %5 = "stablehlo.gather"(%4, %arg1) {dimension_numbers = #stablehlo.gather<offset_dims = [0], collapsed_slice_dims = [0], start_index_map = [0]>, slice_sizes = array<i64: 1, 2>} : (tensor<3x2xf32>, tensor<i64>) -> tensor<2xf32>
    stablehlo.custom_call @"weird name"(%5) {backend_config = "a\\"b\\0A", has_side_effect = true} : (tensor<2xf32>) -> ()
    return %3#1 : tensor<3xf32>
  }
  func.func private @step(%x: tensor<3xf32>) -> tensor<3xf32> {
    %0 = stablehlo.multiply %x, %x : tensor<3xf32>
    return %0 : tensor<3xf32>
  }
}
"""


def roundtrip(module, generic):
    text = print_module(module, generic=generic)
    again = parse_module(text, "<printed>")
    diff = module_diff(module, again)
    assert diff is None, f"{diff}\n--- printed ---\n{text[:3000]}"
    return text


@pytest.mark.parametrize("generic", [False, True])
def test_roundtrip_program(generic):
    m = parse_module(PROGRAM)
    text = roundtrip(m, generic)
    if generic:
        assert '"stablehlo.add"' in text and "func.func @" not in text
    else:
        assert "stablehlo.transpose %" in text and "dims = [1, 0]" in text
    verify_module(m)


def test_equality_detects_changes():
    a = parse_module(PROGRAM)
    assert module_diff(a, parse_module(PROGRAM.replace("GT", "GE"))) is not None
    assert module_diff(a, parse_module(PROGRAM.replace("%0, %cst, FLOAT", "%cst, %0, FLOAT")))
    assert module_diff(a, parse_module(PROGRAM.replace("-0.0]", "0.0]")))
    assert module_diff(a, parse_module(PROGRAM)) is None


def test_attribute_printing():
    nan = A.DenseElementsAttr(TensorType((2,), "bf16"),
                              np.array([np.nan, 1.0], dtype=A.np.dtype("float32")).astype(
                                  __import__("ml_dtypes").bfloat16))
    assert attr_str(nan) == "dense<[0x7FC0, 1.0]> : tensor<2xbf16>"
    assert attr_str(A.FloatAttr(float("inf"), "f32")) == "0x7F800000 : f32"
    assert attr_str(A.DenseArrayAttr("i1", (True, False))) == "array<i1: true, false>"
    assert attr_str(A.DenseArrayAttr("i64", ())) == "array<i64>"
    big = A.DenseElementsAttr(TensorType((100,), "i32"), np.arange(100, dtype=np.int32))
    assert attr_str(big).startswith('dense<"0x0000000001000000')
    assert attr_equal(big, A.DenseElementsAttr(big.type, np.arange(100, dtype=np.int32)))


@pytest.mark.parametrize("path", MODELS, ids=os.path.basename)
def test_roundtrip_models(path):
    m = parse_module(open(path).read(), path)
    verify_module(m)
    roundtrip(m, False)
    roundtrip(m, True)


@needs_data
@pytest.mark.parametrize("path", _sample(), ids=os.path.basename)
def test_roundtrip_sample(path):
    for text, _ in cases(path):
        m = parse_module(text, path)
        verify_module(m)
        roundtrip(m, False)
        roundtrip(m, True)


# Suite programs that are not valid StableHLO: the verifier must reject them.
INVALID = {"conv_general_dilated_1d_stride_2_even_dynamic.mlir": "window_strides"}


@needs_data
@pytest.mark.conformance
@pytest.mark.parametrize("folder", FOLDERS)
def test_roundtrip_all(folder):
    failures = []
    for path in _files(folder):
        for text, line in cases(path):
            if os.path.basename(path) in INVALID:
                with pytest.raises(CompileError, match=INVALID[os.path.basename(path)]):
                    verify_module(parse_module(text, path))
                continue
            try:
                m = parse_module(text, path)
                verify_module(m)
                roundtrip(m, False)
                roundtrip(m, True)
            except Exception as e:  # report every failing file at once
                failures.append(f"{os.path.basename(path)}:{line}: {str(e)[:300]}")
    assert not failures, f"{len(failures)} failed:\n" + "\n".join(failures[:20])


def _verify_error(text):
    with pytest.raises(CompileError) as info:
        verify_module(parse_module(text))
    return str(info.value)


def test_verifier_return_type_mismatch():
    msg = _verify_error("func.func @f(%a: tensor<f32>) -> tensor<i32> {\n"
                        "  return %a : tensor<f32>\n}")
    assert "<input>:2:3" in msg and "func.return" in msg and "tensor<i32>" in msg


def test_verifier_dominance():
    m = parse_module("func.func @f(%a: tensor<f32>) -> tensor<f32> {\n"
                     "  %0 = stablehlo.add %a, %a : tensor<f32>\n"
                     "  %1 = stablehlo.negate %0 : tensor<f32>\n"
                     "  return %1 : tensor<f32>\n}")
    block = m.functions[0].regions[0].block
    add, neg, ret = block.operations
    block.operations[:2] = [neg, add]      # use before definition
    with pytest.raises(CompileError, match=r"<input>:3:3.*does not dominate"):
        verify_module(m)


def test_verifier_missing_terminator_and_counts():
    msg = _verify_error('func.func @f(%a: tensor<f32>) {\n'
                        '  %0 = "stablehlo.add"(%a) : (tensor<f32>) -> tensor<f32>\n'
                        '  return\n}')
    assert "expects 2 operands" in msg and "<input>:2:3" in msg
    msg = _verify_error('func.func @f(%a: tensor<f32>) {\n'
                        '  %0 = "stablehlo.negate"(%a) : (tensor<f32>) -> tensor<f32>\n}')
    assert "func.return" in msg and "<input>:1:1" in msg


def test_verifier_call():
    msg = _verify_error("func.func @f(%a: tensor<f32>) {\n"
                        "  %0 = call @g(%a) : (tensor<f32>) -> tensor<f32>\n  return\n}")
    assert "@g" in msg and "<input>:2:3" in msg


def test_unranked_and_any_width_integer_types_round_trip():
    from tensorvm.compiler.ir.types import UnrankedTensorType
    text = """func.func @f(%a: tensor<*xf32>, %b: tensor<2xi10>, %c: tensor<ui24>) -> tensor<*xf32> {
  %0 = chlo.erf %a : tensor<*xf32> -> tensor<*xf32>
  return %0 : tensor<*xf32>
}"""
    m = parse_module(text)
    verify_module(m)
    args = m.functions[0].regions[0].blocks[0].arguments
    assert args[0].type == UnrankedTensorType("f32") and args[1].type.element == "i10"
    printed = print_module(m)
    assert "tensor<*xf32>" in printed and "tensor<2xi10>" in printed and "tensor<ui24>" in printed
    assert print_module(parse_module(printed)) == printed
