"""One C-style kernel renderer for every target (issue 36.1).

``CStyleRenderer`` holds what every target renders alike: which plan a
kernel takes (custom, sequential, convolution, contraction, loop), how the
bindings and push constants of a kernel become C names (``b<k>`` / ``o<j>``
pointers, ``pc<k>`` scalars, shape symbols), the helper functions of
scalar.py with each target's replacements, the sequential plan (one item per
workgroup runs sequential.py's program), the scalar-output plan, the
workgroup tiles of loop kernels, and the assembly of a program (prologue,
helpers, file-scope tables, kernels).  Targets subclass it with data:
kernel qualifier and header, address-space qualifiers, restrict spelling,
how a push-constant word is read and bit-cast, workgroup and item index
built-ins, barriers, helper qualifier and replacements, vector types, and
the prologue; and with their own form of the heavy plans where the machine
wants one (the CPU's register-blocked GEMM micro-kernel, a GPU's tiles in
local memory).  The CPU renderer is cpu.py's ``CpuRenderer``, the GPU ones
gpu.py's ``GpuTarget`` with opencl.py and cuda.py.
"""
from __future__ import annotations

import re
from typing import NamedTuple

from . import scalar
from .body import BodyEmitter, fused_store

#: Element types whose push constants take two 32-bit words (kernel.num_constant_words).
WIDE = ("i64", "ui64", "f64")
_HELPER = re.compile(r"^static inline [\w ]+?\b(tvm_\w+)\(")


class CStyleRenderer:
    """Kernel plans rendered as C; subclasses set the target's spellings."""
    name = "c"
    format = ""
    #: what a kernel's declarator starts with (GPUs; the CPU's is its ABI's)
    kernel_qualifier = ""
    #: address-space qualifiers of bindings and of workgroup-shared arrays
    global_space = ""
    shared_space = ""
    restrict = "restrict"
    #: index built-ins: the workgroup, the item in it, the items per workgroup
    group_id = local_id = local_size = None
    barrier = ""
    #: helpers (scalar.HELPERS) are ``static inline``; a target may qualify them
    helper_qualifier = "static inline"
    #: file-scope tables (``static const`` in the shared code)
    table_prefix = "static const "
    #: helpers that need f64 and cannot be narrowed (left out without it)
    f64_only = ()
    #: the body emitter class of this target (selects, reductions in lanes)
    emitter = BodyEmitter
    #: the C variable holding the workgroup a plan renders
    workgroup = "wg"
    #: the statements that end a kernel function
    kernel_end = ("}",)
    #: what a function called from kernels (not a kernel itself) is qualified with
    device_qualifier = ""
    #: the suffix of C99's float math names (OpenCL overloads the plain ones)
    float_math_suffix = "f"

    # -- target data hooks ---------------------------------------------------------------
    def prologue(self, needs_f64: bool) -> str:
        raise NotImplementedError(f"{type(self).__name__} has no prologue")

    def helper_overrides(self) -> dict:
        """Helper name -> replacement text (None drops the helper)."""
        return {}

    def finish(self, source: str, needs_f64: bool) -> str:
        """Last rewrite of the whole program (e.g. no-fp64 devices)."""
        return source

    def header(self, kernel, params) -> str:
        """The kernel function's opening line."""
        return f"{self.kernel_qualifier} {kernel.name}({', '.join(params)}) {{"

    def binding(self, k: int, name: str, pointer: str) -> tuple[list, list]:
        """(parameters, statements) making binding ``k`` the C pointer
        ``name`` of type ``pointer`` (with its address space)."""
        raise NotImplementedError

    def binding_tail(self, names) -> list:
        """Parameters after all the bindings' (OpenCL: their byte offsets)."""
        return []

    def constant_word(self, word: int) -> str:
        """C expression of 32-bit push-constant word ``word``."""
        return f"c{word}"

    def constant_params(self, words: int) -> list:
        """Parameters carrying ``words`` push-constant words."""
        return []

    def bitcast_f32(self, bits: str) -> str:
        """A float from the 32-bit pattern ``bits``."""
        raise NotImplementedError(f"{type(self).__name__} has no f32 bit cast")

    def bitcast_f64(self, bits: str) -> str:
        """A double from the 64-bit pattern ``bits``."""
        raise NotImplementedError(f"{type(self).__name__} has no f64 bit cast")

    def entry_checks(self, kernel) -> list:
        """Statements after the bindings (the CPU checks dynamic-shape bindings)."""
        return []

    def each_workgroup(self) -> list:
        """Lines opening the block a sequential program runs in, once per
        workgroup (``workgroup`` names it), on one item."""
        raise NotImplementedError

    def first_item(self) -> list:
        """Lines opening the block that runs once per dispatch (a kernel
        with a scalar output)."""
        raise NotImplementedError

    # -- helpers -------------------------------------------------------------------------
    def helpers(self, needs_f64: bool) -> str:
        """scalar.HELPERS with this target's replacements and qualifier;
        without f64, the helpers in ``f64_only`` (and what uses them) are
        left out."""
        overrides = self.helper_overrides()
        chunks = []
        for chunk in helper_chunks(scalar.HELPERS):
            name = helper_name(chunk)
            if name is not None and name in overrides:
                chunk = overrides[name]
                if chunk is None:
                    continue
            chunks.append((name or _typedef_name(chunk), chunk))
        if not needs_f64:
            dropped = {n for n, c in chunks if n in self.f64_only}
            while True:
                more = {n for n, c in chunks if n and n not in dropped
                        and any(re.search(rf"\b{d}\b", c) for d in dropped)}
                if not more:
                    break
                dropped |= more
            chunks = [(n, c) for n, c in chunks if n not in dropped]
        out = [c.replace("static inline", self.helper_qualifier, 1)
               if c.startswith("static inline") else c for _, c in chunks]
        return "\n".join(out) + "\n"

    # -- bindings and push constants -----------------------------------------------------
    def params(self, kernel, em: BodyEmitter):
        """(parameter list, set-up statements) binding pointers b<k> / o<j>,
        push constants pc<k> and shape symbols (i64 push constants after
        the scalar ones, 32-bit words low word first)."""
        gs = self.global_space
        names = []
        for k, v in enumerate(kernel.inputs):
            em.bindings[v] = f"b{k}"
            names.append((f"b{k}", f"{gs}const {storage(v)}*"))
        for j, v in enumerate(kernel.outputs):
            names.append((f"o{j}", f"{gs}{storage(v)}*"))
        params, setup = [], []
        for k, (name, pointer) in enumerate(names):
            p, s = self.binding(k, name, pointer)
            params += p
            setup += s
        params += self.binding_tail(names)
        word = 0
        for k, v in enumerate(getattr(kernel, "constants", None) or ()):
            el = v.type.element
            setup.append(self.push_constant_decl(f"pc{k}", el, word))
            em.bind(v, (), f"pc{k}")
            word += 2 if el in WIDE else 1
        for sym in kernel.dims:
            setup.append(self.push_constant_decl(str(sym), "i64", word))
            word += 2
        return params + self.constant_params(word), setup + self.entry_checks(kernel)

    def push_constant_decl(self, name: str, element: str, word: int) -> str:
        """C declaration of push constant ``name`` of ``element`` at ``word``."""
        return f"  const {scalar.ctype(element)} {name} = {self.push_constant(element, word)};"

    def push_constant(self, element: str, word: int) -> str:
        """Expression for a push constant of ``element`` at 32-bit word ``word``."""
        w = self.constant_word(word)
        if element in WIDE:
            bits = f"(((uint64_t){self.constant_word(word + 1)} << 32) | (uint64_t){w})"
            return self.bitcast_f64(bits) if element == "f64" else f"(({scalar.ctype(element)}){bits})"
        if element == "f32":
            return self.bitcast_f32(w)
        if element in ("f16", "bf16"):
            return f"tvm_{element}_to_f32((uint16_t){w})"
        return f"(({scalar.ctype(element)}){w})"

    # -- plans -----------------------------------------------------------------------------
    def render_kernel(self, kernel):
        """(file-scope declarations, kernel source, workgroup count)."""
        if kernel.kind == "custom":
            return self.render_custom(kernel)
        if kernel.kind == "attention":
            return self.render_attention(kernel)
        if kernel.kind not in ("loop", "contraction"):
            return self.render_sequential(kernel)
        if kernel.convolution is not None:
            return self.render_convolution(kernel)
        if kernel.contraction is not None:
            return self.render_contraction(kernel)
        return self.render_loop(kernel)

    def render_custom(self, kernel):
        """A user kernel (custom_kernels.py): its source at file scope (once,
        however many calls use it) and an entry point calling its function
        with one pointer per binding, inputs then outputs; the function reads
        its workgroup from the target's index built-ins."""
        ck = kernel.custom
        em = self.emitter({}, indent=2)
        params, setup = self.params(kernel, em)
        args = [f"b{k}" for k in range(len(kernel.inputs))] + \
            [f"o{j}" for j in range(len(kernel.outputs))]
        src = f"/* custom kernel '{ck.name}' */\n{ck.source(self.name)}"
        out = [self.header(kernel, params), *setup, f"  {ck.entry}({', '.join(args)});", "}"]
        return [src], "\n".join(out), ck.workgroup_count()

    def render_convolution(self, kernel):
        raise NotImplementedError

    def render_contraction(self, kernel):
        raise NotImplementedError

    def render_loop(self, kernel):
        raise NotImplementedError

    def render_attention(self, kernel):
        """A fused attention (codegen/attention.py): each workgroup's query
        rows walked with the online softmax, one item per workgroup."""
        from .attention import render_plain
        return render_plain(self, kernel)

    def render_sequential(self, kernel):
        """Sequential kinds (sequential.py): one item per workgroup runs the
        workgroup's sequential program."""
        from .sequential import emit_sequential
        em = self.emitter({}, indent=2)
        params, setup = self.params(kernel, em)
        count = emit_sequential(kernel, em, self.workgroup,
                                [f"o{j}" for j in range(len(kernel.outputs))])
        out = [self.header(kernel, params)] + setup + self.each_workgroup()
        return em.decls, "\n".join(out + em.lines + ["  }", *self.kernel_end]), count

    def render_scalar_loop(self, kernel, em, head: list, count):
        """A loop kernel with a 0-d output: one item computes it."""
        em.depth = 2
        vals = [em.value(v, ()) for v in kernel.outputs]
        out = head + self.first_item() + em.lines
        out += ["    " + s for s in output_stores(em, kernel, vals, "0")]
        return em.decls, "\n".join(out + ["  }", *self.kernel_end]), count

    # -- whole program ---------------------------------------------------------------------
    def program_decls(self, rendered) -> list:
        """The file-scope declarations of rendered kernels, each once (a
        custom kernel called twice: its source once), tables in this
        target's address space."""
        decls = []
        for d in rendered:
            decls += [x for x in (y.replace("static const ", self.table_prefix, 1) for y in d)
                      if x not in decls]
        return decls


class ContractionOperands(NamedTuple):
    """What every contraction plan reads off ``kernel.contraction``: the C
    type products accumulate in, the operands' pointer names, the lhs (m, k)
    and rhs (k, n) element strides, the B*M output rows, and the C type the
    operands are stored as (``st``: 16 bits for f16/bf16, read through
    ``load``)."""
    ct: str
    lhs: str
    rhs: str
    lsm: object
    lsk: object
    rsk: object
    rsn: object
    rows: object
    st: str
    element: str

    def load(self, expr: str) -> str:
        """``expr`` (an operand element) as the accumulator type."""
        return BodyEmitter.load_expr(self.element, expr)

    @property
    def narrow(self) -> bool:
        return self.st != self.ct


def contraction_operands(c, em) -> ContractionOperands:
    """ContractionOperands of contraction ``c`` whose bindings ``em`` names."""
    (_, lsm, lsk), (_, rsk, rsn) = c.lhs_strides, c.rhs_strides
    el = c.operand_element
    return ContractionOperands(scalar.ctype(c.accumulator_element), em.bindings[c.lhs],
                               em.bindings[c.rhs], lsm, lsk, rsk, rsn, c.B * c.M,
                               scalar.STORAGE_TYPE[el], el)


def output_stores(em, kernel, vals, at: str) -> list:
    """Statements storing each output ``o<j>`` at element ``at`` (a C index)
    from its value expression in ``vals`` (in the output's storage type)."""
    return [f"o{j}[{at}] = {em.store_expr(v.type.element, e)};"
            for j, (v, e) in enumerate(zip(kernel.outputs, vals))]


def renderer(target: str) -> CStyleRenderer:
    """The renderer of ``target`` ("cpu", "opencl" or "cuda")."""
    if target == "cpu":
        from .cpu import CpuRenderer
        return CpuRenderer()
    if target == "opencl":
        from .opencl import TARGET
        return TARGET
    if target == "cuda":
        from .cuda import TARGET
        return TARGET
    from ..errors import CompileError
    raise CompileError(f"no C-style renderer for target '{target}'")


def convolution_epilogue(em, kernel, n: str, oh: str, ow: str, oc: str, acc: str) -> list:
    """Statements storing a direct convolution's output at (``n``, ``oh``,
    ``ow``, ``oc``) (C expressions) from the accumulator ``acc``, the fused
    elementwise epilogue pulled through ``em`` on the way (conv.py's output
    dims say which index is which)."""
    c = kernel.convolution
    where = {c.out_dims[0]: n, c.out_dims[2]: ow, c.out_dims[3]: oc}
    if c.out_dims[1] is not None:
        where[c.out_dims[1]] = oh
    idx = tuple(f"e{k}" for k in range(len(kernel.shape)))
    store = fused_store(em, kernel, c.op.result, idx, acc)
    return ([f"const int64_t e{k} = {where[k]};" for k in range(len(idx))]
            + [line.strip() for line in em.lines] + [store])


def workgroup_tile(wg: str, p: str, rpw, rows, chunk, chunks, inner) -> list:
    """C declarations of the tile of loop-kernel workgroup ``wg`` under
    kernel.workgroup_plan: rows [<p>r0, <p>r1) of the output's leading
    dims, columns [<p>c0, <p>c1) of its last."""
    return [f"const int64_t {p}r0 = (int64_t)({wg} / {chunks}) * {rpw};",
            f"const int64_t {p}r1 = {p}r0 + {rpw} < {rows} ? {p}r0 + {rpw} : {rows};",
            f"const int64_t {p}c0 = (int64_t)({wg} % {chunks}) * {chunk};",
            f"const int64_t {p}c1 = {p}c0 + {chunk} < {inner} ? {p}c0 + {chunk} : {inner};"]


def helper_chunks(text: str) -> list:
    """Top-level items of C helper text: each starts at a ``static inline``
    or ``typedef`` line and runs to the next one."""
    out = []
    for line in text.splitlines():
        if line.startswith(("static inline", "typedef")) or not out:
            out.append(line)
        else:
            out[-1] += "\n" + line
    return out


def helper_name(chunk: str):
    """The function a helper chunk defines (``tvm_*``), else None."""
    m = _HELPER.match(chunk)
    return m.group(1) if m else None


def _typedef_name(chunk: str):
    m = re.match(r"typedef\b.*?(\w+)\s*;\s*$", chunk.split("\n")[0])
    return m.group(1) if m and chunk.startswith("typedef") else None


def storage(v) -> str:
    """The C type a binding of ``v`` holds elements in."""
    el = v.type.element
    return scalar.STORAGE_TYPE.get(el) or scalar.ctype(el)
