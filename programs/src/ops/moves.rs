//! Moving a tensor between placements on the device, as tt-metal's data-movement ops do it:
//!
//! - `interleaved_to_sharded` (an interleaved source into L1 shards): on each shard core RISCV_1 reads its
//!   pages over NoC 0 (the preferred NoC for DRAM reads) straight into the shard, one shard row of pages
//!   after another, with a read barrier after each row;
//! - `reshard` (a sharded source into L1 shards): each destination core reads the pieces of its shard from
//!   the source shards with both data-movement RISCs, RISCV_0 on NoC 1 and RISCV_1 on NoC 0, each taking
//!   half of the bytes and one barrier at its end;
//! - `sharded_to_interleaved` (L1 shards out to anything else): on each shard core RISCV_0 writes its
//!   pages over NoC 1 (the preferred NoC for DRAM writes), a write barrier after each shard row;
//! - between two placements that are not in L1 shards: a few worker cores stage each destination page
//!   through a circular buffer (RISCV_1 reads the pieces, RISCV_0 writes the page).
//!
//! The transfers are planned on the host ([`super::move_plan`]) and handed to each core as a table of words in
//! its L1 (a small sharded buffer). A run is `[x, y, remote address, local address, bytes]`; the two-RISC
//! table is `[runs of RISCV_0, runs of RISCV_1, runs…]`, the blocked one `[blocks, per block: runs, the
//! runs…]`.

use super::move_plan::{Piece, Run, halves, pieces, push_run};
use layout::placement::{ShardOrientation, ShardSpecBuffer, TensorMemoryLayout};
use layout::ttnn::BufferKind;
use sim_device::prelude::*;
use sim_device::tensor::DeviceTensor;
use std::collections::BTreeMap;

/// How a move was carried out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Strategy {
    /// Shard cores read their pages from an interleaved source (RISCV_1, NoC 0, a barrier per shard row).
    InterleavedToShards,
    /// Shard cores read the pieces of their shards from a sharded source (both RISCs).
    Reshard,
    /// Source shard cores write their pages out (RISCV_0, NoC 1, a barrier per shard row).
    ShardsOut,
    /// Worker cores stage pages through L1.
    Staged,
}

impl std::fmt::Display for Strategy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Strategy::InterleavedToShards => "shard cores read their pages (RISCV_1, NoC 0, a barrier per shard row)",
            Strategy::Reshard => "shard cores read their pieces with both RISCs (RISCV_0 on NoC 1, RISCV_1 on NoC 0)",
            Strategy::ShardsOut => "shard cores write their pages out (RISCV_0, NoC 1, a barrier per shard row)",
            Strategy::Staged => "worker cores stage pages through L1",
        })
    }
}

fn words(b: &[u8]) -> Vec<u32> {
    b.chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect()
}

/// The two-RISC reshard reader: RT args (table address, which half).
pub fn read_runs(k: &mut Dataflow) {
    let (table, which): (u32, u32) = (k.get_arg_val(0), k.get_arg_val(1));
    let h = words(&k.l1_read_bytes(table, 8));
    let (first, n) = if which == 0 { (0, h[0]) } else { (h[0], h[1]) };
    if n > 0 {
        let w = words(&k.l1_read_bytes(table + 8 + first * 20, n * 20));
        for r in w.chunks_exact(5) {
            let a = k.get_noc_addr(r[0], r[1], r[2]);
            k.noc_async_read(a, r[3], r[4]);
        }
    }
    k.noc_async_read_barrier();
}

/// The blocked reader or writer: RT arg 0 = table address; reads (`write` false) or writes each block's
/// runs, then waits on the matching barrier.
fn blocked(k: &mut Dataflow, write: bool) {
    let table: u32 = k.get_arg_val(0);
    let blocks = words(&k.l1_read_bytes(table, 4))[0];
    let mut at = table + 4;
    for _ in 0..blocks {
        let n = words(&k.l1_read_bytes(at, 4))[0];
        let w = words(&k.l1_read_bytes(at + 4, n * 20));
        at += 4 + n * 20;
        for r in w.chunks_exact(5) {
            let a = k.get_noc_addr(r[0], r[1], r[2]);
            if write {
                k.noc_async_write(r[3], a, r[4]);
            } else {
                k.noc_async_read(a, r[3], r[4]);
            }
        }
        if write {
            k.noc_async_write_barrier();
        } else {
            k.noc_async_read_barrier();
        }
    }
    if write {
        k.noc_async_write_barrier();
    } else {
        k.noc_async_read_barrier();
    }
}

/// `interleaved_to_sharded`'s reader.
pub fn read_blocks(k: &mut Dataflow) {
    blocked(k, false)
}

/// `sharded_to_interleaved`'s writer.
pub fn write_blocks(k: &mut Dataflow) {
    blocked(k, true)
}

/// Staged reader (RISCV_1): RT arg 0 = table address. Table: `[pages, writer section offset (words), per
/// page: runs, the runs…]`; each run lands at its offset in the CB page.
pub fn staged_reader(k: &mut Dataflow) {
    let table: u32 = k.get_arg_val(0);
    let h = words(&k.l1_read_bytes(table, 8));
    let mut at = table + 8;
    for _ in 0..h[0] {
        let n = words(&k.l1_read_bytes(at, 4))[0];
        let runs = words(&k.l1_read_bytes(at + 4, n * 20));
        at += 4 + n * 20;
        k.cb_reserve_back(CBIndex::c_0, 1);
        let base = k.get_write_ptr(CBIndex::c_0);
        for r in runs.chunks_exact(5) {
            let a = k.get_noc_addr(r[0], r[1], r[2]);
            k.noc_async_read(a, base + r[3], r[4]);
        }
        k.noc_async_read_barrier();
        k.cb_push_back(CBIndex::c_0, 1);
    }
}

/// Staged writer (RISCV_0): the writer section of the table — per page `[x, y, address, bytes]`.
pub fn staged_writer(k: &mut Dataflow) {
    let table: u32 = k.get_arg_val(0);
    let h = words(&k.l1_read_bytes(table, 8));
    let w = words(&k.l1_read_bytes(table + h[1] * 4, h[0] * 16));
    for r in w.chunks_exact(4) {
        k.cb_wait_front(CBIndex::c_0, 1);
        let src = k.get_read_ptr(CBIndex::c_0);
        let a = k.get_noc_addr(r[0], r[1], r[2]);
        k.noc_async_write(src, a, r[3]);
        k.noc_async_write_barrier();
        k.cb_pop_front(CBIndex::c_0, 1);
    }
}

fn is_l1_sharded(t: &DeviceTensor) -> bool {
    t.spec.memory.buffer() == BufferKind::L1 && t.derived.layout != TensorMemoryLayout::Interleaved
}

fn is_sharded(t: &DeviceTensor) -> bool {
    t.derived.layout != TensorMemoryLayout::Interleaved
}

/// A sharded L1 buffer holding one table (of `u32` words) per core of `cores`.
fn table_buffer(dev: &mut Device, cores: &[CoreCoord], tables: &[Vec<u32>]) -> Result<Buffer, DeviceError> {
    let words = tables.iter().map(Vec::len).max().unwrap_or(1).max(1).div_ceil(4) * 4;
    let grid = CoreRangeSet::new(cores.iter().map(|&c| CoreRange::single(c)).collect())?;
    let b = dev.create_sharded_buffer(&ShardedBufferConfig {
        size: (words * 4 * cores.len()) as u64,
        page_size: (words * 4) as u64,
        buffer_type: BufferType::L1,
        shards: ShardParameters::Legacy {
            layout: TensorMemoryLayout::HeightSharded,
            spec: ShardSpecBuffer {
                grid,
                shard_shape: [1, words as u32],
                orientation: ShardOrientation::RowMajor,
                page_shape: [1, words as u32],
                tensor2d_shape_in_pages: [cores.len() as u32, 1],
            },
        },
    })?;
    let mut data = Vec::with_capacity(words * cores.len());
    for t in tables {
        data.extend_from_slice(t);
        data.resize(data.len() + words - t.len(), 0);
    }
    dev.enqueue_write_buffer(&b, &data)?;
    Ok(b)
}

/// The run moving piece `p` as a core reading into `dst` (`read`) or writing out of `src` addresses it on
/// `noc`, and the core that issues it. Both ends must agree modulo the NoC's alignment for the transfer
/// (DRAM or L1 reads, writes), as on the hardware.
fn run_of(
    dev: &Device,
    src: &DeviceTensor,
    dst: &DeviceTensor,
    p: &Piece,
    noc: NocId,
    read: bool,
) -> Result<(Run, CoreCoord), DeviceError> {
    let s = dev.page_noc_location(&src.buffer, p.src_page, noc)?;
    let d = dev.page_noc_location(&dst.buffer, p.dst_page, noc)?;
    let (sa, da) = (s.addr + p.src_off, d.addr + p.dst_off);
    let m = dev.mem();
    let align = if !read {
        m.write_alignment
    } else if s.dram_bank.is_some() {
        m.dram_read_alignment
    } else {
        m.l1_read_alignment
    } as u64;
    if p.len > 16 && sa % align != da % align {
        return Err(DeviceError::api(format!(
            "not modelled: a row segment at byte {} of source page {} would land at byte {} of destination page {}, not the same modulo the {align}-byte NoC alignment; choose shard widths whose rows are multiples of {align} bytes (TTNN requires it too)",
            p.src_off, p.src_page, p.dst_off, p.dst_page
        )));
    }
    Ok(if read {
        (Run { x: s.x, y: s.y, remote: sa, local: da, len: p.len }, d.core.unwrap_or_default())
    } else {
        (Run { x: d.x, y: d.y, remote: da, local: sa, len: p.len }, s.core.unwrap_or_default())
    })
}

/// The shard row of host page `page` of a sharded tensor (slot / pages per shard row).
fn shard_row(t: &DeviceTensor, page: u64) -> u64 {
    let d = t.buffer.distribution();
    let per_row = match t.buffer.sharding() {
        Some(s) => s.dist.shard_pages().dim(-1).max(1),
        None => 1,
    };
    d.locate(page).map_or(0, |l| l.slot / per_row)
}

type Tables = (Vec<CoreCoord>, Vec<Vec<u32>>);

/// Pieces grouped by issuing core, each core's sorted by local address.
fn by_core(
    dev: &Device,
    src: &DeviceTensor,
    dst: &DeviceTensor,
    pcs: &[Piece],
    read: bool,
) -> Result<BTreeMap<CoreCoord, Vec<(u64, Piece)>>, DeviceError> {
    let mut m: BTreeMap<CoreCoord, Vec<(u64, Piece)>> = BTreeMap::new();
    for pc in pcs {
        let (r, core) = run_of(dev, src, dst, pc, NocId::Noc0, read)?;
        m.entry(core).or_default().push((r.local, *pc));
    }
    for list in m.values_mut() {
        list.sort_by_key(|(local, _)| *local);
    }
    Ok(m)
}

fn two_risc_tables(dev: &Device, src: &DeviceTensor, dst: &DeviceTensor, pcs: &[Piece]) -> Result<Tables, DeviceError> {
    let (mut cores, mut tables) = (Vec::new(), Vec::new());
    for (core, list) in by_core(dev, src, dst, pcs, true)? {
        let sizes: Vec<Run> = list.iter().map(|(_, pc)| Run { x: 0, y: 0, remote: 0, local: 0, len: pc.len }).collect();
        let split = halves(&sizes);
        let mut table = vec![0u32, 0u32];
        // RISCV_0 reads the first half over NoC 1, RISCV_1 the second over NoC 0.
        for (slot, half, noc) in [(0, &list[..split], NocId::Noc1), (1, &list[split..], NocId::Noc0)] {
            let mut runs: Vec<Run> = Vec::new();
            for (_, pc) in half {
                push_run(&mut runs, run_of(dev, src, dst, pc, noc, true)?.0);
            }
            table[slot] = runs.len() as u32;
            table.extend(runs.iter().flat_map(|r| r.words()));
        }
        cores.push(core);
        tables.push(table);
    }
    Ok((cores, tables))
}

fn blocked_tables(
    dev: &Device,
    src: &DeviceTensor,
    dst: &DeviceTensor,
    pcs: &[Piece],
    read: bool,
    noc: NocId,
) -> Result<Tables, DeviceError> {
    let (mut cores, mut tables) = (Vec::new(), Vec::new());
    let shards = if read { dst } else { src };
    for (core, list) in by_core(dev, src, dst, pcs, read)? {
        // Blocks: the shard rows of the core's pages.
        let mut blocks: BTreeMap<u64, Vec<Run>> = BTreeMap::new();
        for (_, pc) in &list {
            let row = shard_row(shards, if read { pc.dst_page } else { pc.src_page });
            push_run(blocks.entry(row).or_default(), run_of(dev, src, dst, pc, noc, read)?.0);
        }
        let mut table = vec![blocks.len() as u32];
        for runs in blocks.values() {
            table.push(runs.len() as u32);
            table.extend(runs.iter().flat_map(|r| r.words()));
        }
        cores.push(core);
        tables.push(table);
    }
    Ok((cores, tables))
}

fn staged_tables(dev: &Device, src: &DeviceTensor, dst: &DeviceTensor, pcs: &[Piece]) -> Result<Tables, DeviceError> {
    let grid = dev.compute_with_storage_grid_size();
    let n = (dst.derived.num_pages.min(8) as u32).min(grid.x * grid.y).max(1);
    let cores: Vec<CoreCoord> = num_cores_to_corerangeset(n, grid, true)?.iter().collect();
    // Pieces per destination page; pages dealt round-robin to the cores.
    let mut per_page: BTreeMap<u64, Vec<Piece>> = BTreeMap::new();
    for pc in pcs {
        per_page.entry(pc.dst_page).or_default().push(*pc);
    }
    let mut readers: Vec<Vec<u32>> = vec![Vec::new(); cores.len()];
    let mut writers: Vec<Vec<u32>> = vec![Vec::new(); cores.len()];
    let mut counts = vec![0u32; cores.len()];
    for (i, (dp, list)) in per_page.iter().enumerate() {
        let c = i % cores.len();
        let mut runs = Vec::new();
        for pc in list {
            let (r, _) = run_of(dev, src, dst, pc, NocId::Noc1, true)?;
            // Into the staging page: the local side is the offset in the page.
            push_run(&mut runs, Run { local: pc.dst_off, ..r });
        }
        readers[c].push(runs.len() as u32);
        readers[c].extend(runs.iter().flat_map(|r| r.words()));
        let d = dev.page_noc_location(&dst.buffer, *dp, NocId::Noc0)?;
        writers[c].extend([d.x, d.y, d.addr as u32, dst.derived.page_size as u32]);
        counts[c] += 1;
    }
    let tables = (0..cores.len())
        .map(|c| {
            let mut t = vec![counts[c], 2 + readers[c].len() as u32];
            t.extend(&readers[c]);
            t.extend(&writers[c]);
            t
        })
        .collect();
    Ok((cores, tables))
}

/// Move `src` into `dst` (both allocated, same tensor) with a program of its own; returns the run's report
/// and how the move was done.
/// Row-major pages move a row segment per NoC transfer, and a transfer's two ends must agree modulo the
/// NoC alignment of the memories it touches (DRAM reads: `mem.dram_read_alignment_bytes`, L1 reads:
/// `mem.l1_read_alignment_bytes`, writes: `mem.write_alignment_bytes`). Rows packed tighter than that land
/// at offsets the hardware cannot reach, so a spec whose row-major pages are not a multiple of the
/// alignment is refused here, naming the alignment and the width that would satisfy it (TTNN refuses
/// such shards too). Tiled pages are whole tiles, always aligned.
fn check_row_alignment(dev: &Device, src: &DeviceTensor, dst: &DeviceTensor) -> Result<(), DeviceError> {
    if !matches!(src.spec.page, PageConfig::RowMajor) {
        return Ok(());
    }
    let m = dev.mem();
    let in_dram = |t: &DeviceTensor| t.spec.memory.buffer() == BufferKind::Dram;
    let align = |t: &DeviceTensor| if in_dram(t) { m.dram_read_alignment } else { m.l1_read_alignment };
    let need = align(src).max(align(dst)).max(m.write_alignment) as u64;
    let elem = src.spec.dtype.element_size().unwrap_or(1);
    for (t, role) in [(src, "source"), (dst, "destination")] {
        let page = t.derived.page_size;
        if page % need != 0 {
            let width = t.derived.page_shape[1];
            return Err(DeviceError::api(format!(
                "the {role}'s row-major pages are {page} bytes ({width} elements of {elem} bytes), not a multiple of the {need}-byte NoC alignment this move needs ({}); make the {} a multiple of {} elements",
                if in_dram(src) || in_dram(dst) {
                    "a DRAM end reads at mem.dram_read_alignment_bytes"
                } else {
                    "L1 reads and writes at mem.l1_read_alignment_bytes / mem.write_alignment_bytes"
                },
                if t.derived.layout == TensorMemoryLayout::Interleaved { "tensor width" } else { "shard width" },
                need.div_ceil(elem).max(1),
            )));
        }
    }
    Ok(())
}

pub fn move_tensor(
    dev: &mut Device,
    src: &DeviceTensor,
    dst: &DeviceTensor,
) -> Result<(RunReport, Strategy), DeviceError> {
    if src.spec.shape != dst.spec.shape || src.spec.dtype != dst.spec.dtype || src.spec.page != dst.spec.page {
        return Err(DeviceError::api(format!(
            "a move keeps the tensor: source {} {} vs destination {} {}",
            src.spec.shape, src.spec.dtype, dst.spec.shape, dst.spec.dtype
        )));
    }
    check_row_alignment(dev, src, dst)?;
    let pcs = pieces(&src.spec, &src.derived, &dst.derived).map_err(DeviceError::api)?;
    let strategy = match (is_sharded(src), is_l1_sharded(dst), is_l1_sharded(src)) {
        (false, true, _) => Strategy::InterleavedToShards,
        (true, true, _) => Strategy::Reshard,
        (_, false, true) => Strategy::ShardsOut,
        _ => Strategy::Staged,
    };
    let (cores, tables) = match strategy {
        Strategy::InterleavedToShards => blocked_tables(dev, src, dst, &pcs, true, NocId::Noc0)?,
        Strategy::Reshard => two_risc_tables(dev, src, dst, &pcs)?,
        Strategy::ShardsOut => blocked_tables(dev, src, dst, &pcs, false, NocId::Noc1)?,
        Strategy::Staged => staged_tables(dev, src, dst, &pcs)?,
    };
    let tb = table_buffer(dev, &cores, &tables)?;
    let set = CoreRangeSet::new(cores.iter().map(|&c| CoreRange::single(c)).collect())?;
    let dm = |processor, noc| DataMovementConfig { processor, noc, ..Default::default() };
    let (r0, r1) = (DataMovementProcessor::RISCV_0, DataMovementProcessor::RISCV_1);
    let mut p = Program::new();
    let mut kernels = Vec::new();
    match strategy {
        Strategy::InterleavedToShards => {
            kernels.push((
                p.create_kernel(
                    Kernel::dataflow("tensim/ops/interleaved_to_sharded_reader", read_blocks),
                    &set,
                    dm(r1, NocId::Noc0),
                )?,
                0,
            ));
        }
        Strategy::Reshard => {
            kernels.push((
                p.create_kernel(
                    Kernel::dataflow("tensim/ops/reshard_reader_riscv0", read_runs),
                    &set,
                    dm(r0, NocId::Noc1),
                )?,
                0,
            ));
            kernels.push((
                p.create_kernel(
                    Kernel::dataflow("tensim/ops/reshard_reader_riscv1", read_runs),
                    &set,
                    dm(r1, NocId::Noc0),
                )?,
                1,
            ));
        }
        Strategy::ShardsOut => {
            kernels.push((
                p.create_kernel(
                    Kernel::dataflow("tensim/ops/sharded_to_interleaved_writer", write_blocks),
                    &set,
                    dm(r0, NocId::Noc1),
                )?,
                0,
            ));
        }
        Strategy::Staged => {
            // Staging pages start at the DRAM read alignment so page-aligned reads stay aligned.
            let a = dev.mem().dram_read_alignment.max(dev.mem().l1_alignment) as u64;
            let page = dst.derived.page_size.div_ceil(a) as u32 * a as u32;
            let format = dst.spec.dtype.data_format();
            p.create_circular_buffer(
                &set,
                CircularBufferConfig::new(2 * page, &[(CBIndex::c_0, format)]).set_page_size(CBIndex::c_0, page),
            )?;
            kernels.push((
                p.create_kernel(
                    Kernel::dataflow("tensim/ops/staged_writer", staged_writer),
                    &set,
                    dm(r0, NocId::Noc0),
                )?,
                0,
            ));
            kernels.push((
                p.create_kernel(
                    Kernel::dataflow("tensim/ops/staged_reader", staged_reader),
                    &set,
                    dm(r1, NocId::Noc1),
                )?,
                1,
            ));
        }
    }
    for &c in &cores {
        for &(k, which) in &kernels {
            p.set_runtime_args(k, c, &[tb.address(), which])?;
        }
    }
    let report = dev.enqueue_program(&p);
    dev.deallocate_buffer(&tb)?;
    Ok((report?, strategy))
}
