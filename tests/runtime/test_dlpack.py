"""DLPack both ways with numpy, JAX and torch: host memory crosses without a
copy (equal data pointers), and the producer's memory outlives its users."""
from __future__ import annotations

import gc
import shutil

import numpy as np
import pytest
from tvm_testing import compiled

from tensorvm import runtime
from tensorvm.runtime import dlpack
from tensorvm.runtime.errors import InvalidArgumentError

pytestmark = pytest.mark.skipif(shutil.which("cc") is None, reason="needs a C compiler")

TEXT = """
func.func @main(%x: tensor<64xf32>) -> tensor<64xf32> {
  %c = stablehlo.constant dense<2.0> : tensor<64xf32>
  %0 = stablehlo.multiply %x, %c : tensor<64xf32>
  return %0 : tensor<64xf32>
}"""
DEVICES = ["local-sync", "local-task://2"]


@pytest.fixture(scope="module")
def vmfb():
    return compiled(TEXT)


def _buffer_address(arr) -> int:
    return arr.buffer_view.buffer.address


@pytest.fixture
def imports(monkeypatch):
    """Host addresses of the arrays the runtime imports (in call order)."""
    from tensorvm.runtime import api
    seen, real = [], api.import_array

    def spy(device, arr):
        view = real(device, arr)
        seen.append(view.buffer.address)
        return view
    monkeypatch.setattr(api, "import_array", spy)
    return seen


def test_device_array_protocols_share_memory(vmfb):
    f = runtime.load_module(vmfb, device="local-sync").main
    y = f(np.arange(64, dtype=np.float32))
    assert y.__dlpack_device__() == (dlpack.KDL_CPU, 0)
    via_dlpack = np.from_dlpack(y)
    via_interface = np.asarray(y)
    assert via_dlpack.ctypes.data == _buffer_address(y)
    assert via_interface.ctypes.data == _buffer_address(y)
    base = via_interface.base                  # the DeviceArray keeps the memory alive:
    assert base is y or (isinstance(base, tuple) and base[0] is y)   # (array struct: y, capsule)
    np.testing.assert_array_equal(via_dlpack, np.arange(64, dtype=np.float32) * 2)
    copied = np.from_dlpack(y, copy=True)
    assert copied.ctypes.data != _buffer_address(y)


def test_exported_memory_outlives_the_device_array(vmfb):
    """The capsule keeps the block referenced: the caching allocator may not
    hand it to the next call's result while the consumer still reads it."""
    f = runtime.load_module(vmfb, device="local-sync").main
    y = f(np.ones(64, dtype=np.float32))
    held = np.from_dlpack(y)
    del y
    gc.collect()
    for _ in range(4):
        f(np.full(64, 7.0, dtype=np.float32))
    np.testing.assert_array_equal(held, np.full(64, 2.0, dtype=np.float32))


@pytest.mark.parametrize("device", DEVICES)
def test_jax_arrays_in_without_copy(vmfb, device, imports):
    jnp = pytest.importorskip("jax.numpy")
    f = runtime.load_module(vmfb, device=device).main
    x = jnp.arange(64, dtype=jnp.float32)
    y = f(x)
    assert imports == [x.unsafe_buffer_pointer()]   # the kernel read the JAX buffer itself
    np.testing.assert_array_equal(np.asarray(y), np.arange(64, dtype=np.float32) * 2)
    f(x)                                         # again: the same view, no import at all
    assert imports == [x.unsafe_buffer_pointer()]
    f(x + 1)
    assert len(imports) == 2


def test_jax_producer_stays_alive_while_used(vmfb):
    jnp = pytest.importorskip("jax.numpy")
    f = runtime.load_module(vmfb, device="local-sync").main
    x = jnp.arange(64, dtype=jnp.float32) + 1
    ptr = x.unsafe_buffer_pointer()
    f(x)
    del x
    gc.collect()
    imported = f._last_import[0][1]           # still holds the consumed capsule
    assert imported.buffer.address == ptr
    np.testing.assert_array_equal(imported.to_numpy(), np.arange(64, dtype=np.float32) + 1)
    np.testing.assert_array_equal(f(imported).to_host(), (np.arange(64) + 1) * 2.0)


def test_device_array_into_jax_without_copy(vmfb, imports):
    jax = pytest.importorskip("jax")
    f = runtime.load_module(vmfb, device="local-sync").main
    y = f(np.arange(64, dtype=np.float32))
    j = jax.dlpack.from_dlpack(y)
    assert j.unsafe_buffer_pointer() == _buffer_address(y)
    np.testing.assert_array_equal(np.asarray(j), np.arange(64, dtype=np.float32) * 2)
    # and back in: JAX's array, whose memory is the runtime's, is passed as is
    f(j)
    assert imports[-1] == _buffer_address(y)


def _torch():
    return pytest.importorskip("torch", reason="torch is not installed (pip install "
                                               "'tensorvm[torch]'; README)")


@pytest.mark.parametrize("device", DEVICES)
def test_torch_round_trip_without_copy(vmfb, device, imports):
    torch = _torch()
    f = runtime.load_module(vmfb, device=device).main
    t = torch.arange(64, dtype=torch.float32)
    y = f(t)
    assert imports == [t.data_ptr()]             # the kernel read the tensor's own memory
    t.mul_(3)                                    # mutable: imported again, new contents seen
    assert torch.equal(torch.from_dlpack(f(t)), t * 2)
    assert imports == [t.data_ptr()] * 2
    back = torch.from_dlpack(y)                  # and out: torch over the runtime's buffer
    assert back.data_ptr() == _buffer_address(y)
    assert torch.equal(back, torch.arange(64, dtype=torch.float32) * 2)
    f(back)                                      # back in: the runtime's own memory, as is
    assert imports[-1] == _buffer_address(y)


def test_torch_view_of_a_result_outlives_the_device_array(vmfb):
    torch = _torch()
    f = runtime.load_module(vmfb, device="local-sync").main
    y = f(torch.ones(64))
    held = torch.from_dlpack(y)
    del y
    gc.collect()
    for _ in range(4):                           # the allocator must not reuse held's block
        f(torch.full((64,), 7.0))
    assert torch.equal(held, torch.full((64,), 2.0))


def test_torch_strided_and_grad_tensors(vmfb):
    """A strided view is read through its strides (numpy's DLPack import
    keeps them); a tensor that requires grad cannot be exported by torch and
    is named in an InvalidArgumentError."""
    torch = _torch()
    f = runtime.load_module(vmfb, device="local-sync").main
    base = torch.arange(128, dtype=torch.float32)
    assert torch.equal(torch.from_dlpack(f(base[::2])), base[::2] * 2)
    with pytest.raises(InvalidArgumentError, match=r"\(#0\).*require gradient"):
        f(torch.ones(64, requires_grad=True))
    with pytest.raises(InvalidArgumentError, match=r"tensor<64xf32>.*tensor<64xf64>"):
        f(torch.ones(64, dtype=torch.float64))


class _FakeDevicePtr:
    """A DLPack producer that says its memory is on a CUDA device."""

    def __dlpack__(self, **kwargs):
        raise AssertionError("must not be asked to export")

    def __dlpack_device__(self):
        return (dlpack.KDL_CUDA, 0)


def test_device_memory_producer_is_named(vmfb):
    f = runtime.load_module(vmfb, device="local-sync").main
    with pytest.raises(InvalidArgumentError, match=r"\(#0\).*kDLCUDA:0"):
        f(_FakeDevicePtr())


def test_dlpack_wrong_shape_is_invalid_argument(vmfb):
    jnp = pytest.importorskip("jax.numpy")
    f = runtime.load_module(vmfb, device="local-sync").main
    with pytest.raises(InvalidArgumentError, match=r"tensor<64xf32>.*tensor<8xf32>"):
        f(jnp.zeros(8, dtype=jnp.float32))


def test_streams_are_refused(vmfb):
    f = runtime.load_module(vmfb, device="local-sync").main
    y = f(np.zeros(64, dtype=np.float32))
    with pytest.raises(BufferError, match="stream"):
        y.__dlpack__(stream=5)


def test_opencl_arrays_export_a_host_copy_only_when_asked():
    from tensorvm import hal
    reason = hal.registry.driver_availability("opencl")
    if reason is not None:
        pytest.skip(f"opencl unavailable: {reason}")
    jnp = pytest.importorskip("jax.numpy")
    f = runtime.load_module(compiled(TEXT, ("cpu", "opencl")), device="opencl").main
    y = f(jnp.arange(64, dtype=jnp.float32))         # JAX host memory copied to the device
    assert y.__dlpack_device__() == (dlpack.KDL_OPENCL, 0)
    assert not hasattr(y, "__array_interface__")
    with pytest.raises(BufferError, match="kDLOpenCL"):
        y.__dlpack__()
    np.testing.assert_array_equal(np.from_dlpack(y, device="cpu"),
                                  np.arange(64, dtype=np.float32) * 2)
    np.testing.assert_array_equal(np.asarray(y), np.arange(64, dtype=np.float32) * 2)


def test_ml_dtypes_results_convert_through_array():
    """bf16 has no __array_interface__ type string: numpy takes __array__."""
    ml_dtypes = pytest.importorskip("ml_dtypes")
    text = """func.func @main(%x: tensor<4xf32>) -> tensor<4xbf16> {
      %0 = stablehlo.convert %x : (tensor<4xf32>) -> tensor<4xbf16>
      return %0 : tensor<4xbf16>
    }"""
    y = runtime.load_module(compiled(text), device="local-sync").main(np.arange(4, dtype=np.float32))
    out = np.asarray(y)
    assert out.dtype == ml_dtypes.bfloat16
    np.testing.assert_array_equal(out.astype(np.float32), np.arange(4, dtype=np.float32))
