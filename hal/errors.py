"""HAL error types (internals.md §1).

Every HAL failure is a ``HalError``; callers catch one type and get a message
a user can act on.  Failures that travel through semaphores are re-raised by
each waiter as a fresh ``HalError`` carrying the original message, with the
original exception chained as ``__cause__``.
"""
from __future__ import annotations


class HalError(RuntimeError):
    """A HAL operation failed (bad argument, device failure, failed kernel)."""


class DeviceUnavailableError(HalError):
    """A driver or device cannot be created here; the message says why."""


class HalTimeoutError(HalError):
    """A wait did not finish within its timeout."""


class ExecutableRejectedError(HalError):
    """An executable failed the load-time admission check of the trust model
    (docs/security.md); ``executable`` names it and ``reason`` says why."""

    def __init__(self, message: str, executable: str | None = None, reason: str | None = None):
        super().__init__(message)
        self.executable, self.reason = executable, reason


class OutOfMemoryError(HalError, MemoryError):
    """Memory for a buffer could not be had: the host refused it (numpy's
    MemoryError, e.g. under an address-space limit) or the device ran out
    (``CL_MEM_OBJECT_ALLOCATION_FAILURE``, ``CUDA_ERROR_OUT_OF_MEMORY``).
    ``size`` is the request in bytes and ``device`` the device's name; a
    ``MemoryError`` too, so code that handles that keeps working.  Requests
    above ``allocator.max_allocation_bytes`` are a plain HalError instead."""

    def __init__(self, message: str, size: int | None = None, device: str | None = None):
        super().__init__(message)
        self.size, self.device = size, device


class DispatchStoppedError(HalError):
    """A dispatch stopped early on its call's bounds (a native loop that saw
    its call cancelled or past its deadline); ``stopped`` is ``"cancelled"``
    or ``"timed out"``.  The VM reports it as CallCancelledError /
    CallTimeoutError."""

    def __init__(self, message: str, stopped: str | None = None):
        super().__init__(message)
        self.stopped = stopped



class NoVariantError(HalError):
    """No variant of an executable runs on this device: ``executable`` names
    it, ``reasons`` lists ``(format, target, why)`` for each variant."""

    def __init__(self, message: str, executable: str | None = None, reasons=()):
        super().__init__(message)
        self.executable, self.reasons = executable, list(reasons)


def describe(exc: BaseException) -> str:
    """The message a waiter re-raises for ``exc``: HAL errors keep their text,
    anything else is prefixed with its type so the cause stays visible."""
    if isinstance(exc, HalError):
        return str(exc)
    return f"{type(exc).__name__}: {exc}"


def rethrow(exc: BaseException) -> BaseException:
    """A new error of the same HAL kind as ``exc`` (HalError otherwise), safe to
    raise from many threads at once (the stored original is never re-raised).

    ``KeyboardInterrupt``, ``SystemExit`` and other non-``Exception`` signals
    stay what they are (a Ctrl-C during a call must stop the program, not turn
    into a device error): a fresh instance of the same type is returned."""
    if not isinstance(exc, Exception):
        try:
            err = type(exc)(*exc.args)
        except TypeError:
            err = KeyboardInterrupt() if isinstance(exc, KeyboardInterrupt) else SystemExit(1)
        err.__cause__ = exc
        return err
    cls = type(exc) if isinstance(exc, HalError) else HalError
    try:
        err = cls(describe(exc))
    except TypeError:               # subclass with a custom constructor
        err = HalError(describe(exc))
    if cls is type(exc):
        for k, v in vars(exc).items():   # e.g. PeerFailedError.rank, ExecutableRejectedError.reason
            if not k.startswith("__"):
                setattr(err, k, v)
    err.__cause__ = exc
    return err
