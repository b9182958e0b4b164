//! 32-bit data through the compute engine: copies from a CB set to unpack straight to DST
//! (`UnpackToDestFp32`) keep Float32 values whole and Int32/UInt32 values bit for bit, where the source
//! registers keep 19 bits (and a 32-bit integer copy through them is warned about); tilize and untilize
//! move every row-major format by its own element size; integers an SFPI function stores leave as their bits.

mod support;

use sim_tensix::hw::compute::math::round_mantissa;
use sim_tensix::hw::compute::state::ComputeSettings;
use sim_tensix::{CBIndex, Compute, DataFormat, Risc, pack_tiles, unpack_tiles};
use support::{Body, Outcome, run, unit_costs};

const IN: u8 = 0;
const OUT: u8 = 16;

fn settings(to_dest: bool) -> ComputeSettings {
    ComputeSettings {
        fp32_dest_acc: true,
        // Both CBs: untilize unpacks c_16's tiles.
        unpack_to_dest_fp32: if to_dest { 1 << IN | 1 << OUT } else { 0 },
        ..ComputeSettings::default()
    }
}

/// `bytes` (one tile or one row-major tile's worth) into c_0 in `fin`, `body` as the compute kernel, c_16
/// in `fout`; the run's outcome.
fn run_one(
    fin: DataFormat,
    fout: DataFormat,
    bytes: Vec<u8>,
    s: ComputeSettings,
    body: impl Fn(&mut Compute) + 'static,
) -> Outcome {
    let feeder = Body::Dataflow(Risc::Ncrisc, Box::new(move |k| push_tile(k, &bytes)));
    let (ti, to) = (fin.tile_size(), fout.tile_size());
    let cbs = [(IN, 0x10000, ti, ti, fin), (OUT, 0x30000, to, to, fout)];
    let mut costs = unit_costs();
    costs.compute.sfpu_lanes = 32;
    run(&cbs, &[], costs, vec![feeder, Body::Compute(s, Box::new(body))]).unwrap_or_else(|e| panic!("{e}"))
}

/// `bytes` into c_0 as one page.
fn push_tile(k: &mut sim_tensix::Dataflow, bytes: &[u8]) {
    k.cb_reserve_back(CBIndex::c_0, 1);
    let w = k.get_write_ptr(CBIndex::c_0);
    k.l1_write_bytes(w, bytes);
    k.cb_push_back(CBIndex::c_0, 1);
}

fn out_bytes(o: &Outcome, f: DataFormat) -> Vec<u8> {
    o.host.core.l1.read(0x30000, f.tile_size() as u64).unwrap().to_vec()
}

/// c_0's tile copied to DST 0, `then` run on it, and packed to c_16.
fn copy_then(c: &mut Compute, then: impl Fn(&mut Compute)) {
    c.copy_tile_to_dst_init_short(CBIndex::c_0, 0);
    c.cb_wait_front(CBIndex::c_0, 1);
    c.tile_regs_acquire();
    c.copy_tile(CBIndex::c_0, 0, 0);
    then(c);
    c.tile_regs_commit();
    c.cb_reserve_back(CBIndex::c_16, 1);
    c.tile_regs_wait();
    c.pack_tile(0, CBIndex::c_16);
    c.tile_regs_release();
    c.cb_push_back(CBIndex::c_16, 1);
}

fn copy_body(c: &mut Compute) {
    copy_then(c, |_| {});
}

#[test]
fn float32_copies_keep_their_mantissa_only_when_unpacked_to_dst() {
    let vals: Vec<f32> = (0..1024).map(|i| 1.0 + i as f32 * 1.2345e-4 + 3.0e-7).collect();
    let bytes = pack_tiles(DataFormat::Float32, &vals);
    let f = DataFormat::Float32;
    let exact = run_one(f, f, bytes.clone(), settings(true), copy_body);
    assert_eq!(unpack_tiles(f, &out_bytes(&exact, f)), vals);
    let srcs = run_one(f, f, bytes, settings(false), copy_body);
    let want: Vec<f32> = vals.iter().map(|&v| round_mantissa(v, 10)).collect();
    assert_eq!(unpack_tiles(f, &out_bytes(&srcs, f)), want, "through the source registers: 10 mantissa bits");
    assert!(srcs.host.warnings.is_empty(), "{:?}", srcs.host.warnings);
}

#[test]
fn int32_and_uint32_copies_are_exact_when_unpacked_to_dst_and_warned_about_otherwise() {
    let ints: Vec<u32> =
        (0..1024u32).map(|i| i.wrapping_mul(2_654_435_761) ^ if i % 2 == 0 { 0x8000_0000 } else { 0 }).collect();
    let mut bytes: Vec<u8> = ints.iter().flat_map(|v| v.to_le_bytes()).collect();
    bytes[..4].copy_from_slice(&((1i32 << 24) + 1).to_le_bytes());
    for f in [DataFormat::Int32, DataFormat::UInt32] {
        let exact = run_one(f, f, bytes.clone(), settings(true), copy_body);
        assert_eq!(out_bytes(&exact, f), bytes, "{f}: bit for bit");
        assert!(exact.host.warnings.is_empty(), "{:?}", exact.host.warnings);
        let srcs = run_one(f, f, bytes.clone(), settings(false), copy_body);
        assert_ne!(out_bytes(&srcs, f), bytes, "{f}: 19-bit source registers lose the low bits");
        assert!(
            srcs.host.warnings.iter().any(|w| w.contains("c_0") && w.contains("UnpackToDestFp32")),
            "{f}: {:?}",
            srcs.host.warnings
        );
    }
}

fn tilize_untilize(c: &mut Compute) {
    // Row-major c_0 → tiled c_16 → and back to row-major in place of c_0's page.
    c.tilize_init(CBIndex::c_0, 1, CBIndex::c_16);
    c.cb_wait_front(CBIndex::c_0, 1);
    c.cb_reserve_back(CBIndex::c_16, 1);
    c.tilize_block(CBIndex::c_0, 1, CBIndex::c_16);
    c.cb_push_back(CBIndex::c_16, 1);
    c.cb_pop_front(CBIndex::c_0, 1);
    c.tilize_uninit(CBIndex::c_0, CBIndex::c_16);
    c.untilize_init(CBIndex::c_16);
    c.cb_wait_front(CBIndex::c_16, 1);
    c.cb_reserve_back(CBIndex::c_0, 1);
    c.untilize_block(CBIndex::c_16, 1, CBIndex::c_0);
    c.cb_push_back(CBIndex::c_0, 1);
    c.cb_pop_front(CBIndex::c_16, 1);
}

#[test]
fn tilize_and_untilize_move_every_row_major_format_by_its_element_size() {
    let rows: Vec<f32> = (0..1024).map(|i| ((i * 37) % 1000) as f32).collect();
    for (f, to_dest) in [
        (DataFormat::UInt16, false),
        (DataFormat::UInt8, false),
        (DataFormat::Float16, false),
        (DataFormat::Float32, true),
        (DataFormat::Int32, true),
        (DataFormat::UInt32, true),
    ] {
        let n = f.element_bytes() as usize;
        let mut bytes = vec![0u8; 1024 * n];
        for (v, e) in rows.iter().zip(bytes.chunks_exact_mut(n)) {
            let v = if f == DataFormat::UInt8 { v % 250.0 } else { *v };
            assert!(layout::format::encode_element(f, v, e));
        }
        if f.is_32bit_int() {
            // Beyond 2^24: only bits survive.
            bytes[8..12].copy_from_slice(&0x7fff_fff3u32.to_le_bytes());
        }
        let o = run_one(f, f, bytes.clone(), settings(to_dest), tilize_untilize);
        // The tiled copy holds the rows' values in face order.
        let tiled = out_bytes(&o, f);
        let want_faces = layout::tilize_nfaces(&unpack_row_major(f, &bytes), 32, 32);
        if !f.is_32bit_int() {
            assert_eq!(unpack_tiles(f, &tiled), want_faces, "{f}: tilized");
        }
        // Untilized back over c_0's page (its write pointer wrapped to the same place).
        let back = o.host.core.l1.read(0x10000, 1024 * n as u64).unwrap().to_vec();
        assert_eq!(back, bytes, "{f}: row-major round trip");
    }
}

fn unpack_row_major(f: DataFormat, bytes: &[u8]) -> Vec<f32> {
    let n = f.element_bytes() as usize;
    bytes.chunks_exact(n).map(|e| layout::format::decode_element(f, e).unwrap()).collect()
}

#[test]
fn integers_an_sfpi_function_stores_are_packed_as_their_bits() {
    let f = DataFormat::Int32;
    let vals: Vec<i32> = (0..1024).map(|i| i * 40_000 - 20_000_000).collect();
    let bytes: Vec<u8> = vals.iter().flat_map(|v| v.to_le_bytes()).collect();
    let o = run_one(f, f, bytes, settings(true), |c| {
        copy_then(c, |c| {
            c.llk_math_eltwise_unary_sfpu_params(0, sim_tensix::VectorMode::RC, |s| {
                for _ in 0..s.vectors_per_face() {
                    let v = s.dst_int(0);
                    let three = sim_tensix::VInt::splat(3);
                    s.set_dst_int(0, v + three);
                    s.inc();
                }
            })
        })
    });
    let got: Vec<i32> =
        out_bytes(&o, f).chunks_exact(4).map(|e| i32::from_le_bytes([e[0], e[1], e[2], e[3]])).collect();
    let want: Vec<i32> = vals.iter().map(|v| v + 3).collect();
    assert_eq!(got, want);
}

#[test]
fn tile_slices_print_integers_whole() {
    use sim_tensix::{SlicePtr, SliceRange, SliceStyle};
    let vals: [i32; 4] = [(1 << 24) + 1, -7, 2_000_000_011, 0];
    let bytes: Vec<u8> = (0..1024).flat_map(|i| vals[i % 4].to_le_bytes()).collect();
    let f = DataFormat::Int32;
    let printed = std::rc::Rc::new(std::cell::RefCell::new(String::new()));
    let out = printed.clone();
    let reader = Body::Dataflow(
        Risc::Ncrisc,
        Box::new(move |k| {
            push_tile(k, &bytes);
            k.cb_wait_front(CBIndex::c_0, 1);
            let range = SliceRange { h0: 0, h1: 1, hs: 1, w0: 0, w1: 4, ws: 1 };
            *out.borrow_mut() = k.tile_slice(CBIndex::c_0, 0, range, SlicePtr::Read, SliceStyle::default());
        }),
    );
    run(&[(IN, 0x10000, 4096, 4096, f)], &[], unit_costs(), vec![reader]).unwrap();
    assert_eq!(printed.borrow().trim(), "16777217 -7 2000000011 0");
}
