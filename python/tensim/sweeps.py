"""Parameter sweeps: a spec of points (programs, C++ folders or benches × arches × options × parameter
overrides, with cartesian grids) run on a local process pool or as Ray tasks, gathered into one DataFrame
in point order — the same rows whichever backend and however many workers (only ``wall_s`` differs).

A spec is a list of points, or a mapping whose ``points`` (default one empty point) take its other keys as
defaults; any point (or the mapping) may hold a ``grid`` of ``key: [values]`` expanded as a cartesian
product, the last key varying fastest. A point names exactly one of ``program`` (a built-in program),
``cpp`` (a C++ program folder), ``dm_bench`` (a suite), ``gemm_bench`` (``true`` or a list of ids) or
``replay`` (a trace path), and may give ``arch``, ``system``, ``options`` (keyword options of the matching
function) and ``params`` (parameter overrides). Grid keys are ``arch``, ``program`` …, or
``options.NAME`` / ``params.KEY`` (``params.noc.hop_cycles``)."""

from __future__ import annotations

import copy
import itertools
import json
import os
import sys
import time
from typing import Any, Iterable, Mapping, Sequence

from ._cli import TensimError
from .api import build_and_run, dm_bench, gemm_bench, replay, run

KINDS = ("program", "cpp", "dm_bench", "gemm_bench", "replay")
_POINT_KEYS = set(KINDS) | {"arch", "system", "options", "params", "grid", "name"}


#: The most worker processes (or local Ray CPUs) a sweep takes.
MAX_WORKERS = 1024


class SpecError(ValueError):
    """A sweep spec that cannot be run: the message names the point and the key."""


# Spec -------------------------------------------------------------------------------------------------------
def load_spec(path: str | os.PathLike) -> Any:
    """Read a spec file: YAML (``.yaml``/``.yml``), TOML (``.toml``) or JSON."""
    path = os.fspath(path)
    with open(path, "rb") as f:
        data = f.read()
    try:
        if path.endswith(".toml"):
            try:
                import tomllib
            except ImportError:  # Python 3.10
                import tomli as tomllib  # type: ignore[no-redef]
            return tomllib.loads(data.decode("utf-8"))
        if path.endswith(".json"):
            return json.loads(data)
        import yaml

        return yaml.safe_load(data)
    except (ValueError, UnicodeDecodeError) as e:  # JSON and TOML errors are ValueErrors
        raise SpecError(f"{path}: not a valid spec file: {e}") from e
    except Exception as e:  # yaml.YAMLError (yaml is imported only for YAML files)
        if type(e).__module__.startswith("yaml"):
            raise SpecError(f"{path}: not valid YAML: {e}") from e
        raise


def _set(point: dict, key: str, value: Any, where: str) -> None:
    head, _, rest = key.partition(".")
    if head in ("options", "params"):
        if not rest:
            raise SpecError(f"{where}: grid key {key!r} needs a name after '{head}.'")
        point.setdefault(head, {})[rest] = value
    elif head in _POINT_KEYS and not rest and head != "grid":
        point[head] = value
    else:
        raise SpecError(
            f"{where}: grid key {key!r}: use arch, system, program, cpp, dm_bench, gemm_bench, replay, "
            "options.NAME or params.KEY"
        )


def expand(spec: Any) -> list[dict]:
    """The points of ``spec`` (see the module), grids expanded, each checked."""
    if isinstance(spec, (str, os.PathLike)):
        spec = load_spec(spec)
    if isinstance(spec, Mapping):
        defaults = {k: v for k, v in spec.items() if k != "points"}
        points = spec.get("points", [{}])
    elif isinstance(spec, Sequence) and not isinstance(spec, (str, bytes)):
        defaults, points = {}, spec
    else:
        raise SpecError(f"a sweep spec is a list of points or a mapping with 'points', not {type(spec).__name__}")
    if not isinstance(points, Sequence) or isinstance(points, (str, bytes)):
        raise SpecError("the spec's 'points' must be a list of mappings")
    out = []
    for n, p in enumerate(points):
        where = f"point {n}"
        if not isinstance(p, Mapping):
            raise SpecError(f"{where}: a point is a mapping (program: …, arch: …), not {p!r}")
        base = copy.deepcopy(dict(defaults))
        for k, v in p.items():
            if k in ("options", "params", "grid") and isinstance(v, Mapping):
                base[k] = {**base.get(k, {}), **v}
            else:
                base[k] = copy.deepcopy(v)
        grid = base.pop("grid", {}) or {}
        if not isinstance(grid, Mapping):
            raise SpecError(f"{where}: 'grid' must map keys to lists of values")
        keys = list(grid)
        for k in keys:
            if not isinstance(grid[k], Sequence) or isinstance(grid[k], (str, bytes)) or not grid[k]:
                raise SpecError(f"{where}: grid key {k!r} must list at least one value, not {grid[k]!r}")
        for combo in itertools.product(*(grid[k] for k in keys)):
            q = copy.deepcopy(base)
            for k, v in zip(keys, combo):
                _set(q, k, v, where)
            _check_point(q, f"{where} ({', '.join(f'{k}={v}' for k, v in zip(keys, combo))})" if keys else where)
            out.append(q)
    return out


def _check_point(p: dict, where: str) -> None:
    unknown = sorted(set(p) - _POINT_KEYS)
    if unknown:
        raise SpecError(f"{where}: unknown key(s) {', '.join(map(repr, unknown))}; a point takes "
                        f"{', '.join(sorted(_POINT_KEYS - {'grid'}))}")
    kinds = [k for k in KINDS if p.get(k) not in (None, False)]
    if len(kinds) != 1:
        raise SpecError(f"{where}: name exactly one of {', '.join(KINDS)} (found {kinds or 'none'})")
    for k in ("options", "params"):
        if k in p and not isinstance(p[k], Mapping):
            raise SpecError(f"{where}: {k!r} must be a mapping, not {p[k]!r}")


def point_key(p: Mapping) -> str:
    """A point's identity (its inputs as canonical JSON): what ``resume`` matches on."""
    return json.dumps(p, sort_keys=True, default=str)


# One point --------------------------------------------------------------------------------------------------
def _cell(v: Any) -> Any:
    return v if v is None or isinstance(v, (bool, int, float, str)) else json.dumps(v, sort_keys=True)


def _inputs(i: int, p: Mapping) -> dict:
    kind = next(k for k in KINDS if p.get(k) not in (None, False))
    row: dict[str, Any] = {"point": i, "kind": kind, "target": _cell(p[kind]), "arch": p.get("arch"),
                           "system": p.get("system")}
    if "name" in p:
        row["name"] = _cell(p["name"])
    for k, v in sorted((p.get("options") or {}).items()):
        row[f"option.{k}"] = _cell(v)
    for k, v in sorted((p.get("params") or {}).items()):
        row[f"param.{k}"] = _cell(v)
    return row


def _outputs(kind: str, res: Any) -> dict:
    if kind in ("program", "cpp"):
        noc = sum(n.get("bytes", 0) for n in res.table("nocs"))
        dram = res.table("dram")
        return {
            "cycles": res.cycles, "passed": res.passed, "verdict": res.verdict, "micros": res.micros,
            "router_cycles": res.router_cycles,
            "noc_bytes": noc, "dram_read_bytes": sum(d.get("read_bytes", 0) for d in dram),
            "dram_write_bytes": sum(d.get("write_bytes", 0) for d in dram),
            "eth_tx_bytes": sum(e.get("tx_bytes", 0) for e in res.eth),
            "warnings": len(res.warnings), "not_modelled": "; ".join(res.not_modelled) or None,
        }
    rows, c = res.rows, res.compare or {}
    out: dict[str, Any] = {"rows": len(rows) or sum(f.get("rows", 0) for f in res.files),
                           "median_error": c.get("median_error"), "worst_error": c.get("worst_error"),
                           "not_modelled": "; ".join(res.not_modelled) or None}
    if kind == "dm_bench":
        out["cycles"] = sum(int(r.get("latency", 0)) for r in rows)
        if len(rows) == 1:
            out.update(latency=rows[0].get("latency"), bandwidth=rows[0].get("bandwidth"))
    elif kind == "gemm_bench":
        out["cycles"] = sum(int(r.get("op_cycles", 0)) for r in rows)
        if len(rows) == 1:
            out.update(tflops=rows[0].get("tflops"), time_ns=rows[0].get("time_ns"))
    else:
        out["cycles"] = sum(int(r.get("predicted", 0)) for r in rows)
    return out


def run_point(i: int, p: Mapping) -> dict:
    """Run point ``i`` and return its row; an error (bad input, a failed build, an internal error) becomes
    the row's ``error`` instead of an exception."""
    row = _inputs(i, p)
    kind = row["kind"]
    opts = dict(p.get("options") or {})
    params = p.get("params") or None
    t = time.perf_counter()
    try:
        if kind == "program":
            res: Any = run(p["program"], p.get("arch"), p.get("system"), params, **opts)
        elif kind == "cpp":
            res = build_and_run(p["cpp"], p.get("arch"), params, **opts)
        elif kind == "dm_bench":
            res = dm_bench(p["dm_bench"], p.get("arch"), params, **opts)
        elif kind == "gemm_bench":
            ids = None if p["gemm_bench"] is True else p["gemm_bench"]
            res = gemm_bench(p.get("arch"), params, ids=ids, **opts)
        else:
            res = replay(p["replay"], p.get("arch"), params, **opts)
        row.update(_outputs(kind, res))
        row["error"] = None
    except Exception as e:  # every failure is the point's result, never the sweep's end
        msg = str(e) if isinstance(e, TensimError) else f"{type(e).__name__}: {e}"
        row["error"] = msg
    row["wall_s"] = time.perf_counter() - t
    row["key"] = point_key(p)
    return row


# Progress and output ----------------------------------------------------------------------------------------
class _Progress:
    def __init__(self, total: int, show: bool | None) -> None:
        self.total, self.done, self.errors, self.t0 = total, 0, 0, time.perf_counter()
        self.show = sys.stderr.isatty() if show is None else show

    def step(self, row: dict) -> None:
        self.done += 1
        self.errors += row.get("error") is not None
        if not self.show:
            return
        el = time.perf_counter() - self.t0
        left = el / self.done * (self.total - self.done) if self.done else 0
        bar = "=" * int(30 * self.done / max(self.total, 1))
        sys.stderr.write(f"\rsweep [{bar:<30}] {self.done}/{self.total} points, {self.errors} errors, "
                         f"{el:.0f} s, about {left:.0f} s left ")
        if self.done == self.total:
            sys.stderr.write("\n")
        sys.stderr.flush()


def _read_rows(path: str) -> list[dict]:
    if not os.path.exists(path):
        return []
    if path.endswith(".jsonl"):
        with open(path, encoding="utf-8") as f:
            return [json.loads(line) for line in f if line.strip()]
    import pandas as pd

    df = pd.read_parquet(path) if path.endswith(".parquet") else pd.read_csv(path)
    return [{k: (None if _isnan(v) else v) for k, v in r.items()} for r in df.to_dict("records")]


def _isnan(v: Any) -> bool:
    return isinstance(v, float) and v != v


def _write(df: Any, path: str) -> None:
    tmp = path + ".tmp"
    if path.endswith(".parquet"):
        df.to_parquet(tmp, index=False)
    else:
        df.to_csv(tmp, index=False)
    os.replace(tmp, path)


# Backends ---------------------------------------------------------------------------------------------------
def _local(todo: list[tuple[int, dict]], workers: int, emit) -> None:
    if workers <= 1:
        for i, p in todo:
            emit(run_point(i, p))
        return
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor, as_completed
    from concurrent.futures.process import BrokenProcessPool

    ctx = multiprocessing.get_context("spawn")  # the native module's threads do not survive a fork
    retry: list[tuple[int, dict]] = []
    with ProcessPoolExecutor(max_workers=workers, mp_context=ctx) as pool:
        futs = {pool.submit(run_point, i, p): (i, p) for i, p in todo}
        for f in as_completed(futs):
            try:
                emit(f.result())
            except BrokenProcessPool:
                retry.append(futs[f])
    for i, p in sorted(retry, key=lambda t: t[0]):  # alone, so a point that kills its worker is the one named
        with ProcessPoolExecutor(max_workers=1, mp_context=ctx) as pool:
            try:
                emit(pool.submit(run_point, i, p).result())
            except BrokenProcessPool:
                row = _inputs(i, p)
                row.update(error="the worker process running this point died (a crash in native code)",
                           wall_s=None, key=point_key(p))
                emit(row)


def _ray(todo: list[tuple[int, dict]], workers: int | None, address: str | None, emit) -> None:
    try:
        import ray
    except ImportError as e:
        raise ImportError("backend='ray' needs Ray: pip install 'ray>=2.9'") from e
    if not ray.is_initialized():
        kw: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False}
        if address is None and workers:
            kw["num_cpus"] = workers
        ray.init(address=address, **kw)
    task = ray.remote(num_cpus=1, max_retries=0)(run_point)
    refs = {task.remote(i, p): (i, p) for i, p in todo}
    while refs:
        done, _ = ray.wait(list(refs), num_returns=1)
        for d in done:
            i, p = refs.pop(d)
            try:
                emit(ray.get(d))
            except Exception as e:  # the task's worker died: the point's row says so
                row = _inputs(i, p)
                row.update(error=f"Ray task failed: {type(e).__name__}: {e}", wall_s=None, key=point_key(p))
                emit(row)


def sweep(
    spec: Any,
    *,
    out: str | os.PathLike | None = None,
    backend: str = "local",
    workers: int | None = None,
    ray_address: str | None = None,
    resume: bool = False,
    overwrite: bool = False,
    progress: bool | None = None,
):
    """Run every point of ``spec`` (a list of points, a mapping, or a YAML/TOML/JSON file: see the module)
    and return one pandas DataFrame, one row per point in spec order: its inputs (``kind``, ``target``,
    ``arch``, ``system``, ``option.*``, ``param.*``), ``cycles``, ``passed``, key statistics, ``wall_s`` and
    ``error`` (None, or why the point failed: a failing point never stops the sweep).

    - ``backend``: ``"local"`` (a process pool of ``workers`` processes, default the host's cores; 1 runs in
      this process) or ``"ray"`` (each point a Ray task; ``ray_address`` joins a running cluster, default a
      local one of ``workers`` CPUs). Rows are identical whichever backend and worker count, except
      ``wall_s``.
    - ``out``: also write the rows to this ``.parquet`` or ``.csv`` file. Rows are appended to
      ``OUT.partial.jsonl`` as they arrive, so nothing computed is lost if the sweep is interrupted;
      ``resume=True`` keeps the rows already in ``out`` or the partial file (those without an error) and
      runs only the other points. An existing ``out`` is refused unless ``resume`` or ``overwrite``.
    - ``progress``: a progress bar on standard error (default: when it is a terminal)."""
    try:
        import pandas as pd
    except ImportError as e:  # pragma: no cover - depends on the environment
        raise ImportError("tensim.sweep returns a pandas DataFrame: pip install pandas (and pyarrow for Parquet)") from e
    points = expand(spec)
    if backend not in ("local", "ray"):
        raise ValueError(f"backend {backend!r}: use 'local' or 'ray'")
    if workers is not None and (
        not isinstance(workers, int) or isinstance(workers, bool) or not 1 <= workers <= MAX_WORKERS
    ):
        raise ValueError(f"workers={workers!r}: use a whole number from 1 to {MAX_WORKERS}")
    workers = workers or os.cpu_count() or 1
    path = os.fspath(out) if out is not None else None
    if path is not None and not path.endswith((".parquet", ".csv")):
        raise ValueError(f"out={path!r}: write .parquet or .csv")
    if path is not None and not os.path.isdir(os.path.dirname(os.path.abspath(path))):
        raise ValueError(f"out={path!r}: the folder {os.path.dirname(os.path.abspath(path))} does not exist")
    partial = path + ".partial.jsonl" if path else None
    kept: dict[str, dict] = {}
    if path is not None:
        if os.path.exists(path) and not (resume or overwrite):
            raise FileExistsError(f"{path} exists: pass resume=True to continue that sweep or overwrite=True to replace it")
        if resume:
            for r in _read_rows(path) + _read_rows(partial or ""):
                if r.get("error") is None and r.get("key"):
                    kept[r["key"]] = r
        elif partial and os.path.exists(partial):
            os.remove(partial)
    rows: dict[int, dict] = {}
    todo = []
    for i, p in enumerate(points):
        k = point_key(p)
        if k in kept:
            rows[i] = dict(kept[k], point=i)
        else:
            todo.append((i, p))
    bar = _Progress(len(todo), progress)
    sink = open(partial, "a", encoding="utf-8") if partial else None

    def emit(row: dict) -> None:
        rows[row["point"]] = row
        if sink is not None:
            sink.write(json.dumps(row, default=str) + "\n")
            sink.flush()
        bar.step(row)

    try:
        if backend == "local":
            _local(todo, workers, emit)
        else:
            _ray(todo, workers, ray_address, emit)
    finally:
        if sink is not None:
            sink.close()
    df = pd.DataFrame([rows[i] for i in sorted(rows)])
    if path is not None:
        _write(df, path)
        if partial and os.path.exists(partial):
            os.remove(partial)
    return df


def main(argv: Iterable[str] | None = None) -> int:
    """``tensim sweep SPEC [--out FILE] [--backend local|ray] [--ray-address ADDR] [--workers N] [--resume]``."""
    import argparse

    ap = argparse.ArgumentParser(prog="tensim sweep", description="Run a sweep spec (YAML, TOML or JSON) of tensim points.")
    ap.add_argument("spec", help="the spec file")
    ap.add_argument("--out", help="write the rows to this .parquet or .csv file")
    ap.add_argument("--backend", choices=["local", "ray"], default="local")
    ap.add_argument("--ray-address", help="a running Ray cluster to join (default: start a local one)")
    ap.add_argument("--workers", type=int, help="processes (local) or CPUs of a local Ray cluster")
    ap.add_argument("--resume", action="store_true", help="keep the rows already in --out; run the rest")
    ap.add_argument("--overwrite", action="store_true", help="replace an existing --out")
    a = ap.parse_args(list(argv) if argv is not None else None)
    try:
        df = sweep(a.spec, out=a.out, backend=a.backend, workers=a.workers, ray_address=a.ray_address,
                   resume=a.resume, overwrite=a.overwrite)
    except (SpecError, ValueError, FileExistsError, OSError, ImportError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    cols = [c for c in ("point", "kind", "target", "arch", "cycles", "passed", "error") if c in df.columns]
    extra = [c for c in df.columns if c.startswith(("option.", "param."))]
    print(df[cols[:4] + extra + cols[4:]].to_string(index=False))
    errors = int(df["error"].notna().sum()) if "error" in df.columns else 0
    print(f"{len(df)} points, {errors} with errors" + (f"; wrote {a.out}" if a.out else ""))
    return 1 if errors else 0
