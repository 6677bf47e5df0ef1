"""MPI channel provider: one rank per process, over mpi4py (Open MPI, MPICH).

Started by ``mpirun -n N python ...``; rank and size are ``COMM_WORLD``'s.
Every transfer is non-blocking (``isend`` / matched probe ``improbe``) and
polled against a deadline, so no wait can outlive its timeout, and between
polls each rank looks for an *abort* message: a rank that fails sends one
to every other rank (``abort``), which then raise ``PeerFailedError``
naming it instead of waiting.  Payloads are numpy arrays (pickled by mpi4py;
collectives here are built from exchanges, see hal/channel.py).

A rank that timed out waiting for a peer cannot finalize MPI (the peer may
be dead, and ``MPI_Finalize`` would wait for it forever): at exit it ends
the job with ``Abort`` instead.  Run ``mpirun`` with ``--mca
orte_abort_on_non_zero_status 0`` for the other ranks to outlive a killed
one long enough to raise (Open MPI otherwise stops the whole job at once).

mpi4py is imported lazily: a deployment without MPI never loads it.
"""
from __future__ import annotations

import atexit
import time

from ..channel import ChannelError, ChannelTimeoutError, PeerFailedError

_ABORT_TAG = 32000          # below the MPI standard's least TAG_UB (32767)
_TAG_SPAN = 30000           # data tags cycle through 1..30000
_POLL_S = 0.0005


def _mpi():
    try:
        from mpi4py import MPI
    except ImportError as e:     # pragma: no cover - depends on the install
        raise ChannelError("the MPI channel needs mpi4py (pip install mpi4py) and an MPI "
                           f"library (Debian: openmpi-bin libopenmpi-dev): {e}") from None
    return MPI


class MpiTransport:
    """This process's rank of ``comm`` (COMM_WORLD unless given)."""

    def __init__(self, comm=None):
        mpi = _mpi()
        self.comm = comm if comm is not None else mpi.COMM_WORLD
        self.rank, self.size = self.comm.Get_rank(), self.comm.Get_size()
        self._pending = []        # isend requests not yet completed
        self._failure = None
        self._timed_out = False
        atexit.register(self._abort_job_if_stuck)   # runs before mpi4py's finalize

    def _abort_job_if_stuck(self) -> None:
        if self._timed_out:
            self.comm.Abort(1)

    # -- tags and polling -------------------------------------------------------------
    @staticmethod
    def _mpi_tag(tag) -> int:
        if isinstance(tag, tuple):                 # point-to-point ("p2p", user tag)
            return _TAG_SPAN + 1 + (hash(tag) % (_ABORT_TAG - _TAG_SPAN - 2))
        return 1 + (int(tag) - 1) % _TAG_SPAN

    def _check_abort(self) -> None:
        if self._failure is None and self.comm.iprobe(source=_mpi().ANY_SOURCE, tag=_ABORT_TAG):
            status = _mpi().Status()
            msg = self.comm.recv(source=_mpi().ANY_SOURCE, tag=_ABORT_TAG, status=status)
            self._failure = (status.Get_source(), msg)
        if self._failure is not None:
            rank, msg = self._failure
            raise PeerFailedError(f"rank {rank} of the channel failed: {msg}", rank)

    def _poll(self, done, timeout_s, what):
        deadline = None if timeout_s is None else time.monotonic() + timeout_s
        while True:
            self._check_abort()
            out = done()
            if out is not None:
                return out
            if deadline is not None and time.monotonic() > deadline:
                self._timed_out = True
                raise ChannelTimeoutError(f"rank {self.rank}: {what}: timed out after "
                                          f"{timeout_s:g} s")
            time.sleep(_POLL_S)

    # -- the transport interface ----------------------------------------------------------
    def send(self, dst, tag, array, timeout_s) -> None:
        self._check_abort()
        self._pending.append(self.comm.isend(array, dest=dst, tag=self._mpi_tag(tag)))

    def recv(self, src, tag, timeout_s):
        t = self._mpi_tag(tag)

        def done():
            msg = self.comm.improbe(source=src, tag=t)
            return None if msg is None else (msg.recv(),)
        return self._poll(done, timeout_s, f"receive #{tag} from rank {src}")[0]

    def flush(self, timeout_s) -> None:
        """Wait for this rank's sends to complete."""
        def done():
            self._pending = [r for r in self._pending if not r.Test()]
            return True if not self._pending else None
        self._poll(done, timeout_s, f"{len(self._pending)} send(s) to complete")

    def exchange(self, group, tag, payload, timeout_s):
        others = [r for r in group if r != self.rank]
        for r in others:
            self.send(r, tag, payload, timeout_s)
        got = {self.rank: payload}
        for r in others:
            got[r] = self.recv(r, tag, timeout_s)
        self.flush(timeout_s)
        return [got[r] for r in group]

    def abort(self, exc) -> None:
        """Best effort: tell every other rank, without waiting for them."""
        msg = f"{type(exc).__name__}: {exc}"
        reqs = []
        for r in range(self.size):
            if r != self.rank:
                try:
                    reqs.append(self.comm.isend(msg, dest=r, tag=_ABORT_TAG))
                except Exception:   # noqa: BLE001 - a dead peer must not mask the error
                    pass
        deadline = time.monotonic() + 2.0       # delivered before this rank exits
        while reqs and time.monotonic() < deadline:
            reqs = [q for q in reqs if not q.Test()]
            time.sleep(_POLL_S)
