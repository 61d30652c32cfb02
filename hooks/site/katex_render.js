// One long-lived KaTeX for the whole build: the Python side (hooks/site/katex.py) writes one JSON request
// per line, {"tex": ..., "display": true|false}, and reads one JSON answer per line, {"html": ...} or
// {"error": ...}. Loading KaTeX once costs about 0.1 s; each formula afterwards costs about 1 ms.
"use strict";
const readline = require("node:readline");

const katexDir = process.argv[2];
if (!katexDir) {
  process.stderr.write("usage: node katex_render.js <path to node_modules/katex>\n");
  process.exit(2);
}
const katex = require(katexDir);

function render(request) {
  try {
    const html = katex.renderToString(request.tex, {
      displayMode: Boolean(request.display),
      throwOnError: true,
      strict: "error",
      output: "htmlAndMathml",
    });
    return { html };
  } catch (error) {
    return { error: String(error && error.message ? error.message : error) };
  }
}

process.stdout.write(JSON.stringify({ version: katex.version }) + "\n");
readline.createInterface({ input: process.stdin }).on("line", (line) => {
  process.stdout.write(JSON.stringify(render(JSON.parse(line))) + "\n");
});
