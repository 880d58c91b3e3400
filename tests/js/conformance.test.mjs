// The shared conformance cases, run against assets/diagnose.js (tests/test_conformance.py runs
// the same file against the Python implementation).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { diagnose, query, search, splitLines, tokenize } from "../../assets/diagnose.js";

const here = new URL("../conformance/", import.meta.url);
const cases = JSON.parse(readFileSync(new URL("cases.json", here), "utf8"));
const index = JSON.parse(readFileSync(new URL("index.json", here), "utf8"));

for (const c of cases.tokenize) {
  test(`tokenize: ${c.name}`, () => {
    assert.deepEqual(tokenize(c.input, c.signature === true), c.tokens);
    assert.deepEqual(splitLines(c.input).map((l) => l.rank), c.ranks);
  });
}

for (const c of cases.diagnose) {
  test(`diagnose: ${c.name}`, () => {
    const results = diagnose(index, c.log);
    if (c.exact) assert.deepEqual(results.map((r) => r.slug), c.expect.map((e) => e.slug));
    c.expect.forEach((want, i) => {
      for (const [key, value] of Object.entries(want)) assert.deepStrictEqual(results[i][key], value, key);
    });
    for (const r of results) assert.ok(r.score > 0 && r.score <= 1);
  });
}

for (const c of cases.query) {
  test(`query: ${c.name}`, () => {
    const results = query(index, c.q).map((r) => r.slug);
    if (c.top.length) assert.deepEqual(results.slice(0, c.top.length), c.top);
    else assert.deepEqual(results, []);
  });
}

for (const c of cases.search) {
  test(`search: ${c.name}`, () => {
    const results = search(index, c.q).map((r) => r.slug);
    if (c.exact) assert.deepEqual(results, c.top);
    else if (c.top.length) assert.deepEqual(results.slice(0, c.top.length), c.top);
    else assert.deepEqual(results, []);
  });
}
