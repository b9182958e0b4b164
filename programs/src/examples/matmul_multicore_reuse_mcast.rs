//! matmul_multicore_reuse_mcast (tt-metal `programming_examples/matmul/matmul_multicore_reuse_mcast`): the
//! blocked matmul of `matmul_multicore_reuse`, but each A row-block is read from DRAM once, by the core in
//! column 0, and multicast along its row; each B column-block is read once, by the core in row 0, and
//! multicast down its column. Four reader variants (in0 sender or receiver × in1 sender or receiver)
//! synchronise every block with semaphores: a receiver signals readiness on the sender's semaphore and
//! waits for the sender to multicast the data and then VALID to its own.

use super::common::{CB_IN0, CB_IN1};
use super::matmul_common::{
    BlockPlan, MatmulShape, bmm_large_block_zm, fidelity, finish, setup, writer_bmm_tile_layout,
};
use crate::options::{ExampleOptions, Outcome, ProgramError};
use sim_device::prelude::*;

const VALID: u32 = 1;
const INVALID: u32 = 0;

/// The runtime args every reader variant takes (see `ReaderArgs::to_vec` for the order).
#[derive(Debug, Clone, Copy, Default)]
pub struct ReaderArgs {
    in0_addr: u32,
    in0_start: u32,
    in0_stride_h: u32,
    in0_next_block: u32,
    in0_block_w: u32,
    in0_block_h: u32,
    in1_addr: u32,
    in1_start: u32,
    in1_stride_h: u32,
    in1_next_block: u32,
    in1_block_w: u32,
    num_blocks: u32,
    /// in0 multicast rectangle (NoC x/y start, end), destinations, and the in0 sender's NoC x/y.
    in0_mcast: [u32; 7],
    /// in1 multicast rectangle, destinations, and the in1 sender's NoC x/y.
    in1_mcast: [u32; 7],
    /// Semaphore ids: in0 sender, in0 receiver, in1 sender, in1 receiver.
    sems: [u32; 4],
}

impl ReaderArgs {
    fn to_vec(self) -> Vec<u32> {
        let mut v = vec![
            self.in0_addr,
            self.in0_start,
            self.in0_stride_h,
            self.in0_next_block,
            self.in0_block_w,
            self.in0_block_h,
            self.in1_addr,
            self.in1_start,
            self.in1_stride_h,
            self.in1_next_block,
            self.in1_block_w,
            self.num_blocks,
        ];
        v.extend(self.in0_mcast);
        v.extend(self.in1_mcast);
        v.extend(self.sems);
        v
    }

    fn read(k: &mut Dataflow) -> ReaderArgs {
        let mut a: Vec<u32> = (0..30).map(|i| k.get_arg_val(i)).collect();
        let sems = [a[26], a[27], a[28], a[29]];
        let in1_mcast: [u32; 7] = a[19..26].try_into().expect("7 args");
        let in0_mcast: [u32; 7] = a[12..19].try_into().expect("7 args");
        a.truncate(12);
        ReaderArgs {
            in0_addr: a[0],
            in0_start: a[1],
            in0_stride_h: a[2],
            in0_next_block: a[3],
            in0_block_w: a[4],
            in0_block_h: a[5],
            in1_addr: a[6],
            in1_start: a[7],
            in1_stride_h: a[8],
            in1_next_block: a[9],
            in1_block_w: a[10],
            num_blocks: a[11],
            in0_mcast,
            in1_mcast,
            sems,
        }
    }
}

/// Which operand a helper moves.
#[derive(Clone, Copy)]
enum Operand {
    In0,
    In1,
}

struct Side {
    cb: CBIndex,
    addr: u32,
    block_h: u32,
    block_w: u32,
    stride_h: u32,
    next_block: u32,
    mcast: [u32; 7],
    sender_sem: u32,
    receiver_sem: u32,
}

fn side(k: &Dataflow, a: &ReaderArgs, op: Operand) -> Side {
    match op {
        Operand::In0 => Side {
            cb: CB_IN0,
            addr: a.in0_addr,
            block_h: a.in0_block_h,
            block_w: a.in0_block_w,
            stride_h: a.in0_stride_h,
            next_block: a.in0_next_block,
            mcast: a.in0_mcast,
            sender_sem: k.get_semaphore(a.sems[0]),
            receiver_sem: k.get_semaphore(a.sems[1]),
        },
        Operand::In1 => Side {
            cb: CB_IN1,
            addr: a.in1_addr,
            block_h: a.in0_block_w,
            block_w: a.in1_block_w,
            stride_h: a.in1_stride_h,
            next_block: a.in1_next_block,
            mcast: a.in1_mcast,
            sender_sem: k.get_semaphore(a.sems[2]),
            receiver_sem: k.get_semaphore(a.sems[3]),
        },
    }
}

/// Sender side of one block: read it from DRAM into the CB, wait until every receiver is ready, multicast
/// the block to the same CB address on each, then multicast VALID to their receiver semaphores.
fn send_block(k: &mut Dataflow, s: &Side, first_tile: u32) {
    let n = s.block_h * s.block_w;
    let tile = k.get_tile_size(s.cb);
    let g = InterleavedAddrGenFast::<true> {
        bank_base_address: s.addr,
        page_size: tile,
        data_format: DataFormat::Float16_b,
    };
    k.cb_reserve_back(s.cb, n);
    let start = k.get_write_ptr(s.cb);
    let mut l1 = start;
    for h in 0..s.block_h {
        for w in 0..s.block_w {
            k.noc_async_read_tile(first_tile + h * s.stride_h + w, &g, l1);
            l1 += tile;
        }
    }
    k.noc_async_read_barrier();
    let [x0, y0, x1, y1, dests, _, _] = s.mcast;
    if dests > 0 {
        k.noc_semaphore_wait(s.sender_sem, dests);
        k.noc_semaphore_set(s.sender_sem, 0);
        let data = k.get_noc_multicast_addr(x0, y0, x1, y1, start);
        k.noc_async_write_multicast(start, data, n * tile, dests, true);
        let sem = k.get_noc_multicast_addr(x0, y0, x1, y1, s.receiver_sem);
        k.noc_semaphore_set_multicast(s.receiver_sem, sem, dests, false);
    }
    k.cb_push_back(s.cb, n);
}

/// Receiver side of one block: reserve the CB, mark the receiver semaphore INVALID, tell the sender this
/// core is ready, and wait for VALID (which the sender multicasts after the data).
fn receive_block(k: &mut Dataflow, s: &Side) {
    let n = s.block_h * s.block_w;
    k.cb_reserve_back(s.cb, n);
    k.noc_semaphore_set(s.receiver_sem, INVALID);
    let sender = k.get_noc_addr(s.mcast[5], s.mcast[6], s.sender_sem);
    k.noc_semaphore_inc(sender, 1);
    k.noc_semaphore_wait(s.receiver_sem, VALID);
    k.cb_push_back(s.cb, n);
}

fn reader(k: &mut Dataflow, in0_sends: bool, in1_sends: bool) {
    let a = ReaderArgs::read(k);
    let (s0, s1) = (side(k, &a, Operand::In0), side(k, &a, Operand::In1));
    // A sender multicasts VALID from its own copy of the receiver semaphore.
    if in0_sends {
        k.noc_semaphore_set(s0.receiver_sem, VALID);
    }
    if in1_sends {
        k.noc_semaphore_set(s1.receiver_sem, VALID);
    }
    let (mut t0, mut t1) = (a.in0_start, a.in1_start);
    for _ in 0..a.num_blocks {
        if in0_sends {
            send_block(k, &s0, t0);
        } else {
            receive_block(k, &s0);
        }
        if in1_sends {
            send_block(k, &s1, t1);
        } else {
            receive_block(k, &s1);
        }
        t0 += s0.next_block;
        t1 += s1.next_block;
    }
}

/// Reader of core (0, 0): reads and multicasts both A and B blocks.
pub fn reader_in0_sender_in1_sender(k: &mut Dataflow) {
    reader(k, true, true);
}

/// Reader of column 0 below row 0: multicasts A along its row, receives B from row 0.
pub fn reader_in0_sender_in1_receiver(k: &mut Dataflow) {
    reader(k, true, false);
}

/// Reader of row 0 right of column 0: receives A from column 0, multicasts B down its column.
pub fn reader_in0_receiver_in1_sender(k: &mut Dataflow) {
    reader(k, false, true);
}

/// Reader of every other core: receives both.
pub fn reader_in0_receiver_in1_receiver(k: &mut Dataflow) {
    reader(k, false, false);
}

/// Run it (`--m --n --k`, default 1024 each; `--fidelity`, default HiFi4); PCC above 0.98.
pub fn run(dev: &mut Device, o: &ExampleOptions) -> Result<Outcome, ProgramError> {
    let s = MatmulShape::from_opts(o, 1024)?;
    let fid = fidelity(o);
    let dst_tiles = ComputeConfig { math_fidelity: fid, ..Default::default() }.settings().capacity();
    let plan = BlockPlan::new(s, dev.compute_with_storage_grid_size(), dst_tiles);
    let all = plan.cores();
    let (gx, gy) = (plan.cores_x, plan.cores_y);
    let mut p = Program::new();
    plan.create_cbs(&mut p, all)?;
    // The CBs must fit L1 before the host matrices are made (8192³ would take a gigabyte first).
    dev.check_program(&p)?;
    let d = setup(dev, s, o.seed, o.check.unwrap_or_default())?;
    let sems = [
        p.create_semaphore(all, INVALID)?,
        p.create_semaphore(all, INVALID)?,
        p.create_semaphore(all, INVALID)?,
        p.create_semaphore(all, INVALID)?,
    ];
    let corner = CoreRange::single(CoreCoord::new(0, 0));
    let left = (gy > 1).then(|| CoreRange::new(CoreCoord::new(0, 1), CoreCoord::new(0, gy - 1)));
    let top = (gx > 1).then(|| CoreRange::new(CoreCoord::new(1, 0), CoreCoord::new(gx - 1, 0)));
    let rest = (gx > 1 && gy > 1).then(|| CoreRange::new(CoreCoord::new(1, 1), CoreCoord::new(gx - 1, gy - 1)));
    let dir = "matmul/matmul_multicore_reuse_mcast/kernels/dataflow";
    let reader_cfg =
        DataMovementConfig { processor: DataMovementProcessor::RISCV_1, noc: NocId::Noc1, ..Default::default() };
    let writer_cfg =
        DataMovementConfig { processor: DataMovementProcessor::RISCV_0, noc: NocId::Noc0, ..Default::default() };
    let mut readers = vec![(
        corner,
        p.create_kernel(
            Kernel::dataflow(
                &format!("{dir}/reader_bmm_tile_layout_in0_sender_in1_sender.cpp"),
                reader_in0_sender_in1_sender,
            ),
            corner,
            reader_cfg.clone(),
        )?,
    )];
    if let Some(r) = left {
        let k = p.create_kernel(
            Kernel::dataflow(
                &format!("{dir}/reader_bmm_tile_layout_in0_sender_in1_receiver.cpp"),
                reader_in0_sender_in1_receiver,
            ),
            r,
            reader_cfg.clone(),
        )?;
        readers.push((r, k));
    }
    if let Some(r) = top {
        let k = p.create_kernel(
            Kernel::dataflow(
                &format!("{dir}/reader_bmm_tile_layout_in0_receiver_in1_sender.cpp"),
                reader_in0_receiver_in1_sender,
            ),
            r,
            reader_cfg.clone(),
        )?;
        readers.push((r, k));
    }
    if let Some(r) = rest {
        let k = p.create_kernel(
            Kernel::dataflow(
                &format!("{dir}/reader_bmm_tile_layout_in0_receiver_in1_receiver.cpp"),
                reader_in0_receiver_in1_receiver,
            ),
            r,
            reader_cfg.clone(),
        )?;
        readers.push((r, k));
    }
    let w = p.create_kernel(
        Kernel::dataflow(&format!("{dir}/writer_bmm_tile_layout.cpp"), writer_bmm_tile_layout),
        all,
        writer_cfg,
    )?;
    p.create_kernel(
        Kernel::compute(
            "matmul/matmul_multicore_reuse_mcast/kernels/compute/bmm_large_block_zm.cpp",
            bmm_large_block_zm,
        ),
        all,
        ComputeConfig { math_fidelity: fid, compile_args: plan.compute_args(), ..Default::default() },
    )?;
    let (kt, nt) = (s.kt(), s.nt());
    let xy = |dev: &Device, x: u32, y: u32| -> Result<(u32, u32), DeviceError> {
        let t = dev.worker_core_from_logical_core(CoreCoord::new(x, y))?;
        Ok((t.x, t.y))
    };
    for (range, kernel) in &readers {
        for core in range.iter() {
            let (bx, by) = (core.x, core.y);
            // A: column 0 of this row multicasts to columns 1.. of the row.
            let (s0x, s0y) = xy(dev, 0, by)?;
            let in0_mcast = if gx > 1 {
                let (ax, ay) = xy(dev, 1, by)?;
                let (bx_, by_) = xy(dev, gx - 1, by)?;
                [ax, ay, bx_, by_, gx - 1, s0x, s0y]
            } else {
                [0, 0, 0, 0, 0, s0x, s0y]
            };
            // B: row 0 of this column multicasts to rows 1.. of the column.
            let (s1x, s1y) = xy(dev, bx, 0)?;
            let in1_mcast = if gy > 1 {
                let (ax, ay) = xy(dev, bx, 1)?;
                let (bx_, by_) = xy(dev, bx, gy - 1)?;
                [ax, ay, bx_, by_, gy - 1, s1x, s1y]
            } else {
                [0, 0, 0, 0, 0, s1x, s1y]
            };
            let args = ReaderArgs {
                in0_addr: d.in0.address(),
                in0_start: by * plan.per_core_m * kt,
                in0_stride_h: kt,
                in0_next_block: plan.in0_block_w,
                in0_block_w: plan.in0_block_w,
                in0_block_h: plan.per_core_m,
                in1_addr: d.in1.address(),
                in1_start: bx * plan.per_core_n,
                in1_stride_h: nt,
                in1_next_block: plan.in0_block_w * nt,
                in1_block_w: plan.per_core_n,
                num_blocks: plan.num_blocks,
                in0_mcast,
                in1_mcast,
                sems,
            };
            p.set_runtime_args(*kernel, core, &args.to_vec())?;
            p.set_runtime_args(w, core, &plan.writer_args(s, d.out.address(), bx, by))?;
        }
    }
    let report = dev.enqueue_program(&p)?;
    finish(dev, d, report, s, gx * gy, fid, 0.98)
}
