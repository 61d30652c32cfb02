/* Fills in the whole-book page (print/) after it has loaded.
 *
 * hooks/site/print_book.py writes every chapter after the first as <section aria-busy="true"><template>…</template>
 * </section>: the browser parses it but neither styles nor lays it out. Laid out in one go, the whole book
 * (25,000 elements) blocks a phone for seconds; moved in a few at a time, each frame's share of style and
 * layout stays well under the 50 ms that makes a task long. Printing, or following a link into a chapter
 * not yet filled in, fills in the rest at once first. When a chapter is whole its section stops being busy;
 * when the book is whole the event CONTENT_ADDED tells overrides/partials/a11y-script.html to look again for
 * boxes that scroll sideways.
 */
(() => {
  "use strict";

  /* Elements moved per frame. 150 held Lighthouse's phone profile (4x slower CPU) to about 100 ms of
     blocking in all; 300 let it reach 250-470 ms (benchmarks/rationale.md). */
  const PER_FRAME = 150;
  const CONTENT_ADDED = "grpo-content-added";

  // This script comes after the last chapter, so every template is parsed. Each is taken out of the page at
  // once: a node inserted before it would make the browser restyle all the siblings already moved in.
  const pending = [...document.querySelectorAll("section.grpo-book-chapter[aria-busy] > template")].map(
    template => {
      const section = template.parentNode;
      template.remove();
      return { section, content: template.content };
    },
  );

  /** Moves up to `budget` elements into the page, in order; true while some remain. */
  function fill(budget) {
    let moved = 0;
    while (pending.length && moved < budget) {
      const { section, content } = pending[0];
      const node = content.firstChild;
      if (node === null) {
        section.removeAttribute("aria-busy");
        pending.shift();
        if (!pending.length) document.dispatchEvent(new Event(CONTENT_ADDED));
        continue;
      }
      moved += 1 + (node.nodeType === Node.ELEMENT_NODE ? node.getElementsByTagName("*").length : 0);
      section.append(node);
    }
    return pending.length > 0;
  }

  function fillByFrames() {
    if (fill(PER_FRAME)) requestAnimationFrame(() => setTimeout(fillByFrames, 0));
  }

  /* The browser looked for a link's target before this script could fill it in. If the target is not in the
     page yet, or is a chapter still being filled, fill in everything, then ask for the same address again,
     which makes the browser jump as it would have (below the header). */
  function fillAndGo() {
    const id = decodeURIComponent(location.hash.slice(1));
    const target = id ? document.getElementById(id) : null;
    if (!id || (target !== null && target.closest("[aria-busy]") === null)) return;
    fill(Infinity);
    location.replace(location.href);
  }

  addEventListener("beforeprint", () => fill(Infinity));
  addEventListener("hashchange", fillAndGo);
  fillAndGo();
  if (document.readyState === "complete") fillByFrames();
  else addEventListener("load", () => setTimeout(fillByFrames, 0));
})();
