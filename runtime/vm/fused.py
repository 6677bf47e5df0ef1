"""Straight-line functions fused into one Python function (generated once, on first use).

A function whose hot path is straight-line (a compiled static-shape entry
point: argument checks, allocations, one submit-and-wait, result view) is
also generated as a single Python function.  The hot path starts at the
first instruction and follows forward ``br``s and the *true* target of
forward ``cond_br``s until ``ret``; it holds no VM calls or yields.  A
``cond_br`` on it is a guard: when its condition is false the frame goes to
the interpreter at that instruction (the cold path, e.g. recording a
command buffer on the first call, runs there).  Registers become locals
(single assignment, so constants and moves are propagated), each native
import is one direct call of the target's fn, and ``ret`` returns the
result list.  ``Context.invoke`` uses it instead of an ``Invocation`` when
every import the function calls is native in that context.

Semantics are the interpreter's:
  - like ``lowering.py``, no text from a module reaches the compiler:
    immediates, strings, rodata and import targets enter as closure values;
    the generated text depends only on opcodes and register numbers;
  - a trap names the function and the pc of the instruction (found from
    the line of the generated text it was raised on); a native's exception is raised
    as-is with the same note the interpreter adds; any other exception an op
    raises becomes the same "internal error" VmTrap;
  - a native result the fast path does not handle (a ``Suspend``, a tuple, a
    numeric result out of range, wrong count) hands the frame to the
    interpreter: the locals are written into a register list and an
    ``Invocation`` resumes at that instruction (it suspends, coerces or
    traps exactly as it would have).
"""
from __future__ import annotations

from ..errors import VmTrap
from . import numeric as _n
from . import refs as _refs
from .lowering import GLOBALS_SLOT, INSTANCE_SLOT, TEMPLATES, _immediate
from .native import PLAIN_IMPORTS, Suspend

_RANGE = {"i32": (-(1 << 31), 1 << 31), "i64": (-(1 << 63), 1 << 63)}


class _Deopt(Exception):
    """Leave the fused function: (op index, native result, the fused frame's
    ``locals()``, which the plan's per-site map turns back into registers)."""

    def __init__(self, index, res, frame):
        self.index, self.res, self.frame = index, res, frame


def _plain(res, banks):
    """``res`` as a tuple of results the fast path may store, or None."""
    n = len(banks)
    values = res if res.__class__ is tuple and (n != 1 or len(res) == 1) else (res,)
    if len(values) != n:
        return None
    for b, v in zip(banks, values):
        if b != "ref":
            lim = _RANGE.get(b)
            if lim is None or v.__class__ is not int or not lim[0] <= v < lim[1]:
                return None
    return values


def hot_path(instrs):
    """Instruction indices of the hot path (ending at its ``ret``), or None
    when the function has none the fast path can run."""
    if not instrs:
        return None
    index_of = {ins.pc: i for i, ins in enumerate(instrs)}
    path, i = [], 0
    while i < len(instrs):
        ins = instrs[i]
        mn = ins.op.mnemonic
        if mn in ("call", "yield"):
            return None
        if mn == "ret":
            path.append(i)
            return path
        if mn in ("br", "cond_br"):
            targets = [index_of[t] for t in (ins.operands[:1] if mn == "br" else
                                             ins.operands[1:])]
            if min(targets) <= i:            # a loop (on either edge): the interpreter's job
                return None
            target = targets[0]
            if mn == "cond_br":
                path.append(i)
            i = target
            continue
        path.append(i)
        i += 1
    return None


FIRST_BODY_LINE = 4      # the generated text: make, fused, try, then the body


class FusedPlan:
    """The generated factory of one function and what binding it needs."""

    __slots__ = ("factory", "import_indices", "deopt_slots", "writes", "constants", "line_op",
                 "plain_sites")

    def __init__(self, factory, import_indices, deopt_slots, writes, constants, line_op,
                 plain_sites):
        self.factory, self.import_indices = factory, import_indices
        # import calls (by position) assumed plain (native.PLAIN_IMPORTS):
        # their results go unchecked, so bind() requires plain targets there
        self.plain_sites = plain_sites
        # body line k (the traceback's line - FIRST_BODY_LINE) -> its
        # instruction: a fault finds its pc from the line it was raised on,
        # so the hot path stores no "current instruction" per op
        self.line_op = line_op
        # A deopt site passes its frame's locals(); which register each name
        # holds is replayed from ``writes`` (every (register slot, name) the
        # hot path assigns, in order) up to the site's count in
        # ``deopt_slots`` (instruction index -> count).  Listing the live
        # registers in the text at each site instead made it grow with sites
        # x live registers: MobileNetV2's main spent 320 ms in compile().
        self.deopt_slots = deopt_slots
        self.writes = writes
        self.constants = constants          # closure name -> value


def plan(fn, instrs, layout, consts):
    """A ``FusedPlan`` for a VmFunction with a straight-line hot path, or None."""
    path = hot_path(instrs)
    if path is None:
        return None
    slot = layout.slot
    lines = []
    bound = {}                       # closure name -> value
    val = {}                         # register slot -> expression (a local or closure name)
    writes = []                      # every (slot, name) given to val, in order
    counter = [0]

    named = {}                       # value key -> its closure name (one name per value)

    def const(value, prefix="c"):
        # (an object by identity: ``bound`` keeps it alive, so its id stays its own)
        key = (value.__class__, value) if value.__class__ in (int, str) else (id(value),)
        name = named.get(key)
        if name is None:
            name = named[key] = f"{prefix}{len(bound)}"
            bound[name] = value
        return name

    def setv(s, name):
        val[s] = name
        writes.append((s, name))

    def fresh(s):
        counter[0] += 1
        return f"v{s}_{counter[0]}"

    def read(s):
        e = val.get(s)
        if e is None:                # never written: the frame template's zero
            e = const(layout.template[s], "z")
            setv(s, e)
        return e

    params = []
    for s in fn.arg_slots:
        name = fresh(s)
        params.append(name)
        setv(s, name)
    imports = []                     # import index per F/S pair
    import_names = {}                # import index -> its pair
    plain_sites = []                 # pairs whose result is not checked
    deopt_slots = {}
    line_op, prev = [], None         # lines[k] was generated for instruction line_op[k]
    for i in path:
        line_op += [prev] * (len(lines) - len(line_op))
        prev = i
        ins = instrs[i]
        op, v = ins.op, ins.operands
        mn = op.mnemonic
        if mn == "ret":
            lines.append(f"return [{', '.join(read(slot(x)) for x in v[0])}]")
            break
        if mn == "cond_br":                              # guard: false -> interpreter
            deopt_slots[i] = len(writes)
            lines.append(f"if not {read(slot(v[0]))}: raise _Deopt({i}, None, locals())")
            continue
        if mn == "call.import":
            imp, segments, args, results = v[0], tuple(v[1]), v[2], v[3]
            sig = consts.import_sigs[imp]
            exprs = [read(slot(x)) for x in args]
            if segments:
                grouped, pos, seg = [], 0, iter(segments)
                for p in sig.args:
                    if p.variadic:
                        k = next(seg)
                        grouped.append("[" + ", ".join(exprs[pos:pos + k]) + "]")
                        pos += k
                    else:
                        grouped.append(exprs[pos])
                        pos += 1
                exprs = grouped
            k = import_names.get(imp)        # one F/S pair per import, not per call:
            if k is None:                    # compile() time grows with the names
                k = import_names[imp] = len(imports)
                imports.append(imp)
            deopt_slots[i] = len(writes)
            deopt = f"raise _Deopt({i}, res, locals())"
            call = f"F{k}(S{k}{''.join(', ' + e for e in exprs)})"
            dsts = [slot(x) for x in results]
            banks = [b for b, _ in results]
            if consts.import_names[imp] in PLAIN_IMPORTS and (
                    not dsts or (len(dsts) == 1 and banks[0] == "ref")):
                if k not in plain_sites:     # result unchecked: bind() wants a plain target
                    plain_sites.append(k)
                if dsts:
                    d = fresh(dsts[0])
                    lines.append(f"{d} = {call}")
                    setv(dsts[0], d)
                else:
                    lines.append(call)
                continue
            lines.append(f"res = {call}")
            if not dsts:
                lines.append(f"if res is not None: {deopt}")
            elif len(dsts) == 1 and banks[0] == "ref":
                lines.append(f"if res.__class__ is _Suspend or res.__class__ is tuple: {deopt}")
                d = fresh(dsts[0])
                lines.append(f"{d} = res")
                setv(dsts[0], d)
            else:
                bk = const(tuple(banks), "b")
                lines.append(f"vals = _plain(res, {bk})")
                lines.append(f"if vals is None: {deopt}")
                names = [fresh(d) for d in dsts]
                lines.append(f"{', '.join(names)}, = vals")
                for d, nm in zip(dsts, names):
                    setv(d, nm)
            continue
        fields = op.fields
        if mn.startswith("const.") and len(fields) == 2 and fields[0].role == "w":
            dst = slot(v[0])
            setv(dst, const(_immediate(fields[1].kind, v[1], consts)))
            continue
        if mn.startswith("mov."):
            setv(slot(v[0]), read(slot(v[1])))
            continue
        names, dst = {}, None
        for f, x in zip(fields, v):
            if f.kind == "reg":
                if f.role == "w":
                    dst = slot(x)
                else:
                    names[f.name] = read(slot(x))
            else:
                names[f.name] = const(_immediate(f.kind, x, consts))
        if mn.startswith("global.load."):
            body = "{dst} = g[{global}]"
        elif mn.startswith("global.store."):
            body = "g[{global}] = {src}"
        else:
            body = TEMPLATES[mn]
        if dst is not None:
            names["dst"] = fresh(dst)
        lines.append(body.format(**names))
        if dst is not None:
            setv(dst, names["dst"])
    line_op += [prev] * (len(lines) - len(line_op))
    n_imports = len(imports)
    binder = ", ".join(list(bound) + [f"F{k}, S{k}" for k in range(n_imports)] + ["g"])
    body = "\n".join("            " + ln for ln in lines)
    src = (f"def make({binder}):\n"
           f"    def fused({', '.join(params)}):\n"
           f"        try:\n{body}\n"
           f"        except _Deopt as d:\n"
           f"            return _resume(d)\n"
           f"        except Exception as e:\n"
           f"            _fault(e, e.__traceback__.tb_lineno - {FIRST_BODY_LINE})\n"
           f"    return fused\n")
    ns = {"_n": _n, "_refs": _refs, "_VmTrap": VmTrap, "_Deopt": _Deopt, "_Suspend": Suspend,
          "_plain": _plain}
    code = compile(src, f"<vm fused {fn.name}>", "exec")
    values = dict(bound)

    def factory(fault, resume, targets, globals_list):
        g = dict(ns, _fault=fault, _resume=resume)
        exec(code, g)
        args = list(values.values())
        for t in targets:
            args += [t.fn, t.state]
        return g["make"](*args, globals_list)
    return FusedPlan(factory, tuple(imports), deopt_slots, tuple(writes), values,
                     tuple(line_op), tuple(plain_sites))


def bind(target):
    """The fused callable of a BytecodeTarget in its context, or None (not
    straight-line, or an import resolves to bytecode)."""
    from .interpreter import Invocation
    from .native import NativeTarget
    fn, inst = target.function, target.instance
    p = fn.fused
    if p is None:
        return None
    targets = [inst.imports[i] for i in p.import_indices]
    if any(t.__class__ is not NativeTarget for t in targets):
        return None
    if not all(targets[k].plain for k in p.plain_sites):
        return None                  # (another "hal" than ours: the interpreter runs it)
    name = fn.name

    def fault(e, line):
        i = p.line_op[line] if 0 <= line < len(p.line_op) else 0
        pc = fn.pcs[i]
        site = fn.sites[i]
        if site is not None and site.kind == "import":          # raised by the native
            if isinstance(e, VmTrap):
                if e.function is None:
                    e.function, e.pc = name, pc
            elif hasattr(e, "add_note"):
                e.add_note(f"raised by native {inst.imports[site.index].name} called from "
                           f"VM function '{name}' at pc {pc}")
            raise e
        if isinstance(e, VmTrap):
            if e.function is None:
                e.function, e.pc = name, pc
            raise e
        raise VmTrap(f"internal error: {type(e).__name__}: {e}", name, pc) from e

    def resume(d):
        r = fn.template[:]
        r[GLOBALS_SLOT], r[INSTANCE_SLOT] = inst.globals, inst
        frame, constants = d.frame, p.constants
        live = dict(p.writes[:p.deopt_slots[d.index]])    # slot -> its latest name
        for s, name in live.items():
            # a constant the function never reads is no free variable of it
            r[s] = frame[name] if name in frame else constants[name]
        ctx = inst.context
        site = fn.sites[d.index]
        if site is None or site.kind != "import":        # a guard: run its branch there
            inv = Invocation.resume_at(target, r, d.index, ctx.max_depth, ctx.default_timeout_s)
        else:
            inv = Invocation.resume_after_import(target, r, d.index, d.res, ctx.max_depth,
                                                 ctx.default_timeout_s)
        return inv.run()

    return p.factory(fault, resume, targets, inst.globals)


