"""MPI channel provider: one rank per process, over mpi4py (Open MPI, MPICH).

Started by ``mpirun -n N python ...``; rank and size are ``COMM_WORLD``'s.
Every transfer is non-blocking (``isend`` / matched probe ``improbe``) and
polled against a deadline, so no wait can outlive its timeout, and between
polls each rank looks for an *abort* message: a rank that fails sends one
to every other rank (``abort``), which then raise ``PeerFailedError``
naming it instead of waiting.  A payload (an array or a list of arrays) goes
as a small pickled header (each array's dtype and shape) and then each
array's bytes as a buffer message (``Isend`` / ``Irecv`` into an array of
that dtype and shape): no large array is pickled or copied into a pickle
stream (payloads up to ``INLINE_BYTES`` go pickled, in one message).
MPI keeps messages of one source and tag in order, so the buffers follow
their header.  Collectives here are built from exchanges, see hal/channel.py.

A rank that timed out waiting for a peer cannot finalize MPI (the peer may
be dead, and ``MPI_Finalize`` would wait for it forever): at exit it ends
the job with ``Abort`` instead.

A dead peer (a killed process) must reach the caller as a typed error, not end
the job: the transport sets ``MPI_ERRORS_RETURN`` on its communicator (and on
``COMM_SELF``, where MPI 4 reports errors tied to no communicator), whatever
``mpi4py.rc.errors`` says, and turns the ``MPI.Exception`` a call then raises
into ``PeerFailedError`` (a failed process: ULFM's ``MPI_ERR_PROC_FAILED``,
``_PENDING`` or ``MPI_ERR_REVOKED``, naming the rank) or ``ChannelError``.  The
launcher decides whether the survivors live long enough to raise:

- Open MPI 4: ``mpirun --mca orte_abort_on_non_zero_status 0`` (else mpirun stops
  the whole job at once); its TCP transport does not report the lost peer, so
  the survivors raise ``ChannelTimeoutError`` at their timeout.
- Open MPI 5: ``mpirun --with-ft ulfm`` (it sets ``OMPI_MCA_mpi_ft_enable=1`` for
  the ranks and keeps the job alive); the survivors raise ``PeerFailedError`` at
  once.  Without it Open MPI 5's point-to-point layer treats the lost TCP socket
  as fatal ("Socket closed", ``MPI_ERRORS_ARE_FATAL`` on a NULL communicator)
  whatever the error handler, and the job dies: the transport warns at start
  when it sees Open MPI 5 without ``mpi_ft_enable``.

Several threads of one process may share a transport (a rank hosting
several devices, hal/channels/hierarchical.py): each thread's sends are
its own (``flush`` waits for the calling thread's), probes are matched
(``improbe``), and the caller may pass ``RawTag`` MPI tags of its own
numbering; ``on_poll`` (if set) runs at every poll and may raise to stop a
wait (a failure of a local peer).

mpi4py is imported lazily: a deployment without MPI never loads it.
"""
from __future__ import annotations

import atexit
import os
import re
import threading
import time
import warnings
import zlib

import numpy as np

from ..channel import ChannelError, ChannelTimeoutError, PeerFailedError

_ABORT_TAG = 32000          # below the MPI standard's least TAG_UB (32767)
_TAG_SPAN = 30000           # data tags cycle through 1..30000
_POLL_S = 0.0005
#: Payloads up to this size travel pickled in one message: a separate buffer
#: message would cost a second poll (16 MiB exchange: 37 -> 2.9 ms as
#: buffers; 4 KiB: 0.05 ms pickled, 0.65 ms as header + buffer).
INLINE_BYTES = 1 << 16


class RawTag(int):
    """An MPI tag used as it is (the caller's own tag numbering, above ``_ABORT_TAG``)."""


def _mpi():
    try:
        from mpi4py import MPI
    except ImportError as e:     # pragma: no cover - depends on the install
        raise ChannelError("the MPI channel needs mpi4py (pip install mpi4py) and an MPI "
                           f"library (Debian: openmpi-bin libopenmpi-dev): {e}") from None
    return MPI


def errors_return(comm) -> None:
    """Errors on ``comm`` and on ``COMM_SELF`` return to the caller (mpi4py raises
    ``MPI.Exception``) instead of ending the job (``MPI_ERRORS_ARE_FATAL``)."""
    mpi = _mpi()
    for c in (comm, mpi.COMM_SELF):
        c.Set_errhandler(mpi.ERRORS_RETURN)


def _warn_if_peer_loss_is_fatal(mpi) -> None:
    m = re.match(r"Open MPI v(\d+)\.", mpi.Get_library_version())
    if m is None or int(m.group(1)) < 5:
        return
    if os.environ.get("OMPI_MCA_mpi_ft_enable", "").lower() not in ("1", "true", "yes", "on"):
        warnings.warn("Open MPI 5 without fault tolerance: a killed rank ends the whole job "
                      "instead of raising PeerFailedError on the others; start the job with "
                      "`mpirun --with-ft ulfm` (or OMPI_MCA_mpi_ft_enable=1 and a launcher "
                      "that outlives a lost rank)", RuntimeWarning, stacklevel=4)


class MpiTransport:
    """This process's rank of ``comm`` (COMM_WORLD unless given)."""

    def __init__(self, comm=None):
        mpi = _mpi()
        self.comm = comm if comm is not None else mpi.COMM_WORLD
        errors_return(self.comm)
        _warn_if_peer_loss_is_fatal(mpi)
        self.rank, self.size = self.comm.Get_rank(), self.comm.Get_size()
        self._local = threading.local()   # .pending: this thread's (send request, array)
        self._failure = None      # (rank, message) of the first failure heard of
        self._timed_out = False
        self.on_poll = None       # called at every poll (may raise)
        atexit.register(self._abort_job_if_stuck)   # runs before mpi4py's finalize

    def _abort_job_if_stuck(self) -> None:
        if self._timed_out:
            self.comm.Abort(1)

    # -- tags and polling -------------------------------------------------------------
    @property
    def _pending(self) -> list:
        pending = getattr(self._local, "pending", None)
        if pending is None:
            pending = self._local.pending = []
        return pending

    @staticmethod
    def _mpi_tag(tag) -> int:
        if isinstance(tag, RawTag):
            return int(tag)
        if isinstance(tag, tuple):                 # point-to-point ("p2p", user tag)
            # (crc32, not hash(): str hashes differ between processes)
            return _TAG_SPAN + 1 + (zlib.crc32(repr(tag).encode()) % (_ABORT_TAG - _TAG_SPAN - 2))
        return 1 + (int(tag) - 1) % _TAG_SPAN

    def failure(self):
        """(rank, message) of a failure this rank has heard of (an abort from a
        peer, its own, or a process MPI reports failed), else None; never raises."""
        if self._failure is None:
            try:
                msg = self.comm.improbe(source=_mpi().ANY_SOURCE, tag=_ABORT_TAG)
                if msg is not None:
                    status = _mpi().Status()
                    body = msg.recv(status=status)
                    rank, text = body if isinstance(body, tuple) else (status.Get_source(), body)
                    if self._failure is None:
                        self._failure = (rank, text)
            except _mpi().Exception as e:
                self._typed(e)          # (records a failed process as this rank's failure)
        return self._failure

    # -- MPI's errors as the channel's --------------------------------------------------
    def _failed_ranks(self) -> list:
        """The ranks of ``comm`` that MPI knows failed (ULFM), else []."""
        try:
            failed = self.comm.Get_failed()
            n = failed.Get_size()
            if not n:
                return []
            group = self.comm.Get_group()
            return [r for r in _mpi().Group.Translate_ranks(failed, list(range(n)), group)
                    if r is not None and r >= 0]
        except Exception:   # noqa: BLE001 - an MPI without ULFM: the caller names the peer
            return []

    def _typed(self, e, peer=None) -> ChannelError:
        """``MPI.Exception`` ``e`` of a call involving ``peer`` as a typed error: a
        failed process as PeerFailedError naming it (and this rank's failure from
        then on), anything else as ChannelError."""
        mpi = _mpi()
        cls = e.Get_error_class()
        if cls in (mpi.ERR_PROC_FAILED, mpi.ERR_PROC_FAILED_PENDING, mpi.ERR_REVOKED):
            ranks = self._failed_ranks()
            rank = ranks[0] if ranks else peer
            if self._failure is None:
                self._failure = (rank, f"MPI reports its process failed ({e.Get_error_string()})")
            rank, msg = self._failure
            return PeerFailedError(f"rank {rank} of the channel failed: {msg}", rank)
        return ChannelError(f"rank {self.rank}: MPI error: {e.Get_error_string()}")

    def _check_abort(self) -> None:
        if self.failure() is not None:
            rank, msg = self._failure
            raise PeerFailedError(f"rank {rank} of the channel failed: {msg}", rank)

    def _poll(self, done, timeout_s, what):
        deadline = None if timeout_s is None else time.monotonic() + timeout_s
        while True:
            self._check_abort()
            if self.on_poll is not None:
                self.on_poll()
            try:
                out = done()
            except _mpi().Exception as e:
                raise self._typed(e, getattr(done, "peer", None)) from None
            if out is not None:
                return out
            if deadline is not None and time.monotonic() > deadline:
                self._timed_out = True
                raise ChannelTimeoutError(f"rank {self.rank}: {what}: timed out after "
                                          f"{timeout_s:g} s")
            time.sleep(_POLL_S)

    # -- the transport interface ----------------------------------------------------------
    def send(self, dst, tag, payload, timeout_s) -> None:
        self._check_abort()
        try:
            self._send(dst, tag, payload)
        except _mpi().Exception as e:
            raise self._typed(e, dst) from None

    def _send(self, dst, tag, payload) -> None:
        t = self._mpi_tag(tag)
        arrays = _arrays_of(payload)
        if arrays is None or sum(a.nbytes for a in arrays) <= INLINE_BYTES:   # pickled whole
            self._pending.append((self.comm.isend(("object", payload), dest=dst, tag=t), None))
            return
        single = isinstance(payload, np.ndarray)
        contiguous = [np.ascontiguousarray(a) for a in arrays]
        header = ("array" if single else "arrays", [(a.dtype, a.shape) for a in contiguous])
        self._pending.append((self.comm.isend(header, dest=dst, tag=t), None))
        for a in contiguous:
            if a.nbytes:     # (the array stays referenced until its send completes)
                self._pending.append((self.comm.Isend(_bytes_of(a), dest=dst, tag=t), a))

    def recv(self, src, tag, timeout_s):
        t = self._mpi_tag(tag)
        what = f"receive #{tag} from rank {src}"

        def header():
            msg = self.comm.improbe(source=src, tag=t)
            return None if msg is None else (msg.recv(),)
        header.peer = src
        kind, body = self._poll(header, timeout_s, what)[0]
        if kind == "object":
            return body
        arrays = [np.empty(shape, dtype) for dtype, shape in body]
        try:
            reqs = [self.comm.Irecv(_bytes_of(a), source=src, tag=t) for a in arrays if a.nbytes]
        except _mpi().Exception as e:
            raise self._typed(e, src) from None

        def data():
            nonlocal reqs
            reqs = [r for r in reqs if not r.Test()]
            return True if not reqs else None
        data.peer = src
        self._poll(data, timeout_s, what)
        return arrays[0] if kind == "array" else arrays

    def flush(self, timeout_s) -> None:
        """Wait for this rank's sends to complete (then let their arrays go)."""
        def done():
            self._local.pending = [p for p in self._pending if not p[0].Test()]
            return True if not self._local.pending else None
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

    def abort(self, exc, rank=None) -> None:
        """Best effort: tell every other rank, without waiting for them, that
        ``rank`` (this one unless given: a channel rank hosted here) failed;
        this rank's own later waits raise too."""
        msg = f"{type(exc).__name__}: {exc}"
        rank = self.rank if rank is None else rank
        if self._failure is None:
            self._failure = (rank, msg)
        reqs = []
        for r in range(self.size):
            if r != self.rank:
                try:
                    reqs.append(self.comm.isend((rank, msg), dest=r, tag=_ABORT_TAG))
                except Exception:   # noqa: BLE001 - a dead peer must not mask the error
                    pass
        deadline = time.monotonic() + 2.0       # delivered before this rank exits
        while reqs and time.monotonic() < deadline:
            reqs = [q for q in reqs if not _done_or_failed(q)]
            time.sleep(_POLL_S)


def _done_or_failed(req) -> bool:
    try:
        return req.Test()
    except Exception:   # noqa: BLE001 - a send to a dead peer fails: the others go on
        return True


def _arrays_of(payload):
    """The arrays of an array or list/tuple-of-arrays payload, else None."""
    if isinstance(payload, np.ndarray):
        return [payload]
    if isinstance(payload, (list, tuple)) and all(isinstance(a, np.ndarray) for a in payload):
        return list(payload)
    return None


def _bytes_of(a: np.ndarray) -> np.ndarray:
    """A contiguous array's bytes as uint8 (any dtype, ml_dtypes included)."""
    return a.reshape(-1).view(np.uint8)

