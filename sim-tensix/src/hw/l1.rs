//! A core's L1 SRAM: the descriptor's `worker_l1_size` bytes, bounds-checked, held in pages allocated on
//! first write (untouched memory reads as zero and costs no host memory), or in a host memory window that
//! compiled C++ kernels also read and write through raw pointers ([`HostWindow`]).

use std::borrow::Cow;
use std::fmt;

/// An L1 access outside the array.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct L1OutOfRange {
    /// First byte accessed.
    pub addr: u64,
    /// Bytes accessed.
    pub len: u64,
    /// L1 size in bytes.
    pub size: u64,
}

impl fmt::Display for L1OutOfRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "L1 access [{:#x}, {:#x}) is outside the {}-byte L1", self.addr, self.addr + self.len, self.size)
    }
}

/// Bytes of one L1 page: memory is allocated a page at a time, on the first write to it.
pub const L1_PAGE_BYTES: usize = 1 << 16;

static ZEROS: [u8; L1_PAGE_BYTES] = [0; L1_PAGE_BYTES];

/// Bytes of one versioned chunk (see [`L1::version`]).
pub const L1_CHUNK_BYTES: usize = 1 << 10;

/// Host memory an L1 can live in: one contiguous window of at least the L1's size, which foreign code
/// (a C++ kernel dereferencing `get_write_ptr`) may read and write between API calls. Its owner
/// guarantees the window stays mapped while the L1 exists, and hands it over reading as zeros (so moving an
/// L1 in copies only the pages ever written, and untouched host pages stay unallocated).
pub trait HostWindow: Send + Sync {
    /// The window's bytes.
    fn bytes(&self) -> &[u8];
    /// The window's bytes, writable.
    fn bytes_mut(&mut self) -> &mut [u8];
    /// The byte ranges of the window that may hold anything but zeros, when the window can tell without
    /// reading it (the rest reads as zeros); `None`: any part may.
    fn data_ranges(&self) -> Option<Vec<std::ops::Range<usize>>> {
        None
    }
}

/// One core's L1: pages allocated on first write (untouched pages read as zero and cost no host memory,
/// and opening a device costs nothing per core). Every write stamps the chunks it touches with a new
/// version, so a reader can tell whether bytes it decoded before are still what L1 holds.
pub struct L1 {
    size: u32,
    pages: Vec<Option<Box<[u8]>>>,
    /// Version of each chunk: the write count when it was last written (0: never).
    versions: Vec<u64>,
    /// The tagged write that last wrote each chunk (see [`L1::content_tag`]); tag 0 for any other. Empty
    /// until the first tagged write (most runs multicast nothing into this L1).
    origins: Vec<Origin>,
    writes: u64,
    /// The host window holding the bytes instead of `pages`, when kernels may touch L1 directly.
    window: Option<Box<dyn HostWindow>>,
    /// Versions handed out for a window (its bytes may change behind tensim's back: never reuse one).
    window_versions: std::sync::atomic::AtomicU64,
}

impl Clone for L1 {
    /// A copy in pages (a window belongs to one L1).
    fn clone(&self) -> L1 {
        let mut c = L1 { versions: self.versions.clone(), origins: self.origins.clone(), ..L1::new(self.size) };
        if self.window.is_none() {
            c.pages = self.pages.clone();
        }
        c.writes = self.writes;
        if let Some(w) = &self.window {
            // The pages of the window that hold anything (most of an L1 is untouched zeros).
            let bytes = &w.bytes()[..self.size as usize];
            let ranges = w.data_ranges();
            for (i, page) in bytes.chunks(L1_PAGE_BYTES).enumerate() {
                let at = i * L1_PAGE_BYTES..i * L1_PAGE_BYTES + page.len();
                let may_hold = ranges.as_ref().is_none_or(|r| r.iter().any(|r| r.start < at.end && at.start < r.end));
                if may_hold && page.iter().any(|&b| b != 0) {
                    c.write((i * L1_PAGE_BYTES) as u64, page).expect("inside the same size");
                }
            }
        }
        c
    }
}

impl fmt::Debug for L1 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "L1({} bytes)", self.size)
    }
}

impl L1 {
    /// A zeroed L1 of `size` bytes.
    pub fn new(size: u32) -> L1 {
        L1 {
            size,
            pages: vec![None; (size as usize).div_ceil(L1_PAGE_BYTES)],
            versions: vec![0; (size as usize).div_ceil(L1_CHUNK_BYTES)],
            origins: Vec::new(),
            writes: 0,
            window: None,
            window_versions: std::sync::atomic::AtomicU64::new(1 << 62),
        }
    }

    /// Move the contents into `window` (at least `size` bytes) and keep them there from now on.
    pub fn move_to_window(&mut self, mut window: Box<dyn HostWindow>) {
        let n = self.size as usize;
        assert!(window.bytes().len() >= n, "a host window smaller than L1");
        let bytes = window.bytes_mut();
        for (i, page) in self.pages.iter().enumerate() {
            if let Some(p) = page {
                let at = i * L1_PAGE_BYTES;
                let len = p.len().min(n - at);
                bytes[at..at + len].copy_from_slice(&p[..len]);
            }
        }
        self.pages = Vec::new();
        self.window = Some(window);
    }

    /// Put `other`'s bytes here and give back what was here. Without a host window the two change places;
    /// with one (kernels reach this L1 through raw pointers into it) the window stays and `other`'s bytes
    /// are copied into it, and what it held comes back as an L1 of pages. Every version stamped from now on
    /// is newer than any either L1 stamped.
    pub fn exchange(&mut self, mut other: L1) -> L1 {
        let writes = self.writes.max(other.writes);
        if self.window.is_none() {
            other.writes = writes;
            let mut old = std::mem::replace(self, other);
            old.writes = writes;
            return old;
        }
        let mut old = self.clone();
        old.writes = writes;
        let n = self.size as usize;
        let mut page = vec![0u8; L1_PAGE_BYTES];
        for at in (0..n).step_by(L1_PAGE_BYTES) {
            let len = L1_PAGE_BYTES.min(n - at);
            other.copy_out(at, &mut page[..len]);
            // Untouched host pages of the window stay unallocated.
            if page[..len].iter().all(|&x| x == 0) && old.pages[at / L1_PAGE_BYTES].is_none() {
                continue;
            }
            self.write(at as u64, &page[..len]).expect("inside the same size");
        }
        self.origins = Vec::new();
        self.writes = self.writes.max(writes);
        old
    }

    /// Whether the bytes live in a host window.
    pub fn in_window(&self) -> bool {
        self.window.is_some()
    }

    /// The host address of byte 0, when the bytes live in a host window.
    pub fn window_base(&self) -> Option<usize> {
        self.window.as_ref().map(|w| w.bytes().as_ptr() as usize)
    }

    /// Size in bytes.
    pub fn size(&self) -> u32 {
        self.size
    }

    /// Host bytes held (touched pages).
    pub fn resident_bytes(&self) -> u64 {
        if self.window.is_some() {
            return self.size as u64;
        }
        self.pages.iter().filter(|p| p.is_some()).count() as u64 * L1_PAGE_BYTES as u64
    }

    /// Check that `[addr, addr + len)` lies inside.
    pub fn check(&self, addr: u64, len: u64) -> Result<(), L1OutOfRange> {
        if addr.checked_add(len).is_none_or(|e| e > self.size as u64) {
            return Err(L1OutOfRange { addr, len, size: self.size as u64 });
        }
        Ok(())
    }

    /// The bytes `[addr, addr + len)`: borrowed when they lie in one page, copied otherwise.
    pub fn read(&self, addr: u64, len: u64) -> Result<Cow<'_, [u8]>, L1OutOfRange> {
        self.check(addr, len)?;
        let (a, n) = (addr as usize, len as usize);
        if let Some(w) = &self.window {
            return Ok(Cow::Borrowed(&w.bytes()[a..a + n]));
        }
        let (page, off) = (a / L1_PAGE_BYTES, a % L1_PAGE_BYTES);
        if off + n <= L1_PAGE_BYTES {
            return Ok(Cow::Borrowed(match &self.pages[page] {
                Some(p) => &p[off..off + n],
                None => &ZEROS[..n],
            }));
        }
        let mut out = vec![0; n];
        self.copy_out(a, &mut out);
        Ok(Cow::Owned(out))
    }

    /// Copy `[addr, addr + out.len())` into `out`.
    pub fn read_into(&self, addr: u64, out: &mut [u8]) -> Result<(), L1OutOfRange> {
        self.check(addr, out.len() as u64)?;
        self.copy_out(addr as usize, out);
        Ok(())
    }

    /// Append `[addr, addr + len)` to `out`.
    pub fn append_to(&self, addr: u64, len: u64, out: &mut Vec<u8>) -> Result<(), L1OutOfRange> {
        self.check(addr, len)?;
        let (mut a, end) = (addr as usize, (addr + len) as usize);
        if let Some(w) = &self.window {
            out.extend_from_slice(&w.bytes()[a..end]);
            return Ok(());
        }
        while a < end {
            let (page, off) = (a / L1_PAGE_BYTES, a % L1_PAGE_BYTES);
            let n = (L1_PAGE_BYTES - off).min(end - a);
            match &self.pages[page] {
                Some(p) => out.extend_from_slice(&p[off..off + n]),
                None => out.extend_from_slice(&ZEROS[..n]),
            }
            a += n;
        }
        Ok(())
    }

    fn copy_out(&self, mut a: usize, out: &mut [u8]) {
        if let Some(w) = &self.window {
            out.copy_from_slice(&w.bytes()[a..a + out.len()]);
            return;
        }
        let mut done = 0;
        while done < out.len() {
            let (page, off) = (a / L1_PAGE_BYTES, a % L1_PAGE_BYTES);
            let n = (L1_PAGE_BYTES - off).min(out.len() - done);
            match &self.pages[page] {
                Some(p) => out[done..done + n].copy_from_slice(&p[off..off + n]),
                None => out[done..done + n].fill(0),
            }
            done += n;
            a += n;
        }
    }

    /// The version of `[addr, addr + len)` (a range inside L1): it changes whenever any of it is written.
    pub fn version(&self, addr: u64, len: u64) -> u64 {
        if self.window.is_some() {
            // Kernels may have written the window directly: every call is a new version.
            return self.window_versions.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        }
        let (first, last) = (addr as usize / L1_CHUNK_BYTES, (addr + len.max(1) - 1) as usize / L1_CHUNK_BYTES);
        self.versions[first..=last].iter().copied().max().unwrap_or(0)
    }

    /// The tag of the write that put every byte of `[addr, addr + len)` (a range inside L1) where it is, if
    /// that write was tagged ([`L1::write_tagged`]) and covered the whole range, and nothing has written
    /// any chunk the range touches since. Writers give one tag to the same bytes at the same address only
    /// (a multicast's destinations), so two L1s of a chip with the same tag for the same range hold the
    /// same bytes there: what a decoded tile shared between cores relies on. `None` in a host window
    /// (kernels write it behind tensim's back).
    pub fn content_tag(&self, addr: u64, len: u64) -> Option<u64> {
        if self.window.is_some() || self.origins.is_empty() {
            return None;
        }
        let (first, last) = chunks(addr, len as usize)?;
        let o = self.origins[first];
        let whole = o.tag != 0 && u64::from(o.start) <= addr && addr + len <= u64::from(o.end);
        (whole && self.origins[first + 1..=last].iter().all(|c| c.tag == o.tag)).then_some(o.tag)
    }

    /// The same L1 with every chunk's tag forgotten: tags are meaningful within one run (one writer of
    /// tags), and a launch starts from this.
    pub fn untagged(mut self) -> L1 {
        self.origins = Vec::new();
        self
    }

    /// Write `data` at `addr` as the write tagged `tag` (non-zero; see [`L1::content_tag`]).
    pub fn write_tagged(&mut self, addr: u64, data: &[u8], tag: u64) -> Result<(), L1OutOfRange> {
        debug_assert_ne!(tag, 0, "tag 0 marks untagged writes");
        self.check(addr, data.len() as u64)?;
        // In range (just checked): the end fits 32 bits as L1 sizes do.
        self.store(addr, data, Origin { tag, start: addr as u32, end: (addr as usize + data.len()) as u32 });
        Ok(())
    }

    /// Write `data` at `addr`.
    pub fn write(&mut self, addr: u64, data: &[u8]) -> Result<(), L1OutOfRange> {
        self.check(addr, data.len() as u64)?;
        self.store(addr, data, Origin::default());
        Ok(())
    }

    /// Write `len` bytes at `addr` (checked) that `fill` puts into the slice it is given, which holds
    /// whatever was there: the same as [`L1::write`] of what `fill` writes, without a copy in between when
    /// the range lies in one page (or in a window). `fill` must write every byte.
    pub fn write_with(&mut self, addr: u64, len: usize, fill: impl FnOnce(&mut [u8])) -> Result<(), L1OutOfRange> {
        self.check(addr, len as u64)?;
        let (start, page) = (addr as usize, addr as usize / L1_PAGE_BYTES);
        if self.window.is_none() && (start + len).div_ceil(L1_PAGE_BYTES) > page + 1 {
            let mut data = vec![0u8; len];
            fill(&mut data);
            self.store(addr, &data, Origin::default());
            return Ok(());
        }
        self.stamp(addr, len, Origin::default());
        let bytes = match &mut self.window {
            Some(w) => &mut w.bytes_mut()[start..start + len],
            None => {
                let off = start % L1_PAGE_BYTES;
                let p = self.pages[page].get_or_insert_with(|| vec![0; L1_PAGE_BYTES].into_boxed_slice());
                &mut p[off..off + len]
            }
        };
        fill(bytes);
        Ok(())
    }

    /// Stamp the chunks `len` bytes at `addr` touch with a new version and `origin`.
    fn stamp(&mut self, addr: u64, len: usize, origin: Origin) {
        if let Some((first, last)) = chunks(addr, len) {
            self.writes += 1;
            self.versions[first..=last].fill(self.writes);
            if origin.tag != 0 && self.origins.is_empty() {
                self.origins = vec![Origin::default(); self.versions.len()];
            }
            if !self.origins.is_empty() {
                self.origins[first..=last].fill(origin);
            }
        }
    }

    /// Write `data` at `addr` (checked), stamping the chunks it touches with a new version and `origin`.
    fn store(&mut self, addr: u64, data: &[u8], origin: Origin) {
        self.stamp(addr, data.len(), origin);
        if let Some(w) = &mut self.window {
            w.bytes_mut()[addr as usize..addr as usize + data.len()].copy_from_slice(data);
            return;
        }
        let (mut a, mut done) = (addr as usize, 0);
        while done < data.len() {
            let (page, off) = (a / L1_PAGE_BYTES, a % L1_PAGE_BYTES);
            let n = (L1_PAGE_BYTES - off).min(data.len() - done);
            let p = self.pages[page].get_or_insert_with(|| vec![0; L1_PAGE_BYTES].into_boxed_slice());
            p[off..off + n].copy_from_slice(&data[done..done + n]);
            done += n;
            a += n;
        }
    }

    /// A little-endian 32-bit word.
    #[inline]
    pub fn read_u32(&self, addr: u64) -> Result<u32, L1OutOfRange> {
        // Borrowed straight from its page when the word lies in one, as every aligned word does.
        let b = self.read(addr, 4)?;
        Ok(u32::from_le_bytes(b[..4].try_into().expect("four bytes")))
    }

    /// Write a little-endian 32-bit word.
    pub fn write_u32(&mut self, addr: u64, v: u32) -> Result<(), L1OutOfRange> {
        self.write(addr, &v.to_le_bytes())
    }

    /// Copy `len` bytes inside L1 (overlap allowed).
    pub fn copy_within(&mut self, src: u64, dst: u64, len: u64) -> Result<(), L1OutOfRange> {
        self.check(src, len)?;
        self.check(dst, len)?;
        let mut tmp = vec![0; len as usize];
        self.copy_out(src as usize, &mut tmp);
        self.write(dst, &tmp)
    }
}

/// The first and last chunk of a write of `len` bytes at `addr` (`None` for no bytes).
fn chunks(addr: u64, len: usize) -> Option<(usize, usize)> {
    (len > 0).then(|| (addr as usize / L1_CHUNK_BYTES, (addr as usize + len - 1) / L1_CHUNK_BYTES))
}

/// The tagged write that last wrote a chunk: its tag (0: the last write was untagged) and its byte range.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct Origin {
    tag: u64,
    start: u32,
    end: u32,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A host window in a vector, which may say where its data is (its 4 KiB blocks that are not all zero,
    /// as a memory file's holes would).
    struct VecWindow(Vec<u8>, bool);
    impl HostWindow for VecWindow {
        fn bytes(&self) -> &[u8] {
            &self.0
        }
        fn bytes_mut(&mut self) -> &mut [u8] {
            &mut self.0
        }
        fn data_ranges(&self) -> Option<Vec<std::ops::Range<usize>>> {
            let blocks = self.0.chunks(4096).enumerate().filter(|(_, b)| b.iter().any(|&x| x != 0));
            self.1.then(|| blocks.map(|(i, b)| i * 4096..i * 4096 + b.len()).collect())
        }
    }

    #[test]
    fn moving_into_a_window_keeps_every_written_byte_and_reads_zeros_elsewhere() {
        let size = 5 * L1_PAGE_BYTES as u32 + 100;
        let mut l1 = L1::new(size);
        l1.write_u32(8, 0xdead_beef).unwrap();
        l1.write(size as u64 - 4, &[1, 2, 3, 4]).unwrap();
        l1.write(2 * L1_PAGE_BYTES as u64 - 2, &[9; 4]).unwrap();
        let expect: Vec<u8> = l1.read(0, size as u64).unwrap().to_vec();
        l1.move_to_window(Box::new(VecWindow(vec![0; size as usize + 64], false)));
        assert!(l1.in_window());
        assert_eq!(&l1.read(0, size as u64).unwrap()[..], &expect[..]);
        assert_eq!(l1.read_u32(8).unwrap(), 0xdead_beef);
        assert_eq!(&l1.read(3 * L1_PAGE_BYTES as u64, 16).unwrap()[..], &[0u8; 16][..]);
    }

    /// A write through `write_with` is a write of what its closure puts there: in one page, across two
    /// pages, in a window; the version moves on, and a range past the end is an error with nothing written.
    #[test]
    fn write_with_is_a_write_of_what_it_fills_in() {
        let size = 3 * L1_PAGE_BYTES as u32;
        for window in [false, true] {
            let mut l1 = L1::new(size);
            if window {
                l1.move_to_window(Box::new(VecWindow(vec![0; size as usize], false)));
            }
            for (addr, len) in [(64u64, 2048usize), (L1_PAGE_BYTES as u64 - 1000, 2048)] {
                let before = l1.version(addr, len as u64);
                let want: Vec<u8> = (0..len).map(|i| (i * 7 + addr as usize) as u8).collect();
                l1.write_with(addr, len, |out| out.copy_from_slice(&want)).unwrap();
                assert_eq!(&l1.read(addr, len as u64).unwrap()[..], &want[..], "window {window}, at {addr}");
                assert!(l1.version(addr, len as u64) > before);
            }
            assert!(l1.write_with(size as u64 - 10, 64, |_| panic!("not called past the end")).is_err());
        }
    }

    #[test]
    fn bounds_are_checked() {
        let mut l1 = L1::new(1024);
        l1.write_u32(1020, 0xdead_beef).unwrap();
        assert_eq!(l1.read_u32(1020).unwrap(), 0xdead_beef);
        let e = l1.write_u32(1022, 1).unwrap_err();
        assert_eq!(e.to_string(), "L1 access [0x3fe, 0x402) is outside the 1024-byte L1");
        assert!(l1.read(u64::MAX, 2).is_err());
        // Across a page boundary, and reading untouched pages.
        let mut big = L1::new(3 * L1_PAGE_BYTES as u32);
        let data: Vec<u8> = (0..100u8).collect();
        let at = L1_PAGE_BYTES as u64 - 40;
        big.write(at, &data).unwrap();
        assert_eq!(&big.read(at, 100).unwrap()[..], &data[..]);
        assert_eq!(big.read_u32(L1_PAGE_BYTES as u64 - 2).unwrap(), u32::from_le_bytes([38, 39, 40, 41]));
        assert_eq!(big.read_u32(2 * L1_PAGE_BYTES as u64).unwrap(), 0);
        assert!(big.read_u32(3 * L1_PAGE_BYTES as u64 - 3).is_err());
        assert_eq!(big.resident_bytes(), 2 * L1_PAGE_BYTES as u64);
        big.copy_within(at, at + 1, 100).unwrap();
        assert_eq!(&big.read(at + 1, 100).unwrap()[..], &data[..]);
        // Versions change with every write to a range, and only then.
        let v = big.version(0, 2048);
        assert_eq!(big.version(0, 2048), v);
        big.write_u32(1500, 1).unwrap();
        assert!(big.version(0, 2048) > v);
        let w = big.version(4096, 2048);
        big.write_u32(1500, 2).unwrap();
        assert_eq!(big.version(4096, 2048), w, "a write elsewhere leaves the range's version alone");
    }

    #[test]
    fn a_content_tag_needs_one_tagged_write_over_the_whole_range_and_nothing_since() {
        let k = L1_CHUNK_BYTES as u64;
        let mut l1 = L1::new(16 * L1_CHUNK_BYTES as u32);
        // A tile that starts mid-chunk, written by one tagged write: its tag, for it and any part of it.
        let (at, len) = (k + 96, 2048);
        l1.write_tagged(at, &[5; 2048], 7).unwrap();
        assert_eq!(l1.content_tag(at, len), Some(7));
        assert_eq!(l1.content_tag(at + 100, 500), Some(7));
        // Ranges reaching past the write, untouched memory and empty ranges have none.
        assert_eq!(l1.content_tag(at - 1, len), None);
        assert_eq!(l1.content_tag(at, len + 1), None);
        assert_eq!(l1.content_tag(8 * k, 64), None);
        assert_eq!(l1.content_tag(at, 0), None);
        // A later write to any chunk the range touches, even outside the range itself, ends it...
        let mut other = l1.clone();
        other.write_u32(k, 1).unwrap();
        assert_eq!(other.content_tag(at, len), None);
        assert_eq!(other.content_tag(2 * k, 64), Some(7), "chunks not written since keep it");
        // ...and so does a tagged write of another range that starts inside it.
        let mut again = l1.clone();
        again.write_tagged(at + 1024, &[6; 64], 8).unwrap();
        assert_eq!(again.content_tag(at, len), None);
        assert_eq!(again.content_tag(at + 1024, 64), Some(8));
        // A clone keeps the tags (its bytes are the same).
        assert_eq!(l1.clone().content_tag(at, len), Some(7));
    }

    fn bytes(l1: &L1, at: u64, n: u64) -> Vec<u8> {
        l1.read(at, n).unwrap().into_owned()
    }

    #[test]
    fn exchanging_contents_keeps_a_window_and_gives_back_what_it_held() {
        let size = 4 * L1_PAGE_BYTES as u32;
        let far = 3 * L1_PAGE_BYTES as u64 + 8;
        let mut paged = L1::new(size);
        paged.write(far, &[9; 16]).unwrap();
        for knows in [false, true] {
            let mut w = L1::new(size);
            w.write(100, &[7; 32]).unwrap();
            w.move_to_window(Box::new(VecWindow(vec![0; size as usize], knows)));
            let base = w.window_base();
            let old = w.exchange(paged.clone());
            // The window stays (kernels' pointers into it stay valid) and now holds the other's bytes only.
            assert_eq!(w.window_base(), base);
            assert_eq!((bytes(&w, far, 16), bytes(&w, 100, 32)), (vec![9; 16], vec![0; 32]));
            // What it held comes back as pages: the written one only.
            assert!(!old.in_window());
            assert_eq!((bytes(&old, 100, 32), bytes(&old, far, 16)), (vec![7; 32], vec![0; 16]));
            assert_eq!(old.resident_bytes(), L1_PAGE_BYTES as u64);
            // And back again.
            let other = w.exchange(old);
            assert_eq!((bytes(&w, 100, 32), bytes(&w, far, 16)), (vec![7; 32], vec![0; 16]));
            assert_eq!(bytes(&other, far, 16), vec![9; 16]);
        }
        // Without a window the two change places.
        let mut a = L1::new(size);
        a.write(100, &[1; 4]).unwrap();
        let b = a.exchange(paged.clone());
        assert_eq!((bytes(&a, far, 16), bytes(&b, 100, 4)), (vec![9; 16], vec![1; 4]));
    }

    #[test]
    fn a_version_after_an_exchange_is_new_to_both_memories() {
        let mut a = L1::new(L1_PAGE_BYTES as u32);
        for _ in 0..5 {
            a.write(0, &[1]).unwrap();
        }
        let mut b = L1::new(L1_PAGE_BYTES as u32);
        b.write(0, &[2]).unwrap();
        let (va, vb) = (a.version(0, 1), b.version(0, 1));
        let old = b.exchange(a);
        b.write(4096, &[3]).unwrap();
        assert!(b.version(4096, 1) > va.max(vb));
        assert_eq!(old.version(0, 1), vb);
    }
}
