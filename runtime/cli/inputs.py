"""IREE-style ``--input`` / ``--output`` values for the CLIs.

    2x3xf32=1,2,3,4,5,6     shape x element type = values (row-major)
    f32=1.5                 a scalar
    4xi32                   zeros of that shape
    @x.npy                  a numpy file
    !stablehlo.token        a token argument (also: token)
"""
from __future__ import annotations

import re

import numpy as np

from tensorvm.vmfb import element_types


class InputError(ValueError):
    """A command-line value the user has to fix."""


_SPEC = re.compile(r"^((?:\d+x)*)([a-z0-9<>]+)(?:=(.*))?$", re.S)


TOKEN_SPECS = ("!stablehlo.token", "token")


def parse_input(spec: str) -> np.ndarray:
    if spec.strip() in TOKEN_SPECS:
        from tensorvm.runtime.host_queues import Token
        return Token()
    if spec.startswith("@"):
        path = spec[1:]
        try:
            return np.load(path, allow_pickle=False)
        except (OSError, ValueError) as e:
            raise InputError(f"--input={spec}: cannot read numpy file {path}: {e}") from None
    m = _SPEC.match(spec.strip())
    if m is None:
        raise InputError(f"--input={spec}: expected SHAPExTYPE=VALUES (e.g. 2x2xf32=1,2,3,4), "
                         "TYPE=VALUE or @file.npy")
    dims = tuple(int(d) for d in m.group(1).split("x") if d)
    etype = element_types.BY_NAME.get(m.group(2))
    if etype is None:
        raise InputError(f"--input={spec}: unknown element type '{m.group(2)}' (known: "
                         + ", ".join(t.name for t in element_types.ELEMENT_TYPES[:15]) + ")")
    dtype = element_types.numpy_dtype(etype)
    n = int(np.prod(dims)) if dims else 1
    text = m.group(3)
    if text is None or not text.strip():
        return np.zeros(dims, dtype)
    tokens = [t for t in re.split(r"[\s,\[\]]+", text.strip()) if t]
    try:
        if dtype == np.bool_:
            values = [t.lower() in ("1", "true") for t in tokens]
        else:
            values = [float(t) if dtype.kind in "fc" or "." in t or "e" in t.lower() else int(t, 0)
                      for t in tokens]
    except ValueError as e:
        raise InputError(f"--input={spec}: {e}") from None
    if len(values) == 1 and n != 1:
        values = values * n
    if len(values) != n:
        raise InputError(f"--input={spec}: {len(values)} values for shape {dims or '()'} "
                         f"which holds {n}")
    return np.array(values).astype(dtype).reshape(dims)


def format_array(a: np.ndarray) -> str:
    """IREE-like text: 2x2xf32=[1 2][3 4]."""
    et = element_types.from_numpy(a.dtype).name
    shape = "x".join(str(d) for d in a.shape)
    head = f"{shape}x{et}" if shape else et

    def rec(x):
        if x.ndim == 0:
            return str(x.item())
        if x.ndim == 1:
            return "[" + " ".join(str(v.item() if hasattr(v, "item") else v) for v in x) + "]"
        return "".join(rec(s) for s in x)
    return f"{head}={rec(a)}"
