"""The msgpack header of a .vmfb: ModuleDef <-> plain dict, with an explicit
schema check.

The reader never trusts the header: every field's type and range is checked
here, so a hostile header yields a VmfbError naming the field (never a
TypeError, KeyError or an allocation sized by the file).  The writer runs the
same check on what it is about to write.  Schema: docs/vmfb.md.
"""
from __future__ import annotations

import msgpack

from .chunks import MAX_CHUNK_BYTES, MIN_CHUNK_BYTES, chunk_count
from .errors import VmfbError
from .isa import BANKS, MAX_REGISTERS
from .model import (Deferred, EntryPoint, ExecutableDef, ExecutableVariant, FunctionDef,
                    GlobalDef, ImportDef, INITIALIZER_OPERANDS, Initializer, ModuleDef,
                    RodataDef, parse_signature)

SECTION_KINDS = ("bytecode", "rodata", "executable")
MAX_ALIGNMENT = 1 << 16
MAX_COUNT = 1 << 16            # entry point bindings / push constants
MAX_WORKGROUPS = (1 << 32) - 1  # an entry point's declared workgroup bound
_I32 = (-(1 << 31), (1 << 31) - 1)
_I64 = (-(1 << 63), (1 << 63) - 1)
_U32 = (0, (1 << 32) - 1)
_U63 = (0, (1 << 63) - 1)


def _fail(where: str, message: str):
    raise VmfbError(f"vmfb header: {where}: {message}")


def _type(v, types, where, what):
    if not isinstance(v, types) or (isinstance(v, bool) and bool not in _as_tuple(types)):
        _fail(where, f"expected {what}, got {type(v).__name__}")
    return v


def _as_tuple(t):
    return t if isinstance(t, tuple) else (t,)


def _int(v, where, lo=_U63[0], hi=_U63[1]):
    _type(v, int, where, "an integer")
    if not lo <= v <= hi:
        _fail(where, f"{v} is out of range [{lo}, {hi}]")
    return v


def _str(v, where):
    return _type(v, str, where, "a string")


def _name(v, where):
    """A symbol name: a string without NUL (names reach C strings and Python
    code objects, where a NUL is an error far from the header)."""
    if "\0" in _str(v, where):
        _fail(where, f"name {v!r} contains a NUL character")
    return v


def _list(v, where):
    return _type(v, list, where, "an array")


def _map(v, where, required=()):
    _type(v, dict, where, "a map")
    for k in v:
        if not isinstance(k, str):
            _fail(where, f"map key {k!r} is not a string")
    for k in required:
        if k not in v:
            _fail(where, f"missing key '{k}'")
    return v


def _strs(v, where):
    if v.__class__ is list and all(s.__class__ is str for s in v):
        return v                     # (the common case; a module has 100s of strings)
    return [_str(s, f"{where}[{i}]") for i, s in enumerate(_list(v, where))]


def _reflection(v, where):
    if v is None:
        return None
    _map(v, where)
    for key in ("args", "results"):
        if key in v:
            for i, a in enumerate(_list(v[key], f"{where}.{key}")):
                if not _plain_entry(a):          # name the defect (slow path)
                    _reflection_entry(a, f"{where}.{key}[{i}]")
    return v


_DIM_MAX = _U63[1]


def _plain_entry(a) -> bool:
    """A well-formed reflection entry, checked without building messages
    (a header lists every argument of every function; most are fine)."""
    if a.__class__ is not dict:
        return False
    for k, x in a.items():
        if k.__class__ is not str:
            return False
        if k == "shape":
            if x.__class__ is not list:
                return False
            for d in x:
                if d.__class__ is int:
                    if not 0 <= d <= _DIM_MAX:
                        return False
                elif d != "?":
                    return False
        elif (k == "name" or k == "dtype") and x.__class__ is not str:
            return False
    return True


# The _plain_* predicates accept exactly what validate's checks accept, without
# building the field paths its messages name (a module has dozens of imports and
# sections and hundreds of entry points; nearly all are fine); False sends the
# item through the checks that name its defect.

def _plain_keys(d) -> bool:
    for k in d:
        if k.__class__ is not str:
            return False
    return True


def _plain_section(s) -> bool:
    if s.__class__ is not dict or not _plain_keys(s):
        return False
    o, n, c = s.get("offset"), s.get("length"), s.get("crc32")
    return (o.__class__ is int and 0 <= o <= _U63[1] and n.__class__ is int
            and 0 <= n <= _U63[1] and c.__class__ is int and 0 <= c <= _U32[1]
            and s.get("kind").__class__ is str and "chunk_crc32" not in s and "chunk_size" not in s)


def _plain_signature(text, variadic: bool) -> bool:
    if text.__class__ is not str:
        return False
    try:
        parse_signature(text, allow_variadic=variadic)
    except VmfbError:
        return False
    return True


def _plain_import(m) -> bool:
    if m.__class__ is not dict or not _plain_keys(m):
        return False
    name = m.get("name")
    return (m.get("module").__class__ is str and name.__class__ is str and "\0" not in name
            and _plain_signature(m.get("signature"), True))


def _plain_function(f, names: set, sections: list) -> bool:
    """(Also adds the function's name to ``names``.)"""
    if f.__class__ is not dict or not _plain_keys(f):
        return False
    name, regs, code = f.get("name"), f.get("registers"), f.get("code")
    if name.__class__ is not str or "\0" in name or name in names \
            or not _plain_signature(f.get("signature"), False) \
            or regs.__class__ is not dict \
            or code.__class__ is not int or not 0 <= code < len(sections) \
            or sections[code].get("kind") != "bytecode" \
            or f.get("exported").__class__ is not bool \
            or f.get("reflection") is not None \
            or f.get("reflection_packed").__class__ not in (bytes, type(None)):
        return False
    for bank, n in regs.items():
        if bank not in BANKS or n.__class__ is not int or not 0 <= n <= MAX_REGISTERS:
            return False
    names.add(name)
    return True


_GLOBAL_INITIAL = {"i32": _I32, "i64": _I64}


def _plain_global(g) -> bool:
    if g.__class__ is not dict or not _plain_keys(g):
        return False
    name, bank, init = g.get("name"), g.get("bank"), g.get("initial")
    if name.__class__ is not str or "\0" in name or bank.__class__ is not str \
            or bank not in BANKS:
        return False
    if init is None:
        return True
    if bank in _GLOBAL_INITIAL:
        lo, hi = _GLOBAL_INITIAL[bank]
        return init.__class__ is int and lo <= init <= hi
    return bank != "ref" and init.__class__ is float


def _plain_variant(v, sections: list) -> bool:
    """A well-formed executable variant with packed entry points (1.2+)."""
    if v.__class__ is not dict or not _plain_keys(v):
        return False
    t, sec = v.get("target"), v.get("section")
    if v.get("format").__class__ is not str or t.__class__ is not dict \
            or v.get("entry_points_packed").__class__ is not bytes or "entry_points" in v \
            or sec.__class__ is not int or not 0 <= sec < len(sections) \
            or sections[sec].get("kind") != "executable" or not _plain_keys(t):
        return False
    triple, feats = t.get("triple", ""), t.get("features", ())
    return triple.__class__ is str and (feats == () or (
        feats.__class__ is list and all(f.__class__ is str for f in feats)))


def _plain_entry_point(ep, names: set) -> bool:
    """A well-formed entry point whose name is new (added to ``names``), checked
    without building messages; False sends it through the checks that name
    the defect."""
    if ep.__class__ is not dict or ep.get("binding_shapes") is not None:
        return False                 # (binding_shapes: checked by _binding_shapes only)
    name, b, c = ep.get("name"), ep.get("bindings"), ep.get("constants")
    if name.__class__ is not str or "\0" in name or name in names \
            or b.__class__ is not int or not 0 <= b <= MAX_COUNT \
            or c.__class__ is not int or not 0 <= c <= MAX_COUNT:
        return False
    wg = ep.get("workgroups")
    if wg is not None and (wg.__class__ is not int or not 0 <= wg <= MAX_WORKGROUPS):
        return False
    if ep.get("loop_stats", False).__class__ is not bool:
        return False
    need = ep.get("binding_bytes")
    if need is not None:
        if need.__class__ is not list or len(need) != b:
            return False
        for n in need:
            if n.__class__ is not int or not 0 <= n <= _DIM_MAX:
                return False
    for k in ep:
        if k.__class__ is not str:
            return False
    names.add(name)
    return True


def _reflection_entry(a, w):
    _map(a, w)
    if "name" in a:
        _name(a["name"], w + ".name")
    if "dtype" in a:
        _str(a["dtype"], w + ".dtype")
    if "shape" in a:
        for j, d in enumerate(_list(a["shape"], w + ".shape")):
            if d != "?":
                _int(d, f"{w}.shape[{j}]")


def _signature(v, where, variadic):
    try:
        parse_signature(_str(v, where), allow_variadic=variadic)
    except VmfbError as e:
        _fail(where, str(e))
    return v


def _section(v, where, sections, kind):
    _int(v, where)
    if v >= len(sections):
        _fail(where, f"section index {v} out of range ({len(sections)} sections)")
    if sections[v]["kind"] != kind:
        _fail(where, f"section {v} is a {sections[v]['kind']!r} section, expected {kind!r}")
    return v


def _initializer(v, where) -> None:
    """A ref global's ``initial`` (1.3): {"call": import index, "args":
    [[kind, index]]}; indices are range-checked by the runtime's verifier."""
    if v.__class__ is not dict:
        _fail(where, f"ref globals take no initial value, only an initializer "
                     f"{{\"call\": int, \"args\": [[kind, int]]}}, got {type(v).__name__}")
    _map(v, where, ("call", "args"))
    _int(v["call"], where + ".call", 0, MAX_COUNT)
    for j, a in enumerate(_list(v["args"], where + ".args")):
        w = f"{where}.args[{j}]"
        if a.__class__ is not list or len(a) != 2:
            _fail(w, f"must be [kind, index], got {a!r}")
        if a[0] not in INITIALIZER_OPERANDS:
            _fail(w, f"operand kind {a[0]!r} is not one of {', '.join(INITIALIZER_OPERANDS)}")
        _int(a[1], w + "[1]", 0, MAX_COUNT)


def _chunked_section(s, w) -> None:
    """A section's per-chunk CRCs (1.4): a power-of-two chunk size and one
    little-endian u32 per chunk of the payload."""
    _map(s, w, ("chunk_crc32", "chunk_size"))
    size = _int(s["chunk_size"], w + ".chunk_size", MIN_CHUNK_BYTES, MAX_CHUNK_BYTES)
    if size & (size - 1):
        _fail(w + ".chunk_size", f"{size} is not a power of two")
    crcs = _type(s["chunk_crc32"], bytes, w + ".chunk_crc32", "a bin")
    if len(crcs) != 4 * chunk_count(s["length"], size):
        _fail(w + ".chunk_crc32", f"holds {len(crcs)} bytes; {s['length']} bytes in chunks of "
                                  f"{size} need {4 * chunk_count(s['length'], size)}")


def validate(h) -> dict:
    """Check the whole header; return it unchanged (raises VmfbError)."""
    _map(h, "header", ("name", "version", "requirements", "functions", "imports", "globals",
                       "rodata", "executables", "strings", "sections"))
    if not _name(h["name"], "name") or "." in h["name"]:
        _fail("name", f"module name {h['name']!r} must be non-empty and without '.' "
                      f"(calls name functions as 'module.function')")
    _int(h["version"], "version", *_I64)
    req = _map(h["requirements"], "requirements")
    for k, v in req.items():
        _strs(v, f"requirements.{k}")
    sections = _list(h["sections"], "sections")
    for i, s in enumerate(sections):
        if _plain_section(s):
            continue
        w = f"sections[{i}]"
        _map(s, w, ("offset", "length", "crc32", "kind"))
        _int(s["offset"], w + ".offset")
        _int(s["length"], w + ".length")
        _int(s["crc32"], w + ".crc32", *_U32)
        _str(s["kind"], w + ".kind")
        if "chunk_crc32" in s or "chunk_size" in s:          # (1.4)
            _chunked_section(s, w)
    names = set()
    for i, f in enumerate(_list(h["functions"], "functions")):
        if _plain_function(f, names, sections):
            continue
        w = f"functions[{i}]"
        _map(f, w, ("name", "signature", "registers", "code", "exported"))
        if _name(f["name"], w + ".name") in names:
            _fail(w + ".name", f"function name {f['name']!r} appears twice")
        names.add(f["name"])
        _signature(f["signature"], w + ".signature", False)
        regs = _map(f["registers"], w + ".registers")
        for bank, n in regs.items():
            if bank not in BANKS:
                _fail(w + ".registers", f"unknown bank {bank!r}")
            _int(n, f"{w}.registers.{bank}", 0, MAX_REGISTERS)
        _section(f["code"], w + ".code", sections, "bytecode")
        _type(f["exported"], bool, w + ".exported", "a boolean")
        if f.get("reflection_packed") is not None:      # (1.1) checked when decoded
            _type(f["reflection_packed"], bytes, w + ".reflection_packed", "a bin")
            if f.get("reflection") is not None:
                _fail(w, "has both reflection and reflection_packed")
        else:
            _reflection(f.get("reflection"), w + ".reflection")
    for i, m in enumerate(_list(h["imports"], "imports")):
        if _plain_import(m):
            continue
        w = f"imports[{i}]"
        _map(m, w, ("module", "name", "signature"))
        _str(m["module"], w + ".module")
        _name(m["name"], w + ".name")
        _signature(m["signature"], w + ".signature", True)
    for i, g in enumerate(_list(h["globals"], "globals")):
        if _plain_global(g):
            continue
        w = f"globals[{i}]"
        _map(g, w, ("name", "bank"))
        _name(g["name"], w + ".name")
        if _str(g["bank"], w + ".bank") not in BANKS:
            _fail(w + ".bank", f"unknown bank {g['bank']!r}")
        init = g.get("initial")
        if init is not None:
            if g["bank"] == "ref":
                _initializer(init, w + ".initial")
            elif g["bank"] in ("f32", "f64"):
                _type(init, float, w + ".initial", "a float")
            else:
                _int(init, w + ".initial", *(_I32 if g["bank"] == "i32" else _I64))
    for i, r in enumerate(_list(h["rodata"], "rodata")):
        w = f"rodata[{i}]"
        _map(r, w, ("name", "alignment", "section"))
        _name(r["name"], w + ".name")
        a = _int(r["alignment"], w + ".alignment", 1, MAX_ALIGNMENT)
        if a & (a - 1):
            _fail(w + ".alignment", f"{a} is not a power of two")
        _section(r["section"], w + ".section", sections, "rodata")
    for i, e in enumerate(_list(h["executables"], "executables")):
        w = f"executables[{i}]"
        if e.__class__ is not dict or e.get("name").__class__ is not str \
                or "\0" in e["name"] or e.get("variants").__class__ is not list \
                or not _plain_keys(e):
            _map(e, w, ("name", "variants"))
            _name(e["name"], w + ".name")
        for j, v in enumerate(_list(e["variants"], w + ".variants")):
            if _plain_variant(v, sections):
                continue
            vw = f"{w}.variants[{j}]"
            _map(v, vw, ("format", "target", "section"))
            _str(v["format"], vw + ".format")
            t = _map(v["target"], vw + ".target")
            if "triple" in t:
                _str(t["triple"], vw + ".target.triple")
            if "features" in t:
                _strs(t["features"], vw + ".target.features")
            packed = v.get("entry_points_packed")
            if packed is not None:               # (1.2) checked when decoded
                _type(packed, bytes, vw + ".entry_points_packed", "a bin")
                if "entry_points" in v:
                    _fail(vw, "has both entry_points and entry_points_packed")
            elif "entry_points" in v:
                check_entry_points(v["entry_points"], vw + ".entry_points")
            else:
                _fail(vw, "missing key 'entry_points' (or 'entry_points_packed')")
            _section(v["section"], vw + ".section", sections, "executable")
    _strs(h["strings"], "strings")
    return h


def check_entry_points(eps, where: str) -> list:
    """Check a variant's entry point list (names unique; counts, bounds and
    binding_shapes in range); return it unchanged (VmfbError naming
    ``where``)."""
    names = set()
    for k, ep in enumerate(_list(eps, where)):
        if _plain_entry_point(ep, names):     # most are fine: no messages built
            continue
        ew = f"{where}[{k}]"
        _map(ep, ew, ("name", "bindings", "constants"))
        if _name(ep["name"], ew + ".name") in names:
            _fail(ew + ".name", f"entry point name {ep['name']!r} appears twice")
        names.add(ep["name"])
        _int(ep["bindings"], ew + ".bindings", 0, MAX_COUNT)
        _int(ep["constants"], ew + ".constants", 0, MAX_COUNT)
        if ep.get("workgroups") is not None:
            _int(ep["workgroups"], ew + ".workgroups", 0, MAX_WORKGROUPS)
        if ep.get("loop_stats", False).__class__ is not bool:
            _fail(ew + ".loop_stats", f"must be a bool, not {ep['loop_stats']!r}")
        if ep.get("binding_bytes") is not None:
            need = _list(ep["binding_bytes"], ew + ".binding_bytes")
            if len(need) != ep["bindings"]:
                _fail(ew + ".binding_bytes", f"has {len(need)} entries for "
                                             f"{ep['bindings']} bindings")
            for i, n in enumerate(need):
                _int(n, f"{ew}.binding_bytes[{i}]")
        if ep.get("binding_shapes") is not None:
            _binding_shapes(ep["binding_shapes"], ep["bindings"], ew + ".binding_shapes")
    return eps


#: Operators of a binding_shapes dim (postfix, over ints and "$word" push constants).
DIM_OPERATORS = ("+", "-", "*", "/", "%", "max", "min")
MAX_DIM_TOKENS = 64


def _binding_shapes(shapes, bindings: int, where: str) -> None:
    """Structure of an entry point's binding_shapes (the HAL checks the
    expressions' arity and push-constant words when it loads the entry)."""
    shapes = _list(shapes, where)
    if len(shapes) != bindings:
        _fail(where, f"has {len(shapes)} entries for {bindings} bindings")
    for i, s in enumerate(shapes):
        if s is None:
            continue
        w = f"{where}[{i}]"
        s = _list(s, w)
        if len(s) != 2:
            _fail(w, "must be [static bytes, [dims]]")
        _int(s[0], w + "[0]")
        for j, dim in enumerate(_list(s[1], w + "[1]")):
            dim = _list(dim, f"{w}[1][{j}]")
            if not 0 < len(dim) <= MAX_DIM_TOKENS:
                _fail(f"{w}[1][{j}]", f"must have 1..{MAX_DIM_TOKENS} tokens")
            for t in dim:
                if type(t) is int:
                    _int(t, f"{w}[1][{j}]", -(1 << 63), (1 << 63) - 1)
                elif not (type(t) is str and (t in DIM_OPERATORS or
                                              (t[:1] == "$" and t[1:].isdigit() and len(t) < 8))):
                    _fail(f"{w}[1][{j}]", f"token {t!r} is not an int, an operator "
                                          f"{DIM_OPERATORS} or a push constant $word")


def to_header(m: ModuleDef, add_section) -> dict:
    """The header dict of ``m``; ``add_section(kind, data, alignment) -> index``
    registers each payload (the caller lays sections out and fills in
    ``sections`` afterwards)."""
    def regs(f):
        return {b: int(f.registers.get(b, 0)) for b in BANKS}

    def initial(g):
        if g.initial is None:
            return None
        if g.initial.__class__ is Initializer:
            return {"call": g.initial.call, "args": [[k, i] for k, i in g.initial.args]}
        return float(g.initial) if g.bank in ("f32", "f64") else g.initial

    return {
        "name": m.name,
        "version": m.version,
        "requirements": {k: list(v) for k, v in (m.requirements or {}).items()},
        "functions": [{"name": f.name, "signature": f.signature, "registers": regs(f),
                       "code": add_section("bytecode", f.code, 64), "exported": bool(f.exported),
                       "reflection_packed": pack_reflection(f.reflection)}
                      for f in m.functions],
        "imports": [{"module": i.module, "name": i.name, "signature": i.signature}
                    for i in m.imports],
        "globals": [{"name": g.name, "bank": g.bank, "initial": initial(g)} for g in m.globals],
        "rodata": [{"name": r.name, "alignment": r.alignment,
                    "section": add_section("rodata", r.data, max(64, r.alignment))}
                   for r in m.rodata],
        "executables": [{"name": e.name, "variants": [
            {"format": v.format, "target": dict(v.target or {}),
             "entry_points_packed": _pack_entry_points(v.entry_points, f"executables[{i}]"
                                                                       f".variants[{j}]"),
             "section": add_section("executable", v.data, 64)} for j, v in enumerate(e.variants)]}
            for i, e in enumerate(m.executables)],
        "strings": list(m.strings),
        "sections": [],
    }


def _pack_entry_points(eps, where: str) -> bytes:
    """A variant's entry points as the 1.2 header stores them, checked first
    (the writer refuses what a reader would)."""
    plain = [_entry_header(ep) for ep in eps]
    check_entry_points(plain, where + ".entry_points")
    return msgpack.packb(plain, use_bin_type=True)


def pack_reflection(reflection):
    """A function's reflection as the header stores it (1.1): its own msgpack
    value inside a bin, so that reading the header skips it (None stays None)."""
    if reflection is None:
        return None
    return msgpack.packb(reflection, use_bin_type=True)


def unpack_one(data, what: str):
    """The one msgpack value filling ``data``, decoded with limits no bigger
    than ``data`` (no ext types; map keys strings); VmfbError("<what>: ...").
    (One ``unpackb`` call: a load decodes its header with no Unpacker object.)"""
    n = len(data)
    try:
        return msgpack.unpackb(data, raw=False, strict_map_key=True, use_list=True,
                               max_str_len=n, max_bin_len=n, max_array_len=n, max_map_len=n,
                               max_ext_len=0)
    except msgpack.ExtraData as e:
        raise VmfbError(f"{what}: {len(e.extra)} bytes after the value") from None
    except Exception as e:  # msgpack raises many types (StackError, UnicodeDecodeError...)
        raise VmfbError(f"{what}: {type(e).__name__}: {e}") from None


def unpack_reflection(data: bytes, where: str) -> dict:
    """The checked reflection of a ``reflection_packed`` bin (VmfbError naming
    ``where`` if it is damaged)."""
    value = unpack_one(data, f"vmfb header: {where}: malformed msgpack")
    if value is None:
        _fail(where, "is nil (a function without reflection has no reflection_packed)")
    return _reflection(value, where)


def _function_reflection(f: dict, index: int):
    """``f``'s reflection: a dict (1.0 headers), None, or a Deferred decoding
    its ``reflection_packed`` on first read."""
    packed = f.get("reflection_packed")
    if packed is None:
        return f.get("reflection")
    where = f"functions[{index}].reflection_packed"
    return Deferred(lambda: unpack_reflection(packed, where))


def _entry_header(ep) -> dict:
    h = {"name": ep.name, "bindings": ep.bindings, "constants": ep.constants}
    if getattr(ep, "workgroups", None) is not None:
        h["workgroups"] = ep.workgroups
    if getattr(ep, "binding_bytes", None) is not None:
        h["binding_bytes"] = list(ep.binding_bytes)
    if getattr(ep, "binding_shapes", None) is not None:
        h["binding_shapes"] = list(ep.binding_shapes)
    if getattr(ep, "loop_stats", False):
        h["loop_stats"] = True
    return h


def _entry_point_defs(eps: list) -> list:
    return [EntryPoint(ep["name"], ep["bindings"], ep["constants"], ep.get("workgroups"),
                       ep.get("binding_bytes"), ep.get("binding_shapes"),
                       ep.get("loop_stats", False)) for ep in eps]


def unpack_entry_points(data: bytes, where: str) -> list:
    """The checked [EntryPoint] of an ``entry_points_packed`` bin (VmfbError
    naming ``where`` if it is damaged)."""
    eps = unpack_one(data, f"vmfb header: {where}: malformed msgpack")
    return _entry_point_defs(check_entry_points(eps, where))


def _variant_entry_points(v: dict, where: str):
    """A variant's entry points: a list (1.0/1.1 headers, checked by validate)
    or a Deferred decoding its ``entry_points_packed`` at the executable's
    first load (a module load costs nothing per kernel)."""
    packed = v.get("entry_points_packed")
    if packed is None:
        return _entry_point_defs(v["entry_points"])
    where += ".entry_points_packed"
    return Deferred(lambda: unpack_entry_points(packed, where))


def _initial(v):
    """A validated global's initial value (an Initializer for a 1.3 map)."""
    if v.__class__ is dict:
        return Initializer(v["call"], tuple((k, i) for k, i in v["args"]))
    return v


def _rodata(r: dict, section_data, range_check) -> RodataDef:
    rd = RodataDef(r["name"], section_data(r["section"]), r["alignment"])
    if range_check is not None:
        rd.check = range_check(r["section"])
    return rd


def from_header(h: dict, section_data, range_check=None) -> ModuleDef:
    """ModuleDef from a validated header; ``section_data(index)`` returns the
    payload view of a section (or a Deferred that checks and returns it);
    ``range_check(index)``, when checksums are checked, the RangeCheck each
    rodata keeps for checking its bytes as they are used (vmfb/chunks.py)."""
    return ModuleDef(
        name=h["name"], version=h["version"], requirements=h["requirements"],
        functions=[FunctionDef(f["name"], f["signature"],
                               {b: f["registers"].get(b, 0) for b in BANKS},
                               section_data(f["code"]), f["exported"], _function_reflection(f, i))
                   for i, f in enumerate(h["functions"])],
        imports=[ImportDef(i["module"], i["name"], i["signature"]) for i in h["imports"]],
        globals=[GlobalDef(g["name"], g["bank"], _initial(g.get("initial")))
                 for g in h["globals"]],
        rodata=[_rodata(r, section_data, range_check) for r in h["rodata"]],
        executables=[ExecutableDef(e["name"], [
            ExecutableVariant(v["format"], v["target"],
                              _variant_entry_points(v, f"executables[{i}].variants[{j}]"),
                              section_data(v["section"]))
            for j, v in enumerate(e["variants"])]) for i, e in enumerate(h["executables"])],
        strings=h["strings"],
    )
