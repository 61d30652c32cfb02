"""axe-core (node_modules/axe-core, pinned in package.json) run in a Playwright page."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Page

from tests.conftest import ROOT

AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"

# The rules whose outcome depends on colours: all that changes between the palettes.
COLOUR_RULES = ["color-contrast", "link-in-text-block"]


def run_axe(page: Page, rules: list[str] | None = None) -> list[dict[str, Any]]:
    """axe-core's violations on the page as it is now (every rule, or only those named), in short."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.add_script_tag(path=str(AXE))
    options = {"resultTypes": ["violations"], **({"runOnly": {"type": "rule", "values": rules}} if rules else {})}
    result = page.evaluate("options => axe.run(document, options)", options)
    return [
        {"id": v["id"], "impact": v["impact"], "help": v["help"], "targets": [n["target"] for n in v["nodes"]][:5]}
        for v in result["violations"]
    ]
