//! Several chips' reports as one: merged Perfetto traces (a process per core of every chip) and Ethernet
//! link utilisation summed over the phases of a run.

use serde_json::Value;
use sim_device::Cycles;
use sim_device::prelude::*;
use sim_device::report::multi_chip::{ChipRun, PID_STRIDE, eth_utilisation, merged_trace};
use sim_device::report::{EthLinkUse, RunReport};

fn traced_run() -> RunReport {
    let mut dev = Device::builtin(soc_descriptors::Arch::WormholeB0).unwrap();
    dev.set_tracing(true);
    let mut p = Program::new();
    let core = CoreCoord::new(0, 0);
    p.create_kernel(Kernel::dataflow("spin", |d| d.delay(100)), core, DataMovementConfig::default()).unwrap();
    dev.enqueue_program(&p).unwrap()
}

#[test]
fn chips_become_processes_on_one_timeline() {
    let r = traced_run();
    let parts = [
        ChipRun { chip_id: 3, coord: (0, 0), offset: Cycles(0), report: &r },
        ChipRun { chip_id: 7, coord: (0, 1), offset: Cycles(5000), report: &r },
    ];
    let doc: Value = serde_json::from_str(&merged_trace(&parts).unwrap()).unwrap();
    assert!(doc["otherData"]["time_unit"].as_str().unwrap().contains("1 AICLK cycle"));
    let ev = doc["traceEvents"].as_array().unwrap();
    let names: Vec<&str> =
        ev.iter().filter(|e| e["name"] == "process_name").map(|e| e["args"]["name"].as_str().unwrap()).collect();
    assert!(names.iter().any(|n| n.starts_with("chip 3 (0, 0): ")), "{names:?}");
    assert!(names.iter().any(|n| n.starts_with("chip 7 (0, 1): ")), "{names:?}");
    // The same slice on both chips: chip 7's copy is 5000 cycles (5 µs) later, under a pid of its own.
    let slices: Vec<&Value> = ev.iter().filter(|e| e["ph"] == "X").collect();
    let first = slices.iter().find(|e| e["pid"].as_u64().unwrap() / PID_STRIDE == 3).unwrap();
    let second =
        slices.iter().find(|e| e["pid"].as_u64().unwrap() / PID_STRIDE == 7 && e["name"] == first["name"]).unwrap();
    assert_eq!(second["pid"].as_u64().unwrap() % PID_STRIDE, first["pid"].as_u64().unwrap() % PID_STRIDE);
    let dt = second["ts"].as_f64().unwrap() - first["ts"].as_f64().unwrap();
    assert!((dt - 5.0).abs() < 1e-9, "{dt}");
}

#[test]
fn link_utilisation_sums_phases() {
    let mut r = traced_run();
    r.eth =
        vec![EthLinkUse { channel: 2, noc0: (0, 0), tx_bytes: 100, tx_packets: 1, tx_busy: Cycles(40), rx_bytes: 0 }];
    let parts = [
        ChipRun { chip_id: 1, coord: (0, 0), offset: Cycles(0), report: &r },
        ChipRun { chip_id: 1, coord: (0, 0), offset: Cycles(100), report: &r },
    ];
    let u = eth_utilisation(&parts, Cycles(200));
    assert_eq!(u.len(), 1);
    assert_eq!((u[0].tx_bytes, u[0].busy), (200, Cycles(80)));
    assert!((u[0].util - 0.4).abs() < 1e-12);
}
