"""The VM: verified bytecode modules, native modules, contexts, invocations."""
from .context import Context, FunctionHandle, ModuleInstance
from .interpreter import Invocation
from .module import BytecodeModule
from .native import NativeModule, Suspend

__all__ = ["BytecodeModule", "Context", "FunctionHandle", "Invocation", "ModuleInstance",
           "NativeModule", "Suspend"]
