//! Per-arch parameters: the data files in `sim-device/arch/` (one per chip, every value with a source
//! note), overridable per key (`--set noc.hop_cycles=9`) or from a YAML file of overrides. Typed parameter
//! structs for the hardware crates are built from here.

use serde::Deserialize;
use sim_core::Cycles;
use sim_noc::{DramParams, NocParams};
use sim_tensix::ApiCosts;
use sim_tensix::params::{ComputeCosts, SfpuCosts};
use soc_descriptors::{Arch, yaml::parse_yaml};
use std::collections::BTreeMap;
use std::path::Path;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Entry {
    value: f64,
    source: String,
}

#[derive(Debug, Deserialize)]
#[serde(untagged)]
enum Override {
    Plain(f64),
    Full { value: f64, source: Option<String> },
}

/// One parameter: its value and where the value comes from.
#[derive(Debug, Clone, PartialEq)]
pub struct Param {
    /// The value.
    pub value: f64,
    /// The source note (or where the override came from).
    pub source: String,
}

/// Memory layout parameters.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MemParams {
    /// `L1_ALIGNMENT`, bytes.
    pub l1_alignment: u32,
    /// `DRAM_ALIGNMENT`, bytes.
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
    /// First allocatable DRAM address in every bank, bytes.
    pub dram_unreserved_base: u64,
    /// Number of CB indices per core.
    pub num_circular_buffers: u32,
    /// Cycles from a write committing at its destination to its ack leaving.
    pub ack_turnaround: Cycles,
    /// NIU read latency of L1 for a read response.
    pub l1_noc_read_latency: Cycles,
    /// NIU write latency of arriving data into L1.
    pub l1_noc_write_latency: Cycles,
}

/// The parameters of one chip.
#[derive(Debug, Clone, PartialEq)]
pub struct ArchParams {
    arch: Arch,
    entries: BTreeMap<String, Param>,
}

fn builtin_text(arch: Arch) -> &'static str {
    match arch {
        Arch::WormholeB0 => include_str!("../arch/wormhole_b0.yaml"),
        Arch::Blackhole => include_str!("../arch/blackhole.yaml"),
        Arch::Grayskull => include_str!("../arch/grayskull.yaml"),
    }
}

/// Keys that must hold whole numbers (all keys today; rates will be fractional).
fn must_be_integer(key: &str) -> bool {
    !key.ends_with("_per_cycle") && !key.ends_with("_fraction")
}

impl ArchParams {
    /// The built-in parameters of `arch`.
    pub fn builtin(arch: Arch) -> ArchParams {
        let name = format!("built-in {arch} parameters");
        let raw: BTreeMap<String, Entry> = parse_yaml(builtin_text(arch), &name).unwrap_or_else(|e| panic!("{e}"));
        let entries = raw.into_iter().map(|(k, e)| (k, Param { value: e.value, source: e.source })).collect();
        let p = ArchParams { arch, entries };
        if let Err(e) = p.validate() {
            panic!("{name}: {e}");
        }
        p
    }

    /// The architecture.
    pub fn arch(&self) -> Arch {
        self.arch
    }

    /// Every parameter, by key.
    pub fn entries(&self) -> &BTreeMap<String, Param> {
        &self.entries
    }

    fn validate(&self) -> Result<(), String> {
        for (k, p) in &self.entries {
            if !p.value.is_finite() || p.value < 0.0 {
                return Err(format!("{k}: must be a non-negative number, got {}", p.value));
            }
            if must_be_integer(k) && p.value.fract() != 0.0 {
                return Err(format!("{k}: must be a whole number, got {}", p.value));
            }
        }
        Ok(())
    }

    fn unknown_key(&self, key: &str) -> String {
        let prefix = key.split('.').next().unwrap_or("");
        let similar: Vec<&str> =
            self.entries.keys().filter(|k| k.starts_with(prefix)).map(|k| k.as_str()).take(12).collect();
        let list =
            if similar.is_empty() { self.entries.keys().map(|k| k.as_str()).collect::<Vec<_>>() } else { similar };
        format!("unknown parameter `{key}`; known keys include: {}", list.join(", "))
    }

    /// Override one parameter from `KEY=VALUE` text.
    pub fn set(&mut self, assignment: &str) -> Result<(), String> {
        let (k, v) = assignment
            .split_once('=')
            .ok_or_else(|| format!("`{assignment}` is not KEY=VALUE (e.g. --set noc.hop_cycles=9)"))?;
        let (k, v) = (k.trim(), v.trim());
        let value: f64 = v.parse().map_err(|_| format!("--set {k}: `{v}` is not a number"))?;
        self.set_value(k, value, format!("--set {k}={v}"))
    }

    fn set_value(&mut self, key: &str, value: f64, source: String) -> Result<(), String> {
        if !self.entries.contains_key(key) {
            return Err(self.unknown_key(key));
        }
        let old = self.entries.insert(key.to_string(), Param { value, source });
        if let Err(e) = self.validate() {
            self.entries.insert(key.to_string(), old.expect("present"));
            return Err(e);
        }
        Ok(())
    }

    /// Apply a YAML file of overrides: `key: value` or `key: { value: V, source: "…" }`.
    pub fn apply_file(&mut self, path: &Path) -> Result<(), String> {
        let name = path.display().to_string();
        let text = std::fs::read_to_string(path).map_err(|e| format!("{name}: cannot read parameter file: {e}"))?;
        let raw: BTreeMap<String, Override> = parse_yaml(&text, &name).map_err(|e| e.to_string())?;
        for (k, o) in raw {
            let (v, src) = match o {
                Override::Plain(v) => (v, name.clone()),
                Override::Full { value, source } => (value, source.unwrap_or_else(|| name.clone())),
            };
            self.set_value(&k, v, src).map_err(|e| format!("{name}: {e}"))?;
        }
        Ok(())
    }

    /// A whole-number parameter.
    pub fn u64(&self, key: &str) -> u64 {
        self.entries
            .get(key)
            .unwrap_or_else(|| panic!("parameter {key} missing from the {} data file", self.arch))
            .value as u64
    }

    /// A cycle-count parameter.
    pub fn cycles(&self, key: &str) -> Cycles {
        Cycles(self.u64(key))
    }

    /// AICLK in MHz.
    pub fn clock_mhz(&self) -> u32 {
        self.u64("clock_mhz") as u32
    }

    /// NoC parameters.
    pub fn noc(&self) -> NocParams {
        NocParams {
            flit_bytes: self.u64("noc.flit_bytes") as u32,
            max_burst_bytes: self.u64("noc.max_burst_bytes") as u32,
            header_flits: self.u64("noc.header_flits") as u32,
            hop: self.cycles("noc.hop_cycles"),
            niu_to_router: self.cycles("noc.niu_to_router_cycles"),
            router_to_niu: self.cycles("noc.router_to_niu_cycles"),
            inject_cycles_per_kflit: self.u64("noc.inject_cycles_per_kflit") as u32,
        }
    }

    /// DRAM parameters.
    pub fn dram(&self) -> DramParams {
        DramParams {
            read_latency: self.cycles("dram.read_latency_cycles"),
            write_latency: self.cycles("dram.write_latency_cycles"),
            channel_bytes_per_kcycle: self.u64("dram.channel_bytes_per_kcycle"),
            gddr_per_channel: self.u64("dram.gddr_per_channel") as u32,
        }
    }

    /// Kernel API costs.
    pub fn api_costs(&self) -> ApiCosts {
        ApiCosts {
            arg_read: self.cycles("api.arg_read_cycles"),
            cb_poll: self.cycles("api.cb_poll_cycles"),
            cb_update: self.cycles("api.cb_update_cycles"),
            local_lookup: self.cycles("api.local_lookup_cycles"),
            addr_gen: self.cycles("api.addr_gen_cycles"),
            noc_cmd: self.cycles("api.noc_cmd_cycles"),
            barrier_poll: self.cycles("api.barrier_poll_cycles"),
            l1_load: self.cycles("api.l1_load_cycles"),
            l1_store: self.cycles("api.l1_store_cycles"),
            cb_wake: self.cycles("api.cb_wake_cycles"),
            l1_wake: self.cycles("api.l1_wake_cycles"),
            barrier_wake: self.cycles("api.barrier_wake_cycles"),
            kernel_start: self.cycles("api.kernel_start_cycles"),
            zone: self.cycles("api.zone_cycles"),
            compute: self.compute_costs(),
        }
    }

    /// Compute engine costs.
    pub fn compute_costs(&self) -> ComputeCosts {
        let instr = |op: &str| {
            (self.u64(&format!("compute.sfpu.{op}_instr")), self.u64(&format!("compute.sfpu.{op}_approx_instr")))
        };
        ComputeCosts {
            init: self.cycles("compute.init_cycles"),
            unpack_base: self.cycles("compute.unpack_base_cycles"),
            unpack_bytes_per_cycle: self.u64("compute.unpack_bytes_per_cycle").max(1),
            unpack_ab_bytes_per_cycle: self.u64("compute.unpack_ab_bytes_per_cycle").max(1),
            math_base: self.cycles("compute.math_base_cycles"),
            matmul_per_phase: self.cycles("compute.matmul_cycles_per_phase"),
            eltwise: self.cycles("compute.eltwise_cycles"),
            reduce: self.cycles("compute.reduce_cycles"),
            datacopy: self.cycles("compute.datacopy_cycles"),
            sfpu_per_instr: self.cycles("compute.sfpu_cycles_per_instr"),
            sfpu: SfpuCosts {
                exp: instr("exp"),
                recip: instr("recip"),
                sqrt: instr("sqrt"),
                rsqrt: instr("rsqrt"),
                log: instr("log"),
                sigmoid: instr("sigmoid"),
                tanh: instr("tanh"),
                gelu: instr("gelu"),
                simple: self.u64("compute.sfpu.simple_instr"),
                power_per_mul: self.u64("compute.sfpu.power_mul_instr"),
                binary: self.u64("compute.sfpu.binary_instr"),
                div: self.u64("compute.sfpu.div_instr"),
            },
            pack_base: self.cycles("compute.pack_base_cycles"),
            pack_bytes_per_cycle: self.u64("compute.pack_bytes_per_cycle").max(1),
            sync: self.cycles("compute.sync_cycles"),
            handoff: self.cycles("compute.handoff_cycles"),
        }
    }

    /// Memory layout parameters.
    pub fn mem(&self) -> MemParams {
        MemParams {
            l1_alignment: self.u64("mem.l1_alignment_bytes") as u32,
            dram_alignment: self.u64("mem.dram_alignment_bytes") as u32,
            l1_read_alignment: self.u64("mem.l1_read_alignment_bytes") as u32,
            dram_read_alignment: self.u64("mem.dram_read_alignment_bytes") as u32,
            write_alignment: self.u64("mem.write_alignment_bytes") as u32,
            l1_unreserved_base: self.u64("mem.l1_unreserved_base") as u32,
            semaphore_base: self.u64("mem.semaphore_base") as u32,
            dram_unreserved_base: self.u64("mem.dram_unreserved_base"),
            num_circular_buffers: self.u64("mem.num_circular_buffers") as u32,
            ack_turnaround: self.cycles("noc.ack_turnaround_cycles"),
            l1_noc_read_latency: self.cycles("l1.noc_read_latency_cycles"),
            l1_noc_write_latency: self.cycles("l1.noc_write_latency_cycles"),
        }
    }

    /// Watchdog: the longest run, in cycles.
    pub fn max_cycles(&self) -> u64 {
        self.u64("sim.max_cycles")
    }

    /// Host stack bytes per kernel thread.
    pub fn stack_bytes(&self) -> usize {
        self.u64("sim.stack_bytes") as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_arch_file_loads_and_has_the_same_keys() {
        let wh = ArchParams::builtin(Arch::WormholeB0);
        for arch in Arch::ALL {
            let p = ArchParams::builtin(arch);
            assert_eq!(p.entries.keys().collect::<Vec<_>>(), wh.entries.keys().collect::<Vec<_>>(), "{arch}");
            assert!(p.entries.values().all(|e| !e.source.trim().is_empty()), "{arch}: every value needs a source");
            // Typed builders find every key.
            let _ = (p.noc(), p.dram(), p.api_costs(), p.mem(), p.clock_mhz(), p.max_cycles(), p.stack_bytes());
        }
        assert_eq!(wh.noc().flit_bytes, 32);
        assert_eq!(ArchParams::builtin(Arch::Blackhole).noc().max_burst_bytes, 16384);
    }

    #[test]
    fn overrides_are_checked() {
        let mut p = ArchParams::builtin(Arch::WormholeB0);
        p.set("noc.hop_cycles=11").unwrap();
        assert_eq!(p.noc().hop, Cycles(11));
        assert_eq!(p.entries()["noc.hop_cycles"].source, "--set noc.hop_cycles=11");
        assert!(p.set("noc.hop_cylces=11").unwrap_err().contains("unknown parameter `noc.hop_cylces`"));
        assert!(p.set("noc.hop_cycles").unwrap_err().contains("KEY=VALUE"));
        assert!(p.set("noc.hop_cycles=fast").unwrap_err().contains("not a number"));
        assert!(p.set("noc.hop_cycles=2.5").unwrap_err().contains("whole number"));
        assert_eq!(p.noc().hop, Cycles(11), "a rejected override leaves the old value");
    }
}
