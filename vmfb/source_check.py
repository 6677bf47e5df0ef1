"""What kernel source text a module may carry (docs/security.md, "Kernel sources").

An ``opencl-c`` executable is OpenCL C source that the device's compiler
builds at load, and a custom kernel's OpenCL C or CUDA C is built by a C
compiler too.  A preprocessor directive such as ``#include "/etc/passwd"``
would make that compiler read any file the process can read into the
kernel (or into the build log that an error message carries).  This module
finds such constructs the way the preprocessor would see them, after its
own first translation phases, so spellings like ``??=include`` (trigraph),
``#\\``-newline-``include`` (line splice), ``%:include`` (digraph) or
``#/**/include`` (comment) are found as what they are:

1. line endings (``\\r\\n``, ``\\r``) become ``\\n``; trigraphs are replaced;
2. backslash-newline pairs are removed (also with blanks between them, as
   GCC and clang accept);
3. the text is split into preprocessing tokens: comments (both kinds) become
   a blank, string and character literals are skipped as units, ``%:`` is
   ``#`` and ``%:%:`` is ``##``.

Where compilers disagree (trigraphs are off in C++17 and GNU modes; blanks
between a backslash and the newline; clang's ``\\n\\r`` as one line end
after a backslash; ``'`` digit separators of C++14/C23) the text is scanned
under each reading and refused if any finds something, so the check does
not depend on which compiler or mode builds it.  Unicode spaces and a
byte-order mark are blanks, as clang takes them.  tools/fuzz_sources.py
compares the check with clang and GCC preprocessing random sources.

Refused (``check`` returns a ``Finding``):

* any directive outside an allow-list: ``define undef if ifdef ifndef elif
  elifdef elifndef else endif error warning pragma line`` and the null
  directive; so ``#include``, ``#include_next``, ``#import``, ``#embed``,
  clang's ``#__include_macros`` and any future file directive are refused,
  also inside ``#if 0`` groups;
* ``#pragma`` whose first word is not ``OPENCL``, ``STDC``, ``unroll``,
  ``nounroll`` or ``once``, or ``clang``/``GCC`` followed by ``loop``,
  ``unroll`` or ``diagnostic`` (clang reads the pragma's namespace words
  without macro expansion, so the words checked are the words it uses);
  ``#pragma clang __debug crash`` would abort the process that builds,
  ``#pragma GCC dependency "f"`` looks at a file;
* ``#line`` (and GNU's ``# 12 "f"``) with anything but a line number: a
  file name there makes diagnostics name another file;
* a line starting with C++20's ``import`` / ``export import`` (a header
  unit or module read from a file);
* the identifiers ``_Pragma``, ``__pragma`` (a pragma that macro expansion
  can build), ``__has_include``, ``__has_include_next``, ``__has_embed``
  (they probe files), anywhere outside literals;
* token pasting (``##``, ``%:%:``) anywhere: pasting can spell ``_Pragma``
  out of harmless pieces, and generated kernels never paste;
* raw string literals (``R"x(...)x"``, C++): inside them the first two
  phases are undone, which a scan of the spliced text cannot follow.

Pure Python, no dependency: the compiler (custom kernels, at declaration)
and the runtime (``opencl-c`` executables, at load) use the same rules.
"""
from __future__ import annotations

import bisect
import re
from typing import NamedTuple

DIRECTIVES = frozenset(("define", "undef", "if", "ifdef", "ifndef", "elif", "elifdef",
                        "elifndef", "else", "endif", "error", "warning", "pragma", "line"))
PRAGMAS = frozenset(("OPENCL", "STDC", "unroll", "nounroll", "once"))
#: Namespaces whose second word decides: ``#pragma clang loop ...``.
PRAGMA_NAMESPACES = {"clang": frozenset(("loop", "unroll", "diagnostic")),
                     "GCC": frozenset(("unroll", "diagnostic"))}
IDENTIFIERS = {
    "_Pragma": "the _Pragma operator (a pragma that macro expansion can build)",
    "__pragma": "the __pragma operator (a pragma that macro expansion can build)",
    "__has_include": "__has_include (probes whether a file exists)",
    "__has_include_next": "__has_include_next (probes whether a file exists)",
    "__has_embed": "__has_embed (probes a file)",
}
#: The reasons that mean the compiler would read a file into the kernel.
READS_FILE = frozenset(("#include", "#include_next", "#import", "#embed", "#__include_macros"))
#: Directive names that read a file.
READS = frozenset(("include", "include_next", "import", "embed", "__include_macros"))
#: Directive names that are refused even where a ``#`` is not the first token
#: of a line (inside a macro body, after a multi-line comment).
_FILE_DIRECTIVES = frozenset(("include", "include_next", "import", "embed", "pragma", "line",
                              "__include_macros"))


class Finding(NamedTuple):
    """Why a source is refused: ``reason`` (short, stable), ``line`` (1-based,
    in the text as given), ``detail`` (a sentence for the message)."""
    reason: str
    line: int
    detail: str


_TRIGRAPHS = {"=": "#", "/": "\\", "'": "^", "(": "[", ")": "]", "!": "|", "<": "{",
              ">": "}", "-": "~"}
_TRIGRAPH = re.compile(r"\?\?([=/'()!<>-])")
_BLANK_SPLICE = re.compile(r"\\[ \t\f\v]+\n")
#: Blanks: clang also takes Unicode spaces (and a byte-order mark) for
#: blanks, so a '#' after them may still begin a line.
_BLANKS = "\t\f\v\x00 \u0085\u00a0\u1680\u180e\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"
_IDENT_START = rf"(?:[A-Za-z_$]|[^\x00-\x7f{_BLANKS}]|\\[uU])"
_IDENT_CHAR = rf"(?:[A-Za-z0-9_$]|[^\x00-\x7f{_BLANKS}]|\\[uU])"
_IDENT = re.compile(rf"{_IDENT_START}{_IDENT_CHAR}*")
# (only ASCII bounds an identifier here: a non-ASCII neighbour, which may be
# a blank, never hides one)
_IDS = re.compile(r"(?<![A-Za-z0-9_$])(?:" + "|".join(sorted(IDENTIFIERS, key=len, reverse=True))
                  + r")(?![A-Za-z0-9_$\\])")


def _lexer(separators: bool, fast: bool):
    """The preprocessing-token lexer; ``fast``: other code in runs (``code``)
    rather than one token per identifier, number and punctuator."""
    number_tail = r"[eEpP][+-]|" + (r"'[A-Za-z0-9_]|" if separators else "") + \
        rf"[A-Za-z0-9_.$]|[^\x00-\x7f{_BLANKS}]|\\[uU]"
    ident = rf"{_IDENT_START}{_IDENT_CHAR}*"
    # Code that holds no comment, literal, '#', '%:' (nor a number where
    # numbers may hold a "'"): identifiers, blanks, other punctuators.
    # Without separators identifiers need no boundaries here (_identifiers
    # finds them in the run), so the run is mostly one character class.
    chars = (rf"(?:{ident}|[^\n\"'/#%\\A-Za-z0-9_$.\x80-\U0010ffff]+|[{_BLANKS}]+)" if separators
             else rf"(?:[^\n\"'/#%\\{_BLANKS}]+|[{_BLANKS}]+|\\[uU])")
    # A newline joins the run unless a '#' (or a comment, which may hide
    # one) begins the next line.
    newline = rf"\n(?![{_BLANKS}]*(?:#|%:|/\*|//|\n))"
    code = rf"(?P<code>(?:{chars}|{newline}|/(?![/*])|%(?!:))+)"
    num = rf"(?P<num>\.?[0-9](?:{number_tail})*)"
    return re.compile("|".join((
        r"(?P<nl>\n)",
        rf"(?P<ws>[{_BLANKS}]+)",
        r"(?P<lc>//[^\n]*)",
        r"(?P<bc>/\*(?:.*?\*/|.*))",
        r"(?P<str>\"(?:[^\"\\\n]|\\[^\n])*\"?)",
        r"(?P<chr>'(?:[^'\\\n]|\\[^\n])*'?)",
        r"(?P<paste>##|%:%:)",
        r"(?P<hash>#|%:)",
        *((num, code) if fast and separators else (code,) if fast else
          (num, rf"(?P<id>{ident})")),
        r"(?P<p>.)",
    )), re.S)


_LEXERS = {(sep, fast): _lexer(sep, fast) for sep in (False, True) for fast in (False, True)}
_RAW_PREFIX = re.compile(r"(?:^|(?<=[^A-Za-z0-9_$]))(?:u8|[uUL])?R\"")
#: C++20's ``import "f";`` / ``export import m;`` at the start of a line.
_IMPORT = re.compile(rf"\n[{_BLANKS}]*(?:export[{_BLANKS}]+)?import(?![A-Za-z0-9_$])")
#: Quick exit: spliced text without any of these cannot hold a finding.
_SUSPECT = re.compile(r"#|%:|_Pragma|__pragma|__has_|R\"|\\[uU]|import")
#: Where a "'" may be a digit separator (a superset: a digit, pp-number
#: characters, "'", a digit or letter).
_SEPARATOR = re.compile(r"[0-9][0-9A-Za-z_.$+-]*'[0-9A-Za-z_]")
_UCN = re.compile(r"\\u([0-9A-Fa-f]{4})|\\U([0-9A-Fa-f]{8})")


def _name(spelling: str) -> str:
    """An identifier as the compiler names it: universal character names
    decoded (``_Pr\\u0061gma`` is refused by compilers but still ``_Pragma``)."""
    if "\\" not in spelling:
        return spelling

    def dec(m):
        try:
            return chr(int(m.group(1) or m.group(2), 16))
        except (ValueError, OverflowError):
            return "?"
    return _UCN.sub(dec, spelling)


def _splice_mark(_m) -> str:
    return "\\\n"


def _splice(text: str):
    """Phase 2: ``text`` without backslash-newline pairs, and the positions (in
    the result) where a newline was removed, for mapping back to lines."""
    if "\\\n" not in text:
        return text, []
    parts = text.split("\\\n")
    removed, pos = [], 0
    for p in parts[:-1]:
        pos += len(p)
        removed.append(pos)
    return "".join(parts), removed


def _readings(text: str):
    """Phases 1-2 under every reading where compilers differ: ``(spliced
    text, removed newline positions, what the reading assumed)``."""
    for pairs in ((False, True) if "\n\r" in text else (False,)):
        # clang takes "\n\r" after a backslash as one line end (the splice
        # then also eats the "\r"); GCC and the standard take two.
        raw = text.replace("\n\r", "\n") if pairs else text
        norm = raw.replace("\r\n", "\n").replace("\r", "\n")
        for trigraphs in ((False, True) if _TRIGRAPH.search(norm) else (False,)):
            phase1 = _TRIGRAPH.sub(lambda m: _TRIGRAPHS[m.group(1)], norm) if trigraphs else norm
            for blanks in ((False, True) if _BLANK_SPLICE.search(phase1) else (False,)):
                spliced, removed = _splice(_BLANK_SPLICE.sub(_splice_mark, phase1)
                                           if blanks else phase1)
                yield spliced, removed, [w for w, on in (
                    ("trigraphs", trigraphs), ("blanks before line splices", blanks),
                    ("'\\n\\r' as one line end", pairs)) if on]


def check(text: str) -> Finding | None:
    """The first construct of ``text`` (OpenCL C, CUDA C/C++) that could make
    the compiler read a file, or is refused for safety (module doc), or None.
    The readings scanned cover C and C++ alike, so one rule serves both."""
    findings = []
    for spliced, removed, how in _readings(text):
        if not _SUSPECT.search(spliced):
            continue
        for sep in ((False, True) if _SEPARATOR.search(spliced) else (False,)):
            found = _scan(spliced, _LEXERS[sep, True], _LEXERS[sep, False])
            if found is None:
                continue
            pos, reason, detail = found
            line = spliced.count("\n", 0, pos) + 1 + bisect.bisect_right(removed, pos)
            assumed = how + (["digit separators"] if sep else [])
            if assumed:
                detail += f" (reading the source with {' and '.join(assumed)})"
            findings.append(Finding(reason, line, detail))
    # Readings rarely differ; where they do, name what a reading found to be
    # read (``#include``) rather than the odd token another one stopped at.
    findings.sort(key=lambda f: f.reason not in READS_FILE)
    return findings[0] if findings else None


def _scan(text: str, fast, precise):
    """(position, reason, detail) of the first finding in spliced ``text``.
    ``fast`` lexes what matters (newlines, comments, literals, ``#``) and
    takes other code in runs; each ``#`` is examined with ``precise``."""
    m = _RAW_PREFIX.search(text)
    if m is not None:
        return (m.start(), "raw string literal",
                "a raw string literal (R\"...\"), which the check cannot follow")
    line_start = True
    for m in fast.finditer(text):
        kind = m.lastgroup
        if kind == "nl":
            line_start = True
        elif kind == "ws" or kind == "lc":
            pass
        elif kind == "bc":
            if "\n" in m.group():          # conservatively: what follows may start a line
                line_start = True
        elif kind == "hash":
            found = _directive(text, precise, m.start(), m.end(), line_start)
            if found is not None:
                return found
            line_start = False
        else:
            if kind == "paste":
                return (m.start(), "token pasting",
                        f"token pasting ('{m.group()}'), which can spell _Pragma")
            if kind == "code":
                code = m.group()
                found = _identifiers(code, m.start())
                if found is not None:
                    return found
                lead = "\n" if line_start else ""
                i = _IMPORT.search(lead + code)
                if i is not None:
                    return (m.start() + i.start() + 1 - len(lead), "import",
                            "a C++20 'import' at the start of a line (a header unit or "
                            "module is read from a file)")
            line_start = False
    return None


def _identifiers(code: str, pos: int):
    """A refused identifier in a run of code (``IDENTIFIERS``), or None."""
    if "\\" in code:
        for m in _IDENT.finditer(code):
            name = _name(m.group())
            if name in IDENTIFIERS:
                return pos + m.start(), name, IDENTIFIERS[name]
        return None
    m = _IDS.search(code)
    if m is not None:
        return pos + m.start(), m.group(), IDENTIFIERS[m.group()]
    return None


def _token(text: str, precise, p: int):
    """The next token from ``p`` that is not a blank or a block comment
    (phase 3 makes a comment one blank, even a multi-line one):
    ``(kind, spelling, end)``; ``("nl", "", p)`` at the end of the text."""
    while True:
        m = precise.match(text, p)
        if m is None:
            return "nl", "", p
        if m.lastgroup != "ws" and m.lastgroup != "bc":
            kind, val = m.lastgroup, m.group()
            return kind, (_name(val) if kind == "id" else val), m.end()
        p = m.end()


def _directive(text: str, precise, pos: int, after: int, line_start: bool):
    """Check the ``#`` at ``pos`` (``after``: just past it); a finding or None."""
    kind, val, end = _token(text, precise, after)
    if not line_start:
        if kind == "id" and val in _FILE_DIRECTIVES:
            return pos, f"#{val}", f"'#{val}' (refused anywhere, even where it is not a directive)"
        return None
    if kind == "nl" or kind == "lc":
        return None                                  # the null directive
    if kind == "num":
        return _line_args(text, precise, end, pos, "line marker", f"a line marker '# {val} ...'")
    if kind != "id":
        return pos, "unknown directive", f"a directive '#{val}' that is not on the allow-list"
    if val not in DIRECTIVES:
        if val in READS:
            return pos, f"#{val}", f"the directive '#{val}' reads another file"
        return pos, "unknown directive", f"the directive '#{val}' is not on the allow-list"
    if val == "line":
        kind, num, end = _token(text, precise, end)
        if kind != "num":
            return pos, "#line", "'#line' without a plain line number"
        return _line_args(text, precise, end, pos, "#line", f"'#line {num} ...'")
    if val == "pragma":
        kind, word, end = _token(text, precise, end)
        if kind == "id" and word in PRAGMAS:
            return None
        shown = word
        if kind == "id" and word in PRAGMA_NAMESPACES:
            kind, sub, end = _token(text, precise, end)
            if kind == "id" and sub in PRAGMA_NAMESPACES[word]:
                return None
            shown = f"{word} {sub}".strip()
        return pos, "#pragma", f"'#pragma {shown}' is not on the pragma allow-list"
    return None


def _line_args(text, precise, end, pos, reason, what):
    """A line number must end its directive: a file name after it is refused."""
    kind, _, _ = _token(text, precise, end)
    if kind != "nl" and kind != "lc":
        return pos, reason, f"{what} names a file"
    return None
