"""A dispatch whose dynamic dims (push constants) and buffers disagree fails
with a HalError instead of reading or writing out of bounds: CPU kernels check
their bindings on entry, GPU dispatches are checked by the HAL when recorded
from the entry point's ``binding_shapes``.  (Static shapes are checked by the
HAL from ``binding_bytes``.)"""
from __future__ import annotations

import numpy as np
import pytest

from tensorvm import hal
from tensorvm.compiler.api import compile_str
from tensorvm.vmfb.container import read_module

EXP = """
func.func @main(%x: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %y = stablehlo.exponential %x : tensor<?x4xf32>
  return %y : tensor<?x4xf32>
}
"""


@pytest.fixture(scope="module")
def kernel():
    exe_def = read_module(compile_str(EXP)).executables[0]
    dev = hal.create_device("local-sync")
    v = exe_def.variants[dev.select_variant(exe_def.name, exe_def.variants)]
    yield dev, dev.load_executable(exe_def.name, v.format, v.data, v.entry_points, v.target)
    dev.close()


def _run(dev, exe, rows: int, buffer_rows: int):
    src = dev.allocator.allocate(buffer_rows * 16)
    dst = dev.allocator.allocate(buffer_rows * 16)
    src.write(0, np.ones(buffer_rows * 4, np.float32).tobytes())
    cb = dev.create_command_buffer()
    cb.dispatch(exe, 0, (1, 1, 1), constants=[rows & 0xFFFFFFFF, (rows >> 32) & 0xFFFFFFFF],
                bindings=[(src, 0, None), (dst, 0, None)])
    cb.finalize()
    done = dev.create_fence()
    dev.queue_execute(None, done, [cb])
    done.wait(10)
    return np.frombuffer(dst.read(), np.float32)


def test_consistent_dims_run(kernel):
    dev, exe = kernel
    np.testing.assert_allclose(_run(dev, exe, 2, 2), np.e, rtol=1e-6)


@pytest.mark.parametrize("rows", [3, 1 << 40, -1, (1 << 63) - 1])
def test_dims_beyond_the_buffers_fail_the_dispatch(kernel, rows):
    dev, exe = kernel
    with pytest.raises(hal.HalError, match="shorter than its dynamic shape"):
        _run(dev, exe, rows, 2)


# -- GPU variants: the HAL checks binding_shapes when the dispatch is recorded --

def _variant(target: str):
    exe_def = read_module(compile_str(EXP, targets=(target,))).executables[0]
    return exe_def, exe_def.variants[0]


@pytest.mark.parametrize("target", ["opencl", "cuda"])
def test_gpu_entry_points_declare_dynamic_binding_shapes(target):
    _, v = _variant(target)
    ep = v.entry_points[0]
    # x and the result: 16 bytes per row, the row count is the i64 push constant at word 0
    assert ep.binding_shapes == [[16, [["$0"]]], [16, [["$0"]]]]


def _layout_exe(shapes, constants=2):
    from tensorvm.hal.executable import Executable, parse_entry_points
    exe = Executable(None, "exe", "test", ["k"])
    _, exe.layouts = parse_entry_points([("k", len(shapes), constants, None, None, shapes)])
    return exe


@pytest.mark.parametrize("tokens,value", [
    (["$0"], 5), ([3], 3), (["$0", 2, "*", 1, "+"], 11), (["$0", 3, "max"], 5),
    (["$0", 0, "/"], 0), (["$0", 2, "%"], 1), (["$0", 7, "min"], 5), ([2, "$0", "-"], -3)])
def test_binding_shape_expressions(tokens, value):
    exe = _layout_exe([[1, [tokens]]])
    dim = exe.layouts[0].binding_shapes[0][1][0]
    assert dim.evaluate((5, 0)) == value


@pytest.mark.parametrize("tokens", [["$2"], ["$1"], ["+"], [1, 2], ["$0", "**"], [], [1.5],
                                    "s0", [None]])
def test_malformed_binding_shapes_fail_at_load(tokens):
    with pytest.raises(hal.HalError, match="binding_shapes"):
        _layout_exe([[4, [tokens]]])


def test_negative_and_huge_dims_fail_the_check():
    exe = _layout_exe([[4, [["$0"]]]])
    exe.check_binding_shapes(0, (3, 0), [12])
    for words in ((4, 0), (0xFFFFFFFF, 0xFFFFFFFF), (0, 1 << 31), (0, 1)):
        with pytest.raises(hal.HalError, match="shorter than its dynamic shape"):
            exe.check_binding_shapes(0, words, [12])


@pytest.fixture(scope="module")
def opencl_device():
    try:
        dev = hal.create_device("opencl")
    except hal.HalError as e:
        pytest.skip(f"no OpenCL device: {e}")
    yield dev
    dev.close()


@pytest.mark.parametrize("rows", [3, 1 << 40, -1])
def test_opencl_dispatch_beyond_the_buffers_is_refused_when_recorded(opencl_device, rows):
    exe_def, v = _variant("opencl")
    dev = opencl_device
    exe = dev.load_executable(exe_def.name, v.format, v.data, v.entry_points, v.target)
    src, dst = dev.allocator.allocate(32), dev.allocator.allocate(32)
    cb = dev.create_command_buffer()
    cb.dispatch(exe, 0, (1, 1, 1), constants=[2, 0], bindings=[(src, 0, None), (dst, 0, None)])
    with pytest.raises(hal.HalError, match="binding 0 has 32 bytes, shorter than its dynamic"):
        cb.dispatch(exe, 0, (1, 1, 1), constants=[rows & 0xFFFFFFFF, (rows >> 32) & 0xFFFFFFFF],
                    bindings=[(src, 0, None), (dst, 0, None)])
