//! DRAM: sparse byte storage per channel (only touched pages exist — a Wormhole has 12 GiB of DRAM address
//! space) and the channel timing seen from the NoC.

use crate::calendar::Calendar;
use crate::params::{DramModelKind, DramParams};
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

    /// Append `len` bytes from `addr` to `out`. Panics outside the memory (callers check [`Self::contains`]).
    pub fn append_to(&self, addr: u64, len: u64, out: &mut Vec<u8>) {
        assert!(self.contains(addr, len), "DRAM read outside the channel");
        let mut done = 0u64;
        while done < len {
            let a = addr + done;
            let (page, off) = (a / PAGE, (a % PAGE) as usize);
            let n = (PAGE - off as u64).min(len - done) as usize;
            match self.pages.get(&page) {
                Some(p) => out.extend_from_slice(&p[off..off + n]),
                None => out.resize(out.len() + n, 0),
            }
            done += n as u64;
        }
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

/// A DRAM timing model: when a DRAM tile's reads and writes are done. Chosen by `dram.model`.
///
/// Contract: a request is timed once, when its packet reaches the DRAM tile (`at`); a read returns when its
/// data is ready to leave the tile, a write when it is committed and can be acknowledged; neither is ever
/// before `at`. Requests to one GDDR channel may be served in any order the model likes, but counters
/// (`bytes`, `busy`) count every request.
pub trait DramTiming: Send {
    /// Which model this is.
    fn kind(&self) -> DramModelKind;
    /// A read of `len` bytes at `addr` of descriptor channel `ch`, its request arrived at `at`: when the
    /// response may start leaving the tile so that, streaming out over `stream` cycles, it never outruns
    /// the data as the channel reads it.
    fn read(&mut self, ch: usize, addr: u64, len: u32, at: Cycle, stream: Cycles) -> Cycle;
    /// A write of `len` bytes at `addr` of descriptor channel `ch` whose packet streamed in over `stream`
    /// cycles and had fully arrived at `at`: when it is committed and can be acknowledged (the channel
    /// starts on the data as its first flits arrive).
    fn write(&mut self, ch: usize, addr: u64, len: u32, at: Cycle, stream: Cycles) -> Cycle;
    /// Time the tile's NIU takes one read request (requests are taken one at a time).
    fn read_serve(&self) -> Cycles;
    /// Number of GDDR channels.
    fn num_gddr(&self) -> usize;
    /// GDDR channels per descriptor channel.
    fn gddr_per_channel(&self) -> u32;
    /// Busy cycles of GDDR channel `g`.
    fn busy(&self, g: usize) -> u64;
    /// Bytes read and written through GDDR channel `g`.
    fn bytes(&self, g: usize) -> (u64, u64);
}

/// The model `params.model` names.
pub fn dram_timing(channels: usize, channel_size: u64, params: DramParams) -> Box<dyn DramTiming> {
    match params.model {
        DramModelKind::Calendar => Box::new(GddrCalendars::new(channels, channel_size, params)),
        DramModelKind::ZeroLoad => Box::new(ZeroLoadDram(GddrCalendars::new(channels, channel_size, params))),
    }
}

/// DRAM timing: every GDDR channel is a [`Calendar`] serving requests at its sustained bandwidth, after a
/// fixed access latency. A descriptor DRAM channel whose address range covers several GDDR channels (two on
/// Wormhole: 0–1 GiB and 1–2 GiB) splits its addresses evenly among them.
///
/// Where the parameters ask for them (Blackhole): the tile's own rate over all its channels
/// (`bank_bytes_per_kcycle`), reads of one region held until the previous read of that region is done and
/// walked in address order (`read_region_bytes`), and a write buffer that acknowledges writes as they
/// enter and drains them by address (`write_buffer_bytes`).
#[derive(Debug, Clone)]
pub struct GddrCalendars {
    params: DramParams,
    channel_size: u64,
    gddr: Vec<Calendar>,
    /// Per descriptor channel: the DRAM tile's own pipe (used when `bank_bytes_per_kcycle` is set).
    bank: Vec<Calendar>,
    /// (descriptor channel, read region) → when its last read ends.
    regions: HashMap<(usize, u64), u64>,
    /// Per descriptor channel: the writes in its buffer (when each has drained, bytes), by drain end.
    wbuf: Vec<std::collections::VecDeque<(u64, u64)>>,
    /// Per descriptor channel: bytes in its write buffer.
    wocc: Vec<u64>,
    /// Bytes read and written per GDDR channel.
    pub bytes: Vec<(u64, u64)>,
}

/// Read regions remembered before the ones long done are forgotten.
const REGIONS_KEPT: usize = 4096;

impl GddrCalendars {
    /// Timing for `channels` descriptor channels of `channel_size` bytes.
    pub fn new(channels: usize, channel_size: u64, params: DramParams) -> GddrCalendars {
        let n = channels * params.gddr_per_channel.max(1) as usize;
        GddrCalendars {
            params,
            channel_size,
            gddr: vec![Calendar::new(); n],
            bank: vec![Calendar::new(); channels],
            regions: HashMap::new(),
            wbuf: vec![Default::default(); channels],
            wocc: vec![0; channels],
            bytes: vec![(0, 0); n],
        }
    }

    /// The block of descriptor channel `ch` that starts at `a` and ends before `stop`: its GDDR channel and
    /// length. The whole range is one block unless the channels interleave (`interleave_bytes`) and it
    /// crosses a boundary; callers walk a range block by block in address order.
    fn block_at(&self, ch: usize, a: u64, stop: u64) -> (usize, u32) {
        let n = match self.params.interleave_bytes {
            0 => stop - a,
            g => ((a / g) + 1) * g - a,
        };
        (self.gddr_of(ch, a), n.min(stop - a) as u32)
    }

    /// The tile's own pipe: `len` bytes from `from`, when they are through (`from` when it has no limit).
    fn bank_pass(&mut self, ch: usize, len: u32, from: u64) -> u64 {
        match self.params.bank_bytes_per_kcycle {
            0 => from,
            r => {
                let d = (len as u64 * 1000).div_ceil(r);
                self.bank[ch].reserve(from, d, len as u64) + d
            }
        }
    }

    /// The GDDR channel serving `addr` of descriptor channel `ch`.
    pub fn gddr_of(&self, ch: usize, addr: u64) -> usize {
        let k = self.params.gddr_per_channel.max(1) as u64;
        let part = match self.params.interleave_bytes {
            0 => (addr / (self.channel_size / k).max(1)).min(k - 1),
            g => (addr / g) % k,
        };
        ch * k as usize + part as usize
    }

    fn service(&self, len: u32) -> u64 {
        (len as u64 * 1000).div_ceil(self.params.channel_bytes_per_kcycle.max(1))
    }

    /// Channel time of a write of `len` bytes: its data at the channel's rate, and at least the small-write
    /// cost when it is small.
    fn write_service(&self, len: u32) -> u64 {
        let d = self.service(len);
        if len <= self.params.small_write_bytes { d.max(self.params.small_write.0) } else { d }
    }

    /// Read latency.
    pub fn read_latency(&self) -> Cycles {
        self.params.read_latency
    }

    /// A write through the tile's write buffer: it enters once the buffer has room for it (the writes
    /// before it draining in the order they finish), is acknowledged `write_latency` after entering, and
    /// drains into its blocks' channels in parallel (and through the tile's pipe) from its first flits, or
    /// from entering when it had to wait.
    fn buffered_write(&mut self, ch: usize, addr: u64, len: u32, at: Cycle, stream: Cycles) -> Cycle {
        let cap = self.params.write_buffer_bytes;
        let (q, occ) = (&mut self.wbuf[ch], &mut self.wocc[ch]);
        let mut enter = at.0;
        while let Some(&(end, n)) = q.front() {
            if end > enter && *occ + len as u64 <= cap {
                break;
            }
            enter = enter.max(end);
            *occ -= n;
            q.pop_front();
        }
        let from = if enter > at.0 { enter } else { at.0.saturating_sub(stream.0) };
        let (mut end, mut a, stop) = (from, addr, addr + len as u64);
        while a < stop {
            let (g, n) = self.block_at(ch, a, stop);
            self.bytes[g].1 += n as u64;
            let d = self.write_service(n);
            end = end.max(self.gddr[g].reserve(from, d, n as u64) + d);
            a += n as u64;
        }
        let end = end.max(self.bank_pass(ch, len, from));
        let q = &mut self.wbuf[ch];
        let at_pos = q.partition_point(|&(e, _)| e <= end);
        q.insert(at_pos, (end, len as u64));
        self.wocc[ch] += len as u64;
        Cycle(enter) + self.params.write_latency
    }
}

impl DramTiming for GddrCalendars {
    fn kind(&self) -> DramModelKind {
        DramModelKind::Calendar
    }

    fn read(&mut self, ch: usize, addr: u64, len: u32, at: Cycle, stream: Cycles) -> Cycle {
        let region = self.params.read_region_bytes;
        if region == 0 && self.params.bank_bytes_per_kcycle == 0 {
            // The whole read from the channel of its first byte.
            let g = self.gddr_of(ch, addr);
            self.bytes[g].0 += len as u64;
            let dur = self.service(len);
            let s = self.gddr[g].reserve(at.0, dur, len as u64);
            return Cycle(s + dur.saturating_sub(stream.0)) + self.params.read_latency;
        }
        // A read of a region waits for the region's previous read, then walks its blocks in address order.
        let key = (ch, addr / region.max(1));
        let from = if region > 0 { self.regions.get(&key).map_or(at.0, |&b| b.max(at.0)) } else { at.0 };
        let (mut first, mut end, mut a, stop) = (None, from, addr, addr + len as u64);
        while a < stop {
            let (g, n) = self.block_at(ch, a, stop);
            self.bytes[g].0 += n as u64;
            let d = self.service(n);
            let s = self.gddr[g].reserve(end, d, n as u64);
            first.get_or_insert(s);
            end = s + d;
            a += n as u64;
        }
        let end = end.max(self.bank_pass(ch, len, from));
        if region > 0 {
            if self.regions.len() >= REGIONS_KEPT {
                self.regions.retain(|_, b| *b > at.0);
            }
            self.regions.insert(key, end);
        }
        Cycle(first.unwrap_or(from).max(end.saturating_sub(stream.0))) + self.params.read_latency
    }

    fn write(&mut self, ch: usize, addr: u64, len: u32, at: Cycle, stream: Cycles) -> Cycle {
        if self.params.write_buffer_bytes > 0 {
            return self.buffered_write(ch, addr, len, at, stream);
        }
        let g = self.gddr_of(ch, addr);
        self.bytes[g].1 += len as u64;
        // The channel is busy for the write's service (a small write's partial-line cost included); the
        // ack follows the data's own channel time and the commit latency, which overlaps that extra cost.
        let busy = self.write_service(len);
        let s = self.gddr[g].reserve(at.0.saturating_sub(stream.0), busy, len as u64);
        Cycle((s + self.service(len)).max(at.0)) + self.params.write_latency.max(Cycles(busy - self.service(len)))
    }

    fn read_serve(&self) -> Cycles {
        self.params.read_serve
    }

    fn num_gddr(&self) -> usize {
        self.gddr.len()
    }

    fn gddr_per_channel(&self) -> u32 {
        self.params.gddr_per_channel.max(1)
    }

    fn busy(&self, g: usize) -> u64 {
        self.gddr[g].busy
    }

    fn bytes(&self, g: usize) -> (u64, u64) {
        self.bytes[g]
    }
}

/// Every DRAM access at its unloaded time: its own transfer at the channel's rate plus the access latency,
/// never waiting for another (a floor; not calibrated). Counters as in [`GddrCalendars`].
#[derive(Debug, Clone)]
pub struct ZeroLoadDram(GddrCalendars);

impl ZeroLoadDram {
    fn count(&mut self, ch: usize, addr: u64, len: u32, write: bool) -> u64 {
        let g = self.0.gddr_of(ch, addr);
        let dur = if write { self.0.write_service(len) } else { self.0.service(len) };
        let (b, c) = (&mut self.0.bytes[g], &mut self.0.gddr[g]);
        if write {
            b.1 += len as u64
        } else {
            b.0 += len as u64
        }
        c.busy += dur;
        c.bytes += len as u64;
        c.uses += 1;
        dur
    }
}

impl DramTiming for ZeroLoadDram {
    fn kind(&self) -> DramModelKind {
        DramModelKind::ZeroLoad
    }

    fn read(&mut self, ch: usize, addr: u64, len: u32, at: Cycle, stream: Cycles) -> Cycle {
        let dur = self.count(ch, addr, len, false);
        Cycle(at.0 + dur.saturating_sub(stream.0)) + self.0.params.read_latency
    }

    fn write(&mut self, ch: usize, addr: u64, len: u32, at: Cycle, stream: Cycles) -> Cycle {
        let dur = self.count(ch, addr, len, true);
        Cycle((at.0.saturating_sub(stream.0) + dur).max(at.0)) + self.0.params.write_latency
    }

    fn read_serve(&self) -> Cycles {
        Cycles::ZERO
    }

    fn num_gddr(&self) -> usize {
        self.0.num_gddr()
    }

    fn gddr_per_channel(&self) -> u32 {
        self.0.gddr_per_channel()
    }

    fn busy(&self, g: usize) -> u64 {
        self.0.busy(g)
    }

    fn bytes(&self, g: usize) -> (u64, u64) {
        self.0.bytes(g)
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

    #[test]
    fn gddr_channels_serve_at_their_bandwidth() {
        let p = DramParams {
            read_latency: Cycles(100),
            write_latency: Cycles(40),
            channel_bytes_per_kcycle: 22_000,
            gddr_per_channel: 2,
            model: DramModelKind::Calendar,
            ..DramParams::default()
        };
        let mut d = GddrCalendars::new(6, 2 << 30, p.clone());
        assert_eq!(d.num_gddr(), 12);
        assert_eq!(d.gddr_of(0, 0), 0);
        assert_eq!(d.gddr_of(0, 1 << 30), 1);
        assert_eq!(d.gddr_of(5, (2 << 30) - 1), 11);
        // 2200 bytes take 100 cycles of the channel; two back to back share it.
        let z = Cycles::ZERO;
        assert_eq!(d.read(0, 0, 2200, Cycle(0), z), Cycle(200));
        assert_eq!(d.read(0, 64, 2200, Cycle(0), z), Cycle(300));
        // The other GDDR channel of the same tile group is independent.
        assert_eq!(d.read(0, 1 << 30, 2200, Cycle(0), z), Cycle(200));
        assert_eq!(d.write(1, 0, 2200, Cycle(10), z), Cycle(150));
        // Streaming: a read's response leaves as soon as it cannot outrun the channel (100 cycles of data,
        // 70 of NoC streaming: 30 after the start); a write's channel work starts with its first flits.
        assert_eq!(d.read(2, 0, 2200, Cycle(0), Cycles(70)), Cycle(130));
        assert_eq!(d.write(3, 0, 2200, Cycle(100), Cycles(70)), Cycle(170));
        // Small writes keep the channel busy for the controller's partial-line cost (60 cycles); the ack
        // waits for the longer of that cost and the commit latency (40) after the data's 2 cycles.
        let mut s =
            GddrCalendars::new(1, 1 << 30, DramParams { small_write_bytes: 64, small_write: Cycles(60), ..p.clone() });
        assert_eq!(s.write(0, 0, 32, Cycle(0), z), Cycle(60));
        assert_eq!(s.write(0, 0, 32, Cycle(0), z), Cycle(120));
        // With a commit latency longer than the cost, the cost no longer shows in the ack, only in the rate.
        let mut l = GddrCalendars::new(
            1,
            1 << 30,
            DramParams { small_write_bytes: 64, small_write: Cycles(60), write_latency: Cycles(110), ..p.clone() },
        );
        assert_eq!(l.write(0, 0, 32, Cycle(0), z), Cycle(112));
        assert_eq!(l.write(0, 0, 32, Cycle(0), z), Cycle(172));
        // Zero-load: the second read does not wait for the first.
        let mut z = dram_timing(6, 2 << 30, DramParams { model: DramModelKind::ZeroLoad, ..p });
        assert_eq!(z.read(0, 0, 2200, Cycle(0), Cycles::ZERO), Cycle(200));
        assert_eq!(z.read(0, 64, 2200, Cycle(0), Cycles::ZERO), Cycle(200));
        assert_eq!((z.bytes(0), z.busy(0)), ((4400, 0), 200));
    }

    /// Blackhole's bank: two channels of 8 KiB blocks (1 byte per cycle each here), a tile pipe of 1.5 bytes
    /// per cycle, reads held per 16 KiB region and walked in order, a 12 KiB write buffer.
    fn two_channel_bank() -> GddrCalendars {
        let p = DramParams {
            model: DramModelKind::Calendar,
            channel_bytes_per_kcycle: 1000,
            gddr_per_channel: 2,
            interleave_bytes: 8192,
            bank_bytes_per_kcycle: 1500,
            read_region_bytes: 16384,
            write_buffer_bytes: 12288,
            write_latency: Cycles(40),
            ..DramParams::default()
        };
        GddrCalendars::new(1, 1 << 30, p)
    }

    #[test]
    fn a_bank_of_two_channels_splits_reads_and_holds_a_region() {
        let mut d = two_channel_bank();
        let z = Cycles::ZERO;
        let blocks = [d.block_at(0, 4096, 20480), d.block_at(0, 8192, 20480), d.block_at(0, 16384, 20480)];
        assert_eq!(blocks, [(0, 4096), (1, 8192), (0, 4096)]);
        // 16 KiB at 0: channel 0's 8 KiB, then channel 1's — in order; the tile pipe (10923 cycles) is faster.
        assert_eq!(d.read(0, 0, 16384, Cycle(0), z), Cycle(16384));
        // Reading the same region again waits for the first read to end.
        assert_eq!(d.read(0, 0, 16384, Cycle(0), z), Cycle(32768));
        // Another region goes alongside it: its channel-0 block as soon as channel 0 is free (8192), its
        // channel-1 block after that (16384..24576) — not held for the first read's end (the tile's pipe
        // alone would allow 32 KiB by 21846).
        let mut e = two_channel_bank();
        e.read(0, 0, 16384, Cycle(0), z);
        assert_eq!(e.read(0, 16384, 16384, Cycle(0), z), Cycle(24576));
        assert_eq!((e.bytes(0), e.bytes(1)), ((16384, 0), (16384, 0)));
    }

    #[test]
    fn writes_are_acknowledged_from_the_buffer_until_it_fills() {
        let mut d = two_channel_bank();
        let z = Cycles::ZERO;
        // 4 KiB writes into channel 0's block: each acked as it enters, while 12 KiB of them fit.
        for _ in 0..3 {
            assert_eq!(d.write(0, 0, 4096, Cycle(0), z), Cycle(40));
        }
        // The fourth waits for the first to drain (4096 cycles at the channel's 1 B/cycle).
        assert_eq!(d.write(0, 0, 4096, Cycle(0), z), Cycle(4096 + 40));
        // Without a buffer the ack follows the channel.
        let mut u = GddrCalendars::new(1, 1 << 30, DramParams { write_buffer_bytes: 0, ..d.params.clone() });
        assert_eq!(u.write(0, 0, 4096, Cycle(0), z), Cycle(4096 + 40));
    }
}
