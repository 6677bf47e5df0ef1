"""Parser unit tests: op forms, attributes, dense literals, errors."""
import numpy as np
import pytest

from tensorvm.compiler.errors import ParseError
from tensorvm.compiler.mlir import parse_module
from tensorvm.compiler.ir import attributes as A
from tensorvm.compiler.ir.types import TensorType, TokenType, TupleType


def ops(text):
    m = parse_module(text)
    return [op for op in m.walk() if op.name != "func.func"]


def one(body, sig="", results="()"):
    text = f"func.func @f({sig}) -> {results} {{\n{body}\n}}"
    (f,) = parse_module(text).functions
    return [op for op in f.regions[0].block.operations if op.name != "func.return"]


def test_module_and_function_structure():
    m = parse_module("""
    module @m attributes {mhlo.num_replicas = 1 : i32} {
      func.func public @main(%arg0: tensor<2xf32> {jax.arg_info = "x"}) -> (tensor<2xf32> {jax.result_info = ""}) {
        %0 = stablehlo.add %arg0, %arg0 : tensor<2xf32>
        return %0 : tensor<2xf32>
      }
      func.func private @g(tensor<f32>) -> tensor<f32>
    }""")
    assert m.name == "m" and m.attributes["mhlo.num_replicas"] == A.IntAttr(1, "i32")
    main, g = m.functions
    assert "sym_visibility" not in main.attributes
    assert g.attributes["sym_visibility"] == A.StringAttr("private")
    assert main.attributes["arg_attrs"].elements[0].entries["jax.arg_info"] == A.StringAttr("x")
    add, ret = main.regions[0].block.operations
    assert add.operands == [main.regions[0].block.arguments[0]] * 2
    assert ret.name == "func.return" and ret.operands == [add.result]
    assert add.location.line == 4 and add.location.column == 9
    assert not g.regions[0].blocks


def test_multi_results_and_hash_uses():
    body = """
    %c = stablehlo.constant dense<1.0> : tensor<f32>
    %0:2 = "test.two"(%c) : (tensor<f32>) -> (tensor<f32>, tensor<i32>)
    %a, %b = stablehlo.optimization_barrier %0#0, %0#1 : tensor<f32>, tensor<i32>
    %1 = stablehlo.add %a, %0#0 : tensor<f32>"""
    c, two, bar, add = one(body)
    assert bar.operands == two.results
    assert add.operands == [bar.results[0], two.results[0]]


def test_pretty_equals_generic_attribute_names():
    pretty = one("""
    %0 = stablehlo.broadcast_in_dim %x, dims = [1] : (tensor<3xf32>) -> tensor<2x3xf32>
    %1 = stablehlo.compare LT, %x, %x, FLOAT : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xi1>
    %2 = stablehlo.transpose %0, dims = [1, 0] : (tensor<2x3xf32>) -> tensor<3x2xf32>
    %3 = stablehlo.iota dim = 0 : tensor<3xf32>
    %4 = stablehlo.slice %x [0:2, ] : (tensor<3xf32>) -> tensor<2xf32>""".replace(", ]", "]"),
                 "%x: tensor<3xf32>")
    generic = one("""
    %0 = "stablehlo.broadcast_in_dim"(%x) <{broadcast_dimensions = array<i64: 1>}> : (tensor<3xf32>) -> tensor<2x3xf32>
    %1 = "stablehlo.compare"(%x, %x) {comparison_direction = #stablehlo<comparison_direction LT>, compare_type = #stablehlo<comparison_type FLOAT>} : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xi1>
    %2 = "stablehlo.transpose"(%0) {permutation = array<i64: 1, 0>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
    %3 = "stablehlo.iota"() {iota_dimension = 0 : i64} : () -> tensor<3xf32>
    %4 = "stablehlo.slice"(%x) {start_indices = array<i64: 0>, limit_indices = array<i64: 2>, strides = array<i64: 1>} : (tensor<3xf32>) -> tensor<2xf32>""",
                  "%x: tensor<3xf32>")
    for p, g in zip(pretty, generic):
        assert p.name == g.name and p.attributes == g.attributes, p.name


def test_reduce_applies_builds_body():
    (r,) = one("%0 = stablehlo.reduce(%x init: %i) applies stablehlo.add across dimensions = [0]"
               " : (tensor<4xf32>, tensor<f32>) -> tensor<f32>", "%x: tensor<4xf32>, %i: tensor<f32>")
    block = r.regions[0].block
    assert [str(a.type) for a in block.arguments] == ["tensor<f32>"] * 2
    assert [o.name for o in block.operations] == ["stablehlo.add", "stablehlo.return"]
    assert r.attributes["dimensions"] == A.DenseArrayAttr("i64", (0,))


def test_dot_general_and_convolution():
    dot, conv = one("""
    %0 = stablehlo.dot_general %a, %a, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [DEFAULT, HIGH] : (tensor<2x2x2xf32>, tensor<2x2x2xf32>) -> tensor<2x2x2xf32>
    %1 = stablehlo.convolution(%a, %a) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {stride = [2], pad = [[1, 0]], reverse = [false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x2x2xf32>, tensor<2x2x2xf32>) -> tensor<2x1x2xf32>
    """, "%a: tensor<2x2x2xf32>")
    dn = dot.attributes["dot_dimension_numbers"]
    assert dn.fields["lhs_batching_dimensions"] == (0,) and dn.fields["rhs_contracting_dimensions"] == (1,)
    assert dot.attributes["precision_config"].elements[1] == A.EnumAttr("stablehlo", "precision", "HIGH")
    cd = conv.attributes["dimension_numbers"].fields
    assert cd["input_batch_dimension"] == 0 and cd["input_feature_dimension"] == 2
    assert cd["kernel_input_feature_dimension"] == 1 and cd["kernel_spatial_dimensions"] == (0,)
    assert conv.attributes["padding"].array.tolist() == [[1, 0]]
    assert conv.attributes["window_reversal"] == A.DenseArrayAttr("i1", (False,))


def test_while_regions_take_iter_args():
    (w,) = one("""
    %r = stablehlo.while(%it = %x) : tensor<i64>
    cond {
      %c = stablehlo.compare LT, %it, %it : (tensor<i64>, tensor<i64>) -> tensor<i1>
      stablehlo.return %c : tensor<i1>
    } do {
      stablehlo.return %it : tensor<i64>
    }""", "%x: tensor<i64>")
    cond, body = w.regions
    assert cond.block.arguments[0].name == "it"
    assert body.block.operations[0].operands == [body.block.arguments[0]]


@pytest.mark.parametrize("literal,ty,expected", [
    ("dense<[[1, 2], [3, 4]]>", "tensor<2x2xi32>", [[1, 2], [3, 4]]),
    ("dense<7>", "tensor<3xui8>", [7, 7, 7]),
    ('dense<"0x0000803F00000040">', "tensor<2xf32>", [1.0, 2.0]),
    ('dense<"0x0000803F">', "tensor<2xf32>", [1.0, 1.0]),
    ("dense<[true, false]>", "tensor<2xi1>", [True, False]),
    ("dense<[(1.0, 2.0), (3.0, -4.0)]>", "tensor<2xcomplex<f32>>", [1 + 2j, 3 - 4j]),
    ("dense<[0x7FC00000, 1.5, 0x7F800000]>", "tensor<3xf32>", [np.nan, 1.5, np.inf]),
    ("dense<[0x7F80, -1.0]>", "tensor<2xbf16>", [np.inf, -1.0]),
    ("dense<18446744073709551615>", "tensor<ui64>", 18446744073709551615),
    ("dense<[1, -2]>", "tensor<2xi4>", [1, -2]),
    ("dense<[]>", "tensor<0xf32>", []),
])
def test_dense_literals(literal, ty, expected):
    (c,) = one(f"%0 = stablehlo.constant {literal} : {ty}")
    attr = c.attributes["value"]
    from tensorvm.compiler.ir.types import numpy_dtype
    assert attr.array.dtype == numpy_dtype(attr.type.element)
    assert attr.array.shape == attr.type.shape
    np.testing.assert_array_equal(attr.array.astype(np.complex128 if "complex" in ty else
                                                    (object if "ui64" in ty else np.float64)),
                                  np.array(expected, dtype=np.complex128 if "complex" in ty else
                                           (object if "ui64" in ty else np.float64)))


def test_types():
    (c,) = one('%0 = "test.t"() : () -> (tuple<tensor<?x3xf32>, !stablehlo.token>)')
    ty = c.results[0].type
    assert isinstance(ty, TupleType) and isinstance(ty.types[1], TokenType)
    assert ty.types[0] == TensorType((None, 3), "f32")
    (c,) = one('%0 = "test.t"() : () -> tensor<?x3xf32, #stablehlo.bounds<3, ?>>')
    assert c.results[0].type.encoding == A.OpaqueAttr("#stablehlo.bounds<3, ?>")


def test_locations_and_aliases_are_skipped():
    m = parse_module("""#loc = loc("a.py":1:2)
    #map = #stablehlo<precision HIGH>
    module {
      func.func @f(%a: tensor<f32> loc("x")) -> tensor<f32> {
        %0 = "test.p"(%a) {p = #map} : (tensor<f32>) -> tensor<f32> loc(#loc)
        return %0 : tensor<f32> loc(fused[#loc, "y"])
      } loc(#loc)
    } loc(#loc)""")
    (op,) = [o for o in m.walk() if o.name == "test.p"]
    assert op.attributes["p"] == A.EnumAttr("stablehlo", "precision", "HIGH")


def _err(text):
    with pytest.raises(ParseError) as info:
        parse_module(text)
    return info.value


def test_error_undefined_value():
    e = _err("func.func @f() {\n  %0 = stablehlo.add %7, %7 : tensor<f32>\n  return\n}")
    assert (e.line, e.column) == (2, 22) and "use of undefined value %7" in str(e)


def test_error_dims_list():
    e = _err("func.func @f(%a: tensor<2xf32>) {\n"
             "  %0 = stablehlo.transpose %a, dims = [0 1] : (tensor<2xf32>) -> tensor<2xf32>\n}")
    assert (e.line, e.column) == (2, 42) and "expected ',' or ']' in dims list" in str(e)


def test_error_unknown_type():
    e = _err("func.func @f(%a: tensor<3xq8>) {\n  return\n}")
    assert (e.line, e.column) == (1, 27) and "unknown type 'tensor<3xq8>'" in str(e)


def test_error_dense_shape_mismatch():
    e = _err("func.func @f() {\n  %0 = stablehlo.constant dense<[1, 2]> : tensor<3xi32>\n  return\n}")
    assert e.line == 2 and e.column == 27 and "shape" in str(e)


def test_error_missing_resource_blob():
    e = _err("func.func @f() {\n  %0 = stablehlo.constant dense_resource<blob1> : tensor<3xi32>\n}")
    assert e.line == 2 and "blob1" in str(e) and "not present" in str(e)


def test_dense_resource_blob():
    m = parse_module('func.func @f() -> tensor<2xi32> {\n'
                     '  %0 = stablehlo.constant dense_resource<b> : tensor<2xi32>\n'
                     '  return %0 : tensor<2xi32>\n}\n'
                     '{-#\n  dialect_resources: { builtin: { b: "0x040000000100000002000000" } }\n#-}\n')
    (const,) = [o for o in m.walk() if o.name == "stablehlo.constant"]
    assert const.attributes["value"].array.tolist() == [1, 2]


def test_deep_nesting_is_a_clear_error():
    depth = 400
    text = "func.func @f() {\n" + '"t.r"() ({\n' * depth + "}) : () -> ()\n" * depth + "return\n}"
    e = _err(text)
    assert "nested deeper" in str(e)


@pytest.mark.parametrize("text,line,col,message", [
    ("func.func @f(%c: tensor<i64>) {\n %0 = stablehlo.while(%it = %c) : tensor<i64>\n cond {\n"
     " %c = stablehlo.compare LT, %it, %it : (tensor<i64>, tensor<i64>) -> tensor<i1>\n"
     " stablehlo.return %c : tensor<i1>\n } do {\n stablehlo.return %it : tensor<i64>\n }\n}",
     4, 2, "redefinition of SSA value %c"),
    ('func.func @f() {\n  "t.x"() {a = "abc} : () -> ()\n}', 2, 16, "unterminated string"),
    ("func.func @f(%a: tensor<f32>) {\n  %0:2 = stablehlo.add %a, %a : tensor<f32>\n}", 2, 10,
     "binds 2 results but only 1 types"),
    ('func.func @f(%a: tensor<f32>) {\n  %0 = "stablehlo.add"(%a, %a) : (tensor<f32>) -> tensor<f32>\n}',
     2, 34, "has 2 operands but its type lists 1"),
    ('func.func @f(%a: tensor<f32>) {\n  "t.x"() {a = #foo} : () -> ()\n}', 2, 16,
     "undefined attribute alias '#foo'"),
    ('func.func @f(%a: tensor<f32>) {\n  %0 = stablehlo.add %a#3, %a : tensor<f32>\n}', 2, 22,
     "%a has only 1 results"),
    ('func.func @f() {\n  %0 = stablehlo.constant dense<"0x0102"> : tensor<2xi32>\n}', 2, 27,
     "hex literal has 2 bytes"),
    ("func.func @f(%a: tensor<f32>) {\n  %0 = stablehlo.add %1, %a : (tensor<i32>, tensor<f32>) -> tensor<f32>\n"
     "  %1 = stablehlo.add %a, %a : tensor<f32>\n}", 3, 3, "%1 defined with type tensor<f32> but used as tensor<i32>"),
    ('func.func @f(%a: tensor<f32>) {\n  %0 = stablehlo.add %a, %a : tensor<f32> ;\n}', 2, 43,
     "unexpected character ';'"),
    ("func.func @f(%a: tensor<f32>) {\n  %0 = stablehlo.add %a, %a : tensor<f32>\n", 3, 1,
     "expected '}' to close the region"),
    ("func.func @f(%a: tensor<2xf32>) {\n  %0 = stablehlo.slice %a [0:] : (tensor<2xf32>) -> tensor<2xf32>\n}",
     2, 30, "expected an integer in slice range"),
    ("func.func @f(%a: tensor<2xf32>) {\n  %0 = stablehlo.compare LT, %a, %a, FLOAT : (tensor<2xf32>, tensor<2xf32>) tensor<2xi1>\n}",
     2, 77, "expected '->' in function type"),
])
def test_error_positions(text, line, col, message):
    e = _err(text)
    assert (e.line, e.column) == (line, col) and message in e.reason, str(e)


def test_mlir_printer_spellings():
    """Forms MLIR's printer/parser accept: trailing comma in a struct attr, a
    bare op name with the generic body, an aliased encoding, quant spellings."""
    m = parse_module("""module attributes {g = #stablehlo.gather<offset_dims = [1], index_vector_dim = 1,>} {}""")
    assert m.attributes["g"].fields["offset_dims"] == (1,)
    (c,) = one('%0 = stablehlo.constant() {value = dense<[1, 2]> : tensor<2xi64>} : () -> tensor<2xi64>')
    assert c.name == "stablehlo.constant" and list(c.attributes["value"].array) == [1, 2]
    m = parse_module('#SV = #sparse.enc<{a = 1}>\nfunc.func @f(%a: tensor<1xf32, #SV>) {\n  return\n}')
    assert str(m.functions[0].regions[0].blocks[0].arguments[0].type) == "tensor<1xf32, #sparse.enc<{a = 1}>>"
    (q,) = one('%0 = "test.t"() : () -> tensor<2x!quant.uniform<i8:f32, 2.0:15>>')
    assert q.results[0].type.element == "!quant.uniform<i8:f32, 2.000000e+00:15>"


def test_missing_token_reported_at_end_of_previous_line():
    with pytest.raises(ParseError) as e:
        parse_module("func.func @f(%a: tensor<1xf64>) {\n  %0 = stablehlo.tuple %a : (tensor<1xf64>)\n"
                     "  return\n}")
    assert (e.value.line, e.value.column) == (2, 44)
    with pytest.raises(ParseError, match="Static dimension 0 cannot have a bound"):
        parse_module("func.func @f(%a: tensor<3xf32, #stablehlo.bounds<3>>) {\n  return\n}")
