"""cpu-c loader and driver registry."""
from __future__ import annotations

import pytest

import tensorvm.hal as hal
from hal_kernels import ABI, compile_so, have_cc
from tensorvm.hal.loaders import cpu_c

needs_cc = pytest.mark.skipif(not have_cc(), reason="no C compiler")
FMT = cpu_c.format_name()


@pytest.fixture(scope="module")
def dev():
    d = hal.create_device("local-sync")
    yield d
    d.close()


def _ret(value):
    return compile_so(ABI + f"int answer(const tvm_dispatch_state_t* s, uint32_t b, uint32_t e)"
                            f"{{ (void)s; (void)b; (void)e; return {value}; }}\n")


def test_registry():
    assert {"local-sync", "local-task"} <= set(hal.available_drivers())
    assert "cuda" in hal.registered_drivers()
    with pytest.raises(hal.DeviceUnavailableError, match="no HAL driver named 'vulkan'"):
        hal.create_device("vulkan")
    with pytest.raises(hal.HalError):
        hal.create_device("")
    assert hal.get_driver("local-task").enumerate()


def test_bad_shared_object(dev):
    with pytest.raises(hal.ExecutableRejectedError, match="junk.*not an ELF object"):
        dev.load_executable("junk", FMT, b"definitely not ELF", ["x"], {})


@needs_cc
def test_unloadable_shared_object_names_the_loader_error(dev):
    good = _ret(0)      # EI_VERSION 0: passes the ELF admission check, dlopen refuses it
    with pytest.raises(hal.HalError, match="not a loadable shared object.*/proc/self/fd"):
        dev.load_executable("v0", FMT, good[:6] + b"\0" + good[7:], ["answer"], {})


def test_wrong_format_lists_supported(dev):
    with pytest.raises(hal.HalError, match=r"format 'cuda-ptx'.*cpu-c-"):
        dev.load_executable("k", "cuda-ptx", b"", [], {})


def test_missing_cpu_features_named(dev):
    with pytest.raises(hal.HalError, match=r"needs CPU features \['nonexistent_feature'\]"):
        dev.load_executable("k", FMT, b"", [], {"features": ["+nonexistent_feature"]})


@needs_cc
def test_missing_entry_point_and_bad_names(dev):
    with pytest.raises(hal.HalError, match="no entry point symbol 'nope'"):
        dev.load_executable("k", FMT, _ret(0), ["nope"], {})
    with pytest.raises(hal.HalError, match="not a C identifier"):
        dev.load_executable("k", FMT, _ret(0), ["bad name"], {})


@needs_cc
def test_distinct_libraries_with_same_symbols_stay_distinct(dev):
    # The fd number is reused after each close: the loader must not hand back
    # the earlier library that glibc still knows under the same path.
    codes = []
    for v in (11, 22, 33):
        exe = dev.load_executable(f"k{v}", FMT, _ret(v), ["answer"], {})
        codes.append(int(exe.functions[0](cpu_c.ffi.NULL, 0, 1)))
    assert codes == [11, 22, 33]


def test_host_features_parsed():
    feats = cpu_c.host_features()
    assert isinstance(feats, frozenset)
    if FMT == "cpu-c-x86_64":
        assert "sse2" in feats
