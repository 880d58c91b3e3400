// Reads {index, texts, queries} as JSON on stdin; prints what diagnose.js returns for each, as
// JSON. tests/test_parity.py compares it with the Python implementation.
import { diagnose, query, tokenize } from "../../assets/diagnose.js";

const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const { index, texts, queries } = JSON.parse(Buffer.concat(chunks).toString("utf8"));
process.stdout.write(JSON.stringify({
  diagnose: texts.map((t) => diagnose(index, t)),
  tokens: texts.map((t) => tokenize(t)),
  queries: queries.map((q) => query(index, q)),
}));
