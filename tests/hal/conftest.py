"""Fixtures for the HAL conformance suite: one device per available driver."""
from __future__ import annotations

import pytest

import tensorvm.hal as hal
from hal_kernels import ENTRIES, have_cc, kernel_bytes, kernel_format


@pytest.fixture(params=hal.available_drivers())
def device(request):
    dev = hal.create_device(request.param)
    yield dev
    dev.close()


@pytest.fixture
def kernels(device):
    """The test kernels loaded on ``device``: cpu-c (built with the C compiler)
    or opencl-c (hal_kernels.OPENCL_SOURCE)."""
    fmt = kernel_format(device)
    if fmt is None and not have_cc() and any(f.startswith("cpu-c-")
                                             for f in device.supported_formats()):
        pytest.skip("no C compiler to build the test kernels")
    if fmt is None:          # (cuda: runs only where a GPU is, or under the fake libcuda)
        pytest.skip(f"the test kernels have no {'/'.join(device.supported_formats())} form")
    return device.load_executable("test_kernels", fmt, kernel_bytes(fmt), ENTRIES, {})
