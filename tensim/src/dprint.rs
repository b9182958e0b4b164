//! Where kernels' DPRINT lines go, as tt-metal's print server decides it from the environment: each line
//! prefixed `<device>:(x=<X>,y=<Y>):<RISC>: ` (unless `TT_METAL_DPRINT_PREPEND_DEVICE_CORE_RISC=0`), only
//! the cores of `TT_METAL_DPRINT_CORES`, the RISCs of `TT_METAL_DPRINT_RISCVS` and the chips of
//! `TT_METAL_DPRINT_CHIPS` when they are set, on standard output or appended to `TT_METAL_DPRINT_FILE`.
//! Unlike silicon, tensim prints every core when `TT_METAL_DPRINT_CORES` is unset (a simulator run is a
//! debugging run). `TT_METAL_DEVICE_PRINT`, which chose between the stream and the format-string backends
//! during tt-metal's transition, needs no setting here: tensim's headers take both forms in every kernel.

use crate::error::{CliError, CliResult};
use sim_device::DprintLine;
use sim_device::Risc;
use std::io::Write as _;

/// Which cores print.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Cores {
    All,
    /// Logical rectangles `(x0,y0)-(x1,y1)` (a single core is a 1x1 rectangle).
    Ranges(Vec<((u32, u32), (u32, u32))>),
}

/// The print server's settings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DprintSettings {
    cores: Cores,
    riscs: Option<Vec<Risc>>,
    chips: Option<Vec<u32>>,
    prefix: bool,
    file: Option<std::path::PathBuf>,
}

fn bad(var: &str, value: &str, what: &str) -> CliError {
    CliError::User(format!("{var}={value}: {what}"))
}

fn parse_xy(var: &str, value: &str, s: &str) -> CliResult<(u32, u32)> {
    let inner = s.trim().strip_prefix('(').and_then(|r| r.strip_suffix(')'));
    let (x, y) = inner
        .and_then(|i| i.split_once(','))
        .ok_or_else(|| bad(var, value, &format!("`{s}` is not a logical core (x,y)")))?;
    let n = |t: &str| {
        t.trim().parse::<u32>().map_err(|_| bad(var, value, &format!("`{t}` in `{s}` is not a whole number")))
    };
    Ok((n(x)?, n(y)?))
}

impl DprintSettings {
    /// The settings of this process's environment.
    pub fn from_env() -> CliResult<DprintSettings> {
        Self::from_vars(|k| std::env::var(k).ok())
    }

    /// The settings the variables `get` returns give.
    pub fn from_vars(get: impl Fn(&str) -> Option<String>) -> CliResult<DprintSettings> {
        let cores = match get("TT_METAL_DPRINT_CORES") {
            None => Cores::All,
            Some(v) => Self::parse_cores(&v)?,
        };
        let riscs = get("TT_METAL_DPRINT_RISCVS").map(|v| Self::parse_riscs(&v)).transpose()?;
        let chips = match get("TT_METAL_DPRINT_CHIPS") {
            None => None,
            Some(v) if v.trim().eq_ignore_ascii_case("all") => None,
            Some(v) => Some(
                v.split(',')
                    .map(|c| {
                        c.trim().parse::<u32>().map_err(|_| {
                            bad("TT_METAL_DPRINT_CHIPS", &v, &format!("`{c}` is not a device id (ids, or all)"))
                        })
                    })
                    .collect::<CliResult<Vec<_>>>()?,
            ),
        };
        let prefix = match get("TT_METAL_DPRINT_PREPEND_DEVICE_CORE_RISC").as_deref() {
            None => get("TT_METAL_DPRINT_ONE_FILE_PER_RISC").as_deref() != Some("1"),
            Some("0") => false,
            Some("1") => true,
            Some(v) => return Err(bad("TT_METAL_DPRINT_PREPEND_DEVICE_CORE_RISC", v, "use 0 or 1")),
        };
        let file = get("TT_METAL_DPRINT_FILE").filter(|f| !f.is_empty()).map(std::path::PathBuf::from);
        Ok(DprintSettings { cores, riscs, chips, prefix, file })
    }

    fn parse_cores(v: &str) -> CliResult<Cores> {
        let var = "TT_METAL_DPRINT_CORES";
        let t = v.trim();
        if t.eq_ignore_ascii_case("all") || t.eq_ignore_ascii_case("worker") {
            return Ok(Cores::All);
        }
        if t.eq_ignore_ascii_case("dispatch") {
            // tensim's dispatch is not a kernel that prints: nothing of the program's.
            return Ok(Cores::Ranges(Vec::new()));
        }
        // A list of cores `(x,y)` and rectangles `(x0,y0)-(x1,y1)`, separated by commas between the parentheses.
        let mut ranges = Vec::new();
        let mut rest = t;
        while !rest.is_empty() {
            let end = rest.find(')').ok_or_else(|| bad(var, v, "unbalanced parentheses"))? + 1;
            let a = parse_xy(var, v, &rest[..end])?;
            rest = rest[end..].trim_start();
            let b = if let Some(r) = rest.strip_prefix('-') {
                let r = r.trim_start();
                let end = r.find(')').ok_or_else(|| bad(var, v, "unbalanced parentheses"))? + 1;
                let b = parse_xy(var, v, &r[..end])?;
                rest = r[end..].trim_start();
                b
            } else {
                a
            };
            ranges.push(((a.0.min(b.0), a.1.min(b.1)), (a.0.max(b.0), a.1.max(b.1))));
            rest = rest.strip_prefix(',').unwrap_or(rest).trim_start();
        }
        if ranges.is_empty() {
            return Err(bad(var, v, "name cores as (x,y) or (x0,y0)-(x1,y1), or all"));
        }
        Ok(Cores::Ranges(ranges))
    }

    fn parse_riscs(v: &str) -> CliResult<Vec<Risc>> {
        let mut out = Vec::new();
        for name in v.split(',') {
            let add: &[Risc] = match name.trim().to_ascii_uppercase().as_str() {
                "BR" => &[Risc::Brisc],
                "NC" => &[Risc::Ncrisc],
                "TR0" => &[Risc::Trisc0],
                "TR1" => &[Risc::Trisc1],
                "TR2" => &[Risc::Trisc2],
                "TR*" => &[Risc::Trisc0, Risc::Trisc1, Risc::Trisc2],
                "ER0" | "ER" => &[Risc::Erisc0],
                "ER1" => &[Risc::Erisc1],
                "ER*" => &[Risc::Erisc0, Risc::Erisc1],
                _ => {
                    return Err(bad(
                        "TT_METAL_DPRINT_RISCVS",
                        v,
                        &format!("`{name}` is not a RISC (BR, NC, TR0, TR1, TR2, TR*, ER0, ER1, ER*)"),
                    ));
                }
            };
            out.extend_from_slice(add);
        }
        Ok(out)
    }

    fn shows(&self, device: u32, l: &DprintLine) -> bool {
        let core = match &self.cores {
            Cores::All => true,
            Cores::Ranges(r) => {
                r.iter().any(|(a, b)| (a.0..=b.0).contains(&l.core.0) && (a.1..=b.1).contains(&l.core.1))
            }
        };
        core && self.riscs.as_ref().is_none_or(|r| r.contains(&l.risc))
            && self.chips.as_ref().is_none_or(|c| c.contains(&device))
    }

    /// The lines of a run on `device`, as the print server shows them.
    pub fn render(&self, device: u32, lines: &[DprintLine]) -> Vec<String> {
        lines
            .iter()
            .filter(|l| self.shows(device, l))
            .map(|l| if self.prefix { l.prefixed(device) } else { l.text.clone() })
            .collect()
    }

    /// Print a run's lines: on standard output, or appended to `TT_METAL_DPRINT_FILE`.
    pub fn emit(&self, device: u32, lines: &[DprintLine]) -> CliResult<()> {
        let shown = self.render(device, lines);
        match &self.file {
            None => {
                for l in shown {
                    crate::out::line(format_args!("{l}"))?;
                }
            }
            Some(path) if !shown.is_empty() => {
                let mut f = std::fs::OpenOptions::new()
                    .create(true)
                    .append(true)
                    .open(path)
                    .map_err(|e| CliError::User(format!("TT_METAL_DPRINT_FILE={}: {e}", path.display())))?;
                for l in shown {
                    writeln!(f, "{l}")
                        .map_err(|e| CliError::User(format!("TT_METAL_DPRINT_FILE={}: {e}", path.display())))?;
                }
            }
            Some(_) => {}
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sim_device::Cycle;

    fn line(core: (u32, u32), risc: Risc) -> DprintLine {
        DprintLine { at: Cycle(5), core, noc_xy: (18 + core.0, 18 + core.1), risc, text: "hi".into() }
    }

    fn settings(vars: &[(&str, &str)]) -> CliResult<DprintSettings> {
        let vars: Vec<(String, String)> = vars.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
        DprintSettings::from_vars(|k| vars.iter().find(|(n, _)| n == k).map(|(_, v)| v.clone()))
    }

    #[test]
    fn lines_carry_tt_metals_prefix_by_default() {
        let s = settings(&[]).unwrap();
        assert_eq!(s.render(0, &[line((0, 0), Risc::Brisc)]), vec!["0:(x=18,y=18):BR: hi"]);
        assert_eq!(s.render(3, &[line((1, 2), Risc::Trisc1)]), vec!["3:(x=19,y=20):TR1: hi"]);
        let s = settings(&[("TT_METAL_DPRINT_PREPEND_DEVICE_CORE_RISC", "0")]).unwrap();
        assert_eq!(s.render(0, &[line((0, 0), Risc::Brisc)]), vec!["hi"]);
    }

    #[test]
    fn cores_riscs_and_chips_filter() {
        let all = [line((0, 0), Risc::Brisc), line((1, 1), Risc::Ncrisc), line((3, 0), Risc::Trisc2)];
        let s = settings(&[("TT_METAL_DPRINT_CORES", "(0,0),(1,0)-(3,1)")]).unwrap();
        assert_eq!(s.render(0, &all).len(), 3);
        let s = settings(&[("TT_METAL_DPRINT_CORES", "(1,1)")]).unwrap();
        assert_eq!(s.render(0, &all), vec!["0:(x=19,y=19):NC: hi"]);
        let s = settings(&[("TT_METAL_DPRINT_RISCVS", "TR*")]).unwrap();
        assert_eq!(s.render(0, &all), vec!["0:(x=21,y=18):TR2: hi"]);
        let s = settings(&[("TT_METAL_DPRINT_CHIPS", "1")]).unwrap();
        assert!(s.render(0, &all).is_empty());
        assert_eq!(s.render(1, &all).len(), 3);
    }

    #[test]
    fn bad_settings_name_the_variable_and_value() {
        for (k, v, want) in [
            ("TT_METAL_DPRINT_CORES", "(0,x)", "`x` in `(0,x)` is not a whole number"),
            ("TT_METAL_DPRINT_CORES", "(0,0", "unbalanced"),
            ("TT_METAL_DPRINT_RISCVS", "BR,XX", "`XX` is not a RISC"),
            ("TT_METAL_DPRINT_CHIPS", "a", "`a` is not a device id"),
            ("TT_METAL_DPRINT_PREPEND_DEVICE_CORE_RISC", "yes", "use 0 or 1"),
        ] {
            let e = settings(&[(k, v)]).unwrap_err().to_string();
            assert!(e.contains(k) && e.contains(v) && e.contains(want), "{e}");
        }
    }
}
