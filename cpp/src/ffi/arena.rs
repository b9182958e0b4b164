//! L1 in host memory for C++ kernels: the shared memory file of a device's L1 and the low address range
//! where the running core's L1 is mapped at its own addresses.
#![allow(unsafe_code)]

/// Every core's L1 of a device in one shared memory file, mapped once for tensim (windows separated by
/// inaccessible gaps) and, while a C++ kernel runs, the running core's L1 mapped again at its own
/// addresses (L1 address A at host address A), so that a pointer made from any L1 address works.
pub(crate) struct Arena {
    fd: libc::c_int,
    base: usize,
    len: usize,
}

// SAFETY: the arena is plain memory with no thread affinity; access is coordinated by its users.
unsafe impl Send for Arena {}
// SAFETY: as above.
unsafe impl Sync for Arena {}

impl Arena {
    /// A memory file of `len` bytes (a multiple of the page size), mapped inaccessible.
    pub fn new(len: usize) -> Result<Arena, String> {
        // SAFETY: creating an anonymous memory file; the name is a NUL-terminated literal.
        let fd = unsafe { libc::memfd_create(c"tensim-l1".as_ptr(), libc::MFD_CLOEXEC) };
        if fd < 0 {
            return Err(format!("cannot create memory for the cores' L1: {}", std::io::Error::last_os_error()));
        }
        // SAFETY: sizing the file just created.
        if unsafe { libc::ftruncate(fd, len as libc::off_t) } != 0 {
            let e = std::io::Error::last_os_error();
            // SAFETY: closing the file just created.
            unsafe { libc::close(fd) };
            return Err(format!("cannot size memory for the cores' L1: {e}"));
        }
        // SAFETY: a shared mapping of the whole file, with no access yet; no existing memory is touched.
        let p = unsafe { libc::mmap(std::ptr::null_mut(), len, libc::PROT_NONE, libc::MAP_SHARED, fd, 0) };
        if p == libc::MAP_FAILED {
            let e = std::io::Error::last_os_error();
            // SAFETY: closing the file just created.
            unsafe { libc::close(fd) };
            return Err(format!("cannot map memory for the cores' L1: {e}"));
        }
        Ok(Arena { fd, base: p as usize, len })
    }

    /// Base address of tensim's mapping.
    pub fn base(&self) -> usize {
        self.base
    }

    /// The memory file.
    pub fn fd(&self) -> i32 {
        self.fd
    }

    /// Make `[off, off + len)` of tensim's mapping readable and writable (page-aligned).
    pub fn open(&self, off: usize, len: usize) -> Result<(), String> {
        assert!(off + len <= self.len, "a window inside the arena");
        // SAFETY: the range lies inside this arena's mapping.
        let r =
            unsafe { libc::mprotect((self.base + off) as *mut libc::c_void, len, libc::PROT_READ | libc::PROT_WRITE) };
        if r != 0 {
            return Err(format!("cannot map L1 memory: {}", std::io::Error::last_os_error()));
        }
        Ok(())
    }

    /// The parts of `[off, off + len)` of the memory file that hold data (pages ever written; the holes
    /// between them read as zeros), relative to `off`; `None` if the file cannot tell.
    pub fn data_ranges(&self, off: usize, len: usize) -> Option<Vec<std::ops::Range<usize>>> {
        let end = off + len;
        let mut at = off;
        let mut v = Vec::new();
        while at < end {
            // SAFETY: seeking in the arena's own memory file; no memory is touched.
            let data = unsafe { libc::lseek(self.fd, at as libc::off_t, libc::SEEK_DATA) };
            if data < 0 {
                // ENXIO: no data at or after `at`; anything else: the file system cannot tell.
                return (std::io::Error::last_os_error().raw_os_error() == Some(libc::ENXIO)).then_some(v);
            }
            let data = data as usize;
            if data >= end {
                break;
            }
            // SAFETY: as above.
            let hole = unsafe { libc::lseek(self.fd, data as libc::off_t, libc::SEEK_HOLE) };
            if hole < 0 {
                return None;
            }
            let hole = (hole as usize).min(end);
            v.push(data - off..hole - off);
            at = hole;
        }
        Some(v)
    }

    /// The bytes `[off, off + len)` of an opened range.
    pub fn bytes(&self, off: usize, len: usize) -> &[u8] {
        // SAFETY: `open` made the range readable; it stays mapped while the arena lives (windows hold an
        // `Arc` of it). C++ kernels write the same memory only while no tensim code holds this slice (they
        // run between API calls, on the same thread).
        unsafe { std::slice::from_raw_parts((self.base + off) as *const u8, len) }
    }

    /// The bytes `[off, off + len)` of an opened range, writable.
    #[allow(clippy::mut_from_ref)]
    pub fn bytes_mut(&self, off: usize, len: usize) -> &mut [u8] {
        // SAFETY: as in `bytes`; each window (one disjoint range) is owned by one L1, which hands out this
        // slice only through `&mut self`.
        unsafe { std::slice::from_raw_parts_mut((self.base + off) as *mut u8, len) }
    }
}

impl Drop for Arena {
    fn drop(&mut self) {
        // SAFETY: unmapping exactly the mapping and closing the file; no window outlives the arena.
        unsafe {
            libc::munmap(self.base as *mut libc::c_void, self.len);
            libc::close(self.fd);
        }
    }
}

/// Reserve `[start, end)` of the address space, inaccessible (the place L1 addresses are mapped at).
/// Fails if anything is mapped there.
pub(crate) fn reserve_low(start: usize, end: usize) -> Result<(), String> {
    // SAFETY: MAP_FIXED_NOREPLACE maps only if the range is free; nothing existing is replaced.
    let p = unsafe {
        libc::mmap(
            start as *mut libc::c_void,
            end - start,
            libc::PROT_NONE,
            libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_NORESERVE | libc::MAP_FIXED_NOREPLACE,
            -1,
            0,
        )
    };
    if p == libc::MAP_FAILED || p as usize != start {
        return Err(format!(
            "cannot reserve host addresses {start:#x}..{end:#x} for L1 pointers of C++ kernels: {}",
            std::io::Error::last_os_error()
        ));
    }
    Ok(())
}

/// Map `[start, end)` to the memory file `fd` from `offset` (a core's L1 at its own addresses), or back
/// to inaccessible when `fd` is negative. Async-signal-safe (one system call).
pub(crate) fn map_low(start: usize, end: usize, fd: i32, offset: usize) -> bool {
    // SAFETY: `[start, end)` is the range `reserve_low` took for tensim; replacing its mapping touches no
    // other memory. The file range lies inside the memory file.
    let p = unsafe {
        if fd < 0 {
            libc::mmap(
                start as *mut libc::c_void,
                end - start,
                libc::PROT_NONE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_NORESERVE | libc::MAP_FIXED,
                -1,
                0,
            )
        } else {
            libc::mmap(
                start as *mut libc::c_void,
                end - start,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_SHARED | libc::MAP_FIXED,
                fd,
                offset as libc::off_t,
            )
        }
    };
    p != libc::MAP_FAILED
}
