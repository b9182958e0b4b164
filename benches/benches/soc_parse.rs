//! Speed bench: parse and validate one SoC descriptor (and one core descriptor), and build a chip from them.
//! Run: `cargo bench -p benches --bench soc_parse`. Uses `$TENSIM_SOC_DIR` (default ../shared/soc) for the
//! real files; the built-in descriptions are always measured.

use benches::measure;
use soc_descriptors::{Arch, Chip, ChipOptions, CoreDescriptor, SocDescriptor, builtin_core_descriptor, builtin_soc};
use std::path::PathBuf;
use std::time::Duration;

fn main() {
    let budget = Duration::from_millis(500);
    let dir = std::env::var_os("TENSIM_SOC_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/soc"));
    for name in ["wormhole_b0_80_arch.yaml", "blackhole_140_arch.yaml", "grayskull_120_arch.yaml"] {
        let soc = dir.join("tt-metal/soc_descriptors").join(name);
        let core = dir.join("tt-metal/core_descriptors").join(name);
        match (std::fs::read_to_string(&soc), std::fs::read_to_string(&core)) {
            (Ok(s), Ok(c)) => {
                println!(
                    "{}",
                    measure(&format!("parse+validate SoC {name}"), budget, || {
                        SocDescriptor::from_yaml_str(&s, name).unwrap()
                    })
                );
                println!(
                    "{}",
                    measure(&format!("parse+validate core {name}"), budget, || {
                        CoreDescriptor::from_yaml_str(&c, name).unwrap()
                    })
                );
                println!(
                    "{}",
                    measure(&format!("SoC+core+chip {name}"), budget, || {
                        let soc = SocDescriptor::from_yaml_str(&s, name).unwrap();
                        let cd = CoreDescriptor::from_yaml_str(&c, name).unwrap();
                        Chip::new(soc, &cd, name, ChipOptions::default()).unwrap()
                    })
                );
            }
            _ => println!("(skipping {name}: not found under {})", dir.display()),
        }
    }
    for arch in Arch::ALL {
        println!(
            "{}",
            measure(&format!("built-in chip {arch}"), budget, || {
                Chip::new(builtin_soc(arch), &builtin_core_descriptor(arch), "b", ChipOptions::default()).unwrap()
            })
        );
    }
}
