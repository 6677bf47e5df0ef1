"""The general host program's control flow: ``while``, ``if`` and ``case``
as VM branches over registers and buffers, and a loop that qualifies as a
native loop (native_loop.py) as one dispatch of its entry point, with the
VM loop kept for variants that lack it.  A mixin of host_program's
GeneralFunction, which supplies the emitting helpers (``block``, ``label``,
``place``, ``op``, ``to_device``, ``read_back``...)."""
from __future__ import annotations

from tensorvm.vmfb.cpu_abi import BOUNDS_BYTES

from .host_regs import BANK, I64, Dev, Host
from .host_replay import BodyReplay, replayable
from .host_slab import SlabBuf, offset_of
from .host_transfer import Tok, is_token


class ControlFlow:
    """Loops and branches of a GeneralFunction (see the module docstring)."""

    def _bind(self, block, values) -> None:
        for a, val in zip(block.arguments, values):
            self.env[a] = val

    def while_loop(self, op) -> None:
        cond, body = op.regions[0].blocks[0], op.regions[1].blocks[0]
        loop_vars = []
        for v, r in zip(op.operands, op.results):
            val = self.env[v]
            if isinstance(val, Tok):
                loop_vars.append(val)
            elif r in self.host:
                regs = []
                for x in (val.regs if isinstance(val, Host) else self.read_back(val).regs):
                    bank = BANK[v.type.element]
                    nr = self.new(bank)
                    self.op(f"mov.{bank}", nr, x)
                    regs.append(nr)
                loop_vars.append(Host(regs, v.type))
            else:
                dv = self.to_device(val) if isinstance(val, Host) else val
                if isinstance(dv.buf, SlabBuf):      # (cached mode: the loop is native)
                    loop_vars.append(Dev(dv.buf, v.type, dv.fresh))
                    continue
                nr = self.new("ref")
                self.op("mov.ref", nr, dv.buf)
                loop_vars.append(Dev(nr, v.type, dv.fresh))
        head, loop, done = self.label("while"), self.label("do"), self.label("done")
        native = (self.plan.loops or {}).get(id(op))
        if native is not None and self.exe is not None and self.force_native:
            self.native_loop(native, loop_vars, None, None)
            for r, var in zip(op.results, loop_vars):
                # (a host result left in its result buffer is this call's own: fresh)
                self.env[r] = var if isinstance(var, Host) or r in self.host \
                    else Dev(var.buf, var.type, False)
            return
        # a body of device work only: recorded once, replayed per iteration (host_replay.py)
        replay = BodyReplay(self, op, body, loop_vars) \
            if self.slots is None and replayable(body) else None
        prep = self.label("prep") if replay is not None else head
        if native is not None and self.exe is not None:
            self.native_loop(native, loop_vars, prep, done)
        else:
            self.f.op("br", prep)
        if replay is not None:
            self.place(prep)
            if not replay.record():
                replay = None
            self.f.op("br", head)
        self.place(head)
        self._bind(cond, loop_vars)
        self.block(cond)
        pred = self.predicate(cond.terminator.operands[0])
        self.f.op("cond_br", pred, loop, done)
        self.place(loop)
        self._bind(body, loop_vars)
        if replay is not None:
            replay.replay()
        else:
            self.block(body)
        new_vals = [self.snapshot(self.env[v]) for v in body.terminator.operands]
        for var, val in zip(loop_vars, new_vals):   # a parallel move: the body may permute
            self.assign(var, val)
        self.f.op("br", head)
        self.place(done)
        for r, var in zip(op.results, loop_vars):
            self.env[r] = var if isinstance(var, (Host, Tok)) else Dev(var.buf, var.type, False)

    def native_loop(self, loop, loop_vars, vm_loop: str, done: str) -> None:
        """Branch to the loop's native entry point when the loaded variant has
        it (native_loop.py), else to the VM loop at ``vm_loop`` (None: the
        caller checked the entry point; only the dispatch is emitted)."""
        f = self.f
        if vm_loop is not None:
            nm = f.reg("n")
            f.op("const.ref.str", nm, loop.name)
            has, = f.call("executable.has_entry", [self.exe, nm], 1)
            here = self.label("native")
            f.op("cond_br", has, here, vm_loop)
            self.place(here)
        consts, bufs, spans = [], [], []
        for v in loop.host_in:
            consts += self.push_words(self.env[v])
        for v in loop.dev_in:
            val = self.env.get(v)
            if val is None:                   # a constant inside the loop: module rodata
                self.operation(v.defining_op)
                val = self.env[v]
            if isinstance(val, Host):
                val = self.to_device(val)
            bufs.append(val.buf)
            spans += [f.const("i64", offset_of(val.buf)), self.nbytes(v)]
        outs, host_outs = [], []
        for j in loop.changing:
            r = loop.op.results[j]
            outs.append(self.allocate(r.type, transient=vm_loop is None and r not in self.returned))
            bufs.append(outs[-1])
            spans += [f.const("i64", offset_of(outs[-1])), self.nbytes(r)]
        for j in loop.host_out:                # final host values, read back after the loop
            host_outs.append(self.allocate(I64))
            bufs.append(host_outs[-1])
            spans += [f.const("i64", 0), f.const("i64", 8)]
        nscratch = max(64, loop.scratch_bytes)
        size = f.const("i64", nscratch)
        scratch = self.slab.reserve_bytes(nscratch) if self.slab is not None else None
        if scratch is None:
            scratch, = f.call("allocator.allocate", [self.dev, size], 1)
        bufs.append(scratch)
        spans += [f.const("i64", offset_of(scratch)), size]
        bounds, = f.call("invocation.bounds", [self.dev], 1)     # cancel / deadline
        bufs.append(bounds)
        spans += [f.const("i64", 0), f.const("i64", BOUNDS_BYTES)]
        self._emit_dispatch(loop.entry, f.const("i32", 1), consts, bufs, spans)
        for j, out in zip(loop.changing, outs):
            if isinstance(out, SlabBuf) or isinstance(loop_vars[j].buf, SlabBuf):
                loop_vars[j] = Dev(out, loop_vars[j].type, loop_vars[j].fresh)   # (no VM loop)
            else:
                f.op("mov.ref", loop_vars[j].buf, out)
        for j, out in zip(loop.host_out, host_outs):
            t = loop.op.results[j].type
            if vm_loop is None and not _read_on_host(loop.op.results[j]):
                loop_vars[j] = Dev(out, t, True)     # only returned or fed to kernels: no read-back
                continue
            for dst, src in zip(loop_vars[j].regs, self.read_back(Dev(out, t, True)).regs):
                self.op(f"mov.{BANK[t.element]}", dst, src)
        if done is not None:
            f.op("br", done)

    def snapshot(self, val):
        """A copy of ``val`` in fresh registers (so later moves cannot clobber it)."""
        if isinstance(val, Tok):
            return val
        if isinstance(val, Host):
            bank = BANK[val.type.element]
            regs = []
            for r in val.regs:
                nr = self.new(bank)
                self.op(f"mov.{bank}", nr, r)
                regs.append(nr)
            return Host(regs, val.type)
        dv = self.to_device(val) if isinstance(val, Host) else val
        nr = self.new("ref")
        self.op("mov.ref", nr, dv.buf)
        return Dev(nr, dv.type, dv.fresh)

    def assign(self, var, val) -> None:
        """var := val (registers of a loop variable or a branch result)."""
        if isinstance(var, Tok):
            return
        if isinstance(var, Host):
            for dst, src in zip(var.regs, val.regs):
                self.op(f"mov.{BANK[var.type.element]}", dst, src)
        else:
            dv = self.to_device(val) if isinstance(val, Host) else val
            self.op("mov.ref", var.buf, dv.buf)

    def branches(self, op, pred: str, regions) -> None:
        self._select_regions(op, [(pred, regions[0])], regions[1])

    def case(self, op) -> None:
        index = self.predicate(op.operands[0])
        arms = []
        for k, region in enumerate(op.regions[:-1]):
            c = self.binop("cmp.eq.i32", index, self.const("i32", k), "i32")
            arms.append((c, region))
        self._select_regions(op, arms, op.regions[-1])

    def _select_regions(self, op, arms, default) -> None:
        """if arm0 / elif arm1 ... / else default, each yielding op's results."""
        out_vars = []
        for r in op.results:
            if is_token(r.type):
                out_vars.append(Tok(r.type))
            elif r in self.host:
                out_vars.append(Host([self.new(BANK[r.type.element]) for _ in range(r.type.num_elements)],
                                     r.type))
            else:
                out_vars.append(Dev(self.new("ref"), r.type, True))
        join = self.label("join")
        fresh = True
        for cond, region in arms + [(None, default)]:
            here = self.label("arm")
            nxt = self.label("next") if cond is not None else None
            if cond is not None:
                self.f.op("cond_br", cond, here, nxt)
            else:
                self.f.op("br", here)
            self.place(here)
            blk = region.blocks[0]
            self.block(blk)
            for var, v in zip(out_vars, blk.terminator.operands):
                val = self.env[v]
                if isinstance(val, Dev) and not val.fresh:
                    fresh = False
                self.assign(var, val)
            self.f.op("br", join)
            if nxt is not None:
                self.place(nxt)
        self.place(join)
        for r, var in zip(op.results, out_vars):
            self.env[r] = var if isinstance(var, (Host, Tok)) else Dev(var.buf, var.type, fresh)


def _read_on_host(v) -> bool:
    """Some op computes on ``v`` in the VM (a host op, a branch on it, a loop
    carrying it on the host): a native loop's host result must then come
    back into registers."""
    for u, _ in v.uses:
        if u.name in ("func.return", "tvm.dispatch"):
            continue
        return True
    return False
