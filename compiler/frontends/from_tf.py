"""TensorFlow frontend: ``compile_tf(fn_or_module, *example_args)`` through TF's XLA bridge.

Takes a ``tf.function`` (or a plain function of TF ops), a ``tf.Module``
(its ``__call__``), a SavedModel (a directory path or what
``tf.saved_model.load`` returned: its ``__call__``, ``serve`` or
``signatures["serving_default"]``, or ``signature="name"``), a
``ConcreteFunction``, or a Keras 3 model under the TensorFlow backend.
The function is traced as ``tf.function(jit_compile=True)`` for the
example arguments (arrays, ``tf.TensorSpec``s or ``spec(...)``; shapes are
static: XLA compiles one shape, ``batch=`` fills an unknown leading dim)
and ``experimental_get_compiler_ir(...)(stage="stablehlo")`` gives the
StableHLO.  Its ``main`` takes the inputs followed by every tensor the
function captured (variables, eager constants); a wrapper ``main`` bakes
those in as module constants (``weights="constants"``, default) or, with
``weights="arguments"``, takes the variables as leading lists: a Keras
model's ``(trainable, non_trainable)`` as ``compile_keras`` does, otherwise
one list in the order of ``variables=`` (default: the ``tf.Module``'s
``.variables``; given, it replaces the Keras pair too).  A signature function (keyword inputs) takes one dict.
"""
from __future__ import annotations

import os
import re

from .common import Exported, FrontendError, TensorSpec, require

INNER = "tf_xla_main"


def _tf():
    return require("tensorflow", "tf")


def export_tf(obj, *example_args, weights="constants", variables=None, signature=None,
              batch=None, name=None) -> Exported:
    """``obj`` exported as StableHLO for ``example_args``; see the module docstring."""
    tf = _tf()
    if weights not in ("constants", "arguments"):
        raise FrontendError(f"weights must be 'constants' or 'arguments', got {weights!r}")
    if isinstance(obj, (str, os.PathLike)):
        path = os.fspath(obj)
        try:
            obj = tf.saved_model.load(path)
        except (OSError, ValueError, tf.errors.OpError) as e:
            raise FrontendError(f"{path}: not a loadable SavedModel: {e}") from None
        name = name or os.path.basename(os.path.normpath(path)) or "saved_model"
    call, default_args, keyword, label, groups = _target(tf, obj, signature)
    name = name or label
    args = example_args or default_args
    if args is None:
        raise FrontendError(f"{label} declares no input signature: pass example arguments")
    if keyword and not (len(args) == 1 and isinstance(args[0], dict)):
        raise FrontendError(f"{label} is a signature function: pass its inputs as one dict "
                            "keyed by input name")
    specs = [tf.nest.map_structure(lambda x, i=i: _tensor_spec(tf, x, batch, f"argument {i}"), a)
             for i, a in enumerate(args)]

    def program(*a):
        return call(**a[0]) if keyword else call(*a)

    jit = tf.function(program, jit_compile=True)
    try:
        concrete = jit.get_concrete_function(*specs)
        zeros = tf.nest.map_structure(lambda t: tf.zeros(t.shape, t.dtype), specs)
        text = jit.experimental_get_compiler_ir(*zeros)(stage="stablehlo")
    except (ValueError, TypeError, tf.errors.OpError) as e:
        raise _translate(label, e) from None
    flat_in = tf.nest.flatten(specs)
    outputs = concrete.structured_outputs
    n_out = len([t for t in tf.nest.flatten(outputs) if t is not None])
    captures = _captures(tf, concrete, label)
    if weights == "arguments":
        if variables is not None:
            groups = [list(variables)]
        elif groups is None:
            groups = _module_variables(tf, obj)
        if groups is None:
            raise FrontendError(f"weights='arguments': {label} has no .variables; pass "
                                "variables=[...] (the order main takes them in)")
    else:
        groups = []
    mlir = _wrap(text, flat_in, captures, groups, n_out, label)
    lead = [{"t": "list", "c": [{"t": "leaf"}] * len(g)} for g in groups]
    return Exported(mlir, name, {
        "pytree_args": {"t": "tuple", "c": lead + [_describe(tf, a) for a in specs]},
        "pytree_results": _describe(tf, outputs)})


def compile_tf(obj, *example_args, targets=("cpu",), weights="constants", variables=None,
               signature=None, batch=None, **options) -> bytes:
    """Compile a TensorFlow function, module, SavedModel or Keras-on-TF model
    to a .vmfb (bytes); ``options`` as ``compile_str``."""
    return export_tf(obj, *example_args, weights=weights, variables=variables,
                     signature=signature, batch=batch,
                     name=options.pop("module_name", None)).compile(targets, **options)


def _target(tf, obj, signature):
    """(callable, default example args or None, takes one keyword dict, label,
    Keras variable groups or None) for what was passed in."""
    keras = _keras_on_tf(obj)
    if keras is not None:
        if not obj.inputs and not obj.built:
            raise FrontendError(f"Keras model {obj.name} is not built: call it once or build it")
        inputs = list(obj.inputs or [])
        default = [tf.TensorSpec(t.shape, t.dtype) for t in inputs] or None
        groups = [list(obj.trainable_variables), list(obj.non_trainable_variables)]

        def keras_call(*a):              # a multi-input model takes its inputs as one list
            return obj(a[0] if len(a) == 1 else list(a), training=False)
        return keras_call, default, False, obj.name, groups
    if signature is not None:
        sigs = getattr(obj, "signatures", None) or {}
        if signature not in sigs:
            raise FrontendError(f"no signature {signature!r}; this object has {sorted(sigs)}")
        return _signature(sigs[signature], signature)
    if isinstance(obj, tf.types.experimental.ConcreteFunction):
        args, kwargs = obj.structured_input_signature
        if kwargs and not args:
            return _signature(obj, getattr(obj, "name", "signature"))
        return obj, list(args), False, _label(obj), None
    fn = obj
    if not isinstance(obj, tf.types.experimental.GenericFunction):
        for attr in ("__call__", "serve"):
            cand = getattr(obj, attr, None)
            if isinstance(cand, tf.types.experimental.GenericFunction):
                fn = cand
                break
        else:
            sigs = getattr(obj, "signatures", None) or {}
            if "serving_default" in sigs:
                return _signature(sigs["serving_default"], "serving_default")
            if not callable(obj):
                raise FrontendError(f"compile_tf takes a tf.function, tf.Module, SavedModel, "
                                    f"ConcreteFunction or Keras model, got {type(obj).__name__}")
            return obj, None, False, _label(obj), None
    sig = getattr(fn, "input_signature", None)
    return fn, (list(sig) if sig is not None else None), False, _label(obj), None


def _signature(fn, label):
    _, kwargs = fn.structured_input_signature
    return fn, [dict(kwargs)], True, label, None


def _label(obj) -> str:
    n = getattr(obj, "__name__", None) or getattr(obj, "name", None) or type(obj).__name__
    return re.sub(r"\W", "_", str(n)).strip("_") or "program"


def _keras_on_tf(obj):
    """``obj``'s keras module when it is a Keras 3 model (TF backend), else None."""
    import sys
    keras = sys.modules.get("keras")
    if keras is None or not isinstance(obj, keras.Model):
        return None
    if keras.backend.backend() != "tensorflow":
        raise FrontendError(f"Keras model {obj.name} runs on the '{keras.backend.backend()}' "
                            "backend; compile_tf needs KERAS_BACKEND=tensorflow (compile_keras "
                            "takes JAX-backend models)")
    return keras


def _module_variables(tf, obj):
    if isinstance(obj, tf.Module):
        return [list(obj.variables)]
    return None


def _tensor_spec(tf, x, batch, where):
    """A static ``tf.TensorSpec`` for an example argument leaf."""
    import numpy as np
    if isinstance(x, TensorSpec):
        shape, dtype = x.shape, x.dtype
    elif isinstance(x, tf.TensorSpec):
        shape, dtype = x.shape.as_list() if x.shape.rank is not None else None, x.dtype
    elif isinstance(x, (tf.Tensor, tf.Variable)) or hasattr(x, "shape") and hasattr(x, "dtype"):
        shape, dtype = list(x.shape), x.dtype
    else:
        a = np.asarray(x)
        shape, dtype = list(a.shape), a.dtype
    if shape is None:
        raise FrontendError(f"{where}: unknown rank; TF's XLA export needs static shapes")
    shape = list(shape)
    if shape and (shape[0] is None or isinstance(shape[0], str)) and batch is not None:
        shape[0] = int(batch)
    for j, d in enumerate(shape):
        if d is None or isinstance(d, str):
            raise FrontendError(f"{where}: dim {j} is unknown ({d!r}); TF's XLA export compiles "
                                "static shapes: pass concrete example arguments or batch=N")
    return tf.TensorSpec(shape, tf.as_dtype(dtype))


def _captures(tf, concrete, label):
    """(name, numpy value, is a variable) per captured tensor, in main's argument order."""
    by_handle = {id(v.handle): v for v in concrete.variables}
    out = []
    for c in concrete.captured_inputs:
        if c.dtype == tf.resource:
            v = by_handle.get(id(c))
            if v is None:
                raise FrontendError(f"{label} captures a resource that is not a variable "
                                    "(a table, iterator or other TF state cannot be exported)")
            out.append((v, v.numpy()))
        else:
            try:
                out.append((None, c.numpy()))
            except (AttributeError, ValueError, TypeError):
                raise FrontendError(f"{label} captures a symbolic tensor {c.name}; only eager "
                                    "constants and variables can be captured") from None
    return out


def _wrap(text, flat_in, captures, groups, n_out, label):
    """The XLA module with a new ``main``: inputs (after the variable lists of
    ``groups``), captures baked in or forwarded from those lists."""
    from ..mlir import parse_module
    module = parse_module(text, f"<{label}>")
    main = module.lookup("main")
    if main is None:
        raise FrontendError(f"{label}: TF's StableHLO has no main function")
    fty = main.attributes["function_type"].type
    n_in = len(flat_in)
    if len(fty.inputs) != n_in + len(captures):
        raise FrontendError(f"{label}: TF's main takes {len(fty.inputs)} arguments, expected "
                            f"{n_in} inputs and {len(captures)} captures")
    if len(fty.results) != n_out:
        raise FrontendError(f"{label} assigns variables (TF's main returns "
                            f"{len(fty.results)} values for {n_out} outputs, the rest are "
                            "variable updates); a module export must be pure")
    slot = {}
    for gi, g in enumerate(groups):
        for vi, v in enumerate(g):
            inner = getattr(type(v), "value", None)      # a Keras Variable wraps a tf.Variable
            if isinstance(inner, property):
                slot.setdefault(id(v.value), (gi, vi))
            slot.setdefault(id(v), (gi, vi))
    params, body, call_args = [], [], []
    for gi, g in enumerate(groups):
        for vi, v in enumerate(g):
            shape, dtype = tuple(v.shape), v.dtype
            params.append(f"%w{gi}_{vi}: {_tensor_type(shape, getattr(dtype, 'name', dtype))}")
    for i in range(n_in):
        params.append(f"%in{i}: {fty.inputs[i]}")
        call_args.append(f"%in{i}")
    for j, (var, value) in enumerate(captures):
        t = fty.inputs[n_in + j]
        if tuple(value.shape) != tuple(t.shape):
            raise FrontendError(f"{label}: capture {j} has shape {value.shape}, TF's main "
                                f"takes {t}")
        if var is not None and groups:
            where = slot.get(id(var))
            if where is None:
                raise FrontendError(f"weights='arguments': {label} reads variable {var.name} "
                                    "which is not in the variable lists")
            call_args.append(f"%w{where[0]}_{where[1]}")
            continue
        body.append(f"    %c{j} = stablehlo.constant {_dense(value, t)} : {t}")
        call_args.append(f"%c{j}")
    ins = ", ".join(str(t) for t in fty.inputs)
    outs = ", ".join(str(t) for t in fty.results)
    res = "%r" if n_out == 1 else f"%r:{n_out}"
    vals = "%r" if n_out == 1 else ", ".join(f"%r#{k}" for k in range(n_out))
    body.append(f"    {res} = func.call @{INNER}({', '.join(call_args)}) : ({ins}) -> ({outs})")
    body.append(f"    return {vals} : {outs}")
    head = f"  func.func @main({', '.join(params)}) -> ({outs}) {{"
    renamed, n = re.subn(r"func\.func @main\(", f"func.func private @{INNER}(", text, count=1)
    if n != 1 or f"@{INNER}" in text:
        raise FrontendError(f"{label}: cannot rename TF's main")
    closes = [m.start() for m in re.finditer(r"^\}", renamed, re.M)]   # the module's brace
    if not closes:
        raise FrontendError(f"{label}: TF's StableHLO module has no closing brace")
    end = closes[-1]
    tail = renamed[end:]
    return renamed[:end] + "\n".join([head, *body, "  }"]) + "\n" + tail


_ELEMENTS = {"float32": "f32", "float64": "f64", "float16": "f16", "bfloat16": "bf16",
             "int8": "i8", "int16": "i16", "int32": "i32", "int64": "i64", "uint8": "ui8",
             "uint16": "ui16", "uint32": "ui32", "uint64": "ui64", "bool": "i1",
             "complex64": "complex<f32>", "complex128": "complex<f64>"}


def _tensor_type(shape, dtype_name) -> str:
    el = _ELEMENTS.get(str(dtype_name))
    if el is None:
        raise FrontendError(f"variable dtype {dtype_name} has no tensor type here")
    return f"tensor<{''.join(f'{d}x' for d in shape)}{el}>"


def _dense(value, t) -> str:
    """``dense<"0x...">`` of ``value`` as MLIR's raw little-endian blob for ``t``."""
    import numpy as np

    from ..ir.types import numpy_dtype
    a = np.ascontiguousarray(np.asarray(value).astype(numpy_dtype(t.element)))
    if a.dtype.byteorder == ">":
        a = a.byteswap().view(a.dtype.newbyteorder("<"))
    return f'dense<"0x{a.tobytes().hex().upper()}">'


def _describe(tf, structure) -> dict:
    """A TF nest (tf.nest's order: dict keys sorted) as runtime/pytree.py's nesting."""
    if structure is None:
        return {"t": "none"}
    if isinstance(structure, dict):
        keys = sorted(structure)
        for k in keys:
            if not isinstance(k, (str, int)) or isinstance(k, bool):
                raise FrontendError(f"dict key {k!r}: only str and int keys can be recorded")
        return {"t": "dict", "k": keys, "c": [_describe(tf, structure[k]) for k in keys]}
    if isinstance(structure, tuple) and hasattr(structure, "_fields"):
        return {"t": "namedtuple", "name": type(structure).__name__,
                "k": list(structure._fields), "c": [_describe(tf, c) for c in structure]}
    if isinstance(structure, (tuple, list)):
        return {"t": type(structure).__name__ if type(structure) in (tuple, list) else "tuple",
                "c": [_describe(tf, c) for c in structure]}
    if tf.nest.is_nested(structure):
        raise FrontendError(f"output node type {type(structure).__name__} cannot be rebuilt by "
                            "the runtime; return tensors, tuples, lists or dicts")
    return {"t": "leaf"}


def _translate(label, e) -> FrontendError:
    """TF's tracing/XLA error as a FrontendError; ops XLA cannot compile are named."""
    msg = str(e)
    ops = sorted(set(re.findall(r"No registered '(\w+)' OpKernel for XLA", msg)))
    if ops:
        return FrontendError(f"{label}: TensorFlow ops with no XLA lowering: {', '.join(ops)}")
    return FrontendError(f"{label}: TF's XLA export failed: {type(e).__name__}: "
                         f"{msg.splitlines()[0] if msg else ''}")
