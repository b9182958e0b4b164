//! A Chrome trace-event JSON writer (opened by ui.perfetto.dev and chrome://tracing).
//!
//! Time mapping: one AICLK cycle is written as one nanosecond (`ts` is in microseconds, so `ts = cycles /
//! 1000`, exact in decimal). The real clock is recorded in `otherData`, so durations in the viewer read
//! directly as cycles. Output is deterministic: events are written in the order they were recorded.

use crate::time::Cycle;
use std::collections::BTreeMap;
use std::fmt::Write;

/// An argument value attached to a trace event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TraceArg {
    /// A number.
    U(u64),
    /// A string.
    S(String),
}

#[derive(Debug, Clone)]
enum Kind {
    Slice { dur: u64 },
    Instant,
    Counter,
}

#[derive(Debug, Clone)]
struct Event {
    kind: Kind,
    pid: u32,
    tid: u32,
    name: String,
    cat: &'static str,
    ts: u64,
    args: Vec<(String, TraceArg)>,
}

/// One timeline track: a process (e.g. a core) and a thread in it (e.g. a RISC).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Track {
    /// Process id.
    pub pid: u32,
    /// Thread id.
    pub tid: u32,
}

/// Events a trace keeps at most (about 1.5 GB of JSON); later ones are counted, not kept.
pub const MAX_TRACE_EVENTS: usize = 10_000_000;

/// Collects trace events of one run (at most [`MAX_TRACE_EVENTS`]).
#[derive(Debug, Clone, Default)]
pub struct TraceBuilder {
    events: Vec<Event>,
    /// Events not kept because the bound was reached.
    dropped: u64,
    processes: BTreeMap<u32, String>,
    threads: BTreeMap<(u32, u32), String>,
    other: Vec<(String, TraceArg)>,
}

fn escape(s: &str, out: &mut String) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

fn micros(cycles: u64, out: &mut String) {
    let _ = write!(out, "{}.{:03}", cycles / 1000, cycles % 1000);
}

fn args_json(args: &[(String, TraceArg)], out: &mut String) {
    out.push('{');
    for (i, (k, v)) in args.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        escape(k, out);
        out.push(':');
        match v {
            TraceArg::U(n) => {
                let _ = write!(out, "{n}");
            }
            TraceArg::S(s) => escape(s, out),
        }
    }
    out.push('}');
}

impl TraceBuilder {
    /// An empty trace.
    pub fn new() -> Self {
        Self::default()
    }

    /// Whether the bound is reached (counting the event that was about to be added).
    fn full(&mut self) -> bool {
        if self.events.len() >= MAX_TRACE_EVENTS {
            self.dropped += 1;
            return true;
        }
        false
    }

    /// Events not kept because the trace reached [`MAX_TRACE_EVENTS`].
    pub fn dropped(&self) -> u64 {
        self.dropped
    }

    /// Name a process (a track group, e.g. one Tensix core).
    pub fn name_process(&mut self, pid: u32, name: impl Into<String>) {
        self.processes.insert(pid, name.into());
    }

    /// Name a thread (a track, e.g. one RISC).
    pub fn name_thread(&mut self, pid: u32, tid: u32, name: impl Into<String>) {
        self.threads.insert((pid, tid), name.into());
    }

    /// Record a value in `otherData`.
    pub fn set_other(&mut self, key: &str, v: TraceArg) {
        self.other.push((key.to_string(), v));
    }

    /// A complete slice `[start, end)`.
    pub fn slice(
        &mut self,
        track: Track,
        name: impl Into<String>,
        cat: &'static str,
        start: Cycle,
        end: Cycle,
        args: Vec<(String, TraceArg)>,
    ) {
        if self.full() {
            return;
        }
        self.events.push(Event {
            kind: Kind::Slice { dur: end.0.saturating_sub(start.0) },
            pid: track.pid,
            tid: track.tid,
            name: name.into(),
            cat,
            ts: start.0,
            args,
        });
    }

    /// An instant event.
    pub fn instant(
        &mut self,
        track: Track,
        name: impl Into<String>,
        cat: &'static str,
        at: Cycle,
        args: Vec<(String, TraceArg)>,
    ) {
        if self.full() {
            return;
        }
        self.events.push(Event {
            kind: Kind::Instant,
            pid: track.pid,
            tid: track.tid,
            name: name.into(),
            cat,
            ts: at.0,
            args,
        });
    }

    /// A counter sample (one track per `name` under `pid`).
    pub fn counter(&mut self, pid: u32, name: impl Into<String>, at: Cycle, values: Vec<(String, u64)>) {
        if self.full() {
            return;
        }
        self.events.push(Event {
            kind: Kind::Counter,
            pid,
            tid: 0,
            name: name.into(),
            cat: "counter",
            ts: at.0,
            args: values.into_iter().map(|(k, v)| (k, TraceArg::U(v))).collect(),
        });
    }

    /// Number of recorded events (without metadata).
    pub fn len(&self) -> usize {
        self.events.len()
    }

    /// Whether nothing was recorded.
    pub fn is_empty(&self) -> bool {
        self.events.is_empty()
    }

    /// The whole trace as Chrome trace-event JSON.
    pub fn to_json(&self) -> String {
        let mut out = String::with_capacity(64 + self.events.len() * 120);
        out.push_str("{\"displayTimeUnit\":\"ns\",\"otherData\":");
        let mut other =
            vec![("time_unit".to_string(), TraceArg::S("1 ns on this timeline = 1 AICLK cycle".to_string()))];
        other.extend(self.other.iter().cloned());
        args_json(&other, &mut out);
        out.push_str(",\"traceEvents\":[\n");
        let mut first = true;
        let mut sep = |out: &mut String| {
            if !first {
                out.push_str(",\n");
            }
            first = false;
        };
        for (pid, name) in &self.processes {
            sep(&mut out);
            let _ =
                write!(out, "{{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":{pid},\"tid\":0,\"args\":{{\"name\":");
            escape(name, &mut out);
            out.push_str("}}");
            sep(&mut out);
            let _ = write!(
                out,
                "{{\"ph\":\"M\",\"name\":\"process_sort_index\",\"pid\":{pid},\"tid\":0,\"args\":{{\"sort_index\":{pid}}}}}"
            );
        }
        for ((pid, tid), name) in &self.threads {
            sep(&mut out);
            let _ =
                write!(out, "{{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":{pid},\"tid\":{tid},\"args\":{{\"name\":");
            escape(name, &mut out);
            out.push_str("}}");
            sep(&mut out);
            let _ = write!(
                out,
                "{{\"ph\":\"M\",\"name\":\"thread_sort_index\",\"pid\":{pid},\"tid\":{tid},\"args\":{{\"sort_index\":{tid}}}}}"
            );
        }
        for e in &self.events {
            sep(&mut out);
            let ph = match e.kind {
                Kind::Slice { .. } => "X",
                Kind::Instant => "i",
                Kind::Counter => "C",
            };
            let _ = write!(out, "{{\"ph\":\"{ph}\",\"pid\":{},\"tid\":{},\"name\":", e.pid, e.tid);
            escape(&e.name, &mut out);
            let _ = write!(out, ",\"cat\":\"{}\",\"ts\":", e.cat);
            micros(e.ts, &mut out);
            match e.kind {
                Kind::Slice { dur } => {
                    out.push_str(",\"dur\":");
                    micros(dur, &mut out);
                }
                Kind::Instant => out.push_str(",\"s\":\"t\""),
                Kind::Counter => {}
            }
            out.push_str(",\"args\":");
            args_json(&e.args, &mut out);
            out.push('}');
        }
        out.push_str("\n]}\n");
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_valid_looking_json_with_exact_times() {
        let mut t = TraceBuilder::new();
        t.name_process(1, "core (0,0)");
        t.name_thread(1, 0, "BRISC");
        let tr = Track { pid: 1, tid: 0 };
        t.slice(tr, "reader \"x\"", "kernel", Cycle(1500), Cycle(2750), vec![("n".into(), TraceArg::U(3))]);
        t.instant(tr, "noc_async_read", "noc", Cycle(7), vec![]);
        let j = t.to_json();
        assert!(j.contains("\"ts\":1.500,\"dur\":1.250"), "{j}");
        assert!(j.contains("\"ts\":0.007,\"s\":\"t\""), "{j}");
        assert!(j.contains("reader \\\"x\\\""), "{j}");
        assert!(j.starts_with("{\"displayTimeUnit\":\"ns\""));
    }
}
