//! Where a chip description comes from: a built-in architecture, or a SoC descriptor file (with its core
//! descriptor found next to it in tt-metal's layout, given explicitly, or built in), plus harvesting.

use soc_descriptors::{
    Arch, Chip, ChipOptions, CoreDescriptor, DispatchAxis, SocDescriptor, SocError, builtin_core_descriptor,
    builtin_name, builtin_soc, whole_grid_core_descriptor,
};
use std::path::{Path, PathBuf};

/// The SoC descriptor to use.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SocSource {
    /// tensim's built-in description of an architecture.
    Builtin(Arch),
    /// A SoC descriptor YAML file. A relative path that does not exist is also looked up under
    /// `$TT_METAL_HOME/tt_metal/soc_descriptors/`.
    File(PathBuf),
}

/// Everything needed to build a [`Chip`].
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ChipSpec {
    /// The SoC descriptor.
    pub soc: SocSource,
    /// An explicit core descriptor file; `None` looks next to the SoC file, then uses the built-in one.
    pub core_desc: Option<PathBuf>,
    /// Harvested Tensix rows (WH, GS) or columns (BH) as a mask; `None`: the arch's usual card
    /// ([`default_harvest`]).
    pub harvest: Option<u32>,
    /// Hardware command queues (1 or 2; 0 means 1).
    pub num_hw_cqs: u32,
    /// Dispatch axis for axis-keyed core descriptors; `None` picks the only one present.
    pub dispatch_axis: Option<DispatchAxis>,
}

impl Default for SocSource {
    fn default() -> Self {
        SocSource::Builtin(Arch::WormholeB0)
    }
}

/// The harvesting of the card tensim models when none is given, for a chip of `arch` with `tensix_rows`
/// Tensix rows: a full Wormhole (10 rows) is an n150 (one Tensix row harvested — the last, NoC0 y = 11 —
/// which selects tt-metal's `nebula_x1` configuration: an 8×8 compute grid with the dispatch cores on the
/// row below, as on the cards the data-movement tables were measured on); anything else (Blackhole,
/// Grayskull, test chips) is unharvested. `--harvest 0` asks for an unharvested Wormhole (`galaxy`).
pub fn default_harvest(arch: Arch, tensix_rows: usize) -> u32 {
    match arch {
        Arch::WormholeB0 if tensix_rows == 10 => 1 << 9,
        _ => 0,
    }
}

impl ChipSpec {
    /// The built-in chip of `arch`, harvested as its usual card ([`default_harvest`]).
    pub fn builtin(arch: Arch) -> ChipSpec {
        ChipSpec { soc: SocSource::Builtin(arch), ..Default::default() }
    }

    /// The chip options for `soc`.
    fn options(&self, soc: &SocDescriptor) -> ChipOptions {
        ChipOptions {
            harvest_mask: self.harvest.unwrap_or_else(|| default_harvest(soc.arch, soc.tensix_rows().len())),
            num_hw_cqs: self.num_hw_cqs,
            dispatch_axis: self.dispatch_axis,
        }
    }

    /// Load and validate the chip.
    pub fn load(&self) -> Result<Chip, SocError> {
        let soc = match &self.soc {
            SocSource::Builtin(arch) => builtin_soc(*arch),
            SocSource::File(p) => SocDescriptor::load(&resolve_soc_path(p))?,
        };
        let arch = soc.arch;
        let (core, name) = match (&self.core_desc, &self.soc) {
            (Some(p), _) => (CoreDescriptor::load(p)?, p.display().to_string()),
            (None, SocSource::File(p)) => match sibling_core_descriptor(&resolve_soc_path(p)) {
                Some(sib) => (CoreDescriptor::load(&sib)?, sib.display().to_string()),
                None => (builtin_core_descriptor(arch), builtin_name(arch)),
            },
            (None, SocSource::Builtin(_)) => (builtin_core_descriptor(arch), builtin_name(arch)),
        };
        let options = self.options(&soc);
        match Chip::new(soc.clone(), &core, &name, options) {
            Ok(chip) => Ok(chip),
            // A file tt-metal has no core descriptor for (tt-umd's 1x1 test chip): when none was named
            // explicitly and the built-in one does not fit its worker grid, every worker computes.
            Err(e)
                if self.core_desc.is_none()
                    && matches!(self.soc, SocSource::File(_))
                    && e.message.contains("outside the") =>
            {
                tracing::warn!("{e}; using the whole worker grid for compute");
                let name = format!("whole worker grid (no {arch} core descriptor fits this chip)");
                Chip::new(soc, &whole_grid_core_descriptor(arch), &name, options)
            }
            Err(e) => Err(e),
        }
    }

    /// A short description of the SoC source for reports.
    pub fn soc_name(&self) -> String {
        match &self.soc {
            SocSource::Builtin(a) => builtin_name(*a),
            SocSource::File(p) => resolve_soc_path(p).display().to_string(),
        }
    }
}

fn resolve_soc_path(p: &Path) -> PathBuf {
    if p.exists() || p.is_absolute() {
        return p.to_path_buf();
    }
    if let Some(home) = std::env::var_os("TT_METAL_HOME") {
        let cand = PathBuf::from(home).join("tt_metal/soc_descriptors").join(p);
        if cand.exists() {
            return cand;
        }
    }
    p.to_path_buf()
}

/// tt-metal keeps `soc_descriptors/X.yaml` and `core_descriptors/X.yaml` side by side.
fn sibling_core_descriptor(soc: &Path) -> Option<PathBuf> {
    let dir = soc.parent()?;
    if dir.file_name()? != "soc_descriptors" {
        return None;
    }
    let cand = dir.parent()?.join("core_descriptors").join(soc.file_name()?);
    cand.is_file().then_some(cand)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtin_spec_loads() {
        let chip = ChipSpec::builtin(Arch::WormholeB0).load().unwrap();
        assert_eq!(chip.soc().workers.len(), 80);
        assert_eq!(chip.core_source(), "built-in wormhole_b0");
    }

    #[test]
    fn sibling_lookup_follows_tt_metal_layout() {
        let soc = Path::new("/x/tt_metal/soc_descriptors/wormhole_b0_80_arch.yaml");
        assert_eq!(sibling_core_descriptor(soc), None); // does not exist on disk
        assert_eq!(sibling_core_descriptor(Path::new("/x/other/wh.yaml")), None);
    }
}
