"""User API: load_module, argument checks against reflection, DeviceArray results."""
import numpy as np
import pytest

import tensorvm.runtime as rt
from tensorvm.runtime import InvalidArgumentError
from tensorvm.vmfb.assembler import assemble
from tensorvm.vmfb.container import write_module

SOURCE = """
module @api
import @hal.buffer_view.dim(r, i) -> (I)
import @hal.device.get() -> (ref)
import @hal.fence.create(ref) -> (ref)
import @hal.device.queue.execute(ref, ref, ref, *ref) -> ()
import @hal.fence.await(i32, *ref) -> (i32)
global @ready : i32 = 0

func @__init() -> () export {
entry:
  %one = const.i32 1
  global.store.i32 %one, @ready
  ret
}
func @identity(%x: ref) -> (ref) export reflection {"args": [{"name": "x", "dtype": "f32", "shape": [2, "?"]}], "results": [{"name": "y", "dtype": "f32", "shape": [2, "?"]}]} {
entry:
  ret %x
}
func @swap(%a: ref, %b: ref) -> (ref, ref) export reflection {"args": [{"name": "a", "dtype": "i32", "shape": []}, {"name": "b", "dtype": "i32", "shape": [3]}], "results": [{"dtype": "i32", "shape": [3]}, {"dtype": "i32", "shape": []}]} {
entry:
  ret %b, %a
}
func @cols(%x: ref, %k: i32) -> (i64) export reflection {"args": [{"name": "x", "dtype": "f32", "shape": [2, "?"]}, {"name": "k", "dtype": "i32", "shape": []}], "results": [{"dtype": "i64", "shape": []}]} {
entry:
  %one = const.i32 1
  %d = call.import @hal.buffer_view.dim(%x, %one)
  %kk = ext.i32.i64.s %k
  %r = mul.i64 %d, %kk
  ret %r
}
func @roundtrip(%t: i32) -> (i32) export {
entry:
  %dev = call.import @hal.device.get()
  %sig = call.import @hal.fence.create(%dev)
  %null = const.ref.null
  call.import @hal.device.queue.execute(%dev, %null, %sig, [])
  %r = call.import @hal.fence.await(%t, [%sig])
  %one = const.i32 1
  %r = add.i32 %r, %one
  ret %r
}
func @ready() -> (i32) export {
entry:
  %r = global.load.i32 @ready
  ret %r
}
"""


@pytest.fixture(scope="module")
def vmfb():
    return write_module(assemble(SOURCE))


@pytest.fixture(scope="module")
def module(vmfb):
    return rt.load_module(vmfb, device="local-sync")


def test_load_runs_init_and_lists_functions(module):
    assert module.ready() == 1
    assert set(module.functions) == {"identity", "swap", "cols", "ready", "roundtrip"}
    assert "identity(x: tensor<2x?xf32>) -> (tensor<2x?xf32>)" in repr(module.functions["identity"])
    assert module["cols"] is module.cols


def test_numpy_in_device_array_out_zero_copy(module):
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    y = module.identity(x)
    assert isinstance(y, rt.DeviceArray)
    assert y.shape == (2, 3) and y.dtype == np.float32 and y.ndim == 2 and len(y) == 2
    np.testing.assert_array_equal(np.asarray(y), x)
    assert np.shares_memory(y.to_host(), x)
    assert "DeviceArray(" in repr(y)
    z = module.identity(y)                      # a DeviceArray goes back in as is
    assert z.buffer_view is y.buffer_view


def test_dynamic_dims_and_scalars(module):
    assert module.cols(np.zeros((2, 5), np.float32), 3) == 15
    assert module.cols(np.zeros((2, 0), np.float32), np.int32(4)) == 0
    a, b = np.int32(7), np.array([1, 2, 3], np.int32)
    first, second = module.swap(np.asarray(a), b)
    np.testing.assert_array_equal(first, b)
    assert int(np.asarray(second)) == 7


def test_python_values_are_converted_to_the_expected_dtype(module):
    first, second = module.swap(5, [1, 2, 3])
    assert first.dtype == np.int32 and list(np.asarray(first)) == [1, 2, 3]


@pytest.mark.parametrize("call,match", [
    (lambda m: m.identity(), r"identity takes 1 arguments \(x: tensor<2x\?xf32>\), got 0"),
    (lambda m: m.identity(np.zeros((2, 3)), 1), "takes 1 arguments"),
    (lambda m: m.identity(np.zeros((2, 3))),
     r"argument 'x' \(#0\): expected tensor<2x\?xf32>, got tensor<2x3xf64>"),
    (lambda m: m.identity(np.zeros((3, 3), np.float32)), "got tensor<3x3xf32>"),
    (lambda m: m.identity(np.zeros((2,), np.float32)), "got tensor<2xf32>"),
    (lambda m: m.swap(1.5, [1, 2, 3]), r"argument 'a' \(#0\): expected tensor<i32>, got tensor<f64>"),
    (lambda m: m.swap(1, [1, 2]), r"argument 'b' \(#1\): expected tensor<3xi32>"),
    (lambda m: m.cols(np.zeros((2, 1), np.float32), "x"), r"argument 'k' \(#1\): expected i32"),
    (lambda m: m.identity(object()), "argument 'x'"),
])
def test_argument_errors_name_the_argument(module, call, match):
    with pytest.raises(InvalidArgumentError, match=match):
        call(module)


def test_unknown_export(module):
    with pytest.raises(AttributeError, match="no export 'nope'"):
        module.nope
    with pytest.raises(KeyError):
        module["nope"]


def test_device_is_cached_per_uri_and_paths_load(vmfb, module, tmp_path):
    p = tmp_path / "api.vmfb"
    p.write_bytes(vmfb)
    again = rt.load_module(str(p), device="local-sync")
    assert again.device is module.device
    assert again.cols(np.ones((2, 4), np.float32), 2) == 8


def test_invalid_argument_error_before_vm_runs(module):
    inv_calls = []
    orig = module.context.invoke
    module.context.invoke = lambda *a: inv_calls.append(a) or orig(*a)
    try:
        with pytest.raises(InvalidArgumentError):
            module.identity(np.zeros((9, 9), np.float32))
        assert inv_calls == []
    finally:
        del module.context.invoke


def test_non_contiguous_and_zero_d_inputs(module):
    x = np.arange(6, dtype=np.float32).reshape(3, 2).T          # (2, 3), not C-contiguous
    np.testing.assert_array_equal(np.asarray(module.identity(x)), x)
    first, second = module.swap(np.array(9, np.int32), np.array([4, 5, 6], np.int32))
    assert second.shape == () and int(np.asarray(second)) == 9


@pytest.mark.parametrize("device", ["local-sync", "local-task"])
def test_queue_and_fence_await_through_the_vm(vmfb, device):
    m = rt.load_module(vmfb, device=device)
    assert m.roundtrip(1000) == 1


def _with_reflection(vmfb, name, reflection) -> bytes:
    """``vmfb`` with export ``name``'s reflection replaced (forged, CRCs fixed)."""
    from tensorvm.vmfb.container import read_module
    mdef = read_module(vmfb)
    mdef.functions[mdef.function_index(name)].reflection = reflection
    return write_module(mdef)


def test_reflection_is_decoded_on_first_lookup_and_checked_then(vmfb):
    """A load decodes no reflection; an export's is decoded and checked against
    its signature when the export is first looked up (``verify="eager"``:
    at load), so a damaged one is a typed error there, naming it."""
    from tensorvm.vmfb.errors import VerificationError
    bad = _with_reflection(vmfb, "swap", {"args": [], "results": []})  # 2 args in the signature
    lazy = rt.load_module(bad, device="local-sync")
    fdefs = lazy.bytecode.definition.functions
    assert not any(f.reflection_loaded for f in fdefs if f.name in ("identity", "swap"))
    assert np.asarray(lazy.identity(np.ones((2, 3), np.float32))).shape == (2, 3)
    with pytest.raises(VerificationError, match="reflection lists 0 args"):
        lazy.swap
    with pytest.raises(VerificationError, match="reflection lists 0 args"):
        rt.load_module(bad, device="local-sync", verify="eager")


INITIALIZED = """
module @inits
import @hal.device.get() -> (r)
import @hal.allocator.import(r, r) -> (r)
import @hal.executable.load(r, r) -> (r)
global @dev : ref = call @hal.device.get()
global @buf : ref = call @hal.allocator.import(global @dev, rodata @k)
global @seen : ref
rodata @k = hex"0102030405060708"

func @__init() -> () export {
entry:
  %b = global.load.ref @buf
  global.store.ref %b, @seen
  ret
}
func @get() -> (ref) export {
entry:
  %b = global.load.ref @seen
  ret %b
}
"""


def test_ref_global_initializers_run_in_order_before_init():
    """A 1.3 module's initializers run when the context registers it, in global
    order (@buf uses @dev) and before __init (which reads @buf)."""
    blob = write_module(assemble(INITIALIZED))
    assert blob[8:12] == bytes([1, 0, 3, 0])      # the writer marks the file 1.3
    for device in ("local-sync", "local-task"):
        assert rt.load_module(blob, device=device).get().read() == bytes(range(1, 9))


def test_a_failing_initializer_names_its_global():
    from tensorvm.vmfb.model import ExecutableDef, ExecutableVariant, ModuleDef
    text = INITIALIZED.replace(
        "global @seen : ref",
        "global @seen : ref = call @hal.executable.load(global @dev, executable @nowhere)")
    base = ModuleDef("inits", executables=[
        ExecutableDef("nowhere", [ExecutableVariant("no-such-format", {}, [], b"")])])
    from tensorvm.hal.errors import NoVariantError
    blob = write_module(assemble(text, base=base))
    with pytest.raises(NoVariantError, match="no variant this device can run") as e:
        rt.load_module(blob, device="local-sync")
    assert "while initializing global 'seen' of module 'inits' with hal.executable.load" \
        in "\n".join(getattr(e.value, "__notes__", [])), e.value


def test_a_long_parameter_list_is_shortened_in_the_count_error():
    """A model whose weights are arguments has hundreds of parameters: the
    count error names the first 8 and the last 2, and how many it left out."""
    n = 30
    params = ", ".join(f"%w{i}: tensor<{i + 1}xf32>" for i in range(n))
    text = f"func.func @main({params}) -> tensor<1xf32> {{\n  return %w0 : tensor<1xf32>\n}}"
    from tensorvm import compiler
    m = rt.load_module(compiler.compile_str(text))
    with pytest.raises(InvalidArgumentError) as e:
        m.main(np.zeros(1, np.float32))
    msg = str(e.value)
    assert msg.startswith(f"main takes {n} arguments (arg0: tensor<1xf32>, ")
    assert "arg7: tensor<8xf32>, ... 20 more ..., arg28: tensor<29xf32>, arg29: tensor<30xf32>), got 1" in msg
    assert "arg8:" not in msg and len(msg) < 400
