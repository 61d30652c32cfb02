"""The book's import contract, checked from the source (no import is run): `make test` runs it (tests/test_lint.py).

    .venv/bin/python scripts/check_imports.py          # every rule; exit status 1 and one line per breach
    .venv/bin/python scripts/check_imports.py --cycles  # only count the import cycles (works on any checkout)

The rules keep the layers apart (hooks/README.md draws them):

- hooks/ reach the math through the public face of grpo_examples only: `import grpo_examples` or
  `from grpo_examples import Name`, never a submodule, and never numpy: a hook that does arithmetic on the
  book's numbers is a second copy of the math.
- grpo_examples/ knows nothing of the site: no MkDocs, Markdown, HTML, KaTeX or hooks.
- hooks/checks.py (the checks `make check` and the build share) imports no MkDocs.
- hooks/engine/ knows no chapter and no part of the site; hooks/chapters/ import from the hooks only
  hooks.engine.contract, and no escaping (html): data text crosses one boundary, in the engine;
  hooks/site/ knows neither the chapters nor the math.
- No import cycle among the modules of hooks/ and grpo_examples/, counting imports inside functions (an
  import moved into a function to dodge a cycle is still a cycle).
"""

from __future__ import annotations

import argparse
import ast
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("hooks", "grpo_examples")
SITE_LIBRARIES = ("mkdocs", "markdown", "markdown_katex", "pymdownx", "material", "hooks", "html", "xml")


@dataclass(frozen=True)
class Import:
    """One imported module (or `package.Name`, when `from package import Name` names no module)."""

    file: Path
    line: int
    module: str  # as resolved: the module the statement loads
    names: tuple[str, ...]  # for `from x import a, b`: a and b


def module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules(root: Path) -> dict[str, Path]:
    """Every module of the book's packages, by dotted name."""
    return {module_name(p, root): p for package in PACKAGES for p in sorted((root / package).rglob("*.py"))}


def imports(path: Path, root: Path, known: dict[str, Path]) -> Iterator[Import]:
    """Every import in the file, at any depth (inside functions too)."""
    package = module_name(path, root) if path.name == "__init__.py" else module_name(path, root).rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield Import(path, node.lineno, alias.name, ())
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(
                    [*package.split(".")[: len(package.split(".")) - node.level + 1], *filter(None, [base])]
                )
            names = tuple(alias.name for alias in node.names)
            submodules = [f"{base}.{name}" for name in names if f"{base}.{name}" in known]
            for submodule in submodules:
                yield Import(path, node.lineno, submodule, ())
            if len(submodules) < len(names):
                yield Import(path, node.lineno, base, tuple(n for n in names if f"{base}.{n}" not in known))


def _within(module: str, *prefixes: str) -> bool:
    return any(module == p or module.startswith(p + ".") for p in prefixes)


def breaches(root: Path) -> list[str]:
    """Every import that breaks a rule of the contract, as `file:line: what, and what to do`."""
    known = modules(root)
    found = []
    for name, path in known.items():
        where = path.relative_to(root).as_posix()
        for imp in imports(path, root, known):
            problem = _rule(name, imp.module)
            if problem:
                found.append(f"{where}:{imp.line}: imports {imp.module}: {problem}")
    return found


def _rule(importer: str, module: str) -> str | None:
    if _within(importer, "hooks"):
        if _within(module, "numpy"):
            return "hooks do no math; compute it in grpo_examples and reach it as a field of a model"
        if _within(module, "grpo_examples") and module != "grpo_examples":
            return "hooks reach grpo_examples through its public face only: `from grpo_examples import Name`"
    if _within(importer, "grpo_examples") and _within(module, *SITE_LIBRARIES):
        return "grpo_examples knows nothing of the site; draw it in hooks/chapters/"
    if _within(importer, "hooks.checks") and _within(module, "mkdocs", "hooks.events"):
        return "hooks/checks.py runs without MkDocs (`make check` does not load it); MkDocs' side is hooks/events.py"
    if _within(importer, "hooks.engine") and _within(
        module, "hooks.chapters", "hooks.site", "hooks.events", "hooks.checks"
    ):
        return "the engine knows no chapter and no part of the site; hooks/checks.py hands them to it"
    if (
        _within(importer, "hooks.chapters")
        and _within(module, "hooks.engine", "hooks.site", "hooks.events", "hooks.checks")
        and not _within(module, "hooks.engine.contract")
    ):
        return "a chapter's presentation imports only hooks.engine.contract from the hooks"
    if _within(importer, "hooks.chapters") and _within(module, "html", "markupsafe"):
        return (
            "a layout escapes nothing: hand data text as it is to md(), join(), table() or code() "
            "(hooks/engine/markdown.py is the one boundary)"
        )
    if _within(importer, "hooks.site") and _within(module, "hooks.chapters", "grpo_examples"):
        return "the site layer knows neither the chapters nor the math"
    return None


def _graph(root: Path) -> dict[str, dict[str, Import]]:
    """module -> the modules it imports, each with the first statement that does."""
    known = modules(root)
    graph: dict[str, dict[str, Import]] = {name: {} for name in known}
    for name, path in known.items():
        for imp in imports(path, root, known):
            target = imp.module
            while target and target not in known:
                target = target.rpartition(".")[0]
            if target and target != name and not name.startswith(target + "."):
                graph[name].setdefault(target, imp)
    return graph


def cycles(root: Path) -> list[list[str]]:
    """The import cycles among the book's modules: each strongly connected set of two or more modules."""
    graph = _graph(root)
    return [sorted(c) for c in _strongly_connected({k: set(v) for k, v in graph.items()}) if len(c) > 1]


def cycle_imports(root: Path, cycle: list[str]) -> list[Import]:
    """The imports that close one cycle through the set's first module, the shortest way round."""
    graph, members = _graph(root), set(cycle)
    start = cycle[0]
    paths: dict[str, list[Import]] = {start: []}
    queue = [start]
    while queue:  # breadth first, within the set, until an import leads back to the start
        module = queue.pop(0)
        for target, imp in sorted(graph[module].items()):
            if target == start:
                return [*paths[module], imp]
            if target in members and target not in paths:
                paths[target] = [*paths[module], imp]
                queue.append(target)
    return []


def _strongly_connected(graph: dict[str, set[str]]) -> list[list[str]]:
    """Tarjan's algorithm, iterative."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for start in graph:
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                found.append(component)
    return found


def main(arguments: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--cycles", action="store_true", help="only count the import cycles")
    parser.add_argument("--root", type=Path, default=ROOT, help="the book's folder (default: this one)")
    options = parser.parse_args(arguments)
    root = options.root.resolve()
    found = cycles(root)
    problems = [] if options.cycles else breaches(root)
    problems += [
        f"import cycle of {len(c)} modules: {' -> '.join(c)}: "
        + "; ".join(
            f"{imp.file.relative_to(root).as_posix()}:{imp.line} imports {imp.module}" for imp in cycle_imports(root, c)
        )
        + ": move what they share into a module that none of them imports (an import inside a function counts too)"
        for c in found
    ]
    for problem in problems:
        print(problem)
    print(
        f"import cycles: {len(found)}"
        + (f", breaches of the layers: {len(problems) - len(found)}" if not options.cycles else "")
    )
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
