"""The TensorFlow frontend, tested in a child process: tf_cases.py runs there
under its own pytest (TensorFlow in this process would crash PoCL's OpenCL
kernel builds: both load LLVM), and each of its cases is reported here."""
from __future__ import annotations

import ast
import importlib.machinery
import os
import pathlib
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest

HERE = pathlib.Path(__file__).resolve().parent
CASES = HERE / "tf_cases.py"

# PathFinder: tests/conftest.py keeps TF itself out of this process (sys.modules)
if importlib.machinery.PathFinder.find_spec("tensorflow") is None:
    pytest.skip("the TensorFlow frontend needs tensorflow (pip install 'tensorvm[tf]')",
                allow_module_level=True)


def _case_names():
    tree = ast.parse(CASES.read_text())
    return [n.name for n in tree.body if isinstance(n, ast.FunctionDef) and
            n.name.startswith("test_")]


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    """{case: (outcome, message)} from one child pytest run over tf_cases.py."""
    tmp = tmp_path_factory.mktemp("tf")
    report = tmp / "report.xml"
    env = dict(os.environ, KERAS_BACKEND="tensorflow", TF_CPP_MIN_LOG_LEVEL="3")
    proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                           f"--junitxml={report}", f"--basetemp={tmp / 'cases'}", str(CASES)],
                          env=env, capture_output=True, text=True, timeout=900, cwd=HERE)
    if not report.exists():
        pytest.fail(f"the TensorFlow cases did not run (rc {proc.returncode}):\n"
                    f"{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}")
    out = {}
    for case in ET.parse(report).getroot().iter("testcase"):
        kinds = {c.tag: c for c in case}
        for kind in ("failure", "error", "skipped"):
            if kind in kinds:
                el = kinds[kind]
                out[case.get("name")] = (kind, (el.get("message") or "") + "\n" + (el.text or ""))
                break
        else:
            out[case.get("name")] = ("passed", "")
    return out


@pytest.mark.parametrize("case", _case_names())
def test_tf_case(results, case):
    kind, message = results.get(case, ("missing", "the child run did not report it"))
    if kind == "skipped":
        pytest.skip(message.strip().splitlines()[0] if message.strip() else "skipped")
    assert kind == "passed", f"{case}: {kind}\n{message[-4000:]}"
