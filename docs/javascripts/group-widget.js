/* The interactive group (placed by <!-- grpo:widget ... -->, built by hooks/widget.py).
 *
 * The build embeds the groups, the std conventions (ddof, eps), the all-equal tolerance and numpy's
 * advantages as JSON; this file only ports the formula and draws. The DOM it writes is a contract
 * that tests and authors rely on: see docs/guide/widgets.md.
 */
(function () {
  "use strict";

  var MINUS = "\u2212";
  var count = 0;

  /* mu = (1/G) sum_i r_i */
  function mean(r) {
    var total = 0;
    for (var i = 0; i < r.length; i++) total += r[i];
    return total / r.length;
  }

  /* sigma = sqrt((1/(G - ddof)) sum_i (r_i - mu)^2): ddof 0 population, 1 sample */
  function std(r, ddof) {
    if (r.length - ddof <= 0) throw new RangeError("the std with ddof=" + ddof + " needs more than " + ddof + " reward(s)");
    var mu = mean(r), total = 0;
    for (var i = 0; i < r.length; i++) total += (r[i] - mu) * (r[i] - mu);
    return Math.sqrt(total / (r.length - ddof));
  }

  /* max(r) - min(r) <= rtol * max_i |r_i|: grpo_examples.rewards_all_equal, same rule, same tolerance */
  function allEqual(r, rtol) {
    var lo = Infinity, hi = -Infinity, big = 0;
    for (var i = 0; i < r.length; i++) {
      lo = Math.min(lo, r[i]);
      hi = Math.max(hi, r[i]);
      big = Math.max(big, Math.abs(r[i]));
    }
    return hi - lo <= rtol * big;
  }

  /* A_i = (r_i - mu) / (sigma_ddof + eps); exact zeros for an all-equal group (no learning signal).
     Computed on x = r / s for a power of two s near max|r|: the same quotient, bit for bit (scaling by a
     power of two is exact), but squares of huge or tiny rewards neither overflow nor flush to zero. */
  function advantages(r, ddof, eps, rtol) {
    if (!r.length) throw new RangeError("a group is a non-empty list of rewards");
    if (typeof rtol !== "number") throw new TypeError("pass the all-equal tolerance (equal_rewards_rtol)");
    if (allEqual(r, rtol)) return r.map(function () { return 0; });
    var big = Math.max.apply(null, r.map(Math.abs)), s = Math.pow(2, Math.floor(Math.log2(big)));
    var x = r.map(function (v) { return v / s; }), mu = mean(x), scale = std(x, ddof) + eps / s;
    return x.map(function (v) { return (v - mu) / scale; });
  }

  /* As hooks/numbers.py writes numbers: fewest exact decimals, else rounded with '≈'; − and + signs */
  function format(x, places, signed) {
    var p = 1, rounded = x;
    for (; p <= places; p++) {
      rounded = Number(x.toFixed(p));
      if (Math.abs(x - rounded) <= 1e-12 * Math.max(1, Math.abs(x))) break;
    }
    var exact = p <= places;
    if (!exact) p = places;
    var digits = Math.abs(Number(x.toFixed(p))).toFixed(p);
    var sign = x < 0 && Number(digits) !== 0 ? MINUS : signed && Number(digits) !== 0 ? "+" : "";
    return (exact ? "" : "≈ ") + sign + digits;
  }

  function el(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function capital(text) {
    return text.charAt(0).toUpperCase() + text.slice(1);
  }

  /* A labelled group of radio buttons: a fieldset, its legend, one <label> per choice */
  function radios(name, legend, choices, checked, onChange) {
    var set = el("fieldset", "gw-choice");
    set.appendChild(el("legend", "", legend));
    choices.forEach(function (choice) {
      var label = el("label"), input = el("input");
      input.type = "radio";
      input.name = name;
      input.value = choice[0];
      input.checked = choice[0] === checked;
      input.addEventListener("change", function () { if (input.checked) onChange(choice[0]); });
      label.appendChild(input);
      label.appendChild(el("span", "", choice[1]));
      set.appendChild(label);
    });
    return set;
  }

  function button(text, className, onClick) {
    var b = el("button", "gw-button " + (className || ""), text);
    b.type = "button";
    b.addEventListener("click", onClick);
    return b;
  }

  /* On load, the port must agree with numpy on the page's own groups; a mismatch is a bug to see */
  function selfCheck(data) {
    data.groups.forEach(function (group) {
      var rewards = group.responses.map(function (r) { return r.reward; });
      data.conventions.forEach(function (c) {
        var ours = advantages(rewards, c.ddof, c.eps, data.equal_rewards_rtol);
        group.numpy_advantages[c.key].forEach(function (theirs, i) {
          if (Math.abs(ours[i] - theirs) > 1e-9 * Math.max(1, Math.abs(theirs))) {
            console.error("group widget: advantage " + ours[i] + " differs from grpo_examples' " + theirs +
              " (" + group.name + ", " + c.key + ", response " + (i + 1) + ")");
          }
        });
      });
    });
  }

  function sampled(group) {
    return group.responses.map(function (r) {
      return { text: r.text, answer: r.answer, verifier: r.reward, reward: r.reward };
    });
  }

  function edited(response) {
    return response.verifier === null || response.reward !== response.verifier;
  }

  function init(figure) {
    if (figure.dataset.widget) return;
    figure.dataset.widget = "live";
    // The figure's own script; after instant navigation Material has re-created it without its class.
    var data = JSON.parse(figure.querySelector(":scope > script").textContent)[0];
    selfCheck(data);
    var id = "gw" + ++count, places = data.max_decimals, rtol = data.equal_rewards_rtol;
    var state = { group: 0, show: "reward", convention: data.conventions[0].key, groups: data.groups.map(sampled) };

    var app = el("div", "gw");
    var controls = el("div", "gw-controls");
    controls.appendChild(radios(id + "-problem", "Problem", data.groups.map(function (g, i) {
      return [String(i), capital(g.title)];
    }), "0", function (value) { state.group = Number(value); update("Switched to " + data.groups[state.group].title + "."); }));
    controls.appendChild(radios(id + "-show", "Show", [["reward", "Rewards"], ["advantage", "Advantages"]], "reward",
      function (value) { state.show = value; update("Showing " + (value === "reward" ? "rewards." : "advantages.")); }));
    var question = el("p", "gw-question");
    var axis = el("div", "gw-row gw-axis");
    var axisTitle = el("span", "gw-axis-title"), ticks = el("div", "gw-track gw-ticks");
    axis.appendChild(axisTitle);
    axis.appendChild(ticks);
    var list = el("ol", "gw-list");
    var legend = el("p", "gw-legend");
    var panel = el("div", "gw-panel");
    var stats = el("dl", "gw-stats");
    var workings = el("p", "gw-worked");
    panel.appendChild(stats);
    panel.appendChild(workings);
    panel.appendChild(radios(id + "-convention", "Std convention", data.conventions.map(function (c) {
      return [c.key, c.label];
    }), state.convention, function (value) { state.convention = value; update("Convention: " + convention().label + "."); }));
    var tools = el("div", "gw-tools");
    var size = el("span", "gw-size");
    var addRight = button("+ correct", "", function () { add(1); });
    var addWrong = button("+ wrong", "", function () { add(0); });
    var remove = button("− last", "", function () {
      responses().pop();
      update("Removed the last response.");
    });
    var reset = button("Reset", "", function () {
      state.groups[state.group] = sampled(data.groups[state.group]);
      update("Reset to the sampled responses.");
    });
    addRight.setAttribute("aria-label", "Add a correct response");
    addWrong.setAttribute("aria-label", "Add a wrong response");
    remove.setAttribute("aria-label", "Remove the last response");
    [size, addRight, addWrong, remove, reset].forEach(function (node) { tools.appendChild(node); });
    var note = el("p", "gw-note"), mark = el("p", "gw-edited");
    var summary = el("p", "gw-summary");
    summary.setAttribute("aria-live", "polite");
    [controls, question, axis, list, legend, note, tools, mark, panel, summary].forEach(function (node) { app.appendChild(node); });
    figure.insertBefore(app, figure.querySelector("figcaption"));
    figure.classList.add("grpo-widget--live");

    function responses() { return state.groups[state.group]; }
    function convention() {
      return data.conventions.filter(function (c) { return c.key === state.convention; })[0];
    }
    function add(reward) {
      responses().push({ text: null, answer: null, verifier: null, reward: reward });
      update("Added a " + (reward ? "correct" : "wrong") + " response.");
    }
    function flip(i) {
      var r = responses()[i];
      r.reward = r.reward > 0 ? 0 : 1;
      update("Response " + (i + 1) + " set to " + (r.reward ? "correct" : "wrong") + (edited(r) ? " by you." : ", as the verifier scored it."));
    }

    /* What the two advantages say, in words that follow the numbers on display */
    function lesson(rewards, A) {
      var right = [], wrong = [];
      rewards.forEach(function (r, i) { (r > 0 ? right : wrong).push(A[i]); });
      if (!right.length || !wrong.length) return "";
      var pair = "(" + format(right[0], places, true) + " each correct, " + format(wrong[0], places, true) + " each wrong)";
      if (right.length === wrong.length) return "Right and wrong are equally common here, so they are pushed equally hard " + pair + ".";
      var rareWrong = wrong.length < right.length, rare = rareWrong ? wrong : right, common = rareWrong ? right : wrong;
      var ratio = Math.abs(rare[0] / common[0]), whole = Math.round(ratio);
      return "Being " + (rareWrong ? "wrong" : "right") + " is rare here (" + rare.length + " of " + rewards.length +
        "), so it weighs " + (Math.abs(ratio - whole) < 1e-9 ? whole : format(ratio, places, false)) +
        " times as much as being " + (rareWrong ? "right " : "wrong ") + pair + ". The mean is the baseline; the std sets the scale.";
    }

    /* The formula filled in once per distinct reward: ["correct", "(1 − 0.8) / 0.4 = +0.5"] */
    function worked(rewards, A, mu, sigma, eps) {
      var rough;
      function bare(x, signed) {
        var text = format(x, places, signed);
        rough = rough || text.charAt(0) === "≈";
        return text.replace("≈ ", "");
      }
      var distinct = rewards.filter(function (r, i) { return rewards.indexOf(r) === i; });
      return distinct.sort(function (a, b) { return b - a; }).map(function (r) {
        rough = false;
        var left = "(" + r + " − " + bare(mu) + ") / " + (eps ? "(" + bare(sigma) + " + " + eps + ")" : bare(sigma));
        var right = bare(A[rewards.indexOf(r)], true);
        return [r > 0 ? "correct" : "wrong", left + (rough ? " ≈ " : " = ") + right];
      });
    }

    function row(i) {
      var item = el("li", "gw-row gw-response");
      ["gw-i", "gw-text", "gw-verdict"].forEach(function (name) { item.appendChild(el("span", name)); });
      var track = el("div", "gw-track");
      track.appendChild(el("span", "gw-mean"));
      track.appendChild(el("span", "gw-bar"));
      item.appendChild(track);
      item.appendChild(el("span", "gw-value"));
      item.appendChild(button("", "gw-flip", function () { flip(i); }));
      return item;
    }

    /* Both ends of the axis: every bar of every convention fits, so switching moves bars, not the axis */
    function extent(rewards) {
      var top = 1;
      data.conventions.forEach(function (c) {
        advantages(rewards, c.ddof, c.eps, rtol).forEach(function (a) { top = Math.max(top, Math.abs(a)); });
      });
      return Math.max(2, Math.ceil(top - 1e-9));
    }

    function update(change) {
      var group = data.groups[state.group], rs = responses(), c = convention();
      var rewards = rs.map(function (r) { return r.reward; });
      var A = advantages(rewards, c.ddof, c.eps, rtol), mu = mean(rewards), sigma = std(rewards, c.ddof);
      var equal = allEqual(rewards, rtol), showA = state.show === "advantage", reach = extent(rewards);
      var at = function (v) { return 50 + (50 * v) / reach; };
      app.classList.toggle("gw--advantage", showA);
      legend.innerHTML = showA
        ? '<span><i class="gw-key gw-key--up"></i>above the group mean: made more likely</span> ' +
          '<span><i class="gw-key gw-key--down"></i>below it: made less likely</span>'
        : '<span><i class="gw-key gw-key--reward"></i>reward: 1 correct, 0 wrong</span> ' +
          '<span><i class="gw-key gw-key--mean"></i>the group mean</span>';
      question.textContent = "";
      question.appendChild(el("strong", "", group.question));
      question.appendChild(document.createTextNode(" reference answer: " + group.reference));

      axisTitle.textContent = showA ? "advantage Aᵢ, in group std" : "reward rᵢ";
      if (Number(ticks.dataset.reach) !== reach) {
        ticks.dataset.reach = reach;
        ticks.textContent = "";
        for (var t = -reach; t <= reach; t += reach > 4 ? 2 : 1) {
          var tick = el("span", "gw-tick", t > 0 ? "+" + t : t < 0 ? MINUS + -t : "0");
          tick.style.left = at(t) + "%";
          ticks.appendChild(tick);
        }
        ticks.appendChild(el("span", "gw-mean gw-mean-label", "mean μ"));
      }
      ticks.querySelector(".gw-mean").style.left = at(showA ? 0 : mu) + "%";

      while (list.children.length < rs.length) list.appendChild(row(list.children.length));
      while (list.children.length > rs.length) list.removeChild(list.lastChild);
      rs.forEach(function (r, i) {
        var item = list.children[i], v = showA ? A[i] : r.reward, mine = edited(r), right = r.reward > 0;
        item.dataset.reward = String(r.reward);
        item.dataset.advantage = String(A[i]);
        item.dataset.edited = String(mine);
        item.classList.toggle("gw-up", showA && v > 0);
        item.classList.toggle("gw-down", showA && v < 0);
        item.querySelector(".gw-i").textContent = String(i + 1);
        item.querySelector(".gw-text").textContent = r.text === null ? "A response you added" : r.text;
        item.querySelector(".gw-verdict").textContent = (mine ? "✎ " : right ? "✓ " : "✗ ") +
          (r.answer === null ? "" : "answer " + r.answer + " · ") +
          (mine ? "reward set by you: " : "verifier: ") + (right ? "correct" : "wrong");
        var bar = item.querySelector(".gw-bar");
        bar.style.left = at(Math.min(0, v)) + "%";
        bar.style.width = (50 * Math.abs(v)) / reach + "%";
        item.querySelector(".gw-mean").style.left = at(showA ? 0 : mu) + "%";
        item.querySelector(".gw-value").textContent = showA ? format(v, places, true) : Number.isInteger(v) ? String(v) : format(v, places, false);
        var flipButton = item.querySelector(".gw-flip");
        flipButton.textContent = right ? "Mark wrong" : "Mark correct";
        flipButton.setAttribute("aria-label", "Response " + (i + 1) + ": mark " + (right ? "wrong" : "correct"));
      });

      var sample = c.ddof > 0;
      stats.innerHTML = "";
      [["mean μ", format(mu, places, false)],
        [sample ? "sample std σₛ" : "std σ", format(sigma, places, false)]]
        .concat(c.eps ? [["eps", String(c.eps)]] : [])
        .concat([["advantage", "Aᵢ = (rᵢ − μ) / " + (c.eps ? "(" + (sample ? "σₛ" : "σ") + " + eps)" : "σ")]])

        .forEach(function (pair) {
          var div = el("div");
          div.appendChild(el("dt", "", pair[0]));
          div.appendChild(el("dd", "", pair[1]));
          stats.appendChild(div);
        });

      workings.textContent = "";
      (equal ? [] : worked(rewards, A, mu, sigma, c.eps)).forEach(function (line) {
        var span = el("span", "", line[1]);
        span.insertBefore(el("b", "", line[0] + " "), span.firstChild);
        workings.appendChild(span);
      });

      var n = rs.length, correct = rewards.filter(function (x) { return x > 0; }).length;
      size.textContent = "G = " + n;
      addRight.disabled = addWrong.disabled = n >= data.max_group;
      remove.disabled = n <= data.min_group;
      var changed = rs.some(edited) || rs.length !== group.responses.length;
      reset.disabled = !changed;
      note.className = "gw-note" + (equal ? " gw-note--equal" : "");
      note.textContent = equal
        ? "All " + n + " rewards are equal, so every response is exactly as good as its group: every advantage is 0 " +
          (c.eps ? "(0 / (0 + eps))" : "(0 / 0, defined as 0)") + ". This prompt gives no learning signal."
        : showA ? lesson(rewards, A) : "Each reward says only right or wrong. Switch to advantages to see what GRPO trains on.";
      mark.textContent = changed ? "Edited group: rewards marked ✎ are set by you, not by the verifier. Reset restores the sampled group." : "";

      var byReward = {};
      rs.forEach(function (r, i) { byReward[r.reward] = A[i]; });
      var parts = Object.keys(byReward).sort().reverse().map(function (key) {
        return format(byReward[key], places, true) + " for each " + (Number(key) > 0 ? "correct" : "wrong") + " response";
      });
      summary.textContent = (change ? change + " " : "") + capital(group.title) + ", G = " + n + ": " + correct +
        " correct, " + (n - correct) + " wrong. " + c.label + ": mean " + format(mu, places, false) + ", std " +
        format(sigma, places, false) + ". " + (equal ? "All rewards equal: every advantage is 0, no learning signal." : "Advantages: " + parts.join(", ") + ".");
    }
    update("");
  }

  function initAll() {
    Array.prototype.forEach.call(document.querySelectorAll("figure.grpo-widget"), init);
  }

  window.grpoWidget = { advantages: advantages, mean: mean, std: std, allEqual: allEqual, format: format };
  if (window.document$ && typeof window.document$.subscribe === "function") window.document$.subscribe(initAll);
  else if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", initAll);
  else initAll();
})();
