"""The TensorFlow frontend's cases (compile_tf), run by test_frontend_tf.py in
a fresh process: TensorFlow must never be imported into the main pytest
process, because TF and PoCL each load LLVM and PoCL then crashes building
any OpenCL kernel (tests/test_opencl.py would die with it).  Also Keras
must start on the TensorFlow backend here, and the main process may hold it
on JAX.  tf.function / tf.Module / SavedModel cases, then Keras 3 models on
TF (MobileNetV2, a keras-hub BERT, a CNN, a transformer block) against TF.

    KERAS_BACKEND=tensorflow python -m pytest tests/frontends/tf_cases.py
"""
from __future__ import annotations

import os
import sys

import numpy as np
import pytest

os.environ.setdefault("KERAS_BACKEND", "tensorflow")
tf = pytest.importorskip("tensorflow", reason="the TensorFlow frontend needs tensorflow "
                                              "(pip install 'tensorvm[tf]')")

from tensorvm.compiler.errors import CompileError  # noqa: E402
from tensorvm.compiler.frontends import FrameworkMissingError, compile_tf  # noqa: E402
from tensorvm.runtime import load_module  # noqa: E402

from frontend_models import rand, tf_dense_module  # noqa: E402


def _check(out, ref):
    assert set(out) == set(ref)
    for k in ref:
        np.testing.assert_allclose(np.asarray(out[k]), np.asarray(ref[k]), rtol=1e-5, atol=1e-6)


def test_module_weights_baked_in_and_as_arguments():
    m = tf_dense_module()
    x = rand(2, 4)
    ref = m(x)
    _check(load_module(compile_tf(m, x)).main(x), ref)
    mod = load_module(compile_tf(m, x, weights="arguments"))     # m.variables' order
    _check(mod.main([v.numpy() for v in m.variables], x), ref)
    doubled = {v.name.split(":")[0]: v.numpy() * 2 for v in m.variables}
    got = mod.main([doubled[v.name.split(":")[0]] for v in m.variables], x)
    np.testing.assert_allclose(np.asarray(got["y"]), np.maximum(x @ doubled["w"] + doubled["b"], 0),
                               rtol=1e-5, atol=1e-6)      # the weights are real inputs


def test_tf_function_closing_over_a_variable():
    w = tf.Variable(rand(3, 5, seed=3))

    @tf.function
    def f(a, pair):
        return tf.tanh(a @ w), (pair[0] * 2.0, [pair[1] + 1])

    a, p0, p1 = rand(2, 3), rand(4), rand(2, 2, seed=4)
    mod = load_module(compile_tf(f, a, (p0, p1)))
    got = mod.main(a, (p0, p1))
    ref = f(a, (p0, p1))
    np.testing.assert_allclose(np.asarray(got[0]), ref[0].numpy(), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(np.asarray(got[1][0]), ref[1][0].numpy())
    np.testing.assert_allclose(np.asarray(got[1][1][0]), ref[1][1][0].numpy())
    with pytest.raises(CompileError, match="variables"):
        compile_tf(f, a, (p0, p1), weights="arguments")          # a bare function: say which
    concrete = f.get_concrete_function(tf.TensorSpec((2, 3)), (tf.TensorSpec((4,)),
                                                               tf.TensorSpec((2, 2))))
    got = load_module(compile_tf(concrete)).main(a, (p0, p1))   # its signature is the default
    np.testing.assert_allclose(np.asarray(got[0]), ref[0].numpy(), rtol=1e-5, atol=1e-6)


def test_plain_function_with_python_control_flow():
    def f(x):                       # autograph: tf.cond and tf.while_loop, XLA's if / while
        y = x * 2.0 if tf.reduce_sum(x) > 0 else -x
        i = tf.constant(0)
        while i < 3:
            y = y + tf.cast(i, tf.float32)
            i += 1
        return y

    x = rand(5)
    mod = load_module(compile_tf(f, x))
    for v in (x, -x, np.abs(x), -np.abs(x)):
        np.testing.assert_allclose(np.asarray(mod.main(v)), tf.function(f)(v).numpy(), rtol=1e-6)


def test_saved_model_directory_call_and_signature(tmp_path):
    m = tf_dense_module()
    tf.saved_model.save(m, str(tmp_path / "sm"))
    x = rand(3, 4)
    ref = m(x)
    _check(load_module(compile_tf(str(tmp_path / "sm"), batch=3)).main(x), ref)
    loaded = tf.saved_model.load(str(tmp_path / "sm"))
    mod = load_module(compile_tf(loaded, {"x": x}, signature="serving_default"))
    _check(mod.main({"x": x}), ref)
    with pytest.raises(CompileError, match="dim 0 is unknown"):
        compile_tf(str(tmp_path / "sm"))                        # XLA needs a static batch


def test_cli_compiles_a_saved_model_directory(tmp_path):
    from tensorvm.compiler import cli
    m = tf_dense_module()
    tf.saved_model.save(m, str(tmp_path / "sm"))
    out = tmp_path / "sm.vmfb"
    assert cli.main([str(tmp_path / "sm"), "--batch", "2", "-o", str(out)]) == 0
    x = rand(2, 4)
    _check(load_module(str(out)).main(x), m(x))
    assert cli.main([str(tmp_path / "sm"), "-o", str(out)]) == 1   # no batch: a clear error


def test_ops_without_an_xla_lowering_are_named():
    @tf.function
    def f(x):
        return tf.strings.length(tf.strings.as_string(x))

    with pytest.raises(CompileError, match="AsString"):
        compile_tf(f, rand(2))


def test_state_updates_and_tables_are_refused():
    count = tf.Variable(0.0)
    table = tf.lookup.StaticHashTable(tf.lookup.KeyValueTensorInitializer(
        tf.constant([1, 2], tf.int64), tf.constant([3.0, 4.0])), -1.0)

    @tf.function
    def counting(x):
        count.assign_add(1.0)
        return x * 2

    @tf.function
    def lookup(k):
        return table.lookup(k)

    with pytest.raises(CompileError, match="assigns variables"):
        compile_tf(counting, rand(2))
    with pytest.raises(CompileError, match="LookupTableFindV2"):
        compile_tf(lookup, np.ones(2, np.int64))


def test_missing_tensorflow_names_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "tensorflow", None)
    with pytest.raises(FrameworkMissingError, match=r"tensorvm\[tf\]"):
        compile_tf(lambda x: x, rand(2))


def _keras_check(tmp_path, *items):
    """Each ``model:via`` of tf_keras_check.py matches TF within 1e-4 relative."""
    keras = pytest.importorskip("keras")
    if keras.backend.backend() != "tensorflow":
        pytest.skip("keras runs on another backend in this process")
    from tf_keras_check import check
    for item in items:
        res = check(*item.split(":"), str(tmp_path))
        print(res)
        assert res["shapes_match"] and res["ref_max"] > 0, res
        assert res["max_abs"] <= 1e-4 * res["ref_max"], res


def test_keras_mobilenet_v2(tmp_path):      # its SavedModel: the slow sample (tf_savedmodel.py)
    _keras_check(tmp_path, "mobilenet_v2:direct")


def test_keras_hub_bert_backbone(tmp_path):
    pytest.importorskip("keras_hub", reason="keras-hub is not installed")
    _keras_check(tmp_path, "bert:direct")


def test_keras_cnn_weights_as_arguments_and_a_two_input_model(tmp_path):
    _keras_check(tmp_path, "cnn:arguments", "two_inputs:direct")


def test_keras_transformer_block_from_its_saved_model(tmp_path):
    _keras_check(tmp_path, "transformer:savedmodel")
