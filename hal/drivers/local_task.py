"""``local-task``: the CPU driver with a queue thread and a worker pool.

``queue_execute`` only enqueues and returns.  One queue thread per device
takes submissions in order, waits for each wait fence (without blocking the
submitter), runs the command buffers and settles the signal fence.

Inside a command buffer, the ops between two execution barriers form a
segment and may run concurrently.  A dispatch with at least
``inline_threshold`` workgroups is split over ``min(workers, count)``
threads: one native call each that claims workgroups from a counter the
calls share (the executable's ``tvm_run_claimed``), or, in a module built
before it or under a tracer, contiguous ranges (one native call each; a
long one into up to ``PIECES_PER_WORKER`` times as many, taken by whichever
thread is free); smaller dispatches, fills, copies and updates are one
item each.  A segment of one item runs on the queue
thread (a hand-off costs more than a tiny job); otherwise the queue thread
and up to ``workers - 1`` pool threads take items from a shared
``SegmentJob`` until none are left, so independent dispatches of one
segment run at the same time.

A thread about to wait for a fence may call ``help_until(fence)``: it runs
ready submissions itself, in queue order, instead of sleeping while the
queue thread wakes up (IREE's executor lets callers donate their thread the
same way).  The synchronous call path uses it; ``$async`` calls never wait.
A submission made with ``queue_execute(..., caller_waits=True)`` on an idle
queue runs on the caller at once, without waking the queue thread at all.
Threads marked by ``hal.device.forbid_donation`` (the VM scheduler) do
neither: their work always goes to the queue thread.

After ``os.fork`` the device restarts its queue thread and workers in the
child (``Device._after_fork_in_child``), so it keeps serving there.

URI: ``local-task`` (``os.cpu_count()`` workers) or ``local-task://N``.
"""
from __future__ import annotations

import collections
import os
import threading
import time
import weakref

from ..device import donor
from ..errors import HalError, rethrow
from .cpu_device import CpuDevice, run_submission
from .cpu_program import (DispatchPacket, PacketBatch, TeamStretch, batched_segments, claimed_shares,
                          team_plan)
from .worker_pool import SegmentJob, WorkerPool, run_traced

DEFAULT_INLINE_THRESHOLD = 4
# A dispatch whose whole run took less than this stays on one thread: waking
# pool threads (a futex wake and the GIL for each) costs tens of microseconds.
DEFAULT_SPLIT_US = 60.0
# ...and splitting continues only while a split run takes under this share
# of a whole one (on a loaded or hyperthreaded machine it may not pay at all).
SPLIT_GAIN = 0.85
# A dispatch kept whole because splitting did not pay tries splitting again
# after SPLIT_RETRY_MIN whole runs, then after twice as many each time the
# try does not pay either, up to SPLIT_RETRY; a try that pays starts over at
# SPLIT_RETRY_MIN.  A try is one fresh split run (its time replaces the mean
# of the runs that did not pay).  On a machine shared with other work a
# split measured while another process held a core then keeps a dispatch
# whole for 2 runs, not 16 (a fixed 16 was most of a benchmark cell of
# ResNet-50, about 25 calls), and a dispatch that never gains still pays one
# split run in 16 at most.  Independent dispatches of a segment that ran
# side by side without gain are tried side by side again the same way
# (before, never again).
SPLIT_RETRY_MIN = 2
SPLIT_RETRY = 16
# A long dispatch is cut into up to this many ranges per worker, each at
# least PIECE_S of one thread's work: threads take ranges until none are
# left, so a worker whose core another process holds takes fewer of them
# instead of the whole call waiting for its half (two halves on a 2-core
# machine shared with other work made the split run no faster than a whole
# one, and the dispatch then stayed on one thread).
PIECES_PER_WORKER = 4
PIECE_S = 0.5e-3
# Where the executable has ``tvm_run_claimed`` (vmfb/cpu_abi.py) a split
# dispatch is instead one native call per thread, each claiming workgroups
# from a shared counter about this many claims per thread at a time: a
# thread preempted by another process (or woken late) holds a few
# workgroups, not a range of a quarter or a half of the dispatch, so the
# others finish the rest instead of waiting for it.  Not more: a GEMM's
# workgroups are row blocks of column strips, and a claim of part of a strip
# packs B and reads A for those rows only (BERT-base on 2 workers, min of
# interleaved rounds: 16 claims 149-155 ms, 4 claims 140-147 ms; ResNet-50
# and GPT-2 even).
CLAIMS_PER_WORKER = 4
# A team stretch under this share of its time on one thread does not try
# one thread again for TEAM_RETRY_FAR runs: such a try costs the whole
# stretch again (up to 2x a call on 2 cores; GPT-2-small at seq 128 took
# 370 ms alone against 200 as a team, one call in 17 with the SPLIT_RETRY
# schedule).  A team that slows down (other work took the cores) comes
# within TEAM_NEAR of the time alone and is checked on SPLIT_RETRY's
# schedule again.
TEAM_NEAR = 0.75
TEAM_RETRY_FAR = 256
_clock = time.perf_counter
_POLL_S = 0.25      # how often a blocked queue thread checks for close()


def _cores() -> int:
    """CPUs this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def _ranges(total: int, parts: int):
    q, r = divmod(total, parts)
    start = 0
    for i in range(parts):
        n = q + (1 if i < r else 0)
        yield start, start + n
        start += n


def _pieces(solo, workers: int) -> int:
    """Ranges per worker for a dispatch whose whole run took ``solo`` seconds."""
    if solo is None:
        return 1
    return max(1, min(PIECES_PER_WORKER, int(solo / (PIECE_S * workers))))


_NO_RECORD = (None, None, None, 0, SPLIT_RETRY_MIN, 0)


def _backoff(rec, slot: int, whole=None) -> None:
    """After a split (``slot`` 1) or side-by-side (2) run that paid: the next
    try, should one be needed, comes after SPLIT_RETRY_MIN whole runs again
    (a try that does not pay doubled the wait when it was made)."""
    if rec[slot] < SPLIT_GAIN * (rec[0] if whole is None else whole):
        rec[4] = SPLIT_RETRY_MIN


def team_choice(rec) -> bool:
    """Whether a team stretch's next run is a team run (else the executing
    thread alone), from its ``TeamStretch.times``: a team first, then one
    run alone, then the faster way.  The way not preferred is tried again
    after 2 runs, then after twice as many each time it loses (up to
    SPLIT_RETRY), a switch starting over at 2 -- except while the team is
    clearly faster (under TEAM_NEAR of the time alone): then the next run
    alone comes only after TEAM_RETRY_FAR runs, or as soon as the team
    slows to within TEAM_NEAR of it.  On a machine whose other cores are
    busy a team waits for preempted members; alone it does not."""
    team_s, solo_s = rec[0], rec[1]
    if team_s is None or solo_s is None:
        return team_s is None
    prefer = team_s <= solo_s
    wait = TEAM_RETRY_FAR if team_s < TEAM_NEAR * solo_s else rec[3]
    if rec[2] < wait:
        rec[2] += 1
        return prefer
    rec[2] = 0                       # a try of the other way; its time replaces its mean
    rec[3] = min(SPLIT_RETRY, 2 * rec[3])
    return not prefer


def team_note(rec, team: bool, seconds: float) -> None:
    """Adds a run's time to its way's running mean in ``rec``; a try of the
    way not preferred (or its first run) replaces that mean instead, so one
    slow run (the first, a busy moment) is forgotten at the next try.  When
    the faster way changes, the other is tried again soon."""
    slot = 0 if team else 1
    before = None if None in rec[:2] else rec[0] <= rec[1]
    if rec[slot] is None or before is None or before != team:
        rec[slot] = seconds
    else:
        rec[slot] = 0.5 * (rec[slot] + seconds)
    if before is not None and before != (rec[0] <= rec[1]):
        rec[2], rec[3] = 0, SPLIT_RETRY_MIN


class _Queue:
    """Queue-thread state; holds no reference to the device (so it can be
    garbage collected and shut the threads down)."""

    def __init__(self, name, workers, inline_threshold, split_us=DEFAULT_SPLIT_US):
        self.name = name
        self.workers = workers
        # a team's threads spin while they wait for each other: never more
        # of them than cores this process may run on (local-task://4 on 2
        # cores would spin half the time away; the pool's other threads
        # still take Python-level splits)
        self.team = min(workers, _cores())
        self.inline_threshold = max(1, inline_threshold)
        self.split_s = max(0.0, float(split_us)) * 1e-6
        self.pending = collections.deque()     # (wait, signal, work)
        self.closed = False
        self.tracer = None
        self._start()

    def _start(self) -> None:
        """Fresh lock, pool and queue thread (at creation, and in a forked child)."""
        workers, name = self.workers, self.name
        self.pool = WorkerPool(workers - 1, f"{name}-worker") if workers > 1 else None
        self.cond = threading.Condition(threading.Lock())
        self.busy = False                      # a thread runs a submission now
        self._armed = None                     # head item whose wait has a wake-up
        self.thread = threading.Thread(target=self.main, name=f"{name}-queue", daemon=True)
        self.thread.start()

    def after_fork_in_child(self) -> None:
        """Only the forking thread survives a fork: the queue thread and the
        workers are gone and the lock may be held.  Work queued in the parent
        runs there, not here: its copies fail; new threads serve the child."""
        pending, self.pending = list(self.pending), collections.deque()
        if self.closed:
            return
        self._start()
        for _, signal, _ in pending:
            if signal is not None:
                signal.fail(HalError(f"device '{self.name}': the process forked while this "
                                     "work was queued; it runs in the parent only"))

    def run_segment(self, seg) -> None:
        pool, tracer, split_s = self.pool, self.tracer, self.split_s
        items, whole_s, split_one, lead = [], 0.0, None, None
        for op in seg:
            if type(op) is DispatchPacket:
                rec = op.timing() if split_s else _NO_RECORD
                solo, split = rec[0], rec[1]
                if lead is None:
                    lead, lead_op = rec, op  # the segment's first dispatch keeps its record
                if solo is not None:
                    whole_s += solo
                # split once a whole run took long enough to pay for waking the
                # workers, and for as long as splitting was measured to pay
                long_enough = solo is not None and solo >= split_s
                if pool is not None and op.total >= self.inline_threshold and (
                        split_s == 0 or (long_enough and (
                            split is None or split < SPLIT_GAIN * solo or rec[3] >= rec[4]))):
                    if split_s:
                        if rec[3] >= rec[4]:     # a fresh try, not averaged with the lost runs
                            rec[1], rec[4] = None, min(SPLIT_RETRY, 2 * rec[4])
                        rec[3] = 0
                    threads = min(self.workers, op.total)
                    if tracer is None and getattr(op.executable, "claimer", None) is not None \
                            and op.total < (1 << 31):
                        grain = max(1, op.total // (self.workers * CLAIMS_PER_WORKER))
                        items.extend((share, None) for share in claimed_shares(op, threads, grain))
                    else:    # ranges: a tracer records each, or a module built before claims
                        parts = self.workers * _pieces(solo, self.workers) if split_s else threads
                        items.extend((op, r) for r in _ranges(op.total, min(parts, op.total)))
                    split_one = op if len(seg) == 1 else None
                    continue
                if long_enough:
                    rec[3] += 1
            items.append((op, None))
        alone = len(items) == len(seg) and (whole_s < split_s or (
            lead is not None and lead[2] is not None and lead[2] >= SPLIT_GAIN * whole_s))
        if alone and whole_s >= split_s and split_s:     # side by side did not pay: retry?
            lead[5] += 1
            if lead[5] >= lead[4]:
                lead[2], lead[4], lead[5], alone = None, min(SPLIT_RETRY, 2 * lead[4]), 0, False
        if len(items) == 1 or pool is None or alone:
            for op, rng in items:          # here, in order: a hand-off would cost more
                if tracer is not None:
                    run_traced(tracer, op, rng)
                elif rng is not None:
                    op.run(*rng)
                elif type(op) is DispatchPacket:
                    op.run_measured()
                else:
                    op.run_all()
            return
        job = SegmentJob(items, tracer)
        t0 = _clock()
        for _ in range(min(len(items), self.workers) - 1):
            pool.submit(job)
        job.work()
        job.wait()
        if job.error is not None:
            raise job.error
        if split_s:
            if split_one is not None:
                split_one.note(1, _clock() - t0)
                _backoff(split_one.timing(), 1)
            elif len(items) == len(seg) and lead is not None:
                lead_op.note(2, _clock() - t0)   # independent dispatches side by side
                if whole_s:
                    _backoff(lead, 2, whole_s)

    def run_team(self, stretch) -> None:
        """Every thread on ``stretch`` (native, cpu_abi.TEAM_RUNNER_C): the
        workers join as they wake; this thread waits only for those that
        joined before the end.  Or this thread alone, while that was
        measured faster (``team_choice``)."""
        share = stretch.share()
        rec = stretch.times
        team = team_choice(rec)
        t0 = _clock()
        if not team:
            rc = share.lead()
        else:
            job = SegmentJob([(share, None)] * (self.team - 1))
            for _ in range(self.team - 1):
                self.pool.submit(job)
            try:
                rc = share.lead()
            finally:
                job.wait_taken()
            if job.error is not None:
                raise job.error
        share.check(rc)
        team_note(rec, team, _clock() - t0)

    def run_programs(self, programs) -> None:
        try:
            for p in programs:
                if self.tracer is not None:
                    for seg in p.segments:
                        self.run_segment(seg)
                    continue
                plan = p.task_plan
                if plan is None:
                    plan = batched_segments(p.segments, self.inline_threshold)
                    if self.pool is not None and self.team > 1:
                        plan = team_plan(plan, self.inline_threshold, self.team, CLAIMS_PER_WORKER)
                    p.task_plan = plan
                for item in plan:
                    if type(item) is PacketBatch:
                        item.run_all()
                    elif type(item) is TeamStretch:
                        self.run_team(item)
                    else:
                        self.run_segment(item)
        finally:
            for p in programs:
                p.release()

    # -- the queue: FIFO, one submission running at a time ---------------------------
    def put(self, item) -> None:
        with self.cond:
            self.pending.append(item)
            self.cond.notify()

    def _take_ready(self):
        """The head submission if nobody runs one and its wait is settled (locked)."""
        if self.busy or not self.pending:
            return None
        wait = self.pending[0][0]
        if wait is not None and not wait.is_settled:
            if self._armed is not self.pending[0]:
                self._armed = self.pending[0]     # wake the queue thread when it settles
                wait.on_ready(self._wake)
            return None
        self.busy = True
        return self.pending.popleft()

    def _wake(self, _exc=None) -> None:
        with self.cond:
            self.cond.notify()

    def _run(self, item) -> None:
        try:
            run_submission(*item, self.tracer)
        finally:
            self._idle()

    def claim(self) -> bool:
        """Take the queue for the calling thread if it is idle (nothing running
        or pending); ``_idle()`` gives it back."""
        with self.cond:
            if self.busy or self.pending:
                return False
            self.busy = True
            return True

    def _idle(self) -> None:
        with self.cond:
            self.busy = False
            if self.pending:
                self.cond.notify()

    def help_until(self, fence) -> None:
        """Run ready submissions on the calling thread while ``fence`` is not
        settled (a waiter donates its thread instead of sleeping)."""
        if not donor.allowed:
            return
        while not fence.is_settled:
            with self.cond:
                item = self._take_ready()
            if item is None:
                return
            self._run(item)

    def main(self) -> None:
        cond = self.cond
        while True:
            with cond:
                while True:
                    item = self._take_ready()
                    if item is not None or (self.closed and not self.busy):
                        break
                    cond.wait(_POLL_S)
                if item is None:              # closed: fail what cannot run, then stop
                    if not self.pending:
                        break
                    item = self.pending.popleft()
                    item = (None, item[1], _closed_failure(self.name))
            self._run(item)
        if self.pool is not None:
            self.pool.shutdown()

    def shutdown(self) -> None:
        self.closed = True
        self._wake()


def _closed_failure(name):
    def fail():
        raise HalError(f"device '{name}' was closed before the work ran")
    return fail


class LocalTaskDevice(CpuDevice):
    """CPU device with an asynchronous queue and a worker pool."""

    def __init__(self, workers=None, inline_threshold: int = DEFAULT_INLINE_THRESHOLD,
                 name: str = "local-task", split_us: float = DEFAULT_SPLIT_US):
        super().__init__(name)
        self.workers = int(workers or os.cpu_count() or 1)
        if self.workers < 1:
            raise HalError(f"local-task needs at least 1 worker, got {workers}")
        self._queue = _Queue(name, self.workers, inline_threshold, split_us)
        self._finalizer = weakref.finalize(self, self._queue.shutdown)

    @property
    def tracer(self):
        return self._queue.tracer

    @tracer.setter
    def tracer(self, value):
        self._queue.tracer = value

    @property
    def inline_threshold(self) -> int:
        return self._queue.inline_threshold

    def _program_runner(self, programs):
        q = self._queue
        return lambda: q.run_programs(programs)

    def _submit(self, wait, signal, work) -> None:
        self._queue.put((wait, signal, work))

    def execute_now(self, cb, table) -> bool:
        """Run it here when the queue is idle, as ``_submit_waited`` would,
        without a fence (its workgroups still split across the workers)."""
        if self.tracer is not None or self.closed or not donor.allowed:
            return False
        program = self._program(cb, table)
        q = self._queue
        if not q.claim():
            program.release()
            return False
        try:
            q.run_programs((program,))
        except BaseException as e:    # noqa: BLE001 - as the fence's failure would be
            raise rethrow(e) from None
        finally:
            q._idle()
        return True

    def _submit_waited(self, wait, signal, work) -> None:
        """The caller waits for ``signal`` at once: when the queue is idle and
        ``wait`` is settled, run the submission here (the queue thread would
        only wake up to do the same while the caller sleeps); else queue it."""
        q = self._queue
        with q.cond:
            here = not q.busy and not q.pending and (wait is None or wait.is_settled) \
                and donor.allowed
            if here:
                q.busy = True
            else:
                q.pending.append((wait, signal, work))
                q.cond.notify()
        if here:
            q._run((wait, signal, work))

    def help_until(self, fence) -> None:
        """Let a thread about to wait for ``fence`` run queued work meanwhile."""
        self._queue.help_until(fence)

    def _after_fork_in_child(self) -> None:
        super()._after_fork_in_child()
        self._queue.after_fork_in_child()

    def close(self) -> None:
        """Finish queued work whose waits are met, fail the rest, stop threads."""
        super().close()
        self._finalizer()


class LocalTaskDriver:
    """Driver entry for ``local-task``; the URI path is the worker count."""

    name = "local-task"

    def availability(self):
        return None

    def enumerate(self) -> list:
        return [{"path": "", "name": "local-task",
                 "description": f"CPU, {os.cpu_count()} workers (local-task://N to choose)"}]

    def create_device(self, path: str = "", **options):
        workers = None
        if path:
            try:
                workers = int(path)
            except ValueError:
                raise HalError(f"local-task device path must be a worker count, got {path!r}") \
                    from None
            if workers < 1:
                raise HalError(f"local-task needs at least 1 worker, got {workers}")
        return LocalTaskDevice(workers, **options)
