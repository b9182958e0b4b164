//! Per-arch parameters, typed once and checked once. The data files in `sim-params/arch/` (one per chip,
//! every value with a source note) and every override (`KEY=VALUE` text, a YAML file of overrides) resolve into
//! [`Params`]: typed structs (`NocParams`, `DramParams`, `MemLayout`, `ApiCosts` with `ComputeParams`, …)
//! whose every field has a key in `keys` with an allowed range. A value outside its range, a fraction,
//! a negative number or one too wide for its integer type is a [`ParamError`] echoing what was written; the
//! simulation never looks a parameter up by name.

mod keys;
mod raw;

use keys::{KEYS, KeySpec};
use raw::{Entry, Override, RawValue};
use sim_core::Cycles;
use sim_noc::{DramParams, NocParams};
use sim_tensix::ApiCosts;
use soc_descriptors::{
    Arch,
    yaml::{UniqueMap, parse_yaml},
};
use std::fmt;
use std::path::Path;

/// The memory map of a core and DRAM bank, and the alignments of buffers and NoC transfers.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MemLayout {
    /// `L1_ALIGNMENT`, bytes: L1 buffers and their pages.
    pub l1_alignment: u32,
    /// `DRAM_ALIGNMENT`, bytes: DRAM buffers and their pages.
    pub dram_alignment: u32,
    /// NoC read alignment of L1, bytes.
    pub l1_read_alignment: u32,
    /// NoC read alignment of DRAM, bytes.
    pub dram_read_alignment: u32,
    /// NoC write alignment, bytes.
    pub write_alignment: u32,
    /// First L1 address above the reserved region, bytes.
    pub l1_unreserved_base: u32,
    /// L1 address of semaphore 0.
    pub semaphore_base: u32,
    /// L1 address of the runtime-arg slots ([`RUNTIME_ARG_SLOTS`] of [`RUNTIME_ARG_SLOT_BYTES`]).
    pub runtime_args_base: u32,
    /// L1 address of the fabric packet-header pools ([`PACKET_HEADER_POOL_SLOTS`] of
    /// [`PACKET_HEADER_POOL_SLOT_BYTES`]).
    pub packet_header_pool_base: u32,
    /// First allocatable DRAM address in every bank, bytes.
    pub dram_unreserved_base: u64,
    /// Number of CB indices per core.
    pub num_circular_buffers: u32,
}

/// Runtime-arg slots per core: RISCV_0, RISCV_1 and the compute kernel (its three TRISCs share one).
pub const RUNTIME_ARG_SLOTS: u32 = 3;
/// Bytes of one slot: up to 341 unique then 341 common words, rounded up to 16 bytes.
pub const RUNTIME_ARG_SLOT_BYTES: u32 = (2 * sim_tensix::RUNTIME_ARGS_SLOT_WORDS * 4).next_multiple_of(16);
/// Packet-header pools per core: one per data-movement RISC.
pub const PACKET_HEADER_POOL_SLOTS: u32 = 2;
/// Bytes of one RISC's packet-header pool.
pub const PACKET_HEADER_POOL_SLOT_BYTES: u32 =
    sim_tensix::PACKET_HEADERS_PER_RISC * sim_tensix::PACKET_HEADER_SLOT_BYTES;

/// Semaphores per core and the bytes each takes (tt-metal-api.md §1.4).
pub const SEMAPHORES: u32 = 16;
/// Bytes of one semaphore slot.
pub const SEMAPHORE_BYTES: u32 = 16;

/// Costs of replaying a recorded NoC trace.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ReplayParams {
    /// Cycles a recorded NoC event costs its RISC when profiling was on.
    pub noc_event: Cycles,
    /// Cycles from a traced kernel's start to its first recorded NoC call.
    pub kernel_prologue: Cycles,
}

/// Program launch.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DispatchParams {
    /// Slow dispatch: cycles between one core's launch and the next's.
    pub slow_core_interval: Cycles,
    /// Fast dispatch of a captured trace: cycles from one program's end to the next program's start (the
    /// dispatcher's launch of back-to-back programs; benchmarks that time op loops add it per op).
    pub program_launch: Cycles,
}

/// Ethernet cores and links.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct EthParams {
    /// Line rate of one direction of one link, bytes per second.
    pub link_bytes_per_sec: u64,
    /// One-way latency of a link (Ethernet subsystems and wire), ns.
    pub latency_ns: u64,
    /// Payload bytes of one Ethernet frame (larger sends are split into frames).
    pub frame_payload_bytes: u32,
    /// Bytes each frame adds on the wire (headers, FEC, CRC).
    pub frame_overhead_bytes: u32,
    /// `ERISC_L1_UNRESERVED_BASE`: the first L1 byte Ethernet kernels may use.
    pub l1_unreserved_base: u32,
    /// End of the L1 region Ethernet kernels may use (`MAX_L1_LOADING_ADDR`).
    pub l1_kernel_top: u32,
    /// `ERISC_APP_SYNC_INFO_BASE`: the `erisc_info_t` sync block.
    pub app_sync_info_base: u32,
}

/// The fabric's routers (Ethernet data movers).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FabricParams {
    /// Largest payload of one fabric packet, bytes.
    pub max_payload_bytes: u32,
    /// Packet header of the 1-D (linear) fabric, bytes.
    pub header_bytes_1d: u32,
    /// Packet header of the 2-D (mesh) fabric, bytes.
    pub header_bytes_2d: u32,
    /// Buffer slots of a sender channel on a line fabric.
    pub line_sender_slots: u32,
    /// Buffer slots of the receiver channel on a line fabric.
    pub line_receiver_slots: u32,
    /// Buffer slots of a sender channel on a ring fabric.
    pub ring_sender_slots: u32,
    /// Buffer slots of the receiver channel on a ring fabric.
    pub ring_receiver_slots: u32,
    /// Buffer slots of each of the 4 sender channels of a 2-D fabric router.
    pub mesh_sender_slots: u32,
    /// Buffer slots of the receiver channel of a 2-D fabric router.
    pub mesh_receiver_slots: u32,
    /// ERISC cycles a router spends on one packet (check the slot, decode the header, issue the send).
    pub router_packet_cycles: Cycles,
    /// A collective op's fixed start: its launch on every chip and the workers opening their fabric
    /// connections, before the handshake that walks the line.
    pub op_launch: Cycles,
}

/// Limits of the simulation itself.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SimParams {
    /// Watchdog: a run still going past this many cycles is reported as a livelock.
    pub max_cycles: u64,
    /// Host stack per kernel thread, bytes.
    pub stack_bytes: usize,
    /// Let kernels run ahead of other cores in calls on their own core, by the NoC's minimum latency
    /// between tiles (`sim_core::agenda`): the same results with fewer kernel resumptions. Off while a
    /// Chrome trace is recorded, whose event order would change.
    pub lookahead: bool,
    /// Compute tile products on a helper host thread (`sim_tensix::hw::compute::offload`): 0 never, 1 when
    /// the host has a core to spare and no other simulation runs in this process, 2 always. Results and
    /// cycles are identical either way.
    pub math_thread: u32,
}

/// Every parameter of one chip.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Params {
    arch: Arch,
    /// AICLK, MHz.
    pub clock_mhz: u32,
    /// The NoCs and their endpoints.
    pub noc: NocParams,
    /// DRAM channels.
    pub dram: DramParams,
    /// Memory map and alignments.
    pub mem: MemLayout,
    /// Kernel API and compute-engine costs.
    pub api: ApiCosts,
    /// Trace replay costs.
    pub replay: ReplayParams,
    /// Program launch.
    pub dispatch: DispatchParams,
    /// Simulation limits.
    pub sim: SimParams,
    /// Ethernet.
    pub eth: EthParams,
    /// The fabric.
    pub fabric: FabricParams,
    /// Source note of every key, in [`keys::KEYS`] order.
    sources: Vec<String>,
}

/// What is wrong with a parameter value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ParamProblem {
    /// No such key; similar keys.
    UnknownKey(Vec<&'static str>),
    /// Not `KEY=VALUE`.
    NotAssignment,
    /// Not a number at all.
    NotANumber,
    /// A fraction where a whole number is needed.
    NotWhole,
    /// Below zero.
    Negative,
    /// Outside the key's range (or too wide for its type).
    OutOfRange(String),
    /// Not a power of two.
    NotPowerOfTwo(String),
    /// Not one of the names a named key takes.
    NotAChoice(String),
    /// The data file lacks the key.
    Missing,
    /// Two keys contradict each other.
    Inconsistent(String),
    /// The file cannot be read or parsed.
    File(String),
}

/// A parameter that cannot be used: where it came from, the key, the value as written and what is wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParamError {
    /// Where the value came from: what the caller named (the command line's `--set`), a file path, or
    /// `built-in <arch> parameters`.
    pub origin: String,
    /// The key (empty for whole-file problems).
    pub key: String,
    /// The value as the user wrote it.
    pub value: String,
    /// What is wrong.
    pub problem: ParamProblem,
}

impl fmt::Display for ParamError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let what = match (self.key.is_empty(), self.value.is_empty()) {
            (true, _) => String::new(),
            (false, true) => format!("{}: ", self.key),
            (false, false) => format!("{} = {}: ", self.key, self.value),
        };
        // A file problem's text already names the file (with its line) when it comes from the parser.
        if let ParamProblem::File(why) = &self.problem
            && self.key.is_empty()
            && why.starts_with(self.origin.as_str())
        {
            return f.write_str(why);
        }
        write!(f, "{}: {what}", self.origin)?;
        match &self.problem {
            ParamProblem::UnknownKey(similar) => {
                write!(f, "unknown parameter")?;
                if !similar.is_empty() {
                    write!(f, "; known keys include {}", similar.join(", "))?;
                }
                write!(f, " (`tensim params` lists them all)")
            }
            ParamProblem::NotAssignment => write!(f, "expected KEY=VALUE, e.g. {} noc.hop_cycles=9", self.origin),
            ParamProblem::NotANumber => write!(f, "not a number"),
            ParamProblem::NotWhole => write!(f, "must be a whole number"),
            ParamProblem::Negative => write!(f, "must not be negative"),
            ParamProblem::OutOfRange(allowed) => write!(f, "out of range; allowed {allowed}"),
            ParamProblem::NotPowerOfTwo(allowed) => write!(f, "must be {allowed}"),
            ParamProblem::NotAChoice(allowed) => write!(f, "must be {allowed}"),
            ParamProblem::Missing => write!(f, "missing from the data file"),
            ParamProblem::Inconsistent(why) => f.write_str(why),
            ParamProblem::File(why) => f.write_str(why),
        }
    }
}

impl std::error::Error for ParamError {}

fn builtin_text(arch: Arch) -> &'static str {
    match arch {
        Arch::WormholeB0 => include_str!("../arch/wormhole_b0.yaml"),
        Arch::Blackhole => include_str!("../arch/blackhole.yaml"),
        Arch::Grayskull => include_str!("../arch/grayskull.yaml"),
    }
}

/// One parameter as listed by [`Params::entries`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParamEntry {
    /// The key.
    pub key: &'static str,
    /// Its value (for a named key, the index of its name).
    pub value: u64,
    /// A named key's value as its name (`noc.model`: `calendar`).
    pub name: Option<&'static str>,
    /// Its unit.
    pub unit: &'static str,
    /// The allowed values.
    pub allowed: String,
    /// Where the value comes from.
    pub source: String,
}

impl Params {
    fn empty(arch: Arch) -> Params {
        Params {
            arch,
            clock_mhz: 0,
            noc: NocParams::default(),
            dram: DramParams::default(),
            mem: MemLayout::default(),
            api: ApiCosts::default(),
            replay: ReplayParams::default(),
            dispatch: DispatchParams::default(),
            sim: SimParams::default(),
            eth: EthParams::default(),
            fabric: FabricParams::default(),
            sources: vec![String::new(); KEYS.len()],
        }
    }

    /// The built-in parameters of `arch` (its data file; a test proves each one loads). The file is parsed
    /// once per process and the result copied: it is constant data, not simulation state.
    pub fn builtin(arch: Arch) -> Params {
        static PARSED: [std::sync::OnceLock<Params>; 3] =
            [std::sync::OnceLock::new(), std::sync::OnceLock::new(), std::sync::OnceLock::new()];
        let i = Arch::ALL.iter().position(|a| *a == arch).expect("every arch is listed");
        PARSED[i]
            .get_or_init(|| {
                match Params::from_data_file(arch, builtin_text(arch), &format!("built-in {arch} parameters")) {
                    Ok(p) => p,
                    Err(e) => panic!("the built-in data file is broken: {e}"),
                }
            })
            .clone()
    }

    /// Parameters of `arch` from the text of a data file (every key, each with a value and a source note).
    pub fn from_data_file(arch: Arch, text: &str, origin: &str) -> Result<Params, ParamError> {
        let raw: UniqueMap<Entry> = parse_yaml(text, origin).map_err(|e| ParamError {
            origin: origin.to_string(),
            key: String::new(),
            value: String::new(),
            problem: ParamProblem::File(e.to_string()),
        })?;
        let mut p = Params::empty(arch);
        let mut seen = vec![false; KEYS.len()];
        for (k, e) in raw.0 {
            let i = p.apply(origin, &k, &e.value, e.source)?;
            seen[i] = true;
        }
        if let Some(i) = seen.iter().position(|s| !s) {
            return Err(ParamError {
                origin: origin.to_string(),
                key: KEYS[i].name.to_string(),
                value: String::new(),
                problem: ParamProblem::Missing,
            });
        }
        p.validate(origin)?;
        Ok(p)
    }

    /// The architecture.
    pub fn arch(&self) -> Arch {
        self.arch
    }

    /// Every parameter with its value, unit, range and source, in data-file order.
    pub fn entries(&self) -> Vec<ParamEntry> {
        KEYS.iter()
            .zip(&self.sources)
            .map(|(k, s)| ParamEntry {
                key: k.name,
                value: (k.get)(self),
                name: keys::choices(k.name).get((k.get)(self) as usize).copied(),
                unit: k.unit,
                allowed: k.allowed(),
                source: s.clone(),
            })
            .collect()
    }

    /// The value of `key`, if it is a key.
    pub fn value(&self, key: &str) -> Option<u64> {
        keys::find(key).map(|i| (KEYS[i].get)(self))
    }

    /// The source note of `key`, if it is a key.
    pub fn source(&self, key: &str) -> Option<&str> {
        keys::find(key).map(|i| self.sources[i].as_str())
    }

    fn error(origin: &str, key: &str, value: &RawValue, problem: ParamProblem) -> ParamError {
        ParamError { origin: origin.to_string(), key: key.to_string(), value: value.to_string(), problem }
    }

    /// Check `value` against `spec`.
    fn checked(origin: &str, spec: &KeySpec, value: &RawValue) -> Result<u64, ParamError> {
        let err = |p| Params::error(origin, spec.name, value, p);
        let names = keys::choices(spec.name);
        if !names.is_empty() {
            let written = value.to_string();
            return names
                .iter()
                .position(|n| *n == written.trim())
                .map(|i| i as u64)
                .ok_or_else(|| err(ParamProblem::NotAChoice(spec.allowed())));
        }
        let v = match value {
            RawValue::Whole(v) => *v,
            RawValue::Negative(_) => return Err(err(ParamProblem::Negative)),
            RawValue::Fraction(f) if *f < 0.0 => return Err(err(ParamProblem::Negative)),
            // A whole number written with an exponent (`1e3`) is that number, where a double holds it exactly.
            RawValue::Fraction(f) if f.fract() == 0.0 && *f <= (1u64 << 53) as f64 => *f as u64,
            RawValue::Fraction(_) => return Err(err(ParamProblem::NotWhole)),
            RawValue::Text(t) if t.starts_with('-') && t[1..].bytes().all(|b| b.is_ascii_digit()) => {
                return Err(err(ParamProblem::Negative));
            }
            RawValue::Text(t) if !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit() || b == b'+') => {
                return Err(err(ParamProblem::OutOfRange(spec.allowed())));
            }
            RawValue::Text(_) => return Err(err(ParamProblem::NotANumber)),
        };
        if v < spec.min || v > spec.max || v > spec.type_max {
            return Err(err(ParamProblem::OutOfRange(spec.allowed())));
        }
        if spec.pow2 && !v.is_power_of_two() {
            return Err(err(ParamProblem::NotPowerOfTwo(spec.allowed())));
        }
        Ok(v)
    }

    /// An unknown key: the error lists up to 12 keys of the same group, those sharing the most words with
    /// what was written first (`noc.read_response_cycles` suggests `noc.read_serve_cycles` before the rest).
    fn unknown(origin: &str, key: &str, value: &RawValue) -> ParamError {
        let prefix = key.split('.').next().unwrap_or("");
        let words = |k: &str| k.split(['.', '_']).map(str::to_string).collect::<Vec<_>>();
        let written = words(key);
        let mut similar: Vec<(usize, &'static str)> = KEYS
            .iter()
            .map(|k| k.name)
            .filter(|k| !prefix.is_empty() && k.split('.').next() == Some(prefix))
            .map(|k| (words(k).iter().filter(|w| written.contains(w)).count(), k))
            .collect();
        similar.sort_by_key(|&(shared, _)| std::cmp::Reverse(shared));
        let similar = similar.into_iter().map(|(_, k)| k).take(12).collect();
        Params::error(origin, key, value, ParamProblem::UnknownKey(similar))
    }

    /// Set `key` from `value`; returns the key's row.
    fn apply(&mut self, origin: &str, key: &str, value: &RawValue, source: String) -> Result<usize, ParamError> {
        let i = keys::find(key).ok_or_else(|| Params::unknown(origin, key, value))?;
        let v = Params::checked(origin, &KEYS[i], value)?;
        (KEYS[i].set)(self, v);
        self.sources[i] = source;
        Ok(i)
    }

    /// Set `key` to a value derived from the chip, with the note that says how (not checked against the
    /// key's range: the caller derived it from values that were).
    pub fn set_derived(&mut self, key: &str, value: u64, note: String) {
        if let Some(i) = keys::find(key) {
            (KEYS[i].set)(self, value);
            self.sources[i] = note;
        }
    }

    /// Override one parameter from `KEY=VALUE` text; `origin` names where the text came from in errors and
    /// in the parameter's source (the command line says `--set`). Relations between keys are checked by
    /// [`Params::validate`] once every override is in.
    pub fn set(&mut self, origin: &str, assignment: &str) -> Result<(), ParamError> {
        let Some((k, v)) = assignment.split_once('=') else {
            return Err(ParamError {
                origin: origin.into(),
                key: assignment.to_string(),
                value: String::new(),
                problem: ParamProblem::NotAssignment,
            });
        };
        let (k, v) = (k.trim(), v.trim());
        self.apply(origin, k, &RawValue::parse(v), format!("{origin} {k}={v}")).map(|_| ())
    }

    /// Apply a YAML file of overrides: `key: value` or `key: { value: V, source: "…" }`.
    pub fn apply_file(&mut self, path: &Path) -> Result<(), ParamError> {
        let name = path.display().to_string();
        let file_err = |why: String| ParamError {
            origin: name.clone(),
            key: String::new(),
            value: String::new(),
            problem: ParamProblem::File(why),
        };
        let text = soc_descriptors::input::read_text(path, "parameter file").map_err(|e| file_err(e.reason))?;
        let raw: UniqueMap<Override> = parse_yaml(&text, &name).map_err(|e| file_err(e.to_string()))?;
        for (k, o) in raw.0 {
            let source = o.source.unwrap_or_else(|| name.clone());
            self.apply(&name, &k, &o.value, source)?;
        }
        Ok(())
    }

    /// Check the relations between keys (after all overrides): a burst is whole flits, the semaphores sit
    /// below the unreserved L1 base.
    pub fn validate(&self, origin: &str) -> Result<(), ParamError> {
        let bad = |key: &str, value: u64, why: String| ParamError {
            origin: origin.to_string(),
            key: key.to_string(),
            value: value.to_string(),
            problem: ParamProblem::Inconsistent(why),
        };
        let n = &self.noc;
        if !n.max_burst_bytes.is_multiple_of(n.flit_bytes) {
            return Err(bad(
                "noc.max_burst_bytes",
                n.max_burst_bytes as u64,
                format!("must be a whole number of {}-byte flits (noc.flit_bytes)", n.flit_bytes),
            ));
        }
        let m = &self.mem;
        let sem_end = m.semaphore_base as u64 + (SEMAPHORES * SEMAPHORE_BYTES) as u64;
        if sem_end > m.l1_unreserved_base as u64 {
            return Err(bad(
                "mem.semaphore_base",
                m.semaphore_base as u64,
                format!(
                    "the {SEMAPHORES} semaphores end at {sem_end:#x}, above mem.l1_unreserved_base = {:#x}",
                    m.l1_unreserved_base
                ),
            ));
        }
        let rta_end = m.runtime_args_base as u64 + (RUNTIME_ARG_SLOTS * RUNTIME_ARG_SLOT_BYTES) as u64;
        if !m.runtime_args_base.is_multiple_of(16) {
            return Err(bad("mem.runtime_args_base", m.runtime_args_base as u64, "must be 16-byte aligned".into()));
        }
        if rta_end > m.semaphore_base as u64 && (m.runtime_args_base as u64) < sem_end {
            return Err(bad(
                "mem.runtime_args_base",
                m.runtime_args_base as u64,
                format!(
                    "the runtime-arg slots ({:#x}..{rta_end:#x}) overlap the semaphores at mem.semaphore_base = {:#x}",
                    m.runtime_args_base, m.semaphore_base
                ),
            ));
        }
        let pool = m.packet_header_pool_base as u64;
        let pool_end = pool + (PACKET_HEADER_POOL_SLOTS * PACKET_HEADER_POOL_SLOT_BYTES) as u64;
        let key = "mem.packet_header_pool_base";
        if !pool.is_multiple_of(16) {
            return Err(bad(key, pool, "must be 16-byte aligned".into()));
        }
        for (what, start, end) in [
            ("the runtime-arg slots at mem.runtime_args_base", m.runtime_args_base as u64, rta_end),
            ("the semaphores at mem.semaphore_base", m.semaphore_base as u64, sem_end),
        ] {
            if pool < end && start < pool_end {
                return Err(bad(
                    key,
                    pool,
                    format!("the header pools ({pool:#x}..{pool_end:#x}) overlap {what} ({start:#x}..{end:#x})"),
                ));
            }
        }
        if pool_end > m.l1_unreserved_base as u64 {
            return Err(bad(
                key,
                pool,
                format!(
                    "the header pools end at {pool_end:#x}, above mem.l1_unreserved_base = {:#x}",
                    m.l1_unreserved_base
                ),
            ));
        }
        if rta_end > m.l1_unreserved_base as u64 {
            return Err(bad(
                "mem.runtime_args_base",
                m.runtime_args_base as u64,
                format!(
                    "the runtime-arg slots end at {rta_end:#x}, above mem.l1_unreserved_base = {:#x}",
                    m.l1_unreserved_base
                ),
            ));
        }
        if !m.semaphore_base.is_multiple_of(4) {
            return Err(bad("mem.semaphore_base", m.semaphore_base as u64, "must be 4-byte aligned".into()));
        }
        let e = &self.eth;
        for (key, v) in
            [("eth.l1_unreserved_base", e.l1_unreserved_base), ("eth.app_sync_info_base", e.app_sync_info_base)]
        {
            if !v.is_multiple_of(16) {
                return Err(bad(key, v as u64, "must be a multiple of 16 bytes (an Ethernet word)".into()));
            }
        }
        let sync_end = e.app_sync_info_base as u64 + 16 + 16 * sim_tensix::ETH_SYNC_CHANNELS as u64;
        if sync_end > e.l1_unreserved_base as u64 {
            return Err(bad(
                "eth.app_sync_info_base",
                e.app_sync_info_base as u64,
                format!(
                    "the sync block ends at {sync_end:#x}, above eth.l1_unreserved_base = {:#x}",
                    e.l1_unreserved_base
                ),
            ));
        }
        if e.l1_unreserved_base >= e.l1_kernel_top {
            return Err(bad(
                "eth.l1_unreserved_base",
                e.l1_unreserved_base as u64,
                format!("must be below eth.l1_kernel_top = {:#x}", e.l1_kernel_top),
            ));
        }
        let f = &self.fabric;
        if !f.max_payload_bytes.is_multiple_of(16) {
            return Err(bad(
                "fabric.max_payload_bytes",
                f.max_payload_bytes as u64,
                "must be a multiple of 16 bytes".into(),
            ));
        }
        Ok(())
    }

    /// AICLK in MHz.
    pub fn clock_mhz(&self) -> u32 {
        self.clock_mhz
    }
}

#[cfg(test)]
mod tests;
