/* Loads each widget's script on the pages that hold one, and only there.
 *
 * A widget is a <figure class="grpo-widget" data-widget-script="group-widget.js"> written by
 * hooks/widget.py. This loader is the only widget code on every page; when a page holds a widget of some
 * kind, it adds that kind's script, once, from the folder this loader was served from. The widget script
 * then draws its figures on Material's `document$`, which replays the current page to a late subscriber.
 */
(() => {
  "use strict";

  const folder = new URL(".", document.currentScript.src);
  const requested = new Set();

  function load() {
    for (const figure of document.querySelectorAll("figure.grpo-widget[data-widget-script]")) {
      const name = figure.dataset.widgetScript;
      if (requested.has(name) || !/^[a-z0-9-]+\.js$/.test(name)) continue;
      requested.add(name);
      const script = document.createElement("script");
      script.src = new URL(name, folder).href;
      document.head.append(script);
    }
  }

  if (window.document$ && typeof window.document$.subscribe === "function") window.document$.subscribe(load);
  else if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", load);
  else load();
})();
