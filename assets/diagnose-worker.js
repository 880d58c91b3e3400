// Runs diagnose() off the page's main thread, so a very large paste never freezes the tab.
import { diagnose } from "./diagnose.js";

let index = null;

self.addEventListener("message", async (event) => {
  const { id, indexUrl, text, file } = event.data;
  try {
    if (index === null) {
      const response = await fetch(indexUrl);
      if (!response.ok) throw new Error(`could not load the search index (${response.status})`);
      index = await response.json();
    }
    const log = file ? await file.text() : text;
    const started = performance.now();
    const results = diagnose(index, log);
    let lines = 1;
    for (let i = log.indexOf("\n"); i !== -1; i = log.indexOf("\n", i + 1)) lines++;
    self.postMessage({ id, results, lines, chars: log.length, ms: performance.now() - started });
  } catch (error) {
    self.postMessage({ id, error: String(error && error.message ? error.message : error) });
  }
});
