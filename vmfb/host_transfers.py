"""The host-transfer contract between compiled host code and the ``hal`` module.

StableHLO's ``infeed`` / ``outfeed`` and the ``send`` / ``recv`` with
``is_host_transfer = true`` move tensors between a program and its host.
Compiled code calls:

- ``hal.host_queue.push(queue, handle, views[])``: device -> host
  (``outfeed``, ``send`` of channel type DEVICE_TO_HOST); the views hold the
  operands, computed already; one call pushes one entry (all of them).
- ``hal.host_queue.pop(queue, handle, views[])``: host -> device
  (``infeed``, ``recv`` of channel type HOST_TO_DEVICE); the views are freshly
  allocated results of the declared types, which the popped entry must
  match; an empty queue suspends the invocation until an entry arrives or
  the queues' timeout passes.

``queue`` is a position in ``QUEUES``; ``handle`` is the channel handle for
``channel`` (0 otherwise).  The runtime keeps one FIFO per queue and per
channel handle (runtime/host_queues.py; docs/host_transfers.md).
Tokens (``!stablehlo.token``) carry no data: in VM code they are null refs,
and an export's reflection marks a token argument or result with
``"kind": "token"``.
"""
from __future__ import annotations

QUEUES = ("infeed", "outfeed", "channel")
QUEUE_ID = {q: i for i, q in enumerate(QUEUES)}

PUSH, POP = "host_queue.push", "host_queue.pop"
#: hal module imports: name -> calling convention
SIGNATURES = {PUSH: "iI*r->", POP: "iI*r->"}

#: StableHLO channel types (ChannelHandle.type) of host transfers
DEVICE_TO_HOST, HOST_TO_DEVICE = 2, 3

TOKEN_KIND = "token"
