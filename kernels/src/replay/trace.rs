//! Reading NoC traces: tt-metal's device-profiler NoC event trace (a JSON array of events) and tt-npe's
//! workload files (phases of transfers). Errors name the file and the event.

use serde::Deserialize;

/// One event of a tt-metal device-profiler NoC trace.
#[derive(Debug, Clone, Deserialize, PartialEq)]
pub struct TraceEvent {
    /// `BRISC`, `NCRISC` (or empty for profiler-internal zones).
    #[serde(default)]
    pub proc: String,
    /// NoC0 x of the issuing core.
    pub sx: i64,
    /// NoC0 y of the issuing core.
    pub sy: i64,
    /// `NOC_0` or `NOC_1`.
    #[serde(default)]
    pub noc: Option<String>,
    /// Unicast destination x (NoC0), -1 when none.
    #[serde(default)]
    pub dx: Option<i64>,
    /// Unicast destination y (NoC0), -1 when none.
    #[serde(default)]
    pub dy: Option<i64>,
    /// Multicast rectangle start x.
    #[serde(default)]
    pub mcast_start_x: Option<i64>,
    /// Multicast rectangle start y.
    #[serde(default)]
    pub mcast_start_y: Option<i64>,
    /// Multicast rectangle end x.
    #[serde(default)]
    pub mcast_end_x: Option<i64>,
    /// Multicast rectangle end y.
    #[serde(default)]
    pub mcast_end_y: Option<i64>,
    /// The API family (`READ`, `WRITE`, `READ_BARRIER_START`, …).
    #[serde(default, rename = "type")]
    pub kind: Option<String>,
    /// Bytes moved.
    #[serde(default)]
    pub num_bytes: Option<u64>,
    /// Cycle counter when the call was issued.
    pub timestamp: u64,
    /// Zone name of zone markers (`BRISC-KERNEL`).
    #[serde(default)]
    pub zone: Option<String>,
    /// `begin` or `end` of zone markers.
    #[serde(default)]
    pub zone_phase: Option<String>,
}

/// Read a tt-metal NoC trace.
pub fn parse_noc_trace(text: &str, file: &str) -> Result<Vec<TraceEvent>, String> {
    let events: Vec<TraceEvent> = serde_json::from_str(text)
        .map_err(|e| format!("{file}:{}:{}: not a tt-metal NoC trace: {e}", e.line(), e.column()))?;
    if events.is_empty() {
        return Err(format!("{file}: the trace has no events"));
    }
    Ok(events)
}

/// The runtime a trace measured (tt-npe's "golden" cycles): the span from the earliest event of any core
/// to the latest, less 20 cycles of profiler overhead.
pub fn measured_cycles(events: &[TraceEvent]) -> u64 {
    let lo = events.iter().map(|e| e.timestamp).min().unwrap_or(0);
    let hi = events.iter().map(|e| e.timestamp).max().unwrap_or(0);
    (hi - lo).saturating_sub(20)
}

/// One transfer of a tt-npe workload.
#[derive(Debug, Clone, Deserialize, PartialEq)]
pub struct NpeTransfer {
    /// Bytes per packet.
    pub packet_size: u64,
    /// Packets.
    pub num_packets: u64,
    /// Source x (NoC0).
    pub src_x: i64,
    /// Source y (NoC0).
    pub src_y: i64,
    /// Unicast destination x.
    #[serde(default)]
    pub dst_x: Option<i64>,
    /// Unicast destination y.
    #[serde(default)]
    pub dst_y: Option<i64>,
    /// Multicast rectangle.
    #[serde(default)]
    pub mcast_start_x: Option<i64>,
    /// Multicast rectangle.
    #[serde(default)]
    pub mcast_start_y: Option<i64>,
    /// Multicast rectangle.
    #[serde(default)]
    pub mcast_end_x: Option<i64>,
    /// Multicast rectangle.
    #[serde(default)]
    pub mcast_end_y: Option<i64>,
    /// `NOC_0` or `NOC_1`.
    pub noc_type: String,
    /// Bytes per cycle the source may inject (0: the NoC's own rate).
    #[serde(default)]
    pub injection_rate: f64,
    /// Cycle at which the transfer may start.
    #[serde(default)]
    pub phase_cycle_offset: u64,
}

/// One phase of a tt-npe workload.
#[derive(Debug, Clone, Deserialize, PartialEq)]
pub struct NpePhase {
    /// Its transfers.
    pub transfers: Vec<NpeTransfer>,
}

/// The measured result of a workload.
#[derive(Debug, Clone, Deserialize, PartialEq)]
pub struct NpeGolden {
    /// Measured cycles.
    pub cycles: u64,
}

/// A tt-npe workload file.
#[derive(Debug, Clone, Deserialize, PartialEq)]
pub struct NpeWorkload {
    /// Measured runtime, when known.
    #[serde(default)]
    pub golden_result: Option<NpeGolden>,
    /// Phases.
    pub phases: Vec<NpePhase>,
}

/// Read a tt-npe workload.
pub fn parse_npe_workload(text: &str, file: &str) -> Result<NpeWorkload, String> {
    serde_json::from_str(text).map_err(|e| format!("{file}:{}:{}: not a tt-npe workload: {e}", e.line(), e.column()))
}

/// What a replay input file is.
#[derive(Debug, Clone, PartialEq)]
pub enum ReplayInput {
    /// A tt-metal device-profiler NoC trace.
    Trace(Vec<TraceEvent>),
    /// A tt-npe workload.
    Workload(NpeWorkload),
}

/// Read either format (a JSON array is a trace, an object a workload).
pub fn parse_replay_input(text: &str, file: &str) -> Result<ReplayInput, String> {
    let t = text.trim_start();
    if t.starts_with('[') {
        parse_noc_trace(text, file).map(ReplayInput::Trace)
    } else if t.starts_with('{') {
        parse_npe_workload(text, file).map(ReplayInput::Workload)
    } else {
        Err(format!("{file}: not JSON (expected a tt-metal NoC trace array or a tt-npe workload object)"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn traces_and_workloads_parse() {
        let t = r#"[{"proc":"BRISC","zone":"BRISC-KERNEL","zone_phase":"begin","sx":1,"sy":1,"timestamp":100},
                    {"proc":"BRISC","noc":"NOC_0","vc":-1,"sx":1,"sy":1,"dx":0,"dy":11,"num_bytes":2048,"type":"READ","timestamp":150,"kernel_start_delta":50}]"#;
        match parse_replay_input(t, "t.json").unwrap() {
            ReplayInput::Trace(ev) => {
                assert_eq!(ev.len(), 2);
                assert_eq!(ev[1].kind.as_deref(), Some("READ"));
                assert_eq!(measured_cycles(&ev), 30);
            }
            _ => panic!("expected a trace"),
        }
        let w = r#"{"golden_result":{"cycles":450},"phases":[{"transfers":[{"packet_size":128,"num_packets":1,"src_x":1,"src_y":1,
                    "injection_rate":0,"phase_cycle_offset":219,"noc_type":"NOC_0","dst_x":1,"dst_y":1}]}]}"#;
        assert!(matches!(parse_replay_input(w, "w.json").unwrap(), ReplayInput::Workload(_)));
        let e = parse_replay_input("[{\"sx\":1}]", "bad.json").unwrap_err();
        assert!(e.starts_with("bad.json:1:"), "{e}");
    }
}
