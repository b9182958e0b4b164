//! Every example passes its own check on the built-in Wormhole B0 and Blackhole, and determinism: run twice,
//! it gives bit-identical reports (cycles, per-kernel times, prints, traffic) and byte-identical Chrome
//! traces; traces are valid Chrome trace-event JSON; the scheduler's lookahead changes nothing but the
//! number of kernel resumptions.

use programs::{ExampleOptions, list};
use sim_device::prelude::*;
use sim_device::{ChipSpec, Params};

fn run_traced(arch: Arch, name: &str) -> (String, String) {
    let ex = programs::find(name).unwrap();
    let mut dev = Device::builtin(arch).unwrap();
    dev.set_tracing(true);
    let out = (ex.run)(&mut dev, &ExampleOptions::default()).unwrap_or_else(|e| panic!("{name} on {arch}: {e}"));
    assert!(out.passed, "{name} on {arch}: {}", out.check);
    assert!(out.report.cycles.0 > 0, "{name} on {arch}: no cycles");
    let trace = out.report.trace_json.clone().expect("tracing was on");
    let mut r = out.report;
    r.trace_json = None;
    (format!("{}\n{:?}", out.check, r), trace)
}

#[test]
fn two_runs_are_bit_identical() {
    for arch in [Arch::WormholeB0, Arch::Blackhole] {
        for ex in list() {
            let a = run_traced(arch, ex.name);
            let b = run_traced(arch, ex.name);
            assert_eq!(a.0, b.0, "{} on {arch}: reports differ", ex.name);
            assert!(a.1 == b.1, "{} on {arch}: traces differ", ex.name);
        }
    }
}

/// An example's check and report without a trace, with the scheduler's lookahead on or off; the report's
/// resumption count (what the lookahead is for) is left out.
fn run_with_lookahead(arch: Arch, name: &str, lookahead: bool) -> (String, u64) {
    let ex = programs::find(name).unwrap();
    let mut params = Params::builtin(arch);
    params.sim.lookahead = lookahead;
    let mut dev = Device::open_with_params(&ChipSpec::builtin(arch), params).unwrap();
    let out = (ex.run)(&mut dev, &ExampleOptions::default()).unwrap_or_else(|e| panic!("{name} on {arch}: {e}"));
    assert!(out.passed, "{name} on {arch}: {}", out.check);
    let mut r = out.report;
    let resumes = std::mem::take(&mut r.resumes);
    (format!("{}\n{:?}", out.check, r), resumes)
}

#[test]
fn lookahead_changes_nothing_but_resumptions() {
    let mut fewer = 0;
    for arch in [Arch::WormholeB0, Arch::Blackhole] {
        for ex in list() {
            let (on, resumes_on) = run_with_lookahead(arch, ex.name, true);
            let (off, resumes_off) = run_with_lookahead(arch, ex.name, false);
            assert!(on == off, "{} on {arch}: the lookahead changed the result", ex.name);
            assert!(resumes_on <= resumes_off, "{} on {arch}: more resumptions with lookahead", ex.name);
            fewer += (resumes_on < resumes_off) as u32;
        }
    }
    assert!(fewer > 0, "the lookahead saved resumptions in no example");
}

#[test]
fn traces_are_chrome_trace_event_json() {
    let (_, t) = run_traced(Arch::WormholeB0, "noc_tile_transfer");
    let v: serde_json::Value = serde_json::from_str(&t).expect("valid JSON");
    let evs = v["traceEvents"].as_array().unwrap();
    let has = |ph: &str, pred: &dyn Fn(&serde_json::Value) -> bool| evs.iter().any(|e| e["ph"] == ph && pred(e));
    // Tracks named per core and RISC.
    assert!(has("M", &|e| e["name"] == "process_name" && e["args"]["name"].as_str().unwrap().starts_with("core (0,0)")));
    assert!(has("M", &|e| e["name"] == "thread_name" && e["args"]["name"] == "NCRISC"));
    // A slice per kernel, slices for blocking waits, instants for NoC issues.
    assert!(has("X", &|e| e["cat"] == "kernel" && e["name"] == "NoC_tile_transfer/kernels/writer0.cpp"));
    assert!(has("X", &|e| e["cat"] == "wait" && e["name"].as_str().unwrap().starts_with("wait L1[")));
    assert!(has("X", &|e| e["cat"] == "wait" && e["name"] == "noc_async_read_barrier (NOC_0)"));
    assert!(has("i", &|e| e["cat"] == "noc" && e["name"] == "noc_async_write"));
    for e in evs.iter().filter(|e| e["ph"] == "X") {
        assert!(e["ts"].is_number() && e["dur"].is_number() && e["pid"].is_number() && e["tid"].is_number(), "{e}");
    }
    assert_eq!(v["otherData"]["clock_mhz"], 1000);
}
