// The search page: results as you type, and log triage in a worker. Everything stays in the
// browser. Results are built from DOM text nodes; no user text is ever parsed as HTML.
import { describeResults, resultLabel, search, verdict, withDetails } from "./diagnose.js";

const app = document.getElementById("search-app");
const root = app.dataset.root;
const indexUrl = new URL(app.dataset.index, document.baseURI).href;
const detailsUrl = new URL(app.dataset.details, document.baseURI).href;
const qBox = document.getElementById("q");
const qStatus = document.getElementById("query-status");
const qResults = document.getElementById("query-results");
const logBox = document.getElementById("log");
const logFile = document.getElementById("log-file");
const logStatus = document.getElementById("log-status");
const logResults = document.getElementById("log-results");
const logTimeline = document.getElementById("log-timeline");
const runButton = document.getElementById("diagnose");

// Pastes larger than this are kept out of the textarea (rendering them is what freezes a tab).
const LARGE_PASTE = 1_000_000;

let indexPromise = null;
let categoryNames = {};
function loadIndex() {
  if (!indexPromise) {
    const get = (url) => fetch(url).then((r) => {
      if (!r.ok) throw new Error(`could not load the search index (${r.status})`);
      return r.json();
    });
    indexPromise = Promise.all([get(indexUrl), get(detailsUrl)]).then(([index, details]) => {
      const whole = withDetails(index, details);
      categoryNames = whole.categories;
      return whole;
    });
  }
  return indexPromise;
}

/** Fills a new element: attributes (set as text, never parsed) and children (nodes or text). */
function fill(node, attrs, children) {
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  for (const c of children) node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return node;
}

function el(tag, attrs = {}, ...children) {
  return fill(document.createElement(tag), attrs, children);
}

const SVG_NS = "http://www.w3.org/2000/svg";

function svg(tag, attrs = {}, ...children) {
  return fill(document.createElementNS(SVG_NS, tag), attrs, children);
}

// ---- per-rank timeline -----------------------------------------------------------------------
// A multi-rank log is drawn as one row per rank, each failure marked where it first shows on that
// rank (the log's line order standing for time), so the rank that failed first is seen at a
// glance. Shapes, not only colours, tell the failures apart; the same facts follow as a table.
const TIMELINE_MAX_RANKS = 64;
const MARKERS = 4; // shapes (and colours) before they repeat

function marker(kind, x, y, r) {
  const shape = kind % MARKERS;
  if (shape === 0) return svg("circle", { cx: x, cy: y, r });
  if (shape === 1) return svg("rect", { x: x - r, y: y - r, width: 2 * r, height: 2 * r });
  if (shape === 2) return svg("polygon", { points: `${x},${y - r - 1} ${x + r + 1},${y} ${x},${y + r + 1} ${x - r - 1},${y}` });
  return svg("polygon", { points: `${x},${y - r - 1} ${x + r + 1},${y + r} ${x - r - 1},${y + r}` });
}

function legendIcon(kind) {
  return svg("svg", { class: `tl-k${kind % MARKERS}`, width: 14, height: 14, viewBox: "0 0 14 14", "aria-hidden": "true" },
    marker(kind, 7, 7, 5));
}

function showTimeline(results) {
  // Warnings are left out: the drawing answers which rank failed first.
  const failures = results.filter((r) => !r.alternative_to && r.role !== "warning" && r.ranks && r.ranks.length);
  const points = []; // {rank, line, kind}
  failures.forEach((r, kind) => { for (const p of r.ranks) points.push({ rank: p.rank, line: p.line, kind }); });
  const allRanks = [...new Set(points.map((p) => p.rank))].sort((a, b) => a - b);
  if (allRanks.length < 2) return;
  const firstLine = new Map();
  for (const p of points) if (!firstLine.has(p.rank) || p.line < firstLine.get(p.rank)) firstLine.set(p.rank, p.line);
  // With very many ranks, the rows drawn are the ranks where something showed first.
  const ranks = allRanks.length <= TIMELINE_MAX_RANKS ? allRanks
    : [...allRanks].sort((a, b) => firstLine.get(a) - firstLine.get(b) || a - b).slice(0, TIMELINE_MAX_RANKS).sort((a, b) => a - b);
  const shown = points.filter((p) => ranks.includes(p.rank));
  const first = shown.reduce((a, b) => (b.line < a.line || (b.line === a.line && b.kind < a.kind) ? b : a));
  const lo = Math.min(...shown.map((p) => p.line)), hi = Math.max(...shown.map((p) => p.line));
  // Drawn at the width it will be shown at (up to 640 px), so its labels keep their size on a phone.
  const width = Math.round(Math.min(640, Math.max(300, logTimeline.clientWidth || 640)));
  const left = 64, right = 16, top = 8, row = 20, pad = 14; // pad: markers clear the labels
  const height = top * 2 + row * ranks.length + 18;
  const span = width - left - right - 2 * pad;
  const x = (line) => left + pad + (hi === lo ? span / 2 : (line - lo) / (hi - lo) * span);
  const y = (rank) => top + row * ranks.indexOf(rank) + row / 2;
  const firstName = failures[first.kind].title;
  const caption = `Where each failure first shows, by rank (left to right: line in the log). ` +
    `First: rank ${first.rank}, line ${first.line} (${firstName}).` +
    (ranks.length < allRanks.length ? ` ${allRanks.length - ranks.length} more ranks are in the table.` : "");
  const drawing = svg("svg", { viewBox: `0 0 ${width} ${height}`, role: "img", "aria-labelledby": "timeline-caption",
    preserveAspectRatio: "xMinYMin meet" });
  for (const rank of ranks) {
    drawing.append(svg("line", { class: "tl-row", x1: left, x2: width - right, y1: y(rank), y2: y(rank) }),
      svg("text", { class: "tl-label", x: left - 8, y: y(rank) + 4, "text-anchor": "end" }, `rank ${rank}`));
  }
  drawing.append(svg("text", { class: "tl-label", x: left, y: height - 4 }, `line ${lo}`),
    svg("text", { class: "tl-label", x: width - right, y: height - 4, "text-anchor": "end" }, `line ${hi}`));
  drawing.append(svg("circle", { class: "tl-first", cx: x(first.line), cy: y(first.rank), r: 9 }));
  for (const p of shown) {
    const mark = marker(p.kind, x(p.line), y(p.rank), 5);
    mark.setAttribute("class", `tl-k${p.kind % MARKERS}`);
    mark.append(svg("title", {}, `${failures[p.kind].title}: rank ${p.rank}, line ${p.line}`));
    drawing.append(mark);
  }
  const legend = el("ul", { class: "tl-legend" },
    ...failures.map((r, kind) => el("li", {}, legendIcon(kind), " ", r.title)));
  const rows = points.slice().sort((a, b) => a.rank - b.rank || a.line - b.line || a.kind - b.kind)
    .map((p) => el("tr", {}, el("td", {}, String(p.rank)), el("td", {}, failures[p.kind].title), el("td", {}, String(p.line))));
  const table = el("details", { class: "tl-table" }, el("summary", {}, "The same as a table"),
    el("table", {}, el("thead", {}, el("tr", {}, el("th", { scope: "col" }, "Rank"),
      el("th", { scope: "col" }, "Failure"), el("th", { scope: "col" }, "First line"))), el("tbody", {}, ...rows)));
  logTimeline.append(el("figure", { class: "timeline" },
    el("figcaption", { id: "timeline-caption" }, caption), drawing, legend, table));
}

function entryLink(result) {
  return el("a", { href: root + result.url }, result.title);
}

function badges(result) {
  return el("span", { class: "meta" },
    el("span", { class: "badge category" }, categoryNames[result.category] || result.category),
    el("span", { class: `badge severity sev-${result.severity}` }, `Severity: ${result.severity}`));
}

// ---- query as you type ---------------------------------------------------------------------
async function runQuery() {
  const text = qBox.value.trim();
  const params = new URLSearchParams(location.search);
  if (text) params.set("q", text); else params.delete("q");
  const qs = params.toString();
  history.replaceState(null, "", qs ? `?${qs}` : location.pathname);
  qResults.replaceChildren();
  if (!text) { qStatus.textContent = ""; return; }
  if (text.includes("\n") || text.length > 300) {
    // A pasted log in the query box: triage it instead.
    logBox.value = text;
    qStatus.textContent = "That looks like a log: see the triage below.";
    runDiagnose({ text });
    return;
  }
  let index;
  try { index = await loadIndex(); } catch (error) { qStatus.textContent = String(error.message); return; }
  const results = search(index, text, 20);
  qStatus.textContent = results.length ? `${results.length} result${results.length === 1 ? "" : "s"}` : "No entry matches. Try fewer words, or paste the whole error into the log triage below.";
  for (const r of results) {
    const item = el("li", {}, entryLink(r), " ", badges(r));
    if (r.matched) item.append(el("div", { class: "why" }, `Matches the error “${r.matched}”`));
    item.append(el("p", {}, r.summary));
    qResults.append(item);
  }
}

let timer = null;
qBox.addEventListener("input", () => { clearTimeout(timer); timer = setTimeout(runQuery, 60); });
document.getElementById("query-form").addEventListener("submit", (event) => { event.preventDefault(); runQuery(); });

// ---- log triage ------------------------------------------------------------------------------
let worker = null;
let jobId = 0;
let largePaste = null;

function getWorker() {
  if (!worker) {
    worker = new Worker(new URL(app.dataset.worker, document.baseURI), { type: "module" });
    // The worker matches on search/index.json alone; titles, links and badges come from the
    // whole index, which the page loads beside it.
    worker.addEventListener("message", (event) => {
      const data = event.data;
      if (data.id !== jobId) return;
      if (data.error) { showTriage(data, []); return; }
      loadIndex().then((index) => showTriage(data, describeResults(data.results, index)),
        (error) => showTriage({ id: data.id, error: String(error.message || error) }, []));
    });
  }
  return worker;
}

function runDiagnose(input) {
  jobId += 1;
  logResults.replaceChildren();
  logTimeline.replaceChildren();
  logStatus.textContent = "Matching in your browser…";
  loadIndex().catch(() => {}); // fetched while the worker matches; a failure is shown with the results
  getWorker().postMessage({ id: jobId, indexUrl, ...input });
}

function showTriage(data, results) {
  if (data.id !== jobId) return;
  if (data.error) { logStatus.textContent = `Search failed: ${data.error}`; return; }
  const { lines, ms } = data;
  const size = `${lines.toLocaleString()} line${lines === 1 ? "" : "s"}`;
  if (!results.length) {
    logStatus.textContent = `No known failure found in ${size}. Search by the error line above, or browse the categories.`;
    return;
  }
  const failures = results.filter((r) => !r.alternative_to).length;
  logStatus.textContent = `${verdict(results)} ${failures} match${failures === 1 ? "" : "es"} in ${size} (${Math.round(ms)} ms).`;
  showTimeline(results);
  for (const r of results) {
    const label = resultLabel(r, r === results[0]);
    const where = `line ${r.line}` + (r.rank !== null && r.rank !== undefined ? `, rank ${r.rank}` : "");
    // Placeholders in the wording are shown as an ellipsis; a weak match is said to be partial,
    // not given a number.
    const wording = r.signature.replace(/\{[A-Za-z0-9_.]*\}/g, "…");
    const partial = r.score < 0.6 ? " · a partial match" : "";
    // Each failure leads with what it is (its summary) and what to do (its fix); the reader's own lines follow, then
    // where they are, and which wording matched behind a toggle.
    logResults.append(el("li", {},
      el("span", { class: r.root_cause ? "root" : "" }, `${label}: `), entryLink(r), " ", badges(r),
      ...(r.summary ? [el("p", { class: "summary" }, r.summary)] : []),
      ...(r.fix ? [el("p", { class: "fix" }, el("strong", {}, "Fix: "), r.fix)] : []),
      el("pre", { class: "log", tabindex: "0" }, el("code", {},
        ...(r.before ? [el("span", { class: "context" }, r.before + "\n")] : []),
        el("mark", {}, r.text),
        ...(r.after ? [el("span", { class: "context" }, "\n" + r.after)] : []))),
      el("div", { class: "why" }, `${where}${partial}`),
      el("details", { class: "wording" }, el("summary", {}, "Which wording matched"),
        el("p", {}, `“${wording}”` + (r.variant ? ` (${r.variant})` : "")))));
  }
  // The answer, not the pasted log, is what the reader needs next: bring the verdict into view
  // (on a phone the results otherwise start below the reader's own log).
  if (logStatus.getBoundingClientRect().top > window.innerHeight * 0.5) {
    logStatus.scrollIntoView({ block: "start" });
  }
}

runButton.addEventListener("click", () => {
  if (largePaste !== null) runDiagnose({ text: largePaste });
  else runDiagnose({ text: logBox.value });
});

logBox.addEventListener("paste", (event) => {
  const text = event.clipboardData ? event.clipboardData.getData("text/plain") : "";
  if (text.length > LARGE_PASTE) {
    event.preventDefault();
    largePaste = text;
    logBox.value = "";
    logBox.placeholder = `${(text.length / 1e6).toFixed(1)} MB pasted: kept out of this box to keep the page responsive.`;
    runDiagnose({ text });
  } else {
    largePaste = null;
    setTimeout(() => runDiagnose({ text: logBox.value }), 0);
  }
});
logBox.addEventListener("input", () => { largePaste = null; });

logFile.addEventListener("change", () => {
  const file = logFile.files && logFile.files[0];
  if (file) { largePaste = null; runDiagnose({ file }); }
});

// Load the index now: the first keystroke then answers at once, and triage results get the
// categories' display names.
loadIndex().catch((error) => { qStatus.textContent = String(error.message); });

// ---- shareable ?q= -----------------------------------------------------------------------------
const initial = new URLSearchParams(location.search).get("q");
if (initial) {
  qBox.value = initial;
  runQuery();
}
