//! Reading replay inputs: tt-metal's device-profiler NoC trace (a JSON array of events) and tt-npe's
//! workload files (phases of transfers). Each event is checked once, here, into a typed form: a known
//! event type, a known RISC, the fields its type needs. Errors name the file and the event's index.

use super::error::{EventProblem, ReplayError};
use serde::Deserialize;
use sim_device::NocId;

/// The tt-metal NoC trace event types (formats.md), plus `FABRIC_*` calls that leave the chip.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EventType {
    /// `READ`.
    Read,
    /// `READ_SET_STATE`.
    ReadSetState,
    /// `READ_WITH_STATE`.
    ReadWithState,
    /// `READ_BARRIER_START`.
    ReadBarrierStart,
    /// `READ_BARRIER_END`.
    ReadBarrierEnd,
    /// `READ_BARRIER_WITH_TRID`.
    ReadBarrierWithTrid,
    /// `READ_DRAM_SHARDED_SET_STATE`.
    ReadDramShardedSetState,
    /// `READ_DRAM_SHARDED_WITH_STATE`.
    ReadDramShardedWithState,
    /// `WRITE`.
    Write,
    /// `WRITE_WITH_TRID`.
    WriteWithTrid,
    /// `WRITE_INLINE`.
    WriteInline,
    /// `WRITE_MULTICAST`.
    WriteMulticast,
    /// `WRITE_SET_STATE`.
    WriteSetState,
    /// `WRITE_WITH_STATE`.
    WriteWithState,
    /// `WRITE_BARRIER_START`.
    WriteBarrierStart,
    /// `WRITE_BARRIER_END`.
    WriteBarrierEnd,
    /// `WRITE_FLUSH`.
    WriteFlush,
    /// `FULL_BARRIER`.
    FullBarrier,
    /// `ATOMIC_BARRIER`.
    AtomicBarrier,
    /// `SEMAPHORE_INC`.
    SemaphoreInc,
    /// `SEMAPHORE_WAIT`.
    SemaphoreWait,
    /// `SEMAPHORE_SET`.
    SemaphoreSet,
    /// `FABRIC_…`: a call to the multi-chip fabric.
    Fabric(String),
}

const TYPES: [(&str, EventType); 22] = [
    ("READ", EventType::Read),
    ("READ_SET_STATE", EventType::ReadSetState),
    ("READ_WITH_STATE", EventType::ReadWithState),
    ("READ_BARRIER_START", EventType::ReadBarrierStart),
    ("READ_BARRIER_END", EventType::ReadBarrierEnd),
    ("READ_BARRIER_WITH_TRID", EventType::ReadBarrierWithTrid),
    ("READ_DRAM_SHARDED_SET_STATE", EventType::ReadDramShardedSetState),
    ("READ_DRAM_SHARDED_WITH_STATE", EventType::ReadDramShardedWithState),
    ("WRITE", EventType::Write),
    ("WRITE_WITH_TRID", EventType::WriteWithTrid),
    ("WRITE_INLINE", EventType::WriteInline),
    ("WRITE_MULTICAST", EventType::WriteMulticast),
    ("WRITE_SET_STATE", EventType::WriteSetState),
    ("WRITE_WITH_STATE", EventType::WriteWithState),
    ("WRITE_BARRIER_START", EventType::WriteBarrierStart),
    ("WRITE_BARRIER_END", EventType::WriteBarrierEnd),
    ("WRITE_FLUSH", EventType::WriteFlush),
    ("FULL_BARRIER", EventType::FullBarrier),
    ("ATOMIC_BARRIER", EventType::AtomicBarrier),
    ("SEMAPHORE_INC", EventType::SemaphoreInc),
    ("SEMAPHORE_WAIT", EventType::SemaphoreWait),
    ("SEMAPHORE_SET", EventType::SemaphoreSet),
];

impl EventType {
    fn parse(s: &str) -> Option<EventType> {
        if let Some(rest) = s.strip_prefix("FABRIC_")
            && !rest.is_empty()
            && rest.bytes().all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'_')
        {
            return Some(EventType::Fabric(s.to_string()));
        }
        TYPES.iter().find(|(n, _)| *n == s).map(|(_, t)| t.clone())
    }

    /// The name as traces write it.
    pub fn name(&self) -> &str {
        match self {
            EventType::Fabric(n) => n,
            t => TYPES.iter().find(|(_, x)| x == t).map(|(n, _)| *n).expect("every type is listed"),
        }
    }

    /// Whether the event moves data to or from one destination (`dx`, `dy`, `num_bytes`).
    fn is_unicast_data(&self) -> bool {
        matches!(
            self,
            EventType::Read
                | EventType::ReadWithState
                | EventType::ReadDramShardedWithState
                | EventType::Write
                | EventType::WriteWithState
                | EventType::WriteWithTrid
        )
    }

    /// Whether the event needs a `noc` field.
    fn needs_noc(&self) -> bool {
        self.is_unicast_data()
            || matches!(
                self,
                EventType::WriteMulticast
                    | EventType::WriteInline
                    | EventType::SemaphoreInc
                    | EventType::ReadBarrierStart
                    | EventType::ReadBarrierWithTrid
                    | EventType::WriteBarrierStart
                    | EventType::WriteFlush
                    | EventType::AtomicBarrier
                    | EventType::FullBarrier
            )
    }
}

/// One NoC call of a trace.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CallEvent {
    /// What was called.
    pub kind: EventType,
    /// The NoC, when the event names one.
    pub noc: Option<NocId>,
    /// Unicast destination (NoC0), when the event has one.
    pub dst: Option<(i64, i64)>,
    /// Multicast rectangle (NoC0 start x, start y, end x, end y).
    pub mcast: Option<(i64, i64, i64, i64)>,
    /// Bytes moved (0 when the event moves none).
    pub bytes: u64,
}

/// What an event is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EventBody {
    /// A kernel zone marker: `begin` or end.
    Zone {
        /// The zone begins (else ends).
        begin: bool,
    },
    /// A NoC call.
    Call(CallEvent),
}

/// One checked event of a tt-metal device-profiler NoC trace.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TraceEvent {
    /// 0 for BRISC, 1 for NCRISC; `None` for the profiler's own zones (`proc` empty).
    pub risc: Option<u8>,
    /// NoC0 x of the issuing core.
    pub sx: i64,
    /// NoC0 y of the issuing core.
    pub sy: i64,
    /// Cycle counter when the call was issued.
    pub timestamp: u64,
    /// The zone marker or call.
    pub body: EventBody,
}

/// An event as written; every field optional so that a missing one gets a message of ours.
#[derive(Debug, Deserialize)]
struct RawEvent {
    proc: Option<String>,
    sx: Option<i64>,
    sy: Option<i64>,
    noc: Option<String>,
    dx: Option<i64>,
    dy: Option<i64>,
    mcast_start_x: Option<i64>,
    mcast_start_y: Option<i64>,
    mcast_end_x: Option<i64>,
    mcast_end_y: Option<i64>,
    #[serde(rename = "type")]
    kind: Option<String>,
    num_bytes: Option<i64>,
    timestamp: Option<u64>,
    zone: Option<String>,
    zone_phase: Option<String>,
}

fn json_error(e: serde_json::Error, file: &str, what: &str) -> ReplayError {
    let msg = e.to_string();
    // serde_json appends " at line L column C"; the location is printed in front instead.
    let msg = match msg.find(" at line ") {
        Some(i) => msg[..i].to_string(),
        None => msg,
    };
    ReplayError::Json {
        file: file.to_string(),
        line: e.line(),
        column: e.column(),
        message: format!("not a {what}: {}", soc_descriptors::error::plain_serde_message(&msg)),
    }
}

pub(super) fn parse_noc(s: &str) -> Result<NocId, EventProblem> {
    match s {
        "NOC_0" => Ok(NocId::Noc0),
        "NOC_1" => Ok(NocId::Noc1),
        other => Err(EventProblem::UnknownNoc(other.to_string())),
    }
}

fn check_event(r: RawEvent) -> Result<TraceEvent, EventProblem> {
    let risc = match r.proc.as_deref() {
        Some("BRISC") => Some(0),
        Some("NCRISC") => Some(1),
        // The profiler's own zones carry no RISC.
        Some("") if r.zone.is_some() => None,
        Some(other) => return Err(EventProblem::UnknownRisc(other.to_string())),
        None => return Err(EventProblem::Missing("proc")),
    };
    let sx = r.sx.ok_or(EventProblem::Missing("sx"))?;
    let sy = r.sy.ok_or(EventProblem::Missing("sy"))?;
    let timestamp = r.timestamp.ok_or(EventProblem::Missing("timestamp"))?;
    if r.zone.is_some() {
        let begin = match r.zone_phase.as_deref() {
            Some("begin") => true,
            Some("end") => false,
            Some(other) => return Err(EventProblem::UnknownZonePhase(other.to_string())),
            None => return Err(EventProblem::Missing("zone_phase")),
        };
        return Ok(TraceEvent { risc, sx, sy, timestamp, body: EventBody::Zone { begin } });
    }
    let name = r.kind.ok_or(EventProblem::Missing("type"))?;
    let kind = EventType::parse(&name).ok_or(EventProblem::UnknownType(name))?;
    let noc = match r.noc.as_deref() {
        Some(n) => Some(parse_noc(n)?),
        None if kind.needs_noc() => return Err(EventProblem::Missing("noc")),
        None => None,
    };
    let bytes = match r.num_bytes {
        Some(b) if b < 0 => {
            return Err(EventProblem::BadValue {
                field: "num_bytes",
                value: b.to_string(),
                expected: "a byte count of 0 or more",
            });
        }
        Some(b) if b > u32::MAX as i64 => {
            return Err(EventProblem::BadValue {
                field: "num_bytes",
                value: b.to_string(),
                expected: "at most 4294967295 bytes per call",
            });
        }
        Some(b) => b as u64,
        None if kind.is_unicast_data() || kind == EventType::WriteMulticast => {
            return Err(EventProblem::Missing("num_bytes"));
        }
        None => 0,
    };
    // Destinations: -1 means "none" in tt-metal's traces.
    let dst = match (r.dx.filter(|v| *v >= 0), r.dy.filter(|v| *v >= 0)) {
        (Some(x), Some(y)) => Some((x, y)),
        _ => None,
    };
    let needs_dst =
        (kind.is_unicast_data() && bytes > 0) || matches!(kind, EventType::SemaphoreInc | EventType::WriteInline);
    if needs_dst && dst.is_none() {
        // -1 is tt-metal's "none"; any other negative value is a broken coordinate, not a missing one.
        for (field, v) in [("dx", r.dx), ("dy", r.dy)] {
            if let Some(v) = v.filter(|v| *v < -1) {
                return Err(EventProblem::BadValue {
                    field,
                    value: v.to_string(),
                    expected: "a NoC coordinate: a whole number of 0 or more (-1 only where the event has no destination)",
                });
            }
        }
        return Err(EventProblem::Missing(if r.dx.is_none_or(|v| v < 0) { "dx" } else { "dy" }));
    }
    let mcast = match (r.mcast_start_x, r.mcast_start_y, r.mcast_end_x, r.mcast_end_y) {
        (Some(a), Some(b), Some(c), Some(d)) => Some((a, b, c, d)),
        _ if kind == EventType::WriteMulticast => return Err(EventProblem::Missing("mcast_start_x")),
        _ => None,
    };
    Ok(TraceEvent { risc, sx, sy, timestamp, body: EventBody::Call(CallEvent { kind, noc, dst, mcast, bytes }) })
}

/// Read and check a tt-metal NoC trace.
pub fn parse_noc_trace(text: &str, file: &str) -> Result<Vec<TraceEvent>, ReplayError> {
    let raw: Vec<RawEvent> = serde_json::from_str(text).map_err(|e| json_error(e, file, "tt-metal NoC trace"))?;
    if raw.is_empty() {
        return Err(ReplayError::Empty { file: file.to_string() });
    }
    let events: Vec<TraceEvent> = raw
        .into_iter()
        .enumerate()
        .map(|(index, r)| {
            check_event(r).map_err(|problem| ReplayError::Event { file: file.to_string(), index, problem })
        })
        .collect::<Result<_, _>>()?;
    check_timestamps(&events).map_err(|(index, problem)| ReplayError::Event {
        file: file.to_string(),
        index,
        problem,
    })?;
    Ok(events)
}

/// The longest span a trace may cover, cycles (the simulator's own limit on a run, `sim.max_cycles` ≤ 2^50):
/// a timestamp further from the first is a broken one, not a long run.
pub const MAX_TRACE_SPAN_CYCLES: u64 = 1 << 50;

/// The NoC calls of each RISC of each core only move forward in time (a profiler's counter; zone records
/// may be logged late, out of order), a zone does not end before it begins, and the trace spans at most
/// [`MAX_TRACE_SPAN_CYCLES`]: the event that breaks any of these, and why.
fn check_timestamps(events: &[TraceEvent]) -> Result<(), (usize, EventProblem)> {
    /// One RISC of one core: (x, y, RISC).
    type RiscKey = (i64, i64, Option<u8>);
    let first = events.iter().map(|e| e.timestamp).min().unwrap_or(0);
    // Per RISC: its latest NoC call's timestamp and event index.
    let mut last: Vec<(RiscKey, u64, usize)> = Vec::new();
    for (i, e) in events.iter().enumerate() {
        if e.timestamp - first > MAX_TRACE_SPAN_CYCLES {
            return Err((
                i,
                EventProblem::BadValue {
                    field: "timestamp",
                    value: e.timestamp.to_string(),
                    expected: "within 2^50 cycles of the trace's first timestamp (this one is far beyond: a broken counter?)",
                },
            ));
        }
        let key = (e.sx, e.sy, e.risc);
        if let EventBody::Zone { begin } = e.body {
            if !begin
                && let Some((b, at)) = events[..i]
                    .iter()
                    .enumerate()
                    .rev()
                    .find(|(_, o)| (o.sx, o.sy, o.risc) == key && matches!(o.body, EventBody::Zone { begin: true }))
                    .map(|(at, o)| (o.timestamp, at))
                && e.timestamp < b
            {
                return Err((i, EventProblem::Backwards { timestamp: e.timestamp, earlier_index: at, earlier: b }));
            }
            continue;
        }
        match last.iter_mut().find(|(k, _, _)| *k == key) {
            Some((_, t, at)) if e.timestamp < *t => {
                return Err((i, EventProblem::Backwards { timestamp: e.timestamp, earlier_index: *at, earlier: *t }));
            }
            Some((_, t, at)) => {
                *t = e.timestamp;
                *at = i;
            }
            None => last.push((key, e.timestamp, i)),
        }
    }
    Ok(())
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
#[serde(deny_unknown_fields)]
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
#[serde(deny_unknown_fields)]
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

/// The largest number of packets one workload may ask for (a bound on the work a replay does).
pub const MAX_WORKLOAD_PACKETS: u64 = 50_000_000;

fn check_transfer(t: &NpeTransfer) -> Result<(), EventProblem> {
    parse_noc(&t.noc_type)?;
    if t.packet_size == 0 || t.packet_size > u32::MAX as u64 {
        return Err(EventProblem::BadValue {
            field: "packet_size",
            value: t.packet_size.to_string(),
            expected: "1 to 4294967295 bytes",
        });
    }
    if !t.injection_rate.is_finite() || t.injection_rate < 0.0 {
        return Err(EventProblem::BadValue {
            field: "injection_rate",
            value: t.injection_rate.to_string(),
            expected: "0 (the NoC's own rate) or a positive number of bytes per cycle",
        });
    }
    let unicast = t.dst_x.is_some() || t.dst_y.is_some();
    let mcast = [t.mcast_start_x, t.mcast_start_y, t.mcast_end_x, t.mcast_end_y];
    match (unicast, mcast.iter().any(|m| m.is_some())) {
        (true, true) => Err(EventProblem::BadValue {
            field: "dst_x",
            value: "given with a multicast rectangle".into(),
            expected: "either dst_x/dst_y or mcast_start_*/mcast_end_*, not both",
        }),
        (false, false) => Err(EventProblem::Missing("dst_x")),
        (true, false) if t.dst_x.is_none() => Err(EventProblem::Missing("dst_x")),
        (true, false) if t.dst_y.is_none() => Err(EventProblem::Missing("dst_y")),
        (false, true) if mcast.iter().any(|m| m.is_none()) => Err(EventProblem::Missing("mcast_end_y")),
        _ => Ok(()),
    }
}

/// Read and check a tt-npe workload.
pub fn parse_npe_workload(text: &str, file: &str) -> Result<NpeWorkload, ReplayError> {
    let w: NpeWorkload = serde_json::from_str(text).map_err(|e| json_error(e, file, "tt-npe workload"))?;
    let mut index = 0;
    let mut packets = 0u64;
    for ph in &w.phases {
        for t in &ph.transfers {
            check_transfer(t).map_err(|problem| ReplayError::Event { file: file.to_string(), index, problem })?;
            packets = packets.saturating_add(t.num_packets);
            if packets > MAX_WORKLOAD_PACKETS {
                return Err(ReplayError::Event {
                    file: file.to_string(),
                    index,
                    problem: EventProblem::BadValue {
                        field: "num_packets",
                        value: format!("{} (the workload's total passes {packets})", t.num_packets),
                        expected: "at most 50000000 packets in a whole workload",
                    },
                });
            }
            index += 1;
        }
    }
    Ok(w)
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
pub fn parse_replay_input(text: &str, file: &str) -> Result<ReplayInput, ReplayError> {
    let t = text.trim_start();
    if t.starts_with('[') {
        parse_noc_trace(text, file).map(ReplayInput::Trace)
    } else if t.starts_with('{') {
        parse_npe_workload(text, file).map(ReplayInput::Workload)
    } else {
        Err(ReplayError::NotReplayInput { file: file.to_string() })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(text: &str) -> String {
        parse_replay_input(text, "t.json").unwrap_err().to_string()
    }

    #[test]
    fn traces_and_workloads_parse() {
        let t = r#"[{"proc":"BRISC","zone":"BRISC-KERNEL","zone_phase":"begin","sx":1,"sy":1,"timestamp":100},
                    {"proc":"BRISC","noc":"NOC_0","vc":-1,"sx":1,"sy":1,"dx":0,"dy":11,"num_bytes":2048,"type":"READ","timestamp":150,"kernel_start_delta":50}]"#;
        match parse_replay_input(t, "t.json").unwrap() {
            ReplayInput::Trace(ev) => {
                assert_eq!(ev.len(), 2);
                assert!(matches!(&ev[1].body, EventBody::Call(c) if c.kind == EventType::Read && c.bytes == 2048));
                assert_eq!(measured_cycles(&ev), 30);
            }
            _ => panic!("expected a trace"),
        }
        let w = r#"{"golden_result":{"cycles":450},"phases":[{"transfers":[{"packet_size":128,"num_packets":1,"src_x":1,"src_y":1,
                    "injection_rate":0,"phase_cycle_offset":219,"noc_type":"NOC_0","dst_x":1,"dst_y":1}]}]}"#;
        assert!(matches!(parse_replay_input(w, "w.json").unwrap(), ReplayInput::Workload(_)));
    }

    #[test]
    fn bad_events_are_named_by_index() {
        let ok =
            r#"{"proc":"BRISC","noc":"NOC_0","sx":1,"sy":1,"dx":0,"dy":11,"num_bytes":32,"type":"READ","timestamp":1}"#;
        let cases = [
            (r#"[{"sx":1}]"#, "t.json: event 0: missing field `proc`"),
            (r#"[{"proc":"TRISC7","sx":1,"sy":1,"timestamp":1}]"#, "unknown RISC `TRISC7`"),
            (
                r#"[{"proc":"BRISC","noc":"NOC_0","sx":1,"sy":1,"type":"TELEPORT","timestamp":1}]"#,
                "event 0: unknown event type `TELEPORT`",
            ),
            (
                r#"[{"proc":"BRISC","sx":1,"sy":1,"dx":0,"dy":1,"num_bytes":32,"type":"READ","timestamp":1}]"#,
                "missing field `noc`",
            ),
            (
                r#"[{"proc":"BRISC","noc":"NOC_2","sx":1,"sy":1,"type":"READ","timestamp":1}]"#,
                "NoC `NOC_2` is not NOC_0 or NOC_1",
            ),
            (
                r#"[{"proc":"BRISC","noc":"NOC_0","sx":1,"sy":1,"num_bytes":32,"type":"WRITE","timestamp":1}]"#,
                "missing field `dx`",
            ),
            (
                r#"[{"proc":"BRISC","noc":"NOC_0","sx":1,"sy":1,"dx":1,"dy":1,"num_bytes":-5,"type":"WRITE","timestamp":1}]"#,
                "`num_bytes` is -5",
            ),
            (
                r#"[{"proc":"BRISC","zone":"Z","zone_phase":"middle","sx":1,"sy":1,"timestamp":1}]"#,
                "zone_phase `middle`",
            ),
            (r#"[{"proc":"BRISC","sx":"one","sy":1,"timestamp":1}]"#, "t.json:1:"),
        ];
        for (text, want) in cases {
            let e = err(text);
            assert!(e.contains(want), "{text}: got `{e}`, want `{want}`");
            assert!(!e.contains("i64") && !e.contains("u64"), "serde type names leak: {e}");
        }
        let fabric =
            format!("[{ok},{}]", r#"{"proc":"BRISC","sx":1,"sy":1,"type":"FABRIC_UNICAST_WRITE","timestamp":2}"#);
        assert!(parse_replay_input(&fabric, "t.json").is_ok(), "FABRIC_* calls are known");
        assert_eq!(err("[]"), "t.json: the trace has no events");
        assert!(err("hello").contains("not JSON"));
        let w = r#"{"phases":[{"transfers":[{"packet_size":0,"num_packets":1,"src_x":1,"src_y":1,"noc_type":"NOC_0","dst_x":1,"dst_y":1}]}]}"#;
        assert!(err(w).contains("event 0: `packet_size` is 0"), "{}", err(w));
        let w =
            r#"{"phases":[{"transfers":[{"packet_size":8,"num_packets":1,"src_x":1,"src_y":1,"noc_type":"NOC_0"}]}]}"#;
        assert!(err(w).contains("missing field `dst_x`"), "{}", err(w));
    }
}
