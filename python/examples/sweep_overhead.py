"""What a sweep costs beyond its points: a 100-point sweep (a program run of about a millisecond each, and
a heavier one) timed in this process, on the local backend with 1 and 2 workers, and on Ray with 1 and 2
CPUs; the median of REPEATS runs each. Prints seconds and the overhead per point over running the points
one after another in this process.

    python python/examples/sweep_overhead.py [REPEATS]
"""

import statistics
import sys
import time

import tensim

LIGHT = {"program": "eltwise_binary", "grid": {"options.seed": list(range(100))}, "options": {"size": 8}}
HEAVY = {"program": "matmul_multicore_reuse_mcast", "grid": {"options.seed": list(range(100))},
         "options": {"size": 512}}


def timed(f) -> float:
    t = time.perf_counter()
    f()
    return time.perf_counter() - t


def main() -> None:
    repeats = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    import ray

    for name, spec in (("light (eltwise_binary, 8 tiles)", LIGHT), ("heavy (512^3 mcast matmul)", HEAVY)):
        pts = tensim.expand(spec)
        inline = statistics.median(
            timed(lambda: [tensim.run(p["program"], **p["options"]) for p in pts]) for _ in range(repeats))
        print(f"{name}: 100 points run one after another in this process: {inline:.3f} s")
        base = None
        for label, kw in (("local, 1 worker", {"workers": 1}), ("local, 2 workers", {"workers": 2})):
            s = statistics.median(timed(lambda: tensim.sweep(spec, progress=False, **kw)) for _ in range(repeats))
            base = base or s
            print(f"  {label:<18} {s:7.3f} s  overhead {1000 * (s - inline) / 100:+.2f} ms/point")
        for cpus in (1, 2):
            ray.init(num_cpus=cpus, include_dashboard=False, log_to_driver=False)
            tensim.sweep(spec, backend="ray", progress=False)  # warm the workers (start-up is timed below)
            s = statistics.median(timed(lambda: tensim.sweep(spec, backend="ray", progress=False)) for _ in range(repeats))
            ray.shutdown()
            print(f"  Ray, {cpus} CPU{'s' if cpus > 1 else ' '}       {s:7.3f} s  overhead {1000 * (s - inline) / 100:+.2f} ms/point")
    t = timed(lambda: (ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False), ray.shutdown()))
    print(f"starting and stopping a local Ray instance: {t:.2f} s")


if __name__ == "__main__":
    main()
