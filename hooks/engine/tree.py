"""The one resolver: a placeholder's path walked through a model's tree of frozen dataclasses.

    easy.advantage.wrong   ->  grpo_examples.group('easy').advantage['wrong']
    ppo.gae.tokens.2.delta ->  grpo_examples.chapter('ppo').gae.tokens[2].delta

The first word names a subject (a group or a chapter: hooks/checks.py hands them over); each further word is
an attribute of a dataclass (a field or a property, written with '-' for '_') or a key of a mapping; a number in
a path is always a key, the page's own numbering (a path never indexes a list). The walk also writes the
Python expression that makes the value (the provenance a reader is shown, and can paste into a Python session)
and keeps the declared type of each step, whose annotations (grpo_examples/quantities.py) say how the value
is shown.
"""

from __future__ import annotations

import ast
import dataclasses
import difflib
import hashlib
import inspect
import types
import typing
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import Any

from grpo_examples import Rounded, Sign, Times, Undefined

Leaf = bool | int | float | Fraction | str


class PathError(Exception):
    """A path that names nothing in its model: the message lists what there is, and the closest name."""


@dataclass(frozen=True)
class Subject:
    """A name a path starts with, the call that makes its model, and where its data comes from."""

    name: str
    call: Callable[[], object]
    expression: str  # the call as a reader writes it: grpo_examples.group('easy')
    data: str  # the data file (and table) the model reads: grpo_examples/data/groups.toml [easy]


def subject(name: str, function: Callable[..., object], *args: object, data: str) -> Subject:
    """A subject whose model is function(*args); its expression is derived from the function's own name."""
    expression = f"grpo_examples.{function.__name__}({', '.join(repr(a) for a in args)})"
    return Subject(name, lambda: function(*args), expression, data)


@dataclass(frozen=True)
class Meaning:
    """How a number is shown, read off its declared type: signed, at most `places` decimals, and whether it is a
    ratio (in words, "four times")."""

    signed: bool = False
    places: int | None = None
    ratio: bool = False


@dataclass(frozen=True)
class Found:
    """Where a path leads: the value, its declared type and what that says, the expression that makes it,
    and the last dataclass on the way with the field taken from it and the keys after (for formulas)."""

    path: str
    value: object
    meaning: Meaning
    expression: str
    subject: Subject
    owner: object
    field: str
    keys: tuple[object, ...]  # as the mapping holds them: "wrong", or 2 for the page's second token


def resolve(subjects: Mapping[str, Subject], path: str) -> Found:
    """Walk the path; PathError, with the names there are, where it leaves the tree."""
    head, *steps = path.split(".")
    if head not in subjects:
        close = suggest(head, subjects)
        raise PathError(f"unknown name {head!r}: a path starts with one of {', '.join(subjects)}{close}")
    start = subjects[head]
    node: object = model(start)
    kind: Any = object
    expression, owner, field = start.expression, node, ""
    keys: tuple[object, ...] = ()
    walked = head
    for step in steps:
        if isinstance(node, Undefined):
            raise PathError(f"{walked} is not defined here: {node.reason}")
        if dataclasses.is_dataclass(node):
            names = names_of(node)
            attribute = step.replace("-", "_")
            if attribute not in names or "_" in step:
                shown = _shown(names)
                raise PathError(f"{walked} has no {step!r} (it has {', '.join(shown)}){suggest(step, shown)}")
            owner, field, keys = node, attribute, ()
            kind, node = names[attribute], getattr(node, attribute)
            expression += f".{attribute}"
        elif isinstance(node, Mapping):
            key = _key(node, step)
            if key is None:
                there = [str(k) for k in node]
                raise PathError(
                    f"{walked} has no {step!r} (it has {', '.join(there) or 'nothing'}){suggest(step, there)}"
                )
            kind, node = _item_type(kind), node[key]
            keys = (*keys, key)
            expression += f"[{key!r}]"
        elif isinstance(node, tuple | list):
            raise PathError(
                f"{walked} is a list of {len(node)} values, which a path does not index (where a page numbers "
                "things, its model keys them by that number): name a single value, or draw the list with a block"
            )
        else:
            raise PathError(f"{walked} is {_what(node)}: it has no {step!r}{_dotted_name(walked, step, owner, keys)}")
        walked += "." + step
    return Found(path, node, meaning(kind), expression, start, owner, field, keys)


def _dotted_name(walked: str, step: str, owner: object, keys: tuple[object, ...]) -> str:
    """'; did you mean 'easy.std-sample'?' for easy.std.sample: an old name whose '.' is now '-', if the model has
    it (only right after a field, where the owner's names are the ones the joined name would be among)."""
    if keys or not dataclasses.is_dataclass(owner):
        return ""
    parent, _, last = walked.rpartition(".")
    joined = f"{last}-{step}"
    return f"; did you mean '{parent}.{joined}'?" if joined.replace("-", "_") in names_of(owner) else ""


def model(start: Subject) -> object:
    """The subject's model (grpo_examples caches it)."""
    return start.call()


def _key(mapping: Mapping[Any, Any], step: str) -> object:
    if step in mapping:
        return step
    if step.lstrip("-").isdigit() and str(int(step)) == step and int(step) in mapping:
        return int(step)
    return None


def _what(node: object) -> str:
    if isinstance(node, bool):
        return "a claim (true or false)"
    if isinstance(node, str):
        return "a text"
    if isinstance(node, int | float | Fraction):
        return "a number"
    return f"a {type(node).__name__}"


def _shown(names: Mapping[str, object] | list[str]) -> list[str]:
    return [name.replace("_", "-") for name in names]


def suggest(name: str, known: Mapping[str, object] | list[str]) -> str:
    """'; did you mean 'easy'?' when a known name is close to name (or is name written with '-'), else nothing."""
    hyphened = name.replace("_", "-")
    same_but_case = [k for k in known if k.lower() == name.lower() and k != name]
    if hyphened != name and hyphened in known:
        close = [hyphened]
    else:
        close = same_but_case or difflib.get_close_matches(name, list(known), n=1)
    return f"; did you mean {close[0]!r}?" if close else ""


def names_of(node: object) -> dict[str, Any]:
    """The public names of a dataclass instance's type: see public_names."""
    kind: type = type(node)
    return public_names(kind)


@cache
def public_names(cls: type) -> dict[str, Any]:
    """A dataclass's public fields and properties, each with its declared type (annotations kept)."""
    hints = typing.get_type_hints(cls, include_extras=True)
    names: dict[str, Any] = {f.name: hints[f.name] for f in dataclasses.fields(cls) if not f.name.startswith("_")}
    for klass in reversed(cls.__mro__):
        for name, member in vars(klass).items():
            if isinstance(member, property) and not name.startswith("_") and member.fget is not None:
                names[name] = typing.get_type_hints(member.fget, include_extras=True).get("return", object)
    return names


def _bare(kind: Any) -> Any:
    """The type without its annotations and without Undefined or None in a union (what a walk descends into)."""
    if typing.get_origin(kind) is typing.Annotated:
        return _bare(typing.get_args(kind)[0])
    if typing.get_origin(kind) in (types.UnionType, typing.Union):
        rest = [a for a in typing.get_args(kind) if a not in (Undefined, type(None))]
        return _bare(rest[0]) if len(rest) == 1 else kind
    return kind


def _item_type(kind: Any) -> Any:
    """The declared type of an item of a mapping (its values) or a tuple."""
    bare = _bare(kind)
    args = typing.get_args(bare)
    origin = typing.get_origin(bare)
    if origin is tuple and args:
        return args[0]
    if origin is not None and len(args) == 2:
        return args[1]
    return object


def meaning(kind: Any) -> Meaning:
    """What the annotations of a declared type say: grpo_examples' Sign, Rounded and Times, wherever they sit in it."""
    signed, places, ratio = False, None, False
    stack = [kind]
    while stack:
        current = stack.pop()
        if typing.get_origin(current) is typing.Annotated:
            base, *metadata = typing.get_args(current)
            signed = signed or any(isinstance(m, Sign) for m in metadata)
            places = next((m.places for m in metadata if isinstance(m, Rounded)), places)
            ratio = ratio or any(isinstance(m, Times) for m in metadata)
            stack.append(base)
        elif typing.get_origin(current) in (types.UnionType, typing.Union):
            stack.extend(typing.get_args(current))
    return Meaning(signed, places, ratio)


@cache
def _classes(filename: str) -> dict[str, ast.ClassDef]:
    """Every class defined in a source file, by qualified name: each file parsed once (inspect.getsource
    parses the whole module again for every class)."""
    try:
        module = ast.parse(Path(filename).read_text(encoding="utf-8"))
    except (OSError, SyntaxError, ValueError):
        return {}
    found: dict[str, ast.ClassDef] = {}
    pending: list[tuple[str, ast.AST]] = [("", module)]
    while pending:
        prefix, node = pending.pop()
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.ClassDef):
                found[prefix + child.name] = child
                pending.append((f"{prefix}{child.name}.", child))
            elif isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                pending.append((f"{prefix}{child.name}.<locals>.", child))
    return found


@cache
def field_docs(cls: type) -> dict[str, str]:
    """Each field's docstring (the string right under it in the class body) and each property's, by name."""
    docs: dict[str, str] = {}
    for klass in reversed(cls.__mro__):
        if klass is object:
            continue
        for name, member in vars(klass).items():
            if isinstance(member, property) and member.__doc__:
                docs[name] = inspect.cleandoc(member.__doc__)
        try:
            body = _classes(inspect.getsourcefile(klass) or "").get(klass.__qualname__)
        except TypeError:  # a class without a source file (a builtin)
            continue
        if body is None:
            continue
        for statement, following in zip(body.body, body.body[1:], strict=False):
            if (
                isinstance(statement, ast.AnnAssign)
                and isinstance(statement.target, ast.Name)
                and isinstance(following, ast.Expr)
                and isinstance(following.value, ast.Constant)
                and isinstance(following.value.value, str)
            ):
                docs[statement.target.id] = inspect.cleandoc(following.value.value)
    return docs


def describe(owner: object, field: str) -> str:
    """The first sentence of a field's docstring, for messages and the guide; '' if it has none."""
    kind: type = type(owner)
    doc = field_docs(kind).get(field, "") if dataclasses.is_dataclass(kind) else ""
    return doc.split("\n\n")[0].replace("\n", " ")


@dataclass(frozen=True)
class Named:
    """One node a path can name, found by walking a whole subject: for the drift guard and the guide."""

    path: str
    value: object
    meaning: Meaning
    owner: object  # the dataclass whose field holds it (through mappings: the mapping's owner)
    field: str
    keys: tuple[object, ...]  # the mapping keys after that field


def walk(start: Subject) -> Iterator[Named]:
    """Every node of the subject's tree reachable through dataclasses and mappings, in field order (not
    through tuples, which hold a plot's points or a table's rows rather than things a sentence names)."""
    root = model(start)
    stack: list[Named] = [Named(start.name, root, Meaning(), root, "", ())]
    kinds: list[Any] = [object]
    first = True
    while stack:
        named, kind = stack.pop(), kinds.pop()
        if not first:
            yield named
        first = False
        node = named.value
        children: list[tuple[Named, Any]] = []
        if isinstance(node, Undefined):
            continue  # a leaf: a value the model does not have
        if dataclasses.is_dataclass(node) and not isinstance(node, type):
            names = names_of(node)
            for name, declared in names.items():
                path = f"{named.path}.{name.replace('_', '-')}"
                children.append((Named(path, getattr(node, name), meaning(declared), node, name, ()), declared))
        elif isinstance(node, Mapping):
            item = _item_type(kind)
            for key, value in node.items():
                path = f"{named.path}.{key}"
                children.append((Named(path, value, meaning(item), named.owner, named.field, (*named.keys, key)), item))
        for child, declared in reversed(children):
            stack.append(child)
            kinds.append(declared)


def fingerprint(start: Subject) -> str:
    """A digest of the subject's whole model, every field, mapping, row and array element: two models with the
    same digest draw the same numbers (under `make serve`, a page whose subjects kept theirs need not be rebuilt
    after a data edit: hooks/site/incremental.py)."""
    digest = hashlib.sha256()
    stack: list[object] = [model(start)]
    while stack:
        node = stack.pop()
        digest.update(type(node).__qualname__.encode() + b"\0")
        if dataclasses.is_dataclass(node) and not isinstance(node, type):
            stack.extend(getattr(node, f.name) for f in reversed(dataclasses.fields(node)))
        elif isinstance(node, Mapping):
            digest.update(str(len(node)).encode() + b"\0")
            for key, value in reversed(list(node.items())):
                stack.extend((value, key))
        elif isinstance(node, (list, tuple)):
            digest.update(str(len(node)).encode() + b"\0")
            stack.extend(reversed(node))
        elif callable(getattr(node, "tobytes", None)):  # an array or an array's scalar: every element, exactly
            digest.update(f"{getattr(node, 'dtype', '')}{getattr(node, 'shape', '')}".encode() + node.tobytes())  # type: ignore[attr-defined]
        else:
            digest.update(repr(node).encode() + b"\0")
    return digest.hexdigest()
