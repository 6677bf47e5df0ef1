"""Errors the compiler raises for bad or unsupported input."""


class CompileError(Exception):
    """The input cannot be compiled; the message says why."""


class ParseError(CompileError):
    """Malformed MLIR text, with the 1-based line and column of the problem."""

    def __init__(self, message: str, line: int, column: int, file: str = "<input>"):
        super().__init__(f"{file}:{line}:{column}: error: {message}")
        self.line = line
        self.column = column
        self.file = file
        self.reason = message


class UnsupportedOpError(CompileError):
    """An op (or op variant) tensorvm does not compile yet."""

    def __init__(self, op_name: str, detail: str = "", location=None):
        where = f"{location}: " if location is not None else ""
        msg = f"{where}unsupported op '{op_name}'" + (f": {detail}" if detail else "")
        super().__init__(msg)
        self.op_name, self.detail, self.location = op_name, detail, location
