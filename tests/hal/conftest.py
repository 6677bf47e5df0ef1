"""Fixtures for the HAL conformance suite: one device per available driver."""
from __future__ import annotations

import pytest

import tensorvm.hal as hal
from hal_kernels import ENTRIES, compile_so, have_cc


@pytest.fixture(params=hal.available_drivers())
def device(request):
    dev = hal.create_device(request.param)
    yield dev
    dev.close()


@pytest.fixture
def kernels(device):
    """The test kernels loaded on ``device`` (skips without a C compiler or
    where the device takes no cpu-c format)."""
    fmt = [f for f in device.supported_formats() if f.startswith("cpu-c-")]
    if not fmt:
        pytest.skip(f"{device.name} loads no cpu-c executables")
    if not have_cc():
        pytest.skip("no C compiler to build the test kernels")
    return device.load_executable("test_kernels", fmt[0], compile_so(), ENTRIES, {})
