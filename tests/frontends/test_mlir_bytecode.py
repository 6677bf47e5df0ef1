"""StableHLO portable artifacts (VHLO bytecode) read natively (compiler/mlir/
bytecode.py, vhlo.py): the IR equals what jaxlib's deserialiser + text gives,
constants stay views of the input file, damaged input is a typed error."""
from __future__ import annotations

import mmap
import os
import sys
import warnings
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("jax", reason="the artifacts are written with jax's jaxlib (pip install jax)")

from jaxlib.mlir import ir  # noqa: E402
from jaxlib.mlir.dialects import stablehlo  # noqa: E402

from tensorvm.compiler.errors import CompileError  # noqa: E402
from tensorvm.compiler.frontends.artifacts import (bytecode_to_text, open_artifact,  # noqa: E402
                                                   read_artifact)
from tensorvm.compiler.ir import attributes as A  # noqa: E402
from tensorvm.compiler.mlir.bytecode import BytecodeError  # noqa: E402
from tensorvm.compiler.mlir.parser import parse_module  # noqa: E402
from tensorvm.compiler.mlir.source import Source  # noqa: E402
from tensorvm.compiler.mlir.vhlo import read_portable_artifact  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))), "tools"))
from check_mlirbc import canonical  # noqa: E402  (the IR printed, attributes sorted)

TESTDATA = Path(__file__).resolve().parents[2].parent / "shared" / "conformance" / "testdata"
#: One program per shape of encoding: regions (sort, reduce, while), structs
#: (dot, gather, scatter, conv), i64 arrays, i1 and complex constants, enums.
PROGRAMS = ["abs_complex64_20_20.mlir", "sort_complex64_5_7.mlir",
            "reduce_window_add_float32_112_112.mlir", "gather_float32_10_10_10_int64_1_4_2.mlir",
            "conv_general_dilated_float32_2_3_9_10_float32_4_5_3_3.mlir",
            "pad_uint32_2_3_uint32.mlir", "random_randint_.mlir",
            "select_and_scatter_add_float16_1_3_5_float16_2_4_6.mlir",
            "dot_general_float32_4_3_complex64_3_6.mlir", "argmax_bool_15.mlir",
            "scatter_add_bfloat16_5_6_7_bfloat16_5_2_2.mlir", "broadcast_in_dim_bool_2.mlir",
            "while", "names"]
#: Dictionary keys and symbols the lexer does not read bare (a '-', a quote).
NAMES = """func.func private @"my-fn\\22"(%x: tensor<f32>) -> tensor<f32> attributes {"my-key" = 1 : i32} {
  return %x : tensor<f32>
}
func.func @main(%x: tensor<f32>) -> tensor<f32> {
  %y = call @"my-fn\\22"(%x) : (tensor<f32>) -> tensor<f32>
  return %y : tensor<f32>
}
"""
WHILE = """func.func @main(%x: tensor<f32>) -> tensor<f32> {
  %c = stablehlo.constant dense<0> : tensor<i32>
  %r:2 = stablehlo.while(%i = %c, %v = %x) : tensor<i32>, tensor<f32>
    cond {
      %lim = stablehlo.constant dense<3> : tensor<i32>
      %p = stablehlo.compare LT, %i, %lim : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %p : tensor<i1>
    } do {
      %one = stablehlo.constant dense<1> : tensor<i32>
      %n = stablehlo.add %i, %one : tensor<i32>
      %w = stablehlo.multiply %v, %v : tensor<f32>
      stablehlo.return %n, %w : tensor<i32>, tensor<f32>
    }
  return %r#1 : tensor<f32>
}
"""


def _serialise(text: str, target: str) -> bytes:
    from jax._src.interpreters.mlir import make_ir_context
    with make_ir_context():
        return stablehlo.serialize_portable_artifact(ir.Module.parse(text), target)


def _program(name: str) -> str:
    if name in ("while", "names"):
        return WHILE if name == "while" else NAMES
    path = TESTDATA / name
    if not path.exists():
        matches = sorted(TESTDATA.glob(name.split("_")[0] + "_*.mlir"))
        if not matches:
            pytest.skip(f"no conformance program like {name}")
        path = matches[0]
    return path.read_text()


@pytest.mark.parametrize("target", ["current", "0.9.0"])
@pytest.mark.parametrize("name", PROGRAMS)
def test_native_reader_gives_the_ir_of_the_jaxlib_text_path(name, target):
    text = _program(name)
    version = stablehlo.get_current_version() if target == "current" else target
    data = _serialise(text, version)
    native = read_portable_artifact(data, name)
    assert isinstance(native, Source)
    assert canonical(parse_module(native, name)) == \
        canonical(parse_module(bytecode_to_text(data, name), name))


def _big_constant_artifact(n: int) -> tuple:
    weights = np.arange(n, dtype=np.float32) * 0.5 - 7.0
    hexdata = weights.tobytes().hex().upper()
    text = (f'func.func @main(%x: tensor<{n}xf32>) -> tensor<{n}xf32> {{\n'
            f'  %w = stablehlo.constant dense<"0x{hexdata}"> : tensor<{n}xf32>\n'
            f'  %y = stablehlo.add %x, %w : tensor<{n}xf32>\n'
            f'  return %y : tensor<{n}xf32>\n}}\n')
    return weights, _serialise(text, stablehlo.get_current_version())


def test_a_large_constant_is_a_view_of_the_mapped_file(tmp_path):
    weights, data = _big_constant_artifact(1 << 18)
    path = tmp_path / "big.mlirbc"
    path.write_bytes(data)
    with warnings.catch_warnings():
        warnings.simplefilter("error")          # no fallback to jaxlib's text
        src, _ = open_artifact(path)
    assert isinstance(src, Source) and src.blob_bytes >= weights.nbytes
    assert len(src.text) < 2048                 # the skeleton holds no constant data
    module = parse_module(src, str(path))
    consts = [op.attributes["value"] for op in module.functions[0].regions[0].blocks[0].operations
              if op.name == "stablehlo.constant"]
    (arr,) = [c.array for c in consts if isinstance(c, A.DenseElementsAttr)]
    np.testing.assert_array_equal(arr, weights)
    assert not arr.flags.writeable and not arr.flags.owndata
    base = arr
    while isinstance(base, np.ndarray) and base.base is not None:
        base = base.base
    owner = base.obj if isinstance(base, memoryview) else base
    assert isinstance(owner, mmap.mmap)         # the file's pages, not a copy


def test_damaged_bytecode_is_a_typed_error():
    _, data = _big_constant_artifact(64)
    rng = np.random.default_rng(0)
    for i in range(300):
        d = bytearray(data)
        if i % 2:
            d = d[:int(rng.integers(4, len(d)))]
        else:
            for p in rng.integers(4, len(d), 3):
                d[p] = int(rng.integers(256))
        try:
            parse_module(read_portable_artifact(bytes(d), "damaged.mlirbc"), "damaged.mlirbc")
        except CompileError:
            pass                                # BytecodeError, or the parser's ParseError
    with pytest.raises(BytecodeError, match="runs past|end of data"):
        read_portable_artifact(data[:len(data) // 2], "half.mlirbc")
    with pytest.raises(BytecodeError, match="version 99 is newer"):
        read_portable_artifact(b"ML\xefR" + bytes([99 << 1 | 1]) + data[5:], "new.mlirbc")


def test_unknown_op_is_named_and_falls_back_to_jaxlib():
    text = _program("abs_float32_20_20.mlir")
    data = _serialise(text, stablehlo.get_current_version())
    renamed = data.replace(b"abs_v1", b"abz_v1")
    with pytest.raises(BytecodeError, match="'vhlo.abz_v1'") as e:
        read_portable_artifact(renamed, "renamed.mlirbc")
    assert e.value.unsupported
    with pytest.warns(UserWarning, match="vhlo.abz_v1.*through jaxlib"):
        with pytest.raises(CompileError, match="native reader: .*abz_v1"):
            read_artifact(renamed, "renamed.mlirbc")       # jaxlib does not know it either


def test_compiling_an_artifact_needs_no_jaxlib(tmp_path):
    """In a process where jaxlib cannot be imported, the CLI compiles a
    portable artifact natively (and a module the reader does not know is a
    one-line error naming the op, not a fallback)."""
    import subprocess
    data = _serialise(WHILE, stablehlo.get_current_version())
    (tmp_path / "ok.mlirbc").write_bytes(data)
    (tmp_path / "unknown.mlirbc").write_bytes(data.replace(b"multiply_v1", b"multiplz_v1"))
    script = (
        "import sys; sys.modules['jaxlib'] = sys.modules['jax'] = None\n"
        "from tensorvm.compiler import cli\n"
        "ok = cli.main([sys.argv[1], '-o', sys.argv[2]])\n"
        "bad = cli.main([sys.argv[3], '-o', sys.argv[2] + '.bad'])\n"
        "print('RESULT', ok, bad)\n")
    r = subprocess.run([sys.executable, "-c", script, str(tmp_path / "ok.mlirbc"),
                        str(tmp_path / "ok.vmfb"), str(tmp_path / "unknown.mlirbc")],
                       capture_output=True, text=True, timeout=600)
    assert "RESULT 0 1" in r.stdout, r.stdout + r.stderr
    from tensorvm.runtime import load_module
    got = load_module(str(tmp_path / "ok.vmfb")).main(np.float32(1.5))
    np.testing.assert_allclose(np.asarray(got), np.float32(1.5) ** 8, rtol=1e-6)
    assert "'vhlo.multiplz_v1'" in r.stderr and "Traceback" not in r.stderr
