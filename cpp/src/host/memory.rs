//! The host ABI's buffers and raw device memory: `CreateBuffer` (allocated or at a given address, interleaved
//! or sharded), buffer queries, freeing, whole-buffer and region transfers, and the raw L1 / Ethernet L1 /
//! DRAM-channel reads and writes of `detail::`.

use super::call::{on_session, ranges};
use crate::ffi::{read_slice, set_out, write_slice};
use sim_device::buffer::{BufferType, InterleavedBufferConfig, ShardParameters, ShardedBufferConfig};
use sim_device::{BufferPlacement, CoreCoord};
use std::ffi::c_void;

#[allow(clippy::too_many_arguments)]
pub(super) extern "C" fn create_buffer(
    dev: u32,
    size: u64,
    page_size: u64,
    ty: u32,
    layout: u32,
    shard: *const u32,
    shard_len: u32,
    address: u64,
    out: *mut u32,
) -> i32 {
    on_session(|s| {
        let buffer_type = match ty & 0xff {
            0 => BufferType::Dram,
            1 => BufferType::L1,
            t => return Err(format!("CreateBuffer: buffer type {t} is not modelled (DRAM and L1 are)")),
        };
        // Bits 8-9: bottom_up (0 the memory's default, 1 true, 2 false).
        let bottom_up = match (ty >> 8) & 3 {
            1 => Some(true),
            2 => Some(false),
            _ => None,
        };
        let placement = match address {
            u64::MAX => BufferPlacement::allocate(bottom_up),
            a => BufferPlacement::At(a),
        };
        let d = s.device(dev)?;
        let b = if layout == 0 {
            d.create_buffer_placed(InterleavedBufferConfig { size, page_size, buffer_type }, placement)
        } else {
            let v = read_slice(shard, shard_len as usize);
            let nr = *v.first().ok_or("CreateBuffer: sharded buffer without a shard spec")? as usize;
            let need = 1 + 4 * nr + 7;
            if v.len() != need {
                return Err(format!("CreateBuffer: a shard spec of {} words, {need} expected", v.len()));
            }
            let grid = ranges(v[1..].as_ptr(), nr as u32)?;
            let t = &v[1 + 4 * nr..];
            let spec = layout::placement::ShardSpecBuffer {
                grid,
                shard_shape: [t[0], t[1]],
                orientation: if t[2] == 0 {
                    layout::placement::ShardOrientation::RowMajor
                } else {
                    layout::placement::ShardOrientation::ColMajor
                },
                page_shape: [t[3], t[4]],
                tensor2d_shape_in_pages: [t[5], t[6]],
            };
            let layout = match layout {
                1 => layout::placement::TensorMemoryLayout::HeightSharded,
                2 => layout::placement::TensorMemoryLayout::WidthSharded,
                _ => layout::placement::TensorMemoryLayout::BlockSharded,
            };
            d.create_sharded_buffer_placed(
                &ShardedBufferConfig { size, page_size, buffer_type, shards: ShardParameters::Legacy { layout, spec } },
                placement,
            )
        }
        .map_err(|e| e.to_string())?;
        s.buffers.push(Some((dev, b)));
        set_out(out, s.buffers.len() as u32 - 1);
        Ok(())
    })
}

pub(super) extern "C" fn buffer_query(buf: u32, what: u32, out: *mut u64) -> i32 {
    on_session(|s| {
        let (dev, b) = s.buffer(buf)?;
        let v = match what {
            0 => b.address() as u64,
            1 => b.size(),
            2 => b.page_size(),
            3 => b.aligned_page_size(),
            4 => (b.buffer_type() == BufferType::L1) as u64,
            5 => match b.sharding().map(|s| s.layout) {
                None => 0,
                Some(layout::placement::TensorMemoryLayout::HeightSharded) => 1,
                Some(layout::placement::TensorMemoryLayout::WidthSharded) => 2,
                Some(_) => 3,
            },
            6 => b.num_banks() as u64,
            7 => *dev as u64,
            _ => {
                return Err(format!("unknown buffer query {what}: the program was built against other tensim headers"));
            }
        };
        set_out(out, v);
        Ok(())
    })
}

pub(super) extern "C" fn free_buffer(buf: u32) -> i32 {
    on_session(|s| {
        let Some(slot) = s.buffers.get_mut(buf as usize) else { return Ok(()) };
        // A buffer whose device was closed is already gone.
        if let Some((dev, b)) = slot.take()
            && let Some(d) = s.devices.get_mut(&dev)
        {
            d.deallocate_buffer(&b).map_err(|e| e.to_string())?;
        }
        Ok(())
    })
}

pub(super) extern "C" fn write_buffer(buf: u32, src: *const c_void, bytes: u64) -> i32 {
    on_session(|s| {
        let (dev, b) = s.buffer(buf)?.clone();
        let n = bytes.min(b.size()) as usize;
        let data = read_slice(src.cast::<u8>(), n);
        s.device(dev)?.enqueue_write_buffer(&b, data).map_err(|e| e.to_string())
    })
}

pub(super) extern "C" fn read_buffer(buf: u32, dst: *mut c_void, bytes: u64) -> i32 {
    on_session(|s| {
        let (dev, b) = s.buffer(buf)?.clone();
        let data: Vec<u8> = s.device(dev)?.enqueue_read_buffer(&b).map_err(|e| e.to_string())?;
        let n = (bytes as usize).min(data.len());
        write_slice(dst.cast::<u8>(), &data[..n]);
        Ok(())
    })
}

/// A region of a buffer (`EnqueueWriteSubBuffer`/`EnqueueReadSubBuffer`, a shard transfer's region):
/// `write` != 0 from `data` into the buffer.
pub(super) extern "C" fn buffer_region(buf: u32, offset: u64, data: *mut c_void, size: u64, write: u32) -> i32 {
    on_session(|s| {
        let (dev, b) = s.buffer(buf)?.clone();
        let d = s.device(dev)?;
        if write != 0 {
            let v = read_slice(data.cast::<u8>().cast_const(), size as usize);
            d.enqueue_write_buffer_region(&b, offset, v).map_err(|e| e.to_string())
        } else {
            let v = d.enqueue_read_buffer_region(&b, offset, size).map_err(|e| e.to_string())?;
            write_slice(data.cast::<u8>(), &v);
            Ok(())
        }
    })
}

/// `flags`: bit 0 write (else read); bit 1 an Ethernet core (logical (0, channel)), else a worker core; bit 2
/// a DRAM channel (`x`), not a core.
pub(super) extern "C" fn l1(dev: u32, x: u32, y: u32, addr: u32, data: *mut c_void, bytes: u64, flags: u32) -> i32 {
    on_session(|s| {
        let d = s.device(dev)?;
        let (write, eth, dram) = (flags & 1 != 0, flags & 2 != 0, flags & 4 != 0);
        if eth && x != 0 {
            return Err(format!("an Ethernet core is logical (0, channel); ({x},{y}) is not one"));
        }
        if write {
            let v = read_slice(data.cast::<u8>().cast_const(), bytes as usize);
            match (dram, eth) {
                (true, _) => d.write_to_device_dram_channel(x, addr, v),
                (false, true) => d.write_to_eth_l1(y, addr, v),
                (false, false) => d.write_to_device_l1(CoreCoord::new(x, y), addr, v),
            }
            .map_err(|e| e.to_string())
        } else {
            let n = bytes as usize;
            let v: Vec<u8> = match (dram, eth) {
                (true, _) => d.read_from_device_dram_channel(x, addr, n),
                (false, true) => d.read_from_eth_l1(y, addr, n),
                (false, false) => d.read_from_device_l1(CoreCoord::new(x, y), addr, n),
            }
            .map_err(|e| e.to_string())?;
            write_slice(data.cast::<u8>(), &v);
            Ok(())
        }
    })
}
