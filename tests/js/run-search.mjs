// Reads {index, texts, queries, lean?, details?} as JSON on stdin; prints what diagnose.js returns for each, as
// JSON. tests/test_parity.py compares it with the Python implementation.
import { diagnose, query, resultLabel, search, tokenize, verdict, withDetails } from "../../assets/diagnose.js";

const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const { index, texts, queries, lean, details } = JSON.parse(Buffer.concat(chunks).toString("utf8"));
// Queries run on the two published files merged, as the search page does.
const merged = lean ? withDetails(lean, details) : index;
process.stdout.write(JSON.stringify({
  diagnose: texts.map((t) => diagnose(index, t)),
  words: texts.map((t) => {
    const results = diagnose(index, t);
    return [verdict(results), ...results.map((r, i) => resultLabel(r, i === 0))];
  }),
  tokens: texts.map((t) => tokenize(t)),
  queries: queries.map((q) => query(merged, q)),
  searches: queries.map((q) => search(merged, q)),
}));
