"""The data both search engines share: log prefixes, token patterns, word lists and tuning.

encyclopedia/matching.py reads this module; assets/search-rules.js is generated from it
(`python3 -m encyclopedia.search_rules`, which scripts/regenerate.sh runs; a test checks it is
current) and read by
assets/diagnose.js, so the two engines cannot drift apart in their data. Patterns are written in
the syntax both Python's `re` and JavaScript's RegExp read the same way (no named groups, no
inline flags); each engine anchors them as its code says: `match` (JavaScript `^...`),
`fullmatch` (`^...$`) or a scan.
"""

from __future__ import annotations

import json

# -- Normalisation ----------------------------------------------------------------------------

ANSI = r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?|\x1b[@-_]"

# Line prefixes removed before tokenising, tried in turn (anchored at the start of the line) until
# none applies; (pattern, whether its first group is the rank the line belongs to).
PREFIXES = (
    (r"\s*\[(?:rank|RANK|Rank)\s?([0-9]+)\]:?\s?", True),
    (r"\s*\[default([0-9]+)\]:?\s?", True),
    (r"\s*([0-9]{1,5}): ", True),
    # glog: `I1201 09:14:27.118402 48213 file.cc:616] `; PyTorch 2.4+ drops the thread id
    (r"\s*\[?[IWEF][0-9]{4} [0-9][0-9]:[0-9][0-9]:[0-9][0-9]\.[0-9]+(?: +[0-9]+)? [A-Za-z0-9_.\-]+:[0-9]+\] ?", False),
    (r"\s*\[?[0-9]{4}-[0-9][0-9]-[0-9][0-9][T ][0-9][0-9]:[0-9][0-9]:[0-9][0-9](?:[.,][0-9]+)?"
     r"(?:Z|[+-][0-9][0-9]:?[0-9][0-9])?\]?,?\s?", False),
    (r"\s*\[?[0-9][0-9]:[0-9][0-9]:[0-9][0-9](?:[.,][0-9]+)?\]?\s", False),
    (r"\s*[A-Za-z0-9_.\-]+:[0-9]+:[0-9]+ \[[0-9]+\] ", False),  # NCCL debug: host:pid:tid [dev]
    (r"\s*(?:stdout|stderr) [FP] ", False),  # containerd/Kubernetes log stream tag
    (r"\s*\([A-Za-z_][A-Za-z0-9_.\-]* pid=[0-9]+(?:, ip=[0-9.]+)?\) ", False),  # Ray, vLLM workers
    # vLLM's logger: `ERROR 11-30 10:02:11 [core.py:710] ` (level, month-day, time, file:line;
    # older releases print `file.py:57]` without the opening bracket)
    (r"\s*(?:DEBUG|INFO|WARNING|ERROR|CRITICAL) [0-9][0-9]-[0-9][0-9] [0-9][0-9]:[0-9][0-9]:[0-9][0-9]"
     r"(?:\.[0-9]+)? \[?[A-Za-z0-9_.\-/]+:[0-9]+\] ?", False),
    (r"\s*\[(?:INFO|WARN|WARNING|ERROR|DEBUG|CRITICAL|FATAL)\] ?", False),
    (r"\s*(?:INFO|WARNING|ERROR|DEBUG|CRITICAL):[A-Za-z0-9_.]+:", False),  # Python logging default
    (r"\s*[A-Za-z][A-Za-z0-9_.\-]*\s+\| ", False),  # docker compose service name
    (r"\s*>+ ?", False),  # Markdown quote
)
MAX_PREFIXES = 6  # prefixes removed from one line at most
# Escaped line breaks inside one physical line (JSON-wrapped container logs) separate words.
ESCAPED_BREAK = r"\\[ntr]"

# A path is a variable part, except the name of a C/C++/CUDA source file at its end (fullmatch):
# in `[../third_party/gloo/gloo/transport/tcp/pair.cc:598] Connection closed by peer` the file says
# which library printed a message that other libraries word the same way.
SOURCE_FILE = r"[A-Za-z_][A-Za-z0-9_]*\.(?:c|cc|cpp|cxx|cu|cuh|h|hpp)"
# ... and except a shared library at its end (fullmatch), whose name is read as if it stood alone:
# the loader prints the full path (`OSError: /opt/conda/.../libtorch_cuda.so: undefined symbol: X`)
# where a message quoted elsewhere names the library bare (`libcusparse.so.12: undefined symbol`),
# and which library failed to load is the point of the message.
SHARED_LIBRARY = r"[A-Za-z_][A-Za-z0-9_+.\-]*\.(?:so(?:\.[0-9]+)*|dll|dylib|pyd)"

# The kinds of token, tried in this order at each position; each pattern is one group.
TOKEN_PARTS = (
    ("wild", r"\{[A-Za-z0-9_.]*\}|%[sdifr]"),
    # A scheme is short: bounding it keeps runs such as a.a.a.a... linear to scan.
    ("url", r"[A-Za-z][A-Za-z0-9+.\-]{0,30}://[^\s'\"<>]*"),
    # In a signature a quoted name ('weight', "fc.bias") is a wildcard. In a log its words are
    # kept, so a signature may also spell out a name that matters without quotes.
    ("quoted", r"(?<![A-Za-z0-9_])(?:'[^'\s]{0,200}'|\"[^\"\s]{0,200}\")(?![A-Za-z0-9_])"),
    ("path", r"(?<![A-Za-z0-9_])(?:[A-Za-z]:\\|~?/|\.\.?/)[^\s'\"(),;:\]\[]*"),
    # A C/C++/CUDA source or header file named outside a path (`fatal error: Python.h: No such
    # file`, `glm/glm.hpp`) is one word, as at the end of a path: which file it is matters, and
    # read as the words `python` and `h` another file's message would match it. Not part of a
    # dotted name (`transformer.h.0.attn`, `model.transformer.h`).
    ("source", r"(?<![A-Za-z0-9_.\-])" + SOURCE_FILE + r"(?![A-Za-z0-9_]|\.[A-Za-z0-9_])"),
    ("hex", r"0[xX][0-9a-fA-F]+"),
    ("num", r"[0-9]+(?:[.,:x][0-9]+)*(?:[eE][+-]?[0-9]+)?"),
    ("word", r"[A-Za-z_][A-Za-z0-9_]*"),
)
SIGNATURE_ONLY_PARTS = ("quoted",)

UNITS = tuple(
    "b bytes byte kb kib mb mib gb gib tb tib pb pib eb k m g ms s sec secs seconds second us ns "
    "min mins minutes h hrs hours it its x".split()
)
KEEP_DIGIT_WORDS = tuple(
    "fp16 bf16 fp32 fp64 fp8 int4 int8 int16 int32 int64 uint8 tf32 nf4 sm float16 float32 "
    "float64 bfloat16 e4m3 e5m2".split()
)
# A word with digits that looks like a version or an id (`sm80`, `cu121`, `py_310`) is dropped
# (fullmatch), unless it is one of KEEP_DIGIT_WORDS.
VERSIONISH = r"[a-z]{1,3}_?[0-9]{2,}[a-z]?"

# An exit status that encodes a signal is read as the signal's name, so a launcher line such as
# `failed (exitcode: -11)` or a shell's `exit code 139` says SIGSEGV in words a signature can
# require: a negative status -N (Python's subprocess and multiprocessing, torchrun) or 128+N (shells,
# containers). Only after the words that introduce an exit status.
SIGNALS = {1: "sighup", 2: "sigint", 3: "sigquit", 4: "sigill", 6: "sigabrt", 7: "sigbus", 8: "sigfpe",
           9: "sigkill", 11: "sigsegv", 13: "sigpipe", 15: "sigterm"}
EXIT_STATUS_WORDS = (("exitcode",), ("returncode",), ("exit", "code"), ("return", "code"),
                     ("exited", "with", "code"), ("exit", "status"))

# A Python traceback frame line (match).
FRAME = r'\s*File "[^"\n]*", line [0-9]+'
# A line logged at warning level: a glog `W1129 ...` header, `WARNING ...`, `[WARNING]`, Python
# logging's `WARNING:name:` (match), or a Python warning (`UserWarning: `..., searched anywhere).
WARNING_PREFIX = r"\s*(?:\[?W[0-9]{4} |\[?WARN(?:ING)?\b)"
PY_WARNING = r"[a-z]Warning: "
# The first line of a Python traceback (startswith). Under a line logged at warning level it opens
# a traceback the logger printed with the warning (exc_info): warning lines down to the exception.
TRACEBACK_HEADER = "Traceback (most recent call last):"
# The sentences (stripped) between the parts of a chained exception: a logger with exc_info prints
# the whole chain, so a traceback after one of them continues the logged traceback before it.
TRACEBACK_CHAIN = ("During handling of the above exception, another exception occurred:",
                   "The above exception was the direct cause of the following exception:")

# -- Diagnosis --------------------------------------------------------------------------------

MAX_GAP = 8            # words allowed between two consecutive signature words
WILD_GAP = 40          # extra words a wildcard may stand for
MISS_GAP = 3           # extra distance allowed after each missing signature word
MAX_OCCURRENCES = 200  # anchor occurrences tried per signature
MIN_COVERAGE = 0.6     # share of a signature's weight that must be found
MIN_INFO = 1.2         # weight that must be found, so short common phrases never match alone
MIN_INFO_EXACT = 0.8   # ... unless every word of the signature stands in the log, in order, side by
                       # side (`'loss': nan`): a short signature found whole says what it says
FULL_INFO = 2.4        # matched weight at which confidence stops growing
SAME_FAILURE = 0.85    # an occurrence within this share of the best one counts as the same
ROOT_SHARE = 0.6       # a root cause must score at least this share of the best match's score
MIN_REPORT = 0.35      # an entry whose best match scores less is a weak overlap, not reported
WITHOUT_TOP_COVERAGE = 0.85  # coverage needed when the heaviest word is missing
CONTEXT_LINES = 2      # log lines shown around a match
ROLE_ORDER = {"cause": 0, "consequence": 1, "warning": 2}
ALIAS_GAP = 1          # aliases are phrases: their words must stand (almost) together,
ALIAS_COVERAGE = 0.999  # all of them

# -- Free-text query --------------------------------------------------------------------------

FIELD_WEIGHTS = {"title": 3.0, "alias": 2.5, "tag": 2.5, "slug": 2.0, "signature": 2.0,
                 "system": 1.5, "category": 1.0, "summary": 1.0}
MORE_FIELDS_SHARE = 0.1
SENTENCE_WORDS = 4  # a query with more (non-stop) words than this is read as a sentence
QUERY_STOPWORDS = tuple("a an and the of in on to for is with my when how why what error".split())
# A version number in a query ("cuda 10.1", "python 3.6.0") is dropped (scan).
VERSION_NUMBER = r"(?<![A-Za-z0-9_])[0-9]+(?:[._][0-9]+)+(?![A-Za-z0-9_])"
PAIR_BONUS = 0.3  # per pair of query words found side by side in a title, signature or alias
PAIR_BONUS_MAX_PAIRS = 3

SHARED = ("ANSI", "PREFIXES", "MAX_PREFIXES", "ESCAPED_BREAK", "TOKEN_PARTS", "SIGNATURE_ONLY_PARTS",
          "UNITS", "KEEP_DIGIT_WORDS", "VERSIONISH", "SOURCE_FILE", "SHARED_LIBRARY", "SIGNALS", "EXIT_STATUS_WORDS",
          "FRAME", "WARNING_PREFIX", "PY_WARNING", "TRACEBACK_HEADER", "TRACEBACK_CHAIN",
          "MAX_GAP", "WILD_GAP", "MISS_GAP", "MAX_OCCURRENCES",
          "MIN_COVERAGE", "MIN_INFO", "MIN_INFO_EXACT", "FULL_INFO", "SAME_FAILURE", "ROOT_SHARE",
          "MIN_REPORT", "WITHOUT_TOP_COVERAGE", "CONTEXT_LINES", "ROLE_ORDER", "ALIAS_GAP",
          "ALIAS_COVERAGE", "FIELD_WEIGHTS", "MORE_FIELDS_SHARE", "SENTENCE_WORDS", "QUERY_STOPWORDS",
          "VERSION_NUMBER", "PAIR_BONUS", "PAIR_BONUS_MAX_PAIRS")

JS_PATH = "assets/search-rules.js"


def javascript() -> str:
    """assets/search-rules.js: the SHARED names as one frozen object, the module's default export."""
    data = {name: globals()[name] for name in SHARED}
    body = json.dumps(data, indent=2, ensure_ascii=True)
    return ("// Generated from encyclopedia/search_rules.py by `python3 -m encyclopedia.search_rules`; do not edit.\n"
            "// The data both search engines share (diagnose.js here, matching.py in Python).\n"
            f"export default Object.freeze({body});\n")


if __name__ == "__main__":
    from pathlib import Path

    target = Path(__file__).resolve().parent.parent / JS_PATH
    target.write_text(javascript(), encoding="utf-8")
    print(f"Wrote {JS_PATH}")
