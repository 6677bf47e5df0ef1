"""The command-line tools: compile, run, dump, benchmark; errors in one line."""
from __future__ import annotations

import subprocess
import sys

import numpy as np

ADD = """
func.func @main(%a: tensor<2x2xf32>, %b: tensor<2x2xf32>) -> tensor<2x2xf32> {
  %0 = stablehlo.add %a, %b : tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}
"""


def _tool(name, *args):
    mod = {"tensorvm-compile": "tensorvm.compiler.cli",
           "tensorvm-run": "tensorvm.runtime.cli.run",
           "tensorvm-dump": "tensorvm.runtime.cli.dump",
           "tensorvm-benchmark": "tensorvm.runtime.cli.benchmark"}[name]
    return subprocess.run([sys.executable, "-m", mod, *args], capture_output=True, text=True,
                          timeout=120)


def test_compile_run_dump_benchmark(tmp_path):
    src = tmp_path / "add.mlir"
    src.write_text(ADD)
    out = tmp_path / "add.vmfb"
    r = _tool("tensorvm-compile", str(src), "-o", str(out), "--targets=cpu")
    assert r.returncode == 0, r.stderr
    np.save(tmp_path / "b.npy", np.full((2, 2), 10, np.float32))
    r = _tool("tensorvm-run", f"--module={out}", "--function=main", "--device=local-sync",
              "--input=2x2xf32=1,2,3,4", f"--input=@{tmp_path / 'b.npy'}")
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "result[0]: 2x2xf32=[11.0 12.0][13.0 14.0]"
    r = _tool("tensorvm-run", f"--module={out}", "--device=local-task",
              "--input=2x2xf32=1", "--input=2x2xf32=2", f"--output=@{tmp_path / 'y.npy'}")
    assert r.returncode == 0, r.stderr
    np.testing.assert_array_equal(np.load(tmp_path / "y.npy"), np.full((2, 2), 3, np.float32))
    r = _tool("tensorvm-dump", str(out), "--extract", str(tmp_path / "x"))
    assert r.returncode == 0, r.stderr
    assert "@main(arg0: 2x2xf32, arg1: 2x2xf32)" in r.stdout and "cpu-c-" in r.stdout
    assert list((tmp_path / "x").glob("*.so"))
    r = _tool("tensorvm-benchmark", f"--module={out}", "--device=local-sync",
              "--input=2x2xf32=1", "--input=2x2xf32=2", "--repetitions=5", "--warmup=1")
    assert r.returncode == 0, r.stderr
    assert "median" in r.stdout


def test_errors_are_one_line_and_nonzero(tmp_path):
    bad = tmp_path / "bad.mlir"
    bad.write_text("func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {\n  return %b : tensor<4xf32>\n}\n")
    r = _tool("tensorvm-compile", str(bad))
    assert r.returncode == 1
    assert r.stderr.count("\n") == 1 and "bad.mlir:2:" in r.stderr
    junk = tmp_path / "junk.vmfb"
    junk.write_bytes(b"not a module at all")
    for tool, args in (("tensorvm-run", [f"--module={junk}"]), ("tensorvm-dump", [str(junk)])):
        r = _tool(tool, *args)
        assert r.returncode == 1, (tool, r.stderr)
        assert r.stderr.strip().count("\n") == 0 and "error" in r.stderr
    good = tmp_path / "add.vmfb"
    src = tmp_path / "add.mlir"
    src.write_text(ADD)
    assert _tool("tensorvm-compile", str(src), "-o", str(good)).returncode == 0
    r = _tool("tensorvm-run", f"--module={good}", "--input=3xf32=1,2,3", "--input=2x2xf32=1")
    assert r.returncode == 1 and "arg0" in r.stderr and r.stderr.strip().count("\n") == 0
    r = _tool("tensorvm-run", f"--module={good}", "--input=2x2xq9=1")
    assert r.returncode == 1 and "unknown element type" in r.stderr


def test_print_stats_reports_simplification(tmp_path):
    """--print-stats counts the simplifier's rewrites; --no-simplify turns it off."""
    import json
    src = tmp_path / "ones.mlir"
    src.write_text("""
    func.func @main(%a: tensor<2x2xf32>) -> tensor<2x2xf32> {
      %one = stablehlo.constant dense<1.0> : tensor<2x2xf32>
      %0 = stablehlo.multiply %a, %one : tensor<2x2xf32>
      %1 = stablehlo.exponential %0 : tensor<2x2xf32>
      return %1 : tensor<2x2xf32>
    }""")
    runs = {}
    for flags in ((), ("--no-simplify",)):
        r = _tool("tensorvm-compile", str(src), "-o", str(tmp_path / "o.vmfb"), "--print-stats", *flags)
        assert r.returncode == 0, r.stderr
        runs[flags] = json.loads(r.stdout)["simplifications"]
    assert runs[()] == {"identity": 1} and runs[("--no-simplify",)] == {}


def test_dump_json_and_device_survey(tmp_path):
    import json
    src, out = tmp_path / "m.mlir", tmp_path / "m.vmfb"
    src.write_text(ADD)
    assert _tool("tensorvm-compile", str(src), "-o", str(out)).returncode == 0
    r = _tool("tensorvm-dump", str(out), "--json", "--no-disassembly")
    info = json.loads(r.stdout)
    main = next(f for f in info["functions"] if f["name"] == "main")
    assert [(a["dtype"], a["shape"]) for a in main["args"]] == [("f32", [2, 2])] * 2
    variant = info["executables"][0]["variants"][0]
    assert variant["format"].startswith("cpu-c-") and len(variant["sha256"]) == 64
    assert "disassembly" not in info
    r = subprocess.run([sys.executable, "-m", "tensorvm.runtime.cli.devices", "--json"],
                       capture_output=True, text=True, check=True)
    survey = {e["driver"]: e for e in json.loads(r.stdout)}
    assert survey["local-task"]["available"] and survey["local-task"]["devices"][0]["uri"]
    for e in survey.values():       # every unavailable driver says why
        assert e["available"] or e["reason"]


def test_run_a_mesh_export_as_its_ranks(tmp_path):
    """A module exported over a 2-device mesh runs as 2 ranks by default;
    --device repeated gives each rank its device; a wrong count is one line."""
    import pathlib
    sharded = pathlib.Path(__file__).resolve().parent / "models" / "sharded"
    out = tmp_path / "psum.vmfb"
    assert _tool("tensorvm-compile", str(sharded / "psum.mlir"), "-o", str(out)).returncode == 0
    with np.load(sharded / "psum.npz") as z:
        np.save(tmp_path / "a.npy", z["arr_0"])
        np.save(tmp_path / "w.npy", z["arr_1"])
        want = z["out"]
    inputs = [f"--input=@{tmp_path / 'a.npy'}", f"--input=@{tmp_path / 'w.npy'}"]
    r = _tool("tensorvm-run", f"--module={out}", *inputs,
              f"--output=@{tmp_path / 'y{rank}.npy'}")
    assert r.returncode == 0, r.stderr
    for rank in range(2):
        np.testing.assert_allclose(np.load(tmp_path / f"y{rank}.npy"), want, rtol=1e-5, atol=1e-6)
    r = _tool("tensorvm-run", f"--module={out}", "--device=local-sync", "--device=local-task://1",
              *inputs)
    assert r.returncode == 0 and r.stdout.count("rank ") == 2, r.stderr
    r = _tool("tensorvm-run", f"--module={out}", *(["--device=local-sync"] * 3), *inputs)
    assert r.returncode == 1 and "need 2 devices, got 3" in r.stderr
    assert r.stderr.strip().count("\n") == 0


HOST_IO = """
func.func @main(%t: !stablehlo.token) -> (tensor<2xi32>, !stablehlo.token) {
  %a:2 = "stablehlo.infeed"(%t) : (!stablehlo.token) -> (tensor<2xi32>, !stablehlo.token)
  %b = stablehlo.add %a#0, %a#0 : tensor<2xi32>
  %o = "stablehlo.outfeed"(%b, %a#1) : (tensor<2xi32>, !stablehlo.token) -> !stablehlo.token
  %s = "stablehlo.send"(%a#0, %o) {channel_handle = #stablehlo.channel_handle<handle = 3, type = 2>, is_host_transfer = true} : (tensor<2xi32>, !stablehlo.token) -> !stablehlo.token
  return %b, %s : tensor<2xi32>, !stablehlo.token
}
"""


def test_run_with_infeed_tokens_and_outfeed(tmp_path):
    """--input=!stablehlo.token, --infeed entries; outfeed and host sends print."""
    src = tmp_path / "io.mlir"
    src.write_text(HOST_IO)
    out = tmp_path / "io.vmfb"
    assert _tool("tensorvm-compile", str(src), "-o", str(out), "--targets=cpu").returncode == 0
    r = _tool("tensorvm-run", f"--module={out}", "--device=local-sync",
              "--input=!stablehlo.token", "--infeed=2xi32=3,4")
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines() == ["result[0]: 2xi32=[6 8]", "result[1]: !stablehlo.token",
                                     "outfeed[0]: 2xi32=[6 8]", "channel 3[0]: 2xi32=[3 4]"]
    r = _tool("tensorvm-run", f"--module={out}", "--device=local-sync", "--input=token",
              "--infeed=3xi32=1,2,3")
    assert r.returncode == 1 and r.stderr.count("\n") == 1
    assert "array #0 of the entry is tensor<3xi32>, the program expects tensor<2xi32>" in r.stderr


LOOP = """
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %c1 = stablehlo.constant dense<1> : tensor<i32>
  %n = stablehlo.constant dense<7> : tensor<i32>
  %r:2 = stablehlo.while(%i = %c0, %v = %x) : tensor<i32>, tensor<4xf32>
    cond {
      %p = stablehlo.compare LT, %i, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %p : tensor<i1>
    } do {
      %t = stablehlo.tanh %v : tensor<4xf32>
      %in = stablehlo.add %i, %c1 : tensor<i32>
      stablehlo.return %in, %t : tensor<i32>, tensor<4xf32>
    }
  return %r#1 : tensor<4xf32>
}
"""


def test_run_and_benchmark_print_native_loop_stats(tmp_path):
    """--print-stats: a native loop's iterations and host time per iteration."""
    src = tmp_path / "loop.mlir"
    src.write_text(LOOP)
    out = tmp_path / "loop.vmfb"
    assert _tool("tensorvm-compile", str(src), "-o", str(out), "--targets=cpu").returncode == 0
    r = _tool("tensorvm-run", f"--module={out}", "--device=local-sync", "--input=4xf32=0.5",
              "--print-stats")
    assert r.returncode == 0, r.stderr
    want = np.full(4, 0.5, np.float32)
    for _ in range(7):
        want = np.tanh(want)
    got = np.array(r.stdout.split("=")[1].strip("[]\n").split(), np.float32)
    np.testing.assert_allclose(got, want, rtol=1e-6)
    assert "native loops" in r.stderr and " 7 iterations" in r.stderr, r.stderr
    assert "us host/iteration" in r.stderr
    r = _tool("tensorvm-benchmark", f"--module={out}", "--device=local-task", "--input=4xf32=0.5",
              "--repetitions=3", "--warmup=1", "--print-stats")
    assert r.returncode == 0, r.stderr
    assert "stats of 3 traced call(s)" in r.stdout and " 21 iterations" in r.stdout, r.stdout
