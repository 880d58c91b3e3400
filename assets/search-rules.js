// Generated from encyclopedia/search_rules.py by `python3 -m encyclopedia.search_rules`; do not edit.
// The data both search engines share (diagnose.js here, matching.py in Python).
export default Object.freeze({
  "ANSI": "\\x1b\\[[0-9;?]*[ -/]*[@-~]|\\x1b\\][^\\x07\\x1b]*(?:\\x07|\\x1b\\\\)?|\\x1b[@-_]",
  "PREFIXES": [
    [
      "\\s*\\[(?:rank|RANK|Rank)\\s?([0-9]+)\\]:?\\s?",
      true
    ],
    [
      "\\s*\\[default([0-9]+)\\]:?\\s?",
      true
    ],
    [
      "\\s*([0-9]{1,5}): ",
      true
    ],
    [
      "\\s*\\[?[IWEF][0-9]{4} [0-9][0-9]:[0-9][0-9]:[0-9][0-9]\\.[0-9]+(?: +[0-9]+)? [A-Za-z0-9_.\\-]+:[0-9]+\\] ?",
      false
    ],
    [
      "\\s*\\[?[0-9]{4}-[0-9][0-9]-[0-9][0-9][T ][0-9][0-9]:[0-9][0-9]:[0-9][0-9](?:[.,][0-9]+)?(?:Z|[+-][0-9][0-9]:?[0-9][0-9])?\\]?,?\\s?",
      false
    ],
    [
      "\\s*\\[?[0-9][0-9]:[0-9][0-9]:[0-9][0-9](?:[.,][0-9]+)?\\]?\\s",
      false
    ],
    [
      "\\s*[A-Za-z0-9_.\\-]+:[0-9]+:[0-9]+ \\[[0-9]+\\] ",
      false
    ],
    [
      "\\s*(?:stdout|stderr) [FP] ",
      false
    ],
    [
      "\\s*\\([A-Za-z_][A-Za-z0-9_.\\-]* pid=[0-9]+(?:, ip=[0-9.]+)?\\) ",
      false
    ],
    [
      "\\s*(?:DEBUG|INFO|WARNING|ERROR|CRITICAL) [0-9][0-9]-[0-9][0-9] [0-9][0-9]:[0-9][0-9]:[0-9][0-9](?:\\.[0-9]+)? \\[?[A-Za-z0-9_.\\-/]+:[0-9]+\\] ?",
      false
    ],
    [
      "\\s*\\[(?:INFO|WARN|WARNING|ERROR|DEBUG|CRITICAL|FATAL)\\] ?",
      false
    ],
    [
      "\\s*(?:INFO|WARNING|ERROR|DEBUG|CRITICAL):[A-Za-z0-9_.]+:",
      false
    ],
    [
      "\\s*[A-Za-z][A-Za-z0-9_.\\-]*\\s+\\| ",
      false
    ],
    [
      "\\s*>+ ?",
      false
    ]
  ],
  "MAX_PREFIXES": 6,
  "ESCAPED_BREAK": "\\\\[ntr]",
  "TOKEN_PARTS": [
    [
      "wild",
      "\\{[A-Za-z0-9_.]*\\}|%[sdifr]"
    ],
    [
      "url",
      "[A-Za-z][A-Za-z0-9+.\\-]{0,30}://[^\\s'\\\"<>]*"
    ],
    [
      "quoted",
      "(?<![A-Za-z0-9_])(?:'[^'\\s]{0,200}'|\\\"[^\\\"\\s]{0,200}\\\")(?![A-Za-z0-9_])"
    ],
    [
      "path",
      "(?<![A-Za-z0-9_])(?:[A-Za-z]:\\\\|~?/|\\.\\.?/)[^\\s'\\\"(),;:\\]\\[]*"
    ],
    [
      "source",
      "(?<![A-Za-z0-9_.\\-])[A-Za-z_][A-Za-z0-9_]*\\.(?:c|cc|cpp|cxx|cu|cuh|h|hpp)(?![A-Za-z0-9_]|\\.[A-Za-z0-9_])"
    ],
    [
      "hex",
      "0[xX][0-9a-fA-F]+"
    ],
    [
      "num",
      "[0-9]+(?:[.,:x][0-9]+)*(?:[eE][+-]?[0-9]+)?"
    ],
    [
      "word",
      "[A-Za-z_][A-Za-z0-9_]*"
    ]
  ],
  "SIGNATURE_ONLY_PARTS": [
    "quoted"
  ],
  "UNITS": [
    "b",
    "bytes",
    "byte",
    "kb",
    "kib",
    "mb",
    "mib",
    "gb",
    "gib",
    "tb",
    "tib",
    "pb",
    "pib",
    "eb",
    "k",
    "m",
    "g",
    "ms",
    "s",
    "sec",
    "secs",
    "seconds",
    "second",
    "us",
    "ns",
    "min",
    "mins",
    "minutes",
    "h",
    "hrs",
    "hours",
    "it",
    "its",
    "x"
  ],
  "KEEP_DIGIT_WORDS": [
    "fp16",
    "bf16",
    "fp32",
    "fp64",
    "fp8",
    "int4",
    "int8",
    "int16",
    "int32",
    "int64",
    "uint8",
    "tf32",
    "nf4",
    "sm",
    "float16",
    "float32",
    "float64",
    "bfloat16",
    "e4m3",
    "e5m2"
  ],
  "VERSIONISH": "[a-z]{1,3}_?[0-9]{2,}[a-z]?",
  "SOURCE_FILE": "[A-Za-z_][A-Za-z0-9_]*\\.(?:c|cc|cpp|cxx|cu|cuh|h|hpp)",
  "SHARED_LIBRARY": "[A-Za-z_][A-Za-z0-9_+.\\-]*\\.(?:so(?:\\.[0-9]+)*|dll|dylib|pyd)",
  "SIGNALS": {
    "1": "sighup",
    "2": "sigint",
    "3": "sigquit",
    "4": "sigill",
    "6": "sigabrt",
    "7": "sigbus",
    "8": "sigfpe",
    "9": "sigkill",
    "11": "sigsegv",
    "13": "sigpipe",
    "15": "sigterm"
  },
  "EXIT_STATUS_WORDS": [
    [
      "exitcode"
    ],
    [
      "returncode"
    ],
    [
      "exit",
      "code"
    ],
    [
      "return",
      "code"
    ],
    [
      "exited",
      "with",
      "code"
    ],
    [
      "exit",
      "status"
    ]
  ],
  "FRAME": "\\s*File \"[^\"\\n]*\", line [0-9]+",
  "WARNING_PREFIX": "\\s*(?:\\[?W[0-9]{4} |\\[?WARN(?:ING)?\\b)",
  "PY_WARNING": "[a-z]Warning: ",
  "TRACEBACK_HEADER": "Traceback (most recent call last):",
  "TRACEBACK_CHAIN": [
    "During handling of the above exception, another exception occurred:",
    "The above exception was the direct cause of the following exception:"
  ],
  "MAX_GAP": 8,
  "WILD_GAP": 40,
  "MISS_GAP": 3,
  "MAX_OCCURRENCES": 200,
  "MIN_COVERAGE": 0.6,
  "MIN_INFO": 1.2,
  "MIN_INFO_EXACT": 0.8,
  "FULL_INFO": 2.4,
  "SAME_FAILURE": 0.85,
  "ROOT_SHARE": 0.6,
  "MIN_REPORT": 0.35,
  "WITHOUT_TOP_COVERAGE": 0.85,
  "CONTEXT_LINES": 2,
  "ROLE_ORDER": {
    "cause": 0,
    "consequence": 1,
    "warning": 2
  },
  "ALIAS_GAP": 1,
  "ALIAS_COVERAGE": 0.999,
  "FIELD_WEIGHTS": {
    "title": 3.0,
    "alias": 2.5,
    "tag": 2.5,
    "slug": 2.0,
    "signature": 2.0,
    "system": 1.5,
    "category": 1.0,
    "summary": 1.0
  },
  "MORE_FIELDS_SHARE": 0.1,
  "SENTENCE_WORDS": 4,
  "QUERY_STOPWORDS": [
    "a",
    "an",
    "and",
    "the",
    "of",
    "in",
    "on",
    "to",
    "for",
    "is",
    "with",
    "my",
    "when",
    "how",
    "why",
    "what",
    "error"
  ],
  "VERSION_NUMBER": "(?<![A-Za-z0-9_])[0-9]+(?:[._][0-9]+)+(?![A-Za-z0-9_])",
  "PAIR_BONUS": 0.3,
  "PAIR_BONUS_MAX_PAIRS": 3
});
