"""Error-text search: normalising logs and signatures, diagnosing pasted logs, free-text queries.

assets/diagnose.js implements the same algorithm for the browser, function for function; both read
their data (patterns, word lists, tuning) from encyclopedia/search_rules.py (the browser through
the generated assets/search-rules.js) and pass the shared cases in tests/conformance/cases.json
(docs/search.md describes the algorithm).
Every regular expression here is linear: no nested or overlapping quantifiers.
"""

from __future__ import annotations

import math
import re
from bisect import bisect_left, bisect_right
from dataclasses import dataclass

from . import search_rules as R

# ---------------------------------------------------------------------------------------------
# Normalisation

WILD = "*"  # a wildcard token in a signature: any text may stand here

ANSI_RE = re.compile(R.ANSI)
# Line prefixes removed before tokenising, tried in turn until none applies (search_rules.PREFIXES).
PREFIX_RES = tuple((re.compile(pattern), names_rank) for pattern, names_rank in R.PREFIXES)
ESCAPED_BREAK_RE = re.compile(R.ESCAPED_BREAK)
TOKEN_RE_SIGNATURE = re.compile("|".join(f"(?P<{name}>{p})" for name, p in R.TOKEN_PARTS))
TOKEN_RE_LOG = re.compile("|".join(f"(?P<{name}>{p})" for name, p in R.TOKEN_PARTS
                                   if name not in R.SIGNATURE_ONLY_PARTS))
UNITS = frozenset(R.UNITS)
KEEP_DIGIT_WORDS = frozenset(R.KEEP_DIGIT_WORDS)
SIGNALS = R.SIGNALS
EXIT_STATUS_WORDS = R.EXIT_STATUS_WORDS
FRAME_RE = re.compile(R.FRAME)
WORD_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")
VERSIONISH_RE = re.compile(R.VERSIONISH)
SOURCE_FILE_RE = re.compile(R.SOURCE_FILE)
SHARED_LIBRARY_RE = re.compile(R.SHARED_LIBRARY)
WARNING_PREFIX_RE = re.compile(R.WARNING_PREFIX)
PY_WARNING_RE = re.compile(R.PY_WARNING)


@dataclass(frozen=True)
class Line:
    text: str  # the line as pasted, without ANSI codes
    rank: int | None
    warning: bool = False  # logged at warning level: evidence, but rarely what stopped the run


def split_lines(text: str) -> list[Line]:
    """Lines of a pasted text without ANSI codes or log prefixes, each with its rank if named."""
    out = []
    # Per stream (a rank, or the lines of no rank): whether its previous line was logged at warning
    # level by a logger, and where it stands in a traceback that such a line printed under itself.
    streams: dict[int | None, _LoggedTraceback] = {}
    stream = None
    for raw in re.split(r"\r\n|\r|\n", text):
        line = ANSI_RE.sub("", raw)
        rank = None
        warning = False
        for _ in range(R.MAX_PREFIXES):
            warning = warning or WARNING_PREFIX_RE.match(line) is not None
            for rx, names_rank in PREFIX_RES:
                m = rx.match(line)
                if m and m.end() > 0:
                    if names_rank and rank is None:
                        rank = int(m.group(1))
                    line = line[m.end():]
                    break
            else:
                break
        by_logger = warning or WARNING_PREFIX_RE.match(line) is not None
        # Ranks interleave their lines; a line that names no rank continues the stream before it (a
        # logger's format may name the rank on its first line only, not on the traceback's).
        if rank is not None:
            stream = rank
        tracker = streams.get(stream)
        if tracker is None:  # not setdefault: that would build a tracker for every line
            tracker = streams[stream] = _LoggedTraceback()
        in_traceback = tracker.follow(line, by_logger)
        warning = by_logger or in_traceback or PY_WARNING_RE.search(line) is not None
        out.append(Line(line, rank, warning))
    return out


class _LoggedTraceback:
    """A logger's warning with exc_info prints the traceback of an exception it caught and survived
    right under itself (xFormers without Triton): that traceback, with the exceptions chained to
    it, is part of the warning, down to the exception line that ends it."""

    def __init__(self) -> None:
        self.logged = False  # the previous line was logged at warning level by a logger
        self.indent: int | None = None  # the header's indentation while inside such a traceback
        self.ended = False  # its exception line passed; only blank lines and chain sentences since
        self.chained = False  # ... and a chain sentence: the next traceback continues it

    def follow(self, line: str, by_logger: bool) -> bool:
        """Whether this line belongs to a traceback the stream's logged warning printed."""
        body = line.lstrip(" \t")
        indent = len(line) - len(body)
        part = True
        if self.indent is not None:
            if body and indent <= self.indent:  # the exception line (a paste may indent it all)
                self.indent, self.ended, self.chained = None, True, False
        elif body.startswith(R.TRACEBACK_HEADER) and (self.logged or self.chained):
            self.indent, self.ended, self.chained = indent, False, False
        elif self.ended and body.rstrip(" \t") in R.TRACEBACK_CHAIN:
            self.chained = True
        elif not (self.ended and not body):
            self.ended = self.chained = part = False
        self.logged = by_logger and not part
        return part


def tokenize_line(line: str, signature: bool = False) -> list[str]:
    """The comparable words of one line: lowercase, variable parts dropped, wildcards kept."""
    tokens: list[str] = []
    after_number = False
    if "\\" in line:
        line = ESCAPED_BREAK_RE.sub(" ", line)
    for m in (TOKEN_RE_SIGNATURE if signature else TOKEN_RE_LOG).finditer(line):
        kind = m.lastgroup
        if kind in ("wild", "quoted"):
            if not tokens or tokens[-1] != WILD:
                tokens.append(WILD)
            # `{timeout} seconds`: a unit after a placeholder is dropped, as after a number in a log.
            after_number = kind == "wild"
        elif kind == "word":
            word = m.group().lower()
            if after_number and word in UNITS:
                after_number = False
                continue
            after_number = False
            if any("0" <= c <= "9" for c in word) and word not in KEEP_DIGIT_WORDS \
                    and VERSIONISH_RE.fullmatch(word):
                continue
            tokens.append(word)
        elif kind == "path":
            after_number = False
            name = m.group().replace("\\", "/").rpartition("/")[2]
            if SOURCE_FILE_RE.fullmatch(name):
                tokens.append(name.lower())
            elif SHARED_LIBRARY_RE.fullmatch(name):
                tokens.extend(tokenize_line(name, signature))
        elif kind == "source":
            after_number = False
            tokens.append(m.group().lower())
        else:
            after_number = kind in ("num", "hex")
            if kind == "num":
                signal = _exit_signal(tokens, m.group(), line[m.start() - 1:m.start()] == "-")
                if signal:
                    tokens.append(signal)
    return tokens


def paths_in(text: str, signature: bool = True) -> list[str]:
    """The paths a text holds that search drops whole (keeping at most a source file's or shared
    library's name), in order: the words inside them never reach a match."""
    rx = TOKEN_RE_SIGNATURE if signature else TOKEN_RE_LOG
    out = []
    for m in rx.finditer(text):
        if m.lastgroup == "path":
            name = m.group().replace("\\", "/").rpartition("/")[2]
            if not (SOURCE_FILE_RE.fullmatch(name) or SHARED_LIBRARY_RE.fullmatch(name)):
                out.append(m.group())
    return out


def _exit_signal(tokens: list[str], number: str, negative: bool) -> str | None:
    """The signal an exit status names, when the words before it introduce one."""
    if not number.isdigit() or not any(tuple(tokens[-len(w):]) == w for w in EXIT_STATUS_WORDS):
        return None
    n = int(number)
    return SIGNALS.get(n) if negative else SIGNALS.get(n - 128) if n > 128 else None


def tokenize(text: str, signature: bool = False) -> list[str]:
    """All comparable words of a text, across lines; `signature` reads quoted names as wildcards."""
    out: list[str] = []
    for line in split_lines(text):
        out.extend(tokenize_line(line.text, signature))
    return out


# ---------------------------------------------------------------------------------------------
# Weights (computed at build time, shipped in the search index)

STOPWORDS = frozenset(
    """a an and are as at be been but by can could did do does for from had has have if in into
    is it its may might more must no not of on or our so such than that the their then there these
    this to was were when which while will with would you your please try see set use using used
    error errors exception failed fail failure warning warn info debug note traceback most recent
    call last file line module self return raise raised runtimeerror valueerror typeerror
    assertionerror true false none site packages py lib""".split()
)
STOPWORD_CAP = 0.15
MIN_WEIGHT = 0.05


def compute_weights(documents: list[set[str]], vocabulary: set[str]) -> dict[str, float]:
    """Inverse document frequency of each vocabulary word over per-entry word sets, in (0, 1].

    Rare words (in one entry's signatures and examples) weigh about 1; words every entry shares,
    and a fixed list of generic log words, weigh little.
    """
    n = len(documents)
    df: dict[str, int] = {}
    for doc in documents:
        for w in doc:
            if w in vocabulary:
                df[w] = df.get(w, 0) + 1
    # Scaled so a word found in one entry weighs 1 however small the collection is.
    top = math.log((n + 1) / 1.5)
    weights = {}
    for w in sorted(vocabulary):
        if w == WILD:
            continue
        idf = math.log((n + 1) / (max(1, df.get(w, 0)) + 0.5)) / top if n > 0 else 1.0
        if w in STOPWORDS:
            idf = min(idf, STOPWORD_CAP)
        if len(w) <= 2:
            idf = min(idf, 0.3)
        weights[w] = round(max(MIN_WEIGHT, min(1.0, idf)), 3)
    return weights


# ---------------------------------------------------------------------------------------------
# Diagnosis

MAX_GAP, WILD_GAP, MISS_GAP, MAX_OCCURRENCES = R.MAX_GAP, R.WILD_GAP, R.MISS_GAP, R.MAX_OCCURRENCES
MIN_COVERAGE, MIN_INFO, MIN_INFO_EXACT, FULL_INFO = R.MIN_COVERAGE, R.MIN_INFO, R.MIN_INFO_EXACT, R.FULL_INFO
SAME_FAILURE, ROOT_SHARE, MIN_REPORT = R.SAME_FAILURE, R.ROOT_SHARE, R.MIN_REPORT
WITHOUT_TOP_COVERAGE, CONTEXT_LINES, ROLE_ORDER = R.WITHOUT_TOP_COVERAGE, R.CONTEXT_LINES, R.ROLE_ORDER
ALIAS_GAP, ALIAS_COVERAGE = R.ALIAS_GAP, R.ALIAS_COVERAGE


def round3(x: float) -> float:
    """Round half up to three decimals, exactly as diagnose.js does."""
    return math.floor(x * 1000 + 0.5) / 1000


@dataclass(frozen=True)
class PreparedSignature:
    entry: int
    text: str
    variant: str
    kind: str  # "signature" or "alias"
    tokens: tuple[str, ...]
    weights: tuple[float, ...]
    total: float
    anchors: tuple[int, ...]
    contiguous: bool  # two or more words and no wildcard: it can be found whole, side by side
    named: bool  # the only anchor tried is the name after `has no attribute`, so it is always found


@dataclass(frozen=True)
class Prepared:
    """The search index made ready for matching (derived once per index)."""

    entries: tuple[dict, ...]
    signatures: tuple[PreparedSignature, ...]
    by_token: dict  # token -> indexes of signatures that anchor on it
    vocabulary: frozenset


def _attribute_name(toks: list[str]) -> int:
    """The position of the word after `has no attribute`, or -1."""
    for i in range(3, len(toks)):
        if toks[i - 3:i] == ["has", "no", "attribute"] and toks[i] != WILD:
            return i
    return -1


def prepare(index: dict) -> Prepared:
    weights = index["weights"]
    sigs = []
    for ei, e in enumerate(index["entries"]):
        items = [(s[0], s[1] if len(s) > 1 else "", "signature") for s in e["signatures"]]
        items += [(a, "", "alias") for a in e.get("aliases", [])]
        for text, variant, kind in items:
            toks = tokenize(text, signature=True)
            while toks and toks[0] == WILD:
                toks.pop(0)
            while toks and toks[-1] == WILD:
                toks.pop()
            if not toks:
                continue
            ws = tuple(0.0 if t == WILD else weights.get(t, 1.0) for t in toks)
            total = 0.0  # added in order, as diagnose.js does (sum() compensates from Python 3.12)
            for w in ws:
                total += w
            order = sorted((i for i, t in enumerate(toks) if t != WILD), key=lambda i: (-ws[i], i))
            # Python's AttributeError names the missing attribute last: another name after
            # `has no attribute` is another failure, however well the module or class matches.
            named = _attribute_name(toks) if kind == "signature" else -1
            if named >= 0:
                order.remove(named)
                order.insert(0, named)
            anchors = tuple(order[:2])
            contiguous = len(toks) >= 2 and WILD not in toks
            sigs.append(PreparedSignature(ei, text, variant, kind, tuple(toks), ws, total, anchors, contiguous,
                                          named >= 0))
    by_token: dict[str, list[int]] = {}
    vocab = set()
    for si, s in enumerate(sigs):
        vocab.update(t for t in s.tokens if t != WILD)
        for a in s.anchors:
            by_token.setdefault(s.tokens[a], []).append(si)
    return Prepared(tuple(index["entries"]), tuple(sigs), by_token, frozenset(vocab))


@dataclass(frozen=True)
class Match:
    slug: str
    title: str
    url: str
    category: str
    severity: str
    role: str
    score: float
    line: int  # 1-based line of the first occurrence
    end_line: int
    rank: int | None
    signature: str
    variant: str
    kind: str
    text: str  # the log text of the first occurrence
    before: str  # up to CONTEXT_LINES lines before it
    after: str  # and after it
    root_cause: bool
    alternative_to: str | None
    summary: str = ""  # the entry's summary, plain text ("" when the index has no details)
    ranks: tuple = ()  # (rank, 1-based line) where the failure first shows on each rank named
    fix: str = ""  # the entry's fix, plain text ("" when the index has no details)

    def as_json(self) -> dict:
        return {
            "slug": self.slug, "title": self.title, "url": self.url, "score": self.score,
            "line": self.line, "end_line": self.end_line, "rank": self.rank,
            "category": self.category, "severity": self.severity, "role": self.role,
            "signature": self.signature, "variant": self.variant, "matched_by": self.kind,
            "text": self.text, "before": self.before, "after": self.after,
            "root_cause": self.root_cause, "alternative_to": self.alternative_to, "summary": self.summary,
            "fix": self.fix, "ranks": [{"rank": r, "line": n} for r, n in self.ranks],
        }


def _align(sig: PreparedSignature, anchor: int, pos: int, positions: dict,
           stream_line: list) -> tuple[float, int, int, bool]:
    """Weight found, first and last position, and whether the heaviest word was found, when the
    anchor word sits at pos. A short signature (less weight than FULL_INFO, so little evidence
    when partly found) gives (0, pos, pos, False) when the log puts a word of its own between two
    of its words that stand side by side, on one line: `list index out of range` is not the
    message `index out of range in self`, only a neighbour of it. Longer signatures tolerate
    reworded variants; aliases are phrases, exempt."""
    max_gap = ALIAS_GAP if sig.kind == "alias" else MAX_GAP
    literal = sig.kind != "alias" and sig.total < FULL_INFO
    found = sig.weights[anchor]
    heaviest = sig.anchors[0]
    top_found = anchor == heaviest
    first = last = pos
    # forward
    cur, slack = pos, 0
    for i in range(anchor + 1, len(sig.tokens)):
        t = sig.tokens[i]
        if t == WILD:
            slack += WILD_GAP
            continue
        plist = positions.get(t)
        if plist:
            j = bisect_right(plist, cur)
            if j < len(plist) and plist[j] <= cur + max_gap + slack:
                # slack 0: the signature word before this one was found, at cur
                if literal and slack == 0 and plist[j] > cur + 1 and stream_line[plist[j]] == stream_line[cur]:
                    return 0.0, pos, pos, False
                cur = plist[j]
                found += sig.weights[i]
                top_found = top_found or i == heaviest
                last = cur
                slack = 0
                continue
        slack += MISS_GAP
    # backward
    cur, slack = pos, 0
    for i in range(anchor - 1, -1, -1):
        t = sig.tokens[i]
        if t == WILD:
            slack += WILD_GAP
            continue
        plist = positions.get(t)
        if plist:
            j = bisect_left(plist, cur) - 1
            if j >= 0 and plist[j] >= cur - max_gap - slack:
                if literal and slack == 0 and plist[j] < cur - 1 and stream_line[plist[j]] == stream_line[cur]:
                    return 0.0, pos, pos, False
                cur = plist[j]
                found += sig.weights[i]
                top_found = top_found or i == heaviest
                first = cur
                slack = 0
                continue
        slack += MISS_GAP
    return found, first, last, top_found


def diagnose(index: dict | Prepared, text: str) -> list[dict]:
    """The failures a log shows, as JSON-ready dicts: the root cause first, then the others in
    order of first occurrence, then weaker alternative explanations of the same lines."""
    return [m.as_json() for m in diagnose_matches(index, text)]


@dataclass(frozen=True)
class Scan:
    """A log read for matching: its lines, the line of each word, where signature words occur."""

    lines: list
    stream_line: list
    positions: dict
    skipped_source: bool  # source lines under traceback frames were left out


def scan(prep: Prepared, text: str, read_source: bool = False) -> Scan:
    lines = split_lines(text)
    stream_line: list[int] = []
    positions: dict[str, list[int]] = {}
    vocab = prep.vocabulary
    # A terminal that hard-wraps at a fixed width splits words ("illegal me" / "mory access"):
    # when a line ends inside a word and the next starts with one, the two halves joined also
    # count as a word, at the position of the first half.
    tail: tuple[str, int] | None = None  # last word of the previous line, if it ended in a word
    frame_indent = -1  # indentation of the previous line when it was a traceback frame
    skipped = False
    for li, line in enumerate(lines):
        # The line after a Python traceback frame, indented deeper than the frame, is source
        # code, not output: a message quoted in code must not count as the message printed
        # (unless the paste holds nothing else that matches: see diagnose_matches). A paste
        # indented as a whole keeps the error line at the frame's depth or less.
        indent = len(line.text) - len(line.text.lstrip(" \t"))
        source = frame_indent >= 0 and indent > frame_indent and not (
            read_source and line.text.lstrip().startswith("raise "))
        skipped = skipped or source
        frame_indent = indent if FRAME_RE.match(line.text) else -1
        toks = [] if source else [t for t in tokenize_line(line.text) if t != WILD]
        if tail and toks and line.text[:1] in WORD_CHARS:
            joined = tail[0] + toks[0]
            if joined in vocab:
                positions.setdefault(joined, []).append(tail[1])
        for tok in toks:
            if tok in vocab:
                positions.setdefault(tok, []).append(len(stream_line))
            stream_line.append(li)
        tail = (toks[-1], len(stream_line) - 1) if toks and line.text[-1:] in WORD_CHARS else None
    return Scan(lines, stream_line, positions, skipped)


def _holds(plist: list, pos: int) -> bool:
    """Whether the sorted positions include pos."""
    j = bisect_left(plist, pos)
    return j < len(plist) and plist[j] == pos


def match_signatures(prep: Prepared, positions: dict, stream_line: list) -> dict[int, tuple]:
    """Every signature found: index -> (score, first position, last position, every accepted
    occurrence as (score, first, last)). Only signatures whose anchor words occur are tried."""
    out = {}
    candidates = sorted({si for tok in positions for si in prep.by_token.get(tok, ())})
    for si in candidates:
        sig = prep.signatures[si]
        min_coverage = ALIAS_COVERAGE if sig.kind == "alias" else MIN_COVERAGE
        occurrences = []  # (found, first, last)
        # A named attribute is found where the log names it: right after `attribute`.
        anchors = sig.anchors[:1] if sig.named else sig.anchors
        after = positions.get("attribute", []) if sig.named else None
        for anchor in anchors:
            plist = positions.get(sig.tokens[anchor])
            if not plist:
                continue
            for pos in plist[:MAX_OCCURRENCES]:
                if after is not None and not _holds(after, pos - 1):
                    continue
                found, first, last, top_found = _align(sig, anchor, pos, positions, stream_line)
                coverage = found / sig.total
                whole = sig.contiguous and found >= sig.total - 1e-9 and last - first == len(sig.tokens) - 1
                # Missing the signature's most telling word (SIGKILL where the log says SIGABRT)
                # is a different failure unless nearly everything else matches.
                if (coverage >= min_coverage and (found >= MIN_INFO or (whole and found >= MIN_INFO_EXACT))
                        and (top_found or coverage >= WITHOUT_TOP_COVERAGE)):
                    occurrences.append((found, first, last))
        if not occurrences:
            continue
        spans = [(round3(o[0] / sig.total * min(1.0, o[0] / FULL_INFO)), o[1], o[2]) for o in occurrences]
        top = max(o[0] for o in occurrences)
        found, first, last = min((o for o in occurrences if o[0] >= top * SAME_FAILURE),
                                 key=lambda o: o[1])
        score = round3(top / sig.total * min(1.0, top / FULL_INFO))
        out[si] = (score, first, last, spans)
    return out


def signature_scores(prep: Prepared, text: str) -> dict[int, float]:
    """The score of every signature that matches the text, by signature index."""
    scanned = scan(prep, text)
    return {si: m[0] for si, m in match_signatures(prep, scanned.positions, scanned.stream_line).items()}


def diagnose_matches(index: dict | Prepared, text: str) -> list[Match]:
    prep = index if isinstance(index, Prepared) else prepare(index)
    scanned = scan(prep, text)
    matched = match_signatures(prep, scanned.positions, scanned.stream_line)
    if not matched and scanned.skipped_source:
        # A partial paste: traceback frames and the source lines Python quotes under them
        # (`raise BackendCompilerFailed(...)`), with the message itself cut off. The `raise`
        # lines quoted there are then the best evidence there is.
        scanned = scan(prep, text, read_source=True)
        matched = match_signatures(prep, scanned.positions, scanned.stream_line)
    lines, stream_line = scanned.lines, scanned.stream_line
    best: dict[int, tuple] = {}  # entry -> (score, first_pos, last_pos, sig)
    spans: dict[int, list] = {}  # entry -> every accepted occurrence as (score, first_pos, last_pos)
    for si, (score, first, last, sig_spans) in matched.items():
        sig = prep.signatures[si]
        spans.setdefault(sig.entry, []).extend(sig_spans)
        current = best.get(sig.entry)
        if current is None or (score, -first) > (current[0], -current[1]):
            best[sig.entry] = (score, first, last, sig)
        elif (score, first) == (current[0], current[1]) and sig.total > current[3].total:
            # At equal score and place, the signature that matched more (a longer wording that
            # contains a shorter one) names the variant: its label is the more specific. Only the
            # label: the lines stay those first found, so its extra lines cannot make the entry an
            # alternative to another one matched there, nor change which failure is the root.
            best[sig.entry] = (score, first, current[2], sig)
    # A few shared words (a spawn message's "terminated with" in a watchdog line) are not a
    # finding: an entry matched only that weakly is left out.
    best = {ei: m for ei, m in best.items() if m[0] >= MIN_REPORT}

    # Group matches over the same lines: a match is an alternative explanation when a stronger
    # entry matches at least as well somewhere on its lines (not only at that entry's best place).
    # At equal scores a cause comes before a consequence or warning matching the same lines, so a
    # wrapper that quotes the real error (BackendCompilerFailed around a Triton error) cannot own it.
    ordered = sorted(best.items(), key=lambda kv: (-kv[1][0], ROLE_ORDER.get(prep.entries[kv[0]].get("role", "cause"), 0),
                                                  kv[1][1], prep.entries[kv[0]]["slug"]))
    primaries: list[tuple[int, tuple]] = []
    alternatives: list[tuple[int, tuple, int]] = []
    for ei, m in ordered:
        owner = next((pe for pe, _ in primaries
                      if any(sc >= m[0] and f <= m[2] and m[1] <= la for sc, f, la in spans[pe])), None)
        if owner is None:
            primaries.append((ei, m))
        else:
            alternatives.append((ei, m, owner))
    primaries.sort(key=lambda p: (p[1][1], -p[1][0]))
    # The root cause: the earliest cause that is nearly as strong as the strongest match, so a
    # faint cause does not displace a clear consequence.
    strongest = max((p[1][0] for p in primaries), default=0.0)
    eligible = [p for p in primaries if prep.entries[p[0]].get("role", "cause") == "cause"
                and p[1][0] >= strongest * ROOT_SHARE]
    # A cause seen only on lines logged as warnings (a library that could not load an optional
    # extension and went on) is not the root when another cause is on an error line.
    # Without a cause, the strongest match heads the list; at equal strength a consequence (the
    # abort, the relay) before a mere warning, then the earliest.
    root = next((p for p in eligible if not all(lines[stream_line[i]].warning for i in (p[1][1], p[1][2]))),
                eligible[0] if eligible else max(primaries, default=None, key=lambda p: (
                    p[1][0], prep.entries[p[0]].get("role", "cause") != "warning", -p[1][1])))
    result_order = ([root] if root else []) + [p for p in primaries if p is not root]

    def first_by_rank(ei) -> tuple:
        """Where the failure first shows on each rank the log names (for a per-rank timeline)."""
        firsts: dict[int, int] = {}
        for score, first, _ in spans[ei]:
            line = stream_line[first]
            rank = lines[line].rank
            if score >= MIN_REPORT and rank is not None and line < firsts.get(rank, len(lines)):
                firsts[rank] = line
        return tuple((rank, line + 1) for rank, line in sorted(firsts.items()))

    def build(ei, m, root_cause, alt_of):
        e = prep.entries[ei]
        score, first, last, sig = m
        l1, l2 = stream_line[first], stream_line[last]
        shown_end = min(l2, l1 + 5)
        snippet = "\n".join(lines[i].text for i in range(l1, shown_end + 1))
        before = "\n".join(lines[i].text for i in range(max(0, l1 - CONTEXT_LINES), l1))
        after = "\n".join(lines[i].text for i in range(shown_end + 1, min(len(lines), shown_end + 1 + CONTEXT_LINES)))
        return Match(e["slug"], e["title"], e["url"], e["category"], e["severity"],
                     e.get("role", "cause"), score, l1 + 1, l2 + 1, lines[l1].rank, sig.text,
                     sig.variant, sig.kind, snippet[:2000], before[-1000:], after[:1000], root_cause, alt_of,
                     e.get("summary", ""), first_by_rank(ei), e.get("fix", ""))

    out = [build(ei, m, i == 0 and prep.entries[ei].get("role", "cause") == "cause", None)
           for i, (ei, m) in enumerate(result_order)]
    out += [build(ei, m, False, prep.entries[owner]["slug"]) for ei, m, owner in alternatives]
    return out


# ---------------------------------------------------------------------------------------------
# Words for results: the terminal and the browser say the same (diagnose.js mirrors these)

def result_label(result: dict, first: bool) -> str:
    """What one diagnosis result is, in the words shown before its title."""
    if result["root_cause"]:
        return "Root cause"
    if result["alternative_to"]:
        return "Also possible for the same lines"
    if first and result["role"] == "warning":
        return "Warning (no failure found)"
    if first and result["role"] == "consequence":
        return "Consequence (no known cause found in this log)"
    if result["role"] == "consequence":
        return "Consequence"
    if result["role"] == "warning":
        return "Warning"
    return "Also in this log"


def verdict(results: list[dict], where_of=None) -> str:
    """One line that answers first: the root cause, or why there is none. `where_of(result)` may
    say where a result is (a file and line) instead of the line number."""
    if not results:
        return "No known failure found in this log."
    top = results[0]
    where = (where_of(top) if where_of else f"line {top['line']}") + \
        (f", rank {top['rank']}" if top["rank"] is not None else "")
    if top["root_cause"]:
        return f"Root cause: {top['title']} ({where})."
    if all(r["role"] == "warning" for r in results):
        n = len(results)
        return f"Only warnings: no failure found ({n} warning{'s' if n != 1 else ''})."
    return (f"No root cause in this log: it shows consequences ({top['title']}, {where}); "
            "look for the error it wraps, or at the log of the rank or process that failed first.")


# ---------------------------------------------------------------------------------------------
# Free-text query

FIELD_WEIGHTS, MORE_FIELDS_SHARE, SENTENCE_WORDS = R.FIELD_WEIGHTS, R.MORE_FIELDS_SHARE, R.SENTENCE_WORDS
QUERY_STOPWORDS = frozenset(R.QUERY_STOPWORDS)
VERSION_NUMBER_RE = re.compile(R.VERSION_NUMBER)
PAIR_BONUS, PAIR_BONUS_MAX_PAIRS = R.PAIR_BONUS, R.PAIR_BONUS_MAX_PAIRS


def _words(text: str) -> list[str]:
    return [m.group().lower() for m in re.finditer(r"[A-Za-z0-9_]+", text)]


def query_words(text: str) -> list[str]:
    """The words of a query, without version numbers ("cuda 10.1", "python 3.6.0"): they say
    which release a reader runs, not which failure they hit, and would otherwise count as words
    an entry must share. Standalone numbers (an exit status, an error code) stay."""
    return _words(VERSION_NUMBER_RE.sub(" ", text)) or _words(text)


def _content_words(text: str) -> tuple[str, ...]:
    return tuple(w for w in _words(text) if w not in QUERY_STOPWORDS)


def _side_by_side(pairs: list[tuple[str, str]], phrases: tuple) -> int:
    """How many of the query's adjacent word pairs appear side by side (stop words aside, each
    query word as a prefix of the phrase's word) in one of an entry's phrases."""
    n = 0
    for a, b in pairs:
        if any(x.startswith(a) and y.startswith(b) for p in phrases
               for x, y in zip(p, p[1:], strict=False)):
            n += 1
    return n


def edit_distance_within(a: str, b: str, limit: int) -> bool:
    """Whether the Levenshtein distance between a and b is at most limit."""
    if abs(len(a) - len(b)) > limit:
        return False
    prev = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        cur = [i] + [0] * len(b)
        row_min = cur[0]
        for j in range(1, len(b) + 1):
            cost = 0 if a[i - 1] == b[j - 1] else 1
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost)
            row_min = min(row_min, cur[j])
        if row_min > limit:
            return False
        prev = cur
    return prev[-1] <= limit


@dataclass(frozen=True)
class QueryIndex:
    terms: dict  # term -> {entry: field weight}
    idf: dict
    phrases: tuple  # per entry: normalised title/alias/signature text for phrase bonus
    content: tuple  # per entry: the same texts as tuples of words, stop words left out
    entries: tuple


def prepare_query(index: dict) -> QueryIndex:
    terms: dict[str, dict[int, float]] = {}
    phrases, content = [], []
    for ei, e in enumerate(index["entries"]):
        fields = [("title", e["title"]), ("slug", e["slug"].replace("-", " ")),
                  ("category", e["category"]), ("summary", e.get("summary", ""))]
        fields += [("tag", t.replace("-", " ") + " " + t.replace("-", "")) for t in e["tags"]]
        fields += [("system", s) for s in e.get("systems", [])]
        fields += [("signature", s[0]) for s in e["signatures"]]
        fields += [("alias", a) for a in e.get("aliases", [])]
        found: dict[str, dict[str, float]] = {}  # word -> {field: weight}
        for field, text in fields:
            for word in _words(text):
                found.setdefault(word, {})[field] = FIELD_WEIGHTS[field]
        for word, by_field in found.items():
            # The best field counts fully, each other field a little: a word in the title, the
            # tags and the signatures is more central to an entry than one in its title alone.
            best = max(by_field.values())
            terms.setdefault(word, {})[ei] = best + MORE_FIELDS_SHARE * (sum(by_field.values()) - best)
        phrase_texts = [e["title"]] + [s[0] for s in e["signatures"]] + list(e.get("aliases", []))
        phrases.append(tuple(" ".join(_words(t)) for t in phrase_texts))
        content.append(tuple(_content_words(t) for t in phrase_texts))
    n = max(1, len(index["entries"]))
    idf = {t: math.log(1 + n / len(p)) for t, p in terms.items()}
    return QueryIndex(terms, idf, tuple(phrases), tuple(content), tuple(index["entries"]))


def query(index: dict | QueryIndex, text: str, limit: int = 20, require_all: bool = False) -> list[dict]:
    """Entries matching a short free-text query, best first; tolerant of prefixes and of typos
    after the first letter (as search engines commonly assume, to keep fuzzy matching cheap).
    Entries matching every query word come first, or alone when `require_all`."""
    qi = index if isinstance(index, QueryIndex) else prepare_query(index)
    words = query_words(text)
    if not words:
        return []
    required = [w for w in words if w not in QUERY_STOPWORDS] or words
    sentence = len(required) > SENTENCE_WORDS
    per_word: list[dict[int, float]] = []
    for w in required:
        scores: dict[int, float] = {}
        # Typos are forgiven in a few typed words; in a sentence, near-spellings of other words
        # (deepseek / deepspeed) are more often different names than typos.
        limit_edits = 0 if sentence else 2 if len(w) >= 8 else 1 if len(w) >= 4 else 0
        for term, postings in qi.terms.items():
            if term == w:
                quality = 1.0
            elif len(w) >= 2 and term.startswith(w):
                quality = 0.7
            elif limit_edits and term[0] == w[0] and edit_distance_within(w, term, limit_edits):
                quality = 0.5
            else:
                continue
            gain = quality * qi.idf[term]
            for ei, fw in postings.items():
                s = gain * fw
                if s > scores.get(ei, 0.0):
                    scores[ei] = s
        per_word.append(scores)
    totals: dict[int, tuple[int, float]] = {}
    for scores in per_word:
        for ei, s in scores.items():
            hits, total = totals.get(ei, (0, 0.0))
            totals[ei] = (hits + 1, total + s)
    phrase = " ".join(words)
    pairs = list(zip(required, required[1:], strict=False))
    # A few words: entries matching all of them first. A sentence (an issue title): the words
    # matched weigh in by how telling they are, scaled by the share of the words matched, so an
    # entry that shares many ordinary words does not beat one that shares the telling ones; and
    # words the entry names side by side ("segmentation fault", "failed to start") count more
    # than the same words scattered over its text.
    ranked = []
    for ei, (hits, total) in totals.items():
        if len(words) > 1 and any(phrase in p for p in qi.phrases[ei]):
            total *= 1.5
        if sentence:
            if hits >= 2:
                together = _side_by_side(pairs, qi.content[ei])
                total *= 1 + PAIR_BONUS * min(together, PAIR_BONUS_MAX_PAIRS)
            total *= (hits / len(required)) ** 2
        key = -math.floor(total * 1e6 + 0.5) / 1e6
        ranked.append((0 if sentence else -hits, key, qi.entries[ei]["slug"], ei, total, hits == len(required)))
    ranked.sort()
    if require_all:
        ranked = [r for r in ranked if r[5]]
    elif not sentence and ranked and ranked[0][5]:
        ranked = [r for r in ranked if r[5]]
    out = []
    for _, _, _, ei, total, _ in ranked[:limit]:
        e = qi.entries[ei]
        out.append({"slug": e["slug"], "title": e["title"], "url": e["url"],
                    "category": e["category"], "severity": e["severity"],
                    "summary": e.get("summary", ""), "score": round3(total)})
    return out


def search(index: dict, text: str, limit: int = 20, prepared: Prepared | None = None,
           query_index: QueryIndex | None = None) -> list[dict]:
    """What the search box shows for any input: the failures diagnosed in it first (so one pasted
    error line finds its entry), then free-text query results not already listed. `prepared` and
    `query_index`, when given, are `prepare(index)` and `prepare_query(index)`, made once by a
    caller that searches many times."""
    out, seen = [], set()
    for m in diagnose_matches(prepared or index, text):
        if m.slug in seen:
            continue
        seen.add(m.slug)
        out.append({"slug": m.slug, "title": m.title, "url": m.url, "category": m.category,
                    "severity": m.severity, "summary": m.summary,
                    "score": m.score, "matched": m.signature})
    # Once the text names a failure, only entries matching every word of it are worth adding.
    for r in query(query_index or index, text, limit, require_all=bool(out)):
        if r["slug"] not in seen:
            seen.add(r["slug"])
            out.append({**r, "matched": None})
    return out[:limit]
