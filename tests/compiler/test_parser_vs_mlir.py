"""Pretty forms parse to the same IR as MLIR's own generic print of them.

MLIR (through jaxlib's bindings, when installed) re-prints each program in
generic form; our parse of the original and of that print must be equal.
interpret/ cases need the check.* ops removed first (MLIR cannot parse
their pretty form without the dialect).
"""
import os
import re

import pytest

from tensorvm.compiler.mlir import parse_module
from tensorvm.compiler.ir.equality import module_diff

from test_parser_conformance import _files, cases, needs_data

_STATEMENT = re.compile(r"\s*(%|func\.|}|check\.|stablehlo\.|chlo\.|\"|interpreter\.|//|$)")


def _generic_by_mlir(text):
    jm = pytest.importorskip("jax._src.interpreters.mlir")
    from jax._src.lib.mlir import ir
    ctx = jm.make_ir_context()
    ctx.allow_unregistered_dialects = True
    with ctx:
        try:
            module = ir.Module.parse(text)
        except Exception:  # MLIR's verifier rejects some inputs (quantized types)
            return None
        return module.operation.get_asm(print_generic_op_form=True)


def strip_checks(text):
    out, skipping = [], False
    for line in text.splitlines():
        if re.match(r"\s*check\.", line):
            skipping = True
            continue
        if skipping and not _STATEMENT.match(line):
            continue
        skipping = False
        out.append(line)
    return "\n".join(out)


def _compare(path):
    """Number of cases compared; asserts each one matches."""
    n = 0
    for text, line in cases(path):
        text = strip_checks(text)
        if "interpreter." in text:
            continue
        generic = _generic_by_mlir(text)
        if generic is None:
            continue
        diff = module_diff(parse_module(text, path), parse_module(generic, "<mlir generic>"))
        assert diff is None, f"{os.path.basename(path)} (case at line {line}): {diff}"
        n += 1
    return n


SAMPLE = ["testdata/argmax", "testdata/conv_general_dilated", "testdata/dot_general",
          "testdata/reduce_window", "testdata/scatter", "testdata/sort", "dynamic/",
          "interpret/convolution", "interpret/dot_general", "interpret/while",
          "interpret/reduce", "interpret/composite"]


@needs_data
@pytest.mark.parametrize("prefix", SAMPLE)
def test_pretty_matches_mlir_generic_sample(prefix):
    folder, stem = prefix.split("/")
    paths = [p for p in _files(folder) if os.path.basename(p).startswith(stem)][:3]
    assert paths, f"no file matches {prefix}"
    assert sum(_compare(p) for p in paths) > 0


@needs_data
@pytest.mark.conformance
@pytest.mark.parametrize("folder", ["testdata", "interpret", "dynamic"])
def test_pretty_matches_mlir_generic_all(folder):
    failures = []
    for path in _files(folder):
        try:
            _compare(path)
        except AssertionError as e:
            failures.append(str(e)[:300])
    assert not failures, f"{len(failures)} differ:\n" + "\n".join(failures[:20])
