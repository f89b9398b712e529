"""Every public name of the library says what it is: the package's names, the puzzle and
outcome classes, and every public function of the family modules."""

from __future__ import annotations

import inspect

import satdomino


def public(obj, prefix: str):
    for name, value in vars(obj).items():
        if name.startswith("_"):
            continue
        if isinstance(value, property):
            value = value.fget
        if inspect.isfunction(value) or inspect.isclass(value):
            if getattr(value, "__module__", None) not in (None, getattr(obj, "__name__", None)) \
                    and inspect.ismodule(obj):
                continue  # imported from elsewhere: checked there
            yield f"{prefix}.{name}", value
            if inspect.isclass(value):
                yield from public(value, f"{prefix}.{name}")


def test_every_public_name_has_a_docstring() -> None:
    missing = []
    for name in satdomino.__all__:
        obj = getattr(satdomino, name)
        if inspect.ismodule(obj):
            found = list(public(obj, name))
        elif inspect.isclass(obj):
            found = [(name, obj), *public(obj, name)]
        elif inspect.isfunction(obj):
            found = [(name, obj)]
        else:
            continue
        missing += [n for n, f in found if not inspect.getdoc(f)]
    assert missing == []
