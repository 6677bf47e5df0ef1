"""Collective ops compiled to channel calls, run as in-process ranks
(``load_module(..., replicas=, partitions=)``) and under ``mpirun``."""
import os
import re
import shutil
import subprocess
import sys
import textwrap
import time

import numpy as np
import pytest

from tensorvm import runtime
from tensorvm.compiler import compile_str
from tensorvm.compiler.errors import UnsupportedOpError
from tensorvm.hal.channel import ChannelError, PeerFailedError
from tensorvm.runtime.parallel import ParallelCallError

pytestmark = pytest.mark.skipif(shutil.which("cc") is None, reason="needs a C compiler")


def reducer(op, t="f32"):
    return (f'({{ ^bb0(%a: tensor<{t}>, %b: tensor<{t}>):\n  %s = stablehlo.{op} %a, %b : '
            f'tensor<{t}>\n  stablehlo.return %s : tensor<{t}> }})')


# Dispatches before and after the collective: its operand must be computed
# when the channel reads it, and its result read by the next kernel.
MLP = f"""
module @dp attributes {{mhlo.num_replicas = 2 : i32}} {{
  func.func @main(%x: tensor<4x3xf32>, %w: tensor<3x2xf32>) -> (tensor<4x2xf32>, tensor<ui32>) {{
    %y = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<4x3xf32>, tensor<3x2xf32>) -> tensor<4x2xf32>
    %t = stablehlo.tanh %y : tensor<4x2xf32>
    %s = "stablehlo.all_reduce"(%t) {reducer("add")} {{
      replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>,
      channel_handle = #stablehlo.channel_handle<handle = 0, type = 0>
    }} : (tensor<4x2xf32>) -> tensor<4x2xf32>
    %two = stablehlo.constant dense<2.0> : tensor<4x2xf32>
    %m = stablehlo.divide %s, %two : tensor<4x2xf32>
    %id = stablehlo.replica_id : tensor<ui32>
    return %m, %id : tensor<4x2xf32>, tensor<ui32>
  }}
}}
"""


@pytest.fixture(scope="module")
def mlp():
    return compile_str(MLP, targets=["cpu"])


def test_data_parallel_mean_over_two_replicas(mlp):
    rng = np.random.default_rng(0)
    xs = [rng.standard_normal((4, 3)).astype(np.float32) for _ in range(2)]
    w = rng.standard_normal((3, 2)).astype(np.float32)
    pm = runtime.load_module(mlp, device="local-task", replicas=2)
    out = pm.main.run([(xs[0], w), (xs[1], w)])
    want = (np.tanh(xs[0] @ w) + np.tanh(xs[1] @ w)) / 2
    for rank, (m, rid) in enumerate(out):
        np.testing.assert_allclose(np.asarray(m), want, rtol=1e-5, atol=1e-6)
        assert int(np.asarray(rid)) == rank
    # again: the recorded state of a call must not leak into the next
    out2 = pm.main(xs[0], w)
    np.testing.assert_allclose(np.asarray(out2[1][0]), np.tanh(xs[0] @ w), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("device", ["local-sync", "local-task"])
def test_one_thread_drives_every_rank_asynchronously(mlp, device):
    """A collective suspends its invocation (it does not block the thread), so
    one thread can start rank 0's call and then rank 1's."""
    pm = runtime.load_module(mlp, device=device, replicas=2, timeout_s=20)
    x, w = np.ones((4, 3), np.float32), np.ones((3, 2), np.float32)
    futures = [m.main.invoke_async(x * (k + 1), w) for k, m in enumerate(pm.modules)]
    want = (np.tanh(3.0) + np.tanh(6.0)) / 2
    for k, f in enumerate(futures):
        mean, rid = f.result(30)
        np.testing.assert_allclose(np.asarray(mean), np.full((4, 2), want), rtol=1e-5)
        assert int(np.asarray(rid)) == k


def test_one_rank_alone_runs_groups_of_one():
    src = f"""
    func.func @main(%x: tensor<3xi32>) -> tensor<3xi32> {{
      %s = "stablehlo.all_reduce"(%x) {reducer("maximum", "i32")} {{
        replica_groups = dense<[[0]]> : tensor<1x1xi64>
      }} : (tensor<3xi32>) -> tensor<3xi32>
      return %s : tensor<3xi32>
    }}"""
    m = runtime.load_module(compile_str(src, targets=["cpu"]), device="local-sync")
    assert list(np.asarray(m.main(np.array([1, 5, 2], np.int32)))) == [1, 5, 2]


def test_groups_bigger_than_the_channel_say_how_to_load():
    m = runtime.load_module(compile_str(MLP, targets=["cpu"]), device="local-sync")
    with pytest.raises(ChannelError, match="replicas="):
        m.main(np.zeros((4, 3), np.float32), np.zeros((3, 2), np.float32))


def test_unrecognised_reduction_body_is_a_typed_error_naming_it():
    src = """
    func.func @main(%x: tensor<3xf32>) -> tensor<3xf32> {
      %s = "stablehlo.all_reduce"(%x) ({ ^bb0(%a: tensor<f32>, %b: tensor<f32>):
          %p = stablehlo.multiply %a, %b : tensor<f32>
          %q = stablehlo.add %p, %a : tensor<f32>
          stablehlo.return %q : tensor<f32> }) {
        replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>
      } : (tensor<3xf32>) -> tensor<3xf32>
      return %s : tensor<3xf32>
    }"""
    with pytest.raises(UnsupportedOpError, match="stablehlo.multiply, stablehlo.add") as e:
        compile_str(src, targets=["cpu"])
    assert e.value.op_name == "stablehlo.all_reduce"


def test_a_failing_rank_raises_on_the_others_within_the_timeout(mlp):
    pm = runtime.load_module(mlp, device="local-task", replicas=2, timeout_s=30)
    w = np.zeros((3, 2), np.float32)
    t0 = time.monotonic()
    with pytest.raises(ParallelCallError, match="rank 1 failed") as e:
        pm.main.run([(np.zeros((4, 3), np.float32), w), (np.zeros((5, 3), np.float32), w)])
    assert time.monotonic() - t0 < 10                    # not the 30 s timeout
    assert isinstance(e.value.errors[0], PeerFailedError) and e.value.errors[0].rank == 1


def _mean_of_two(pm, xs, w):
    out = pm.main.run([(xs[0], w), (xs[1], w)])
    want = (np.tanh(xs[0] @ w) + np.tanh(xs[1] @ w)) / 2
    for m, _ in out:
        np.testing.assert_allclose(np.asarray(m), want, rtol=1e-5, atol=1e-6)


def test_the_channel_recovers_after_a_failing_rank(mlp):
    """A rank that raised (and the peer it aborted) leaves the in-process channel
    usable: the next call runs and is right, and so do the ones after it."""
    pm = runtime.load_module(mlp, device="local-task", replicas=2, timeout_s=30)
    rng = np.random.default_rng(1)
    xs = [rng.standard_normal((4, 3)).astype(np.float32) for _ in range(2)]
    w = rng.standard_normal((3, 2)).astype(np.float32)
    for _ in range(2):
        with pytest.raises(ParallelCallError, match="rank 1 failed"):
            pm.main.run([(xs[0], w), (np.zeros((5, 3), np.float32), w)])
        t0 = time.monotonic()
        _mean_of_two(pm, xs, w)
        _mean_of_two(pm, xs, w)
        assert time.monotonic() - t0 < 10


def test_the_channel_recovers_after_a_rank_timed_out(mlp):
    """Rank 0 times out in the all_reduce (rank 1 never comes): its half-done
    exchange and its tag counter, one ahead of rank 1's, must not spoil the next call."""
    from tensorvm.hal.channel import ChannelTimeoutError
    from tensorvm.runtime.parallel import run_ranks
    pm = runtime.load_module(mlp, device="local-task", replicas=2, timeout_s=1.0)
    xs = [np.full((4, 3), 0.1 * (k + 1), np.float32) for k in range(2)]
    w = np.ones((3, 2), np.float32)
    with pytest.raises(ParallelCallError, match="rank 0 failed: ChannelTimeoutError") as e:
        run_ranks([(pm.modules[0].main, (xs[0], w)), (time.sleep, (1.3,))], pm.channels)
    assert isinstance(e.value.errors[0], ChannelTimeoutError) and 1 not in e.value.errors
    _mean_of_two(pm, xs, w)


def test_a_rank_stuck_outside_collectives_is_left_behind_then_rejoins(mlp):
    """A rank still running a channel timeout after the first error does not hang
    the call; later calls raise ChannelError naming it until it returns, and then
    the channel recovers."""
    from tensorvm.runtime.parallel import run_ranks
    pm = runtime.load_module(mlp, device="local-task", replicas=2, timeout_s=0.5)
    xs = [np.full((4, 3), 0.1 * (k + 1), np.float32) for k in range(2)]
    w = np.ones((3, 2), np.float32)
    release = __import__("threading").Event()
    t0 = time.monotonic()
    with pytest.raises(ParallelCallError, match=r"rank\(s\) \[1\] still running"):
        run_ranks([(pm.modules[0].main, (xs[0], w)), (release.wait, (30,))], pm.channels)
    assert time.monotonic() - t0 < 10
    with pytest.raises(ChannelError, match=r"rank\(s\) \[1\] of an earlier failed call"):
        _mean_of_two(pm, xs, w)
    release.set()
    deadline = time.monotonic() + 10
    while True:
        try:
            _mean_of_two(pm, xs, w)
            break
        except ChannelError:        # the released thread has not returned yet
            assert time.monotonic() < deadline
            time.sleep(0.02)


def test_partitions_and_a_device_per_rank():
    src = f"""
    module @tp attributes {{mhlo.num_partitions = 2 : i32}} {{
      func.func @main(%x: tensor<2x2xf32>) -> tensor<2x4xf32> {{
        %p = stablehlo.partition_id : tensor<ui32>
        %f = stablehlo.convert %p : (tensor<ui32>) -> tensor<f32>
        %b = stablehlo.broadcast_in_dim %f, dims = [] : (tensor<f32>) -> tensor<2x2xf32>
        %y = stablehlo.add %x, %b : tensor<2x2xf32>
        %g = "stablehlo.all_gather"(%y) {{
          all_gather_dim = 1 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>,
          channel_handle = #stablehlo.channel_handle<handle = 1, type = 0>, use_global_device_ids
        }} : (tensor<2x2xf32>) -> tensor<2x4xf32>
        return %g : tensor<2x4xf32>
      }}
    }}"""
    vmfb = compile_str(src, targets=["cpu"])
    pm = runtime.load_module(vmfb, device=["local-sync", "local-task"], partitions=2)
    x = np.arange(4, dtype=np.float32).reshape(2, 2)
    want = np.concatenate([x, x + 1], axis=1)
    for r in pm.main(x):
        np.testing.assert_array_equal(np.asarray(r), want)


# -- MPI -------------------------------------------------------------------------------------
from tvm_testing import MPIRUN, mpirun_surviving_a_kill, needs_mpi  # noqa: E402

RANK_SCRIPT = """
import sys, time
import numpy as np
from tensorvm import runtime
from tensorvm.hal.channel import PeerFailedError
m = runtime.load_module(sys.argv[1], device="local-sync", channel="mpi", timeout_s=float(sys.argv[3]))
rank = m.channel.rank
x = np.full((4, 3), rank + 1.0, np.float32)
w = np.ones((3, 2), np.float32)
mode = sys.argv[2]
if mode == "fail" and rank == 1:
    x = np.zeros((5, 3), np.float32)          # a wrong argument: this rank raises
t0 = time.monotonic()
try:
    mean, rid = m.main(x, w)
    line = f"rank {rank} ok {float(np.asarray(mean)[0, 0]):.6f} {int(np.asarray(rid))}"
except PeerFailedError as e:
    line = f"rank {rank} peer-failed {e.rank} after {time.monotonic() - t0:.1f}s"
except Exception as e:
    line = f"rank {rank} raised {type(e).__name__}"
with open(f"{sys.argv[1]}.rank{rank}", "w") as f:      # mpirun may interleave stdout lines
    f.write(line)
"""


def _mpirun(tmp_path, vmfb, mode, timeout_s):
    (tmp_path / "m.vmfb").write_bytes(vmfb)
    (tmp_path / "rank.py").write_text(textwrap.dedent(RANK_SCRIPT))
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
               OMPI_MCA_btl="self,tcp", OMPI_MCA_btl_tcp_if_include="lo",
               OMPI_MCA_oob_tcp_if_include="lo", OMPI_MCA_rmaps_base_oversubscribe="1")
    cmd = [MPIRUN, "-n", "2", "--oversubscribe", sys.executable, str(tmp_path / "rank.py"),
           str(tmp_path / "m.vmfb"), mode, str(timeout_s)]
    p = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=120)
    return p, [(tmp_path / f"m.vmfb.rank{r}").read_text() for r in range(2)
               if (tmp_path / f"m.vmfb.rank{r}").exists()]


@needs_mpi
def test_two_mpi_ranks_on_loopback(tmp_path, mlp):
    p, lines = _mpirun(tmp_path, mlp, "ok", 30)
    want = np.tanh(np.float32(3.0)) / 2 + np.tanh(np.float32(6.0)) / 2
    assert len(lines) == 2, p.stdout + p.stderr
    for rank, line in enumerate(lines):
        _, r, status, value, rid = line.split()
        assert (int(r), status, int(rid)) == (rank, "ok", rank), line
        assert abs(float(value) - want) < 1e-5


@needs_mpi
def test_a_failing_mpi_rank_raises_on_the_other_within_its_timeout(tmp_path, mlp):
    p, lines = _mpirun(tmp_path, mlp, "fail", 30)
    assert len(lines) == 2, p.stdout + p.stderr
    assert lines[1] == "rank 1 raised InvalidArgumentError", lines
    words = lines[0].split()
    assert words[:4] == ["rank", "0", "peer-failed", "1"], lines
    assert float(words[-1].rstrip("s")) < 10             # the abort, not the 30 s timeout


KILL_SCRIPT = """
import os, signal, sys, time
import mpi4py
mpi4py.rc.errors = "fatal"        # MPI_ERRORS_ARE_FATAL: the transport must set its own handler
import numpy as np
from tensorvm import runtime
m = runtime.load_module(sys.argv[1], device="local-sync", channel="mpi", timeout_s=3)
x, w = np.ones((4, 3), np.float32), np.ones((3, 2), np.float32)
if m.channel.rank == 1:
    os.kill(os.getpid(), signal.SIGKILL)       # dies before its part of the collective
t0 = time.monotonic()
try:
    m.main(x, w)
    print("rank 0 finished", flush=True)
except Exception as e:
    print(f"rank 0 raised {type(e).__name__} naming {getattr(e, 'rank', None)} "
          f"after {time.monotonic() - t0:.1f}s", flush=True)
"""


@needs_mpi
def test_a_killed_mpi_rank_makes_the_other_raise_at_its_timeout(tmp_path, mlp):
    """Open MPI 4: the survivor raises ChannelTimeoutError at its 3 s timeout;
    Open MPI 5 (ULFM): PeerFailedError naming rank 1 at once.  Never the job
    killed by MPI_ERRORS_ARE_FATAL."""
    (tmp_path / "m.vmfb").write_bytes(mlp)
    (tmp_path / "kill.py").write_text(textwrap.dedent(KILL_SCRIPT))
    args, extra, want = mpirun_surviving_a_kill()
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
               OMPI_MCA_btl="self,tcp", OMPI_MCA_btl_tcp_if_include="lo",
               OMPI_MCA_oob_tcp_if_include="lo", **extra)
    t0 = time.monotonic()
    p = subprocess.run([MPIRUN, *args, "-n", "2", "--oversubscribe", sys.executable,
                        str(tmp_path / "kill.py"), str(tmp_path / "m.vmfb")],
                       env=env, capture_output=True, text=True, timeout=120)
    lines = [ln for ln in p.stdout.splitlines() if ln.startswith("rank 0")]
    assert lines, p.stdout + p.stderr
    words = lines[0].split()
    elapsed = float(words[-1].rstrip("s"))
    if want == "ChannelTimeoutError":
        assert words[:6] == ["rank", "0", "raised", "ChannelTimeoutError", "naming", "None"], lines
        assert 2.5 < elapsed < 6, lines
    else:
        assert words[:6] == ["rank", "0", "raised", "PeerFailedError", "naming", "1"], lines
        assert elapsed < 2.5, lines
    assert time.monotonic() - t0 < 60          # the job ends, no hang in MPI_Finalize


def test_cli_runs_replicas_in_process(tmp_path, mlp):
    (tmp_path / "m.vmfb").write_bytes(mlp)
    for r in range(2):
        np.save(tmp_path / f"x{r}.npy", np.full((4, 3), r + 1.0, np.float32))
    p = subprocess.run([sys.executable, "-m", "tensorvm.runtime.cli.run",
                        f"--module={tmp_path / 'm.vmfb'}", "--replicas=2",
                        f"--input=@{tmp_path}/x{{rank}}.npy", "--input=3x2xf32=1",
                        f"--output=@{tmp_path}/y{{rank}}.npy"],
                       capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    assert "rank 0: result[1]: ui32=0" in p.stdout and "rank 1: result[1]: ui32=1" in p.stdout
    want = (np.tanh(3.0) + np.tanh(6.0)) / 2
    for r in range(2):
        np.testing.assert_allclose(np.load(tmp_path / f"y{r}.npy"), np.full((4, 2), want), rtol=1e-5)


@needs_mpi
def test_cli_under_mpirun(tmp_path, mlp):
    (tmp_path / "m.vmfb").write_bytes(mlp)
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
               OMPI_MCA_btl="self,tcp", OMPI_MCA_btl_tcp_if_include="lo",
               OMPI_MCA_oob_tcp_if_include="lo")
    p = subprocess.run([MPIRUN, "-n", "2", "--oversubscribe", sys.executable, "-m",
                        "tensorvm.runtime.cli.run", f"--module={tmp_path / 'm.vmfb'}",
                        "--channel=mpi", "--input=4x3xf32=2", "--input=3x2xf32=1",
                        f"--output=@{tmp_path}/y{{rank}}.npy"],
                       env=env, capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stdout + p.stderr
    for r in range(2):
        np.testing.assert_allclose(np.load(tmp_path / f"y{r}.npy"), np.full((4, 2), np.tanh(6.0)),
                                   rtol=1e-5)


TRANSPORT_SCRIPT = """
import sys
import ml_dtypes
import numpy as np
from tensorvm.hal.channels.mpi import INLINE_BYTES, MpiTransport
t = MpiTransport()
r = t.rank
big = np.arange(INLINE_BYTES, dtype=np.float32) + r          # buffers, not a pickle
payloads = [big, [big[::2], np.zeros((0, 3), np.int8), np.full((5,), r, ml_dtypes.bfloat16)],
            np.float32(r) * np.ones(()), [np.arange(4) + r]]  # the last two: small, inline
ok = []
for k, p in enumerate(payloads):
    got = t.exchange((0, 1), k + 1, p, 30)
    other = got[1 - r]
    mine = p if isinstance(p, list) else [p]
    theirs = other if isinstance(other, list) else [other]
    ok.append(isinstance(other, list) == isinstance(p, list) and len(mine) == len(theirs)
              and all(a.dtype == b.dtype and a.shape == b.shape
                      and np.array_equal(np.asarray(a, np.float64) + (1 - 2 * r) * (a.size > 0)
                                         * (a.dtype != np.int8), np.asarray(b, np.float64))
                      for a, b in zip(mine, theirs)))
with open(sys.argv[1] + f".rank{r}", "w") as f:
    f.write(" ".join(map(str, ok)))
"""


@needs_mpi
def test_mpi_transport_sends_big_arrays_as_buffers(tmp_path):
    """Arrays over INLINE_BYTES go as a header plus raw buffers (any dtype,
    empty ones, lists), small ones pickled whole; both arrive intact."""
    script = tmp_path / "t.py"
    script.write_text(textwrap.dedent(TRANSPORT_SCRIPT))
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
               OMPI_MCA_btl="self,tcp", OMPI_MCA_btl_tcp_if_include="lo",
               OMPI_MCA_oob_tcp_if_include="lo", OMPI_MCA_rmaps_base_oversubscribe="1")
    out = str(tmp_path / "out")
    p = subprocess.run([MPIRUN, "-n", "2", "--oversubscribe", sys.executable, str(script), out],
                       env=env, capture_output=True, text=True, timeout=120)
    for r in range(2):
        path = tmp_path / f"out.rank{r}"
        assert path.exists(), p.stdout + p.stderr
        assert path.read_text() == "True True True True", (r, path.read_text())


# -- several devices per MPI process (hal/channels/hierarchical.py) --------------------------
def _mpi_env(**extra):
    return dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
                OMPI_MCA_btl="self,tcp", OMPI_MCA_btl_tcp_if_include="lo",
                OMPI_MCA_oob_tcp_if_include="lo", OMPI_MCA_rmaps_base_oversubscribe="1", **extra)


FIVE = f"""
module @five attributes {{mhlo.num_replicas = 5 : i32}} {{
  func.func @main(%x: tensor<2xf32>, %big: tensor<100x200xf32>)
      -> (tensor<2xf32>, tensor<10xf32>, tensor<2xf32>, tensor<2xf32>, tensor<100x200xf32>, tensor<ui32>) {{
    %total = "stablehlo.all_reduce"(%x) {reducer("add")} {{
      replica_groups = dense<[[0, 1, 2, 3, 4]]> : tensor<1x5xi64>
    }} : (tensor<2xf32>) -> tensor<2xf32>
    %g = "stablehlo.all_gather"(%x) {{
      all_gather_dim = 0 : i64, replica_groups = dense<[[4, 3, 2, 1, 0]]> : tensor<1x5xi64>
    }} : (tensor<2xf32>) -> tensor<10xf32>
    %p = "stablehlo.collective_permute"(%x) {{
      source_target_pairs = dense<[[0, 1], [1, 2], [2, 3], [3, 4], [4, 0]]> : tensor<5x2xi64>
    }} : (tensor<2xf32>) -> tensor<2xf32>
    %m = "stablehlo.all_reduce"(%x) {reducer("maximum")} {{
      replica_groups = dense<[[0, 3], [1, 4], [2, -1]]> : tensor<3x2xi64>
    }} : (tensor<2xf32>) -> tensor<2xf32>
    %b = "stablehlo.all_reduce"(%big) {reducer("add")} {{
      replica_groups = dense<[[0, 1, 2, 3, 4]]> : tensor<1x5xi64>
    }} : (tensor<100x200xf32>) -> tensor<100x200xf32>
    %id = stablehlo.replica_id : tensor<ui32>
    return %total, %g, %p, %m, %b, %id : tensor<2xf32>, tensor<10xf32>, tensor<2xf32>, tensor<2xf32>, tensor<100x200xf32>, tensor<ui32>
  }}
}}
"""

HIER_SCRIPT = """
import sys, time
import numpy as np
from tensorvm import runtime
from tensorvm.hal.channel import ChannelBrokenError
from mpi4py import MPI
vmfb, placement, mode = sys.argv[1], [int(k) for k in sys.argv[2].split(",")], sys.argv[3]
k = placement[MPI.COMM_WORLD.Get_rank()]
device = ["local-sync"] * k if k > 1 else "local-sync"     # one device: a plain Module
m = runtime.load_module(vmfb, device=device, channel="mpi", timeout_s=float(sys.argv[4]))
ranks = m.ranks if k > 1 else [m.channel.rank]

def x(g):
    return np.array([g + 1, -10.0 * (g + 1)], np.float32)
big = [np.full((100, 200), g + 0.5, np.float32) for g in range(5)]
args = [(x(g), big[g]) for g in ranks]
if mode == "fail":
    args = [(np.zeros(3, np.float32), a[1]) if g == 3 else a for g, a in zip(ranks, args)]
out = {}

def call():
    if k > 1:
        return m.main.run(args)
    return [m.main(*args[0])]
t0 = time.monotonic()
try:
    for g, r in zip(ranks, call()):
        s, gat, p, mx, b, rid = (np.asarray(v) for v in r)
        want = [np.sum([x(h) for h in range(5)], 0), np.concatenate([x(h) for h in (4, 3, 2, 1, 0)]),
                x((g - 1) % 5), np.max([x(h) for h in ({0: (0, 3), 3: (0, 3), 1: (1, 4), 4: (1, 4)}.get(g, (2,)))], 0),
                np.full((100, 200), 12.5, np.float32), g]
        ok = all(np.allclose(a, w) for a, w in zip((s, gat, p, mx, b, rid), want))
        out[g] = "ok" if ok else f"wrong {s} {gat} {p} {mx} {rid}"
except Exception as e:
    first = f"raised {type(e).__name__} after {time.monotonic() - t0:.1f}s"
    t0 = time.monotonic()
    try:
        call()
        again = "then ran"
    except ChannelBrokenError:
        again = f"then broken after {time.monotonic() - t0:.1f}s"
    except Exception as e2:
        again = f"then {type(e2).__name__}: {e2}"
    out = {g: f"{first} {again}" for g in ranks}
for g, line in out.items():
    with open(f"{vmfb}.rank{g}", "w") as f:
        f.write(line)
"""


@pytest.fixture(scope="module")
def five():
    return compile_str(FIVE, targets=["cpu"])


def _hier_run(tmp_path, vmfb, placement, mode, timeout_s):
    (tmp_path / "m.vmfb").write_bytes(vmfb)
    (tmp_path / "h.py").write_text(textwrap.dedent(HIER_SCRIPT))
    n = len(placement.split(","))
    p = subprocess.run([MPIRUN, "-n", str(n), "--oversubscribe", sys.executable,
                        str(tmp_path / "h.py"), str(tmp_path / "m.vmfb"), placement, mode,
                        str(timeout_s)], env=_mpi_env(), capture_output=True, text=True,
                       timeout=120)
    files = [tmp_path / f"m.vmfb.rank{g}" for g in range(5)]
    assert all(f.exists() for f in files), p.stdout + p.stderr
    return [f.read_text() for f in files]


@needs_mpi
@pytest.mark.parametrize("placement", ["3,2", "4,1", "1,1,1,1,1"])
def test_several_devices_per_mpi_process(tmp_path, five, placement):
    """5 replicas over 2 processes (3 + 2 devices; 4 + 1 with the single one a
    plain Module) or 5: all_reduce, all_gather in a permuted group order,
    collective_permute around the ring, a sub-group max whose groups all cross
    processes, a big array (raw MPI buffers) and replica_id, on every rank."""
    lines = _hier_run(tmp_path, five, placement, "ok", 30)
    assert lines == ["ok"] * 5, lines


@needs_mpi
@pytest.mark.parametrize("placement", ["3,2", "1,1,1,1,1"])
def test_a_failed_mpi_call_breaks_the_channel_with_a_typed_error(tmp_path, five, placement):
    """Rank 3 gets a wrong argument: every rank raises at once (not at the 30 s
    timeout), and the next call raises ChannelBrokenError at once instead of
    waiting for peers that stopped."""
    for g, line in enumerate(_hier_run(tmp_path, five, placement, "fail", 30)):
        words = line.split()
        assert words[0] == "raised" and words[4:6] == ["then", "broken"], (g, line)
        assert float(words[3].rstrip("s")) < 10 and float(words[-1].rstrip("s")) < 1, (g, line)


MIDCALL = f"""
module @mid attributes {{mhlo.num_replicas = 4 : i32}} {{
  func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {{
    %first = "stablehlo.all_reduce"(%x) {reducer("add")} {{
      replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>
    }} : (tensor<4xf32>) -> tensor<4xf32>
    %h = stablehlo.custom_call @py.hook(%first) : (tensor<4xf32>) -> tensor<4xf32>
    %b = "stablehlo.all_reduce"(%h) {reducer("add")} {{
      replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>
    }} : (tensor<4xf32>) -> tensor<4xf32>
    return %b : tensor<4xf32>
  }}
}}
"""

MIDCALL_SCRIPT = """
import os, signal, sys, time
import numpy as np
from tensorvm import runtime
from tensorvm.hal.channel import ChannelBrokenError
from mpi4py import MPI
vmfb, placement, victim = sys.argv[1], [int(k) for k in sys.argv[2].split(",")], int(sys.argv[3])
me = MPI.COMM_WORLD.Get_rank()
k = placement[me]

def hook(a):                   # between the two all_reduces: the victim process dies
    if me == victim:
        os.kill(os.getpid(), signal.SIGKILL)
    return a
m = runtime.load_module(vmfb, device=["local-sync"] * k if k > 1 else "local-sync",
                        channel="mpi", timeout_s=3, custom_calls={"py.hook": hook})
x = np.ones(4, np.float32)

def call():
    return m.main.run([(x,)] * k) if k > 1 else m.main(x)
t0 = time.monotonic()
try:
    call()
    line = "finished"
except Exception as e:
    cause = getattr(e, "errors", {None: e})
    kinds = sorted({type(v).__name__ for v in cause.values()})
    line = f"raised {'/'.join(kinds)} after {time.monotonic() - t0:.1f}s"
    t0 = time.monotonic()
    try:
        call()
        line += " then ran"
    except ChannelBrokenError:
        line += f" then broken after {time.monotonic() - t0:.1f}s"
with open(f"{vmfb}.proc{me}", "w") as f:
    f.write(line)
"""


@needs_mpi
@pytest.mark.parametrize("placement, victim", [("2,2", 1), ("1,1,1,1", 2)])
def test_a_process_killed_mid_call_makes_the_others_raise_within_the_timeout(
        tmp_path, placement, victim):
    """A process dies (SIGKILL, from a host call between two all_reduces: in
    the middle of the call, after the first collective): every rank of the
    other processes raises, the next call raises ChannelBrokenError at once, and
    the job ends (no hang in MPI_Finalize).  Open MPI 4 does not report the dead
    process: the ranks raise at their 3 s timeout (ChannelTimeoutError, or
    PeerFailedError from a rank that timed out first); Open MPI 5 under ULFM
    reports it: PeerFailedError at once."""
    from tensorvm.compiler.custom_kernels import HostCall
    vmfb = compile_str(MIDCALL, targets=["cpu"],
                       custom_kernels=[HostCall("py.hook", ["4xf32"], ["4xf32"])])
    (tmp_path / "m.vmfb").write_bytes(vmfb)
    (tmp_path / "mid.py").write_text(textwrap.dedent(MIDCALL_SCRIPT))
    n = len(placement.split(","))
    args, extra, want = mpirun_surviving_a_kill()
    t0 = time.monotonic()
    p = subprocess.run([MPIRUN, *args, "-n", str(n), "--oversubscribe", sys.executable,
                        str(tmp_path / "mid.py"), str(tmp_path / "m.vmfb"), placement,
                        str(victim)], env=_mpi_env(**extra),
                       capture_output=True, text=True, timeout=120)
    assert time.monotonic() - t0 < 60
    kinds = set()
    for q in range(n):
        path = tmp_path / f"m.vmfb.proc{q}"
        if q == victim:
            assert not path.exists()
            continue
        assert path.exists(), p.stdout + p.stderr
        words = path.read_text().split()
        kinds.update(words[1].split("/"))
        assert words[4:6] == ["then", "broken"] and float(words[-1].rstrip("s")) < 1, (q, words)
        if want == "PeerFailedError":
            assert words[:2] == ["raised", "PeerFailedError"], (q, words)
            assert float(words[3].rstrip("s")) < 2.5, (q, words)
            continue
        # (a rank that timed out aborts the channel: ranks that had not yet timed out
        # raise PeerFailedError then)
        assert words[0] == "raised" and set(words[1].split("/")) <= {
            "ChannelTimeoutError", "PeerFailedError"}, (q, words)
        assert 2.5 < float(words[3].rstrip("s")) < 6, (q, words)
    assert want in kinds


@needs_mpi
def test_cli_under_mpirun_with_several_devices_per_process(tmp_path):
    """``mpirun -n 1 tensorvm-run --device=.. --device=.. : -n 1 tensorvm-run --device=..``:
    3 replicas as 2 + 1, the first process printing and saving two ranks."""
    src = f"""
    module @three attributes {{mhlo.num_replicas = 3 : i32}} {{
      func.func @main(%x: tensor<2xf32>) -> (tensor<2xf32>, tensor<ui32>) {{
        %total = "stablehlo.all_reduce"(%x) {reducer("add")} {{
          replica_groups = dense<[[0, 1, 2]]> : tensor<1x3xi64>
        }} : (tensor<2xf32>) -> tensor<2xf32>
        %id = stablehlo.replica_id : tensor<ui32>
        return %total, %id : tensor<2xf32>, tensor<ui32>
      }}
    }}"""
    (tmp_path / "m.vmfb").write_bytes(compile_str(src, targets=["cpu"]))
    for r in range(3):
        np.save(tmp_path / f"x{r}.npy", np.full(2, r + 1.0, np.float32))
    run = [sys.executable, "-m", "tensorvm.runtime.cli.run", f"--module={tmp_path / 'm.vmfb'}",
           "--channel=mpi", f"--input=@{tmp_path}/x{{rank}}.npy",
           f"--output=@{tmp_path}/y{{rank}}.npy"]
    p = subprocess.run([MPIRUN, "-n", "1", *run, "--device=local-sync", "--device=local-sync",
                        ":", "-n", "1", *run, "--device=local-sync"],
                       env=_mpi_env(), capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stdout + p.stderr
    for r in range(3):
        np.testing.assert_array_equal(np.load(tmp_path / f"y{r}.npy"), np.full(2, 6.0))
    # (found anywhere in stdout, not per line: mpirun's forwarding of two
    # processes' output now and then drops the newline between their lines)
    assert sorted(re.findall(r"rank \d+: result\[1\]: ui32=\d+", p.stdout)) == [
        f"rank {r}: result[1]: ui32={r}" for r in range(3)], p.stdout
