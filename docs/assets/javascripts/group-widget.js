/* The interactive group (placed by <!-- grpo:widget group ... -->, built by hooks/chapters/groups.py, loaded by widgets.js
 * on the pages that hold one).
 *
 * The build embeds the groups, the std conventions (ddof, eps), the all-equal tolerance and numpy's
 * advantages as JSON; this file only ports the formula and draws. The DOM it writes is a contract
 * that tests and authors rely on: see docs/guide/widgets.md.
 */
(() => {
  "use strict";

  const { NBSP, APPROX, format, short, el, selfCheck, boot, mount } = window.grpoWidgets;
  let count = 0;

  /* mu = (1/G) sum_i r_i */
  const mean = (r) => r.reduce((total, x) => total + x, 0) / r.length;

  /* sigma = sqrt((1/(G - ddof)) sum_i (r_i - mu)^2): ddof 0 population, 1 sample */
  function std(r, ddof) {
    if (r.length - ddof <= 0) throw new RangeError(`the std with ddof=${ddof} needs more than ${ddof} reward(s)`);
    const mu = mean(r);
    return Math.sqrt(r.reduce((total, x) => total + (x - mu) * (x - mu), 0) / (r.length - ddof));
  }

  /* max(r) - min(r) <= rtol * max_i |r_i|: grpo_examples.rewards_all_equal, same rule, same tolerance */
  const allEqual = (r, rtol) =>
    Math.max(...r) - Math.min(...r) <= rtol * Math.max(...r.map(Math.abs));

  /* A_i = (r_i - mu) / (sigma_ddof + eps); exact zeros for an all-equal group (no learning signal).
     Computed on x = r / s for a power of two s near max|r|: the same quotient, bit for bit (scaling by a
     power of two is exact), but squares of huge or tiny rewards neither overflow nor flush to zero. */
  function advantages(r, ddof, eps, rtol) {
    if (!r.length) throw new RangeError("a group is a non-empty list of rewards");
    if (typeof rtol !== "number") throw new TypeError("pass the all-equal tolerance (equal_rewards_rtol)");
    if (allEqual(r, rtol)) return r.map(() => 0);
    const s = 2 ** Math.floor(Math.log2(Math.max(...r.map(Math.abs))));
    const x = r.map((v) => v / s), mu = mean(x), scale = std(x, ddof) + eps / s;
    return x.map((v) => (v - mu) / scale);
  }

  const capital = (text) => text.charAt(0).toUpperCase() + text.slice(1);

  /* eps as the conventions' labels write it ("TRL: sample std + 1e-4", grpo_examples.Convention.label), which the
     widget's buttons and the page's conventions table show: one notation for it wherever the page writes it */
  const epsText = (eps) => eps.toExponential();

  /* A labelled group of radio buttons: a fieldset, its legend, one <label> per choice */
  function radios(name, legend, choices, checked, onChange) {
    return el("fieldset", "gw-choice grpo-choice", "", el("legend", "", legend), ...choices.map(([value, text]) => {
      const input = el("input");
      Object.assign(input, { type: "radio", name, value, checked: value === checked });
      input.addEventListener("change", () => input.checked && onChange(value));
      return el("label", "", "", input, el("span", "", text));
    }));
  }

  function button(text, name, onClick, className = "") {
    const b = el("button", `grpo-button ${className}`, text);
    b.type = "button";
    if (name) b.setAttribute("aria-label", name);
    b.addEventListener("click", onClick);
    return b;
  }

  /* The port against numpy on the page's own groups, under each convention, to 1e-9 relative */
  const checks = (data) => data.groups.flatMap((group) => data.conventions.flatMap((c) => {
    const ours = advantages(group.responses.map((r) => r.reward), c.ddof, c.eps, data.equal_rewards_rtol);
    return (group.numpy_advantages[c.key] ?? []).map((theirs, i) => // none where numpy's are not defined
      ["advantage", ours[i], theirs, `${group.name}, ${c.key}, response ${i + 1}`]);
  }));

  const sampled = (group) => group.responses.map((r) => ({ text: r.text, answer: r.answer, verifier: r.reward, reward: r.reward }));
  const edited = (r) => r.verifier === null || r.reward !== r.verifier;
  const outcome = (reward) => (reward > 0 ? "correct" : "wrong");

  function init(figure, data) {
    selfCheck("group", 1e-9, checks(data));
    const id = `gw${++count}`, places = data.max_decimals, rtol = data.equal_rewards_rtol;
    /* A number as the book writes it ("≈ 0.4472", "5.9605 × 10⁻⁸", their spaces no-break ones) */
    const number = (x, signed = false) => format(x, places, signed);
    /* A reward as the rows show it: a whole number as it is (0, 1), any other as the book writes numbers */
    const rewardText = (v) => short(v, places);
    const state = { group: 0, show: "reward", convention: data.conventions[0].key, groups: data.groups.map(sampled) };
    const responses = () => state.groups[state.group];
    const convention = () => data.conventions.find((c) => c.key === state.convention);

    const question = el("p", "gw-question"), axisTitle = el("span", "gw-axis-title"), ticks = el("div", "gw-track gw-ticks");
    const list = el("ol", "gw-list"), legend = el("p", "gw-legend"), note = el("p", "gw-note"), mark = el("p", "gw-edited");
    const stats = el("dl", "gw-stats grpo-readout"), workings = el("p", "gw-worked"), size = el("span", "gw-size");
    const source = el("p", "gw-source");
    const summary = el("p", "gw-summary grpo-sr-only");
    summary.setAttribute("aria-live", "polite");
    const add = (reward) => () => {
      responses().push({ text: null, answer: null, verifier: null, reward });
      update(`Added a ${outcome(reward)} response.`);
    };
    const addRight = button("+ correct", "Add a correct response", add(1));
    const addWrong = button("+ wrong", "Add a wrong response", add(0));
    const remove = button("− last", "Remove the last response", () => {
      responses().pop();
      update("Removed the last response.");
    });
    const reset = button("Reset", "", () => {
      state.groups[state.group] = sampled(data.groups[state.group]);
      update("Reset to the sampled responses.");
    });
    const problems = data.groups.map((g, i) => [String(i), capital(g.title)]);
    const app = el("div", "gw grpo-panel", "",
      el("div", "gw-controls", "",
        radios(`${id}-problem`, "Problem", problems, "0", (value) => {
          state.group = Number(value);
          update(`Switched to ${data.groups[state.group].title}.`);
        }),
        radios(`${id}-show`, "Show", [["reward", "Rewards"], ["advantage", "Advantages"]], "reward", (value) => {
          state.show = value;
          update(`Showing ${value}s.`);
        })),
      question, el("div", "gw-row gw-axis", "", axisTitle, ticks), list, legend, note,
      el("div", "gw-tools", "", size, addRight, addWrong, remove, reset), mark,
      el("div", "gw-panel", "", stats, workings,
        radios(`${id}-convention`, "Std convention", data.conventions.map((c) => [c.key, c.label]), state.convention, (value) => {
          state.convention = value;
          update(`Convention: ${convention().label}.`);
        }), source),
      summary);
    mount(figure, app);

    function flip(i) {
      const r = responses()[i];
      r.reward = r.reward > 0 ? 0 : 1;
      update(`Response ${i + 1} set to ${outcome(r.reward)}${edited(r) ? " by you." : ", as the verifier scored it."}`);
    }

    function row(i) {
      return el("li", "gw-row gw-response", "", el("span", "gw-i", String(i + 1)), el("span", "gw-text"),
        el("span", "gw-verdict"), el("div", "gw-track", "", el("span", "gw-mean"), el("span", "gw-bar")),
        el("span", "gw-value"), button("", "", () => flip(i), "gw-flip"));
    }

    /* What the two advantages say, in words that follow the numbers on display */
    function lesson(rewards, A) {
      const right = A.filter((a, i) => rewards[i] > 0), wrong = A.filter((a, i) => rewards[i] <= 0);
      if (!right.length || !wrong.length) return "";
      const pair = `(${number(right[0], true)} each correct, ${number(wrong[0], true)} each wrong)`;
      if (right.length === wrong.length) return `Right and wrong are equally common here, so they are pushed equally hard ${pair}.`;
      const rareWrong = wrong.length < right.length, [rare, common] = rareWrong ? [wrong, right] : [right, wrong];
      const ratio = Math.abs(rare[0] / common[0]), whole = Math.round(ratio);
      return `Being ${rareWrong ? "wrong" : "right"} is rare here (${rare.length} of ${rewards.length}), so it weighs ` +
        `${Math.abs(ratio - whole) < 1e-9 ? whole : number(ratio)} times as much as being ` +
        `${rareWrong ? "right" : "wrong"} ${pair}. The mean is the baseline; the std sets the scale.`;
    }

    /* The formula filled in once per distinct reward: ["correct", "(1 − 0.8) / 0.4 = +0.5"]. One "≈" for the
       line when any of its numbers is rounded, bound to the result by a no-break space. */
    function worked(rewards, A, mu, sigma, eps) {
      const distinct = rewards.filter((r, i) => rewards.indexOf(r) === i).sort((a, b) => b - a);
      return distinct.map((r) => {
        const parts = [number(mu), number(sigma), number(A[rewards.indexOf(r)], true)];
        const [m, s, a] = parts.map((text) => text.replace(APPROX, ""));
        const relation = parts.some((text) => text.startsWith("≈")) ? "≈" : "=";
        return [outcome(r), `(${rewardText(r)} − ${m}) / ${eps ? `(${s} + ${epsText(eps)})` : s} ${relation}${NBSP}${a}`];
      });
    }

    /* The advantage axis runs from -reach to +reach: every bar of every convention fits, so switching moves
       bars, not the axis */
    function extent(rewards) {
      const all = data.conventions.flatMap((c) => advantages(rewards, c.ddof, c.eps, rtol).map(Math.abs));
      return Math.max(2, Math.ceil(Math.max(1, ...all) - 1e-9));
    }

    /* The ends of the axis on show, and its ticks. Advantages are signed and compared by size: a symmetric axis
       in whole units. Rewards are drawn from 0: the axis runs from the lowest reward to the highest, 0 included
       (0 to 1 for right-or-wrong rewards, and for a group all wrong), so a reward of 1 fills its track rather
       than a quarter of an advantage's. */
    function axis(rewards, showA, reach) {
      if (showA) {
        const ticks = [];
        for (let t = -reach; t <= reach; t += reach > 4 ? 2 : 1) ticks.push([t, short(t, places, true)]);
        return { low: -reach, high: reach, ticks };
      }
      const low = Math.min(0, ...rewards), top = Math.max(0, ...rewards), high = top > low ? top : 1;
      const ends = [...new Set([low, 0, high])].sort((a, b) => a - b);
      return { low, high, ticks: ends.map((t) => [t, rewardText(t)]) };
    }

    function update(change) {
      const group = data.groups[state.group], rs = responses(), c = convention(), n = rs.length;
      const rewards = rs.map((r) => r.reward), A = advantages(rewards, c.ddof, c.eps, rtol);
      const mu = mean(rewards), equal = allEqual(rewards, rtol);
      // A sample std of one reward divides by G - 1 = 0: not defined, said in words (its advantages are 0 anyway).
      const sigma = n > c.ddof ? std(rewards, c.ddof) : null;
      const sigmaText = sigma === null ? `not defined for G = ${n}` : number(sigma);
      const showA = state.show === "advantage", reach = extent(rewards), sample = c.ddof > 0;
      const { low, high, ticks: marks } = axis(rewards, showA, reach);
      // Percent of the track; halves first, so that rewards near the largest float do not overflow.
      const span = high / 2 - low / 2, at = (v) => `${(100 * (v / 2 - low / 2)) / span}%`;
      app.classList.toggle("gw--advantage", showA);
      app.style.setProperty("--gw-zero", at(0)); // each track's zero line (group-widget.css)
      legend.innerHTML = showA
        ? '<span><i class="gw-key gw-key--up"></i>above the group mean: made more likely</span> ' +
          '<span><i class="gw-key gw-key--down"></i>below it: made less likely</span>'
        : '<span><i class="gw-key gw-key--reward"></i>reward: 1 correct, 0 wrong</span> ' +
          '<span><i class="gw-key gw-key--mean"></i>the group mean</span>';
      question.replaceChildren(el("strong", "", group.question), ` reference answer: ${group.reference}`);

      axisTitle.textContent = showA ? "advantage Aᵢ, in group std" : "reward rᵢ";
      ticks.dataset.reach = reach; // the advantage axis's, whichever view is on show
      if (ticks.dataset.axis !== `${low} ${high}`) {
        ticks.dataset.axis = `${low} ${high}`;
        ticks.replaceChildren(el("span", "gw-mean gw-mean-label", "mean μ"));
        for (const [t, text] of marks) {
          const label = el("span", "gw-tick", text);
          label.style.left = at(t);
          ticks.append(label);
        }
      }
      ticks.firstChild.style.left = at(showA ? 0 : mu);

      while (list.children.length < n) list.append(row(list.children.length));
      while (list.children.length > n) list.lastChild.remove();
      rs.forEach((r, i) => {
        const item = list.children[i], v = showA ? A[i] : r.reward, mine = edited(r), right = r.reward > 0;
        Object.assign(item.dataset, { reward: String(r.reward), advantage: String(A[i]), edited: String(mine) });
        item.classList.toggle("gw-up", showA && v > 0);
        item.classList.toggle("gw-down", showA && v < 0);
        item.querySelector(".gw-text").textContent = r.text === null ? "A response you added" : r.text;
        item.querySelector(".gw-verdict").textContent = `${mine ? "✎" : right ? "✓" : "✗"} ` +
          (r.answer === null ? "" : `answer ${r.answer} · `) + `${mine ? "reward set by you" : "verifier"}: ${outcome(r.reward)}`;
        const bar = item.querySelector(".gw-bar");
        bar.style.left = at(Math.min(0, v));
        bar.style.width = `${(100 * Math.abs(v / 2)) / span}%`;
        item.querySelector(".gw-mean").style.left = at(showA ? 0 : mu);
        item.querySelector(".gw-value").textContent = showA ? number(v, true) : rewardText(v);
        const flipButton = item.querySelector(".gw-flip");
        flipButton.textContent = right ? "Mark wrong" : "Mark correct";
        flipButton.setAttribute("aria-label", `Response ${i + 1}: mark ${right ? "wrong" : "correct"}`);
      });

      source.textContent = `Source: ${c.source}`;
      const sd = sample ? "σₛ" : "σ";
      stats.replaceChildren(...[["mean μ", number(mu)], [sample ? "sample std σₛ" : "std σ", sigmaText],
        ...(c.eps ? [["eps", epsText(c.eps)]] : []), ["advantage", `Aᵢ = (rᵢ − μ) / ${c.eps ? `(${sd} + eps)` : sd}`]]
        .map(([term, value]) => el("div", "", "", el("dt", "", term), el("dd", "", value))));
      workings.replaceChildren(...(equal ? [] : worked(rewards, A, mu, sigma, c.eps))
        .map(([who, line]) => el("span", "", "", el("b", "", `${who} `), line)));

      // A control that the change disables must not swallow the keyboard focus.
      const focused = document.activeElement;
      size.textContent = `G = ${n}`;
      addRight.disabled = addWrong.disabled = n >= data.max_group;
      remove.disabled = n <= data.min_group;
      if (focused && focused.disabled) (focused === remove ? addRight : remove).focus();
      const changed = rs.some(edited) || n !== group.responses.length;
      note.className = `gw-note${equal ? " gw-note--equal" : ""}`;
      note.textContent = equal
        ? `All ${n} rewards are equal, so every response is exactly as good as its group: every advantage is 0 ` +
          `${c.eps ? "(0 / (0 + eps))" : "(0 / 0, defined as 0)"}. This prompt gives no learning signal.`
        : showA ? lesson(rewards, A) : "Each reward says only right or wrong. Switch to advantages to see what GRPO trains on.";
      mark.textContent = changed ? "Edited group: rewards marked ✎ are set by you, not by the verifier. Reset restores the sampled group." : "";

      const byReward = new Map(rewards.map((r, i) => [r, A[i]]));
      const parts = [...byReward].sort((a, b) => b[0] - a[0]).map(([r, a]) => `${number(a, true)} for each ${outcome(r)} response`);
      const correct = rewards.filter((x) => x > 0).length;
      // The convention's label goes in brackets, not first in a sentence: it starts in lower case ("the book",
      // "verl"), and a sentence read aloud should start with a capital.
      summary.textContent = `${change ? `${change} ` : ""}${capital(group.title)}, G = ${n}: ${correct} correct, ` +
        `${n - correct} wrong. Mean ${number(mu)}, std ${sigmaText} (${c.label}). ` +
        (equal ? "All rewards equal: every advantage is 0, no learning signal." : `Advantages: ${parts.join(", ")}.`);
    }
    update("");
  }

  window.grpoWidget = { advantages, mean, std, allEqual, format };
  boot("group", init);
})();
