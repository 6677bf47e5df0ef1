"""tensorvm compiler: StableHLO text -> IR -> passes -> codegen -> .vmfb.

    from tensorvm import compiler
    vmfb = compiler.compile_str(mlir_text, targets=["cpu"])
"""
from .api import CompileOptions, compile_file, compile_module, compile_str  # noqa: F401
from .errors import CompileError, ParseError, UnsupportedOpError  # noqa: F401
from .custom_kernels import (CustomKernel, CustomKernelError, HostCall,  # noqa: F401
                             KernelSourceError)
