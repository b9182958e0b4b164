//! Custom SFPU functions (the SFPI programming model): a function over DST vectors, run by MATH through the
//! low-level wrappers (`_llk_math_eltwise_unary_sfpu_params_`, `llk_math_eltwise_unary_sfpu_0_param`,
//! `_llk_math_eltwise_binary_sfpu_params_`) with the face walk the hardware uses.
//!
//! **DST as the SFPU sees it.** A vector is `compute.sfpu_lanes` values (32 on Wormhole and Blackhole, 64 on
//! Grayskull): `lanes / 16` rows of a 16×16 face. A tile is `1024 / lanes` vectors, face after face
//! (faces 0–3 = top-left, top-right, bottom-left, bottom-right); a face is `256 / lanes` vectors, which is
//! the ITERATIONS a face function loops (8 on Wormhole, 4 on Grayskull). `dst_reg[i]` is vector `i` past
//! the pointer; `dst_reg++` moves the pointer one vector. The wrapper puts the pointer on each face it
//! walks: RC = faces 0–3, R = faces 0 and 1 (a row vector), C = faces 0 and 2 (a column vector), None =
//! face 0. The unary wrappers start at DST tile `dst_index`, the binary one at tile 0 (its function
//! addresses its tiles as `dst_reg[tile * vectors_per_tile + …]`).
//!
//! **Predication.** `v_if(cond)` / `v_elseif` / `v_else` / `v_endif` enable lanes; DST stores and
//! [`Sfpi::assign`] write enabled lanes only (as every SFPU instruction is lane-predicated).
//!
//! **Cost.** Each executed vector instruction counts one: a DST load or store, each arithmetic, compare,
//! logic or conversion operator, an immediate (a literal operand), `dst_reg++`, and each of
//! `v_if`/`v_elseif`/`v_else`/`v_endif`. Constant registers and reinterpretations are free. The walk
//! costs `math_base + ⌈instructions × sfpu_cycles_per_instr × lanes / 1024⌉` (`sfpu_cycles_per_instr`
//! is one instruction over a whole tile). Not modelled: the SFPI compiler's fusion of a multiply and an
//! add into one `SFPMAD`, and instruction latencies (nops the compiler inserts).
#![allow(clippy::needless_range_loop)] // lane loops index several lane arrays in step

mod vector;

pub use vector::*;

use super::math::{Tile, round_bf16};
use super::*;

/// Which faces a wrapper walks (`VectorMode`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VectorMode {
    /// Face 0 only.
    None,
    /// Faces 0 and 1 (the first rows: a row vector).
    R,
    /// Faces 0 and 2 (the first columns: a column vector).
    C,
    /// All four faces.
    RC,
}

impl VectorMode {
    /// `VectorMode` from its C++ enum value (`None`=0, `R`, `C`, `RC`, `RC_custom`=4 walks like RC).
    pub fn from_code(code: u32) -> Option<VectorMode> {
        Some(match code {
            0 => VectorMode::None,
            1 => VectorMode::R,
            2 => VectorMode::C,
            3 | 4 => VectorMode::RC,
            _ => return None,
        })
    }

    /// The faces walked, in order.
    pub fn faces(self) -> &'static [usize] {
        match self {
            VectorMode::None => &[0],
            VectorMode::R => &[0, 1],
            VectorMode::C => &[0, 2],
            VectorMode::RC => &[0, 1, 2, 3],
        }
    }
}

/// The DST section a custom SFPU function runs over, with its pointer and predication stack.
pub struct Sfpi {
    dst: Vec<Tile>,
    stored: Vec<bool>,
    /// Per tile, whether its last store was an integer one (PACK then writes its bits to an integer CB).
    int_stored: Vec<bool>,
    lanes: usize,
    ptr: usize,
    masks: Vec<[bool; MAX_LANES]>,
    fp32: bool,
    error: Option<String>,
}

impl Sfpi {
    /// A session over `tiles` (the section's DST tiles) with `lanes` lanes per vector.
    pub(crate) fn new(tiles: Vec<Tile>, lanes: usize, fp32: bool) -> Sfpi {
        let n = tiles.len();
        Sfpi {
            dst: tiles,
            stored: vec![false; n],
            int_stored: vec![false; n],
            lanes,
            ptr: 0,
            masks: Vec::new(),
            fp32,
            error: None,
        }
    }

    /// Lanes per vector (`compute.sfpu_lanes`).
    pub fn lanes(&self) -> usize {
        self.lanes
    }

    /// Vectors per 16×16 face: the ITERATIONS of a face function.
    pub fn vectors_per_face(&self) -> usize {
        256 / self.lanes
    }

    /// Vectors per 32×32 tile (the `dst_reg` stride between DST tiles).
    pub fn vectors_per_tile(&self) -> usize {
        1024 / self.lanes
    }

    /// The row-major index in its tile of each lane of vector `i` past the pointer, and the tile, or
    /// `None` (error recorded) when it is outside the section.
    fn locate(&mut self, i: isize) -> Option<(usize, usize)> {
        let abs = self.ptr as isize + i;
        let per_tile = self.vectors_per_tile() as isize;
        if abs < 0 || abs >= per_tile * self.dst.len() as isize {
            if self.error.is_none() {
                self.error = Some(format!(
                    "dst_reg[{i}] (vector {abs} of the DST section) is outside the section's {} tiles of {per_tile} \
                     vectors",
                    self.dst.len()
                ));
            }
            return None;
        }
        let (tile, v) = ((abs / per_tile) as usize, (abs % per_tile) as usize);
        let face = v / self.vectors_per_face();
        let row0 = (v % self.vectors_per_face()) * (self.lanes / 16);
        Some((tile, ((face / 2) * 16 + row0) * 32 + (face % 2) * 16))
    }

    #[inline]
    fn lane_index(first: usize, lane: usize) -> usize {
        first + (lane / 16) * 32 + lane % 16
    }

    /// The lanes enabled now.
    fn enabled(&self) -> [bool; MAX_LANES] {
        self.masks.last().copied().unwrap_or([true; MAX_LANES])
    }

    /// The lanes of `dst_reg[i]` into `out` (uncounted: for front ends that count their own instructions).
    pub fn load_lanes(&mut self, i: isize, out: &mut [f32]) {
        let Some((t, first)) = self.locate(i) else { return };
        for (l, x) in out.iter_mut().enumerate().take(self.lanes) {
            *x = self.dst[t][Self::lane_index(first, l)];
        }
    }

    /// Store `vals` into `dst_reg[i]` on the lanes `enabled` (all when `None`), rounding floats to bfloat16
    /// when DST is 16-bit and `float` is set (uncounted, as [`Sfpi::load_lanes`]).
    pub fn store_lanes(&mut self, i: isize, vals: &[f32], enabled: Option<&[bool]>, float: bool) {
        let round = float && !self.fp32;
        let Some((t, first)) = self.locate(i) else { return };
        for l in 0..self.lanes.min(vals.len()) {
            if enabled.is_none_or(|e| e.get(l).copied().unwrap_or(false)) {
                let x = vals[l];
                self.dst[t][Self::lane_index(first, l)] = if round { round_bf16(x) } else { x };
            }
        }
        self.stored[t] = true;
        self.int_stored[t] = !float;
    }

    /// `dst_reg[i]` read as floats (an `SFPLOAD`).
    pub fn dst(&mut self, i: isize) -> VFloat {
        count(1);
        let mut v = [0f32; MAX_LANES];
        self.load_lanes(i, &mut v);
        VFloat(v)
    }

    /// `dst_reg[i]` read as integers (the value's bits).
    pub fn dst_int(&mut self, i: isize) -> VInt {
        self.dst(i).as_int()
    }

    /// `dst_reg[i] = v` on the enabled lanes (an `SFPSTORE`); rounded to bfloat16 unless DST is 32-bit.
    pub fn set_dst(&mut self, i: isize, v: VFloat) {
        count(1);
        let en = self.enabled();
        self.store_lanes(i, &v.0, Some(&en), true);
    }

    /// `dst_reg[i] = v` for an integer vector (its bits, unrounded).
    pub fn set_dst_int(&mut self, i: isize, v: VInt) {
        count(1);
        let en = self.enabled();
        self.store_lanes(i, &v.as_float().0, Some(&en), false);
    }

    /// Put the pointer on `face` of DST tile `tile` (what the wrappers do before each face).
    pub fn seek(&mut self, tile: usize, face: usize) {
        self.ptr = tile * self.vectors_per_tile() + face * self.vectors_per_face();
    }

    /// Move the pointer one vector (uncounted `dst_reg++`).
    pub fn advance(&mut self) {
        self.ptr += 1;
    }

    /// `dst_reg++`: the pointer moves one vector.
    pub fn inc(&mut self) {
        count(1);
        self.advance();
    }

    /// `target = v` on the enabled lanes (a register move under predication; free outside `v_if`, where
    /// the compiler simply renames).
    pub fn assign<V: Lanes>(&self, target: &mut V, v: V) {
        if self.masks.is_empty() {
            *target = v;
        } else {
            count(1);
            target.select_from(&v, &self.enabled());
        }
    }

    /// `v_if (cond) { body }`: `body` runs with the lanes where `cond` holds (and the enclosing ones)
    /// enabled. Chain [`VIf::v_elseif`] and [`VIf::v_else`]; `v_endif` is where the result is dropped.
    pub fn v_if(&mut self, cond: VCond, body: impl FnOnce(&mut Sfpi)) -> VIf<'_> {
        count(1);
        let outer = self.enabled();
        let mut m = outer;
        for (x, c) in m.iter_mut().zip(cond.0.iter()) {
            *x &= *c;
        }
        self.masks.push(m);
        body(self);
        self.masks.pop();
        VIf { s: self, outer, taken: m }
    }
}

/// The rest of a `v_if` chain; dropping it is `v_endif`.
pub struct VIf<'s> {
    s: &'s mut Sfpi,
    outer: [bool; MAX_LANES],
    taken: [bool; MAX_LANES],
}

impl VIf<'_> {
    /// `v_elseif (cond) { body }`: lanes no earlier branch took, where `cond` holds.
    pub fn v_elseif(mut self, cond: VCond, body: impl FnOnce(&mut Sfpi)) -> Self {
        count(1);
        let mut m = [false; MAX_LANES];
        for l in 0..MAX_LANES {
            m[l] = self.outer[l] && !self.taken[l] && cond.0[l];
            self.taken[l] |= m[l];
        }
        self.s.masks.push(m);
        body(self.s);
        self.s.masks.pop();
        self
    }

    /// `v_else { body }`: lanes no earlier branch took.
    pub fn v_else(mut self, body: impl FnOnce(&mut Sfpi)) {
        count(1);
        let mut m = [false; MAX_LANES];
        for l in 0..MAX_LANES {
            m[l] = self.outer[l] && !self.taken[l];
            self.taken[l] = true;
        }
        self.s.masks.push(m);
        body(self.s);
        self.s.masks.pop();
    }
}

impl Drop for VIf<'_> {
    /// `v_endif`.
    fn drop(&mut self) {
        count(1);
    }
}

/// A vector type whose lanes can be written selectively.
pub trait Lanes: Copy {
    /// Take `v`'s value on the lanes of `mask`.
    fn select_from(&mut self, v: &Self, mask: &[bool; MAX_LANES]);
}

macro_rules! lanes_impl {
    ($($t:ident),*) => {$(
        impl Lanes for $t {
            fn select_from(&mut self, v: &Self, mask: &[bool; MAX_LANES]) {
                for l in 0..MAX_LANES {
                    if mask[l] {
                        self.0[l] = v.0[l];
                    }
                }
            }
        }
    )*};
}
lanes_impl!(VFloat, VInt, VUInt);

/// The wrapper a C++ kernel's SFPU function runs under (for messages).
pub const WRAPPERS: [&str; 3] = [
    "_llk_math_eltwise_unary_sfpu_params_",
    "llk_math_eltwise_unary_sfpu_0_param",
    "_llk_math_eltwise_binary_sfpu_params_",
];

impl Compute<'_> {
    /// MATH: a session over the DST section, for a walk from tile `start`; `None` on UNPACK and PACK.
    fn sfpi_begin(&mut self, api: &str, start: u32) -> Option<Sfpi> {
        if self.role != ComputeRole::Math {
            return None;
        }
        self.dst_check(api, start);
        let cap = self.settings.capacity();
        let lanes = self.ctx.costs.compute.sfpu_lanes as usize;
        if !(16..=256).contains(&lanes) || !lanes.is_power_of_two() {
            self.ctx.fail(format!("{api}: compute.sfpu_lanes is {lanes}; it must be a power of two in 16..=256"));
        }
        let fp32 = self.settings.fp32_dest_acc;
        let section = self.math_section;
        let slots: Vec<usize> = (0..cap).map(|i| self.settings.slot(section, i)).collect();
        let tiles = self.state(|s| slots.iter().map(|&i| *s.dst(i)).collect::<Vec<Tile>>());
        Some(Sfpi::new(tiles, lanes, fp32))
    }

    /// MATH: end a session: report its error, charge `instructions` and write the stored tiles back.
    fn sfpi_finish(&mut self, api: &str, mut s: Sfpi, instructions: u64) {
        if let Some(e) = s.error.take() {
            self.ctx.fail(format!("{api}: {e}"));
        }
        let c = &self.ctx.costs.compute;
        let cycles = (instructions as u128 * c.sfpu_per_instr.0 as u128 * s.lanes as u128).div_ceil(1024);
        let cycles = Cycles(u64::try_from(cycles).unwrap_or(u64::MAX));
        self.ctx.spend(c.math_base + cycles);
        let section = self.math_section;
        let slots: Vec<usize> = (0..s.dst.len() as u32).map(|i| self.settings.slot(section, i)).collect();
        self.state(|st| {
            for (k, &slot) in slots.iter().enumerate() {
                if s.stored[k] {
                    *st.dst_overwrite(slot) = s.dst[k];
                    st.set_dst_int_bits(slot, s.int_stored[k]);
                }
            }
        });
    }

    /// Walk the faces of `mode` from DST tile `start`, calling `f` per face (`first` instead for a row
    /// vector when given), then charge the instructions executed.
    fn sfpu_walk(
        &mut self,
        api: &str,
        start: u32,
        mode: VectorMode,
        first: Option<&mut dyn FnMut(&mut Sfpi)>,
        f: &mut dyn FnMut(&mut Sfpi),
    ) {
        let Some(mut s) = self.sfpi_begin(api, start) else { return };
        take_count();
        let mut first = first;
        for &face in mode.faces() {
            s.seek(start as usize, face);
            match first.as_deref_mut() {
                Some(g) if mode == VectorMode::R => g(&mut s),
                _ => f(&mut s),
            }
        }
        let instructions = take_count();
        self.sfpi_finish(api, s, instructions);
    }

    /// Foreign-language front ends (C++ kernels): open a session for wrapper `wrapper` (an index of
    /// [`WRAPPERS`]) from DST tile `start`. Returns the lanes per vector, or 0 when this thread is not MATH
    /// (the function then does not run).
    pub fn sfpi_open(&mut self, wrapper: usize, start: u32) -> u32 {
        let api = WRAPPERS.get(wrapper).copied().unwrap_or(WRAPPERS[0]);
        if self.sfpi_open.is_some() {
            self.ctx.fail(format!("{api}: an SFPU function is already running (wrappers do not nest)"));
        }
        match self.sfpi_begin(api, start) {
            Some(s) => {
                let lanes = s.lanes as u32;
                self.sfpi_open = Some((api, s));
                lanes
            }
            None => 0,
        }
    }

    /// The open session (an error naming `what` when no SFPU wrapper is running).
    pub fn sfpi_session(&mut self, what: &str) -> &mut Sfpi {
        if self.sfpi_open.is_none() {
            self.ctx.fail(format!(
                "{what} outside an SFPU function: dst_reg is reachable only inside a function run by an llk SFPU \
                 wrapper on MATH"
            ));
        }
        &mut self.sfpi_open.as_mut().expect("checked").1
    }

    /// Close the open session, charging `instructions` (counted by the front end).
    pub fn sfpi_close(&mut self, instructions: u64) {
        if let Some((api, s)) = self.sfpi_open.take() {
            self.sfpi_finish(api, s, instructions);
        }
    }

    /// `_llk_math_eltwise_unary_sfpu_params_<APPROX>(f, dst_index, vector_mode)`: `f` once per face of
    /// DST tile `dst` (MATH only).
    pub fn llk_math_eltwise_unary_sfpu_params(&mut self, dst: u32, mode: VectorMode, mut f: impl FnMut(&mut Sfpi)) {
        self.sfpu_walk("_llk_math_eltwise_unary_sfpu_params_", dst, mode, None, &mut f);
    }

    /// `llk_math_eltwise_unary_sfpu_0_param<APPROX>(first_func, func, dst_index, vector_mode)`: a row
    /// vector (R) runs `first` on faces 0 and 1; the other modes run `f` on every face they walk.
    pub fn llk_math_eltwise_unary_sfpu_0_param(
        &mut self,
        mut first: impl FnMut(&mut Sfpi),
        mut f: impl FnMut(&mut Sfpi),
        dst: u32,
        mode: VectorMode,
    ) {
        self.sfpu_walk("llk_math_eltwise_unary_sfpu_0_param", dst, mode, Some(&mut first), &mut f);
    }

    /// `_llk_math_eltwise_binary_sfpu_params_<APPROX>(f, in0, in1, out, vector_mode)`: `f` once per face
    /// with the pointer on DST tile 0 (the function addresses its operand tiles itself).
    pub fn llk_math_eltwise_binary_sfpu_params(&mut self, mode: VectorMode, mut f: impl FnMut(&mut Sfpi)) {
        self.sfpu_walk("_llk_math_eltwise_binary_sfpu_params_", 0, mode, None, &mut f);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn walk(s: &mut Sfpi, mode: VectorMode, tile: usize, mut f: impl FnMut(&mut Sfpi)) {
        for &face in mode.faces() {
            s.seek(tile, face);
            f(s);
        }
    }

    fn add_one(s: &mut Sfpi) {
        for _ in 0..s.vectors_per_face() {
            let v = s.dst(0);
            s.set_dst(0, v + 1.0);
            s.inc();
        }
    }

    #[test]
    fn the_rc_walk_covers_each_value_of_a_tile_once_at_either_width() {
        for lanes in [32, 64] {
            let mut s = Sfpi::new(vec![[0f32; 1024]; 2], lanes, true);
            walk(&mut s, VectorMode::RC, 1, add_one);
            assert!(s.dst[1].iter().all(|&x| x == 1.0), "lanes {lanes}");
            assert!(s.dst[0].iter().all(|&x| x == 0.0));
            assert_eq!(s.stored, vec![false, true]);
            assert!(s.error.is_none());
        }
    }

    #[test]
    fn row_and_column_modes_walk_their_faces() {
        let mut s = Sfpi::new(vec![[0f32; 1024]], 32, true);
        walk(&mut s, VectorMode::R, 0, add_one);
        for r in 0..32 {
            for c in 0..32 {
                assert_eq!(s.dst[0][r * 32 + c], if r < 16 { 1.0 } else { 0.0 });
            }
        }
        let mut s = Sfpi::new(vec![[0f32; 1024]], 32, true);
        walk(&mut s, VectorMode::C, 0, add_one);
        assert_eq!(s.dst[0][31 * 32 + 15], 1.0);
        assert_eq!(s.dst[0][31 * 32 + 16], 0.0);
    }

    #[test]
    fn a_lane_is_a_row_and_column_of_its_face() {
        let mut t = [0f32; 1024];
        for (i, x) in t.iter_mut().enumerate() {
            *x = i as f32;
        }
        let mut s = Sfpi::new(vec![t], 32, true);
        s.seek(0, 1);
        // Vector 1 of face 1 holds face rows 2 and 3; lane 17 is face row 3, column 1 (tile column 17).
        assert_eq!(s.dst(1).0[17], (3 * 32 + 17) as f32);
        s.seek(0, 2);
        assert_eq!(s.dst(0).0[0], (16 * 32) as f32);
    }

    #[test]
    fn predication_writes_only_enabled_lanes() {
        let mut t = [0f32; 1024];
        for (i, x) in t.iter_mut().enumerate() {
            *x = if i % 2 == 0 { -1.0 } else { 2.0 };
        }
        let mut s = Sfpi::new(vec![t], 32, true);
        take_count();
        let v = s.dst(0);
        let mut r = VFloat::CONST_0;
        s.v_if(v.lt(0.0), |s| s.set_dst(0, VFloat::CONST_0))
            .v_elseif(v.gt(1.5), |s| {
                let w = s.dst(0);
                s.assign(&mut r, w * 2.0);
                s.set_dst(0, r);
            })
            .v_else(|s| s.set_dst(0, VFloat::CONST_NEG1));
        assert_eq!(&s.dst[0][..4], &[0.0, 4.0, 0.0, 4.0]);
        assert_eq!(s.dst[0][32 + 1], 4.0, "row 1 of the face is in the vector");
        assert_eq!(s.dst[0][16], -1.0, "face 1: untouched");
        // load, splat+lt, v_if, store, splat+gt, v_elseif, load, splat+mul, assign, store, v_else, store, v_endif.
        assert_eq!(take_count(), 16);
    }

    #[test]
    fn a_vector_outside_the_section_is_an_error() {
        let mut s = Sfpi::new(vec![[0f32; 1024]], 32, false);
        s.seek(0, 3);
        let _ = s.dst(8);
        assert!(s.error.as_deref().unwrap().contains("dst_reg[8] (vector 32 of the DST section)"), "{:?}", s.error);
    }

    #[test]
    fn a_16_bit_dst_rounds_stores_to_bfloat16() {
        let mut s = Sfpi::new(vec![[0f32; 1024]], 32, false);
        s.set_dst(0, VFloat([1.0 + 1.0 / 1024.0; MAX_LANES]));
        assert_eq!(s.dst[0][0], 1.0);
    }
}
