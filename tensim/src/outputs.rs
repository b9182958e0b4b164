//! Output files, planned before any simulation and written all or none. [`OutputPlan::add`] checks a path
//! when the command starts: its folder exists, no path is given twice, and an existing file is a regular
//! file whose first bytes mark it as an earlier tensim output of the same kind (anything else — a user's
//! file, a FIFO, a device, a folder — is refused, and nothing is read past its first bytes).
//! [`OutputPlan::commit`] writes every file to a temporary name next to it and renames them into place only
//! when all were written.

use crate::error::{CliError, CliResult};
use std::collections::BTreeSet;
use std::io::Read;
use std::path::{Path, PathBuf};

/// A kind of output file and the text that marks tensim's own.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OutputKind {
    /// What the file is, in words.
    pub what: &'static str,
    /// Text found in the first [`MARKER_BYTES`] bytes of every file of this kind tensim writes.
    pub marker: &'static str,
}

/// How much of an existing file is read to recognise it.
pub const MARKER_BYTES: u64 = 512;

/// A Chrome/Perfetto trace.
pub const TRACE: OutputKind = OutputKind { what: "trace", marker: "1 ns on this timeline = 1 AICLK cycle" };
/// A NoC heatmap.
pub const HEATMAP: OutputKind = OutputKind { what: "heatmap", marker: "tensim NoC heatmap" };
/// A tt-npe timeline.
pub const TIMELINE: OutputKind = OutputKind { what: "tt-npe timeline", marker: "\"congestion_model_name\":\"tensim\"" };
/// A stats JSON file.
pub const STATS: OutputKind = OutputKind { what: "stats file", marker: "\"tensim_stats\"" };
/// One of the allocator's memory reports.
pub const MEMORY_REPORT: OutputKind = OutputKind { what: "memory report", marker: MEMORY_REPORT_MARKER };
/// The first line of every memory report tensim writes.
pub const MEMORY_REPORT_MARKER: &str = "# tensim memory report";

struct Planned {
    path: PathBuf,
    kind: OutputKind,
    /// A folder to create before writing (the memory-report folder).
    make_dir: Option<PathBuf>,
}

/// The output files of one command.
#[derive(Default)]
pub struct OutputPlan {
    items: Vec<Planned>,
    seen: BTreeSet<PathBuf>,
}

/// Handle of a planned output.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OutputId(usize);

fn err(path: &Path, msg: impl std::fmt::Display) -> CliError {
    CliError::User(format!("{}: {msg}", path.display()))
}

/// The path with its folder made absolute (the file itself may not exist yet), to compare paths.
fn identity(path: &Path) -> PathBuf {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let dir = std::fs::canonicalize(&dir).unwrap_or(dir);
    dir.join(path.file_name().unwrap_or_default())
}

/// Check that `path` may be written as a `kind` output; `folder_will_exist` when its folder is created by
/// the plan itself.
fn check_path(path: &Path, kind: OutputKind, folder_will_exist: bool) -> CliResult<()> {
    if path.file_name().is_none() || path.as_os_str().to_string_lossy().ends_with('/') {
        return Err(err(path, format!("is a folder name; give the {} a file name", kind.what)));
    }
    if !folder_will_exist
        && let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty())
        && !dir.is_dir()
    {
        return Err(err(path, format!("folder {} does not exist; create it first", dir.display())));
    }
    match std::fs::symlink_metadata(path) {
        Err(_) => Ok(()),
        Ok(meta) => {
            if let Some(target) = soc_descriptors::input::dangling_link(path) {
                return Err(err(
                    path,
                    format!(
                        "is a symbolic link to {target}, which does not exist; give the {} a plain file name",
                        kind.what
                    ),
                ));
            }
            let meta = if meta.file_type().is_symlink() { std::fs::metadata(path).unwrap_or(meta) } else { meta };
            if meta.is_dir() {
                return Err(err(path, format!("is a folder; give the {} a file name", kind.what)));
            }
            if !meta.is_file() {
                return Err(err(
                    path,
                    format!(
                        "is {}, not a regular file; tensim writes its {} only to regular files",
                        soc_descriptors::input::kind(&meta),
                        kind.what
                    ),
                ));
            }
            let mut head = Vec::new();
            std::fs::File::open(path)
                .and_then(|f| f.take(MARKER_BYTES).read_to_end(&mut head))
                .map_err(|e| err(path, format!("cannot read: {}", soc_descriptors::input::io_reason(&e))))?;
            if String::from_utf8_lossy(&head).contains(kind.marker) {
                Ok(())
            } else {
                Err(err(
                    path,
                    format!(
                        "the file exists and is not a tensim {}; refusing to overwrite it (choose another name or delete it)",
                        kind.what
                    ),
                ))
            }
        }
    }
}

impl OutputPlan {
    /// An empty plan.
    pub fn new() -> OutputPlan {
        OutputPlan::default()
    }

    fn push(&mut self, path: &Path, kind: OutputKind, make_dir: Option<PathBuf>) -> CliResult<OutputId> {
        if !self.seen.insert(identity(path)) {
            return Err(err(path, "is given for two outputs; give each output its own file"));
        }
        check_path(path, kind, make_dir.is_some())?;
        self.items.push(Planned { path: path.to_path_buf(), kind, make_dir });
        Ok(OutputId(self.items.len() - 1))
    }

    /// Plan the output `path`, checking it now.
    pub fn add(&mut self, path: &Path, kind: OutputKind) -> CliResult<OutputId> {
        self.push(path, kind, None)
    }

    /// Plan `names` inside folder `dir` (created when missing; its parent must exist).
    pub fn add_in_dir(&mut self, dir: &Path, names: &[&str], kind: OutputKind) -> CliResult<Vec<OutputId>> {
        if dir.exists() && !dir.is_dir() {
            return Err(err(dir, "exists and is not a folder"));
        }
        let make = if dir.is_dir() {
            None
        } else {
            match dir.parent().filter(|p| !p.as_os_str().is_empty()) {
                Some(p) if !p.is_dir() => {
                    return Err(err(dir, format!("folder {} does not exist; create it first", p.display())));
                }
                _ => Some(dir.to_path_buf()),
            }
        };
        names.iter().map(|n| self.push(&dir.join(n), kind, make.clone())).collect()
    }

    /// Write every planned output (`contents` gives each one's text; an output left out is not written) —
    /// all of them or none. Returns the paths written.
    pub fn commit(self, contents: Vec<(OutputId, String)>) -> CliResult<Vec<PathBuf>> {
        let mut temps: Vec<(PathBuf, PathBuf)> = Vec::new();
        let cleanup = |temps: &[(PathBuf, PathBuf)]| {
            for (t, _) in temps {
                let _ = std::fs::remove_file(t);
            }
        };
        for (id, text) in contents {
            let p = &self.items[id.0];
            if let Some(d) = &p.make_dir
                && let Err(e) = std::fs::create_dir_all(d)
            {
                cleanup(&temps);
                return Err(err(d, format!("cannot create folder: {}", soc_descriptors::input::io_reason(&e))));
            }
            let name = p.path.file_name().unwrap_or_default().to_string_lossy();
            let tmp = p.path.with_file_name(format!(".{name}.tensim-{}.tmp", std::process::id()));
            if let Err(e) = std::fs::write(&tmp, text) {
                cleanup(&temps);
                let _ = std::fs::remove_file(&tmp);
                return Err(err(
                    &p.path,
                    format!("cannot write {}: {}", p.kind.what, soc_descriptors::input::io_reason(&e)),
                ));
            }
            temps.push((tmp, p.path.clone()));
        }
        let mut written = Vec::new();
        for (i, (tmp, path)) in temps.iter().enumerate() {
            if let Err(e) = std::fs::rename(tmp, path) {
                cleanup(&temps[i..]);
                return Err(err(path, format!("cannot write: {}", soc_descriptors::input::io_reason(&e))));
            }
            written.push(path.clone());
        }
        Ok(written)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tmp(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("tensim-out-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    #[test]
    fn refuses_foreign_files_fifos_devices_and_duplicates() {
        let dir = tmp("refuse");
        let p = dir.join("t.json");
        std::fs::write(&p, "my precious data").unwrap();
        let mut plan = OutputPlan::new();
        let e = plan.add(&p, TRACE).unwrap_err().to_string();
        assert!(e.contains("refusing to overwrite"), "{e}");
        assert_eq!(std::fs::read_to_string(&p).unwrap(), "my precious data");
        let e = plan.add(Path::new("/dev/zero"), TRACE).unwrap_err().to_string();
        assert!(e.contains("not a regular file"), "{e}");
        let e = plan.add(&dir, TRACE).unwrap_err().to_string();
        assert!(e.contains("is a folder"), "{e}");
        let e = plan.add(&dir.join("nope/x.json"), TRACE).unwrap_err().to_string();
        assert!(e.contains("does not exist"), "{e}");
        let a = dir.join("a.json");
        plan.add(&a, TRACE).unwrap();
        let e = plan.add(&dir.join("./a.json"), STATS).unwrap_err().to_string();
        assert!(e.contains("given for two outputs"), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn writes_all_or_none_and_replaces_own_files() {
        let dir = tmp("commit");
        let own = dir.join("s.json");
        std::fs::write(&own, "{\"tensim_stats\": 1}").unwrap();
        let mut plan = OutputPlan::new();
        let a = plan.add(&own, STATS).unwrap();
        let ids = plan.add_in_dir(&dir.join("mem"), &["x.csv", "y.csv"], MEMORY_REPORT).unwrap();
        let written =
            plan.commit(vec![(a, "{\"tensim_stats\": 2}".into()), (ids[0], "x".into()), (ids[1], "y".into())]).unwrap();
        assert_eq!(written.len(), 3);
        assert_eq!(std::fs::read_to_string(&own).unwrap(), "{\"tensim_stats\": 2}");
        assert_eq!(std::fs::read_to_string(dir.join("mem/y.csv")).unwrap(), "y");
        let leftovers: Vec<_> = std::fs::read_dir(&dir).unwrap().filter_map(|e| e.ok()).collect();
        assert!(leftovers.iter().all(|e| !e.file_name().to_string_lossy().ends_with(".tmp")));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
