"""Parse the StableHLO conformance programs (../shared/conformance).

The full sweep is marked ``conformance``; a sample of ~40 files runs always.
"""
import glob
import os

import pytest

from tensorvm.compiler.mlir import parse_module

ROOT = os.path.join(os.path.dirname(__file__), "..", "..", "..", "shared", "conformance")
FOLDERS = ("testdata", "interpret", "dynamic")


def _files(folder):
    return sorted(glob.glob(os.path.join(ROOT, folder, "*.mlir")))


def cases(path):
    """(text, first line) of each case; interpret/ files split on '// -----'."""
    text = open(path).read()
    if os.sep + "interpret" + os.sep not in path:
        return [(text, 1)]
    out, line = [], 1
    for part in text.split("// -----"):
        out.append((part, line))
        line += part.count("\n")
    return out


def _sample():
    picked = []
    for folder, step in (("testdata", 60), ("interpret", 6), ("dynamic", 10)):
        picked += _files(folder)[::step]
    return picked


needs_data = pytest.mark.skipif(not os.path.isdir(ROOT), reason="no ../shared/conformance")


@needs_data
@pytest.mark.parametrize("path", _sample(), ids=os.path.basename)
def test_parse_sample(path):
    for text, _ in cases(path):
        module = parse_module(text, path)
        assert module.functions, "no func.func parsed"


@needs_data
@pytest.mark.conformance
@pytest.mark.parametrize("folder", FOLDERS)
def test_parse_all(folder):
    failures = []
    for path in _files(folder):
        for text, line in cases(path):
            try:
                parse_module(text, path)
            except Exception as e:  # collect every failure, report them together
                failures.append(f"{os.path.basename(path)} (case at line {line}): {e}")
    assert not failures, f"{len(failures)} failed to parse:\n" + "\n".join(failures[:20])
