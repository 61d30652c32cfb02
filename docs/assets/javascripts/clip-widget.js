/* The interactive clip (placed by <!-- grpo:widget clip ppo -->, built by hooks/chapters/ppo.py, loaded by
 * widgets.js on the pages that hold one).
 *
 * The build embeds the controls' starting values, ranges and steps, and numpy's results on a grid that
 * holds the ends of the clip range exactly; this file ports the formula and draws. Its DOM is a contract
 * that tests and authors rely on: see docs/guide/widgets.md.
 */
(() => {
  "use strict";

  const { APPROX, format, short, el, svgEl, refusalMessage, typedNumber, judge, selfCheck, boot, mount } = window.grpoWidgets;
  let count = 0;

  /* grpo_examples.ppo: L = min(rho A, clip(rho, 1 - eps, 1 + eps) A), and dL/drho = 0 where the clip binds
     (A > 0 and rho > 1 + eps, or A < 0 and rho < 1 - eps), A elsewhere. */
  function surrogate(rho, A, eps) {
    if (!(eps > 0 && eps < 1)) throw new RangeError(`the clip range epsilon must lie in (0, 1), got ${eps}`);
    const low = 1 - eps, high = 1 + eps;
    const unclipped = rho * A, clipped = Math.min(Math.max(rho, low), high) * A;
    const binds = (A > 0 && rho > high) || (A < 0 && rho < low);
    return { unclipped, clipped, objective: Math.min(unclipped, clipped), gradient: binds ? 0 : A, binds };
  }

  /* The port against numpy at every point the page embeds, identical value for value (rtol 0): the grid holds
     each end of the clip range and the floats on either side, where the clip starts or stops binding */
  const checks = (points) => points.flatMap(([rho, A, eps, ...numpy]) => {
    const ours = surrogate(rho, A, eps);
    return ["unclipped", "clipped", "objective", "gradient", "binds"].map((name, i) =>
      [name, ours[name], numpy[i], `rho=${rho}, A=${A}, eps=${eps}`]);
  });

  /* A slider and a number box for one setting, both labelled, kept in step; error says why a typed number is refused */
  function control(id, key, label, setting, onChange, error) {
    const [min, max] = setting.range;
    const range = el("input", "cw-range"), number = el("input", "cw-number grpo-number");
    Object.assign(range, { type: "range", id: `${id}-${key}`, min, max, step: setting.step, value: setting.value });
    Object.assign(number, { type: "number", min, max, step: "any", value: setting.value });
    number.setAttribute("aria-label", `${label}, exact value`);
    number.setAttribute("aria-describedby", error.id);
    range.addEventListener("input", () => {
      number.value = range.value;
      judge(number, error, "");
      onChange(Number(range.value));
    });
    number.addEventListener("input", () => {
      const value = typedNumber(number, min, max);
      judge(number, error, value === null ? `${label}: type a number from ${min} to ${max}.` : "");
      if (value !== null) {
        range.value = value;
        onChange(value);
      }
    });
    number.addEventListener("change", () => {
      const typed = Number(number.value), value = Number.isFinite(typed) && number.value !== "" ? Math.min(max, Math.max(min, typed)) : Number(range.value);
      number.value = value;
      judge(number, error, "");
      range.value = value;
      onChange(value);
    });
    const set = (value) => {
      range.value = value;
      number.value = value;
    };
    const row = el("div", "cw-control", "", el("label", "", label), range, number);
    row.querySelector("label").htmlFor = range.id;
    return { row, set };
  }

  /* The drawing: L and rho A against rho, the clip range shaded, a dot at the reader's rho */
  function plot(id) {
    const W = 340, H = 200, left = 46, right = 12, top = 12, bottom = 152;
    const root = svgEl("svg", { class: "cw-plot", viewBox: `0 0 ${W} ${H}`, role: "img", "aria-labelledby": `${id}-plot-title` });
    const title = svgEl("title", { id: `${id}-plot-title` });
    const band = svgEl("rect", { class: "cw-band", y: top, height: bottom - top });
    const grid = svgEl("g", { class: "cw-grid" }), ticks = svgEl("g", { class: "cw-ticks" });
    const unclipped = svgEl("polyline", { class: "cw-unclipped", fill: "none" });
    const objective = svgEl("polyline", { class: "cw-objective", fill: "none" });
    const ghost = svgEl("circle", { class: "cw-ghost", r: 4 }), marker = svgEl("circle", { class: "cw-marker", r: 5 });
    const labels = [svgEl("text", { x: (left + W - right) / 2, y: H - 4, "text-anchor": "middle" }, "ratio ρ"),
      svgEl("text", { x: 12, y: (top + bottom) / 2, "text-anchor": "middle", transform: `rotate(-90 12 ${(top + bottom) / 2})` }, "objective L")];
    root.append(title, band, grid, ticks, unclipped, objective, ghost, marker, ...labels);

    function draw(state, places) {
      const [x0, x1] = state.ratioRange, { A, eps, rho } = state;
      const reach = Math.max(1, Math.abs(A) * x1), lowY = A < 0 ? -reach : -0.15 * reach, highY = A < 0 ? 0.15 * reach : reach;
      const px = (x) => left + ((x - x0) / (x1 - x0)) * (W - left - right);
      const py = (y) => bottom - ((y - lowY) / (highY - lowY)) * (bottom - top);
      const xs = [x0, 1 - eps, 1 + eps, x1].filter((x) => x >= x0 && x <= x1);
      band.setAttribute("x", px(Math.max(x0, 1 - eps)));
      band.setAttribute("width", px(Math.min(x1, 1 + eps)) - px(Math.max(x0, 1 - eps)));
      unclipped.setAttribute("points", [x0, x1].map((x) => `${px(x)},${py(x * A)}`).join(" "));
      objective.setAttribute("points", xs.map((x) => `${px(x)},${py(surrogate(x, A, eps).objective)}`).join(" "));
      const here = surrogate(rho, A, eps);
      marker.style.transform = `translate(${px(rho)}px, ${py(here.objective)}px)`;
      ghost.style.transform = `translate(${px(rho)}px, ${py(here.unclipped)}px)`;
      ghost.style.visibility = here.unclipped === here.objective ? "hidden" : "visible";
      grid.replaceChildren(svgEl("line", { x1: left, x2: W - right, y1: py(0), y2: py(0) }));
      const tickLabels = [];
      for (let x = Math.ceil(x0 * 2) / 2; x <= x1 + 1e-9; x += 0.5) {
        tickLabels.push(svgEl("text", { x: px(x), y: bottom + 17, "text-anchor": "middle" }, short(x, 1)));
      }
      for (const y of [A < 0 ? lowY : highY, 0]) {
        tickLabels.push(svgEl("text", { x: left - 5, y: py(y) + 4, "text-anchor": "end" }, short(y, 1).replace(APPROX, "")));
      }
      tickLabels.push(svgEl("text", { class: "cw-band-label", x: px(1), y: top + 12, "text-anchor": "middle" },
        `${format(1 - eps, places)} to ${format(1 + eps, places)}`));
      ticks.replaceChildren(...tickLabels);
      title.textContent = `The clipped objective L against the ratio ρ for A = ${format(A, places, true)} and ε = ${format(eps, places)}: ` +
        `the dot is at ρ = ${format(rho, places)}, L = ${format(here.objective, places)}.`;
    }
    return { root, draw };
  }

  function init(figure, data) {
    selfCheck("clip", 0, checks(data.numpy_points));
    const id = `cw${++count}`, places = data.max_decimals;
    const state = { A: data.advantage.value, eps: data.epsilon.value, rho: data.ratio.value, ratioRange: data.ratio.range };

    const readout = el("dl", "cw-readout grpo-readout"), worked = el("p", "cw-worked"), note = el("p", "cw-note");
    const summary = el("p", "cw-summary grpo-sr-only");
    summary.setAttribute("aria-live", "polite");
    const drawing = plot(id);
    const error = refusalMessage(id, "cw-error");
    const advantage = control(id, "advantage", "Advantage A", data.advantage, (v) => update("A", v), error);
    const epsilon = control(id, "epsilon", "Clip range ε", data.epsilon, (v) => update("eps", v), error);
    const ratio = control(id, "ratio", "Ratio ρ", data.ratio, (v) => update("rho", v), error);
    const flip = el("button", "grpo-button", "Flip the sign of A");
    flip.type = "button";
    flip.addEventListener("click", () => {
      advantage.set(-state.A);
      update("A", -state.A);
    });
    const app = el("div", "cw grpo-panel", "",
      el("div", "cw-controls", "", advantage.row, epsilon.row, ratio.row, el("div", "cw-tools", "", error, flip)),
      el("div", "cw-figure", "", drawing.root, el("p", "cw-legend", "",
        el("span", "", "", el("i", "cw-key cw-key--objective"), "L = min(…)"),
        el("span", "", "", el("i", "cw-key cw-key--unclipped"), "ρA, unclipped"),
        el("span", "", "", el("i", "cw-key cw-key--band"), "clip range"))),
      el("div", "cw-panel", "", readout, worked, note),
      summary);
    mount(figure, app);

    const shown = (x, signed = false) => format(x, places, signed);
    const plain = (x) => shown(x).replace(APPROX, "");
    const factor = (x) => (x < 0 ? `(${plain(x)})` : plain(x));

    /* What the numbers mean, in words that follow them */
    function meaning(r) {
      const { A, eps, rho } = state, low = shown(1 - eps), high = shown(1 + eps), at = shown(rho);
      if (A === 0) return "A = 0: the token did exactly as well as expected. Both terms are 0, and nothing moves it.";
      const up = A > 0, g = shown(r.gradient, true);
      if (r.binds) {
        return up
          ? `A > 0 and ρ = ${at} is above 1 + ε = ${high}: the token is already more likely than the clip range allows. ` +
            "The min takes the clipped term, which is flat in ρ: gradient 0, no further push up."
          : `A < 0 and ρ = ${at} is below 1 − ε = ${low}: the token is already less likely than the clip range allows. ` +
            "The min takes the clipped term, which is flat in ρ: gradient 0, no further push down.";
      }
      if (rho >= 1 - eps && rho <= 1 + eps) {
        return `ρ = ${at} is inside [${low}, ${high}], so both terms are equal and the gradient is A = ${g}: ` +
          `the token is pushed ${up ? "up" : "down"}.`;
      }
      return up
        ? `A > 0 but ρ = ${at} is below 1 − ε = ${low}: the updates made this good token less likely. The min keeps ` +
          `the unclipped ρA, the pessimistic choice, so the gradient A = ${g} pulls it back up.`
        : `A < 0 but ρ = ${at} is above 1 + ε = ${high}: the updates made this bad token more likely. The min keeps ` +
          `the unclipped ρA, the pessimistic choice, so the gradient A = ${g} pushes it back down.`;
    }

    function update(key, value) {
      const before = state[key];
      if (key) state[key] = value;
      const { A, eps, rho } = state, r = surrogate(rho, A, eps);
      Object.assign(app.dataset, {
        ratio: String(rho), advantage: String(A), epsilon: String(eps), unclipped: String(r.unclipped),
        clipped: String(r.clipped), objective: String(r.objective), gradient: String(r.gradient), binds: String(r.binds),
      });
      app.classList.toggle("cw--binds", r.binds);
      readout.replaceChildren(...[
        ["unclipped ρA", shown(r.unclipped)],
        ["clipped clip(ρ, 1 − ε, 1 + ε)·A", shown(r.clipped)],
        ["L = the min", shown(r.objective)],
        ["the clip", r.binds ? "binds" : "does not bind"],
        ["gradient ∂L/∂ρ", shown(r.gradient, true)],
      ].map(([term, text]) => el("div", "", "", el("dt", "", term), el("dd", "", text))));
      const steps = [shown(rho), shown(A), shown(r.unclipped), shown(r.clipped), shown(r.objective), shown(1 - eps), shown(1 + eps)];
      const rel = steps.some((text) => text.startsWith("≈")) ? "≈" : "=";
      worked.textContent = `L = min(${plain(rho)} × ${factor(A)}, clip(${plain(rho)}, ${plain(1 - eps)}, ${plain(1 + eps)}) × ${factor(A)}) ` +
        `${rel} min(${plain(r.unclipped)}, ${plain(r.clipped)}) ${rel} ${plain(r.objective)}`;
      note.textContent = meaning(r);
      drawing.draw(state, places);
      const names = { A: "Advantage A", eps: "Clip range ε", rho: "Ratio ρ" };
      const change = key && before !== value ? `${names[key]} set to ${shown(value)}. ` : "";
      summary.textContent = `${change}A = ${shown(A, true)}, ε = ${shown(eps)}, ρ = ${shown(rho)}: ρA = ${shown(r.unclipped)}, ` +
        `clipped term ${shown(r.clipped)}, L = ${shown(r.objective)}; the clip ${r.binds ? "binds" : "does not bind"}; ` +
        `gradient ${shown(r.gradient, true)}.`;
    }
    update("", undefined);
  }

  window.grpoClip = { surrogate, format };
  boot("clip", init);
})();
