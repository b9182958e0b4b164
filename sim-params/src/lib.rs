//! Per-arch parameters, typed once and checked once. The data files in `sim-params/arch/` (one per chip,
//! every value with a source note) and every override (`KEY=VALUE` text, a YAML file of overrides) resolve into
//! [`Params`]: typed structs (`NocParams`, `DramParams`, `MemLayout`, `ApiCosts` with `ComputeParams`, …)
//! whose every field has a key in `keys` with an allowed range. A value outside its range, a fraction,
//! a negative number or one too wide for its integer type is a [`ParamError`] echoing what was written; the
//! simulation never looks a parameter up by name.

mod error;
mod keys;
mod raw;
mod typed;

pub use error::{ParamError, ParamProblem};
pub use typed::*;

use keys::{KEYS, KeySpec};
use raw::{Entry, Override, RawValue};
pub use sim_noc::{DramParams, NocModelKind, NocParams};
use sim_tensix::ApiCosts;
use soc_descriptors::{
    Arch,
    yaml::{UniqueMap, parse_yaml},
};
use std::path::Path;

fn builtin_text(arch: Arch) -> &'static str {
    match arch {
        Arch::WormholeB0 => include_str!("../arch/wormhole_b0.yaml"),
        Arch::Blackhole => include_str!("../arch/blackhole.yaml"),
        Arch::Grayskull => include_str!("../arch/grayskull.yaml"),
    }
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
        let esem = e.semaphore_base as u64;
        let esem_end = esem + (SEMAPHORES * SEMAPHORE_BYTES) as u64;
        if !esem.is_multiple_of(16) {
            return Err(bad("eth.semaphore_base", esem, "must be a multiple of 16 bytes (an Ethernet word)".into()));
        }
        if esem_end > e.l1_unreserved_base as u64 {
            return Err(bad(
                "eth.semaphore_base",
                esem,
                format!(
                    "the {SEMAPHORES} semaphores end at {esem_end:#x}, above eth.l1_unreserved_base = {:#x}",
                    e.l1_unreserved_base
                ),
            ));
        }
        if esem < sync_end && (e.app_sync_info_base as u64) < esem_end {
            return Err(bad(
                "eth.semaphore_base",
                esem,
                format!(
                    "the semaphores ({esem:#x}..{esem_end:#x}) overlap the sync block at eth.app_sync_info_base \
                     ({:#x}..{sync_end:#x})",
                    e.app_sync_info_base
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
