"""``OpDef``: the declaration of one op, and the trait vocabulary it uses.

Each dialect module (``dialects/stablehlo/<family>.py``, ``dialects/chlo.py``,
``dialects/func.py``) declares its ops as a tuple ``OPS`` of ``op(...)``
calls next to the functions that check them; ``dialects/registry.py``
collects them.  Everything the compiler knows about an op that is not the
op's own emitter code is a field here, so passes, the verifier and codegen
ask the declaration instead of keeping op lists of their own.

Fields:

- ``lowering``: how the op reaches code.
  ``elementwise``  one scalar expression per element (codegen/scalar.py,
                   codegen/body.py); ``arity`` is its operand count for the
                   scalar emitter (None: map and reduce_precision, which carry
                   their own emitters).
  ``structured``   a loop-kernel op; ``fusion`` says how dispatch formation
                   treats it: ``index_remap`` (fuses into consumers as index
                   arithmetic), ``heavy`` (roots its own dispatch unless taken
                   as an epilogue), ``sequential`` (a sequential workgroup
                   program writing its outputs; codegen/sequential.py),
                   ``constant``.
  ``host``         control flow, calls, tuples, custom calls, collectives and
                   shape queries: run by the host program, never a kernel.
  ``decomposed``   rewritten into other ops before dispatch
                   (passes/canonicalize.py, passes/decompose*.py); ``reason``
                   says into what.
  ``rejected``     compiling it raises ``UnsupportedOpError`` naming the op;
                   ``reason`` says why.
- ``operands`` / ``results``: exact counts the verifier checks (None: not
  checked by count); ``min_operands``: the fewest operands of a variadic op
  (such an op also needs a result).  ``regions``: a fixed region count the
  verifier checks, each with a body (None: not checked); ``region_return``:
  region blocks end with ``stablehlo.return``.
- ``types``: ``same_element`` (a binary op whose operands and result share one
  element type, checked structurally) or ``keeps_element`` (the result keeps
  operand 0's element type).
- ``verify``: the spec's constraints, functions ``rule(op)`` run in order by
  ir/spec_checks.py; each raises a located ``CompileError``.
- ``structure``: checks of what codegen relies on (dims attributes present and
  inside the rank, operand counts), functions ``rule(verifier, op, func)``
  that ir/verifier.py runs after the spec's rules; ``verifier.symbols`` maps
  the module's symbols, ``func`` is the enclosing ``func.func``.
- ``elements``: the element-type family the spec allows for the operands:
  ``float_or_complex``, ``float``, ``integer`` (not i1) or ``int_or_bool``;
  ``same_type``: the spec's SameOperandsAndResultElementType (quantized types
  excepted); ``per_axis``: False where the spec allows only per-tensor
  quantization.
- ``quant``: how passes/quantized.py rewrites it on quantized values:
  ``carry`` (passes values through: returns, calls, tuples, control flow;
  results take the storage type), ``move`` (moves elements, so with one scale
  and zero point in and out it runs on the storage integers); an op whose
  ``elements`` are ``integer`` / ``int_or_bool`` is rejected on quantized
  values; the rest run on dequantized floats.
- ``complex_fn``: its complex form is ``tvm_c64_<fn>`` / ``tvm_c128_<fn>`` of
  codegen/complex_c.py.
- ``host_binary``: ``(integer, float)`` VM mnemonics (``add``, ``max`` ...;
  None where the element kind has none) of a binary op computed in host code
  (host/host_ops.py).
- ``host_unary``: the VM mnemonic of a unary op on integers in host code
  (``neg``, ``abs``).
- ``commutative``: a commutative binary op; the pretty ``reduce ... applies OP``
  form may name it (mlir/region_forms.py).
- ``keywords``: the ``key = value`` items of its pretty form, as
  ``(keyword, attribute, "dims" | "int" | "string")``: ``dims = [1, 0]`` is a
  dense i64 array, ``dim = 1`` an i64 integer, ``config = "ab->ba"`` a string.
  The parser accepts them (mlir/op_forms.py) and the printer writes them
  for ``pretty`` ops.
- ``syntax``: ``pretty`` (the default ``name operands attrs : types`` form
  prints and parses) or ``own`` (a form of its own, in mlir/op_forms.py /
  region_forms.py and ir/printer.py; the generic form always parses).
- ``parser``: the method of the MLIR parser (mlir/op_forms.py,
  region_forms.py) that reads its pretty form when that form is its own.
- ``bare_name``: the name its pretty form may be written with, without the
  dialect prefix (func's ``return``, ``call``).
- ``host_value``: small results of this op may be computed on the host
  (passes/host_values.py).
- ``shape``: its result-dims rule ``rule(S, op)`` for the symbolic shape
  analysis (passes/shapes.py), beside the op in its family module or shared
  in dialects/dims.py (``dims_elementwise``, ``dims_same_as_first``,
  ``dims_declared``, ``dims_from_operand(i)``); None: ``dims_generic``.
- ``fold``: ``(numpy ufunc name, "float" | "int" | "float+int")``: constant
  operands of these element kinds fold exactly (passes/fold.py).
- ``int_attrs``: the dialect's constrained integer attributes
  (``ConfinedAttr<I64Attr, [IntPositive]>`` ...), as ``(attribute, bits,
  "positive" | "non-negative")``, checked with the dialect's message.
- ``unranked``: which operands may be unranked tensors (``tensor<*xT>``):
  ``ANY`` for all of them, or a tuple of operand indices; the results of such
  an op may be unranked too.  Every other op takes ranked tensors.
- ``terminator``: the op has MLIR's ``Terminator`` trait.
- ``in_td``: False for names the dialect files do not define (func ops, and
  ``stablehlo.atan``, accepted as CHLO's atan).
- ``identity``: the element ``k`` with ``x op k == x`` of a binary op (add,
  or, xor: 0; multiply: 1; and: -1, all ones): a reduction tree of a combiner
  that is not idempotent starts its partial results from it, and
  passes/fold.py drops an operand that is a splat of it.
- ``noop``: ``rule(op) -> bool``: whether ``op``, whose result type equals
  operand 0's, copies operand 0 unchanged (an identity permutation, a pad of
  zeros); passes/fold.py replaces such an op by its operand.
- ``traits``: facts passes and codegen ask by name (``registry.has(name,
  TRAIT)``, ``registry.with_trait(TRAIT)``), one of ``TRAITS``:
  ``idempotent``   ``x op x == x``: a reduction may combine an element twice
                   and needs no identity (max, min, and, or).
  ``order_pick``   the result is the operand that orders first (max, min).
  ``loop`` / ``branch``  host control flow with regions (while / if, case).
  ``alias``        the result is operand 0's elements in order under another
                   shape: it shares operand 0's buffer (reshape, dynamic_reshape).
  ``view``         a kernel reads the result as a strided view of operand 0
                   (transpose, broadcast_in_dim, reshape).
  ``broadcast``    repeats operand 0's elements into a larger shape.
  ``strided_operands``  its loop nest reads operands through strides, so a
                   view of a buffer needs no copy (dot_general, convolution).
  ``native_scalar``  a native loop evaluates it on host scalars in C
                   (host/native_loop_c.py ``scalar_expr``).
  ``reducer``      combines operand elements with its region's body
                   (reduce, reduce_window).
  ``pure_regions`` has regions yet is a pure function of its operands and
                   regions: two with equal operands and regions are one
                   (passes/simplify.py).
  ``effectful``    has effects beyond its results, never removed unused.
  ``scalar_operands``  an elementwise op the spec lets take rank-0 operands
                   beside full tensors (select's predicate, clamp's bounds).
  ``conditional``  its C form compares or chooses (compare, select, clamp):
                   GCC 12's if-conversion is kept off around it in a
                   contraction (codegen/cpu.py ``if_convert_guard``).
  ``selection``    a variadic reduce's argmax-style selection body may be
                   made of it (compare, select, and, or, not;
                   codegen/lane_reduce.py).
  ``exact_float``  a float result is an operand's value up to its sign, so
                   exact in any float type: kernels computing f16/bf16/f8 in
                   f32 skip the rounding after it (abs, negate, max, min;
                   codegen/body.py).
- ``shape_operands``: the operand positions that only carry shapes or window
  parameters (read on the host; passes/shapes.py).
- ``static_form``: for a dynamic op, ``(static op, operands kept, {operand
  index: attribute})``: with those operands constant it is the static op
  with them as attributes (passes/canonicalize.py).
- ``broadcasts``: a CHLO ``broadcast_*`` op's elementwise op, applied after
  broadcasting its operands to one shape (passes/decompose.py).
- ``pull``: ``"module:function"``: the function of
  ``compiler/codegen/<module>.py`` that computes one element of the result
  from pulled operand elements (``fn(em, op, idx)``; codegen/pull_ops.py
  ``lower`` calls it).
- ``program``: for a ``sequential`` op, ``"module:function"`` of
  ``compiler/codegen/``: the emitter of its workgroup program
  (``fn(kernel, em, wg, outs)``; codegen/sequential.py).
- ``rewrite``: for a ``decomposed`` op, ``"module:function"``: the function
  of ``compiler/passes/<module>.py`` that rewrites it (``fn(op)`` returns
  the replacing values; passes/decompose.py ``decompose`` calls it).
- ``c_fn``: the C function computing it on real (floating-point) elements:
  a math.h name (``sqrt``; ``sqrtf`` on float) or, starting ``tvm_``, a
  helper of codegen/special_c.py evaluated in double.
- ``recompute``: what recomputing it per element costs
  (passes/recompute_costs.py): ``cheap`` (a few instructions: recomputed
  under any broadcast), ``vector`` (costly, but vector code on f64 too),
  ``scalar_call`` (a scalar libm call per element on the CPU); None: costly,
  vectorised on f32 only.
- ``c_infix``: the C operator of a binary op on integers and floats
  (``+ - * / % & | ^``; the emitters add wrapping and division by zero).
- ``atomic``: the device atomic read-modify-write that applies a combiner to
  a 32-bit integer in memory (``add``, ``min``, ``max``, ``and``, ``or``,
  ``xor``: OpenCL ``atomic_<name>``, CUDA ``atomic<Name>``); a parallel
  scatter uses it instead of a compare-and-swap loop (codegen/gpu_scatter.py).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

ELEMENTWISE, STRUCTURED, HOST, DECOMPOSED, REJECTED = (
    "elementwise", "structured", "host", "decomposed", "rejected")
LOWERINGS = (ELEMENTWISE, STRUCTURED, HOST, DECOMPOSED, REJECTED)
INDEX_REMAP, HEAVY, SEQUENTIAL, CONSTANT = "index_remap", "heavy", "sequential", "constant"
SAME_ELEMENT, KEEPS_ELEMENT = "same_element", "keeps_element"
PRETTY, OWN = "pretty", "own"
ANY = "any"
POSITIVE, NON_NEGATIVE = "positive", "non-negative"
FLOAT_OR_COMPLEX, FLOAT, INTEGER, INT_OR_BOOL = "float_or_complex", "float", "integer", "int_or_bool"
ELEMENT_FAMILIES = (FLOAT_OR_COMPLEX, FLOAT, INTEGER, INT_OR_BOOL)
CARRY, MOVE = "carry", "move"
CHEAP, VECTOR, SCALAR_CALL = "cheap", "vector", "scalar_call"
IDEMPOTENT, ORDER_PICK, LOOP, BRANCH, ALIAS, VIEW, BROADCAST, STRIDED, NATIVE_SCALAR = (
    "idempotent", "order_pick", "loop", "branch", "alias", "view", "broadcast", "strided_operands",
    "native_scalar")
REDUCER, PURE_REGIONS, EFFECTFUL, SCALAR_OPERANDS, CONDITIONAL, SELECTION, EXACT_FLOAT = (
    "reducer", "pure_regions", "effectful", "scalar_operands", "conditional", "selection", "exact_float")
TRAITS = frozenset((IDEMPOTENT, ORDER_PICK, LOOP, BRANCH, ALIAS, VIEW, BROADCAST, STRIDED, NATIVE_SCALAR,
                    REDUCER, PURE_REGIONS, EFFECTFUL, SCALAR_OPERANDS, CONDITIONAL, SELECTION, EXACT_FLOAT))


@dataclass(frozen=True)
class OpDef:
    name: str
    lowering: str
    arity: Optional[int] = None
    fusion: Optional[str] = None
    operands: Optional[int] = None
    results: Optional[int] = None
    min_operands: Optional[int] = None
    regions: Optional[int] = None
    region_return: bool = False
    types: Optional[str] = None
    verify: tuple = ()
    structure: tuple = ()
    elements: Optional[str] = None
    same_type: bool = False
    per_axis: bool = True
    quant: Optional[str] = None
    complex_fn: Optional[str] = None
    host_binary: Optional[tuple] = None
    host_unary: Optional[str] = None
    commutative: bool = False
    keywords: tuple = ()
    syntax: str = PRETTY
    host_value: bool = False
    shape: Optional[object] = None
    fold: Optional[tuple] = None
    reason: str = ""
    int_attrs: tuple = ()
    unranked: object = ()
    terminator: bool = False
    in_td: bool = True
    identity: Optional[int] = None
    traits: frozenset = frozenset()
    noop: Optional[object] = None
    c_fn: Optional[str] = None
    c_infix: Optional[str] = None
    atomic: Optional[str] = None
    recompute: Optional[str] = None
    shape_operands: tuple = ()
    static_form: Optional[tuple] = None
    broadcasts: Optional[str] = None
    rewrite: Optional[str] = None
    pull: Optional[str] = None
    program: Optional[str] = None
    parser: Optional[str] = None
    bare_name: Optional[str] = None

    def __post_init__(self):
        object.__setattr__(self, "traits", frozenset(self.traits))
        if self.recompute not in (None, CHEAP, VECTOR, SCALAR_CALL):
            raise ValueError(f"{self.name}: recompute is cheap, vector, scalar_call or None")
        if self.shape is not None and not callable(self.shape):
            raise ValueError(f"{self.name}: shape is a rule(S, op)")
        if self.noop is not None and not callable(self.noop):
            raise ValueError(f"{self.name}: noop is a rule(op) -> bool")

        if not self.traits <= TRAITS:
            raise ValueError(f"{self.name}: unknown traits {sorted(self.traits - TRAITS)}")
        if self.lowering not in LOWERINGS:
            raise ValueError(f"{self.name}: unknown lowering {self.lowering!r}")
        if (self.fusion is not None) != (self.lowering == STRUCTURED):
            raise ValueError(f"{self.name}: fusion is for structured ops only, and required there")
        if self.lowering in (DECOMPOSED, REJECTED) and not self.reason:
            raise ValueError(f"{self.name}: a {self.lowering} op needs a reason")
        for attr, bits, pred in self.int_attrs:
            if bits not in (32, 64) or pred not in (POSITIVE, NON_NEGATIVE):
                raise ValueError(f"{self.name}: bad int_attrs entry for {attr}")
        if self.unranked != ANY and not isinstance(self.unranked, tuple):
            raise ValueError(f"{self.name}: unranked is ANY or a tuple of operand indices")
        if self.elements is not None and self.elements not in ELEMENT_FAMILIES:
            raise ValueError(f"{self.name}: unknown element family {self.elements!r}")
        if self.quant not in (None, CARRY, MOVE):
            raise ValueError(f"{self.name}: quant is carry, move or None")
        for field in ("verify", "structure"):
            rules = getattr(self, field)
            if not isinstance(rules, tuple) or not all(map(callable, rules)):
                raise ValueError(f"{self.name}: {field} is a tuple of rules")


defop = OpDef


def select(decls, **where) -> frozenset:
    """Names of the declarations whose fields equal ``where``
    (``select(OPS, lowering=HOST)``)."""
    return frozenset(d.name for d in decls if all(getattr(d, k) == v for k, v in where.items()))
