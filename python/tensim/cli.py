"""The ``tensim`` console script installed with the package: ``tensim sweep SPEC …`` runs a sweep
(:func:`tensim.sweeps.main`); every other command line is the simulator's own (``tensim run loopback``,
``tensim params --arch blackhole`` …), run in this process through the native module."""

from __future__ import annotations

import sys
from typing import Sequence

from ._native import invoke


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if args and args[0] == "sweep":
        from .sweeps import main as sweep_main

        return sweep_main(args[1:])
    r = invoke(["tensim", *args])
    sys.stdout.write(r["stdout"])
    sys.stderr.write(r["stderr"])
    if r["error"] is not None:
        prefix = "" if r["exit_code"] == 70 else "error: "
        sys.stderr.write(f"{prefix}{r['error']}\n")
    return int(r["exit_code"])


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
