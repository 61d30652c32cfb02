"""Rewrite every placeholder of the book from names (before December 2026) to paths into the models.

    .venv/bin/python scripts/migrate_placeholders.py docs        # rewrites the pages in place, prints a count

Run once, on the pages of commit ab814f4, to move the book to one resolver (hooks/engine/tree.py); kept as the
record of how each old name maps to its path, and for pages written against the old names on another branch.
A placeholder it does not know stops it (exit status 1) with the file and line: nothing is guessed.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable
from pathlib import Path

MARKER = re.compile(r"<!--(?P<space>\s*)grpo:(?P<kind>[a-z]+)(?P<body>[^>]*?)(?P<end>\s*)-->")
GROUPS = ("easy", "hard", "split", "fractions", "solved", "tie")  # the groups of examples.toml, and the guide's own
OUTCOME = r"(?P<o>correct|wrong)"
VARIANT = r"(?P<v>population|trl|verl|openrlhf|dr-grpo|rloo)"

# Values: (pattern of the old name after its first word, the new path after it). First match wins.
Rule = tuple[str, str | Callable[[re.Match[str]], str]]
GROUP_VALUES: list[Rule] = [
    (rf"advantage\.{OUTCOME}\.{VARIANT}", r"variants.\g<v>.advantage.\g<o>"),
    (r"std\.sample", "std-sample"),
    (r"(?P<rest>.*)", r"\g<rest>"),
]
GROUP_FORMULAS: list[Rule] = [
    (rf"advantage\.{OUTCOME}\.rloo", r"leave-one-out.\g<o>.advantage"),
    (rf"rloo-identity\.{OUTCOME}", r"leave-one-out.\g<o>.from-dr-grpo"),
    (r"(?P<rest>.*)", r"\g<rest>"),
]
CASE = r"(?P<c>(?:positive|negative)-(?:inside|above|below))"
SAME: Rule = (r"(?P<rest>.*)", r"\g<rest>")
CANDIDATE = r"(?P<c>\d+|best)"


def _candidate(match: re.Match[str], rest: str) -> str:
    """candidates.2.<rest>, or best.<rest>: the page's own numbering of the candidates, from 1."""
    c = match.group("c")
    return f"best.{rest}" if c == "best" else f"candidates.{c}.{rest}"


ESTIMATOR = r"(?P<k>k1|k2|k3)"
METHOD = r"(?P<m>grpo|critic|reinforce)"
CHAPTER_VALUES: dict[str, list[Rule]] = {
    "run": [
        (r"start\.reward", "start-reward"),
        (r"sweep\.seeds", "sweep-seeds"),
        (rf"final\.reward\.{METHOD}", r"methods.\g<m>.final-reward"),
        (rf"all-equal\.(?P<f>first|last|percent)\.{METHOD}", r"methods.\g<m>.all-equal-\g<f>"),
        (rf"(?P<f>steps-to-threshold|zero-share|stuck)\.{METHOD}", r"methods.\g<m>.\g<f>"),
        (rf"sweep\.(?P<f>reached|first|median)\.{METHOD}", r"methods.\g<m>.sweep.\g<f>"),
        SAME,
    ],
    "practice": [
        (r"kl\.token", "kl.worked.token"),
        (r"kl\.tokens", "kl.count"),
        (r"kl\.(?P<f>pi-theta|pi-ref|ratio|log-ratio|k1|k2|k3)", r"kl.worked.\g<f>"),
        (r"kl\.negative\.count", "kl.negative-count"),
        (rf"kl\.mc\.{ESTIMATOR}", r"kl.monte-carlo.\g<k>"),
        (r"loss\.per-sequence\.ratio", "loss.per-sequence-ratio"),
        (rf"loss\.(?P<a>per-sequence|token-level|constant)\.total\.{OUTCOME}", r"loss.aggregations.\g<a>.whole.\g<o>"),
        (rf"loss\.(?P<a>per-sequence|token-level|constant)\.{OUTCOME}", r"loss.aggregations.\g<a>.per-token.\g<o>"),
        (r"clip\.(?P<c>symmetric|higher)", r"clip.\g<c>.value"),
        SAME,
    ],
    "bandit": [
        (r"candidates", "K"),
        (r"best", "best.number"),
        (r"signal", "gradient-norm-squared"),
        (r"(?P<k>variance|group-variance)\.(?P<b>none|expected|optimal)", r"baselines.\g<b>.\g<k>"),
        (r"simulated\.mean\.(?P<b>[a-z-]+)", r"simulation.\g<b>.mean-best"),
        (r"simulated\.variance\.(?P<b>[a-z-]+)", r"simulation.\g<b>.variance"),
        (r"not-raising\.(?P<b>[a-z-]+)", r"simulation.\g<b>.not-raising"),
        (rf"(?P<f>probability|reward|gradient)\.{CANDIDATE}", lambda m: _candidate(m, m.group("f"))),
        (rf"own\.(?P<b>none|expected)\.{CANDIDATE}", lambda m: _candidate(m, "own." + m.group("b"))),
        SAME,
    ],
    "ppo": [
        (rf"case\.{CASE}\.(?P<f>[a-z-]+)", r"cases.\g<c>.\g<f>"),
        (r"gae\.tokens", "gae.T"),
        (r"gae\.lambda", "gae.lam"),
        (r"gae\.(?P<f>value|delta|advantage|monte-carlo)\.(?P<t>\d+)", r"gae.tokens.\g<t>.\g<f>"),
        SAME,
    ],
}
CHAPTER_FORMULAS: dict[str, list[Rule]] = {
    "practice": [
        (r"kl\.k3", "kl.worked.k3"),
        (r"clip\.(?P<c>symmetric|higher)", r"clip.\g<c>.value"),
        SAME,
    ],
    "bandit": [
        (r"variance\.(?P<b>none|expected)", r"baselines.\g<b>.variance"),
        (r"variance\.quadratic", "quadratic"),
        SAME,
    ],
    "ppo": [
        (rf"ratio\.{CASE}", r"cases.\g<c>.ratio"),
        (rf"clip\.{CASE}", r"cases.\g<c>.objective"),
        (rf"gradient\.{CASE}", r"cases.\g<c>.gradient"),
        (r"gae\.(?P<f>delta|advantage)\.(?P<t>\d+)", r"gae.tokens.\g<t>.\g<f>"),
    ],
}
CHAPTER_CHECKS: dict[str, list[Rule]] = {
    "run": [(r"(?P<claim>.*)", r"claims.\g<claim>")],
    "practice": [(r"(?P<claim>.*)", r"claims.\g<claim>")],
    "bandit": [
        (r"(?P<claim>below-average|earns-something)\.(?P<c>\d+)", r"candidates.\g<c>.\g<claim>"),
        (r"(?P<claim>.*)", r"claims.\g<claim>"),
    ],
    "ppo": [
        (rf"(?P<claim>binds|free|inside|above|below|unclipped-kept)\.{CASE}", r"cases.\g<c>.\g<claim>"),
        (r"gae\.(?P<claim>raises|lowers)\.(?P<t>\d+)", r"gae.tokens.\g<t>.\g<claim>"),
        (r"critic-as-large-as-policy", "memory.critic-as-large-as-policy"),
        SAME,
    ],
}
# Blocks that took no example now name the node they draw.
BLOCKS: dict[str, str] = {
    "normalise-table": "verifier",
    "toy-question": "run",
    "training-first-step": "run",
    "training-reward": "run",
    "training-sweep": "run",
    "training-all-equal": "run",
    "training-advantages": "run",
    "kl-estimators": "practice.kl",
    "loss-aggregation": "practice.loss",
    "clip-higher": "practice.clip",
    "bandit-menu": "bandit",
    "bandit-estimates": "bandit",
    "bandit-variance-curve": "bandit",
    "bandit-simulation": "bandit",
    "bandit-simulation-table": "bandit",
    "ppo-cases": "ppo",
    "ppo-clip-plot": "ppo.plot",
    "ppo-gae": "ppo.gae",
    "ppo-critic-memory": "ppo.memory",
}
WIDGETS: dict[str, str] = {"ppo.clip": "clip ppo", "practice.kl": "kl practice.kl"}


KINDS = ("value", "formula", "block", "widget", "check")


class UnknownNameError(Exception):
    """An old name this script has no rule for."""


def _apply(rules: list[Rule], name: str, what: str) -> str:
    for pattern, replacement in rules:
        match = re.fullmatch(pattern, name)
        if match:
            return match.expand(replacement) if isinstance(replacement, str) else replacement(match)
    raise UnknownNameError(f"no rule for the {what} {name!r}")


def migrate_path(kind: str, name: str) -> str:
    """The new path for an old `grpo:value` or `grpo:formula` name."""
    head, _, rest = name.partition(".")
    if head in GROUPS:
        return f"{head}.{_apply(GROUP_VALUES if kind == 'value' else GROUP_FORMULAS, rest, kind)}"
    rules = (CHAPTER_VALUES if kind == "value" else CHAPTER_FORMULAS).get(head)
    if rules is None:
        raise UnknownNameError(f"no rules for the namespace {head!r}")
    return f"{head}.{_apply(rules, rest, kind)}"


def migrate(kind: str, words: list[str]) -> list[str]:
    """The words after `grpo:<kind>` in the new form."""
    if kind in ("value", "formula"):
        return [migrate_path(kind, words[0]), *words[1:]]
    if kind == "check":
        subject, claim = words
        if subject in GROUPS:
            return [f"{subject}.claims.{claim}"]
        rules = CHAPTER_CHECKS.get(subject)
        if rules is None:
            raise UnknownNameError(f"no rules for the claims of {subject!r}")
        return [f"{subject}.{_apply(rules, claim, 'claim')}"]
    if kind == "block":
        name, *groups = words
        return [name, *groups] if groups else [name, *BLOCKS.get(name, "").split()]
    if kind == "widget":
        if words and words[0] in WIDGETS:
            return WIDGETS[words[0]].split()
        return ["group", *words]
    raise UnknownNameError(f"no rule for the kind {kind!r}")


def migrate_text(text: str, where: str) -> tuple[str, int]:
    """Every placeholder of a page rewritten; placeholders in code too (the guide documents them there)."""
    count = 0

    def one(match: re.Match[str]) -> str:
        nonlocal count
        words = match.group("body").split()
        if match.group("kind") not in KINDS or not words or "..." in words or any(w.startswith("<") for w in words):
            return match.group()  # the guide's templates: <!-- grpo:kind arguments -->, <!-- grpo:widget <name> -->
        line = text.count("\n", 0, match.start()) + 1
        try:
            new = migrate(match.group("kind"), words)
        except UnknownNameError as error:
            raise UnknownNameError(f"{where}:{line}: {error}: {match.group()}") from None
        count += new != words
        return f"<!--{match.group('space')}grpo:{match.group('kind')} {' '.join(new)}{match.group('end')}-->"

    return MARKER.sub(one, text), count


def main(arguments: list[str]) -> int:
    folder = Path(arguments[0] if arguments else "docs")
    total = 0
    rewritten: dict[Path, str] = {}
    try:
        for page in sorted(folder.rglob("*.md")):
            text = page.read_text(encoding="utf-8")
            new, count = migrate_text(text, page.as_posix())
            if new != text:
                rewritten[page] = new
            total += count
    except UnknownNameError as error:
        print(error, file=sys.stderr)
        return 1  # nothing written: every page, or none
    for page, text in rewritten.items():
        page.write_text(text, encoding="utf-8")
    print(f"{total} placeholders rewritten")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
