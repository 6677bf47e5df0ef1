"""A command buffer recorded once with binding-table and constant-table
slots, nested into another per use (``CommandBuffer.execute_commands``):
how a loop body the VM does not walk per iteration runs on every driver."""
from __future__ import annotations

import numpy as np
import pytest

from tensorvm.hal import HalError
from tensorvm.hal.command_buffer import constant_slot

T = 30.0


def _body(device, kernels):
    """grid_ids over 4 workgroups into slot 0, its base from constant slot 0."""
    body = device.create_command_buffer()
    body.dispatch(kernels, kernels.entry_ordinal("grid_ids"), (4, 1, 1), [constant_slot(0)],
                  [(0, 0, 16)])
    body.finalize()
    return body


def test_a_body_recorded_once_runs_with_each_uses_buffers_and_constants(device, kernels):
    body = _body(device, kernels)
    outs = [device.allocator.allocate(16) for _ in range(3)]
    cb = device.create_command_buffer()
    for k, out in enumerate(outs):
        cb.execute_commands(body, [out], [100 * k + 7])
        cb.execution_barrier()
    cb.finalize()
    fence = device.create_fence()
    device.queue_execute(None, fence, [cb])
    fence.wait(T)
    for k, out in enumerate(outs):
        np.testing.assert_array_equal(np.frombuffer(out.read(), np.uint32),
                                      np.arange(4) + 100 * k + 7)
    # one command buffer per distinct constant table, made once and kept
    assert body.with_constants([7]) is body.with_constants([7])
    assert body.with_constants([8]) is not body.with_constants([7])


def test_constant_slots_are_checked(device, kernels):
    body = _body(device, kernels)
    out = device.allocator.allocate(16)
    with pytest.raises(HalError, match="1 constant slots, the constant table has 0"):
        body.with_constants([])
    with pytest.raises(HalError, match="constant table value"):
        body.with_constants([1 << 40])
    with pytest.raises(HalError, match="uses 1 constant slots; submit"):
        device.queue_execute(None, device.create_fence(), [body], [[out]])
    with pytest.raises(HalError, match="binding table has 0"):
        device.create_command_buffer().execute_commands(body, [], [1])
    open_cb = device.create_command_buffer()
    with pytest.raises(HalError, match="must be finalized first"):
        device.create_command_buffer().execute_commands(open_cb)
    with pytest.raises(HalError, match="constant slot must be in"):
        constant_slot(-1)
