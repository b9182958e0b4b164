//! Reading input files safely: only regular files are read (a FIFO, a device such as `/dev/zero` or a
//! directory is refused before a byte is read), at most [`MAX_INPUT_BYTES`], and as UTF-8 text. Every
//! tensim input (SoC and core descriptors, parameter files, traces, measured tables) goes through here.

use std::io::Read;
use std::path::Path;

/// The largest input file tensim reads, bytes.
pub const MAX_INPUT_BYTES: u64 = 1 << 30;

/// Why an input file could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InputError {
    /// The file as the user named it.
    pub path: String,
    /// What is wrong, in words (without the path).
    pub reason: String,
}

impl std::fmt::Display for InputError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.path, self.reason)
    }
}

impl std::error::Error for InputError {}

impl From<InputError> for String {
    fn from(e: InputError) -> String {
        e.to_string()
    }
}

/// Read `path` as text; `what` names the kind of file in errors ("SoC descriptor", "NoC trace"…).
pub fn read_text(path: &Path, what: &str) -> Result<String, InputError> {
    read_text_limited(path, what, MAX_INPUT_BYTES)
}

/// [`read_text`] with a size limit of `max_bytes`.
pub fn read_text_limited(path: &Path, what: &str, max_bytes: u64) -> Result<String, InputError> {
    let err = |reason: String| InputError { path: path.display().to_string(), reason };
    let meta = std::fs::metadata(path).map_err(|e| {
        if let Some(target) = dangling_link(path) {
            return err(format!(
                "is a symbolic link to {target}, which does not exist; point it at the {what} or give the file itself"
            ));
        }
        err(format!("cannot read {what}: {}", io_reason(&e)))
    })?;
    if meta.is_dir() {
        return Err(err(format!("is a directory, not a {what}")));
    }
    if !meta.is_file() {
        return Err(err(format!("is {}, not a regular file; give tensim the {what} as a regular file", kind(&meta))));
    }
    if meta.len() > max_bytes {
        return Err(err(format!("the {what} is {} bytes, larger than the {max_bytes}-byte limit", meta.len())));
    }
    let f = std::fs::File::open(path).map_err(|e| err(format!("cannot read {what}: {}", io_reason(&e))))?;
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    // The file could grow while it is read: read at most one byte past the limit.
    f.take(max_bytes + 1).read_to_end(&mut bytes).map_err(|e| err(format!("cannot read {what}: {}", io_reason(&e))))?;
    if bytes.len() as u64 > max_bytes {
        return Err(err(format!("the {what} is larger than the {max_bytes}-byte limit")));
    }
    String::from_utf8(bytes).map_err(|e| {
        err(format!("the {what} is not UTF-8 text (invalid byte at offset {})", e.utf8_error().valid_up_to()))
    })
}

/// The target of `path` when it is a symbolic link whose target does not exist.
pub fn dangling_link(path: &Path) -> Option<String> {
    let m = std::fs::symlink_metadata(path).ok()?;
    if !m.file_type().is_symlink() || path.exists() {
        return None;
    }
    Some(std::fs::read_link(path).map(|t| t.display().to_string()).unwrap_or_else(|_| "a missing file".into()))
}

/// What kind of file that is not a regular file or a directory `meta` describes.
pub fn kind(meta: &std::fs::Metadata) -> &'static str {
    use std::os::unix::fs::FileTypeExt;
    let t = meta.file_type();
    if t.is_fifo() {
        "a FIFO (named pipe)"
    } else if t.is_socket() {
        "a socket"
    } else if t.is_char_device() {
        "a character device"
    } else if t.is_block_device() {
        "a block device"
    } else {
        "a special file"
    }
}

/// The reason of an I/O error in words, without Rust's `(os error N)` suffix.
pub fn io_reason(e: &std::io::Error) -> String {
    match e.kind() {
        std::io::ErrorKind::NotFound => "no such file".into(),
        std::io::ErrorKind::PermissionDenied => "permission denied".into(),
        _ => {
            let s = e.to_string();
            match s.find(" (os error") {
                Some(i) => s[..i].to_string(),
                None => s,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refuses_devices_directories_and_huge_files() {
        let e = read_text(Path::new("/dev/zero"), "NoC trace").unwrap_err().to_string();
        assert!(e.contains("is a character device, not a regular file"), "{e}");
        let e = read_text(Path::new("/"), "NoC trace").unwrap_err().to_string();
        assert!(e.contains("is a directory"), "{e}");
        let e = read_text(Path::new("/no/such/file.json"), "NoC trace").unwrap_err().to_string();
        assert_eq!(e, "/no/such/file.json: cannot read NoC trace: no such file");
        let dir = std::env::temp_dir().join(format!("tensim-input-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let p = dir.join("big.txt");
        std::fs::write(&p, "0123456789").unwrap();
        assert!(read_text_limited(&p, "table", 5).unwrap_err().reason.contains("larger than the 5-byte limit"));
        assert_eq!(read_text_limited(&p, "table", 10).unwrap(), "0123456789");
        std::fs::write(&p, [0xff, 0xfe]).unwrap();
        assert!(read_text(&p, "table").unwrap_err().reason.contains("not UTF-8"));
        let link = dir.join("dangling.yaml");
        std::os::unix::fs::symlink(dir.join("gone.yaml"), &link).unwrap();
        let e = read_text(&link, "parameter file").unwrap_err().reason;
        assert!(e.contains("is a symbolic link to") && e.contains("gone.yaml, which does not exist"), "{e}");
        let e = read_text(&dir, "parameter file").unwrap_err().reason;
        assert_eq!(e, "is a directory, not a parameter file");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
