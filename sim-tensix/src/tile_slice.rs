//! DPRINT's tile slices (`TSLICE(cb, tile, SliceRange{…})`): the elements of one tile of a CB, picked by a
//! row and column range with strides, as the text the device's print server shows — one line per row.

use crate::hw::risc::Risc;
use crate::kernel_ctx::KernelCtx;
use layout::format::{DataFormat, decode_tile};
use layout::tile::tile_offset;

/// `SliceRange{h0, h1, hs, w0, w1, ws}`: rows `h0..h1` every `hs`, columns `w0..w1` every `ws`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SliceRange {
    pub h0: u8,
    pub h1: u8,
    pub hs: u8,
    pub w0: u8,
    pub w1: u8,
    pub ws: u8,
}

impl SliceRange {
    /// Rows and columns 0, 16 (`SliceRange::hw0_32_16()`).
    pub const HW0_32_16: SliceRange = SliceRange { h0: 0, h1: 32, hs: 16, w0: 0, w1: 32, ws: 16 };
    /// Every eighth row and column (`hw0_32_8()`).
    pub const HW0_32_8: SliceRange = SliceRange { h0: 0, h1: 32, hs: 8, w0: 0, w1: 32, ws: 8 };
    /// Every fourth row and column (`hw0_32_4()`).
    pub const HW0_32_4: SliceRange = SliceRange { h0: 0, h1: 32, hs: 4, w0: 0, w1: 32, ws: 4 };
    /// Row 0 (`h0_w0_32()`).
    pub const H0_W0_32: SliceRange = SliceRange { h0: 0, h1: 1, hs: 1, w0: 0, w1: 32, ws: 1 };
    /// Column 0 (`h0_32_w0()`).
    pub const H0_32_W0: SliceRange = SliceRange { h0: 0, h1: 32, hs: 1, w0: 0, w1: 1, ws: 1 };
    /// Column 1 (`h0_32_w1()`).
    pub const H0_32_W1: SliceRange = SliceRange { h0: 0, h1: 32, hs: 1, w0: 1, w1: 2, ws: 1 };
    /// The top-left 4×4 corner (`hw041()`).
    pub const HW041: SliceRange = SliceRange { h0: 0, h1: 4, hs: 1, w0: 0, w1: 4, ws: 1 };

    fn check(&self) -> Result<(), String> {
        if self.h1 > 32 || self.w1 > 32 || self.h0 >= self.h1 || self.w0 >= self.w1 || self.hs == 0 || self.ws == 0 {
            return Err(format!(
                "SliceRange{{h0 {}, h1 {}, hs {}, w0 {}, w1 {}, ws {}}} is not inside a 32x32 tile with non-zero strides",
                self.h0, self.h1, self.hs, self.w0, self.w1, self.ws
            ));
        }
        Ok(())
    }
}

/// Which CB pointer a slice is read at.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SlicePtr {
    /// `TSLICE_RD_PTR`: the consumer's read pointer (tiles waited for).
    Read,
    /// `TSLICE_WR_PTR`: the producer's write pointer (tiles reserved).
    Write,
}

/// How a slice is printed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SliceStyle {
    /// End each row with a new line (else rows follow each other on one line).
    pub endl_rows: bool,
    /// Index elements by (row, column) of the 32×32 tile (else by position in the face-ordered storage).
    pub untilized: bool,
    /// Digits after the decimal point.
    pub precision: usize,
}

impl Default for SliceStyle {
    fn default() -> Self {
        SliceStyle { endl_rows: true, untilized: true, precision: 6 }
    }
}

impl KernelCtx<'_> {
    /// The text of `TSLICE(cb, tile, range, ptr)`: tile `tile` after the CB's `ptr` pointer of this RISC.
    pub(crate) fn tile_slice(
        &mut self,
        cb: u32,
        tile: u32,
        range: SliceRange,
        ptr: SlicePtr,
        style: SliceStyle,
    ) -> String {
        let api = "TSLICE";
        if let Err(e) = range.check() {
            self.fail(format!("{api}(cb {cb}, tile {tile}): {e}"));
        }
        let cbi = self.cb_index(api, cb);
        let risc: Risc = self.k.risc;
        let read = {
            let h = self.host.borrow();
            let core = h.core(self.k.core);
            core.cb(cbi).map(|c| {
                let base = match ptr {
                    SlicePtr::Read => c.read_ptr(risc),
                    SlicePtr::Write => c.write_ptr(risc),
                };
                let addr = base as u64 + tile as u64 * c.page_size as u64;
                (addr, c.format, core.l1.read(addr, c.format.tile_size() as u64).map(|b| b.to_vec()))
            })
        };
        let (format, bytes) = match read {
            Some((_, f, Ok(b))) => (f, b),
            Some((addr, _, Err(e))) => self.fail(format!("{api}(cb {cb}, tile {tile}) at L1 {addr:#x}: {e}")),
            None => self.fail(format!("{api}: CB {cb} is not configured on this core")),
        };
        let mut values = vec![0f32; layout::format::TILE_VALUES];
        decode_tile(format, &bytes, &mut values);
        let mut text = String::new();
        for h in (range.h0..range.h1).step_by(range.hs as usize) {
            let row: Vec<String> = (range.w0..range.w1)
                .step_by(range.ws as usize)
                .map(|w| {
                    let (h, w) = (h as usize, w as usize);
                    let i = if style.untilized { tile_offset(h, w) } else { h * 32 + w };
                    // Integers print as integers, every bit of them (a float would round beyond 2^24).
                    let e = &bytes[i * format.element_bytes() as usize..];
                    match format {
                        DataFormat::Int32 => i32::from_le_bytes([e[0], e[1], e[2], e[3]]).to_string(),
                        DataFormat::UInt32 => u32::from_le_bytes([e[0], e[1], e[2], e[3]]).to_string(),
                        DataFormat::UInt16 => u16::from_le_bytes([e[0], e[1]]).to_string(),
                        DataFormat::UInt8 => e[0].to_string(),
                        _ => format!("{:.*}", style.precision, values[i]),
                    }
                })
                .collect();
            text += &row.join(" ");
            text.push(if style.endl_rows { '\n' } else { ' ' });
        }
        text
    }
}
