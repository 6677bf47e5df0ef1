"""Module-level compile errors carry a file:line:col location too."""
from __future__ import annotations

import pytest

from tensorvm.compiler.api import compile_str
from tensorvm.compiler.errors import CompileError


@pytest.mark.parametrize("text, where", [
    ("func.func private @f(%x: tensor<f32>) -> tensor<f32> {\n  return %x : tensor<f32>\n}", "<input>:1:1:"),
    ("\n\nmodule {\n}", "<input>:3:1:"),
    ("", "<input>:1:1:"),
])
def test_no_public_function_is_located(text, where):
    with pytest.raises(CompileError, match="no public function") as e:
        compile_str(text)
    assert str(e.value).startswith(where)
