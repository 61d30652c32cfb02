/* What every widget's script shares, once, as window.grpoWidgets: the number format, the DOM helpers, the
 * refusal of a typed number, the self-check against numpy and the start-up. widgets.js loads it, before the
 * widgets' own scripts, on the pages that hold a widget (and only there).
 */
(() => {
  "use strict";

  const MINUS = "\u2212";
  /* Inside a number the spaces do not break (as hooks/engine/numbers.py writes them): no line ends on its ≈ or × */
  const NBSP = "\u00a0", APPROX = `≈${NBSP}`;
  const SVG = "http://www.w3.org/2000/svg";

  /* On Material's document$ (each page it brings), else once the page is parsed */
  function whenReady(run) {
    if (window.document$ && typeof window.document$.subscribe === "function") window.document$.subscribe(run);
    else if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", run);
    else run();
  }

  /* |x| to `places` decimals as Python rounds and writes floats: to the nearest, and a tie to the even last
     digit where toFixed takes the larger. The only floats halfway between two such decimals are the odd
     multiples of 2^-(places + 1), whose places + 1 decimals toFixed writes exactly. */
  function fixed(x, places) {
    const nearest = Math.abs(x).toFixed(places);
    if (Math.abs(x * 2 ** (places + 1)) % 2 !== 1) return nearest;
    const below = Math.abs(x).toFixed(places + 1).slice(0, -1);
    return Number(below.slice(-1)) % 2 === 0 ? below : nearest;
  }

  const SUPERSCRIPT = { "-": "⁻", 0: "⁰", 1: "¹", 2: "²", 3: "³", 4: "⁴", 5: "⁵", 6: "⁶", 7: "⁷", 8: "⁸", 9: "⁹" };

  /* A value too small for `places` decimals, which would read as 0, as m × 10^e: m with the fewest decimals
     within round-off of m to seventeen digits, else rounded; toExponential rounds correctly, as Python's '%e'
     does. Mantissas are compared, not values: parsing '4.9e-324' back would round it onto 5e-324 */
  function scientific(x, places, signed) {
    const size = Math.abs(x), mantissaOf = (d) => Number(size.toExponential(d).split("e")[0]);
    const full = mantissaOf(16);
    let p = 1;
    while (p <= places && Math.abs(full - mantissaOf(p)) > 1e-12 * full) p++;
    const exact = p <= places, [mantissa, exponent] = size.toExponential(exact ? p : places).split("e");
    const power = `${NBSP}×${NBSP}10${[...String(Number(exponent))].map((c) => SUPERSCRIPT[c]).join("")}`;
    return (exact ? "" : APPROX) + (x < 0 ? MINUS : signed ? "+" : "") + mantissa + power;
  }

  /* As hooks/engine/numbers.py writes numbers: fewest exact decimals, else rounded with '≈'; − and + signs */
  function format(x, places, signed) {
    if (x !== 0 && Math.abs(x) < 0.5 * 10 ** -places) return scientific(x, places, signed);
    let p = 1;
    while (p <= places && Math.abs(Math.abs(x) - Number(fixed(x, p))) > 1e-12 * Math.max(1, Math.abs(x))) p++;
    const exact = p <= places, digits = fixed(x, exact ? p : places);
    const sign = Number(digits) === 0 ? "" : x < 0 ? MINUS : signed ? "+" : "";
    return (exact ? "" : APPROX) + sign + digits;
  }

  /* As numbers.short writes a count, a reward or an axis label: a whole number bare (2, −2, +2 when signed), any
     other as format writes it */
  function short(x, places, signed = false) {
    if (!Number.isInteger(x)) return format(x, places, signed);
    const digits = BigInt(Math.abs(x)).toString(); // every digit, as Python's int(): String(1e21) is "1e+21"
    return (x < 0 ? MINUS : signed && x > 0 ? "+" : "") + digits;
  }

  function el(tag, className, text, ...children) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text) node.textContent = text;
    node.append(...children);
    return node;
  }

  function svgEl(tag, attributes, text) {
    const node = document.createElementNS(SVG, tag);
    for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
    if (text) node.textContent = text;
    return node;
  }

  /* Where a widget says why a typed number is refused: a status (a polite live region), so a screen reader
     hears the reason as it appears, and the description of each of the widget's number boxes, so it
     is heard again on coming back to one */
  function refusalMessage(id, className) {
    const message = el("p", `${className} grpo-error`);
    message.id = `${id}-error`;
    message.setAttribute("role", "status");
    return message;
  }

  /* What a number box holds if it is a number from min to max, else null */
  function typedNumber(number, min, max) {
    const value = Number(number.value);
    return number.value.trim() !== "" && Number.isFinite(value) && value >= min && value <= max ? value : null;
  }

  /* A number box's verdict: `why` it is refused, or "" to accept it. A refused box is aria-invalid="true" (an
     empty aria-invalid reads as valid to a screen reader). The message is rewritten only when it changes, so
     that its live region does not repeat it at every key. */
  function judge(number, message, why) {
    if (why) number.setAttribute("aria-invalid", "true");
    else number.removeAttribute("aria-invalid");
    if (message.textContent !== why) message.textContent = why;
  }

  /* On load, a widget's port must agree with numpy on the points its page embeds; a mismatch is a bug to see.
     rows: [what, ours, numpy's, where]; agree means equal, or within rtol of numpy's (absolute below 1). */
  function selfCheck(widget, rtol, rows) {
    for (const [what, ours, theirs, where] of rows) {
      if (ours === theirs || Math.abs(ours - theirs) <= rtol * Math.max(1, Math.abs(theirs))) continue;
      console.error(`${widget} widget: ${what} = ${ours} differs from grpo_examples' ${theirs} (${where})`);
    }
  }

  /* Draws every figure of a kind once: init(figure, data) gets the JSON the build embedded in it */
  function boot(kind, init) {
    whenReady(() => {
      for (const figure of document.querySelectorAll(`figure.grpo-widget[data-widget-kind="${kind}"]`)) {
        if (figure.dataset.widget) continue;
        figure.dataset.widget = "live";
        // The figure's own script, not found by its class: Material's instant navigation (off in this book)
        // re-creates it without one.
        init(figure, JSON.parse(figure.querySelector(":scope > script").textContent)[0]);
      }
    });
  }

  /* The drawn widget goes before the caption; the class hides the static part on screen */
  function mount(figure, app) {
    figure.insertBefore(app, figure.querySelector("figcaption"));
    figure.classList.add("grpo-widget--live");
  }

  window.grpoWidgets = { MINUS, NBSP, APPROX, format, short, el, svgEl, refusalMessage, typedNumber, judge, selfCheck, boot, mount };
})();
