//! Tests of the parameter table, the data files and the checks on every override.

use super::*;
use sim_core::Cycles;

#[test]
fn every_arch_file_loads_with_a_source_for_every_key() {
    for arch in Arch::ALL {
        let p = Params::builtin(arch);
        for e in p.entries() {
            assert!(!e.source.trim().is_empty(), "{arch}: {} needs a source", e.key);
        }
    }
    let wh = Params::builtin(Arch::WormholeB0);
    assert_eq!(wh.noc.flit_bytes, 32);
    assert_eq!(wh.clock_mhz, 1000);
    assert_eq!(Params::builtin(Arch::Blackhole).noc.max_burst_bytes, 16384);
}

#[test]
fn every_key_is_listed_once_and_its_range_fits_its_type() {
    let mut names: Vec<&str> = KEYS.iter().map(|k| k.name).collect();
    names.sort();
    names.dedup();
    assert_eq!(names.len(), KEYS.len(), "a key appears twice");
    for k in KEYS {
        assert!(k.min <= k.max, "{}: empty range", k.name);
        assert!(k.max <= k.type_max, "{}: max {} does not fit the field's type", k.name, k.max);
    }
    // Setting a key moves exactly its own field.
    let base = Params::builtin(Arch::WormholeB0);
    for (i, k) in KEYS.iter().enumerate() {
        let mut p = base.clone();
        let v = if (k.get)(&p) == k.max { k.min } else { k.max };
        (k.set)(&mut p, v);
        assert_eq!((k.get)(&p), v, "{}", k.name);
        for (j, other) in KEYS.iter().enumerate() {
            if i != j {
                assert_eq!((other.get)(&p), (other.get)(&base), "setting {} changed {}", k.name, other.name);
            }
        }
    }
}

#[test]
fn overrides_are_checked_and_echo_what_was_typed() {
    let mut p = Params::builtin(Arch::WormholeB0);
    p.set("--set", "noc.hop_cycles=11").unwrap();
    assert_eq!(p.noc.hop, Cycles(11));
    assert_eq!(p.source("noc.hop_cycles"), Some("--set noc.hop_cycles=11"));
    let cases = [
        (
            "noc.hop_cylces=11",
            "--set: noc.hop_cylces = 11: unknown parameter; known keys include noc.hop_cycles, noc.mcast_reserve_hop_cycles",
        ),
        ("noc.hop_cycles", "--set: noc.hop_cycles: expected KEY=VALUE"),
        ("noc.hop_cycles=fast", "--set: noc.hop_cycles = fast: not a number"),
        ("noc.hop_cycles=2.5", "--set: noc.hop_cycles = 2.5: must be a whole number"),
        ("noc.hop_cycles=-3", "--set: noc.hop_cycles = -3: must not be negative"),
        (
            "noc.hop_cycles=18446744073709551615",
            "--set: noc.hop_cycles = 18446744073709551615: out of range; allowed 0..=1000000",
        ),
        (
            "noc.hop_cycles=99999999999999999999999",
            "--set: noc.hop_cycles = 99999999999999999999999: out of range; allowed 0..=1000000",
        ),
        (
            "mem.l1_unreserved_base=4295069696",
            "--set: mem.l1_unreserved_base = 4295069696: out of range; allowed 0..=4294967295",
        ),
        (
            "mem.l1_alignment_bytes=0",
            "--set: mem.l1_alignment_bytes = 0: out of range; allowed a power of two in 1..=4096",
        ),
        ("mem.l1_alignment_bytes=24", "--set: mem.l1_alignment_bytes = 24: must be a power of two in 1..=4096"),
        ("noc.flit_bytes=0", "--set: noc.flit_bytes = 0: out of range"),
        ("clock_mhz=0", "--set: clock_mhz = 0: out of range; allowed 1..=100000"),
        ("dram.channel_bytes_per_kcycle=0", "--set: dram.channel_bytes_per_kcycle = 0: out of range"),
        ("noc.inject_cycles_per_kflit=0", "--set: noc.inject_cycles_per_kflit = 0: out of range"),
    ];
    for (input, want) in cases {
        let e = p.set("--set", input).unwrap_err().to_string();
        assert!(e.starts_with(want), "{input}: got `{e}`, want `{want}`");
    }
    assert_eq!(p.noc.hop, Cycles(11), "a rejected override leaves the old value");
    assert_eq!(p.set("--set", "noc.hop_cycles=0x10"), Ok(()));
    assert_eq!(p.noc.hop, Cycles(16));
}

#[test]
fn relations_between_keys_are_checked_after_overrides() {
    let mut p = Params::builtin(Arch::WormholeB0);
    p.set("--set", "noc.max_burst_bytes=8200").unwrap();
    let e = p.validate("--set").unwrap_err().to_string();
    assert!(e.contains("noc.max_burst_bytes = 8200: must be a whole number of 32-byte flits"), "{e}");
    let mut p = Params::builtin(Arch::WormholeB0);
    p.set("--set", "mem.semaphore_base=102300").unwrap();
    let e = p.validate("--set").unwrap_err().to_string();
    assert!(e.contains("semaphores end at"), "{e}");
}

#[test]
fn data_files_must_name_every_key_with_a_number() {
    let text = builtin_text(Arch::WormholeB0);
    let without_hop: String = text.lines().filter(|l| !l.starts_with("noc.hop_cycles")).collect::<Vec<_>>().join("\n");
    let e = Params::from_data_file(Arch::WormholeB0, &without_hop, "x.yaml").unwrap_err();
    assert_eq!(e.to_string(), "x.yaml: noc.hop_cycles: missing from the data file");
    let bad = text.replace("clock_mhz: { value: 1000,", "clock_mhz: { value: lots,");
    let e = Params::from_data_file(Arch::WormholeB0, &bad, "x.yaml").unwrap_err();
    assert_eq!(e.to_string(), "x.yaml: clock_mhz = lots: not a number");
}

#[test]
fn override_files_take_plain_values_or_value_and_source() {
    let dir = std::env::temp_dir().join(format!("tensim-params-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join("o.yaml");
    std::fs::write(&f, "noc.hop_cycles: 12\napi.noc_cmd_cycles: { value: 30, source: \"my fit\" }\n").unwrap();
    let mut p = Params::builtin(Arch::WormholeB0);
    p.apply_file(&f).unwrap();
    assert_eq!((p.noc.hop, p.api.noc_cmd), (Cycles(12), Cycles(30)));
    assert_eq!(p.source("api.noc_cmd_cycles"), Some("my fit"));
    std::fs::write(&f, "noc.hop_cycles: 1.5\n").unwrap();
    let e = p.apply_file(&f).unwrap_err().to_string();
    assert!(e.ends_with("o.yaml: noc.hop_cycles = 1.5: must be a whole number"), "{e}");
    std::fs::write(&f, "noc.hop_cycles: { value: 3, sauce: x }\n").unwrap();
    let e = p.apply_file(&f).unwrap_err().to_string();
    assert!(e.contains("unknown field `sauce`"), "{e}");
    std::fs::remove_dir_all(&dir).unwrap();
    let e = p.apply_file(Path::new("/dev/zero")).unwrap_err().to_string();
    assert!(e.contains("not a regular file"), "{e}");
}

#[test]
fn an_unknown_key_suggests_the_keys_sharing_most_words_first() {
    let mut p = Params::builtin(Arch::Blackhole);
    // The key's name before it became the serving time of a read request.
    let e = p.set("--set", "noc.read_response_cycles=35").unwrap_err().to_string();
    assert!(e.contains("known keys include noc.read_serve_cycles, "), "{e}");
    // Only keys of the same group, at most 12.
    let e = p.set("--set", "dram.bandwidth=1").unwrap_err().to_string();
    assert!(e.contains("known keys include dram."), "{e}");
    assert!(!e.contains("noc."), "{e}");
    let listed = e.split("include ").nth(1).unwrap().split(" (").next().unwrap().split(", ").count();
    assert!(listed <= 12, "{e}");
}
