//! Writing output files without losing anything the user gave: a file is replaced only if it is an earlier
//! output of the same kind (recognised by its header); anything else is left alone with a clear error.

use std::path::Path;

/// Write `text` to `path` unless `path` holds something that does not start like an output of this kind
/// (`marker` must appear in its first 512 bytes).
pub fn write_output(path: &Path, text: &str, marker: &str, what: &str) -> Result<(), String> {
    if let Ok(existing) = std::fs::read(path) {
        let head = String::from_utf8_lossy(&existing[..existing.len().min(512)]).into_owned();
        if !head.contains(marker) {
            return Err(format!(
                "{}: the file exists and is not a tensim {what}; refusing to overwrite it (choose another name or delete it)",
                path.display()
            ));
        }
    }
    if let Some(dir) = path.parent() {
        if !dir.as_os_str().is_empty() && !dir.is_dir() {
            return Err(format!("{}: directory {} does not exist", path.display(), dir.display()));
        }
    }
    std::fs::write(path, text).map_err(|e| format!("{}: cannot write {what}: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refuses_foreign_files_and_replaces_own() {
        let dir = std::env::temp_dir().join(format!("tensim-out-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let p = dir.join("t.json");
        std::fs::write(&p, "my precious data").unwrap();
        let e = write_output(&p, "{MARK}", "MARK", "trace").unwrap_err();
        assert!(e.contains("refusing to overwrite"), "{e}");
        assert_eq!(std::fs::read_to_string(&p).unwrap(), "my precious data");
        std::fs::write(&p, "{MARK old}").unwrap();
        write_output(&p, "{MARK new}", "MARK", "trace").unwrap();
        assert_eq!(std::fs::read_to_string(&p).unwrap(), "{MARK new}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
