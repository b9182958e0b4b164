//! The circular-buffer region of one program: CBs take lock-step addresses from the unreserved L1 base
//! upward (a CB on several cores gets the highest free address of those cores, aligned), and the region must
//! end below the lowest L1 buffer, which grows down from the top of L1.

use std::collections::BTreeMap;
use std::fmt;

/// A CB that does not fit below the L1 buffers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CbOverflow {
    /// The core (as the caller numbers cores) on which it overflows.
    pub core: u32,
    /// Address the CB would start at.
    pub addr: u64,
    /// Address it would end at.
    pub end: u64,
    /// Where the L1 buffers (or L1) start.
    pub limit: u64,
}

impl fmt::Display for CbOverflow {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "the circular buffer at [{:#x}, {:#x}) ({} bytes) overlaps the L1 buffers from {:#x}",
            self.addr,
            self.end,
            self.end - self.addr,
            self.limit
        )
    }
}

/// CB placement for one program.
#[derive(Debug, Clone)]
pub struct CbRegion {
    base: u64,
    limit: u64,
    align: u64,
    top: BTreeMap<u32, u64>,
}

impl CbRegion {
    /// CBs from `base` upward, aligned to `align` (a power of two), ending at or below `limit`.
    pub fn new(base: u64, limit: u64, align: u64) -> CbRegion {
        CbRegion { base, limit, align: align.max(1), top: BTreeMap::new() }
    }

    /// Place a `size`-byte CB on `cores`: the same address on each, above everything placed on any of them.
    pub fn place(&mut self, cores: &[u32], size: u64) -> Result<u64, CbOverflow> {
        let start = cores.iter().map(|c| *self.top.get(c).unwrap_or(&self.base)).max().unwrap_or(self.base);
        let addr = start.div_ceil(self.align) * self.align;
        let end = addr + size;
        if end > self.limit {
            return Err(CbOverflow { core: cores.first().copied().unwrap_or(0), addr, end, limit: self.limit });
        }
        for &c in cores {
            self.top.insert(c, end);
        }
        Ok(addr)
    }

    /// The highest end of any CB (the base when there are none).
    pub fn top(&self) -> u64 {
        self.top.values().copied().max().unwrap_or(self.base)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lock_step_addresses_and_overflow() {
        let mut r = CbRegion::new(0x1000, 0x3000, 32);
        assert_eq!(r.place(&[0, 1], 100), Ok(0x1000));
        assert_eq!(r.place(&[1], 0x100), Ok(0x1080), "after the first CB on core 1, aligned");
        assert_eq!(r.place(&[0], 16), Ok(0x1080), "core 0 only has the first CB");
        assert_eq!(r.place(&[0, 1], 16), Ok(0x1180));
        assert_eq!(r.top(), 0x1190);
        let e = r.place(&[2, 1], 0x2000).unwrap_err();
        assert_eq!((e.core, e.addr, e.end, e.limit), (2, 0x11a0, 0x31a0, 0x3000));
        assert!(e.to_string().contains("overlaps the L1 buffers from 0x3000"));
    }
}
