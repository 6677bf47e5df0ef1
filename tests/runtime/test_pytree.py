"""runtime/pytree.py: the frontends' nesting, flattened and rebuilt without jax,
and a malformed nesting in a module refused when it loads."""
from __future__ import annotations

import pytest

from tensorvm.runtime import InvalidArgumentError, pytree

LEAF = {"t": "leaf"}
SPEC = {"t": "tuple", "c": [{"t": "dict", "k": ["w", "b"], "c": [LEAF, LEAF]},
                            {"t": "list", "c": [LEAF, {"t": "none"}]},
                            {"t": "namedtuple", "name": "P", "k": ["x", "y"], "c": [LEAF, LEAF]}]}


def test_flatten_in_spec_order_and_rebuild():
    value = ({"b": 2, "w": 1}, [3, None], (4, 5))
    flat = pytree.flatten(SPEC, value, [])
    assert flat == [1, 2, 3, 4, 5] and pytree.check(SPEC) == 5
    again = pytree.unflatten(SPEC, iter(flat))
    assert again[0] == {"w": 1, "b": 2} and again[1] == [3, None]
    assert again[2].x == 4 and type(again[2]).__name__ == "P" and again[2]._fields == ("x", "y")


@pytest.mark.parametrize("value, message", [
    (({"w": 1}, [3, None], (4, 5)), r"args\[0\]: dict keys differ .*missing \['b'\]"),
    (({"w": 1, "b": 2}, [3], (4, 5)), r"args\[1\]: expected a list of 2 items, got 1"),
    (({"w": 1, "b": 2}, [3, 0], (4, 5)), r"args\[1\]\[1\]: expected None"),
    (([1, 2], [3, None], (4, 5)), r"args\[0\]: expected a dict"),
])
def test_wrong_nesting_names_the_place(value, message):
    with pytest.raises(InvalidArgumentError, match=message):
        pytree.flatten(SPEC, value, [])


@pytest.mark.parametrize("bad", [{"t": "set"}, {"t": "tuple"}, {"t": "dict", "k": ["a"], "c": []},
                                 [LEAF]])
def test_check_refuses_malformed_specs(bad):
    with pytest.raises(ValueError):
        pytree.check(bad)


def test_a_module_whose_nesting_disagrees_with_its_signature_does_not_load():
    from tensorvm.compiler import compile_str
    from tensorvm.runtime import load_module
    text = ("func.func @main(%a: tensor<2xf32>, %b: tensor<2xf32>) -> tensor<2xf32> {\n"
            "  %0 = stablehlo.add %a, %b : tensor<2xf32>\n  return %0 : tensor<2xf32>\n}\n")
    vmfb = compile_str(text, reflection={"main": {"pytree_args": {"t": "tuple", "c": [LEAF]}}})
    with pytest.raises(Exception, match="pytree_args holds 1 leaves but the signature has 2"):
        load_module(vmfb, verify="eager")
    ok = compile_str(text, reflection={"main": {"pytree_args": {
        "t": "tuple", "c": [{"t": "list", "c": [LEAF, LEAF]}]}}})
    import numpy as np
    out = load_module(ok).main([np.ones(2, np.float32), np.full(2, 2.0, np.float32)])
    assert np.asarray(out).tolist() == [3.0, 3.0]


def test_render_shows_the_nesting():
    text = pytree.render(SPEC, iter(["a", "b", "c", "d", "e"]))
    assert text == "({'w': a, 'b': b}, [c, None], P(x=d, y=e))"
    assert pytree.render({"t": "tuple", "c": [LEAF]}, iter(["x"])) == "(x,)"
