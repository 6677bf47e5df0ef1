"""Errors for defective .vmfb files and bytecode."""


class VmfbError(ValueError):
    """A .vmfb file (or bytes claiming to be one) is malformed or damaged."""


class IntegrityError(VmfbError):
    """A module's bytes do not have the SHA-256 digest the caller pinned."""


class VerificationError(VmfbError):
    """Bytecode failed load-time verification."""

    def __init__(self, message: str, function: str | None = None, pc: int | None = None):
        where = ""
        if function is not None:
            where = f"in function '{function}'" + (f" at pc {pc}" if pc is not None else "") + ": "
        super().__init__(where + message)
        self.function = function
        self.pc = pc


class AssemblyError(VmfbError):
    """VM assembly text is malformed; ``line`` and ``column`` are 1-based."""

    def __init__(self, message: str, line: int | None = None, column: int | None = None):
        where = f"line {line}:{column}: " if line is not None else ""
        super().__init__(where + message)
        self.message, self.line, self.column = message, line, column
