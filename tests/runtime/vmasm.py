"""Helpers for self-checking VM assembly tests.

``expand`` adds two pseudo-instructions to the assembly text:
``expect.<bank> %reg, <literal>`` (fail unless equal) and ``expect.nan.<f32|f64> %reg``.
``context_for`` assembles, verifies, lowers and links a program;
``exported_tests`` lists its ``test_*`` exports (pytest parametrises over them).
"""
from __future__ import annotations

import re

from tensorvm.runtime.vm import BytecodeModule, Context
from tensorvm.vmfb.assembler import assemble

_EXPECT = re.compile(r"^(\s*)expect\.(i32|i64|f32|f64|ref)\s+(%[\w.]+)\s*,\s*(\S+)\s*$")
_EXPECT_NAN = re.compile(r"^(\s*)expect\.nan\.(f32|f64)\s+(%[\w.]+)\s*$")


def expand(text: str) -> str:
    out, n = [], 0
    for line in text.splitlines():
        m, mn = _EXPECT.match(line), _EXPECT_NAN.match(line)
        if m:
            ind, bank, reg, lit = m.groups()
            n += 1
            out += [f"{ind}%__want_{bank} = const.{bank} {lit}",
                    f"{ind}%__bad = cmp.ne.{bank} {reg}, %__want_{bank}",
                    f'{ind}fail %__bad, "check {n}: {reg} != {lit}"']
        elif mn:
            ind, bank, reg = mn.groups()
            n += 1
            out += [f"{ind}%__isnan = cmp.nan.{bank} {reg}",
                    f"{ind}%__zero = const.i32 0",
                    f"{ind}%__bad = cmp.eq.i32 %__isnan, %__zero",
                    f'{ind}fail %__bad, "check {n}: {reg} is not NaN"']
        else:
            out.append(line)
    return "\n".join(out)


def module_for(text: str) -> BytecodeModule:
    return BytecodeModule.from_def(assemble(expand(text)))


def context_for(text: str, natives=(), **kw) -> Context:
    return Context(list(natives) + [module_for(text)], **kw)


def exported_tests(text: str) -> list:
    return [f.name for f in assemble(expand(text)).functions
            if f.exported and f.name.startswith("test_")]
