"""Compile progress (the API callback, ``--progress``) and the statistics
table (``--stats``): every stage reported once, in order, numbered against
a total that is right, and the table naming where the time went."""
from __future__ import annotations

import subprocess
import sys

from tensorvm.compiler import compile_str
from tensorvm.compiler.api import CompileOptions, compile_text
from tensorvm.compiler.stats import format_stats

TEXT = """
func.func @main(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.add %a, %b : tensor<4xf32>
  %1 = stablehlo.exponential %0 : tensor<4xf32>
  return %1 : tensor<4xf32>
}
"""


def test_callback_sees_every_stage_in_order_then_done():
    events = []
    compile_str(TEXT, ["cpu", "opencl"], progress=events.append)
    stages = [e.stage for e in events]
    total = events[0].total
    assert stages[0] == f"parse ({len(TEXT)} B)" and stages[-1] == "done"
    assert [e.step for e in events] == list(range(1, total + 2))   # each step once, then done
    assert stages[-3] == "assemble" and "plan" in stages
    assert stages[-2].startswith("write (") and stages[-2].endswith(" kB)")   # the kernels
    assert [s.split(" (")[0] for s in stages if s.startswith("codegen")] == \
        ["codegen cpu", "codegen opencl"]
    assert all(a.elapsed_s <= b.elapsed_s for a, b in zip(events, events[1:]))


def test_stage_seconds_and_table():
    stats = compile_text(TEXT, CompileOptions()).stats
    names = [n for n, _ in stats["stage_seconds"]]
    assert names[0].startswith("parse (") and names[-2:] == ["assemble", names[-1]]
    assert names[-1].startswith("write (")
    table = format_stats(stats)
    assert "dispatches" in table and "codegen cpu" in table
    assert "pass cse" in table.split("codegen")[0]          # passes summed by name, one row
    assert table.count("pass cse") == 1


def test_cli_progress_on_stderr_and_stats_on_stdout(tmp_path):
    src = tmp_path / "m.mlir"
    src.write_text(TEXT)
    r = subprocess.run([sys.executable, "-m", "tensorvm.compiler.cli", str(src), "-o",
                        str(tmp_path / "m.vmfb"), "--progress", "--stats"],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    lines = r.stderr.splitlines()
    assert lines[0].startswith("[1/") and lines[0].endswith(f"parse ({len(TEXT)} B)")
    assert lines[-1].startswith("[") and "done in" in lines[-1]
    assert "stage" in r.stdout and "share" in r.stdout
