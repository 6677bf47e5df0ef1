"""A bounded slice of the fuzz harnesses (tools/fuzz_vmfb.py, tools/fuzz_mlir.py;
long runs: docs/security.md): every mutant ends in a result or a documented
tensorvm error, never a crash, a hang or another exception."""
from __future__ import annotations

import json
import os
import random
import subprocess
import sys

import pytest

TOOLS = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "tools")
sys.path.insert(0, TOOLS)
import fuzz_vmfb  # noqa: E402

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="the harness forks")


def _slice(tool, *args, tmp_path) -> dict:
    """Run a harness in a fresh process (its parent must have no threads when
    it forks, and this test process may have started device threads)."""
    out = tmp_path / f"{tool}.json"
    proc = subprocess.run([sys.executable, os.path.join(TOOLS, tool), "--jobs", "2", "--seed",
                           "7", "--json", str(out), *args], capture_output=True, text=True,
                          timeout=600)
    result = json.loads(out.read_text())
    bad = {c: result["counts"].get(c, 0) for c in ("other", "crash", "hang")}
    assert not any(bad.values()) and proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-2000:]
    return result


def test_repacked_module_is_unchanged_in_meaning():
    base = fuzz_vmfb.bases(["add"])[0]
    data = fuzz_vmfb.repack(base, dict(base.header))      # header moved to the end
    assert data != base.data
    assert fuzz_vmfb.load_and_call(data, "local-sync", 5.0) == {"class": "ok"}


def test_mutants_reach_every_layer():
    base = fuzz_vmfb.bases(["add"])[0]
    for strategy in fuzz_vmfb.STRATEGIES:
        outs = {fuzz_vmfb.mutate(base, strategy, random.Random(i)) for i in range(20)}
        assert len(outs) > 5 and base.data not in outs, strategy


def test_vmfb_mutants_slice(tmp_path):
    result = _slice("fuzz_vmfb.py", "--count", "150", "--timeout", "10", tmp_path=tmp_path)
    assert sum(result["counts"].values()) == 150
    assert result["counts"]["typed"] > 50          # the mutants do reach the checks
    assert set(result["by_strategy"]) == set(fuzz_vmfb.STRATEGIES)


def test_vmfb_mutants_in_batches(tmp_path):
    """``--batch``: the long runs' form, each batch a fresh process, tallies
    merged; the operand mutants reach the verifier and the fused paths."""
    result = _slice("fuzz_vmfb.py", "--count", "40", "--batch", "20", "--strategies",
                    "operands", "--timeout", "10", tmp_path=tmp_path)
    assert sum(result["counts"].values()) == 40 and set(result["by_strategy"]) == {"operands"}
    assert result["counts"]["typed"] > 5


def test_mlir_mutants_slice(tmp_path):
    result = _slice("fuzz_mlir.py", "--count", "60", "--timeout", "30", tmp_path=tmp_path)
    assert sum(result["counts"].values()) == 60 and result["counts"]["typed"] > 20
    assert not result["unlocated"], result["unlocated"]
