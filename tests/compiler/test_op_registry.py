"""The op registry (compiler/dialects/registry.py) covers the whole dialect:
every op that StablehloOps.td and ChloOps.td define has an entry, and none
is rejected any more."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from tensorvm.compiler import compile_str
from tensorvm.compiler.dialects import registry as R
from tensorvm.compiler.dialects import stablehlo as shlo

DIALECT = Path(__file__).resolve().parents[2].parent / "shared" / "conformance" / "dialect"
# ``def StableHLO_AddOp : StableHLO_BinaryElementwiseOp<"add", ...`` (the base
# class and the name may sit on the next line)
_DEF = re.compile(r'^def\s+\w+Op\s*:\s*\w+\s*<\s*"([\w.\-]+)"', re.M)


def _td_ops(file: str, prefix: str) -> set:
    path = DIALECT / file
    if not path.exists():
        pytest.skip(f"{path} is not present")
    return {prefix + n for n in _DEF.findall(path.read_text())}


@pytest.mark.parametrize("file,prefix,least", [("StablehloOps.td", "stablehlo.", 110),
                                               ("ChloOps.td", "chlo.", 45)])
def test_every_dialect_op_has_a_registry_entry(file, prefix, least):
    ops = _td_ops(file, prefix)
    assert len(ops) >= least, f"the op pattern found only {len(ops)} ops in {file}"
    missing = sorted(ops - set(R.OPS))
    assert not missing, f"ops of {file} without a registry entry: {missing}"


def test_registry_names_outside_the_dialect_are_marked():
    td = _td_ops("StablehloOps.td", "stablehlo.") | _td_ops("ChloOps.td", "chlo.")
    assert {n for n, d in R.OPS.items() if not d.in_td} == set(R.OPS) - td


def test_entries_are_consistent():
    for d in R.OPS.values():
        assert d.lowering in R.LOWERINGS
        if d.arity is not None:
            assert d.lowering == R.ELEMENTWISE, d.name
            assert d.operands in (None, d.arity), d.name
        if d.lowering in (R.DECOMPOSED, R.REJECTED):
            assert d.reason, d.name
    # every op the kernel emitter compiles is declared elementwise or structured
    for n in shlo.KERNEL_OPS:
        assert R.OPS[n].lowering in (R.ELEMENTWISE, R.STRUCTURED), n


def test_derived_sets_partition_the_kernel_ops():
    assert shlo.ELEMENTWISE == shlo.UNARY_ELEMENTWISE | shlo.BINARY_ELEMENTWISE | \
        shlo.TERNARY_ELEMENTWISE | {"stablehlo.map", "stablehlo.reduce_precision"}
    groups = (shlo.ELEMENTWISE, shlo.INDEX_REMAP, shlo.HEAVY, shlo.SEQUENTIAL)
    assert sum(len(g) for g in groups) == len(set().union(*groups))
    assert "stablehlo.add" in shlo.BINARY_ELEMENTWISE and "stablehlo.gather" in shlo.INDEX_REMAP


_CREATE_TOKEN = """
func.func @main(%a: tensor<2xf32>) -> (tensor<2xf32>, !stablehlo.token) {
  %0 = stablehlo.create_token : !stablehlo.token
  return %a, %0 : tensor<2xf32>, !stablehlo.token
}
"""
_AFTER_ALL = """
func.func @main(%t: !stablehlo.token) -> !stablehlo.token {
  %0 = stablehlo.after_all %t : !stablehlo.token
  return %0 : !stablehlo.token
}
"""


def test_no_op_of_the_dialect_is_rejected():
    """Tokens and host transfers were the last rejected ops (they compile to
    host-queue calls now, docs/host_transfers.md)."""
    assert [n for n, d in R.OPS.items() if d.lowering == R.REJECTED] == []


@pytest.mark.skipif(__import__("shutil").which("cc") is None, reason="needs a C compiler")
@pytest.mark.parametrize("name,text", [("stablehlo.create_token", _CREATE_TOKEN),
                                       ("stablehlo.after_all", _AFTER_ALL)])
def test_token_ops_compile_to_tokens(name, text):
    import numpy as np
    from tensorvm import runtime
    assert R.OPS[name].lowering == R.HOST
    m = runtime.load_module(compile_str(text), device="local-sync")
    if name == "stablehlo.create_token":
        a, tok = m.main(np.arange(2, dtype=np.float32))
        np.testing.assert_array_equal(np.asarray(a), [0, 1])
    else:
        tok = m.main(runtime.Token())
    assert tok is runtime.Token()


@pytest.mark.skipif(__import__("shutil").which("cc") is None, reason="needs a C compiler")
@pytest.mark.parametrize("el", ["f32", "f64", "i8", "i1", "complex<f32>"])
def test_chlo_square_added_by_a_registry_entry_and_its_scalar_expression(el):
    """The worked example of docs/internals.md: chlo.square is one registry
    entry plus its C expression in codegen/scalar.py; integers wrap."""
    import numpy as np
    from tvm_testing import run_text
    assert R.OPS["chlo.square"].lowering == R.ELEMENTWISE
    t = f"""func.func @main(%x: tensor<5x{el}>) -> tensor<5x{el}> {{
  %0 = chlo.square %x : tensor<5x{el}>
  return %0 : tensor<5x{el}>
}}"""
    dt = {"f32": np.float32, "f64": np.float64, "i8": np.int8, "i1": np.bool_,
          "complex<f32>": np.complex64}[el]
    x = np.array([1, -3, 100, 7, 0]).astype(dt) if el != "i1" else np.array([1, 0, 1, 1, 0], bool)
    if el == "complex<f32>":
        x = x + 1j * np.array([2, 0, -1, 3, 1], np.float32)
    r = run_text(t, x)
    want = x if el == "i1" else (x * x).astype(dt)
    np.testing.assert_array_equal(r, want)


@pytest.mark.skipif(__import__("shutil").which("cc") is None, reason="needs a C compiler")
def test_stablehlo_broadcast_added_by_a_registry_entry_and_its_index_map():
    """The structured worked example of docs/internals.md: stablehlo.broadcast
    (kept for compatibility) is one registry entry (index-remap fusion, the
    ``sizes = [..]`` item) plus its index map in codegen/body.py; it fuses into
    its consumer and round-trips through the printer in MLIR's pretty form."""
    import numpy as np
    from tvm_testing import run_text

    from tensorvm.compiler.mlir.parser import parse_module
    from tensorvm.compiler.ir.printer import print_module
    t = """func.func @main(%x: tensor<2x3xf32>) -> tensor<4x1x2x3xf32> {
  %0 = stablehlo.broadcast %x, sizes = [4, 1] : (tensor<2x3xf32>) -> tensor<4x1x2x3xf32>
  %1 = stablehlo.add %0, %0 : tensor<4x1x2x3xf32>
  return %1 : tensor<4x1x2x3xf32>
}"""
    text = print_module(parse_module(t))
    assert "stablehlo.broadcast %arg0, sizes = [4, 1] :" in text
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    np.testing.assert_array_equal(run_text(text, x), np.broadcast_to(2 * x, (4, 1, 2, 3)))
    g = """func.func @main(%x: tensor<3xi32>) -> tensor<2x3xi32> {
  %0 = "stablehlo.broadcast"(%x) {broadcast_sizes = array<i64: 2>} : (tensor<3xi32>) -> tensor<2x3xi32>
  return %0 : tensor<2x3xi32>
}"""
    xi = np.array([1, 2, 3], np.int32)
    np.testing.assert_array_equal(run_text(g, xi), np.broadcast_to(xi, (2, 3)))
