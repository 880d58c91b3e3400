// Error-text search for the ML Failure Encyclopedia, dependency-free, for browsers and Node.
//
// diagnose(index, text) names the failures a pasted log shows; query(index, text) searches
// titles, tags, summaries and signatures as you type. `index` is search/index.json, parsed.
// This is the same algorithm as encyclopedia/matching.py, reading the same data (search-rules.js is
// generated from encyclopedia/search_rules.py); both pass
// tests/conformance/cases.json. Every regular expression here is linear.

import R from "./search-rules.js";

export const WILD = "*";

// Patterns as search_rules.py writes them, anchored as matching.py applies them: `match` is ^...,
// `fullmatch` is ^...$, a scan is global.
const ANSI_RE = new RegExp(R.ANSI, "g");
const PREFIX_RES = R.PREFIXES.map(([pattern, namesRank]) => [new RegExp("^(?:" + pattern + ")"), namesRank]);
const ESCAPED_BREAK_RE = new RegExp(R.ESCAPED_BREAK, "g");
// Each token kind is one group; G maps a kind to its group number. The log pattern keeps an
// empty group in place of the signature-only kinds, so group numbers stay the same.
const G = Object.fromEntries(R.TOKEN_PARTS.map(([name], i) => [name, i + 1]));
const TOKEN_RE_SIGNATURE = new RegExp(R.TOKEN_PARTS.map(([, p]) => "(" + p + ")").join("|"), "g");
const TOKEN_RE_LOG = new RegExp(R.TOKEN_PARTS.map(([name, p]) =>
  (R.SIGNATURE_ONLY_PARTS.includes(name) ? "(?!)()" : "(" + p + ")")).join("|"), "g");
const UNITS = new Set(R.UNITS);
const KEEP_DIGIT_WORDS = new Set(R.KEEP_DIGIT_WORDS);
const SIGNALS = new Map(Object.entries(R.SIGNALS).map(([n, name]) => [Number(n), name]));
const EXIT_STATUS_WORDS = R.EXIT_STATUS_WORDS;
const WORD_CHAR_RE = /^[A-Za-z0-9_]$/;
const FRAME_RE = new RegExp("^(?:" + R.FRAME + ")");
const VERSIONISH_RE = new RegExp("^(?:" + R.VERSIONISH + ")$");
const SOURCE_FILE_RE = new RegExp("^(?:" + R.SOURCE_FILE + ")$");
const SHARED_LIBRARY_RE = new RegExp("^(?:" + R.SHARED_LIBRARY + ")$");
const WARNING_PREFIX_RE = new RegExp("^(?:" + R.WARNING_PREFIX + ")");
const PY_WARNING_RE = new RegExp(R.PY_WARNING);

/** Lines without ANSI codes or log prefixes, each {text, rank, warning}. */
export function splitLines(text) {
  const out = [];
  // Per stream (a rank, or the lines of no rank): whether its previous line was logged at warning
  // level by a logger, and where it stands in a traceback that such a line printed under itself.
  const streams = new Map();
  let stream = null;
  for (const raw of text.split(/\r\n|\r|\n/)) {
    let line = raw.indexOf("\x1b") >= 0 ? raw.replace(ANSI_RE, "") : raw;
    let rank = null;
    let warning = false;
    for (let round = 0; round < R.MAX_PREFIXES; round++) {
      let applied = false;
      warning = warning || WARNING_PREFIX_RE.test(line);
      for (const [rx, hasRank] of PREFIX_RES) {
        const m = rx.exec(line);
        if (m && m[0].length > 0) {
          if (hasRank && rank === null) rank = parseInt(m[1], 10);
          line = line.slice(m[0].length);
          applied = true;
          break;
        }
      }
      if (!applied) break;
    }
    const byLogger = warning || WARNING_PREFIX_RE.test(line);
    // Ranks interleave their lines; a line that names no rank continues the stream before it (a
    // logger's format may name the rank on its first line only, not on the traceback's).
    if (rank !== null) stream = rank;
    if (!streams.has(stream)) streams.set(stream, new LoggedTraceback());
    const inTraceback = streams.get(stream).follow(line, byLogger);
    warning = byLogger || inTraceback || PY_WARNING_RE.test(line);
    out.push({ text: line, rank, warning });
  }
  return out;
}

/** A logger's warning with exc_info prints the traceback of an exception it caught and survived
 * right under itself (xFormers without Triton): that traceback, with the exceptions chained to
 * it, is part of the warning, down to the exception line that ends it. */
class LoggedTraceback {
  constructor() {
    this.logged = false; // the previous line was logged at warning level by a logger
    this.indent = null; // the header's indentation while inside such a traceback
    this.ended = false; // its exception line passed; only blank lines and chain sentences since
    this.chained = false; // ... and a chain sentence: the next traceback continues it
  }

  /** Whether this line belongs to a traceback the stream's logged warning printed. */
  follow(line, byLogger) {
    const body = line.replace(/^[ \t]+/, "");
    const indent = line.length - body.length;
    let part = true;
    if (this.indent !== null) {
      if (body && indent <= this.indent) { // the exception line (a paste may indent it all)
        this.indent = null; this.ended = true; this.chained = false;
      }
    } else if (body.startsWith(R.TRACEBACK_HEADER) && (this.logged || this.chained)) {
      this.indent = indent; this.ended = false; this.chained = false;
    } else if (this.ended && R.TRACEBACK_CHAIN.includes(body.replace(/[ \t]+$/, ""))) {
      this.chained = true;
    } else if (!(this.ended && !body)) {
      this.ended = false; this.chained = false; part = false;
    }
    this.logged = byLogger && !part;
    return part;
  }
}

/** The comparable words of one line: lowercase, variable parts dropped, wildcards kept. */
export function tokenizeLine(line, signature = false) {
  const tokens = [];
  let afterNumber = false;
  if (line.indexOf("\\") >= 0) line = line.replace(ESCAPED_BREAK_RE, " ");
  const re = signature ? TOKEN_RE_SIGNATURE : TOKEN_RE_LOG;
  re.lastIndex = 0;
  let m;
  while ((m = re.exec(line)) !== null) {
    if (m[G.wild] !== undefined || m[G.quoted] !== undefined) {
      if (tokens.length === 0 || tokens[tokens.length - 1] !== WILD) tokens.push(WILD);
      // `{timeout} seconds`: a unit after a placeholder is dropped, as after a number in a log.
      afterNumber = m[G.wild] !== undefined;
    } else if (m[G.word] !== undefined) {
      const word = m[G.word].toLowerCase();
      if (afterNumber && UNITS.has(word)) { afterNumber = false; continue; }
      afterNumber = false;
      if (/[0-9]/.test(word) && !KEEP_DIGIT_WORDS.has(word) && VERSIONISH_RE.test(word)) continue;
      tokens.push(word);
    } else if (m[G.path] !== undefined) {
      afterNumber = false;
      const parts = m[G.path].split(/[/\\]/);
      const name = parts[parts.length - 1];
      if (SOURCE_FILE_RE.test(name)) tokens.push(name.toLowerCase());
      else if (SHARED_LIBRARY_RE.test(name)) {
        // The name is read with the same (shared, stateful) expression: keep this line's place.
        const at = re.lastIndex;
        tokens.push(...tokenizeLine(name, signature));
        re.lastIndex = at;
      }
    } else if (m[G.source] !== undefined) {
      afterNumber = false;
      tokens.push(m[G.source].toLowerCase());
    } else {
      afterNumber = m[G.hex] !== undefined || m[G.num] !== undefined;
      if (m[G.num] !== undefined) {
        const signal = exitSignal(tokens, m[G.num], m.index > 0 && line[m.index - 1] === "-");
        if (signal) tokens.push(signal);
      }
    }
  }
  return tokens;
}

/** The signal an exit status names, when the words before it introduce one. */
function exitSignal(tokens, number, negative) {
  if (!/^[0-9]+$/.test(number)) return null;
  const introduced = EXIT_STATUS_WORDS.some(
    (w) => w.length <= tokens.length && w.every((word, i) => tokens[tokens.length - w.length + i] === word));
  if (!introduced) return null;
  const n = parseInt(number, 10);
  return (negative ? SIGNALS.get(n) : n > 128 ? SIGNALS.get(n - 128) : null) || null;
}

/** All comparable words of a text, across lines; `signature` reads quoted names as wildcards. */
export function tokenize(text, signature = false) {
  const out = [];
  for (const line of splitLines(text)) for (const t of tokenizeLine(line.text, signature)) out.push(t);
  return out;
}

// ------------------------------------------------------------------------------------------
// Diagnosis

const { MAX_GAP, WILD_GAP, MISS_GAP, MAX_OCCURRENCES, MIN_COVERAGE, MIN_INFO, MIN_INFO_EXACT, FULL_INFO,
  SAME_FAILURE, ROOT_SHARE, MIN_REPORT, WITHOUT_TOP_COVERAGE, CONTEXT_LINES, ALIAS_GAP, ALIAS_COVERAGE } = R;

const prepared = new WeakMap();

// The position of the word after `has no attribute`, or -1.
function attributeName(toks) {
  for (let i = 3; i < toks.length; i++) {
    if (toks[i - 3] === "has" && toks[i - 2] === "no" && toks[i - 1] === "attribute" && toks[i] !== WILD) return i;
  }
  return -1;
}

/** The index made ready for matching; cached per index object. */
export function prepare(index) {
  const cached = prepared.get(index);
  if (cached) return cached;
  const weights = index.weights;
  const sigs = [];
  index.entries.forEach((e, ei) => {
    const items = e.signatures.map((s) => [s[0], s.length > 1 ? s[1] : "", "signature"]);
    for (const a of e.aliases || []) items.push([a, "", "alias"]);
    for (const [text, variant, kind] of items) {
      const toks = tokenize(text, true);
      while (toks.length && toks[0] === WILD) toks.shift();
      while (toks.length && toks[toks.length - 1] === WILD) toks.pop();
      if (!toks.length) continue;
      const ws = toks.map((t) => (t === WILD ? 0 : (Object.hasOwn(weights, t) ? weights[t] : 1.0)));
      let total = 0;
      for (const w of ws) total += w;
      const order = toks.map((t, i) => i).filter((i) => toks[i] !== WILD)
        .sort((a, b) => (ws[b] - ws[a]) || (a - b));
      // Python's AttributeError names the missing attribute last: another name after
      // `has no attribute` is another failure, however well the module or class matches.
      const named = kind === "signature" ? attributeName(toks) : -1;
      if (named >= 0) { order.splice(order.indexOf(named), 1); order.unshift(named); }
      sigs.push({ entry: ei, text, variant, kind, tokens: toks, weights: ws, total, anchors: order.slice(0, 2),
        contiguous: toks.length >= 2 && !toks.includes(WILD), named: named >= 0 });
    }
  });
  const byToken = new Map();
  const vocabulary = new Set();
  sigs.forEach((s, si) => {
    for (const t of s.tokens) if (t !== WILD) vocabulary.add(t);
    for (const a of s.anchors) {
      const t = s.tokens[a];
      if (!byToken.has(t)) byToken.set(t, []);
      byToken.get(t).push(si);
    }
  });
  const result = { entries: index.entries, signatures: sigs, byToken, vocabulary };
  prepared.set(index, result);
  return result;
}

function bisectRight(arr, x) {
  let lo = 0, hi = arr.length;
  while (lo < hi) { const mid = (lo + hi) >> 1; if (x < arr[mid]) hi = mid; else lo = mid + 1; }
  return lo;
}

function bisectLeft(arr, x) {
  let lo = 0, hi = arr.length;
  while (lo < hi) { const mid = (lo + hi) >> 1; if (arr[mid] < x) lo = mid + 1; else hi = mid; }
  return lo;
}

// Whether the sorted positions include pos.
function holds(arr, pos) {
  const j = bisectLeft(arr, pos);
  return j < arr.length && arr[j] === pos;
}

function align(sig, anchor, pos, positions, streamLine) {
  // A short signature (less weight than FULL_INFO) gives [0, pos, pos, false] when the log puts a
  // word of its own between two of its words that stand side by side, on one line
  // (matching._align). Longer signatures tolerate reworded variants; aliases are exempt.
  const maxGap = sig.kind === "alias" ? ALIAS_GAP : MAX_GAP;
  const literal = sig.kind !== "alias" && sig.total < FULL_INFO;
  const heaviest = sig.anchors[0];
  let topFound = anchor === heaviest;
  let found = sig.weights[anchor];
  let first = pos, last = pos;
  let cur = pos, slack = 0;
  for (let i = anchor + 1; i < sig.tokens.length; i++) {
    const t = sig.tokens[i];
    if (t === WILD) { slack += WILD_GAP; continue; }
    const plist = positions.get(t);
    if (plist) {
      const j = bisectRight(plist, cur);
      if (j < plist.length && plist[j] <= cur + maxGap + slack) {
        if (literal && slack === 0 && plist[j] > cur + 1 && streamLine[plist[j]] === streamLine[cur]) return [0, pos, pos, false];
        cur = plist[j]; found += sig.weights[i]; topFound ||= i === heaviest; last = cur; slack = 0; continue;
      }
    }
    slack += MISS_GAP;
  }
  cur = pos; slack = 0;
  for (let i = anchor - 1; i >= 0; i--) {
    const t = sig.tokens[i];
    if (t === WILD) { slack += WILD_GAP; continue; }
    const plist = positions.get(t);
    if (plist) {
      const j = bisectLeft(plist, cur) - 1;
      if (j >= 0 && plist[j] >= cur - maxGap - slack) {
        if (literal && slack === 0 && plist[j] < cur - 1 && streamLine[plist[j]] === streamLine[cur]) return [0, pos, pos, false];
        cur = plist[j]; found += sig.weights[i]; topFound ||= i === heaviest; first = cur; slack = 0; continue;
      }
    }
    slack += MISS_GAP;
  }
  return [found, first, last, topFound];
}

const round3 = (x) => Math.round(x * 1000) / 1000;
const ROLE_ORDER = R.ROLE_ORDER;

/** Slice by code points, as Python slices strings (an emoji is one character, not two). */
function codePoints(text, start, end) {
  if (!/[\ud800-\udfff]/.test(text)) return end === undefined ? text.slice(start) : text.slice(start, end);
  const chars = Array.from(text);
  return (end === undefined ? chars.slice(start) : chars.slice(start, end)).join("");
}

/**
 * A log read for matching (matching.scan): its lines, the line of each word (`streamLine`), where
 * each signature word occurs (`positions`), and whether source lines under traceback frames were
 * left out (`skippedSource`).
 */
export function scan(prep, text, readSource = false) {
  const lines = splitLines(text);
  const vocab = prep.vocabulary;
  let streamLine = new Int32Array(1024);
  let n = 0;
  const positions = new Map();
  let skippedSource = false;
  // A terminal that hard-wraps at a fixed width splits words ("illegal me" / "mory access"):
  // when a line ends inside a word and the next starts with one, the two halves joined also
  // count as a word, at the position of the first half.
  let tail = null; // {word, pos}: the last word of the previous line, if it ended in a word
  let frameIndent = -1; // indentation of the previous line when it was a traceback frame
  const record = (word, pos) => {
    let plist = positions.get(word);
    if (!plist) { plist = []; positions.set(word, plist); }
    plist.push(pos);
  };
  for (let li = 0; li < lines.length; li++) {
    const line = lines[li].text;
    // The line after a Python traceback frame, indented deeper than the frame, is source code,
    // not output: a message quoted in code must not count as the message printed (unless the
    // paste holds nothing else that matches: see diagnose). A paste indented as a whole keeps the
    // error line at the frame's depth or less.
    const indent = line.length - line.replace(/^[ \t]+/, "").length;
    const source = frameIndent >= 0 && indent > frameIndent &&
      !(readSource && line.trimStart().startsWith("raise "));
    if (source) skippedSource = true;
    frameIndent = FRAME_RE.test(line) ? indent : -1;
    const toks = source ? [] : tokenizeLine(line).filter((t) => t !== WILD);
    if (tail && toks.length && WORD_CHAR_RE.test(line.slice(0, 1))) {
      const joined = tail.word + toks[0];
      if (vocab.has(joined)) record(joined, tail.pos);
    }
    for (const tok of toks) {
      if (vocab.has(tok)) record(tok, n);
      if (n === streamLine.length) {
        const grown = new Int32Array(streamLine.length * 2);
        grown.set(streamLine);
        streamLine = grown;
      }
      streamLine[n++] = li;
    }
    tail = toks.length && WORD_CHAR_RE.test(line.slice(-1)) ? { word: toks[toks.length - 1], pos: n - 1 } : null;
  }
  return { lines, streamLine, positions, skippedSource };
}

/**
 * Every signature found (matching.match_signatures): signature index -> {score, first, last,
 * spans}, `spans` being every accepted occurrence as {score, first, last}. Only signatures whose
 * anchor words occur are tried.
 */
export function matchSignatures(prep, positions, streamLine) {
  const out = new Map();
  const candidateSet = new Set();
  for (const tok of positions.keys()) for (const si of prep.byToken.get(tok) || []) candidateSet.add(si);
  const candidates = [...candidateSet].sort((a, b) => a - b);
  for (const si of candidates) {
    const sig = prep.signatures[si];
    const minCoverage = sig.kind === "alias" ? ALIAS_COVERAGE : MIN_COVERAGE;
    const occurrences = []; // {found, first, last}
    // A named attribute is found where the log names it: right after `attribute`.
    const anchors = sig.named ? sig.anchors.slice(0, 1) : sig.anchors;
    const after = sig.named ? (positions.get("attribute") || []) : null;
    for (const anchor of anchors) {
      const plist = positions.get(sig.tokens[anchor]);
      if (!plist) continue;
      const limit = Math.min(plist.length, MAX_OCCURRENCES);
      for (let k = 0; k < limit; k++) {
        if (after !== null && !holds(after, plist[k] - 1)) continue;
        const [found, first, last, topFound] = align(sig, anchor, plist[k], positions, streamLine);
        const coverage = found / sig.total;
        const whole = sig.contiguous && found >= sig.total - 1e-9 && last - first === sig.tokens.length - 1;
        // Missing the signature's most telling word (SIGKILL where the log says SIGABRT) is a
        // different failure unless nearly everything else matches.
        if (coverage >= minCoverage && (found >= MIN_INFO || (whole && found >= MIN_INFO_EXACT)) &&
            (topFound || coverage >= WITHOUT_TOP_COVERAGE)) occurrences.push({ found, first, last });
      }
    }
    if (!occurrences.length) continue;
    const spans = occurrences.map((o) => ({
      score: round3(o.found / sig.total * Math.min(1.0, o.found / FULL_INFO)), first: o.first, last: o.last }));
    let top = 0;
    for (const o of occurrences) if (o.found > top) top = o.found;
    let pick = null;
    for (const o of occurrences) {
      if (o.found >= top * SAME_FAILURE && (pick === null || o.first < pick.first)) pick = o;
    }
    const score = round3(top / sig.total * Math.min(1.0, top / FULL_INFO));
    out.set(si, { score, first: pick.first, last: pick.last, spans });
  }
  return out;
}

/**
 * The failures a log shows: the root cause first, then the others in order of first
 * occurrence, then weaker alternative explanations of the same lines (matching.diagnose_matches).
 * Each result is {slug, title, url, score, line, end_line, rank, category, severity, role,
 * signature, variant, matched_by, text, before, after, root_cause, alternative_to, summary, fix,
 * ranks}; ranks lists {rank, line} where the failure first shows on each rank the log names.
 */
export function diagnose(index, text) {
  const prep = prepare(index);
  let scanned = scan(prep, text);
  let matched = matchSignatures(prep, scanned.positions, scanned.streamLine);
  if (!matched.size && scanned.skippedSource) {
    // A partial paste: traceback frames and the source lines Python quotes under them, with the
    // message itself cut off. The `raise` lines quoted there are then the best evidence.
    scanned = scan(prep, text, true);
    matched = matchSignatures(prep, scanned.positions, scanned.streamLine);
  }
  const { lines, streamLine } = scanned;
  const best = new Map(); // entry -> {score, first, last, sig}
  const spans = new Map(); // entry -> every accepted occurrence as {score, first, last}
  for (const [si, m] of matched) {
    const sig = prep.signatures[si];
    if (!spans.has(sig.entry)) spans.set(sig.entry, []);
    for (const s of m.spans) spans.get(sig.entry).push(s);
    const current = best.get(sig.entry);
    if (current === undefined || m.score > current.score || (m.score === current.score && m.first < current.first)) {
      best.set(sig.entry, { score: m.score, first: m.first, last: m.last, sig });
    } else if (m.score === current.score && m.first === current.first && sig.total > current.sig.total) {
      // At equal score and place, the signature that matched more (a longer wording that contains
      // a shorter one) names the variant: its label is the more specific. Only the label: the
      // lines stay those first found (see matching.py).
      best.set(sig.entry, { score: m.score, first: m.first, last: current.last, sig });
    }
  }
  // A few shared words are not a finding: an entry matched only that weakly is left out.
  for (const [ei, m] of [...best]) if (m.score < MIN_REPORT) best.delete(ei);

  // Group matches over the same lines: a match is an alternative explanation when a stronger
  // entry matches at least as well somewhere on its lines (not only at that entry's best place).
  // At equal scores a cause comes before a consequence or warning matching the same lines, so a
  // wrapper that quotes the real error (BackendCompilerFailed around a Triton error) cannot own it.
  const roleOf = (ei) => prep.entries[ei].role || "cause";
  const roleOrder = (ei) => ROLE_ORDER[roleOf(ei)] ?? 0;
  const ordered = [...best.entries()].sort(([ea, a], [eb, b]) =>
    (b.score - a.score) || (roleOrder(ea) - roleOrder(eb)) || (a.first - b.first) ||
    cmp(prep.entries[ea].slug, prep.entries[eb].slug));
  const primaries = []; // {ei, m}
  const alternatives = []; // {ei, m, owner}
  for (const [ei, m] of ordered) {
    const owner = primaries.find((p) => spans.get(p.ei).some((s) => s.score >= m.score && s.first <= m.last && m.first <= s.last));
    if (owner === undefined) primaries.push({ ei, m });
    else alternatives.push({ ei, m, owner: owner.ei });
  }
  primaries.sort((a, b) => (a.m.first - b.m.first) || (b.m.score - a.m.score));
  // The root cause: the earliest cause that is nearly as strong as the strongest match, so a
  // faint cause does not displace a clear consequence.
  let strongest = 0;
  for (const p of primaries) if (p.m.score > strongest) strongest = p.m.score;
  const eligible = primaries.filter((p) => roleOf(p.ei) === "cause" && p.m.score >= strongest * ROOT_SHARE);
  // A cause seen only on lines logged as warnings is not the root when another cause is on an
  // error line.
  let root = eligible.find((p) => !(lines[streamLine[p.m.first]].warning && lines[streamLine[p.m.last]].warning));
  // Without a cause, the strongest match heads the list; at equal strength a consequence (the
  // abort, the relay) before a mere warning, then the earliest.
  if (root === undefined) {
    if (eligible.length) root = eligible[0];
    else {
      const rank = (p) => [p.m.score, roleOf(p.ei) !== "warning" ? 1 : 0, -p.m.first];
      for (const p of primaries) {
        if (root === undefined) { root = p; continue; }
        const a = rank(p), b = rank(root);
        if (a[0] > b[0] || (a[0] === b[0] && (a[1] > b[1] || (a[1] === b[1] && a[2] > b[2])))) root = p;
      }
    }
  }
  const resultOrder = root ? [root, ...primaries.filter((p) => p !== root)] : [];

  // Where the failure first shows on each rank the log names (matching.diagnose_matches).
  const firstByRank = (ei) => {
    const firsts = new Map();
    for (const s of spans.get(ei)) {
      const line = streamLine[s.first];
      const rank = lines[line].rank;
      if (s.score >= MIN_REPORT && rank !== null && line < (firsts.get(rank) ?? lines.length)) firsts.set(rank, line);
    }
    return [...firsts].sort((a, b) => a[0] - b[0]).map(([rank, line]) => ({ rank, line: line + 1 }));
  };

  const build = (ei, m, rootCause, altOf) => {
    const e = prep.entries[ei];
    const l1 = streamLine[m.first], l2 = streamLine[m.last];
    const shownEnd = Math.min(l2, l1 + 5);
    const snippet = [], before = [], after = [];
    for (let i = l1; i <= shownEnd; i++) snippet.push(lines[i].text);
    for (let i = Math.max(0, l1 - CONTEXT_LINES); i < l1; i++) before.push(lines[i].text);
    for (let i = shownEnd + 1; i < Math.min(lines.length, shownEnd + 1 + CONTEXT_LINES); i++) after.push(lines[i].text);
    return {
      slug: e.slug, title: e.title, url: e.url, score: m.score, line: l1 + 1, end_line: l2 + 1,
      rank: lines[l1].rank, category: e.category, severity: e.severity, role: e.role || "cause",
      signature: m.sig.text, variant: m.sig.variant, matched_by: m.sig.kind,
      text: codePoints(snippet.join("\n"), 0, 2000), before: codePoints(before.join("\n"), -1000),
      after: codePoints(after.join("\n"), 0, 1000), root_cause: rootCause, alternative_to: altOf,
      summary: e.summary || "", fix: e.fix || "", ranks: firstByRank(ei),
    };
  };
  const out = resultOrder.map((p, i) => build(p.ei, p.m, i === 0 && roleOf(p.ei) === "cause", null));
  for (const a of alternatives) out.push(build(a.ei, a.m, false, prep.entries[a.owner].slug));
  return out;
}

function cmp(a, b) { return a < b ? -1 : a > b ? 1 : 0; }

// ------------------------------------------------------------------------------------------
// Free-text query

const { FIELD_WEIGHTS, MORE_FIELDS_SHARE, SENTENCE_WORDS, PAIR_BONUS, PAIR_BONUS_MAX_PAIRS } = R;
const QUERY_STOPWORDS = new Set(R.QUERY_STOPWORDS);

function words(text) {
  const out = [];
  for (const m of text.matchAll(/[A-Za-z0-9_]+/g)) out.push(m[0].toLowerCase());
  return out;
}

const VERSION_NUMBER_RE = new RegExp(R.VERSION_NUMBER, "g");

/** The words of a query, without version numbers ("cuda 10.1"): matching.query_words. */
export function queryWords(text) {
  const ws = words(text.replace(VERSION_NUMBER_RE, " "));
  return ws.length ? ws : words(text);
}

/** How many adjacent query word pairs an entry names side by side (matching._side_by_side). */
function sideBySide(pairs, phrases) {
  let n = 0;
  for (const [a, b] of pairs) {
    const found = phrases.some((p) => {
      for (let i = 0; i + 1 < p.length; i++) {
        if (p[i].startsWith(a) && p[i + 1].startsWith(b)) return true;
      }
      return false;
    });
    if (found) n++;
  }
  return n;
}

/** Whether the Levenshtein distance between a and b is at most limit. */
export function editDistanceWithin(a, b, limit) {
  if (Math.abs(a.length - b.length) > limit) return false;
  let prev = new Array(b.length + 1);
  for (let j = 0; j <= b.length; j++) prev[j] = j;
  for (let i = 1; i <= a.length; i++) {
    const cur = new Array(b.length + 1);
    cur[0] = i;
    let rowMin = cur[0];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost);
      if (cur[j] < rowMin) rowMin = cur[j];
    }
    if (rowMin > limit) return false;
    prev = cur;
  }
  return prev[b.length] <= limit;
}

const queryPrepared = new WeakMap();

function prepareQuery(index) {
  const cached = queryPrepared.get(index);
  if (cached) return cached;
  const terms = new Map();
  const phrases = [];
  const content = [];
  index.entries.forEach((e, ei) => {
    const fields = [["title", e.title], ["slug", e.slug.replaceAll("-", " ")],
      ["category", e.category], ["summary", e.summary || ""]];
    for (const t of e.tags) fields.push(["tag", t.replaceAll("-", " ") + " " + t.replaceAll("-", "")]);
    for (const s of e.systems || []) fields.push(["system", s]);
    for (const s of e.signatures) fields.push(["signature", s[0]]);
    for (const a of e.aliases || []) fields.push(["alias", a]);
    const found = new Map(); // word -> Map(field -> weight)
    for (const [field, text] of fields) {
      for (const word of words(text)) {
        if (!found.has(word)) found.set(word, new Map());
        found.get(word).set(field, FIELD_WEIGHTS[field]);
      }
    }
    for (const [word, byField] of found) {
      // The best field counts fully, each other field a little (see matching.py).
      let best = 0, sum = 0;
      for (const w of byField.values()) { sum += w; if (w > best) best = w; }
      if (!terms.has(word)) terms.set(word, new Map());
      terms.get(word).set(ei, best + MORE_FIELDS_SHARE * (sum - best));
    }
    const texts = [e.title, ...e.signatures.map((s) => s[0]), ...(e.aliases || [])];
    phrases.push(texts.map((t) => words(t).join(" ")));
    content.push(texts.map((t) => words(t).filter((w) => !QUERY_STOPWORDS.has(w))));
  });
  const n = Math.max(1, index.entries.length);
  const termList = [...terms.entries()].map(([term, postings]) => ({ term, postings, idf: Math.log(1 + n / postings.size) }));
  const result = { termList, phrases, content, entries: index.entries };
  queryPrepared.set(index, result);
  return result;
}

/**
 * The whole index from its two published files: search/index.json (what matching a log needs;
 * the log triage worker loads only it) and search/details.json (titles, URLs, categories, tags,
 * summaries, systems and signature variants). search_index.merge_details in Python.
 */
export function withDetails(index, details) {
  const extra = details.entries;
  return {
    version: index.version,
    entries: index.entries.map((e) => {
      const { variants = [], ...rest } = extra[e.slug];
      const signatures = e.signatures.map((s, i) => (variants[i] ? [s[0], variants[i]] : [s[0]]));
      return { ...e, ...rest, signatures };
    }),
    weights: index.weights,
    categories: details.categories,
  };
}

/**
 * diagnose() results made on search/index.json alone (in the worker), completed with what they
 * show from the whole index: title, URL, category, severity, summary, fix and the matched signature's variant.
 */
export function describeResults(results, index) {
  const bySlug = new Map(index.entries.map((e) => [e.slug, e]));
  return results.map((r) => {
    const e = bySlug.get(r.slug);
    const sig = r.matched_by === "signature" ? e.signatures.find((s) => s[0] === r.signature) : null;
    return { ...r, title: e.title, url: e.url, category: e.category, severity: e.severity,
      variant: sig && sig.length > 1 ? sig[1] : "", summary: e.summary || "", fix: e.fix || "" };
  });
}

/**
 * Entries matching a short free-text query, best first; tolerant of prefixes and of typos after
 * the first letter. Entries matching every query word come first, or alone when `requireAll`.
 */
export function query(index, text, limit = 20, requireAll = false) {
  const qi = prepareQuery(index);
  const ws = queryWords(text);
  if (!ws.length) return [];
  let required = ws.filter((w) => !QUERY_STOPWORDS.has(w));
  if (!required.length) required = ws;
  const sentence = required.length > SENTENCE_WORDS;
  const totals = new Map();
  for (const w of required) {
    const scores = new Map();
    // Typos are forgiven in a few typed words, not in a sentence (matching.query).
    const edits = sentence ? 0 : w.length >= 8 ? 2 : w.length >= 4 ? 1 : 0;
    for (const { term, postings, idf } of qi.termList) {
      let quality;
      if (term === w) quality = 1.0;
      else if (w.length >= 2 && term.startsWith(w)) quality = 0.7;
      else if (edits && term[0] === w[0] && editDistanceWithin(w, term, edits)) quality = 0.5;
      else continue;
      const gain = quality * idf;
      for (const [ei, fw] of postings) {
        const s = gain * fw;
        if (s > (scores.get(ei) || 0)) scores.set(ei, s);
      }
    }
    for (const [ei, s] of scores) {
      const [hits, total] = totals.get(ei) || [0, 0];
      totals.set(ei, [hits + 1, total + s]);
    }
  }
  const phrase = ws.join(" ");
  const pairs = required.slice(1).map((w, i) => [required[i], w]);
  // A few words: entries matching all of them first. A sentence (an issue title): the words
  // matched weigh in by how telling they are, scaled by the share matched, and words the entry
  // names side by side count more (matching.query).
  let ranked = [];
  for (let [ei, [hits, total]] of totals) {
    if (ws.length > 1 && qi.phrases[ei].some((p) => p.includes(phrase))) total *= 1.5;
    if (sentence) {
      if (hits >= 2) total *= 1 + PAIR_BONUS * Math.min(sideBySide(pairs, qi.content[ei]), PAIR_BONUS_MAX_PAIRS);
      total *= (hits / required.length) ** 2;
    }
    ranked.push({ hits: sentence ? 0 : hits, all: hits === required.length,
      key: Math.floor(total * 1e6 + 0.5) / 1e6, slug: qi.entries[ei].slug, ei, total });
  }
  ranked.sort((a, b) => (b.hits - a.hits) || (b.key - a.key) || cmp(a.slug, b.slug));
  if (requireAll) ranked = ranked.filter((r) => r.all);
  else if (!sentence && ranked.length && ranked[0].all) ranked = ranked.filter((r) => r.all);
  return ranked.slice(0, limit).map(({ ei, total }) => {
    const e = qi.entries[ei];
    return { slug: e.slug, title: e.title, url: e.url, category: e.category, severity: e.severity,
      summary: e.summary || "", score: round3(total) };
  });
}

/** What one diagnosis result is, in the words shown before its title (matching.result_label). */
export function resultLabel(result, first) {
  if (result.root_cause) return "Root cause";
  if (result.alternative_to) return "Also possible for the same lines";
  if (first && result.role === "warning") return "Warning (no failure found)";
  if (first && result.role === "consequence") return "Consequence (no known cause found in this log)";
  if (result.role === "consequence") return "Consequence";
  if (result.role === "warning") return "Warning";
  return "Also in this log";
}

/** One line that answers first: the root cause, or why there is none (matching.verdict). */
export function verdict(results) {
  if (!results.length) return "No known failure found in this log.";
  const top = results[0];
  const where = `line ${top.line}` + (top.rank !== null && top.rank !== undefined ? `, rank ${top.rank}` : "");
  if (top.root_cause) return `Root cause: ${top.title} (${where}).`;
  if (results.every((r) => r.role === "warning")) {
    return `Only warnings: no failure found (${results.length} warning${results.length === 1 ? "" : "s"}).`;
  }
  return `No root cause in this log: it shows consequences (${top.title}, ${where}); ` +
    "look for the error it wraps, or at the log of the rank or process that failed first.";
}

/**
 * What the search box shows for any input: the failures diagnosed in it first (so one pasted
 * error line finds its entry), then free-text query results not already listed.
 */
export function search(index, text, limit = 20) {
  const out = [];
  const seen = new Set();
  for (const m of diagnose(index, text)) {
    if (seen.has(m.slug)) continue;
    seen.add(m.slug);
    out.push({ slug: m.slug, title: m.title, url: m.url, category: m.category, severity: m.severity,
      summary: m.summary, score: m.score, matched: m.signature });
  }
  // Once the text names a failure, only entries matching every word of it are worth adding.
  for (const r of query(index, text, limit, out.length > 0)) {
    if (!seen.has(r.slug)) { seen.add(r.slug); out.push({ ...r, matched: null }); }
  }
  return out.slice(0, limit);
}
