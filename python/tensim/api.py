"""The functions of ``import tensim``: runs, benches and descriptions, each the same code as the matching
``tensim`` subcommand, run in this process with the GIL released while it simulates."""

from __future__ import annotations

import json
import os
import time
from typing import Any, Mapping

from ._cli import Scratch, TensimError, build_argv, describe, invoke
from .result import Bench, Result

Params = Mapping[str, "int | float | str"]


def programs() -> list[dict]:
    """The built-in programs: name, what it does (``about``), the options it takes, and for ``size`` its
    meaning and range; collectives are marked ``collective``."""
    return [dict(p) for p in describe()["programs"]]


def _program(name: str) -> dict:
    if not isinstance(name, str):
        raise TypeError(f"tensim.run(): the program is a name (str), not {name!r}; tensim.programs() lists them")
    for p in describe()["programs"]:
        if p["name"] == name:
            return p
    names = ", ".join(p["name"] for p in describe()["programs"])
    raise TensimError(f"unknown program `{name}`; available: {names}", 1, ["tensim", "run", name])


def _timed(argv: list[str], scratch: Scratch) -> tuple[dict, float]:
    t = time.perf_counter()
    r = invoke(argv)
    wall = time.perf_counter() - t
    # The report without the lines naming the scratch files the package reads back.
    hidden = scratch.path("")
    r["stdout"] = "".join(line for line in r["stdout"].splitlines(keepends=True)
                          if not (line.startswith("wrote ") and hidden in line))
    return r, wall


def run(
    program: str,
    arch: str | None = None,
    system: str | None = None,
    params: Params | None = None,
    *,
    seed: int | None = None,
    size: int | None = None,
    m: int | None = None,
    n: int | None = None,
    k: int | None = None,
    fidelity: str | None = None,
    from_: str | None = None,
    to: str | None = None,
    shape: str | None = None,
    page: str | None = None,
    dtype: str | None = None,
    check: str | None = None,
    devices: int | None = None,
    topology: str | None = None,
    dim: int | None = None,
    workers: int | None = None,
    trace: str | os.PathLike | None = None,
    **options: Any,
) -> Result:
    """Run a built-in program (``tensim.programs()`` lists them with the options each takes), check its
    output against the CPU reference and return its :class:`Result`.

    - ``arch``: ``wormhole_b0`` (default), ``blackhole`` or ``grayskull``; ``system`` (collectives: a
      built-in system such as ``t3000``, default t3000) instead.
    - ``params``: parameter overrides, e.g. ``{"noc.hop_cycles": 9, "noc.model": "router"}``; ranges are
      checked as on the command line (``tensim.params(arch)`` lists them).
    - Program options (only those the program takes): ``size``, ``m``/``n``/``k`` (elements),
      ``fidelity`` (LoFi, HiFi2, HiFi3, HiFi4), ``from_``/``to`` (placements such as ``"l1:height:8x1"``),
      ``shape``, ``page``, ``dtype`` (bf16, bfp8_b, bfp4_b), ``check`` (full, sample, off), ``seed``;
      collectives: ``devices``, ``topology`` (line, ring), ``shape`` (``"1,1,32,1024"``), ``dim``, ``workers``.
    - ``trace``: write the Perfetto trace to this path as well.
    - Any other option of ``tensim run`` by its Python name: ``dispatch="slow"``, ``harvest=0``,
      ``soc="path.yaml"``, ``allow_large=True``, ``per_core=True``, ``memory_report="dir"`` …

    Raises :class:`TensimError` with tensim's own message for bad input (unknown program, a value out of
    range, an option the program does not take) and ``TypeError`` for options of the wrong type. A run
    whose output does not match the reference returns a Result with ``passed == False``."""
    p = _program(program)
    given = {
        "seed": seed, "size": size, "m": m, "n": n, "k": k, "fidelity": fidelity, "from": from_, "to": to,
        "shape": shape, "page": page, "dtype": dtype, "check": check, "devices": devices, "topology": topology,
        "dim": dim, "workers": workers,
    }
    takes = set(p["options"])
    for key, v in given.items():
        if v is not None and key not in takes:
            shown = "from_" if key == "from" else key
            raise TypeError(
                f"tensim.run(): {program} does not take {shown!r}; it takes: "
                f"{', '.join('from_' if o == 'from' else o for o in p['options'])}"
            )
    if p["collective"]:
        if arch is not None:
            raise TypeError(f"tensim.run(): {program} runs on a system's chips: pass system=..., not arch")
        given["system"] = system
    elif system is not None:
        raise TypeError(f"tensim.run(): {program} runs on one chip: pass arch=..., not system (collectives take it)")
    else:
        given["arch"] = arch
    given.update(options)
    given["trace"] = trace
    with Scratch() as s:
        given["stats"] = s.path("stats.json")
        argv = build_argv("run", [program], given, params, where="tensim.run()")
        r, wall = _timed(argv, s)
        stats = s.json()
    return Result(stats, r["stdout"], r["stderr"], argv, r["exit_code"], wall,
                  trace_path=os.fspath(trace) if trace is not None else None)


def build_and_run(
    folder: str | os.PathLike,
    arch: str | None = None,
    params: Params | None = None,
    *,
    args: list[str] | None = None,
    trace: str | os.PathLike | None = None,
    **options: Any,
) -> Result:
    """Compile a TT-Metalium C++ program folder (host code and kernels) against tensim and run it in this
    process; ``args`` go to its ``main``. Other options as ``tensim build-and-run`` takes them by Python
    name: ``devices``, ``system``, ``cmake=True``, ``soc``, ``harvest`` … ``passed`` is whether the
    program's ``main`` returned 0."""
    given: dict[str, Any] = dict(options, arch=arch, trace=trace)
    with Scratch() as s:
        given["stats"] = s.path("stats.json")
        argv = build_argv("build-and-run", [folder], given, params, where="tensim.build_and_run()")
        if args:
            argv += ["--", *[str(a) for a in args]]
        r, wall = _timed(argv, s)
        stats = s.json()
    stats.setdefault("passed", stats.get("exit_code", r["exit_code"]) == 0)
    return Result(stats, r["stdout"], r["stderr"], argv, r["exit_code"], wall,
                  trace_path=os.fspath(trace) if trace is not None else None)


def _bench(command: str, positionals: list[Any], options: dict, params: Params | None, where: str) -> Bench:
    with Scratch() as s:
        options["stats"] = s.path("stats.json")
        argv = build_argv(command, positionals, options, params, where=where)
        r, wall = _timed(argv, s)
        stats = s.json()
    return Bench(command, stats, r["stdout"], argv, wall)


def dm_bench(
    suite: str | None = None,
    arch: str | None = None,
    params: Params | None = None,
    *,
    compare: str | os.PathLike | None = None,
    sizes: list[int] | None = None,
    counts: list[int] | None = None,
    **options: Any,
) -> Bench:
    """A data-movement suite (``one_to_one``, ``all_to_all`` … — ``dm_bench_suites()`` lists them) over
    ``sizes`` (bytes per transaction) × ``counts``, optionally compared with a measured table (or a folder
    of them: each table runs its own test). Other options by Python name: ``grid="4x4"``, ``linked=True``,
    ``loopback=True``, ``vcs``, ``noc``, ``banks``, ``dispatch``. ``to_pandas()`` gives the rows,
    ``to_pandas("comparison")`` simulated against measured cycles."""
    opts = dict(options, arch=arch, compare=compare, sizes=sizes, counts=counts)
    return _bench("dm-bench", [suite], opts, params, "tensim.dm_bench()")


def dm_bench_suites() -> str:
    """The data-movement suites and their options, as ``tensim dm-bench --list`` prints them."""
    return invoke(["tensim", "dm-bench", "--list"])["stdout"]


def gemm_bench(
    arch: str | None = None,
    params: Params | None = None,
    *,
    ids: list[str] | str | None = None,
    compare: str | os.PathLike | None = None,
    **options: Any,
) -> Bench:
    """The GEMM benchmark's matmuls (TTNN's 2-D multicast program), optionally only ``ids`` (``["M1",
    "M7"]``), ``dtype``, ``max_dim``, and compared with a measured CSV."""
    opts = dict(options, arch=arch, ids=ids, compare=compare)
    return _bench("gemm-bench", [], opts, params, "tensim.gemm_bench()")


def replay(path: str | os.PathLike, arch: str | None = None, params: Params | None = None, **options: Any) -> Bench:
    """Replay a NoC trace captured on silicon (or a tt-npe workload, or a folder of them): predicted against
    measured cycles per trace (``to_pandas("comparison")``). ``mode`` picks how events are timed."""
    return _bench("replay", [path], dict(options, arch=arch), params, "tensim.replay()")


def _json(command: str, positionals: list[Any], options: dict, params: Params | None = None) -> Any:
    argv = build_argv(command, positionals, dict(options, json=True), params,
                           where=f"tensim.{command.split()[-1]}()")
    return json.loads(invoke(argv)["stdout"])


def params(arch: str = "wormhole_b0", overrides: Params | None = None, **options: Any) -> list[dict]:
    """Every timing and memory parameter of ``arch``: key, value, unit, allowed range and source, after
    ``overrides`` (checked as on the command line: a value out of range raises TensimError naming it)."""
    return list(_json("params", [], dict(options, arch=arch), overrides)["params"])


def soc(arch: str | None = None, **options: Any) -> dict:
    """A chip: NoC grid, tiles, L1 and DRAM, DRAM banks, worker and compute grids (``tensim soc --json``)."""
    return _json("soc", [], dict(options, arch=arch))


def system(name: str | None = None, **options: Any) -> dict:
    """A system of chips: chips, mesh, Ethernet links (``tensim system NAME --json``; ``cluster=`` a cluster
    descriptor file instead of a built-in name)."""
    return _json("system", [name], options)


def device(**options: Any) -> dict:
    """A device view over a system: logical worker grid, its map to (chip, y, x), mesh, chips
    (``tensim device --json``; options ``system``, ``cluster``, ``physical_grid``, ``mesh``, ``chips``,
    ``grid``, ``map``, ``tensor``, ``tensor_grid``, ``tensor_map``)."""
    return _json("device", [], options)
