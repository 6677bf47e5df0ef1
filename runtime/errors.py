"""Runtime error types (internals.md section 1).

``VmTrap`` is the one error VM code can raise by itself; it carries where it
happened (function, pc) so a user can find the instruction in a disassembly.
"""
from __future__ import annotations


class VmTrap(RuntimeError):
    """A runtime failure inside VM code: ``function``, ``pc``, ``message``,
    ``code`` (the ``fail`` code, or None for traps the VM raises itself).

    ``function``/``pc`` may be filled in after construction (the interpreter
    knows the location, the helper that raised does not); ``str()`` always
    shows the current location.
    """

    def __init__(self, message: str, function: str | None = None, pc: int | None = None,
                 code: int | None = None):
        super().__init__(message)
        self.message = message
        self.function = function
        self.pc = pc
        self.code = code

    def __str__(self) -> str:
        where = ""
        if self.function is not None:
            where = f"in function '{self.function}'"
            if self.pc is not None:
                where += f" at pc {self.pc}"
            where += ": "
        code = f" (code {self.code})" if self.code is not None else ""
        return f"VM trap {where}{self.message}{code}"

    def __reduce__(self):
        return (type(self), (self.message, self.function, self.pc, self.code))


class CallTimeoutError(VmTrap, TimeoutError):
    """A call ran past its ``timeout_s`` (checked on the VM's backward branches
    and calls, so a loop that never ends stops here instead of running forever)."""


class CallCancelledError(VmTrap):
    """A call was cancelled (``Future.cancel()`` of ``invoke_async``, or
    ``Invocation.cancel()``) and stopped at its next bounds check."""


class InvalidArgumentError(ValueError):
    """Wrong argument count, shape or dtype: names the argument, expected and actual."""


class DonatedArrayError(InvalidArgumentError):
    """A DeviceArray was donated to a call (its argument is marked
    ``donated_to``: the call's result took over its buffer) and used again."""


class LinkError(ValueError):
    """A context could not link a module: an import is missing or its signature
    differs from the export's.  The message names both sides."""


class _NamedError(RuntimeError):
    """A RuntimeError carrying one named field (``_field``) through pickling."""

    _field = ""

    def __init__(self, message: str, value: str | None = None, **field):
        super().__init__(message)
        if set(field) - {self._field}:
            raise TypeError(f"{type(self).__name__} takes only {self._field}=")
        setattr(self, self._field, field.get(self._field, value))

    def __reduce__(self):
        return (type(self), (str(self), getattr(self, self._field)))


class HostQueueError(_NamedError):
    """A host transfer (infeed, outfeed, send/recv with ``is_host_transfer``)
    failed: names the queue (``queue``: "infeed", "outfeed", "channel 1")."""

    _field = "queue"


class HostQueueTimeoutError(HostQueueError, TimeoutError):
    """A pop found no entry within the queues' timeout (a ``recv`` with no
    matching ``send``, an ``infeed`` nobody pushed to, an empty outfeed)."""


class HostQueueTypeError(HostQueueError, InvalidArgumentError):
    """An entry does not match what the program declares: its array count,
    an element type or a shape (``expected`` and ``got`` say which)."""


class BatcherError(_NamedError):
    """A ``Batcher`` (runtime/batcher.py) refused or dropped a request;
    ``function`` names the function it batches."""

    _field = "function"


class NotBatchableError(BatcherError, InvalidArgumentError):
    """The function cannot be batched by concatenation: no argument has a
    symbolic leading (batch) dim, or a result has none to split."""


class QueueFullError(BatcherError):
    """Back-pressure: the batcher's queue holds ``max_queue`` requests; this
    one was refused at once (retry later, or answer 503)."""


class DeadlineExceededError(BatcherError, TimeoutError):
    """A request was not answered within its deadline (``timeout_ms``); only
    that request fails, the merged call it may be part of goes on."""


class BatcherClosedError(BatcherError):
    """The batcher was closed: a request queued at ``close()`` or made after it."""
