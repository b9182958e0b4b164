"""Command lines for the native simulator, built from Python keyword options and checked against the
command line's own description (names, value types, repeatable options), then run in this process."""

from __future__ import annotations

import json
import os
import tempfile
from functools import lru_cache
from typing import Any, Iterable, Mapping, Sequence

from ._native import describe as native_describe
from ._native import invoke as native_invoke


class TensimError(Exception):
    """tensim refused the request or could not finish it. ``str(e)`` is the command line's own message (what
    was wrong and how to fix it); ``argv`` is the equivalent command line and ``exit_code`` its exit code."""

    def __init__(self, message: str, exit_code: int = 1, argv: Sequence[str] = (), stdout: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.exit_code = exit_code
        self.argv = list(argv)
        self.stdout = stdout


class InternalError(TensimError):
    """A bug in tensim itself (the command line would exit 70): please report it with ``argv``."""


@lru_cache(maxsize=None)
def describe() -> dict:
    """Every subcommand's options and every built-in program's, as the native module describes them."""
    return json.loads(native_describe())


def command_args(command: str) -> dict:
    """The options (not positionals) of ``command`` by Python name."""
    spec = describe()["commands"][command]
    return {a["name"]: a for a in spec["args"] if not a["positional"] and a["name"] != "verbose"}


def _fmt(v: Any) -> str:
    if isinstance(v, os.PathLike):
        return os.fspath(v)
    return str(v)


def _one(where: str, key: str, a: dict, v: Any) -> list[str]:
    """The command-line words of option ``key`` with value ``v``."""
    flag = "--" + a["long"]
    t = a["type"]
    if t == "bool":
        if not isinstance(v, bool):
            raise TypeError(f"{where}: option {key!r} is a flag: pass True or False, not {v!r}")
        return [flag] if v else []
    if isinstance(v, bool):
        raise TypeError(f"{where}: option {key!r} takes {'a number' if t in ('int', 'float') else 'a value'}, not {v!r}")
    if t == "int":
        if not isinstance(v, (int, str)):
            raise TypeError(f"{where}: option {key!r} takes an integer, not {v!r} ({type(v).__name__})")
    elif t == "float":
        if not isinstance(v, (int, float, str)):
            raise TypeError(f"{where}: option {key!r} takes a number, not {v!r} ({type(v).__name__})")
    else:
        comma = "," in (a.get("value_name") or "")
        if isinstance(v, (list, tuple)) and comma and all(isinstance(x, (int, str)) and not isinstance(x, bool) for x in v):
            v = ",".join(str(x) for x in v)
        elif not isinstance(v, (str, int, os.PathLike)):
            raise TypeError(f"{where}: option {key!r} takes a string, not {v!r} ({type(v).__name__})")
    return [flag, _fmt(v)]


def build_argv(
    command: str,
    positionals: Iterable[Any] = (),
    options: Mapping[str, Any] | None = None,
    params: Mapping[str, Any] | None = None,
    where: str | None = None,
) -> list[str]:
    """The command line of ``command`` (words joined by spaces, e.g. ``"layout metal"``) with keyword
    ``options`` (Python names: ``allow_large=True``, ``sizes=[64, 128]``; ``None`` leaves one out) and
    parameter overrides ``params`` (``{"noc.hop_cycles": 9}``, each ``--set KEY=VALUE``). Unknown options
    and values of the wrong type raise ``TypeError`` naming them; values are checked by tensim itself."""
    where = where or f"tensim.{command.replace(' ', '.').replace('-', '_')}()"
    args = command_args(command)
    argv = ["tensim", *command.split()]
    argv += [_fmt(p) for p in positionals if p is not None]
    for key, value in (options or {}).items():
        if value is None:
            continue
        a = args.get(key)
        if a is None:
            raise TypeError(f"{where} got an unexpected option {key!r}; it takes: {', '.join(sorted(args))}")
        values = value if a["repeatable"] and isinstance(value, (list, tuple)) else [value]
        for v in values:
            argv += _one(where, key, a, v)
    if params:
        if not isinstance(params, Mapping):
            raise TypeError(f"{where}: params must be a mapping of parameter keys to values, not {params!r}")
        if "set" not in args:
            raise TypeError(f"{where}: this command takes no parameter overrides")
        for k, v in params.items():
            if not isinstance(k, str) or isinstance(v, bool) or not isinstance(v, (int, float, str)):
                raise TypeError(
                    f"{where}: parameter {k!r}: the value must be a number or a name (e.g. 9 or 'router'), not {v!r}"
                )
            argv += ["--set", f"{k}={v}"]
    return argv


def invoke(argv: Sequence[str]) -> dict:
    """Run ``argv`` in this process; raise ``TensimError`` (``InternalError`` for exit code 70) when it
    ended with an error. A run whose check failed is not an error: its exit code is 1 and ``error`` None."""
    r = native_invoke([str(a) for a in argv])
    if r["error"] is not None:
        cls = InternalError if r["exit_code"] == 70 else TensimError
        raise cls(r["error"], r["exit_code"], argv, r["stdout"])
    return r


class Scratch:
    """A temporary folder for the JSON and SVG files a command writes, removed afterwards."""

    def __enter__(self) -> "Scratch":
        self._dir = tempfile.TemporaryDirectory(prefix="tensim-")
        return self

    def path(self, name: str) -> str:
        return os.path.join(self._dir.name, name)

    def read(self, name: str) -> str | None:
        p = self.path(name)
        if not os.path.exists(p):
            return None
        with open(p, encoding="utf-8") as f:
            return f.read()

    def json(self, name: str = "stats.json") -> dict:
        """The JSON document a command wrote to ``name`` (empty when it wrote none)."""
        text = self.read(name)
        return json.loads(text) if text else {}

    def __exit__(self, *exc: Any) -> None:
        self._dir.cleanup()
