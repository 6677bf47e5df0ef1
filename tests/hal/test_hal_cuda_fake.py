"""The cuda driver's plumbing (cffi signatures, buffers, transfers, queue and
fences, PTX load errors, launch parameters) against a stand-in libcuda whose
"device" memory is host memory: runs everywhere a C compiler is."""
from __future__ import annotations

import os
import pathlib
import subprocess
import sys
import textwrap

import pytest
from hal_kernels import have_cc

HERE = pathlib.Path(__file__).resolve().parent
pytestmark = pytest.mark.skipif(not have_cc(), reason="no C compiler for the stand-in libcuda")


@pytest.fixture(scope="module")
def fake_env(tmp_path_factory):
    lib = tmp_path_factory.mktemp("fakecuda") / "libcuda.so.1"
    subprocess.run([os.environ.get("CC", "cc"), "-shared", "-fPIC", "-O1",
                    str(HERE / "fake_libcuda.c"), "-o", str(lib)], check=True)
    return dict(os.environ, TENSORVM_LIBCUDA=str(lib))


def test_hal_conformance_suite_passes_on_fake_cuda(fake_env):
    proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                           str(HERE / "test_hal_conformance.py"), "-k", "cuda"],
                          env=fake_env, capture_output=True, text=True, cwd=HERE)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-2000:]
    assert " passed" in proc.stdout


SCRIPT = textwrap.dedent("""
    import numpy as np, pytest
    from tensorvm import hal
    dev = hal.create_device("cuda")
    assert dev.description == "Fake GPU" and dev.compute_capability == (8, 0)
    exe = dev.load_executable("k", "cuda-ptx", b".version 8.0 .target sm_80", ["count"],
                              {"arch": "sm_80", "local_size": 64})
    out = dev.allocator.allocate(8)
    cb = dev.create_command_buffer()
    cb.dispatch(exe, 0, (3, 2, 2), [5], [(out, 4, None)])
    cb.finalize()
    f = dev.create_fence(); dev.queue_execute(None, f, [cb]); f.wait(5)
    assert np.frombuffer(out.read(4, 4), np.uint32)[0] == 12, out.read()
    assert dev.load_executable("k2", "cuda-ptx", b".version 8.0 .target sm_80", ["count"],
                               {"arch": "sm_80"}).module == exe.module
    with pytest.raises(hal.HalError, match="(?s)'bad'.*INVALID_PTX.*BROKEN kernel"):
        dev.load_executable("bad", "cuda-ptx", b"BROKEN", ["f"], {})
    with pytest.raises(hal.HalError, match="no kernel 'missing'"):
        dev.load_executable("m", "cuda-ptx", b"ok", ["missing"], {})
    with pytest.raises(hal.HalError, match="compiled for sm_90.*--cuda-arch=sm_80"):
        dev.load_executable("new", "cuda-ptx", b"ok2", ["f"], {"arch": "sm_90"})
    checked = dev.load_executable("k3", "cuda-ptx", b".version 8.0 .target sm_80",
                                  [("count", 1, 1)], {"arch": "sm_80"})
    with pytest.raises(hal.HalError, match="entry point 'count': it declares 1 bindings"):
        dev.create_command_buffer().dispatch(checked, 0, (1, 1, 1), [5, 6], [(out, 4, None)])
    with pytest.raises(hal.HalError, match="65535"):
        dev.create_command_buffer().dispatch(checked, 0, (1, 65536, 1), [5], [(out, 4, None)])
    view = hal.BufferView(out.subspan(4), (1,), np.uint32)
    assert view.to_numpy().tolist() == [12]
    dev.close()
    print("OK")
""")


def test_cuda_driver_dispatch_and_errors_on_fake(fake_env):
    proc = subprocess.run([sys.executable, "-c", SCRIPT], env=fake_env, capture_output=True,
                          text=True)
    assert proc.returncode == 0 and "OK" in proc.stdout, proc.stdout + proc.stderr


FORK = textwrap.dedent("""
    import os, sys
    from tensorvm import hal
    dev = hal.create_device("cuda")
    out = dev.allocator.allocate(8)
    pid = os.fork()
    if pid == 0:
        errors = []
        for attempt in (lambda: dev.load_executable("k", "cuda-ptx", b"ok", ["f"], {}),
                        lambda: dev.create_command_buffer() and dev.queue_execute(
                            None, dev.create_fence(), []),
                        lambda: hal.create_device("cuda")):
            try:
                attempt()
                errors.append("ran")
            except hal.HalError as e:
                errors.append(str(e))
        print(errors)
        sys.stdout.flush()
        os._exit(0)
    os.waitpid(pid, 0)
    print("parent still works:", dev.allocator.allocate(8) is not None)
""")


def test_a_forked_child_gets_typed_errors_from_cuda(fake_env):
    """CUDA state initialised in the parent is unusable in a forked child: the
    child's copy of the device and new devices refuse with the reason."""
    proc = subprocess.run([sys.executable, "-c", FORK], env=fake_env, capture_output=True,
                          text=True, timeout=60)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.count("was created before this process forked") == 2, proc.stdout
    assert "CUDA cannot be used in a forked child" in proc.stdout, proc.stdout
    assert "parent still works: True" in proc.stdout


GRAPHS = textwrap.dedent("""
    import ctypes, os
    import numpy as np
    from tensorvm import hal
    fake = ctypes.CDLL(os.environ["TENSORVM_LIBCUDA"])

    def counts():
        out = (ctypes.c_long * 5)()
        fake.fake_counts(out)
        return dict(zip(["graphs", "instantiates", "graph_launches", "node_updates",
                         "kernel_launches"], out))

    def word(buf, off):
        return int(np.frombuffer(buf.read(off, 4), np.uint32)[0])

    dev = hal.create_device("cuda")
    exe = dev.load_executable("k", "cuda-ptx", b".version 8.0 .target sm_80", ["count"],
                              {"arch": "sm_80", "local_size": 64})
    # recorded once against slots, submitted 4 times with new buffers each time
    cb = dev.create_command_buffer()
    cb.dispatch(exe, 0, (3, 2, 2), [5], [(0, 0, 4)])
    cb.dispatch(exe, 0, (7, 1, 1), [5], [(1, 4, 4)])
    cb.finalize()
    start, kept = counts(), []
    for i in range(4):
        a, b = dev.allocator.allocate(8), dev.allocator.allocate(8)
        kept += [a, b]                          # distinct addresses every submission
        f = dev.create_fence()
        dev.queue_execute(None, f, [cb], [[a, b]])
        f.wait(5)
        assert (word(a, 0), word(b, 4)) == (12, 7), (i, word(a, 0), word(b, 4))
    d = {k: v - start[k] for k, v in counts().items()}
    # the first submission launches kernel by kernel; the second builds the
    # graph once, and it and the rest replay it with both nodes' pointers updated
    assert d == {"graphs": 1, "instantiates": 1, "graph_launches": 3, "node_updates": 6,
                 "kernel_launches": 2}, d
    s = dev.stats()
    assert (s["graphs_built"], s["graph_launches"], s["graph_node_updates"]) == (1, 3, 6), s
    assert s["submissions"] == 4 and s["commands"] == 8, s

    # the same buffers again: nothing to update, one graph launch
    f = dev.create_fence(); dev.queue_execute(None, f, [cb], [kept[-2:]]); f.wait(5)
    assert counts()["node_updates"] - start["node_updates"] == 6

    # recorded anew per call (no slots): one template, its graph replayed
    built, reused = dev.templates.built, dev.templates.reused
    for i in range(3):
        out = dev.allocator.allocate(16)
        kept.append(out)
        cb2 = dev.create_command_buffer()
        cb2.dispatch(exe, 0, (2, 1, 1), [1], [(out, 0, None)])
        cb2.execution_barrier()
        cb2.dispatch(exe, 0, (5, 1, 1), [1], [(out, 8, None)])
        cb2.finalize()
        f = dev.create_fence(); dev.queue_execute(None, f, [cb2]); f.wait(5)
        assert (word(out, 0), word(out, 8)) == (2, 5)
    assert (dev.templates.built - built, dev.templates.reused - reused) == (1, 2)
    assert dev.stats()["graphs_built"] == 2
    dev.close()
    print("OK")
""")


def test_cuda_command_buffers_replay_as_graphs_with_updated_bindings(fake_env):
    """A command buffer is prepared once; from its second submission its
    launches are one CUDA graph, built once and launched per submission,
    with cuGraphExecKernelNodeSetParams only for nodes whose buffers
    changed (the stand-in libcuda counts the calls)."""
    proc = subprocess.run([sys.executable, "-c", GRAPHS], env=fake_env, capture_output=True,
                          text=True, timeout=120)
    assert proc.returncode == 0 and "OK" in proc.stdout, proc.stdout + proc.stderr
