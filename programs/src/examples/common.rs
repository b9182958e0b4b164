//! Pieces the compute examples share: the tile reader and writer kernels of tt-metal's eltwise examples
//! (`reader_unary`, `reader_binary`, `writer_unary`, with a start tile so a core can take a slice), host
//! data helpers (bf16 tensors, tilize/untilize) and the figures a matmul reports (TFLOP/s against the ideal).

pub use crate::golden::{check_close, check_pcc};
pub use crate::rng::random_bf16;
use sim_device::prelude::*;

/// Input CB of the first operand.
pub const CB_IN0: CBIndex = CBIndex::c_0;
/// Input CB of the second operand.
pub const CB_IN1: CBIndex = CBIndex::c_1;
/// Output CB.
pub const CB_OUT0: CBIndex = CBIndex::c_16;
/// Bytes of one bfloat16 tile.
pub const BF16_TILE: u32 = 2048;

/// `reader_unary`: tiles `start .. start + n` of one interleaved DRAM tensor into c_0, one at a time.
/// RT args: src address, n, start.
pub fn reader_unary(k: &mut Dataflow) {
    let src: u32 = k.get_arg_val(0);
    let n: u32 = k.get_arg_val(1);
    let start: u32 = k.get_arg_val(2);
    let tile = k.get_tile_size(CB_IN0);
    let fmt = k.get_dataformat(CB_IN0);
    let s = InterleavedAddrGenFast::<true> { bank_base_address: src, page_size: tile, data_format: fmt };
    for t in start..start + n {
        k.cb_reserve_back(CB_IN0, 1);
        let l1 = k.get_write_ptr(CB_IN0);
        k.noc_async_read_tile(t, &s, l1);
        k.noc_async_read_barrier();
        k.cb_push_back(CB_IN0, 1);
    }
}

/// `reader_unary` in today's API: the input's TensorAccessorArgs (page size included) at compile-time offset
/// 0; per tile, a classic tile read through the accessor into c_0. RT args: src address, n, start.
pub fn reader_unary_ta(k: &mut Dataflow) {
    let src: u32 = k.get_arg_val(0);
    let n: u32 = k.get_arg_val(1);
    let start: u32 = k.get_arg_val(2);
    let args = k.tensor_accessor_args(0);
    let s = TensorAccessor::new(args, src, 0);
    for t in start..start + n {
        k.cb_reserve_back(CB_IN0, 1);
        let l1 = k.get_write_ptr(CB_IN0);
        k.noc_async_read_tile(t, &s, l1);
        k.noc_async_read_barrier();
        k.cb_push_back(CB_IN0, 1);
    }
}

/// `writer_unary` in today's API: the output's TensorAccessorArgs at compile-time offset 0; per tile, a
/// classic tile write of c_16 through the accessor. RT args: dst address, n, start.
pub fn writer_unary_ta(k: &mut Dataflow) {
    let dst: u32 = k.get_arg_val(0);
    let n: u32 = k.get_arg_val(1);
    let start: u32 = k.get_arg_val(2);
    let args = k.tensor_accessor_args(0);
    let d = TensorAccessor::new(args, dst, 0);
    for t in start..start + n {
        k.cb_wait_front(CB_OUT0, 1);
        let l1 = k.get_read_ptr(CB_OUT0);
        k.noc_async_write_tile(t, &d, l1);
        k.noc_async_write_barrier();
        k.cb_pop_front(CB_OUT0, 1);
    }
}

/// `reader_binary` in today's API: two TensorAccessors from compile-time args (offset 0, then after the
/// first), classic tile reads into c_0 and c_1 a pair at a time. RT args: src0 address, src1 address, n, start.
pub fn reader_binary_ta(k: &mut Dataflow) {
    let src0: u32 = k.get_arg_val(0);
    let src1: u32 = k.get_arg_val(1);
    let n: u32 = k.get_arg_val(2);
    let start: u32 = k.get_arg_val(3);
    let a_args = k.tensor_accessor_args(0);
    let b_args = k.tensor_accessor_args(a_args.next_compile_time_args_offset());
    let (a, b) = (TensorAccessor::new(a_args, src0, 0), TensorAccessor::new(b_args, src1, 0));
    for t in start..start + n {
        k.cb_reserve_back(CB_IN0, 1);
        k.cb_reserve_back(CB_IN1, 1);
        let (l0, l1) = (k.get_write_ptr(CB_IN0), k.get_write_ptr(CB_IN1));
        k.noc_async_read_tile(t, &a, l0);
        k.noc_async_read_tile(t, &b, l1);
        k.noc_async_read_barrier();
        k.cb_push_back(CB_IN0, 1);
        k.cb_push_back(CB_IN1, 1);
    }
}

/// `reader_binary`: tiles `start .. start + n` of two interleaved DRAM tensors into c_0 and c_1, a pair at
/// a time. RT args: src0 address, src1 address, n, start.
pub fn reader_binary(k: &mut Dataflow) {
    let src0: u32 = k.get_arg_val(0);
    let src1: u32 = k.get_arg_val(1);
    let n: u32 = k.get_arg_val(2);
    let start: u32 = k.get_arg_val(3);
    let (t0, t1) = (k.get_tile_size(CB_IN0), k.get_tile_size(CB_IN1));
    let s0 = InterleavedAddrGenFast::<true> {
        bank_base_address: src0,
        page_size: t0,
        data_format: k.get_dataformat(CB_IN0),
    };
    let s1 = InterleavedAddrGenFast::<true> {
        bank_base_address: src1,
        page_size: t1,
        data_format: k.get_dataformat(CB_IN1),
    };
    for t in start..start + n {
        k.cb_reserve_back(CB_IN0, 1);
        k.cb_reserve_back(CB_IN1, 1);
        let (l0, l1) = (k.get_write_ptr(CB_IN0), k.get_write_ptr(CB_IN1));
        k.noc_async_read_tile(t, &s0, l0);
        k.noc_async_read_tile(t, &s1, l1);
        k.noc_async_read_barrier();
        k.cb_push_back(CB_IN0, 1);
        k.cb_push_back(CB_IN1, 1);
    }
}

/// `reader_binary` in today's API: two interleaved tensors described by TensorAccessorArgs (page size
/// included) at compile-time offsets 0 and after the first; per tile, each CB's write pointer, the page's
/// NoC address and a read of one tile (the object-style `noc.async_read(accessor, cb, …)`). RT args: src0
/// address, src1 address, n, start.
pub fn reader_binary_accessor(k: &mut Dataflow) {
    let src0: u32 = k.get_arg_val(0);
    let src1: u32 = k.get_arg_val(1);
    let n: u32 = k.get_arg_val(2);
    let start: u32 = k.get_arg_val(3);
    let a_args = k.tensor_accessor_args(0);
    let b_args = k.tensor_accessor_args(a_args.next_compile_time_args_offset());
    let (a, b) = (TensorAccessor::new(a_args, src0, 0), TensorAccessor::new(b_args, src1, 0));
    let tile = k.get_tile_size(CB_IN0);
    for t in start..start + n {
        k.cb_reserve_back(CB_IN0, 1);
        k.cb_reserve_back(CB_IN1, 1);
        let (l0, src) = (k.get_write_ptr(CB_IN0), k.get_noc_addr_page(t, &a, 0));
        k.noc_async_read(src, l0, tile);
        let (l1, src) = (k.get_write_ptr(CB_IN1), k.get_noc_addr_page(t, &b, 0));
        k.noc_async_read(src, l1, tile);
        k.noc_async_read_barrier();
        k.cb_push_back(CB_IN0, 1);
        k.cb_push_back(CB_IN1, 1);
    }
}

/// `writer_unary` in today's API: the output's TensorAccessorArgs at compile-time offset 0; per tile, c_16's
/// read pointer, the page's NoC address and a write of one tile. RT args: dst address, n, start.
pub fn writer_unary_accessor(k: &mut Dataflow) {
    let dst: u32 = k.get_arg_val(0);
    let n: u32 = k.get_arg_val(1);
    let start: u32 = k.get_arg_val(2);
    let args = k.tensor_accessor_args(0);
    let d = TensorAccessor::new(args, dst, 0);
    let tile = k.get_tile_size(CB_OUT0);
    for t in start..start + n {
        k.cb_wait_front(CB_OUT0, 1);
        let (l1, to) = (k.get_read_ptr(CB_OUT0), k.get_noc_addr_page(t, &d, 0));
        k.noc_async_write(l1, to, tile);
        k.noc_async_write_barrier();
        k.cb_pop_front(CB_OUT0, 1);
    }
}

/// `writer_unary`: n tiles from c_16 to tiles `start .. start + n` of an interleaved DRAM tensor.
/// RT args: dst address, n, start.
pub fn writer_unary(k: &mut Dataflow) {
    let dst: u32 = k.get_arg_val(0);
    let n: u32 = k.get_arg_val(1);
    let start: u32 = k.get_arg_val(2);
    let tile = k.get_tile_size(CB_OUT0);
    let d = InterleavedAddrGenFast::<true> {
        bank_base_address: dst,
        page_size: tile,
        data_format: k.get_dataformat(CB_OUT0),
    };
    for t in start..start + n {
        k.cb_wait_front(CB_OUT0, 1);
        let l1 = k.get_read_ptr(CB_OUT0);
        k.noc_async_write_tile(t, &d, l1);
        k.noc_async_write_barrier();
        k.cb_pop_front(CB_OUT0, 1);
    }
}

/// A bfloat16 CB of `tiles` one-tile pages.
pub fn bf16_cb(tiles: u32, cb: CBIndex) -> CircularBufferConfig {
    CircularBufferConfig::new(tiles * BF16_TILE, &[(cb, DataFormat::Float16_b)]).set_page_size(cb, BF16_TILE)
}

/// Create bfloat16 CBs of the given depths (tiles) on `cores`.
pub fn create_bf16_cbs(
    p: &mut Program,
    cores: impl Into<CoreRangeSet>,
    cbs: &[(CBIndex, u32)],
) -> Result<(), DeviceError> {
    let cores = cores.into();
    for &(cb, tiles) in cbs {
        p.create_circular_buffer(cores.clone(), bf16_cb(tiles, cb))?;
    }
    Ok(())
}

/// A DRAM buffer of `tiles` bfloat16 tiles, interleaved one tile per page.
pub fn bf16_dram_buffer(dev: &mut Device, tiles: u32) -> Result<Buffer, DeviceError> {
    let size = tiles as u64 * BF16_TILE as u64;
    dev.create_buffer(InterleavedBufferConfig { size, page_size: BF16_TILE as u64, buffer_type: BufferType::Dram })
}

/// Write a row-major `rows × cols` f32 matrix as tilized bfloat16 tiles.
pub fn write_bf16_matrix(
    dev: &mut Device,
    buf: &Buffer,
    data: &[f32],
    rows: usize,
    cols: usize,
) -> Result<(), DeviceError> {
    // Tilized and rounded to bfloat16 bytes in one pass (the host matrices are large).
    dev.enqueue_write_buffer_bytes(buf, &layout::tile::tilize_bf16_bytes(data, rows, cols))
}

/// Read a tilized bfloat16 buffer back as a row-major `rows × cols` f32 matrix.
pub fn read_bf16_matrix(dev: &mut Device, buf: &Buffer, rows: usize, cols: usize) -> Result<Vec<f32>, DeviceError> {
    read_bf16_matrix_into(dev, buf, rows, cols, Vec::new())
}

/// [`read_bf16_matrix`] into `out`'s memory (a host matrix no longer needed, say: its pages are already
/// mapped, where a fresh 2048² matrix takes four thousand page faults).
pub fn read_bf16_matrix_into(
    dev: &mut Device,
    buf: &Buffer,
    rows: usize,
    cols: usize,
    mut out: Vec<f32>,
) -> Result<Vec<f32>, DeviceError> {
    let bytes = dev.enqueue_read_buffer_bytes(buf)?;
    layout::tile::untilize_bf16_bytes_into(&bytes, rows, cols, &mut out);
    Ok(out)
}
