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
// maxSize: a size written in TeX (\rule{1e6em}{1em}, \hspace, \kern) is at most 10 em, as wide as a phone's
// line: KaTeX's default has no bound, and one slip made the whole page scroll sideways.
const OPTIONS = { throwOnError: true, strict: "error", maxSize: 10 };

// Where a displayed formula may wrap on a narrow screen: before a relation (a step, "= the next form") and,
// inside a step, before a binary + or − between two terms. KaTeX's own parser finds both at the top level.
const RELATIONS = new Set(["=", "\\approx", "\\le", "\\leq", "\\ge", "\\geq", "<", ">", "\\ne", "\\neq"]);
const OPERATORS = new Set(["+", "-"]);
// A − after these is a sign, not a subtraction (after an opening bracket no cut is made at all: bracket below).
const NOT_A_TERM = new Set(["rel", "bin", "punct"]);
const isTermEnd = (node) => (node.type === "atom" ? !NOT_A_TERM.has(node.family) : node.type !== "op");

// +1 for an opening bracket, -1 for a closing one (\big( is an ordinary atom to KaTeX: its delimiter says).
const OPENING = new Set(["(", "[", "\\{", "\\lbrace", "\\langle", "\\lVert", "\\lvert", "\\lfloor", "\\lceil"]);
const CLOSING = new Set([")", "]", "\\}", "\\rbrace", "\\rangle", "\\rVert", "\\rvert", "\\rfloor", "\\rceil"]);
function bracket(node) {
  if (node.type === "supsub" && node.base) return bracket(node.base); // \rVert^2 closes as \rVert does
  const kind = node.type === "atom" ? `m${node.family}` : node.mclass;
  if (kind === "mopen" || (node.type === "delimsizing" && OPENING.has(node.delim))) return 1;
  if (kind === "mclose" || (node.type === "delimsizing" && CLOSING.has(node.delim))) return -1;
  return 0;
}

// TeX cut into steps, each cut into terms: "a = b + c - d = e" gives [["a"], ["= b", "+ c", "- d"], ["= e"]].
const parse = (tex) => katex.__parse(tex, { ...OPTIONS, displayMode: true });

function steps(tex, nodes = parse(tex)) {
  if (nodes.some((node) => node.type === "tag" || node.type === "cr")) return null;
  const found = [[0]];
  let open = 0; // brackets opened and not closed yet: "(2 - 1.2)" is one term
  nodes.forEach((node, i) => {
    open += bracket(node);
    if (node.type !== "atom" || !node.loc || i === 0 || open !== 0) return;
    if (node.family === "rel" && RELATIONS.has(node.text)) found.push([node.loc.start]);
    else if (node.family === "bin" && OPERATORS.has(node.text) && isTermEnd(nodes[i - 1])) {
      found[found.length - 1].push(node.loc.start);
    }
  });
  const starts = found.flat();
  const end = (start) => starts[starts.indexOf(start) + 1] ?? tex.length;
  return found.map((terms) => terms.map((start) => tex.slice(start, end(start))));
}

// The rows of an aligned or gathered environment that is the whole formula, each a list of its cells (split
// at "&"), with "\\[gap]" and nested environments understood; null for any other formula.
function rows(tex) {
  const whole = /^\s*\\begin\{(aligned|gathered)\}([\s\S]*)\\end\{\1\}\s*$/.exec(tex);
  if (!whole) return null;
  const body = whole[2];
  const found = [[]];
  let depth = 0;
  let cell = 0;
  for (let i = 0; i < body.length; i++) {
    const rest = body.slice(i);
    const environment = /^\\(begin|end)\{[a-z*]+\}/.exec(rest);
    if (environment) {
      depth += environment[1] === "begin" ? 1 : -1;
      i += environment[0].length - 1;
    } else if (rest.startsWith("\\\\") && depth === 0) {
      found[found.length - 1].push(body.slice(cell, i));
      const gap = /^\\\\\s*(\[[^\]]*\])?/.exec(rest);
      i += gap[0].length - 1;
      cell = i + 1;
      found.push([]);
    } else if (body[i] === "\\") {
      i += 1; // an escaped character (\{, \&, \,) or the first letter of a command
    } else if (body[i] === "{") depth += 1;
    else if (body[i] === "}") depth -= 1;
    else if (body[i] === "&" && depth === 0) {
      found[found.length - 1].push(body.slice(cell, i));
      cell = i + 1;
    }
  }
  found[found.length - 1].push(body.slice(cell));
  return { kind: whole[1], rows: found };
}

// KaTeX's HTML for the eye of one piece, in display style, without KaTeX's outer spans.
function pieceHtml(tex) {
  const html = katex.renderToString("\\displaystyle " + tex, { ...OPTIONS, output: "html" });
  const open = '<span class="katex"><span class="katex-html" aria-hidden="true">';
  if (!html.startsWith(open) || !html.endsWith("</span></span>")) throw new Error("unexpected KaTeX HTML");
  return html.slice(open.length, -"</span></span>".length);
}

// One row: its left side (aligned: the cell before "&"; otherwise the part before the first relation) and
// its steps, each a sign and its terms. A piece that starts with a sign is written after "{}", an empty atom,
// so the sign is spaced as it is inside the whole formula (amsmath starts an aligned right-hand cell so too).
function row(left, right, leads = false) {
  const step = (terms, i) => {
    const lead = leads && i === 0 ? " grpo-steps__step--lead" : ""; // what comes before the first sign
    const pieces = terms.map((t) => `<span>${pieceHtml(lead ? t : "{}" + t)}</span>`);
    return `<span class="grpo-steps__step${lead}">${pieces.join("")}</span>`;
  };
  const leftHtml = left === null ? "" : `<span class="grpo-steps__left">${pieceHtml(left)}</span>`;
  const whole = left === null ? " grpo-steps__right--whole" : "";
  return `${leftHtml}<span class="grpo-steps__right${whole}">${right.map(step).join("")}</span>`;
}

// The rows of a displayed formula as steps that can wrap, or null to leave it to KaTeX's display mode.
function stepRows(tex, nodes) {
  const environment = rows(tex);
  if (environment === null) {
    const cut = steps(tex, nodes);
    if (cut === null || cut.length === 1 || cut[0].length > 1 || !cut[0][0].trim()) return null;
    return [row(cut[0][0], cut.slice(1))];
  }
  const array = nodes.length === 1 && nodes[0].type === "array" ? nodes[0] : null;
  const width = environment.kind === "aligned" ? 2 : 1;
  const agrees =
    array !== null &&
    array.body.length === environment.rows.length &&
    environment.rows.every((cells) => cells.length <= width);
  if (!agrees) return null; // the parser sees another shape than the cut: KaTeX lays it out
  return environment.rows.map((cells) => {
    const right = cells.length === width ? steps(cells[width - 1]) : [];
    if (right === null) return null;
    // an empty piece ("{}" before a row's first sign) would take a line of its own when the next step wraps
    const blank = (t) => !t.replace(/\{\}/g, "").trim();
    const kept = right.map((terms) => terms.filter((t) => !blank(t))).filter((terms) => terms.length);
    const leads = width === 1 && right.length > 0 && !right[0].every(blank); // a gathered row's own left side
    return row(width === 2 ? cells[0] : null, kept, leads);
  });
}

// A displayed formula: one MathML for assistive technology, as KaTeX writes it, and for the eye its rows
// of steps, which wrap under each other where the line is too short (book.css, .grpo-steps).
function displayed(tex) {
  const nodes = parse(tex);
  const lines = stepRows(tex, nodes);
  if (lines === null || lines.includes(null)) return katex.renderToString(tex, { ...OPTIONS, displayMode: true });
  const mathml = katex.renderToString(tex, { ...OPTIONS, displayMode: true, output: "mathml" });
  const math = mathml.slice('<span class="katex">'.length, -"</span>".length);
  return (
    '<span class="katex-display"><span class="katex">' +
    `<span class="katex-mathml">${math}</span>` +
    `<span class="katex-html grpo-steps" aria-hidden="true">${lines.join("")}</span></span></span>`
  );
}

function render(request) {
  try {
    if (request.display) return { html: displayed(request.tex) };
    return { html: katex.renderToString(request.tex, { ...OPTIONS, displayMode: false }) };
  } catch (error) {
    return { error: String(error && error.message ? error.message : error) };
  }
}

process.stdout.write(JSON.stringify({ version: katex.version }) + "\n");
readline.createInterface({ input: process.stdin }).on("line", (line) => {
  process.stdout.write(JSON.stringify(render(JSON.parse(line))) + "\n");
});
