"""User kernels and host calls behind ``stablehlo.custom_call @name``.

``compile_str(..., custom_kernels=[...])`` takes two kinds of declaration:

- ``CustomKernel``: device code the module carries.  ``c`` is C for the cpu
  target (a function with the generated kernels' ABI, see
  docs/custom_kernels.md), ``opencl`` is OpenCL C and ``cuda`` CUDA C (a
  device function taking the bindings as pointers).  Each custom_call
  becomes its own dispatch whose executable entry calls the user's function;
  ``workgroups`` is the dispatch's workgroup count: an int or an expression
  over the operand/result dims (``in0[0]``, ``out0[1]``) with ``+ - * // %``,
  ``cdiv(a, b)``, ``min``, ``max`` and ``size(in0)`` (element count).
- ``HostCall``: a Python function bound when the module is loaded
  (``load_module(..., custom_calls={name: fn})``): the module waits for the
  device, hands the operands over as numpy arrays and takes the results back.

Both declare the signature (operand and result tensor types, static shapes);
``bind`` checks every custom_call against it and raises
``CustomKernelError`` naming the call and what differs.
"""
from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field

from tensorvm.vmfb import source_check
from .errors import CompileError

#: Attribute names the binding pass puts on a custom_call.
KERNEL_ATTR, HOST_CALL_ATTR = "tvm.custom_kernel", "tvm.host_call"
_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_.]*$")
_C_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_TYPE = re.compile(r"^(?:tensor<)?((?:\d+x)*)([a-z][a-z0-9]*)>?$")


class CustomKernelError(CompileError):
    """A custom kernel or host call is missing, badly declared or called with
    a signature other than its declaration; ``name`` is the call target."""

    def __init__(self, name: str, message: str):
        super().__init__(f"custom call '{name}': {message}")
        self.name = name


class KernelSourceError(CustomKernelError):
    """A custom kernel's OpenCL C or CUDA C source has a construct that would
    make its compiler read another file (``#include`` however spelt) or that
    the trust model refuses (tensorvm.vmfb.source_check, docs/security.md):
    ``target`` ("opencl"/"cuda"), ``reason`` and ``line`` say which."""

    def __init__(self, name: str, target: str, finding):
        super().__init__(name, f"the {target} source is refused (line {finding.line}): "
                         f"{finding.detail}; kernel sources must be self-contained "
                         f"(docs/security.md)")
        self.target, self.reason, self.line = target, finding.reason, finding.line


def tensor_spec(name: str, text) -> tuple:
    """``(shape tuple, element type)`` from ``"8x128xf32"`` / ``"tensor<8x128xf32>"``
    or a ``(shape, element)`` pair."""
    if isinstance(text, (tuple, list)) and len(text) == 2:
        shape, el = text
        if all(isinstance(d, int) and d >= 0 for d in shape) and isinstance(el, str):
            return tuple(shape), el
    elif isinstance(text, str):
        m = _TYPE.match(text.replace(" ", ""))
        if m:
            return tuple(int(d) for d in m.group(1).split("x") if d), m.group(2)
    raise CustomKernelError(name, f"bad tensor type {text!r}: want '8x128xf32' (static "
                            "dims) or ((8, 128), 'f32')")


def _text(t) -> str:
    return "tensor<" + "".join(f"{d}x" for d in t[0]) + t[1] + ">"


@dataclass
class _Declaration:
    name: str
    inputs: list
    outputs: list

    def __post_init__(self):
        if not isinstance(self.name, str) or not _NAME.match(self.name):
            raise CustomKernelError(str(self.name), "the name must be an identifier "
                                    "(letters, digits, '_' and '.')")
        self.inputs = [tensor_spec(self.name, t) for t in self.inputs]
        self.outputs = [tensor_spec(self.name, t) for t in self.outputs]
        if not self.outputs:
            raise CustomKernelError(self.name, "declares no results")

    @property
    def signature(self) -> str:
        return f"({', '.join(map(_text, self.inputs))}) -> ({', '.join(map(_text, self.outputs))})"

    def check_call(self, op) -> None:
        """Raise CustomKernelError when ``op``'s types differ from the declaration."""
        got_in = [(tuple(v.type.shape), v.type.element) for v in op.operands]
        got_out = [(tuple(v.type.shape), v.type.element) for v in op.results]
        if got_in != self.inputs or got_out != self.outputs:
            got = (f"({', '.join(map(_text, got_in))}) -> "
                   f"({', '.join(map(_text, got_out))})")
            where = f"{op.location}: " if op.location is not None else ""
            raise CustomKernelError(self.name, f"{where}called as {got} but declared as "
                                    f"{self.signature}")


@dataclass
class CustomKernel(_Declaration):
    """Device code for ``custom_call @name`` (see the module docstring)."""
    workgroups: object = 1
    c: str | None = None
    opencl: str | None = None
    cuda: str | None = None
    entry: str | None = None          # the user function's name (default: name)
    sources: dict = field(init=False, default_factory=dict)

    def __post_init__(self):
        super().__post_init__()
        self.entry = self.entry or self.name
        if not _C_NAME.match(self.entry) or self.entry.startswith("tvm_"):
            raise CustomKernelError(self.name, f"entry {self.entry!r} must be a C identifier "
                                    "not starting with 'tvm_' (pass entry=...)")
        self.sources = {t: s for t, s in (("cpu", self.c), ("opencl", self.opencl),
                                          ("cuda", self.cuda)) if s is not None}
        if not self.sources:
            raise CustomKernelError(self.name, "has no source: give c=, opencl= or cuda=")
        for t, s in self.sources.items():
            if not isinstance(s, str) or not re.search(rf"\b{re.escape(self.entry)}\s*\(", s):
                raise CustomKernelError(self.name, f"the {t} source does not define "
                                        f"'{self.entry}(...)'")
            self._check_source(t, s)
        self.workgroup_count()          # a bad expression fails at declaration

    def _check_source(self, target: str, text: str) -> None:
        """GPU sources are built by a compiler that would read any file an
        #include names: nvcc here, at compile time, for cuda; the device's
        OpenCL compiler at load for opencl (whose loader refuses it too)."""
        if target != "cpu":
            found = source_check.check(text)
            if found is not None:
                raise KernelSourceError(self.name, target, found)

    def source(self, target: str) -> str:
        s = self.sources.get(target)
        if s is None:
            raise CustomKernelError(self.name, f"has no kernel for target '{target}' (it has: "
                                    f"{', '.join(self.sources)}); give "
                                    f"{ {'cpu': 'c', 'opencl': 'opencl', 'cuda': 'cuda'}[target]}=")
        self._check_source(target, s)     # again: ``sources`` may have changed since
        return s

    def workgroup_count(self) -> int:
        w = self.workgroups
        if isinstance(w, bool) or not isinstance(w, (int, str)):
            raise CustomKernelError(self.name, f"workgroups must be an int or an expression "
                                    f"string, got {w!r}")
        n = w if isinstance(w, int) else _evaluate(self, w)
        if n < 0 or n >= 1 << 32:
            raise CustomKernelError(self.name, f"workgroup count {n} is outside [0, 2^32)")
        return n


@dataclass
class HostCall(_Declaration):
    """A Python function bound at load time for ``custom_call @name``."""


def _evaluate(decl, text: str) -> int:
    """The value of a workgroup-count expression (a restricted arithmetic AST)."""
    env = {f"in{i}": list(s) for i, (s, _) in enumerate(decl.inputs)}
    env.update({f"out{j}": list(s) for j, (s, _) in enumerate(decl.outputs)})

    def size(dims):
        n = 1
        for d in dims:
            n *= d
        return n
    funcs = {"cdiv": lambda a, b: -(-a // b), "min": min, "max": max, "size": size}
    ops = {ast.Add: lambda a, b: a + b, ast.Sub: lambda a, b: a - b,
           ast.Mult: lambda a, b: a * b, ast.FloorDiv: lambda a, b: a // b,
           ast.Mod: lambda a, b: a % b}

    def ev(node):
        if isinstance(node, ast.Expression):
            return ev(node.body)
        if isinstance(node, ast.Constant) and type(node.value) is int:
            return node.value
        if isinstance(node, ast.Name) and node.id in env:
            return env[node.id]
        if isinstance(node, ast.BinOp) and type(node.op) in ops:
            return ops[type(node.op)](ev(node.left), ev(node.right))
        if isinstance(node, ast.Subscript):
            return ev(node.value)[ev(node.slice)]
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                and node.func.id in funcs and not node.keywords):
            return funcs[node.func.id](*[ev(a) for a in node.args])
        raise ValueError(f"'{ast.unparse(node)}' is not allowed")
    try:
        value = ev(ast.parse(text, mode="eval"))
    except (SyntaxError, ValueError, IndexError, TypeError, ZeroDivisionError) as e:
        raise CustomKernelError(decl.name, f"workgroups {text!r}: {e} (names: "
                                f"{', '.join(env)}; functions: {', '.join(funcs)})") from None
    if type(value) is not int:
        raise CustomKernelError(decl.name, f"workgroups {text!r} is not an integer")
    return value


def registry(declarations) -> dict:
    """``{name: declaration}``; duplicate names or other objects are errors."""
    out = {}
    for d in declarations or ():
        if not isinstance(d, _Declaration):
            raise CompileError(f"custom_kernels takes CustomKernel / HostCall objects, got "
                               f"{type(d).__name__}")
        if d.name in out:
            raise CustomKernelError(d.name, "is declared twice")
        out[d.name] = d
    return out
