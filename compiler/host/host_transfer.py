"""Host transfers and tokens in host code (vmfb/host_transfers.py).

``infeed`` and ``recv`` (is_host_transfer, HOST_TO_DEVICE) pop one entry
of their host queue into freshly allocated results; ``outfeed`` and ``send``
(is_host_transfer, DEVICE_TO_HOST) push their operands as one entry.  Like
a collective, each runs between dispatches: the commands recorded so far
are submitted and awaited (a send's operands must be computed; a later
dispatch reads what a pop wrote), then the ``hal.host_queue`` call runs.
Program order is the order of the queues: the ops are effectful, so CSE and
DCE keep every one (passes/simplify.py).

Tokens (``after_all``, ``create_token``, token arguments and results) carry
no data: the host program keeps them as ``Tok`` values, null refs where a
register is needed.  ``send`` / ``recv`` between devices
(``is_host_transfer = false``) has no peer the op names: it is an
UnsupportedOpError (collective_permute moves data between ranks).
"""
from __future__ import annotations

from dataclasses import dataclass

from tensorvm.vmfb import host_transfers as contract

from ..errors import UnsupportedOpError
from ..ir.types import TokenType
from .collectives import channel_id

_S = "stablehlo."
POP_OPS = frozenset((_S + "infeed", _S + "recv"))
PUSH_OPS = frozenset((_S + "outfeed", _S + "send"))
HOST_TRANSFER_OPS = POP_OPS | PUSH_OPS
TOKEN_OPS = frozenset((_S + "after_all", _S + "create_token"))


@dataclass
class Tok:
    """A token in the host program's environment."""
    type: object


def is_token(t) -> bool:
    return isinstance(t, TokenType)


def uses_tokens(func) -> bool:
    """Whether ``func`` moves data to or from the host or handles tokens."""
    block = func.regions[0].blocks[0]
    if any(is_token(a.type) for a in block.arguments) or \
            any(is_token(v.type) for v in block.terminator.operands):
        return True
    return any(op.name in HOST_TRANSFER_OPS or op.name in TOKEN_OPS for op in func.walk())


def _queue(op) -> tuple:
    """(queue code, channel handle) of a host-transfer op."""
    if op.name in (_S + "infeed", _S + "outfeed"):
        return contract.QUEUE_ID[op.name[len(_S):]], 0
    if op.attributes.get("is_host_transfer") is None or \
            getattr(op.attributes["is_host_transfer"], "value", True) is False:
        raise UnsupportedOpError(op.name, "with is_host_transfer = false: a device-to-device "
                                 "send/recv names no peer; move data between ranks with "
                                 "collective_permute", op.location)
    return contract.QUEUE_ID["channel"], channel_id(op)


def emit_host_transfer(g, op) -> None:
    """Host code for one infeed / outfeed / send / recv of GeneralFunction ``g``."""
    from .host_program import Dev, Host
    f = g.f
    queue, handle = _queue(op)
    g.read_backs += 1                 # the commands so far must be done: not one recording
    args = [f.const("i32", queue), f.const("i64", handle)]
    if op.name in PUSH_OPS:
        views = []
        for v in op.operands[:-1]:             # the last operand is the token
            val = g.env[v]
            if isinstance(val, Host):
                val = g.to_device(val)
            views.append(g._view(val.buf, v))
        g.flush()
        f.call(contract.PUSH, args + [views])
    else:
        views = []
        for r in op.results[:-1]:              # the last result is the token
            buf = g.allocate(r.type, r)
            g.env[r] = Dev(buf, r.type, True)
            views.append(g._view(buf, r))
        g.flush()
        f.call(contract.POP, args + [views])
    for r in op.results:
        if is_token(r.type):
            g.env[r] = Tok(r.type)


def emit_token(g, op) -> None:
    """``after_all`` / ``create_token``: a token (program order already orders
    the effects it would join)."""
    g.env[op.result] = Tok(op.result.type)
