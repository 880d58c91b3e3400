// Reads {index, texts, queries, lean?, details?, triage?} as JSON on stdin; prints what diagnose.js returns for each, as
// JSON. tests/test_parity.py compares it with the Python implementation.
import { describeResults, diagnose, query, resultLabel, search, tokenize, verdict, withDetails } from "../../assets/diagnose.js";

const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const { index, texts, queries, lean, details, triage = [] } = JSON.parse(Buffer.concat(chunks).toString("utf8"));
// Queries run on the two published files merged, as the search page does; log triage matches on
// search/index.json alone, in a worker, and the page completes the results from the merged files.
const merged = lean ? withDetails(lean, details) : index;
process.stdout.write(JSON.stringify({
  merged,
  diagnose: texts.map((t) => diagnose(index, t)),
  triage: lean ? triage.map((i) => describeResults(diagnose(lean, texts[i]), merged)) : [],
  words: texts.map((t) => {
    const results = diagnose(index, t);
    return [verdict(results), ...results.map((r, i) => resultLabel(r, i === 0))];
  }),
  tokens: texts.map((t) => tokenize(t)),
  queries: queries.map((q) => query(merged, q)),
  searches: queries.map((q) => search(merged, q)),
}));
