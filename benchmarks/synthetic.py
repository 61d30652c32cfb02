"""A synthetic book of N times the chapters, made from the real ones, to show how the build scales.

Copy k of the book is docs/copy-k/, every page of docs/ again (assets excepted), listed in the nav
like the original. So that KaTeX cannot answer a copy from its cache, every formula written in a
copy's source gets k empty groups `{}` appended: the TeX differs, the rendering does not. Formulas
that placeholders write are the same in every copy and come from the in-memory cache, as they
would in a real book that repeats a formula; the counts of distinct formulas are reported.

A longer book has more chapters, each with its own model and data file (grpo_examples/chapters/<name>.py on
grpo_examples/data/<name>.toml): copy k's pages draw on copies of them, chapters/ppo<k>.py on data/ppo<k>.toml,
so that an edit of one data file changes one chapter's pages, not ten copies of the same chapter. The named
groups (groups.toml), which chapters share, stay shared. `own_data=False` makes the book the benchmarks used
before (every copy reads the original data files), to compare with."""

from __future__ import annotations

import itertools
import json
import re
import shutil
from pathlib import Path
from typing import Any

import yaml  # type: ignore[import-untyped]  # PyYAML, which MkDocs itself depends on
from mkdocs.utils.yaml import yaml_load

from benchmarks.common import Timing, fresh_clone, mkdocs_build_command, timed_run
from benchmarks.math_cost import formula_count, site_formulas

_INLINE_MATH = re.compile(r"\$(`+)(.+?)\1\$")
_FENCE = re.compile(r"^(\s*)(`{3,}|~{3,})\s*(\S*)")


def distinct_tex(markdown: str, copy: int) -> str:
    """The page with k empty groups after every formula: distinct TeX, the same picture."""
    suffix = " " + "{}" * copy
    lines, out, closing, math = markdown.split("\n"), [], None, False
    for line in lines:
        fence = _FENCE.match(line)
        if closing is None and fence:
            closing, math = fence.group(2), fence.group(3) == "math"
        elif closing is not None and line.strip() == closing:
            if math:
                out.append(line[: len(line) - len(line.lstrip())] + suffix.strip())
            closing, math = None, False
        elif closing is None:
            line = _INLINE_MATH.sub(lambda m: f"${m.group(1)}{m.group(2)}{suffix}{m.group(1)}$", line)
        out.append(line)
    return "\n".join(out)


def _prefixed(nav: Any, prefix: str) -> Any:
    if isinstance(nav, str):
        return prefix + nav if nav.endswith(".md") else nav
    if isinstance(nav, list):
        return [_prefixed(item, prefix) for item in nav]
    if isinstance(nav, dict):
        return {key: _prefixed(value, prefix) for key, value in nav.items()}
    return nav


_MARKER = re.compile(r"<!--\s*grpo:.*?-->", re.DOTALL)


def chapter_names(project: Path) -> list[str]:
    """The book's chapters: one module each in grpo_examples/chapters/ (grpo_examples.chapter_names)."""
    return sorted(path.stem for path in (project / "grpo_examples" / "chapters").glob("*.py") if path.stem[0] != "_")


def own_chapters(project: Path, names: list[str], copy: int) -> re.Pattern[str]:
    """Copy `copy` of each named chapter's model (a module that takes the chapter's Settings and build) and data
    file; the pattern that finds a chapter's name where a placeholder's path starts."""
    chapters = project / "grpo_examples" / "chapters"
    data = project / "grpo_examples" / "data"
    for name in names:
        (chapters / f"{name}{copy}.py").write_text(
            f'"""Copy {copy} of the {name} chapter\'s model, for a synthetic book (benchmarks/synthetic.py)."""\n\n'
            f"from grpo_examples.chapters.{name} import Settings, build\n\n"
            '__all__ = ["Settings", "build"]\n',
            encoding="utf-8",
        )
        shutil.copyfile(data / f"{name}.toml", data / f"{name}{copy}.toml")
    return re.compile(r"(?<![\w.-])(" + "|".join(names) + r")(?=[.\s]|$)")


def own_subjects(markdown: str, chapter: re.Pattern[str], copy: int) -> str:
    """The page with every placeholder's chapter renamed to copy `copy`'s (ppo.epsilon -> ppo3.epsilon)."""
    return _MARKER.sub(lambda m: chapter.sub(lambda c: f"{c.group(1)}{copy}", m.group(0)), markdown)


def make_book(project: Path, times: int, *, own_data: bool = True) -> int:
    """Turn the clone in project into a book of `times` copies; the number of Markdown pages."""
    docs = project / "docs"
    pages = [p for p in docs.rglob("*.md") if "assets" not in p.relative_to(docs).parts]
    config_file = project / "mkdocs.yml"
    # MkDocs' loader resolves !ENV; !relative it resolves only for a config being built, so the one use of it
    # (the snippets' base_path: the book's folder) is written out as the copy's own folder first.
    text = config_file.read_text(encoding="utf-8").replace("!relative $config_dir", json.dumps(str(project)))
    config = yaml_load(text)
    nav = config.get("nav")
    chapters = chapter_names(project)  # the original's, read once: a copy's modules are not copied again
    for copy in range(1, times):
        chapter = own_chapters(project, chapters, copy) if own_data else None
        for page in pages:
            target = docs / f"copy-{copy}" / page.relative_to(docs)
            target.parent.mkdir(parents=True, exist_ok=True)
            text = distinct_tex(page.read_text(encoding="utf-8"), copy)
            target.write_text(text if chapter is None else own_subjects(text, chapter, copy), encoding="utf-8")
        if nav is not None:
            config["nav"] = [*config["nav"], {f"Copy {copy}": _prefixed(nav, f"copy-{copy}/")}]
    config_file.write_text(yaml.safe_dump(config, sort_keys=False, allow_unicode=True), encoding="utf-8")
    return len(pages) * times


def measure(scratch: Path, sizes: list[int], repeats: int) -> dict[str, object]:
    """A cold build (fresh clone, empty caches) of the book at each size; costs per page between sizes."""
    rows = []
    for times in sizes:
        runs, pages, site = [], 0, scratch
        for index in range(repeats):
            clone = fresh_clone(scratch / f"synthetic-{times}x-{index}")
            pages = make_book(clone, times)
            site = clone / "site"
            runs.append(timed_run(mkdocs_build_command(site), clone))
        timing = Timing(runs)
        rows.append(
            {
                "times": times,
                "pages": pages,
                "formulas_on_pages": formula_count(site),
                "distinct_formulas": len(site_formulas(site)),
                "cold_build": timing.to_json(),
            }
        )
        for index in range(repeats):
            shutil.rmtree(scratch / f"synthetic-{times}x-{index}", ignore_errors=True)
    slopes = []
    for before, after in itertools.pairwise(rows):
        seconds = after["cold_build"]["median"] - before["cold_build"]["median"]  # type: ignore[index]
        slopes.append(seconds / (after["pages"] - before["pages"]))  # type: ignore[operator]
    return {"sizes": rows, "seconds_per_added_page": slopes}
