"""The ``hal`` module's functions as compiled code imports them, declared once:
the compiler writes its ``import @hal.<name>(...)`` lines from this table
(compiler/host/vm_host.py) and the runtime's hal module
(runtime/modules/hal.py) binds its implementations against it, so a
calling convention cannot differ between the two (tests/test_abi_contract.py).

A calling convention is ``"<args>-><results>"`` with one letter per value
(``r`` ref, ``i`` i32, ``I`` i64) and ``*x`` a variadic list of ``x``.
"""
from __future__ import annotations

from . import host_transfers

#: name -> calling convention, for every function of the ``hal`` module.
SIGNATURES = {
    "device.get": "->r",
    "executable.load": "rr->r",
    "allocator.allocate": "rI->r",
    "allocator.allocate.result": "rI->r",
    "allocator.import": "rr->r",
    "buffer_view.assert": "rri*I->",
    "buffer_view.buffer": "r->r",
    "buffer_view.create": "rIIi*I->r",
    "command_buffer.create": "r->r",
    "command_buffer.dispatch": "rriiii*i*r*I->",
    "command_buffer.barrier": "r->",
    "command_buffer.copy": "rrIrII->",
    "command_buffer.finalize": "r->",
    "fence.create": "r->r",
    "fence.await": "i*r->i",
    "device.queue.execute": "rrr*r->",
    "buffer_view.dim": "ri->I",
    "buffer.load.i32": "rI->i",
    "buffer.load.i64": "rI->I",
    "command_buffer.dispatch.indirect": "rriiii*i*r*i*I->",
    "command_buffer.copy.indirect": "rriIriII->",
    "device.queue.execute.indirect": "rrrr*r->",
    "fence.signal": "r->",
    "buffer_view.checked_buffer": "rri*I->r",
    "buffer_view.check_args": "r*r->",
    "device.queue.execute.indirect.wait": "rri*r->",
    "executable.has_entry": "rr->i",
    "command_buffer.dispatch.slotted": "rriiii*i*i*r*i*I->",
    "command_buffer.execute.slotted": "rr*r*i->",
    "invocation.bounds": "r->r",
    "channel.get": "->r",
    "channel.replica_id": "r->i",
    "channel.partition_id": "r->i",
    "channel.collective": "riii*I*I*r*r->",
    # runtime only so far (hand-written programs and tests call them)
    "command_buffer.fill": "rrIIii->",
    "device.queue.alloca": "rrrI->r",
    "device.queue.dealloca": "rrrr->",
    **host_transfers.SIGNATURES,
}


def asm_signature(conv: str) -> str:
    """A calling convention as assembly types: ``"ri*I->r"`` ->
    ``"(r, i, *I) -> (r)"``."""
    args, results = conv.split("->")
    items, i = [], 0
    while i < len(args):
        if args[i] == "*":
            items.append("*" + args[i + 1])
            i += 2
        else:
            items.append(args[i])
            i += 1
    return f"({', '.join(items)}) -> ({', '.join(results)})"


def import_line(name: str) -> str:
    """The assembly import of hal function ``name``."""
    return f"import @hal.{name}{asm_signature(SIGNATURES[name])}"


def bind(implementations: dict) -> dict:
    """``{name: (calling convention, implementation)}`` for a module that
    implements every function of ``SIGNATURES`` and nothing else; raises
    ValueError naming the ones missing or undeclared."""
    missing = sorted(set(SIGNATURES) - set(implementations))
    extra = sorted(set(implementations) - set(SIGNATURES))
    if missing or extra:
        raise ValueError(f"hal module does not match vmfb/hal_imports.py: "
                         f"missing {missing}, undeclared {extra}")
    return {name: (SIGNATURES[name], implementations[name]) for name in SIGNATURES}
