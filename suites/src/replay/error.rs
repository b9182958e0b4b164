//! What can be wrong with a replay input: the file, its JSON, one event (by index, with what is wrong), or
//! the run itself.

use sim_device::DeviceError;
use std::fmt;

/// What is wrong with one event or transfer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EventProblem {
    /// A required field is absent.
    Missing(&'static str),
    /// `type` names no tt-metal NoC event.
    UnknownType(String),
    /// `proc` names no data-movement RISC.
    UnknownRisc(String),
    /// `noc`/`noc_type` is not `NOC_0` or `NOC_1`.
    UnknownNoc(String),
    /// `zone_phase` is not `begin` or `end`.
    UnknownZonePhase(String),
    /// A field holds a value outside what it may be.
    BadValue {
        /// The field.
        field: &'static str,
        /// The value as read.
        value: String,
        /// What it may be.
        expected: &'static str,
    },
    /// A timestamp before the one of an earlier event of the same RISC.
    Backwards {
        /// This event's timestamp.
        timestamp: u64,
        /// The earlier event's index.
        earlier_index: usize,
        /// Its timestamp.
        earlier: u64,
    },
    /// A coordinate outside the chip's NoC grid.
    OutsideGrid {
        /// Which coordinate.
        what: &'static str,
        /// x.
        x: i64,
        /// y.
        y: i64,
        /// The grid, as `COLSxROWS`.
        grid: String,
    },
    /// An issuing core that is not a usable Tensix worker.
    NotAWorker {
        /// NoC0 x.
        x: i64,
        /// NoC0 y.
        y: i64,
        /// The chip.
        arch: String,
    },
    /// An issuing core outside the compute grid.
    OutsideComputeGrid {
        /// NoC0 x.
        x: i64,
        /// NoC0 y.
        y: i64,
        /// Its logical coordinate.
        logical: (u32, u32),
    },
    /// The event would be issued at a cycle beyond the longest run tensim simulates.
    BeyondRun {
        /// What puts it there (`timestamp`, `phase_cycle_offset` …).
        what: &'static str,
        /// The cycle it would be issued at (relative to the first event or the workload's start), or `None`
        /// when that passes 64 bits.
        at: Option<u64>,
        /// `sim.max_cycles`.
        max_cycles: u64,
    },
}

impl fmt::Display for EventProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EventProblem::Missing(field) => write!(f, "missing field `{field}`"),
            EventProblem::UnknownType(t) => write!(
                f,
                "unknown event type `{t}`; tt-metal's NoC trace types are READ, READ_SET_STATE, READ_WITH_STATE, \
                 READ_BARRIER_START, READ_BARRIER_END, READ_BARRIER_WITH_TRID, READ_DRAM_SHARDED_SET_STATE, \
                 READ_DRAM_SHARDED_WITH_STATE, WRITE, WRITE_WITH_TRID, WRITE_INLINE, WRITE_MULTICAST, \
                 WRITE_SET_STATE, WRITE_WITH_STATE, WRITE_BARRIER_START, WRITE_BARRIER_END, WRITE_FLUSH, \
                 FULL_BARRIER, ATOMIC_BARRIER, SEMAPHORE_INC, SEMAPHORE_WAIT, SEMAPHORE_SET and FABRIC_*"
            ),
            EventProblem::UnknownRisc(r) => write!(f, "unknown RISC `{r}` in `proc`; use BRISC or NCRISC"),
            EventProblem::UnknownNoc(n) => write!(f, "NoC `{n}` is not NOC_0 or NOC_1"),
            EventProblem::UnknownZonePhase(p) => write!(f, "zone_phase `{p}` is not begin or end"),
            EventProblem::BadValue { field, value, expected } => {
                write!(f, "`{field}` is {value}; expected {expected}")
            }
            EventProblem::Backwards { timestamp, earlier_index, earlier } => write!(
                f,
                "timestamp {timestamp} goes backwards: event {earlier_index} of the same core and RISC is at {earlier}; a RISC's timestamps only grow (a trace merged or edited out of order?)"
            ),
            EventProblem::OutsideGrid { what, x, y, grid } => {
                write!(f, "{what} ({x},{y}) is outside the {grid} NoC grid")
            }
            EventProblem::NotAWorker { x, y, arch } => {
                write!(f, "core ({x},{y}) is not a usable Tensix worker of this {arch}")
            }
            EventProblem::OutsideComputeGrid { x, y, logical } => {
                write!(f, "core ({x},{y}) is logical ({},{}), outside the compute grid", logical.0, logical.1)
            }
            EventProblem::BeyondRun { what, at, max_cycles } => {
                let at = at.map_or("a cycle beyond 64 bits".to_string(), |c| format!("cycle {c}"));
                write!(
                    f,
                    "its {what} issues it at {at}, beyond sim.max_cycles = {max_cycles} (the longest run tensim \
                     simulates); fix the {what}, or raise the parameter sim.max_cycles"
                )
            }
        }
    }
}

/// A replay that cannot be done.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReplayError {
    /// The file cannot be read.
    Read(String),
    /// The JSON is malformed or has the wrong shape.
    Json {
        /// The file.
        file: String,
        /// Line (1-based).
        line: usize,
        /// Column (1-based).
        column: usize,
        /// What is wrong, in plain words.
        message: String,
    },
    /// The text is not one of the two formats.
    NotReplayInput {
        /// The file.
        file: String,
    },
    /// The trace holds no events.
    Empty {
        /// The file.
        file: String,
    },
    /// One event (trace) or transfer (workload) is wrong.
    Event {
        /// The file.
        file: String,
        /// Index of the event in the file (0-based).
        index: usize,
        /// What is wrong.
        problem: EventProblem,
    },
    /// The replayed program failed to run.
    Run {
        /// The file.
        file: String,
        /// The run's error.
        error: DeviceError,
    },
}

impl fmt::Display for ReplayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReplayError::Read(e) => f.write_str(e),
            ReplayError::Json { file, line, column, message } => write!(f, "{file}:{line}:{column}: {message}"),
            ReplayError::NotReplayInput { file } => {
                write!(f, "{file}: not JSON (expected a tt-metal NoC trace array or a tt-npe workload object)")
            }
            ReplayError::Empty { file } => write!(f, "{file}: the trace has no events"),
            ReplayError::Event { file, index, problem } => write!(f, "{file}: event {index}: {problem}"),
            ReplayError::Run { file, error } => write!(f, "{file}: {error}"),
        }
    }
}

impl std::error::Error for ReplayError {}
