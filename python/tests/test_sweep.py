"""Sweeps: spec expansion, errors as rows, identical rows whichever backend and worker count, output files
and resume, the console script."""

import os

import pytest

import tensim
from tensim import sweeps as sweep_mod

SPEC = {
    "dm_bench": "one_to_one",
    "options": {"counts": [4]},
    "grid": {"arch": ["wormhole_b0", "blackhole"], "params.noc.hop_cycles": [1, 3], "options.sizes": [[256], [4096]]},
}


def _same(a, b):
    cols = [c for c in a.columns if c != "wall_s"]
    assert list(a.columns) == list(b.columns)
    assert a[cols].equals(b[cols]), (a[cols], b[cols])


def test_grids_expand_in_order_last_key_fastest():
    pts = tensim.expand(SPEC)
    assert len(pts) == 8
    assert [p["arch"] for p in pts[:4]] == ["wormhole_b0"] * 4
    assert [p["params"]["noc.hop_cycles"] for p in pts[:4]] == [1, 1, 3, 3]
    assert [p["options"]["sizes"] for p in pts[:2]] == [[256], [4096]]
    assert all(p["options"]["counts"] == [4] for p in pts)
    listed = tensim.expand([{"program": "loopback"}, {"program": "eltwise_binary", "grid": {"options.size": [1, 2]}}])
    assert [p.get("options") for p in listed] == [None, {"size": 1}, {"size": 2}]


@pytest.mark.parametrize(
    "spec, match",
    [
        ({"points": [{"arch": "blackhole"}]}, "exactly one of"),
        ([{"program": "loopback", "dm_bench": "one_to_one"}], "exactly one of"),
        ([{"program": "loopback", "colour": "red"}], "unknown key"),
        ([{"program": "loopback", "grid": {"options.size": []}}], "at least one value"),
        ([{"program": "loopback", "grid": {"speed": [1]}}], "grid key 'speed'"),
        ([{"program": "loopback", "options": [1]}], "'options' must be a mapping"),
        ("not a list", "No such file|not"),
        (42, "a list of points"),
    ],
)
def test_bad_specs_name_the_point_and_key(spec, match):
    with pytest.raises((tensim.SpecError, FileNotFoundError), match=match):
        tensim.sweep(spec, workers=1)


def test_rows_identical_with_one_and_two_workers_and_failures_become_rows():
    spec = {"points": [SPEC, {"program": "loopback", "options": {"size": 0}}, {"program": "loopback"}]}
    one = tensim.sweep(spec, workers=1)
    two = tensim.sweep(spec, workers=2)
    _same(one, two)
    assert list(one["point"]) == list(range(10))
    assert one["error"].iloc[8].startswith("--size 0")
    assert one["passed"].iloc[9] and one["cycles"].iloc[9] > 0
    assert one["error"].iloc[:8].isna().all()
    # A longer hop is slower on both arches and for both sizes.
    for arch in ("wormhole_b0", "blackhole"):
        d = one[(one["arch"] == arch) & one["error"].isna()]
        fast = d[d["param.noc.hop_cycles"] == 1]["cycles"].to_numpy()
        slow = d[d["param.noc.hop_cycles"] == 3]["cycles"].to_numpy()
        assert (slow > fast).all()


def test_output_file_partial_rows_and_resume(tmp_path):
    out = tmp_path / "r.parquet"
    first = tensim.sweep(SPEC, workers=1, out=out)
    assert out.exists() and not os.path.exists(str(out) + ".partial.jsonl")
    with pytest.raises(FileExistsError, match="resume=True"):
        tensim.sweep(SPEC, workers=1, out=out)
    # Resuming a finished sweep runs nothing: every row comes back from the file (wall times too).
    again = tensim.sweep(SPEC, workers=1, out=out, resume=True)
    assert list(again["wall_s"]) == pytest.approx(list(first["wall_s"]))
    _same(first, again)
    # An interrupted sweep: only the partial file exists, with half the rows; resume runs the other half.
    partial = tmp_path / "i.csv.partial.jsonl"
    import json

    rows = first.to_dict("records")[:4]
    partial.write_text("".join(json.dumps({k: (None if v != v else v) for k, v in r.items()}) + "\n" for r in rows))
    resumed = tensim.sweep(SPEC, workers=1, out=tmp_path / "i.csv", resume=True)
    _same(first.drop(columns=["wall_s"]), resumed.drop(columns=["wall_s"]))
    assert (tmp_path / "i.csv").exists()


def test_yaml_spec_and_console_script(tmp_path, capsys):
    spec = tmp_path / "s.yaml"
    spec.write_text(
        "program: loopback\n"
        "grid:\n"
        "  options.size: [1, 2]\n"
        "  params.noc.hop_cycles: [1, 2]\n"
    )
    from tensim.cli import main

    assert main(["sweep", str(spec), "--out", str(tmp_path / "o.csv"), "--workers", "1"]) == 0
    text = capsys.readouterr().out
    assert "4 points, 0 with errors" in text
    assert main(["run", "loopback", "--size", "1"]) == 0
    assert "PASS loopback" in capsys.readouterr().out
    assert main(["run", "loopback", "--size", "0"]) == 1
    assert "error: --size 0" in capsys.readouterr().err
    # A spec that is not there is one line naming it, exit code 1.
    assert main(["sweep", str(tmp_path / "none.yaml")]) == 1
    err = capsys.readouterr().err
    assert err.startswith("error: ") and "none.yaml" in err and "Traceback" not in err
    # A malformed spec, a zero or huge worker count, an output folder that is not there: one line each.
    bad = tmp_path / "bad.yaml"
    bad.write_text("program: [1\n")
    for args, want in [
        ([str(bad)], "bad.yaml: not valid YAML"),
        ([str(spec), "--workers", "0"], "workers=0"),
        ([str(spec), "--workers", "99999999999999999999"], "from 1 to 1024"),
        ([str(spec), "--out", str(tmp_path / "no" / "r.csv")], "does not exist"),
    ]:
        assert main(["sweep", *args]) == 1
        err = capsys.readouterr().err
        assert err.startswith("error: ") and want in err and "Traceback" not in err, (args, err)


def test_ray_backend_gives_the_same_rows():
    ray = pytest.importorskip("ray")
    local = tensim.sweep(SPEC, workers=2)
    started = not ray.is_initialized()
    if started:
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        on_ray = tensim.sweep(SPEC, backend="ray")
    finally:
        if started:
            ray.shutdown()
    _same(local, on_ray)


def test_a_point_whose_worker_dies_becomes_an_error_row(monkeypatch):
    rows = []
    pts = [(0, {"program": "loopback"})]
    # The local backend's retry path: a point whose worker dies is named in its own row.
    from concurrent.futures.process import BrokenProcessPool

    class Dead:
        def __init__(self, *a, **k):
            pass

        def __enter__(self):
            return self

        def __exit__(self, *e):
            return False

        def submit(self, *a, **k):
            class F:
                def result(self):
                    raise BrokenProcessPool("gone")

            return F()

    import concurrent.futures

    monkeypatch.setattr(concurrent.futures, "ProcessPoolExecutor", Dead)
    monkeypatch.setattr(concurrent.futures, "as_completed", lambda fs: list(fs))
    sweep_mod._local(pts, 2, rows.append)
    assert len(rows) == 1 and "died" in rows[0]["error"]
