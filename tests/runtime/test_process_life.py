"""Process life: Ctrl-C during a call, fork, closing devices, raising callbacks.

Each case once failed: a KeyboardInterrupt came back as HalError, a forked
child's ``invoke_async`` hung on the parent's scheduler lock, a closed device
stayed cached for its URI, and a raising completion callback left its future
pending forever.  Fork and signal cases run in a child interpreter (with a
timeout) so a regression cannot take pytest down with it.
"""
from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import hand_kernels
import tensorvm.hal as hal
import tensorvm.runtime as rt
from tensorvm.hal.errors import rethrow
from tensorvm.runtime import api
from tensorvm.runtime.scheduler import Scheduler, deliver
from tvm_testing import compiled

ROOT = os.path.join(os.path.dirname(__file__), "..", "..")
ADD4 = os.path.join(ROOT, "tests", "models", "add4.mlir")
DRIVERS = ["local-sync", "local-task"]

needs_cc = pytest.mark.skipif(not hand_kernels.available(), reason="no C compiler")


def _run_script(tmp_path, body: str, timeout=120) -> str:
    script = tmp_path / "script.py"
    script.write_text(textwrap.dedent(body))
    tests = os.path.join(ROOT, "tests")
    proc = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                          timeout=timeout, cwd=tests,
                          env=dict(os.environ, PYTHONPATH=tests + os.pathsep +
                                   os.environ.get("PYTHONPATH", "")))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return proc.stdout + proc.stderr


# -- KeyboardInterrupt -------------------------------------------------------------------
def test_a_failure_that_is_an_interrupt_stays_one():
    assert type(rethrow(KeyboardInterrupt())) is KeyboardInterrupt
    assert type(rethrow(SystemExit(3))) is SystemExit and rethrow(SystemExit(3)).code == 3
    assert type(rethrow(ValueError("x"))) is hal.HalError
    fence = hal.Fence.single(hal.Semaphore(0), 1)
    fence.fail(KeyboardInterrupt())
    with pytest.raises(KeyboardInterrupt):
        fence.wait(5)


@needs_cc
@pytest.mark.parametrize("device", DRIVERS)
def test_ctrl_c_during_a_call_raises_keyboard_interrupt(tmp_path, device):
    path = tmp_path / "life.vmfb"
    path.write_bytes(hand_kernels.vmfb())
    out = _run_script(tmp_path, f"""
        import os, signal, threading
        import tensorvm.runtime as rt
        m = rt.load_module({str(path)!r}, device={device!r})
        m.sleep(10)
        threading.Timer(0.3, os.kill, (os.getpid(), signal.SIGINT)).start()
        try:
            m.sleep(5_000_000)          # a 5 s kernel; Ctrl-C arrives during it
        except BaseException as e:
            print("raised", type(e).__name__, e)
        m.sleep(10)                     # the module still serves
        print("served")
        """)
    assert "raised KeyboardInterrupt" in out and "served" in out, out


# -- fork --------------------------------------------------------------------------------
@pytest.mark.parametrize("device", DRIVERS)
def test_invoke_async_works_in_a_forked_child(tmp_path, device):
    path = tmp_path / "add4.vmfb"
    path.write_bytes(compiled(open(ADD4).read()))
    out = _run_script(tmp_path, f"""
        import os, sys, threading, time, traceback
        import numpy as np
        import tensorvm.runtime as rt
        m = rt.load_module({str(path)!r}, device={device!r})
        a = np.arange(4, dtype=np.float32)
        assert np.array_equal(np.asarray(m.main.invoke_async(a, a).result(10)), 2 * a)
        stop = False

        def hammer():                   # keeps the scheduler, queue and module cache locks busy
            while not stop:
                m.main.invoke_async(a, a).result(10)
                m.main(a, a)
                rt.load_module({str(path)!r}, device={device!r})
        threads = [threading.Thread(target=hammer) for _ in range(3)]
        for t in threads:
            t.start()
        time.sleep(0.2)
        pids = []
        for _ in range(5):
            pid = os.fork()
            if pid == 0:
                code = 1
                try:
                    for k in range(20):
                        got = m.main.invoke_async(a, a + k).result(20)
                        assert np.array_equal(np.asarray(got), 2 * a + k)
                        assert np.array_equal(np.asarray(m.main(a, a + k)), 2 * a + k)
                    m2 = rt.load_module({str(path)!r}, device={device!r})
                    assert np.array_equal(np.asarray(m2.main.invoke_async(a, a).result(20)),
                                          2 * a)
                    code = 0
                except BaseException:
                    traceback.print_exc()
                finally:
                    sys.stdout.flush()
                    sys.stderr.flush()
                    os._exit(code)
            pids.append(pid)
            time.sleep(0.05)
        stop = True
        for t in threads:
            t.join()
        deadline = time.monotonic() + 60
        codes = []
        for pid in pids:
            while True:
                done, status = os.waitpid(pid, os.WNOHANG)
                if done:
                    codes.append(os.waitstatus_to_exitcode(status))
                    break
                if time.monotonic() > deadline:
                    os.kill(pid, 9)
                    codes.append("hung")
                    break
                time.sleep(0.02)
        print("children", codes)
        """)
    assert "children [0, 0, 0, 0, 0]" in out, out


def test_opencl_in_a_forked_child_fails_with_the_reason(tmp_path):
    """OpenCL implementations do not survive fork() (PoCL hangs on the child's
    first kernel): the child's copy of the device and new OpenCL devices
    refuse with typed errors, the CPU devices still work there, and the
    parent's device keeps working."""
    try:
        hal.create_device("opencl").close()
    except hal.HalError as e:
        pytest.skip(f"no OpenCL device: {e}")
    path = tmp_path / "add4.vmfb"
    path.write_bytes(compiled(open(ADD4).read(), targets=("opencl", "cpu")))
    out = _run_script(tmp_path, f"""
        import os, sys
        import numpy as np
        import tensorvm.hal as hal
        import tensorvm.runtime as rt
        m = rt.load_module({str(path)!r}, device="opencl")
        a = np.arange(4, dtype=np.float32)
        assert np.array_equal(np.asarray(m.main(a, a)), 2 * a)
        pid = os.fork()
        if pid == 0:
            for call in (lambda: m.main(a, a), lambda: rt.load_module({str(path)!r}, device="opencl")):
                try:
                    call()
                    print("ran")
                except hal.HalError as e:
                    print(type(e).__name__, e)
            cpu = rt.load_module({str(path)!r}, device="local-task")
            print("cpu", np.asarray(cpu.main(a, a)).tolist())
            sys.stdout.flush()
            os._exit(0)
        _, status = os.waitpid(pid, 0)
        print("child", os.waitstatus_to_exitcode(status))
        print("parent", np.asarray(m.main(a, a)).tolist())
        """, timeout=60)
    assert "ran" not in out, out
    assert "HalError device 'opencl' was created before this process forked" in out, out
    assert "DeviceUnavailableError" in out and "do not work in a forked child" in out, out
    assert "cpu [0.0, 2.0, 4.0, 6.0]" in out and "child 0" in out, out
    assert "parent [0.0, 2.0, 4.0, 6.0]" in out, out


# -- device cache --------------------------------------------------------------------------
def test_a_closed_device_leaves_the_cache():
    vmfb = compiled(open(ADD4).read())
    uri = "local-task://1"
    m = rt.load_module(vmfb, device=uri)
    a = np.arange(4, dtype=np.float32)
    m.device.close()
    with pytest.raises(hal.HalError, match="closed"):
        m.main(a, a)
    m2 = rt.load_module(vmfb, device=uri)          # a fresh device for the URI
    assert m2.device is not m.device and not m2.device.closed
    np.testing.assert_array_equal(np.asarray(m2.main(a, a)), 2 * a)
    assert rt.get_device(uri) is m2.device


# -- completion callbacks ------------------------------------------------------------------
def test_a_raising_completion_callback_gets_its_error():
    seen = []

    def done(results, exc):
        seen.append(exc)
        if exc is None:
            raise ValueError("callback failed")
    deliver(done, [1], None)
    assert seen[0] is None and isinstance(seen[1], ValueError)

    m = rt.load_module(compiled(open(ADD4).read()), device="local-sync")
    a = np.arange(4, dtype=np.float32)
    got = []
    Scheduler().start(m.main.begin(a, a), done)
    fence = m.device.create_fence()
    Scheduler().watch(fence, 10, lambda exc: (got.append(exc), exc or 1 / 0))
    fence.signal()
    assert isinstance(seen[-1], ValueError)
    assert got[0] is None and isinstance(got[1], ZeroDivisionError)


def test_a_result_that_fails_to_wrap_fails_the_future(monkeypatch):
    m = rt.load_module(compiled(open(ADD4).read()), device="local-task")
    a = np.arange(4, dtype=np.float32)

    def broken(self, results, ready=None):
        raise MemoryError("no room for the results")
    monkeypatch.setattr(api.Function, "_wrap", broken)
    with pytest.raises(MemoryError, match="no room"):
        m.main.invoke_async(a, a).result(timeout=30)


def test_a_cancelled_future_is_left_alone():
    m = rt.load_module(compiled(open(ADD4).read()), device="local-task")
    a = np.arange(4, dtype=np.float32)
    futures = [m.main.invoke_async(a, a) for _ in range(20)]
    cancelled = [f for f in futures if f.cancel()]
    for f in futures:
        if f not in cancelled:
            np.testing.assert_array_equal(np.asarray(f.result(timeout=30)), 2 * a)
    np.testing.assert_array_equal(np.asarray(m.main(a, a)), 2 * a)
