"""Lowering of decoded instructions to per-op closures (done once, at load).

Each op becomes ``op(r) -> next index``: a closure over pre-resolved register
slots of the frame's flat register list ``r`` (banks laid out one after the
other, see ``Layout``).  Straight-line ops are generated from the expression
templates below, one factory per mnemonic, compiled from fixed source text on
first use (no text from a module ever reaches the compiler: operands enter
only as closure values).  Calls, returns and yields return ``~i`` (a negative
index: "handle site ``i``"); a native import whose target turns out to be
bytecode raises ``Control``.  The interpreter reads the op's ``Site`` to act
on it, so the hot loop itself is ``while pc >= 0: pc = ops[pc](r)``.
"""
from __future__ import annotations

from functools import partial

from operator import itemgetter as _itemgetter
from typing import NamedTuple

from tensorvm.vmfb.isa import BANKS

from ..errors import VmTrap
from . import numeric as _n
from . import refs as _refs
from .native import NativeTarget, Suspend

# Frame slots before the banks: the context's globals list and the module instance.
GLOBALS_SLOT, INSTANCE_SLOT, FIRST_REGISTER = 0, 1, 2
_ZERO = {"i32": 0, "i64": 0, "f32": 0.0, "f64": 0.0, "ref": None}


class Control(Exception):
    """Raised by call/call.import/ret/yield ops; never escapes the interpreter."""
    __slots__ = ()


def _control_op(i):
    """The op of a control instruction at index ``i``: hand the site to the loop."""
    n = ~i

    def op(r):
        return n
    return op


class Suspended(Exception):
    """Raised by an import op whose native fn returned a ``Suspend``."""

    def __init__(self, suspend, dsts, banks, name):
        self.suspend, self.dsts, self.banks, self.name = suspend, dsts, banks, name


class NativeRaised(Exception):
    """Wraps an exception a native fn raised (re-raised as-is by the loop)."""

    def __init__(self, exc, name):
        self.exc, self.name = exc, name


class BadResults(Exception):
    """A native fn returned results that do not fit its signature."""

    def __init__(self, res, dsts, banks, name):
        self.res, self.dsts, self.banks, self.name = res, dsts, banks, name


class Layout:
    """Where each bank's registers live in a frame's flat list."""

    def __init__(self, counts: dict):
        self.base, slot = {}, FIRST_REGISTER
        template = [None, None]
        for bank in BANKS:
            self.base[bank] = slot
            n = counts.get(bank, 0)
            template.extend([_ZERO[bank]] * n)
            slot += n
        self.template = template

    def slot(self, reg) -> int:
        return self.base[reg[0]] + reg[1]


# Sites: what the interpreter needs for a control op.
class CallSite(NamedTuple):
    kind: str            # "call"
    callee: object       # function index, replaced by the VmFunction after lowering
    args: tuple          # caller slots
    results: tuple       # caller slots


class ImportSite(NamedTuple):
    kind: str            # "import"
    index: int
    segments: tuple
    args: tuple
    results: tuple
    result_banks: tuple


class RetSite(NamedTuple):
    kind: str            # "ret"
    values: tuple


class YieldSite(NamedTuple):
    kind: str            # "yield"
    target: int          # op index to resume at


class BackEdgeSite(NamedTuple):
    """A backward ``br``/``cond_br`` whose budget ran out: the interpreter
    checks the invocation's deadline and cancellation, then branches."""
    kind: str            # "backedge"
    cond: object         # condition slot, None for ``br``
    if_true: int
    if_false: int


#: Backward branches a function takes between two deadline/cancel checks.
#: The budget is one counter per function, shared by its invocations (a
#: race only shifts when some invocation checks; each spinning one still does).
BACKEDGE_BUDGET = 1024


# -- templates ------------------------------------------------------------------------
# {field} is replaced by r[f_field] for register fields and f_field for immediates.
W32 = "(({}) + 0x80000000 & 0xFFFFFFFF) - 0x80000000"
W64 = "(({}) + 0x8000000000000000 & 0xFFFFFFFFFFFFFFFF) - 0x8000000000000000"
_WIDTH = {"i32": (W32, 31, "0xFFFFFFFF"), "i64": (W64, 63, "0xFFFFFFFFFFFFFFFF")}
TEMPLATES: dict = {}


def _int_templates():
    for b, (W, top, M) in _WIDTH.items():
        sh = "({b} & %d)" % (top,)
        t = {
            "add": W.format("{a} + {b}"), "sub": W.format("{a} - {b}"),
            "mul": W.format("{a} * {b}"),
            "div.s": f"_n.divs{top + 1}({{a}}, {{b}})", "div.u": f"_n.divu{top + 1}({{a}}, {{b}})",
            "rem.s": f"_n.rems{top + 1}({{a}}, {{b}})", "rem.u": f"_n.remu{top + 1}({{a}}, {{b}})",
            "and": "{a} & {b}", "or": "{a} | {b}", "xor": "{a} ^ {b}",
            "shl": W.format("{a} << " + sh), "shr.s": "{a} >> " + sh,
            "shr.u": W.format(f"({{a}} & {M}) >> " + sh),
            "min.s": "{a} if {a} < {b} else {b}", "max.s": "{a} if {a} > {b} else {b}",
            "min.u": f"{{a}} if ({{a}} & {M}) < ({{b}} & {M}) else {{b}}",
            "max.u": f"{{a}} if ({{a}} & {M}) > ({{b}} & {M}) else {{b}}",
            "neg": W.format("-{a}"), "not": "~{a}", "abs": W.format("abs({a})"),
        }
        for m, e in t.items():
            TEMPLATES[f"{m}.{b}"] = "{dst} = " + e
        for m, e in [("eq", "=="), ("ne", "!=")]:
            TEMPLATES[f"cmp.{m}.{b}"] = f"{{dst}} = 1 if {{a}} {e} {{b}} else 0"
        for m, e in [("lt", "<"), ("le", "<="), ("gt", ">"), ("ge", ">=")]:
            TEMPLATES[f"cmp.{m}.s.{b}"] = f"{{dst}} = 1 if {{a}} {e} {{b}} else 0"
            TEMPLATES[f"cmp.{m}.u.{b}"] = f"{{dst}} = 1 if ({{a}} & {M}) {e} ({{b}} & {M}) else 0"


def _float_templates():
    for b in ("f32", "f64"):
        R = "_n.f32({})" if b == "f32" else "{}"
        t = {"add": "{a} + {b}", "sub": "{a} - {b}", "mul": "{a} * {b}",
             "div": "_n.fdiv({a}, {b})", "rem": "_n.frem({a}, {b})",
             "min": "_n.fmin({a}, {b})", "max": "_n.fmax({a}, {b})",
             "pow": "_n.fpow({a}, {b})", "atan2": "_n.fatan2({a}, {b})",
             "sqrt": "_n.fsqrt({a})", "exp": "_n.fexp({a})", "log": "_n.flog({a})",
             "floor": "_n.ffloor({a})", "ceil": "_n.fceil({a})", "round": "_n.fround({a})",
             "sin": "_n.fsin({a})", "cos": "_n.fcos({a})", "tanh": "_n.ftanh({a})"}
        for m, e in t.items():
            TEMPLATES[f"{m}.{b}"] = "{dst} = " + R.format(e)
        TEMPLATES[f"neg.{b}"] = "{dst} = -{a}"
        TEMPLATES[f"abs.{b}"] = "{dst} = abs({a})"
        for m, e in [("eq", "=="), ("ne", "!="), ("lt", "<"), ("le", "<="),
                     ("gt", ">"), ("ge", ">=")]:
            TEMPLATES[f"cmp.{m}.{b}"] = f"{{dst}} = 1 if {{a}} {e} {{b}} else 0"
        TEMPLATES[f"cmp.nan.{b}"] = "{dst} = 1 if {a} != {a} else 0"


def _other_templates():
    T = TEMPLATES
    for b in BANKS:
        T[f"mov.{b}"] = "{dst} = {src}"
        T[f"select.{b}"] = "{dst} = {a} if {cond} else {b}"
        T[f"global.load.{b}"] = "{dst} = r[0][{global}]"
        T[f"global.store.{b}"] = "r[0][{global}] = {src}"
        T[f"list.get.{b}"] = f"{{dst}} = _refs.list_get_{b}({{list}}, {{index}})"
        T[f"list.set.{b}"] = "_refs.list_set({list}, {index}, {value})"
        if b != "ref":
            T[f"const.{b}"] = "{dst} = {value}"
            T[f"buffer.load.{b}"] = f"{{dst}} = _refs.buffer_load_{b}({{buffer}}, {{offset}})"
            T[f"buffer.store.{b}"] = f"_refs.buffer_store_{b}({{buffer}}, {{offset}}, {{value}})"
    T["const.ref.null"] = "{dst} = None"
    T["const.ref.rodata"] = "{dst} = {rodata}"
    T["const.ref.str"] = "{dst} = {str}"
    T["const.ref.executable"] = "{dst} = {exe}"
    T["cmp.eq.ref"] = "{dst} = 1 if {a} is {b} else 0"
    T["cmp.nz.ref"] = "{dst} = 0 if {a} is None else 1"
    T["list.alloc"] = "{dst} = _refs.list_alloc({capacity})"
    T["list.size"] = "{dst} = _refs.list_size({list})"
    T["list.resize"] = "_refs.list_resize({list}, {size})"
    T["buffer.alloc"] = "{dst} = _refs.buffer_alloc({length})"
    T["buffer.length"] = "{dst} = _refs.buffer_length({buffer})"
    T["fail"] = "if {code}: raise _VmTrap({message}, code={code})"
    T["ext.i32.i64.s"] = "{dst} = {src}"
    T["ext.i32.i64.u"] = "{dst} = {src} & 0xFFFFFFFF"
    T["trunc.i64.i32"] = "{dst} = " + W32.format("{src}")
    T["cast.i32.f32.s"] = "{dst} = _n.f32(float({src}))"
    T["cast.i64.f32.s"] = "{dst} = _n.int_to_f32({src})"
    T["cast.i32.f64.s"] = T["cast.i64.f64.s"] = "{dst} = float({src})"
    for s in ("f32", "f64"):
        T[f"cast.{s}.i32.s"] = "{dst} = _n.f2i32({src})"
        T[f"cast.{s}.i64.s"] = "{dst} = _n.f2i64({src})"
    T["ext.f32.f64"] = "{dst} = {src}"
    T["trunc.f64.f32"] = "{dst} = _n.f32({src})"
    T["bitcast.f32.i32"] = "{dst} = _n.f32_bits({src})"
    T["bitcast.i32.f32"] = "{dst} = _n.bits_f32({src})"
    T["bitcast.f64.i64"] = "{dst} = _n.f64_bits({src})"
    T["bitcast.i64.f64"] = "{dst} = _n.bits_f64({src})"


_int_templates()
_float_templates()
_other_templates()
CONTROL = {"br", "cond_br", "call", "call.import", "ret", "yield"}
_NAMESPACE = {"_n": _n, "_refs": _refs, "_VmTrap": VmTrap}
_FACTORIES: dict = {}


def _factory(op):
    """The closure factory of a templated op: make(f_<field>..., n) -> op(r)."""
    fac = _FACTORIES.get(op.mnemonic)
    if fac is None:
        names = {f.name: (f"r[f_{f.name}]" if f.kind == "reg" else f"f_{f.name}")
                 for f in op.fields}
        body = TEMPLATES[op.mnemonic].format(**names)
        params = ", ".join(f"f_{f.name}" for f in op.fields)
        src = (f"def make({params}, n):\n    def op(r):\n        {body}\n"
               f"        return n\n    return op\n")
        ns = dict(_NAMESPACE)
        exec(compile(src, f"<vm op {op.mnemonic}>", "exec"), ns)
        fac = _FACTORIES[op.mnemonic] = ns["make"]
    return fac


def _immediate(kind, value, consts):
    if kind == "i32":
        return _n.wrap32(value)
    if kind == "i64":
        return _n.wrap64(value)
    if kind == "f32":
        return _n.f32(float(value))
    if kind == "f64":
        return float(value)
    if kind == "rodata":
        return consts.rodata[value]
    if kind == "str":
        return consts.strings[value]
    if kind == "exe":
        return consts.executables[value]
    return value                      # global index


def lower_function(instrs, layout: Layout, consts, lazy: bool = False) -> tuple:
    """``(ops, sites, pcs)``: closures, control sites and byte pcs, by op index.

    ``lazy``: each op that is not a branch is built the first time it runs
    (a stub stands in for it until then); for functions whose fused form
    runs the hot path, so that the interpreter, entered on a rare branch,
    does not pay for every instruction of the function."""
    index_of = {ins.pc: i for i, ins in enumerate(instrs)}
    ops, sites, pcs = [], [], []
    slot = layout.slot
    for i, ins in enumerate(instrs):
        op, v = ins.op, ins.operands
        mn = op.mnemonic
        site = None
        if mn in ("br", "cond_br"):
            targets = [index_of[t] for t in (v[:1] if mn == "br" else v[1:])]
            cond = slot(v[0]) if mn == "cond_br" else None
            if min(targets) <= i:             # a loop: bounded by the back-edge budget
                site = BackEdgeSite("backedge", cond, targets[0], targets[-1])
                ops.append(_back_edge(site, i, [BACKEDGE_BUDGET]))
            elif cond is None:
                ops.append(_jump(targets[0]))
            else:
                ops.append(_branch(cond, targets[0], targets[1]))
        elif mn in CONTROL:
            ops.append(_control_op(i))
            if mn == "call":
                site = CallSite("call", v[0], tuple(map(slot, v[1])), tuple(map(slot, v[2])))
            elif mn == "call.import":
                site = ImportSite("import", v[0], tuple(v[1]), tuple(map(slot, v[2])),
                                  tuple(map(slot, v[3])), tuple(b for b, _ in v[3]))
                sig = consts.import_sigs[v[0]]
                ops[-1] = (_stub(ops, i, partial(_import_op, site, sig, i + 1)) if lazy
                           else _import_op(site, sig, i + 1))
            elif mn == "ret":
                site = RetSite("ret", tuple(map(slot, v[0])))
            else:
                site = YieldSite("yield", index_of[v[0]])
        else:
            # (a rodata operand is read now: its checksum error belongs to lowering)
            if lazy and not any(f.kind == "rodata" for f in op.fields):
                ops.append(_stub(ops, i, partial(_plain_op, op, v, slot, consts, i + 1)))
            else:
                ops.append(_plain_op(op, v, slot, consts, i + 1))
        sites.append(site)
        pcs.append(ins.pc)
    return ops, sites, pcs


def _plain_op(op, operands, slot, consts, n):
    args = [slot(x) if f.kind == "reg" else _immediate(f.kind, x, consts)
            for f, x in zip(op.fields, operands)]
    return _factory(op)(*args, n)


def _stub(ops, i, build):
    """An op that builds op ``i`` with ``build()``, puts it in its place and
    runs it (threads racing here build equal ops; either may stay)."""
    def op(r):
        real = ops[i] = build()
        return real(r)
    return op


def _jump(t):
    def op(r):
        return t
    return op


def _back_edge(site, i, budget):
    """A branch with a backward target: branches while ``budget`` lasts, then
    hands site ``i`` to the interpreter (which checks bounds and refills it)."""
    c, t, f, n = site.cond, site.if_true, site.if_false, ~i

    def op(r):
        left = budget[0]
        if left:
            budget[0] = left - 1
            return t if c is None or r[c] else f
        budget[0] = BACKEDGE_BUDGET
        return n
    return op


def _branch(c, t, f):
    def op(r):
        return t if r[c] else f
    return op


def _groups(sig, segments):
    """(start, end, variadic) per parameter, or None without variadic runs."""
    if not segments:
        return None
    out, pos, seg = [], 0, iter(segments)
    for p in sig.args:
        if p.variadic:
            k = next(seg)
            out.append((pos, pos + k, True))
            pos += k
        else:
            out.append((pos, pos + 1, False))
            pos += 1
    return tuple(out)


def _tuple_getter(slots):
    """r -> tuple of r[s] for s in slots (operator.itemgetter: one C call)."""
    if not slots:
        return lambda r: ()
    if len(slots) == 1:
        s = slots[0]
        return lambda r: (r[s],)
    return _itemgetter(*slots)


def _import_op(site, sig, n):
    """A call.import op that calls a native target directly (no Control round
    trip); bytecode targets still raise Control for the interpreter."""
    index, slots, dsts, banks = site.index, site.args, site.results, site.result_banks
    groups = _groups(sig, site.segments)
    # The common variadic shape: fixed parameters, then one trailing run.
    tail = groups is not None and all(not v for _, _, v in groups[:-1]) and groups[-1][2]
    if tail:
        cut = groups[-1][0]
        head_of, run_of = _tuple_getter(slots[:cut]), _tuple_getter(slots[cut:])
    kind = 0 if not dsts else 1 if len(dsts) == 1 and banks[0] == "ref" else 2
    d0 = dsts[0] if dsts else None
    fixed = groups is None and len(slots) <= 3
    s0, s1, s2 = (tuple(slots) + (0, 0, 0))[:3]
    nargs = len(slots)

    def op(r):
        tgt = r[1].imports[index]
        if tgt.__class__ is not NativeTarget:
            raise Control
        try:
            if fixed:
                if nargs == 1:
                    res = tgt.fn(tgt.state, r[s0])
                elif nargs == 2:
                    res = tgt.fn(tgt.state, r[s0], r[s1])
                elif nargs == 3:
                    res = tgt.fn(tgt.state, r[s0], r[s1], r[s2])
                else:
                    res = tgt.fn(tgt.state)
            elif tail:
                res = tgt.fn(tgt.state, *head_of(r), list(run_of(r)))
            else:
                a = [r[s] for s in slots]
                if groups is not None:
                    a = [a[b:e] if v else a[b] for b, e, v in groups]
                res = tgt.fn(tgt.state, *a)
        except Exception as e:
            raise NativeRaised(e, tgt.name) from None
        if kind == 1:
            if res.__class__ is Suspend or res.__class__ is tuple:
                _settle(res, r, dsts, banks, tgt.name)
            else:
                r[d0] = res
        elif res is not None:
            _settle(res, r, dsts, banks, tgt.name)
        elif kind:
            raise BadResults(res, dsts, banks, tgt.name)
        return n
    return op


def _settle(res, r, dsts, banks, name):
    """The uncommon results: a Suspend, tuples, numeric banks."""
    if res.__class__ is Suspend:
        raise Suspended(res, dsts, banks, name)
    if not _fast_store(r, res, dsts, banks):
        raise BadResults(res, dsts, banks, name)


_RANGE = {"i32": (-(1 << 31), 1 << 31), "i64": (-(1 << 63), 1 << 63)}


def _fast_store(r, res, dsts, banks) -> bool:
    """Store plain results (refs, in-range ints); False: needs the full path."""
    n = len(dsts)
    if not n:
        return res == ()
    values = res if res.__class__ is tuple and (n != 1 or len(res) == 1) else (res,)
    if len(values) != n:
        return False
    for d, b, v in zip(dsts, banks, values):
        if b != "ref":
            lim = _RANGE.get(b)
            if lim is None or v.__class__ is not int or not lim[0] <= v < lim[1]:
                return False
        r[d] = v
    return True
