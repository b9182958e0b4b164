"""The package's functions against the simulator: results, tables, files, descriptions and bad input."""

import json
import threading
import time

import pytest

import tensim


def test_run_returns_cycles_verdict_and_tables():
    r = tensim.run("eltwise_binary", size=8)
    assert r.passed and r.verdict == "PASS" and r.cycles > 0
    assert r.program == "eltwise_binary" and r.arch == "wormhole_b0"
    assert r.micros == pytest.approx(r.cycles / 1000)
    assert {"busy", "blocked", "risc", "core"} <= set(r.kernels[0])
    assert all(k["busy"] + k["blocked"] <= k["end"] - k["start"] + 1 for k in r.kernels)
    df = r.to_pandas("kernels")
    assert len(df) == len(r.kernels) == 5
    assert r.to_pandas("links")["bytes"].sum() > 0
    assert sum(d["read_bytes"] for d in r.dram) == 2 * 8 * 2048
    assert "cycles:" in str(r) and "wrote" not in str(r)
    with pytest.raises(ValueError, match="unknown table"):
        r.table("nope")


def test_runs_are_deterministic_and_match_the_command_line():
    a = tensim.run("matmul_multicore_reuse", size=256, seed=7)
    b = tensim.run("matmul_multicore_reuse", size=256, seed=7)
    assert a.stats == b.stats and a.cycles == b.cycles
    assert a.argv[:3] == ["tensim", "run", "matmul_multicore_reuse"]


def test_a_stalling_run_carries_the_router_models_cycles():
    r = tensim.run("matmul_multicore_reuse_mcast", size=256)
    router = tensim.run("matmul_multicore_reuse_mcast", size=256, params={"noc.model": "router"})
    assert r.router_cycles == router.cycles and r.router_cycles != r.cycles
    assert any(f"{router.cycles} cycles" in w for w in r.warnings)
    off = tensim.run("matmul_multicore_reuse_mcast", size=256, router_check="off")
    assert off.router_check is None and off.cycles == r.cycles


def test_options_blackhole_and_params_change_the_timing():
    wh = tensim.run("loopback", size=4)
    bh = tensim.run("loopback", arch="blackhole", size=4)
    slow = tensim.run("loopback", size=4, params={"noc.hop_cycles": 40})
    assert bh.arch == "blackhole" and bh.cycles != wh.cycles
    assert slow.cycles > wh.cycles


def test_trace_and_heatmap_files(tmp_path):
    r = tensim.run("noc_tile_transfer")
    p = r.trace(tmp_path / "t.json")
    doc = json.loads(open(p).read())
    assert doc["traceEvents"]
    svg = r.heatmap_svg(tmp_path / "h.svg")
    assert svg.lstrip().startswith("<svg") or "<svg" in svg[:400]
    assert (tmp_path / "h.svg").read_text() == svg
    # A trace written during the run is copied, not recomputed.
    r2 = tensim.run("noc_tile_transfer", trace=tmp_path / "during.json")
    r2.trace(tmp_path / "copy.json")
    assert (tmp_path / "copy.json").read_text() == (tmp_path / "during.json").read_text()


def test_collective_on_t3000_reports_bandwidth():
    r = tensim.run("all_gather", system="t3000", devices=2, shape="1,1,32,512")
    assert r.passed and r.cycles > 0
    assert r.bandwidth["algbw_gbs"] == pytest.approx(r.bandwidth["size_bytes"] / (r.micros * 1e3))
    assert {row["chip"] for row in r.kernels} == {0, 4}
    with pytest.raises(TypeError, match="system"):
        tensim.run("all_gather", arch="wormhole_b0")
    # Over both links between the chips (ttnn's num_links).
    r2 = tensim.run("all_gather", system="t3000", devices=2, shape="1,1,32,512", links=2)
    assert r2.passed and r2.cycles < r.cycles
    # On the router-level NoC model too, with the same data.
    rr = tensim.run("all_gather", system="t3000", devices=2, shape="1,1,32,512", params={"noc.model": "router"})
    assert rr.passed and rr.cycles > 0


def test_the_gil_is_released_while_simulating():
    done = threading.Event()
    result = {}

    def work():
        result["r"] = tensim.run("matmul_multicore_reuse_mcast", size=512)
        done.set()

    t = threading.Thread(target=work)
    t.start()
    spins = 0
    t0 = time.perf_counter()
    while not done.is_set():
        spins += 1
    t.join()
    elapsed = time.perf_counter() - t0
    assert result["r"].passed
    # With the GIL held for the whole run this loop would barely turn; released, it spins freely.
    assert elapsed < 0.05 or spins > 10_000, (spins, elapsed)


def test_build_and_run_a_cpp_program(repo):
    r = tensim.build_and_run(repo / "cpp" / "programs" / "loopback")
    assert r.passed and r.cycles > 0
    assert r.runs and r.kernels


def test_dm_bench_with_comparison(calibration):
    b = tensim.dm_bench("one_to_one", sizes=[64, 2048], counts=[1, 4],
                        compare=calibration / "wormhole_b0_one_to_one.md")
    rows = b.to_pandas()
    assert len(rows) == 4 and set(rows["size"]) == {64, 2048}
    c = b.to_pandas("comparison")
    assert len(c) == 4 and (c["error"].abs() < 0.2).all()
    assert b.compare["median_error"] == pytest.approx(sorted(c["error"].abs())[2], rel=1e-9) or b.compare["rows"] == 4


def test_dm_bench_without_table_and_suites():
    b = tensim.dm_bench("loopback", sizes=[2048], counts=[1, 2])
    assert len(b.rows) == 2 and b.compare is None
    assert "one_to_one" in tensim.dm_bench_suites()
    # A suite option by its Python name: the banks a DRAM sharded read spreads over.
    one, every = (tensim.dm_bench("dram_sharded", sizes=[65536], counts=[4], **o) for o in ({"banks": 1}, {}))
    assert one.rows[0]["size"] == 65536 and every.rows[0]["size"] == 12 * 65536
    assert every.rows[0]["bandwidth"] > one.rows[0]["bandwidth"]


def test_gemm_bench_and_replay(calibration):
    g = tensim.gemm_bench(ids=["M1"], compare=calibration / "gemm_wh_bf16.csv")
    assert len(g.rows) == 1 and g.rows[0]["id"] == "M1"
    assert len(g.to_pandas("comparison")) == 1
    r = tensim.replay(calibration / "noc_traces")
    c = r.to_pandas("comparison")
    assert len(c) == 6 and {"predicted", "measured", "error"} <= set(c.columns)


def test_descriptions():
    ps = tensim.params("blackhole")
    keys = {p["key"] for p in ps}
    assert "noc.hop_cycles" in keys and all("source" in p and "allowed" in p for p in ps)
    over = tensim.params("wormhole_b0", {"noc.hop_cycles": 7})
    assert next(p for p in over if p["key"] == "noc.hop_cycles")["value"] == 7
    assert tensim.soc("blackhole")["arch"] in ("blackhole", "Blackhole", "BLACKHOLE")
    s = tensim.system("t3000")
    assert len(s["chips"]) == 8
    d = tensim.device(system="t3000", mesh="2x4")
    assert d
    names = [p["name"] for p in tensim.programs()]
    assert "loopback" in names and "all_gather" in names


def test_layouts_draw_themselves():
    m = tensim.layout.metal((64, 128), (2, 2))
    assert m["shard_shape"] == [32, 64]
    assert "<svg" in m._repr_svg_()
    t = tensim.layout.ttnn("64x128", layout="tile", memory="height", cores="(0,0)-(1,0)", shard="32x128")
    assert t["page_size"] > 0 and "<svg" in t.svg
    p = tensim.layout.pages((64, 64), (32, 32), (32, 32), "(0,0)-(1,1)")
    assert p and "<svg" in p.svg


@pytest.mark.parametrize(
    "call, exc, match",
    [
        (lambda: tensim.run("no_such_program"), tensim.TensimError, "unknown program `no_such_program`"),
        (lambda: tensim.run(42), TypeError, "42"),
        (lambda: tensim.run("loopback", size="many"), tensim.TensimError, "many"),
        (lambda: tensim.run("loopback", size=0), tensim.TensimError, "--size 0"),
        (lambda: tensim.run("loopback", size=2.5), TypeError, "2.5"),
        (lambda: tensim.run("loopback", fidelity="LoFi"), TypeError, "does not take 'fidelity'"),
        (lambda: tensim.run("loopback", bogus=1), TypeError, "unexpected option 'bogus'"),
        (lambda: tensim.run("loopback", allow_large="yes"), TypeError, "flag"),
        (lambda: tensim.run("loopback", params={"noc.hop_cycles": 10**9}), tensim.TensimError, "1000000000"),
        (lambda: tensim.run("loopback", params={"noc.no_such_key": 1}), tensim.TensimError, "noc.no_such_key"),
        (lambda: tensim.run("loopback", params={"noc.hop_cycles": [1]}), TypeError, r"\[1\]"),
        (lambda: tensim.run("loopback", arch="pentium"), tensim.TensimError, "pentium"),
        (lambda: tensim.params("wormhole_b0", {"clock_mhz": 0}), tensim.TensimError, "clock_mhz"),
        (lambda: tensim.dm_bench("no_suite"), tensim.TensimError, "no_suite"),
        (lambda: tensim.layout.metal("64x128", "0x2"), tensim.TensimError, "0x2|grid"),
        (lambda: tensim.build_and_run("/no/such/folder"), tensim.TensimError, "/no/such/folder"),
    ],
)
def test_bad_input_raises_with_the_value_named(call, exc, match):
    with pytest.raises(exc, match=match):
        call()


def test_errors_carry_the_command_line():
    with pytest.raises(tensim.TensimError) as e:
        tensim.run("loopback", size=0)
    assert e.value.exit_code == 1 and e.value.argv[:3] == ["tensim", "run", "loopback"]
