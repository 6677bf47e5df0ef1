"""Randomly mutated bytecode: whatever passes the verifier may only trap (VmTrap).

Mutants with backward branches, backward yields or calls are skipped so each
run terminates; everything else (bad registers, wild indices, type confusion
of refs) must be rejected at load or trap cleanly at run time.
"""
import random
from dataclasses import replace

import pytest

from tensorvm.runtime.errors import VmTrap
from tensorvm.runtime.vm import BytecodeModule, Context
from tensorvm.vmfb.assembler import assemble
from tensorvm.vmfb.bytecode import decode_function
from tensorvm.vmfb.errors import VmfbError

from vmasm import expand
import test_vm_arith
import test_vm_control

_ZERO = {"i": 0, "I": 0, "f": 0.0, "F": 0.0, "r": None}


def _terminates(code) -> bool:
    for ins in decode_function(code):
        if ins.op.mnemonic == "call":
            return False
        for f, v in zip(ins.op.fields, ins.operands):
            if f.kind == "block" and v <= ins.pc:
                return False
    return True


@pytest.mark.parametrize("source", [test_vm_control.PROGRAM, test_vm_arith.INT_PROGRAM,
                                    test_vm_arith.FLOAT_PROGRAM], ids=["control", "int", "float"])
def test_mutants_only_trap(source):
    base = assemble(expand(source))
    rng = random.Random(1234)
    ran = 0
    for trial in range(600):
        k = rng.randrange(len(base.functions))
        code = bytearray(base.functions[k].code)
        for _ in range(rng.choice((1, 1, 2, 3))):
            code[rng.randrange(len(code))] = rng.randrange(256)
        functions = list(base.functions)
        functions[k] = replace(functions[k], code=bytes(code))
        mdef = replace(base, functions=functions)
        try:
            module = BytecodeModule.from_def(mdef)
        except VmfbError:
            continue
        if not _terminates(code):
            continue
        try:
            ctx = Context([module])
            fn = mdef.functions[k]
            if fn.exported and fn.name != "__init":
                sig = fn.signature.split("->")[0]
                ctx.invoke(fn.name, [_ZERO[c] for c in sig])
        except VmTrap as e:
            assert e.function is not None and e.pc is not None, e
            assert "internal error" not in e.message, e
        ran += 1
    assert ran > 20          # the mutants exercised the interpreter, not just the verifier
