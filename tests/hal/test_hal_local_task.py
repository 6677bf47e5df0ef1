"""local-task specifics: worker spreading, inline tiny dispatches, async queue."""
from __future__ import annotations

import threading
import time

import numpy as np
import pytest

import tensorvm.hal as hal
from tensorvm.hal.drivers.local_task import PIECES_PER_WORKER
from hal_kernels import ENTRIES, compile_so, have_cc

pytestmark = pytest.mark.skipif(not have_cc(), reason="no C compiler for the test kernels")


@pytest.fixture
def dev4():
    d = hal.create_device("local-task://4", split_us=0)     # split from the first run
    yield d
    d.close()


def _load(d):
    return d.load_executable("k", d.supported_formats()[0], compile_so(), ENTRIES, {})


def _load_claiming(d):
    """The test kernels built with the claim runner (vmfb/cpu_abi.py's
    ``tvm_run_claimed``), as every compiled module has it."""
    from tensorvm.vmfb.cpu_abi import CLAIM_RUNNER_C
    from hal_kernels import SOURCE
    return d.load_executable("k", d.supported_formats()[0], compile_so(SOURCE + CLAIM_RUNNER_C),
                             ENTRIES, {})


def _record_tids(d, exe, workgroups, runs=1, entry="record_tid"):
    """(thread id per workgroup, native calls per run) of ``runs``
    submissions of one recorded dispatch of ``entry`` (record_tid: 2 ms a
    call; record_tid_slow: 20 ms)."""
    tids = d.allocator.allocate(8 * workgroups)
    calls = d.allocator.allocate(4)
    cb = d.create_command_buffer()
    cb.dispatch(exe, exe.entry_ordinal(entry), (workgroups, 1, 1), [],
                [(tids, 0, None), (calls, 0, None)])
    cb.finalize()
    per_run = []
    for _ in range(runs):
        calls.write(0, np.zeros(1, np.uint32).tobytes())
        f = d.create_fence()
        d.queue_execute(None, f, [cb])
        f.wait(5)
        per_run.append(int(np.frombuffer(calls.read(), np.uint32)[0]))
    return np.frombuffer(tids.read(), np.int64), (per_run[0] if runs == 1 else per_run)


# a split of record_tid_slow (a 20 ms whole run): PIECES_PER_WORKER ranges per worker
_SLOW_SPLIT = 4 * PIECES_PER_WORKER


@pytest.mark.parametrize("split_us,expected", [(60.0, [1, _SLOW_SPLIT, 1, 1]), (1e9, [1, 1, 1, 1]),
                                               (0, [4, 4, 4, 4])])
def test_dispatches_split_only_while_it_pays(split_us, expected):
    """A dispatch runs whole on its first submission; the next splits it over
    the workers only if that run took at least ``split_us`` (a long run into
    several ranges per worker, taken by whichever thread is free); after
    that it stays split only if the split run was faster.  record_tid_slow
    sleeps 20 ms per native call, however many workgroups: splitting does
    not pay (20 ms, not 2: a busy machine's scheduling jitter stays far
    below the 15% a split must gain).  ``split_us=0`` splits always, into
    one range per worker."""
    with hal.create_device("local-task://4", split_us=split_us) as d:
        _, calls = _record_tids(d, _load(d), 64, runs=4, entry="record_tid_slow")
        assert calls == expected


def test_splitting_is_tried_again_after_whole_runs():
    """One split run that did not pay keeps the dispatch whole for
    SPLIT_RETRY_MIN runs only, then splitting is measured again (a cold
    worker or another process once must not pin it to one thread for long);
    each try that does not pay either doubles the wait, up to SPLIT_RETRY."""
    from tensorvm.hal.drivers.local_task import SPLIT_RETRY, SPLIT_RETRY_MIN
    expected, gap = [1, _SLOW_SPLIT], SPLIT_RETRY_MIN
    while len(expected) < 2 * SPLIT_RETRY + 2:
        expected += [1] * gap + [_SLOW_SPLIT]
        gap = min(2 * gap, SPLIT_RETRY)
    assert gap == SPLIT_RETRY                 # the wait reached its cap in these runs
    with hal.create_device("local-task://4", split_us=60.0) as d:
        _, calls = _record_tids(d, _load(d), 64, runs=len(expected), entry="record_tid_slow")
    assert calls == expected


def test_a_split_that_pays_again_keeps_splitting():
    """A dispatch kept whole by a try that did not pay splits for good once a
    try pays: the fresh try's time, not its mean with the lost ones, decides
    (the first try here slept 4 x 20 ms per worker, the second is quick)."""
    from tensorvm.hal.drivers.local_task import SPLIT_RETRY_MIN
    with hal.create_device("local-task://4", split_us=60.0) as d:
        exe = _load(d)
        _, calls = _record_tids(d, exe, 64, runs=2 + SPLIT_RETRY_MIN, entry="record_tid_slow")
        rec = next(iter(exe.run_times.values()))
        rec[0] = 1.0              # as if the whole runs had taken a second: splitting pays now
        _, more = _record_tids(d, exe, 64, runs=4, entry="record_tid_slow")
    assert calls == [1, _SLOW_SPLIT] + [1] * SPLIT_RETRY_MIN
    assert more == [_SLOW_SPLIT] * 4


def test_workgroups_spread_over_workers_one_call_each(dev4):
    assert dev4.workers == 4
    tids, calls = _record_tids(dev4, _load(dev4), 64)
    assert calls == 4                       # one native call per worker range
    assert len(set(tids.tolist())) > 1      # ... on more than one thread
    # contiguous ranges: each thread's workgroups form one run
    runs = 1 + int(np.count_nonzero(tids[1:] != tids[:-1]))
    assert runs <= 4


def test_split_dispatch_claims_workgroups_where_the_module_can(dev4):
    """An executable with ``tvm_run_claimed`` (vmfb/cpu_abi.py) runs a split
    dispatch as one native call per thread, each claiming workgroups from a
    shared counter: every workgroup runs once, in claims of
    total / (workers x CLAIMS_PER_WORKER) workgroups (1 here: 64 entry calls),
    on more than one thread.  The same kernels without the runner get one
    range per worker (test_workgroups_spread_over_workers_one_call_each)."""
    from tensorvm.hal.drivers.local_task import CLAIMS_PER_WORKER
    exe = _load_claiming(dev4)
    assert exe.claimer is not None
    tids, calls = _record_tids(dev4, exe, 64)
    assert calls == 64 // max(1, 64 // (4 * CLAIMS_PER_WORKER))
    assert np.all(tids != 0) and len(set(tids.tolist())) > 1


def test_a_claimed_split_that_fails_fails_its_fence(dev4):
    """A workgroup's error code in a claimed split stops the claims and
    fails the submission with the entry point's error, as a range's does."""
    from tensorvm.hal.errors import HalError
    exe = _load_claiming(dev4)
    cb = dev4.create_command_buffer()
    cb.dispatch(exe, exe.entry_ordinal("fail_at"), (64, 1, 1), [37])
    cb.finalize()
    f = dev4.create_fence()
    dev4.queue_execute(None, f, [cb])
    with pytest.raises(HalError, match="entry point 'fail_at' failed with code 7"):
        f.wait(5)


def _load_team(d):
    """The test kernels built with every runner (vmfb/cpu_abi.py), as every
    compiled module has them: local-task runs stretches of dispatches as a
    native team (``tvm_run_team``)."""
    from tensorvm.vmfb.cpu_abi import CLAIM_RUNNER_C, PACKET_RUNNER_C, TEAM_RUNNER_C
    from hal_kernels import SOURCE
    return d.load_executable("k", d.supported_formats()[0],
                             compile_so(SOURCE + PACKET_RUNNER_C + CLAIM_RUNNER_C + TEAM_RUNNER_C),
                             ENTRIES, {})


def test_a_stretch_of_segments_runs_as_a_native_team(dev4):
    """Three segments (barriers between) of a recorded command buffer, one
    of them two independent dispatches: one team stretch, every workgroup
    run once per submission, a segment's reads after the writes of the one
    before (scale reads what the previous scale wrote), on several threads."""
    from tensorvm.hal.drivers.cpu_program import TeamStretch
    from tensorvm.hal.drivers.local_task import _cores
    if _cores() < 2:
        pytest.skip("a team needs 2 cores; this process may run on 1")
    exe = _load_team(dev4)
    assert exe.team is not None
    n, per = 4096, 64
    bufs = [dev4.allocator.allocate(4 * n) for _ in range(3)]
    tids, calls = dev4.allocator.allocate(8 * 32), dev4.allocator.allocate(4)
    x = np.arange(n, dtype=np.float32)
    bufs[0].write(0, x.tobytes())
    cb = dev4.create_command_buffer()
    scale = exe.entry_ordinal("scale")
    cb.dispatch(exe, scale, (n // per, 1, 1), [n, per], [(bufs[0], 0, None), (bufs[1], 0, None)])
    cb.execution_barrier()
    cb.dispatch(exe, scale, (n // per, 1, 1), [n, per], [(bufs[1], 0, None), (bufs[2], 0, None)])
    cb.dispatch(exe, exe.entry_ordinal("record_tid"), (32, 1, 1), [],
                [(tids, 0, None), (calls, 0, None)])
    cb.execution_barrier()
    cb.dispatch(exe, scale, (n // per, 1, 1), [n, per], [(bufs[2], 0, None), (bufs[1], 0, None)])
    cb.finalize()
    threads = set()
    for _ in range(3):
        f = dev4.create_fence()
        dev4.queue_execute(None, f, [cb])
        f.wait(5)
        np.testing.assert_array_equal(np.frombuffer(bufs[1].read(), np.float32),
                                      ((x * 2 + 1) * 2 + 1) * 2 + 1)
        t = np.frombuffer(tids.read(), np.int64)
        assert np.all(t != 0)
        threads |= set(t.tolist())
    assert len(threads) > 1
    assert [type(i) for i in cb.program.task_plan] == [TeamStretch]


def test_a_team_stretch_that_fails_fails_its_fence(dev4):
    """A workgroup's error in a team stretch stops every thread and fails
    the submission with that entry point's error; the next submission of
    the same stretch runs from the start."""
    from tensorvm.hal.errors import HalError
    exe = _load_team(dev4)
    n, per = 1024, 64
    a, b = dev4.allocator.allocate(4 * n), dev4.allocator.allocate(4 * n)
    a.write(0, np.ones(n, np.float32).tobytes())
    cb = dev4.create_command_buffer()
    cb.dispatch(exe, exe.entry_ordinal("scale"), (n // per, 1, 1), [n, per], [(a, 0, None), (b, 0, None)])
    cb.execution_barrier()
    cb.dispatch(exe, exe.entry_ordinal("fail_at"), (64, 1, 1), [37])
    cb.finalize()
    for _ in range(2):
        f = dev4.create_fence()
        dev4.queue_execute(None, f, [cb])
        with pytest.raises(HalError, match="entry point 'fail_at' failed with code 7"):
            f.wait(5)
        np.testing.assert_array_equal(np.frombuffer(b.read(), np.float32), np.full(n, 3, np.float32))


def test_a_team_that_does_not_pay_runs_on_one_thread():
    """``team_choice`` / ``team_note``: a stretch runs as a team first, then
    once alone, then the faster way; the other is tried after 2 runs, then
    after twice as many each time it loses (up to SPLIT_RETRY); a switch
    starts over.  A team far faster than one thread tries one thread again
    only after TEAM_RETRY_FAR runs, or once it slows down."""
    from tensorvm.hal.drivers.local_task import SPLIT_RETRY, TEAM_RETRY_FAR, team_choice, team_note

    def runs(rec, team_s, solo_s, n):
        out = []
        for _ in range(n):
            team = team_choice(rec)
            out.append("T" if team else "s")
            team_note(rec, team, team_s if team else solo_s)
        return "".join(out)
    rec = [None, None, 0, 2]                       # near: one thread is tried on a schedule
    assert runs(rec, 1.0, 1.2, 12) == "Ts" + "TT" + "s" + "TTTT" + "s" + "TT"
    rec = [None, None, 0, 2]                       # far: a try alone costs a call, so rarely
    seq = runs(rec, 1.0, 2.0, 2 * TEAM_RETRY_FAR + 6)
    assert seq == "Ts" + ("T" * TEAM_RETRY_FAR + "s") * 2 + "TT"
    rec = [None, None, 0, 2]
    assert runs(rec, 2.0, 1.0, 9) == "Ts" + "ss" + "T" + "ssss"   # busy other core: alone
    assert rec[3] <= SPLIT_RETRY
    rec = [1.0, 2.0, 0, 8]                       # the team slows down: alone soon after
    assert runs(rec, 9.0, 2.0, 12).endswith("ss")
    rec = [1.0, 2.0, 0, 2]                       # slower, still ahead: one thread is checked
    assert "s" in runs(rec, 1.8, 2.0, 6)
    rec, seq = [None, None, 0, 2], []              # a slow first team run is forgotten
    for k in range(8):
        team = team_choice(rec)
        seq.append("T" if team else "s")
        team_note(rec, team, (10.0 if seq.count("T") == 1 else 1.0) if team else 2.0)
    assert "".join(seq) == "Ts" + "ss" + "T" + "TTT"    # the try of the team wins: back to it


def test_tiny_dispatch_runs_inline_on_queue_thread(dev4):
    tids, calls = _record_tids(dev4, _load(dev4), 1)
    assert calls == 1
    queue_tids = {t.native_id for t in threading.enumerate() if t.name.endswith("-queue")}
    assert int(tids[0]) in queue_tids


def test_single_worker_device_runs_on_queue_thread():
    with hal.create_device("local-task://1") as d:
        tids, calls = _record_tids(d, _load(d), 32)
        assert calls == 1 and len(set(tids.tolist())) == 1


def test_submission_returns_immediately():
    with hal.create_device("local-task://2") as d:
        exe = _load(d)
        cb = d.create_command_buffer()
        for _ in range(50):   # 50 barrier-separated dispatches of >= 2 ms each
            cb.execution_barrier()
            cb.dispatch(exe, exe.entry_ordinal("record_tid"), (8, 1, 1), [],
                        [(d.allocator.allocate(64), 0, None), (d.allocator.allocate(4), 0, None)])
        cb.finalize()
        f = d.create_fence()
        t0 = time.monotonic()
        d.queue_execute(None, f, [cb])
        assert time.monotonic() - t0 < 0.08     # the work takes >= 100 ms
        assert not f.is_signaled
        f.wait(5)


def test_uri_parsing_and_close():
    with pytest.raises(hal.HalError, match="worker count"):
        hal.create_device("local-task://many")
    with pytest.raises(hal.HalError, match="at least 1"):
        hal.create_device("local-task://0")
    d = hal.create_device("local-task")
    assert d.workers >= 1
    gate = d.create_fence()
    cb = d.create_command_buffer()
    cb.finalize()
    f = d.create_fence()
    d.queue_execute(gate, f, [cb])
    d.close()
    with pytest.raises(hal.HalError, match="closed"):
        f.wait(5)
    with pytest.raises(hal.HalError, match="closed"):
        d.queue_execute(None, None, [cb])


def test_concurrent_segment_then_barrier(dev4):
    exe = _load(dev4)
    n, per = 4096, 32
    x = np.arange(n, dtype=np.float32)
    xin = dev4.allocator.import_host(x)
    outs = [dev4.allocator.allocate(n * 4) for _ in range(3)]
    final = dev4.allocator.allocate(n * 4)
    cb = dev4.create_command_buffer()
    for o in outs:                     # one segment: three independent dispatches + a fill
        cb.dispatch(exe, exe.entry_ordinal("scale"), (n // per, 1, 1), [n, per],
                    [(xin, 0, None), (o, 0, None)])
    cb.fill(final, 0, n * 4, b"\xff")
    cb.execution_barrier()
    cb.copy(outs[2], 0, final, 0, n * 4)
    cb.finalize()
    for _ in range(3):
        f = dev4.create_fence()
        dev4.queue_execute(None, f, [cb])
        f.wait(5)
        for o in outs + [final]:
            np.testing.assert_array_equal(np.frombuffer(o.read(), np.float32), x * 2 + 1)
