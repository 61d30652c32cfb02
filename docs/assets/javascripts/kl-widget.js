/* The KL-estimator widget (placed by <!-- grpo:widget kl practice.kl -->, built by hooks/chapters/practice.py, loaded by
 * widgets.js on the pages that hold one).
 *
 * The reader sets the probability that the policy in training (pi_theta) and the frozen reference (pi_ref) give
 * one token, and sees the log ratio and Schulman's k1, k2 and k3, drawn against the log ratio. The build embeds
 * the tokens, every constant and numpy's estimates as JSON; this file ports the formulas of
 * grpo_examples/kl_estimators.py and draws. The DOM it writes is a contract: see docs/guide/widgets.md.
 */
(() => {
  "use strict";

  const { format, short, el, svgEl, refusalMessage, typedNumber, judge, selfCheck, boot, mount } = window.grpoWidgets;
  const NAMES = ["k3", "k1", "k2"]; // drawing order: k3 on top of the others' legend, first in the legend
  let count = 0;

  /* log r = log pi_ref - log pi_theta (grpo_examples.log_ratio) */
  const logRatio = (theta, ref) => Math.log(ref) - Math.log(theta);
  /* k1 = -log r */
  const k1 = (x) => -x;
  /* k2 = (log r)^2 / 2 */
  const k2 = (x) => 0.5 * (x * x);
  /* k3 = (r - 1) - log r, as expm1(log r) - log r so that it stays accurate near r = 1 */
  const k3 = (x) => Math.expm1(x) - x;
  const ESTIMATORS = { k1, k2, k3 };

  /* The port against numpy on every point the page carries, to 1e-12 relative */
  const checks = (points) => points.flatMap(([theta, ref, x, ...estimates]) => {
    const ours = [logRatio(theta, ref), k1(x), k2(x), k3(x)], theirs = [x, ...estimates];
    return ["log r", "k1", "k2", "k3"].map((name, i) => [name, ours[i], theirs[i], `pi_theta ${theta}, pi_ref ${ref}`]);
  });

  function init(figure, data) {
    selfCheck("kl", 1e-12, checks(data.numpy_points));
    const id = `klw${++count}`, places = data.max_decimals;
    const state = { token: 0, theta: data.tokens[0].pi_theta, ref: data.tokens[0].pi_ref };

    const context = el("p", "klw-context");
    const choice = el("fieldset", "klw-choice grpo-choice");
    choice.append(el("legend", "", "Start from a token"));
    data.tokens.forEach((token, i) => {
      const input = el("input");
      Object.assign(input, { type: "radio", name: `${id}-token`, value: String(i), checked: i === 0 });
      input.addEventListener("change", () => {
        if (!input.checked) return;
        Object.assign(state, { token: i, theta: token.pi_theta, ref: token.pi_ref });
        update(`Token “${token.token}”, probabilities from the example.`, true);
      });
      const label = el("label");
      label.append(input, el("span", "", `“${token.token}”`));
      choice.append(label);
    });

    const error = refusalMessage(id, "klw-error");
    const controls = { theta: probability("theta", ["π", "θ", ": the policy in training"]),
      ref: probability("ref", ["π", "ref", ": the frozen reference"]) };

    /* A labelled slider and a number input for one probability; both set state[key] */
    function probability(key, [symbol, index, words]) {
      const row = el("div", "klw-control");
      const label = el("label", "klw-label");
      const sub = el("sub", "", index);
      label.append(symbol, sub, words);
      const range = el("input"), number = el("input", "grpo-number");
      Object.assign(range, { type: "range", id: `${id}-${key}`, min: data.slider_step, max: 1, step: data.slider_step });
      Object.assign(number, { type: "number", min: data.min_probability, max: 1, step: "any" });
      label.htmlFor = range.id;
      number.setAttribute("aria-label", `${symbol}${index}${words}, as a number`);
      number.setAttribute("aria-describedby", error.id);
      range.addEventListener("input", () => set(key, Number(range.value), range));
      range.addEventListener("change", () => announce(`${symbol}${index} set to ${format(state[key], places)}.`));
      number.addEventListener("input", () => {
        const value = typedNumber(number, data.min_probability, 1);
        judge(number, error, value === null ? `Type a probability from ${data.min_probability} to 1.` : "");
        if (value !== null) set(key, value, number);
      });
      number.addEventListener("change", () => {
        if (typedNumber(number, data.min_probability, 1) === null) {
          number.value = String(state[key]);
          judge(number, error, "");
        }
        announce(`${symbol}${index} set to ${format(state[key], places)}.`);
      });
      const inputs = el("div", "klw-inputs");
      inputs.append(range, number);
      row.append(label, inputs);
      return { row, range, number };
    }

    const values = el("dl", "klw-values");
    const rows = [["ratio", "r = π<sub>ref</sub> / π<sub>θ</sub>"], ["log-ratio", "log r"], ["k1", "k1 = −log r"],
      ["k2", "k2 = (log r)² / 2"], ["k3", "k3 = r − 1 − log r"]].map(([key, term]) => {
      const item = el("div", `klw-value klw-value--${key}`), dt = el("dt"), dd = el("dd");
      dt.innerHTML = term; // a constant of this file, never data
      dd.dataset.estimate = key;
      item.append(dt, dd);
      values.append(item);
      return [key, dd];
    });
    const shown = Object.fromEntries(rows);
    const note = el("p", "klw-note");
    const summary = el("p", "klw-summary");
    summary.setAttribute("aria-live", "polite");

    const [xLow, xHigh] = data.log_ratio_range, [yLow, yHigh] = data.estimate_range;
    const W = 380, H = 270, left = 50, right = W - 14, top = 36, bottom = H - 52;
    const px = (x) => left + ((x - xLow) / (xHigh - xLow)) * (right - left);
    const py = (y) => bottom - ((y - yLow) / (yHigh - yLow)) * (bottom - top);
    const plot = drawing();

    /* k1, k2 and k3 against the log ratio, with a marker at the reader's token */
    function drawing() {
      const figureId = `${id}-plot`;
      const root = svgEl("svg", { class: "grpo-plot klw-plot", role: "img", viewBox: `0 0 ${W} ${H}`,
        "aria-labelledby": `${figureId}-title ${figureId}-desc`, "font-size": "15" });
      root.append(svgEl("title", { id: `${figureId}-title` }, "k1, k2 and k3 against the log ratio"),
        svgEl("desc", { id: `${figureId}-desc` }, ""));
      const clip = svgEl("clipPath", { id: `${figureId}-area` });
      clip.append(svgEl("rect", { x: left, y: top, width: right - left, height: bottom - top }));
      root.append(svgEl("defs", {}), clip);
      for (let y = Math.ceil(yLow / 2) * 2; y <= yHigh; y += 2) {
        root.append(svgEl("line", { x1: left, x2: right, y1: py(y), y2: py(y), stroke: "currentColor",
          "stroke-opacity": y === 0 ? "0.6" : "0.15" }));
        root.append(svgEl("text", { x: left - 6, y: py(y) + 4, "text-anchor": "end", fill: "currentColor" },
          short(y, places, true)));
      }
      for (let x = Math.ceil(xLow); x <= xHigh; x += 1) {
        root.append(svgEl("line", { x1: px(x), x2: px(x), y1: bottom, y2: bottom + 4, stroke: "currentColor" }));
        root.append(svgEl("text", { x: px(x), y: bottom + 19, "text-anchor": "middle", fill: "currentColor" },
          short(x, places, true)));
      }
      const axis = svgEl("text", { x: (left + right) / 2, y: H - 10, "text-anchor": "middle", fill: "currentColor" },
        "log r = log(π");
      axis.append(svgEl("tspan", { "baseline-shift": "sub", "font-size": "11" }, "ref"), " / π",
        svgEl("tspan", { "baseline-shift": "sub", "font-size": "11" }, "θ"), ") (nats)");
      root.append(axis);
      root.append(svgEl("text", { x: 14, y: (top + bottom) / 2, "text-anchor": "middle", fill: "currentColor",
        transform: `rotate(-90 14 ${(top + bottom) / 2})` }, "estimate (nats)"));
      const steps = 120;
      NAMES.forEach((name, i) => {
        const points = [];
        for (let s = 0; s <= steps; s++) {
          const x = xLow + ((xHigh - xLow) * s) / steps;
          points.push(`${px(x).toFixed(2)},${py(ESTIMATORS[name](x)).toFixed(2)}`);
        }
        root.append(svgEl("polyline", { class: `klw-curve grpo-series-${i + 1}`, "data-estimate": name,
          points: points.join(" "), fill: "none", stroke: "currentColor", "stroke-width": "2",
          "clip-path": `url(#${figureId}-area)` }));
        const lx = left + i * 80;
        root.append(svgEl("line", { class: `grpo-series-${i + 1}`, x1: lx, x2: lx + 28, y1: 15, y2: 15,
          stroke: "currentColor", "stroke-width": "3" }));
        root.append(svgEl("text", { x: lx + 34, y: 20, fill: "currentColor" }, name));
      });
      const marker = svgEl("g", { class: "klw-marker" });
      marker.append(svgEl("line", { class: "klw-marker-line", x1: 0, x2: 0, y1: top, y2: bottom, stroke: "currentColor",
        "stroke-dasharray": "3 3" }));
      // The dots move by a CSS transform; the clip sits on their group, whose coordinates the transform leaves alone.
      const dots = svgEl("g", { "clip-path": `url(#${figureId}-area)` });
      NAMES.forEach((name, i) => dots.append(svgEl("circle", { class: `klw-dot grpo-dot-${i + 1}`,
        "data-estimate": name, r: 5, cx: 0, cy: 0 })));
      marker.append(dots);
      const off = svgEl("text", { class: "klw-off", x: right, y: top + 16, "text-anchor": "end", fill: "currentColor",
        "font-size": "13" }, "");
      root.append(marker, off);
      return { root, marker, off, desc: root.querySelector("desc") };
    }

    const app = el("div", "klw grpo-panel");
    app.append(context, choice, controls.theta.row, controls.ref.row, error, values, note, plot.root, summary);
    mount(figure, app);

    function set(key, value, from) {
      state[key] = value;
      update("", false, from);
    }

    function announce(change) {
      summary.textContent = `${change} ${describe()}`;
    }

    function describe() {
      const x = logRatio(state.theta, state.ref);
      const parts = NAMES.slice().sort().map((name) => `${name} ${format(ESTIMATORS[name](x), places, name === "k1")}`);
      return `πθ ${format(state.theta, places)}, πref ${format(state.ref, places)}: r = ${format(state.ref / state.theta, places)}, ` +
        `log r ${format(x, places, true)}; ${parts.join(", ")}.` + (k1(x) < 0 ? " k1 is negative; k3 is not." : "");
    }

    /* Redraw from state; `speak` writes the summary now (a slider drag speaks once, on release) */
    function update(change, speak, from) {
      const token = data.tokens[state.token], x = logRatio(state.theta, state.ref), r = state.ref / state.theta;
      context.replaceChildren("After “", el("strong", "", data.context), "”, the token “", el("strong", "", token.token), "”:");
      for (const key of ["theta", "ref"]) {
        const { range, number } = controls[key];
        if (from !== range) range.value = String(state[key]);
        if (from !== number) number.value = String(state[key]);
        range.setAttribute("aria-valuetext", format(state[key], places));
      }
      const numbers = { ratio: r, "log-ratio": x, k1: k1(x), k2: k2(x), k3: k3(x) };
      for (const [key, value] of Object.entries(numbers)) {
        const dd = shown[key];
        dd.dataset.value = String(value);
        dd.textContent = format(value, places, key === "k1" || key === "log-ratio") +
          (key === "k1" && value < 0 ? " (negative)" : "");
        dd.classList.toggle("klw-negative", key === "k1" && value < 0);
      }
      note.textContent = x === 0
        ? "πθ and πref agree on this token: r = 1, and every estimator is 0."
        : k1(x) < 0
          ? "k1 is negative: the reference gives this token more probability than the policy does. Averaged over " +
            "tokens drawn from πθ, k1 is still the KL, but one token's k1 is not. k3 = k1 + (r − 1) is never negative."
          : "k1 is positive and above k3: the policy has made this token likelier than the reference did, and " +
            "k3 = k1 + (r − 1) subtracts 1 − r. Both average to the KL over tokens drawn from πθ.";

      const inside = x >= xLow && x <= xHigh, shownX = Math.min(xHigh, Math.max(xLow, x));
      plot.marker.dataset.logRatio = String(x);
      plot.marker.classList.toggle("klw-marker--off", !inside);
      plot.marker.querySelector(".klw-marker-line").style.transform = `translateX(${px(shownX)}px)`;
      for (const dot of plot.marker.querySelectorAll(".klw-dot")) {
        dot.style.transform = `translate(${px(shownX)}px, ${py(ESTIMATORS[dot.dataset.estimate](shownX))}px)`;
      }
      plot.off.textContent = inside ? "" : `log r ${format(x, 2, true)}: off the scale`;
      plot.desc.textContent = `Three curves over log r from ${short(xLow, places)} to ${short(xHigh, places)}: ` +
        "k3 is a valley that touches 0 at log r = 0 and is never negative; k1 is a straight line falling through 0; " +
        "k2 is a parabola. " +
        `The marker is at log r ${format(x, places, true)}${inside ? "" : " (off the scale)"}.`;
      if (speak) announce(change);
    }
    update("", true, null);
    // Transitions only from the first change on, so that the marker does not glide in from the corner on load.
    requestAnimationFrame(() => app.classList.add("klw--ready"));
  }

  window.grpoKlWidget = { logRatio, k1, k2, k3, format };
  boot("kl", init);
})();
