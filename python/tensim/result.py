"""What a run gives back: cycles, the verdict of its check, per-kernel busy and blocked cycles, NoC, DRAM and
Ethernet statistics (the stats JSON schema as Python dicts), tables as pandas DataFrames, and writers for
the Perfetto trace and the NoC heatmap (which re-run the same command with that output on: tensim is
deterministic, so the rerun is the same run)."""

from __future__ import annotations

import os
import shutil
from typing import Any, Sequence

from ._cli import Scratch, TensimError, invoke

#: The per-run tables ``Result.table`` and ``Result.to_pandas`` know.
TABLES = ("kernels", "links", "ports", "nocs", "dram", "eth", "zones", "timestamped_data")


def _pandas():
    try:
        import pandas
    except ImportError as e:  # pragma: no cover - depends on the environment
        raise ImportError("to_pandas() needs pandas: pip install pandas") from e
    return pandas


class Result:
    """One ``tensim run`` / ``build_and_run`` (or a collective on a mesh).

    Attributes: ``program``, ``arch``, ``cycles`` (AICLK cycles of the whole run), ``micros``,
    ``passed`` (the output matched the CPU reference), ``verdict`` (PASS, FAIL or UNCHECKED), ``check`` (what
    was checked), ``stats`` (the stats JSON document), ``runs`` (its per-run dicts: one per program run, or
    one per chip of a collective), ``stdout`` (the text report), ``warnings``, ``not_modelled`` (what the
    run relied on that tensim does not model), ``router_check`` and ``router_cycles`` (the router-level NoC
    model's check of a run that stalled packets beyond the routers' buffers, or None; ``router_check="off"``
    skips it), ``argv`` (the equivalent command line), ``wall_s``."""

    def __init__(self, stats: dict, stdout: str, stderr: str, argv: Sequence[str], exit_code: int, wall_s: float,
                 trace_path: str | None = None) -> None:
        self.stats = stats
        self.stdout = stdout
        self.stderr = stderr
        self.argv = list(argv)
        self.exit_code = exit_code
        self.wall_s = wall_s
        self._trace_path = trace_path
        self.program: str = stats.get("program", "")
        self.arch: str | None = stats.get("arch")
        self.runs: list[dict] = stats.get("runs", [])
        self.passed: bool = bool(stats.get("passed", exit_code == 0))
        self.check: str = stats.get("check", "")
        cycles = stats.get("cycles")
        if cycles is None:
            cycles = sum(r.get("cycles", 0) for r in self.runs)
        self.cycles: int = int(cycles)
        self.verdict: str = stats.get("verdict") or ("PASS" if self.passed else "FAIL")
        self.clock_mhz: int = self.runs[0].get("clock_mhz", 1000) if self.runs else 1000
        self.micros: float = stats.get("us", self.cycles / self.clock_mhz)
        self.bandwidth: dict | None = stats.get("bandwidth")
        self.warnings: list[str] = [w for r in self.runs for w in r.get("warnings", [])]
        # The router-level NoC model's check of the last run (``router_check`` of the stats schema): None when
        # the run was not checked.
        self.router_check: dict | None = self.runs[-1].get("router_check") if self.runs else None
        self.router_cycles: int | None = (self.router_check or {}).get("cycles")
        self.not_modelled: list[str] = [
            line.strip() for line in stdout.splitlines() if line.strip().startswith("not modelled")
        ]

    def __repr__(self) -> str:
        return f"<tensim.Result {self.verdict} {self.program} on {self.arch}: {self.cycles} cycles>"

    def __str__(self) -> str:
        return self.stdout

    # Tables -----------------------------------------------------------------------------------------------
    def table(self, name: str = "kernels") -> list[dict]:
        """Rows of a per-run table (``kernels``: kernel, core, risc, start, end, busy and blocked cycles;
        ``links``, ``ports``, ``nocs``, ``dram``, ``eth``, ``zones``, ``timestamped_data``), over every run;
        a collective's rows carry their ``chip``."""
        if name not in TABLES:
            raise ValueError(f"unknown table {name!r}; use one of {', '.join(TABLES)}")
        rows = []
        for i, r in enumerate(self.runs):
            for row in r.get(name, []):
                row = dict(row)
                if "chip" in r:
                    row.setdefault("chip", r["chip"])
                elif len(self.runs) > 1:
                    row.setdefault("run", i)
                rows.append(row)
        return rows

    @property
    def kernels(self) -> list[dict]:
        """Per kernel: its core, RISC, start and end cycle, busy and blocked cycles."""
        return self.table("kernels")

    @property
    def noc(self) -> list[dict]:
        """Per NoC: packets, flits, bytes, average and peak link utilisation."""
        return self.table("nocs")

    @property
    def dram(self) -> list[dict]:
        """Per DRAM channel: bytes read and written, busy cycles, bytes per cycle."""
        return self.table("dram")

    @property
    def eth(self) -> list[dict]:
        """Per Ethernet channel that carried traffic."""
        return self.table("eth") or self.stats.get("eth_links", [])

    def to_pandas(self, table: str = "kernels"):
        """A pandas DataFrame of ``table`` (see :meth:`table`)."""
        return _pandas().DataFrame(self.table(table))

    # Files ------------------------------------------------------------------------------------------------
    def _rerun(self, option: str, path: str) -> None:
        argv = [a for a in self.argv]
        i = argv.index("--stats")
        del argv[i:i + 2]
        argv += [option, path]
        r = invoke(argv)
        if r["exit_code"] not in (0, 1):
            raise TensimError(f"the rerun for {option} ended with exit code {r['exit_code']}", r["exit_code"], argv)

    def trace(self, path: str | os.PathLike) -> str:
        """Write the run's Chrome/Perfetto trace to ``path`` (ui.perfetto.dev opens it); returns the path.
        The trace recorded with ``trace=True`` is copied; otherwise the same command runs again with
        tracing on."""
        path = os.fspath(path)
        if self._trace_path and os.path.exists(self._trace_path):
            shutil.copyfile(self._trace_path, path)
        else:
            self._rerun("--trace", path)
        return path

    def heatmap_svg(self, path: str | os.PathLike | None = None) -> str:
        """The NoC link-utilisation heatmap as SVG text (also written to ``path`` when given), from the same
        command run again with the heatmap on."""
        with Scratch() as s:
            out = s.path("heatmap.svg")
            self._rerun("--noc-heatmap", out)
            svg = s.read("heatmap.svg") or ""
        if path is not None:
            with open(path, "w", encoding="utf-8") as f:
                f.write(svg)
        return svg


class Bench:
    """A benchmark's rows (``dm_bench``, ``gemm_bench``, ``replay``) and its comparison with measurements.

    Attributes: ``rows`` (list of dicts, the stats JSON's rows), ``compare`` (median and worst error and
    the matched rows, or None), ``files`` (per measured table when a folder was compared), ``stats``,
    ``stdout``, ``argv``, ``wall_s``."""

    def __init__(self, kind: str, stats: dict, stdout: str, argv: Sequence[str], wall_s: float) -> None:
        self.kind = kind
        self.stats = stats
        self.stdout = stdout
        self.argv = list(argv)
        self.wall_s = wall_s
        self.rows: list[dict] = stats.get("rows") or stats.get("replays") or []
        self.compare: dict | None = stats.get("compare")
        self.files: list[dict] = stats.get("files", [])
        self.not_modelled: list[str] = [
            line.strip() for line in stdout.splitlines() if line.strip().startswith("not modelled")
        ]

    def __repr__(self) -> str:
        c = self.compare
        tail = f", median error {c['median_error']:.1%}, worst {c['worst_error']:.1%}" if c else ""
        n = len(self.rows) or sum(f.get("rows", 0) for f in self.files)
        return f"<tensim.Bench {self.kind}: {n} rows{tail}>"

    def __str__(self) -> str:
        return self.stdout

    def comparison(self) -> list[dict]:
        """Every row matched with a measurement: simulated and measured cycles (or ns) and the error."""
        if self.kind == "gemm-bench":
            return [r for r in self.rows if r.get("measured_ns") is not None]
        if self.kind == "replay":
            return [{k: v for k, v in r.items() if k != "run"} for r in self.rows if "measured" in r]
        out = []
        for f in self.files:
            out += [dict(m, file=f.get("file")) for m in f.get("matched", [])]
        if self.compare and not self.files:
            out += list(self.compare.get("matched", []))
        return out

    def to_pandas(self, table: str = "rows"):
        """A pandas DataFrame: ``rows`` (what was simulated), ``comparison`` (matched against measurements),
        or ``files`` (per measured table of a compared folder)."""
        pd = _pandas()
        if table == "rows":
            return pd.DataFrame([{k: v for k, v in r.items() if k != "run"} for r in self.rows])
        if table == "comparison":
            return pd.DataFrame(self.comparison())
        if table == "files":
            return pd.DataFrame([{k: v for k, v in f.items() if k != "matched"} for f in self.files])
        raise ValueError(f"unknown table {table!r}; use rows, comparison or files")

