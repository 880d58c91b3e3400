// Times the browser engine on one hostile input at several sizes; prints {size: seconds} as JSON.
// usage: node tests/js/time-hostile.mjs UNIT SIZE [SIZE...]   (the input is UNIT repeated)
import { readFileSync } from "node:fs";
import { diagnose } from "../../assets/diagnose.js";

const index = (JSON.parse(readFileSync(new URL("../conformance/index.json", import.meta.url), "utf8")));
const [unit, ...sizes] = process.argv.slice(2);
const out = {};
for (const size of sizes) {
  const text = unit.repeat(Math.ceil(Number(size) / unit.length));
  let best = Infinity;
  for (let i = 0; i < 3; i++) {
    const start = process.hrtime.bigint();
    diagnose(index, text);
    best = Math.min(best, Number(process.hrtime.bigint() - start) / 1e9);
  }
  out[size] = best;
}
console.log(JSON.stringify(out));
