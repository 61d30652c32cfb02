/* Loads the widgets' scripts on the pages that hold a widget, and only there.
 *
 * A widget is a <figure class="grpo-widget" data-widget-script="group-widget.js"> written by
 * hooks/engine/widget.py. This loader is the only widget code on every page; when a page holds a widget, it
 * adds the widgets' shared runtime (widget-runtime.js) and each kind's script, once, from the folder it was
 * served from, to run in that order. Each widget's script draws its figures on Material's `document$`, which
 * replays the current page to a late subscriber.
 */
(() => {
  "use strict";

  const folder = new URL(".", document.currentScript.src);
  const requested = new Set();

  function add(name) {
    if (requested.has(name) || !/^[a-z0-9-]+\.js$/.test(name)) return;
    requested.add(name);
    const script = document.createElement("script");
    script.src = new URL(name, folder).href;
    script.async = false; // fetched at once, run in the order added: the runtime before the widgets that use it
    document.head.append(script);
  }

  function load() {
    const figures = document.querySelectorAll("figure.grpo-widget[data-widget-script]");
    if (figures.length) add("widget-runtime.js");
    for (const figure of figures) add(figure.dataset.widgetScript);
  }

  if (window.document$ && typeof window.document$.subscribe === "function") window.document$.subscribe(load);
  else if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", load);
  else load();
})();
