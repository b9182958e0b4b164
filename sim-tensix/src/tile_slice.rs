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
    /// The stream's precision: significant digits (`%g`, the default stream state), or digits after the
    /// decimal point when `fixed`.
    pub precision: usize,
    /// `FIXED()` was streamed: floats print as `%f`.
    pub fixed: bool,
}

impl Default for SliceStyle {
    fn default() -> Self {
        SliceStyle { endl_rows: true, untilized: true, precision: 6, fixed: false }
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
                        _ if style.fixed => format!("{:.*}", style.precision, values[i]),
                        _ => format_g(values[i] as f64, style.precision),
                    }
                })
                .collect();
            text += &row.join(" ");
            text.push(if style.endl_rows { '\n' } else { ' ' });
        }
        text
    }
}

/// `v` as C's `%.{precision}g` prints it (an ostream's default float format): `precision` significant digits
/// (0 counts as 1), fixed notation when the decimal exponent X satisfies -4 <= X < precision, else
/// `d.ddde+XX`; trailing zeros (and a bare point) dropped; `nan`, `inf`, `-0`.
pub fn format_g(v: f64, precision: usize) -> String {
    if v.is_nan() {
        return if v.is_sign_negative() { "-nan".into() } else { "nan".into() };
    }
    if v.is_infinite() {
        return if v < 0.0 { "-inf".into() } else { "inf".into() };
    }
    let p = precision.max(1);
    // The exponent after rounding to p significant digits, as %e gives it.
    let e = format!("{:.*e}", p - 1, v);
    let (mant, exp) = e.split_once('e').expect("Rust's {:e} has an exponent");
    let x: i32 = exp.parse().expect("a decimal exponent");
    let strip = |s: &str| -> String {
        if s.contains('.') { s.trim_end_matches('0').trim_end_matches('.').to_string() } else { s.to_string() }
    };
    if x < -4 || x >= p as i32 {
        let sign = if x < 0 { '-' } else { '+' };
        format!("{}e{sign}{:02}", strip(mant), x.abs())
    } else {
        strip(&format!("{:.*}", (p as i32 - 1 - x) as usize, v))
    }
}

#[cfg(test)]
mod tests {
    use super::format_g;

    #[test]
    fn floats_print_as_percent_g_does() {
        for (v, p, want) in [
            (1.0, 6, "1"),
            (0.1f32 as f64, 6, "0.1"),
            (3.141_592_741_012_573_2, 6, "3.14159"),
            (1_234_567.0, 6, "1.23457e+06"),
            (1e-5f32 as f64, 6, "1e-05"),
            (-0.0, 6, "-0"),
            (f64::NAN, 6, "nan"),
            (f64::NEG_INFINITY, 6, "-inf"),
            (9.8125, 6, "9.8125"),
            (0.000_123_4, 6, "0.0001234"),
            (100_000.0, 6, "100000"),
            (999_999.5, 6, "1e+06"),
            (2.5, 0, "2"),
            (123.456, 2, "1.2e+02"),
            (1e100, 6, "1e+100"),
        ] {
            assert_eq!(format_g(v, p), want, "{v} at precision {p}");
        }
    }
}
