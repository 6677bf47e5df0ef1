"""Constant-heavy input (issue 34): long hex literals and resource blobs are
decoded in bulk off the text (compiler/mlir/source.py) into views of
one buffer each, long decimal literals in one numpy call, and a module with
tens of MB of constants compiles holding them about once."""
from __future__ import annotations

import mmap
import subprocess
import sys
import textwrap

import ml_dtypes
import numpy as np
import pytest

from tensorvm.compiler.errors import ParseError
from tensorvm.compiler.mlir import dense, source
from tensorvm.compiler.mlir.parser import parse_module
from tensorvm.compiler.passes.simplify import CommonSubexpressionElimination

N = 4096                      # elements: every literal below is long enough to be cut
assert N * 2 >= source.MIN_CUT_HEX


def _module(literal: str, ty: str) -> str:
    return (f"func.func @main() -> {ty} {{\n"
            f"  %0 = stablehlo.constant {literal} : {ty}\n"
            f"  return %0 : {ty}\n}}\n")


def _value(text):
    mod = text if not isinstance(text, str) else text
    [f] = parse_module(mod).functions
    return f.regions[0].blocks[0].operations[0].attr("value").array


def _hex_literal(arr: np.ndarray) -> str:
    return f'dense<"0x{arr.astype(arr.dtype.newbyteorder("<")).tobytes().hex().upper()}">'


@pytest.mark.parametrize("dtype,element", [
    (np.float32, "f32"), (np.float16, "f16"), (ml_dtypes.bfloat16, "bf16"),
    (np.int8, "i8"), (np.uint16, "ui16"), (np.int64, "i64"), (np.float64, "f64"),
    (np.complex64, "complex<f32>"), (np.complex128, "complex<f64>"),
])
def test_long_hex_literal_decoded_off_the_text(dtype, element):
    rng = np.random.default_rng(1)
    arr = (rng.standard_normal(N) * 100).astype(dtype)
    if np.dtype(dtype).kind == "c":
        arr = (arr + 1j * rng.standard_normal(N)).astype(dtype)
    got = _value(_module(_hex_literal(arr.reshape(64, 64)), f"tensor<64x64x{element}>"))
    assert got.dtype == np.dtype(dtype) and got.shape == (64, 64)
    np.testing.assert_array_equal(got.reshape(-1).view(np.uint8), arr.view(np.uint8))
    assert not got.flags.writeable and got.base is not None     # a view of the decoded buffer


def test_hex_bytes_are_little_endian():
    digits = "01000000" + "00000080" * (N - 1)       # 1, then INT32_MIN
    got = _value(_module(f'dense<"0x{digits}">', f"tensor<{N}xi32>"))
    assert got[0] == 1 and (got[1:] == np.iinfo(np.int32).min).all()


def test_long_i1_literal_one_byte_per_element():
    bits = np.arange(N) % 3 == 0
    got = _value(_module(f'dense<"0x{bits.astype(np.uint8).tobytes().hex()}">',
                         f"tensor<{N}xi1>"))
    assert got.dtype == np.bool_ and (got == bits).all()


def test_short_hex_and_splat_keep_the_ordinary_path():
    assert _value(_module('dense<"0x0000803F">', "tensor<3x5xf32>")).tolist() == [[1.0] * 5] * 3
    assert (_value(_module('dense<"0x0000C03F">', "tensor<1024x1024xf32>")) == 1.5).all()


def test_mmap_and_bytes_input_parse_like_text(tmp_path):
    arr = np.arange(N, dtype=np.float32)
    text = _module(_hex_literal(arr), f"tensor<{N}xf32>")
    path = tmp_path / "m.mlir"
    path.write_text(text)
    with open(path, "rb") as f, mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as m:
        np.testing.assert_array_equal(_value(m), arr)
    np.testing.assert_array_equal(_value(text.encode()), arr)


def _error_at(text):
    with pytest.raises(ParseError) as e:
        parse_module(text)
    return e.value.line, e.value.column


def test_errors_after_a_cut_literal_keep_their_columns(monkeypatch):
    lit = _hex_literal(np.zeros(N, np.float32))
    bad = (f"func.func @main() {{\n  %0 = stablehlo.constant {lit} : tensor<{N}xf32>\n"
           f"  %1 = stablehlo.constant {lit} : tensor<{N}xf32> )\n}}\n")
    cut = _error_at(bad), _error_at(f"// é\n{bad}".encode())
    monkeypatch.setattr(source, "MIN_CUT_HEX", 1 << 40)      # nothing cut: the plain path
    plain = _error_at(bad)
    assert plain[0] == 3 and plain[1] > len(lit)
    assert cut == (plain, (4, plain[1]))      # columns count characters, not bytes


def test_long_literal_that_is_not_hex_is_located():
    digits = "00" * (N - 1) + "ZZ"
    text = f'func.func @main() {{\n  %0 = stablehlo.constant dense<"0x{digits}"> : tensor<{N}xi8>\n}}'
    with pytest.raises(ParseError, match="malformed hex") as e:
        parse_module(text)
    assert e.value.line == 2


def test_wrong_byte_count_is_located():
    text = _module(_hex_literal(np.zeros(N, np.float32)), f"tensor<{N + 1}xf32>")
    with pytest.raises(ParseError, match=f"{4 * N} bytes but a tensor of {N + 1}"):
        parse_module(text)


def test_input_that_is_not_utf8_names_the_line():
    with pytest.raises(ParseError, match="not UTF-8") as e:
        parse_module(b"func.func @main() {\n  return\n}\n// \xff\xfe\n")
    assert e.value.line == 4


def test_long_dense_resource_blob():
    arr = np.arange(N, dtype=np.float32) - 7.5
    blob = "04000000" + arr.tobytes().hex()           # 4 bytes of alignment, then the data
    text = (f"func.func @main() -> tensor<{N}xf32> {{\n"
            f"  %0 = stablehlo.constant dense_resource<w> : tensor<{N}xf32>\n"
            f"  return %0 : tensor<{N}xf32>\n}}\n"
            f'{{-#\n  dialect_resources: {{\n    builtin: {{\n      w: "0x{blob}"\n    }}\n  }}\n#-}}\n')
    got = _value(text)
    np.testing.assert_array_equal(got, arr)
    assert got.base is not None
    np.testing.assert_array_equal(_value(text.encode()), arr)


@pytest.mark.parametrize("element,values", [
    ("f32", np.linspace(-3, 3, N, dtype=np.float32)),
    ("f64", np.geomspace(1e-300, 1e300, N)),
    ("bf16", np.linspace(-3, 3, N).astype(ml_dtypes.bfloat16)),
    ("i32", np.arange(-N // 2, N // 2, dtype=np.int32) * 1000),
    ("ui8", (np.arange(N) % 256).astype(np.uint8)),
])
def test_long_decimal_literal_bulk_path(element, values, monkeypatch):
    monkeypatch.setattr(dense, "BULK_LITERAL_CHARS", 1000)
    body = "[" + ", ".join("[" + ", ".join(repr(v.item() if element != "bf16" else float(v))
                                             for v in row) + "]"
                           for row in values.reshape(64, -1)) + "]"
    bulk = dense._bulk_decimal(body, element, (64, N // 64))
    assert bulk is not None                       # taken, not left to the general path
    np.testing.assert_array_equal(bulk.reshape(-1), values)
    got = _value(_module(f"dense<{body}>", f"tensor<64x{N // 64}x{element}>"))
    np.testing.assert_array_equal(got.reshape(-1), values)


def test_long_complex_decimal_literal(monkeypatch):
    monkeypatch.setattr(dense, "BULK_LITERAL_CHARS", 1000)
    z = (np.arange(N) + 0.5j * np.arange(N)).astype(np.complex64)
    body = "[" + ", ".join(f"({float(v.real)!r}, {float(v.imag)!r})" for v in z) + "]"
    assert dense._bulk_decimal(body, "complex<f32>", (N,)) is not None
    got = _value(_module(f"dense<{body}>", f"tensor<{N}xcomplex<f32>>"))
    np.testing.assert_array_equal(got, z)


def test_long_decimal_literal_errors_come_from_the_general_path(monkeypatch):
    monkeypatch.setattr(dense, "BULK_LITERAL_CHARS", 1000)
    body = "[" + ", ".join(["1.5"] * (N + 1)) + "]"
    with pytest.raises(ParseError, match=f"has {N + 1} values, expected {N}"):
        parse_module(_module(f"dense<{body}>", f"tensor<{N}xf32>"))
    body = "[" + ", ".join(["1.5"] * (N - 1) + ["true"]) + "]"
    with pytest.raises(ParseError, match="boolean literal"):
        parse_module(_module(f"dense<{body}>", f"tensor<{N}xf32>"))


def test_cse_merges_equal_big_constants_only():
    a = np.arange(3 * N, dtype=np.float32)
    b = a.copy()
    b[N] = -1.0                          # same ends (the hashed sample), different middle
    ty = f"tensor<{3 * N}xf32>"
    text = (f"func.func @main() -> ({ty}, {ty}, {ty}) {{\n"
            f"  %0 = stablehlo.constant {_hex_literal(a)} : {ty}\n"
            f"  %1 = stablehlo.constant {_hex_literal(a)} : {ty}\n"
            f"  %2 = stablehlo.constant {_hex_literal(b)} : {ty}\n"
            f"  return %0, %1, %2 : {ty}, {ty}, {ty}\n}}\n")
    mod = parse_module(text)
    CommonSubexpressionElimination().run(mod)
    ops = mod.functions[0].regions[0].blocks[0].operations
    assert [o.name for o in ops].count("stablehlo.constant") == 2


_MEASURE = textwrap.dedent("""
    import resource, sys
    import numpy as np
    from tensorvm.compiler import compile_file
    from tensorvm.vmfb import container
    compile_file(sys.argv[1], output=sys.argv[2])
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    m = container.read_module(sys.argv[2])
    print(peak, sum(len(r.data) for r in m.rodata))
""")


def _constants_module(path, count: int, n: int) -> int:
    """``count`` constants of ``n`` f32 each, summed into the result."""
    ty = f"tensor<{n}xf32>"
    rng = np.random.default_rng(0)
    with open(path, "w") as f:
        f.write(f"func.func @main(%x: {ty}) -> {ty} {{\n")
        prev = "%x"
        for i in range(count):
            f.write(f'  %c{i} = stablehlo.constant dense<"0x')
            f.write(rng.standard_normal(n, dtype=np.float32).tobytes().hex().upper())
            f.write(f'"> : {ty}\n  %s{i} = stablehlo.add {prev}, %c{i} : {ty}\n')
            prev = f"%s{i}"
        f.write(f"  return {prev} : {ty}\n}}\n")
    return count * n * 4


def _peak(tmp_path, name, count, n) -> tuple:
    src = tmp_path / f"{name}.mlir"
    weights = _constants_module(src, count, n)
    r = subprocess.run([sys.executable, "-c", _MEASURE, str(src), str(tmp_path / f"{name}.vmfb")],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    peak, rodata = map(int, r.stdout.split())
    assert rodata >= weights
    return peak, weights


def test_50mb_of_constants_compile_in_bounded_memory(tmp_path):
    """Peak RSS grows by at most ~1.25x the constants' bytes over the same
    program with small ones: text (100 MB of hex) and output are never held."""
    base, small = _peak(tmp_path, "small", 12, 1 << 10)
    big, weights = _peak(tmp_path, "big", 12, 1 << 20)     # 48 MiB of f32
    assert big - base < 1.25 * (weights - small), (base, big, weights)
