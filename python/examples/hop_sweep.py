"""The README's worked example: how much of a one-to-one NoC transfer's time is hop latency? A sweep of
noc.hop_cycles (the per-hop router latency) × transfer size over dm-bench one_to_one points on Wormhole B0
and Blackhole, run on a local process pool and on Ray (same rows), plotted with matplotlib.

    python python/examples/hop_sweep.py [OUT.svg]        # default docs/python-hop-sweep.svg
"""

import os
import sys
import time

import tensim

SPEC = {
    "dm_bench": "one_to_one",
    "options": {"counts": [16]},
    "grid": {
        "arch": ["wormhole_b0", "blackhole"],
        "params.noc.hop_cycles": [5, 10, 20, 40],
        "options.sizes": [[64], [256], [1024], [4096], [16384]],
    },
}


def main() -> None:
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "..", "docs",
                                                             "python-hop-sweep.svg")
    t = time.perf_counter()
    local = tensim.sweep(SPEC, backend="local")
    t_local = time.perf_counter() - t
    try:
        import ray

        ray.init(include_dashboard=False, log_to_driver=False)
        t = time.perf_counter()
        on_ray = tensim.sweep(SPEC, backend="ray")
        t_ray = time.perf_counter() - t
        ray.shutdown()
        same = local.drop(columns="wall_s").equals(on_ray.drop(columns="wall_s"))
        print(f"{len(local)} points: local {t_local:.2f} s, Ray {t_ray:.2f} s; identical rows: {same}")
        assert same
    except ImportError:
        print(f"{len(local)} points: local {t_local:.2f} s (Ray not installed)")

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    local["size"] = local["option.sizes"].str.strip("[]").astype(int)
    fig, axes = plt.subplots(1, 2, figsize=(10, 4), sharey=True)
    for ax, arch in zip(axes, ["wormhole_b0", "blackhole"]):
        d = local[local["arch"] == arch]
        for hop, g in d.groupby("param.noc.hop_cycles"):
            g = g.sort_values("size")
            ax.plot(g["size"], g["bandwidth"], marker="o", label=f"{hop} cycles/hop")
        ax.set_xscale("log", base=2)
        ax.set_title(f"{arch}: one_to_one, 16 transactions")
        ax.set_xlabel("transaction size (bytes)")
        ax.grid(True, alpha=0.3)
    axes[0].set_ylabel("bandwidth (bytes/cycle)")
    axes[1].legend(title="noc.hop_cycles")
    fig.tight_layout()
    fig.savefig(out, metadata={"Date": None})
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
