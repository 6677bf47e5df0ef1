"""The ``einsum_config`` string of ``stablehlo.einsum`` / ``unary_einsum``:
``"<in>,<in>-><out>"`` in letters, at most one ``...`` per term (the dims no
letter names, right-aligned, as in numpy); without ``->`` the output is
numpy's implicit one (the ``...`` dims, then the letters seen once, sorted).
Read by the verifier (dialects/stablehlo/contraction.py) and the decomposition
(passes/decompose_einsum.py)."""
from __future__ import annotations

_LETTERS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")


def parse(text: str, ranks, shapes=None):
    """``(labels per operand, output labels, {label: size})`` for operands of
    ``ranks`` (``shapes``, when given, checks the sizes a label spans; None
    sizes are dynamic); raises ValueError saying what is wrong."""
    text = text.replace(" ", "")
    lhs, arrow, out = text.partition("->")
    ins = lhs.split(",")
    if len(ins) != len(ranks):
        raise ValueError(f"einsum_config {text!r} names {len(ins)} operand(s); the op has {len(ranks)}")
    for term in ins + ([out] if arrow else []):
        if term.count("...") > 1 or any(c not in _LETTERS for c in term.replace("...", "")):
            raise ValueError(f"einsum_config {text!r}: {term!r} is not letters with at most one '...'")
    n_ell = 0
    for term, r in zip(ins, ranks):
        named = len(term.replace("...", ""))
        if "..." not in term and named != r:
            raise ValueError(f"einsum_config {text!r}: {term!r} names {named} dims; the operand has rank {r}")
        if named > r:
            raise ValueError(f"einsum_config {text!r}: {term!r} names more dims than the operand's rank {r}")
        if "..." in term:
            n_ell = max(n_ell, r - named)
    used = set(text)
    ell = [c for c in "ZYXWVUTSRQPONMLKJIHGFEDCBA" if c not in used][:n_ell][::-1]

    def expand(term, k):
        if "..." not in term:
            return list(term)
        head, tail = term.split("...")
        return list(head) + (ell[len(ell) - k:] if k else []) + list(tail)

    labels = [expand(t, r - len(t.replace("...", ""))) for t, r in zip(ins, ranks)]
    if arrow:
        out_labels = expand(out, n_ell)
    else:
        counts = {}
        for ls in labels:
            for l in ls:
                counts[l] = counts.get(l, 0) + 1
        out_labels = [l for l in ell if l in counts] + sorted(
            l for l, c in counts.items() if c == 1 and l not in ell)
    if len(set(out_labels)) != len(out_labels):
        raise ValueError(f"einsum_config {text!r}: an output index repeats")
    every = set().union(*map(set, labels))
    for l in out_labels:
        if l not in every:
            raise ValueError(f"einsum_config {text!r}: output index {l!r} is in no operand")
    sizes = {}
    for ls, shape in zip(labels, shapes or ()):
        for l, s in zip(ls, shape):
            if s is None:
                continue
            if sizes.setdefault(l, s) != s:
                raise ValueError(f"einsum_config {text!r}: index {l!r} has sizes {sizes[l]} and {s}")
    return labels, out_labels, sizes
