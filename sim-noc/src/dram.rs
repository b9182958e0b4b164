//! DRAM: sparse byte storage per channel (only touched pages exist — a Wormhole has 12 GiB of DRAM address
//! space) and the channel timing seen from the NoC.

use crate::params::DramParams;
use sim_core::{Cycle, Cycles};
use std::collections::HashMap;

const PAGE: u64 = 4096;

/// Sparse bytes of one address space; untouched bytes read as zero.
#[derive(Debug, Clone, Default)]
pub struct SparseMemory {
    size: u64,
    pages: HashMap<u64, Box<[u8]>>,
}

impl SparseMemory {
    /// An empty memory of `size` bytes.
    pub fn new(size: u64) -> SparseMemory {
        SparseMemory { size, pages: HashMap::new() }
    }

    /// Size in bytes.
    pub fn size(&self) -> u64 {
        self.size
    }

    /// Bytes of host memory in use.
    pub fn resident_bytes(&self) -> u64 {
        self.pages.len() as u64 * PAGE
    }

    /// Whether `[addr, addr + len)` lies inside.
    pub fn contains(&self, addr: u64, len: u64) -> bool {
        addr.checked_add(len).is_some_and(|e| e <= self.size)
    }

    /// Copy `out.len()` bytes from `addr`. Panics outside the memory (callers check [`Self::contains`]).
    pub fn read(&self, addr: u64, out: &mut [u8]) {
        assert!(self.contains(addr, out.len() as u64), "DRAM read outside the channel");
        let mut done = 0usize;
        while done < out.len() {
            let a = addr + done as u64;
            let (page, off) = (a / PAGE, (a % PAGE) as usize);
            let n = (PAGE as usize - off).min(out.len() - done);
            match self.pages.get(&page) {
                Some(p) => out[done..done + n].copy_from_slice(&p[off..off + n]),
                None => out[done..done + n].fill(0),
            }
            done += n;
        }
    }

    /// Write `data` at `addr`. Panics outside the memory.
    pub fn write(&mut self, addr: u64, data: &[u8]) {
        assert!(self.contains(addr, data.len() as u64), "DRAM write outside the channel");
        let mut done = 0usize;
        while done < data.len() {
            let a = addr + done as u64;
            let (page, off) = (a / PAGE, (a % PAGE) as usize);
            let n = (PAGE as usize - off).min(data.len() - done);
            let p = self.pages.entry(page).or_insert_with(|| vec![0u8; PAGE as usize].into_boxed_slice());
            p[off..off + n].copy_from_slice(&data[done..done + n]);
            done += n;
        }
    }
}

/// The DRAM of a chip: one [`SparseMemory`] per channel.
#[derive(Debug, Clone, Default)]
pub struct Dram {
    channels: Vec<SparseMemory>,
}

impl Dram {
    /// `channels` channels of `channel_size` bytes.
    pub fn new(channels: usize, channel_size: u64) -> Dram {
        Dram { channels: (0..channels).map(|_| SparseMemory::new(channel_size)).collect() }
    }

    /// Channel `c`.
    pub fn channel(&self, c: usize) -> &SparseMemory {
        &self.channels[c]
    }

    /// Channel `c`, mutably.
    pub fn channel_mut(&mut self, c: usize) -> &mut SparseMemory {
        &mut self.channels[c]
    }

    /// Number of channels.
    pub fn num_channels(&self) -> usize {
        self.channels.len()
    }

    /// Bytes of host memory in use.
    pub fn resident_bytes(&self) -> u64 {
        self.channels.iter().map(|c| c.resident_bytes()).sum()
    }
}

/// Per-channel DRAM timing.
#[derive(Debug, Clone)]
pub struct DramTiming {
    params: DramParams,
    /// Bytes read and written per channel.
    pub bytes: Vec<(u64, u64)>,
}

impl DramTiming {
    /// Timing for `channels` channels.
    pub fn new(channels: usize, params: DramParams) -> DramTiming {
        DramTiming { params, bytes: vec![(0, 0); channels] }
    }

    /// A read of `len` bytes arriving at channel `ch` at `at`: when its data starts back.
    pub fn read(&mut self, ch: usize, len: u32, at: Cycle) -> Cycle {
        self.bytes[ch].0 += len as u64;
        at + self.params.read_latency
    }

    /// A write of `len` bytes fully arrived at channel `ch` at `at`: when it is committed and acknowledged.
    pub fn write(&mut self, ch: usize, len: u32, at: Cycle) -> Cycle {
        self.bytes[ch].1 += len as u64;
        at + self.params.write_latency
    }

    /// Read latency.
    pub fn read_latency(&self) -> Cycles {
        self.params.read_latency
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sparse_memory_reads_zero_and_crosses_pages() {
        let mut m = SparseMemory::new(12 << 30);
        let mut buf = [1u8; 8];
        m.read(5 << 30, &mut buf);
        assert_eq!(buf, [0; 8]);
        let data: Vec<u8> = (0..10_000u32).map(|i| i as u8).collect();
        m.write(4090, &data);
        let mut back = vec![0u8; 10_000];
        m.read(4090, &mut back);
        assert_eq!(back, data);
        assert_eq!(m.resident_bytes(), 4 * 4096);
        assert!(!m.contains(12 << 30, 1));
    }
}
