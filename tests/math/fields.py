"""What the tests read off a model class's source: which of its fields carry a docstring.

A field's docstring is the string right under it in the class body; the hooks show it beside the value (a
tooltip, the guide, the message of a claim that does not hold), so the tests check who has one.
"""

from __future__ import annotations

import ast
import inspect
import textwrap


def field_docstrings(klass: type) -> dict[str, str | None]:
    """Each annotated field of the class body (not of its bases), with the string under it or None."""
    body = ast.parse(textwrap.dedent(inspect.getsource(klass))).body[0]
    assert isinstance(body, ast.ClassDef), klass
    fields: dict[str, str | None] = {}
    for statement, following in zip(body.body, [*body.body[1:], None], strict=True):
        if isinstance(statement, ast.AnnAssign) and isinstance(statement.target, ast.Name):
            documented = (
                isinstance(following, ast.Expr)
                and isinstance(following.value, ast.Constant)
                and isinstance(following.value.value, str)
            )
            fields[statement.target.id] = following.value.value if documented else None  # type: ignore[union-attr]
    return fields


def undocumented_fields(klass: type) -> set[str]:
    return {name for name, doc in field_docstrings(klass).items() if doc is None}
