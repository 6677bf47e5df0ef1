"""HAL collective channels on the in-process provider (threads of one process)."""
import threading
import time

import numpy as np
import pytest

from tensorvm.hal import Fence, Semaphore
from tensorvm.hal.channel import ChannelError, ChannelTimeoutError, PeerFailedError
from tensorvm.hal.channels.inproc import InProcessHub


def run_ranks(n, body, replicas=None, partitions=1, timeout_s=10.0):
    """body(channel) on n threads; per-rank results, or the exception raised."""
    chans = InProcessHub(n).channels(replicas, partitions, timeout_s)
    out = [None] * n

    def one(c):
        try:
            out[c.rank] = body(c)
        except BaseException as e:   # noqa: BLE001
            c.abort(e)
            out[c.rank] = e
    ts = [threading.Thread(target=one, args=(c,)) for c in chans]
    for t in ts:
        t.start()
    for t in ts:
        t.join(30)
    return out


def test_all_reduce_every_reduction():
    data = [np.array([1, 2, 6], np.int32), np.array([4, 3, 5], np.int32)]
    for op, want in [("sum", [5, 5, 11]), ("prod", [4, 6, 30]), ("min", [1, 2, 5]),
                     ("max", [4, 3, 6]), ("and", [0, 2, 4]), ("or", [5, 3, 7]), ("xor", [5, 1, 3])]:
        got = run_ranks(2, lambda c: c.all_reduce([data[c.rank]], "cross_replica", [[0, 1]], op)[0])
        for g in got:
            np.testing.assert_array_equal(g, want, err_msg=op)


def test_unknown_reduction_is_a_typed_error():
    got = run_ranks(1, lambda c: c.all_reduce([np.ones(2)], "cross_replica", [[0]], "median"))
    assert isinstance(got[0], ChannelError) and "median" in str(got[0])


def test_process_groups_follow_the_spec_modes():
    c = InProcessHub(4).channels(2, 2)[0]
    assert c.process_groups("cross_replica", [[0, 1]]) == [[0, 2], [1, 3]]
    assert c.process_groups("cross_partition", [[0, 1]]) == [[0, 1], [2, 3]]
    assert c.process_groups("cross_replica_and_partition", [[0, 1]]) == [[0, 2, 1, 3]]
    assert c.process_groups("flattened_ids", [[0, 3], [1, 2]]) == [[0, 3], [1, 2]]
    with pytest.raises(ChannelError, match="names id 5"):
        c.process_groups("cross_replica", [[0, 5]])


def test_gather_scatter_alltoall_broadcast_permute():
    def body(c):
        x = np.arange(4, dtype=np.float32).reshape(2, 2) + 10 * c.rank
        return (c.all_gather([x], "cross_replica", [[0, 1]], 1)[0],
                c.reduce_scatter([x], "cross_replica", [[0, 1]], 0, "sum")[0],
                c.all_to_all([x], "cross_replica", [[0, 1]], 1, 0, 2)[0],
                c.collective_broadcast([x], "cross_replica", [[1, 0]])[0],
                c.collective_permute(x, "cross_replica", [[0, 1]]))
    r0, r1 = run_ranks(2, body)
    x0, x1 = np.arange(4.).reshape(2, 2), np.arange(4.).reshape(2, 2) + 10
    np.testing.assert_array_equal(r0[0], np.concatenate([x0, x1], 1))
    np.testing.assert_array_equal(r1[1], (x0 + x1)[1:])
    np.testing.assert_array_equal(r0[2], np.concatenate([x0[:, :1], x1[:, :1]], 0))
    np.testing.assert_array_equal(r0[3], x1)
    np.testing.assert_array_equal(r0[4], np.zeros((2, 2)))
    np.testing.assert_array_equal(r1[4], x0)


def test_send_recv():
    def body(c):
        if c.rank == 0:
            c.send(np.array([7, 8]), 1, tag=3)
            return None
        return c.recv(0, tag=3)
    assert list(run_ranks(2, body)[1]) == [7, 8]


def test_a_failing_rank_is_an_error_on_the_others_not_a_hang():
    def body(c):
        if c.rank == 1:
            raise ValueError("rank one broke")
        return c.all_reduce([np.ones(3)], "cross_replica", [[0, 1, 2]], "sum")
    t0 = time.monotonic()
    got = run_ranks(3, body, timeout_s=30)
    assert time.monotonic() - t0 < 10          # far inside the 30 s timeout
    assert isinstance(got[1], ValueError)
    for r in (0, 2):
        assert isinstance(got[r], PeerFailedError) and got[r].rank == 1
        assert "rank one broke" in str(got[r])


def test_a_missing_rank_times_out_naming_it():
    hub = InProcessHub(2)
    c0 = hub.channels(timeout_s=0.2)[0]
    with pytest.raises(ChannelTimeoutError, match=r"rank\(s\) \[1\]"):
        c0.all_reduce([np.ones(1)], "cross_replica", [[0, 1]], "sum")


def test_queue_collective_is_ordered_by_fences():
    chans = InProcessHub(2).channels(timeout_s=10)
    results, signals = {}, []
    gate = Fence.single(Semaphore(0), 1)
    for c in chans:
        sig = Fence.single(Semaphore(0), 1)
        signals.append(sig)
        c.queue_collective(gate, sig, "all_reduce", [np.full(2, c.rank + 1.0)], "cross_replica",
                           [[0, 1]], "sum", done=lambda out, r=c.rank: results.__setitem__(r, out))
    time.sleep(0.05)
    assert not results                          # nothing runs before the wait fence
    gate.signal()
    for s in signals:
        s.wait(10)
    assert [list(results[r][0]) for r in (0, 1)] == [[3.0, 3.0], [3.0, 3.0]]
