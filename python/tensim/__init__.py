"""tensim from Python: a cycle-approximate simulator of Tenstorrent chips (Wormhole B0, Blackhole,
Grayskull), the same Rust code as the ``tensim`` command, run in this process.

- :func:`run` a built-in program (:func:`programs` lists them) → :class:`Result` (cycles, PASS, per-kernel
  busy/blocked cycles, NoC/DRAM/Ethernet statistics, ``to_pandas()``, ``trace()``, ``heatmap_svg()``);
  :func:`build_and_run` a TT-Metalium C++ program folder.
- :func:`dm_bench`, :func:`gemm_bench`, :func:`replay` → :class:`Bench` with comparisons as DataFrames.
- :mod:`tensim.layout` (``metal``, ``ttnn``, ``pages``), :func:`device`, :func:`system`, :func:`soc`,
  :func:`params` (every parameter with value, range and source).
- :func:`sweep` many points on a local process pool or on Ray, into one DataFrame.

Errors are :class:`TensimError` with the command line's own message."""

from . import layout
from ._cli import InternalError, TensimError, build_argv
from ._native import __version__
from .api import (
    build_and_run,
    device,
    dm_bench,
    dm_bench_suites,
    gemm_bench,
    params,
    programs,
    replay,
    run,
    soc,
    system,
)
from .result import Bench, Result
from .sweeps import SpecError, expand, sweep

__all__ = [
    "Bench",
    "InternalError",
    "Result",
    "SpecError",
    "TensimError",
    "__version__",
    "build_and_run",
    "build_argv",
    "device",
    "dm_bench",
    "dm_bench_suites",
    "expand",
    "gemm_bench",
    "layout",
    "params",
    "programs",
    "replay",
    "run",
    "soc",
    "sweep",
    "system",
]
