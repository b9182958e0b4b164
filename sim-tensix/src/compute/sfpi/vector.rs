//! The SFPI vector types — `VFloat`, `VInt`, `VUInt` and the lane condition `VCond` — with the arithmetic,
//! comparisons and `sfpi` intrinsics custom SFPU functions use. Every operation that the SFPU executes as an
//! instruction counts one in the running function's instruction counter (see [`super`] for the counting
//! rules); constants from the constant registers and reinterpretations are free.
#![allow(clippy::needless_range_loop)] // lane loops index several lane arrays in step

use std::cell::Cell;
use std::ops::{
    Add, AddAssign, BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Mul, MulAssign, Neg, Not, Shl, Shr,
    Sub, SubAssign,
};

/// Lanes a vector holds in tensim (the widest SFPU, Grayskull's 64). The arch's own lane count
/// (`compute.sfpu_lanes`) decides how many of them DST loads and stores move.
pub const MAX_LANES: usize = 64;

thread_local! {
    static INSTRUCTIONS: Cell<u64> = const { Cell::new(0) };
}

/// Count `n` SFPU instructions for the function running on this thread.
#[inline]
pub(crate) fn count(n: u64) {
    INSTRUCTIONS.with(|c| c.set(c.get() + n));
}

/// Take (and reset) this thread's instruction counter.
pub(crate) fn take_count() -> u64 {
    INSTRUCTIONS.with(|c| c.replace(0))
}

/// A vector of 32-bit floats, one per SFPU lane.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct VFloat(pub [f32; MAX_LANES]);

/// A vector of signed 32-bit integers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct VInt(pub [i32; MAX_LANES]);

/// A vector of unsigned 32-bit integers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct VUInt(pub [u32; MAX_LANES]);

/// A per-lane condition (the result of a comparison), for `v_if` and friends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct VCond(pub [bool; MAX_LANES]);

#[inline]
fn map<T: Copy, U: Copy + Default>(a: &[T; MAX_LANES], f: impl Fn(T) -> U) -> [U; MAX_LANES] {
    let mut out = [U::default(); MAX_LANES];
    for (o, &x) in out.iter_mut().zip(a.iter()) {
        *o = f(x);
    }
    out
}

#[inline]
fn zip<T: Copy, U: Copy, V: Copy + Default>(
    a: &[T; MAX_LANES],
    b: &[U; MAX_LANES],
    f: impl Fn(T, U) -> V,
) -> [V; MAX_LANES] {
    let mut out = [V::default(); MAX_LANES];
    for i in 0..MAX_LANES {
        out[i] = f(a[i], b[i]);
    }
    out
}

impl VFloat {
    /// Constant register 0.0 (free).
    pub const CONST_0: VFloat = VFloat([0.0; MAX_LANES]);
    /// Constant register 1.0 (free).
    pub const CONST_1: VFloat = VFloat([1.0; MAX_LANES]);
    /// Constant register -1.0 (free).
    pub const CONST_NEG1: VFloat = VFloat([-1.0; MAX_LANES]);
    /// Constant register 0.8373 (free).
    pub const CONST_0P8373: VFloat = VFloat([0.8373; MAX_LANES]);

    /// Every lane `v`: an immediate load (one instruction).
    pub fn splat(v: f32) -> VFloat {
        count(1);
        VFloat([v; MAX_LANES])
    }
    /// The bits of each lane as a signed integer (free: the same register).
    pub fn as_int(self) -> VInt {
        VInt(map(&self.0, |x| x.to_bits() as i32))
    }
    /// The bits of each lane as an unsigned integer (free).
    pub fn as_uint(self) -> VUInt {
        VUInt(map(&self.0, f32::to_bits))
    }
    /// `a < b` per lane.
    pub fn lt(self, b: impl Into<VFloat>) -> VCond {
        let b = b.into();
        count(1);
        VCond(zip(&self.0, &b.0, |x, y| x < y))
    }
    /// `a <= b` per lane.
    pub fn le(self, b: impl Into<VFloat>) -> VCond {
        let b = b.into();
        count(1);
        VCond(zip(&self.0, &b.0, |x, y| x <= y))
    }
    /// `a > b` per lane.
    pub fn gt(self, b: impl Into<VFloat>) -> VCond {
        let b = b.into();
        count(1);
        VCond(zip(&self.0, &b.0, |x, y| x > y))
    }
    /// `a >= b` per lane.
    pub fn ge(self, b: impl Into<VFloat>) -> VCond {
        let b = b.into();
        count(1);
        VCond(zip(&self.0, &b.0, |x, y| x >= y))
    }
    /// `a == b` per lane.
    pub fn eq(self, b: impl Into<VFloat>) -> VCond {
        let b = b.into();
        count(1);
        VCond(zip(&self.0, &b.0, |x, y| x == y))
    }
    /// `a != b` per lane.
    pub fn ne(self, b: impl Into<VFloat>) -> VCond {
        let b = b.into();
        count(1);
        VCond(zip(&self.0, &b.0, |x, y| x != y))
    }
}

/// A scalar operand: loaded as an immediate (one instruction), as SFPI does for a literal.
impl From<f32> for VFloat {
    fn from(v: f32) -> VFloat {
        VFloat::splat(v)
    }
}

macro_rules! float_binop {
    ($tr:ident, $f:ident, $atr:ident, $af:ident, $op:tt) => {
        impl<B: Into<VFloat>> $tr<B> for VFloat {
            type Output = VFloat;
            fn $f(self, b: B) -> VFloat {
                let b = b.into();
                count(1);
                VFloat(zip(&self.0, &b.0, |x, y| x $op y))
            }
        }
        impl $tr<VFloat> for f32 {
            type Output = VFloat;
            fn $f(self, b: VFloat) -> VFloat {
                VFloat::splat(self) $op b
            }
        }
        impl<B: Into<VFloat>> $atr<B> for VFloat {
            fn $af(&mut self, b: B) {
                *self = *self $op b;
            }
        }
    };
}
float_binop!(Add, add, AddAssign, add_assign, +);
float_binop!(Sub, sub, SubAssign, sub_assign, -);
float_binop!(Mul, mul, MulAssign, mul_assign, *);

impl Neg for VFloat {
    type Output = VFloat;
    fn neg(self) -> VFloat {
        count(1);
        VFloat(map(&self.0, |x| -x))
    }
}

macro_rules! int_ops {
    ($v:ident, $t:ty) => {
        impl $v {
            /// Every lane `v`: an immediate load (one instruction).
            pub fn splat(v: $t) -> $v {
                count(1);
                $v([v; MAX_LANES])
            }
            /// The lanes' bits as floats (free).
            pub fn as_float(self) -> VFloat {
                VFloat(map(&self.0, |x| f32::from_bits(x as u32)))
            }
            /// `a < b` per lane.
            pub fn lt(self, b: impl Into<$v>) -> VCond {
                let b = b.into();
                count(1);
                VCond(zip(&self.0, &b.0, |x, y| x < y))
            }
            /// `a >= b` per lane.
            pub fn ge(self, b: impl Into<$v>) -> VCond {
                let b = b.into();
                count(1);
                VCond(zip(&self.0, &b.0, |x, y| x >= y))
            }
            /// `a > b` per lane.
            pub fn gt(self, b: impl Into<$v>) -> VCond {
                let b = b.into();
                count(1);
                VCond(zip(&self.0, &b.0, |x, y| x > y))
            }
            /// `a <= b` per lane.
            pub fn le(self, b: impl Into<$v>) -> VCond {
                let b = b.into();
                count(1);
                VCond(zip(&self.0, &b.0, |x, y| x <= y))
            }
            /// `a == b` per lane.
            pub fn eq(self, b: impl Into<$v>) -> VCond {
                let b = b.into();
                count(1);
                VCond(zip(&self.0, &b.0, |x, y| x == y))
            }
            /// `a != b` per lane.
            pub fn ne(self, b: impl Into<$v>) -> VCond {
                let b = b.into();
                count(1);
                VCond(zip(&self.0, &b.0, |x, y| x != y))
            }
        }
        impl From<$t> for $v {
            fn from(v: $t) -> $v {
                $v::splat(v)
            }
        }
        int_ops!(@bin $v, Add, add, AddAssign, add_assign, |x: $t, y: $t| x.wrapping_add(y));
        int_ops!(@bin $v, Sub, sub, SubAssign, sub_assign, |x: $t, y: $t| x.wrapping_sub(y));
        int_ops!(@bin $v, BitAnd, bitand, BitAndAssign, bitand_assign, |x: $t, y: $t| x & y);
        int_ops!(@bin $v, BitOr, bitor, BitOrAssign, bitor_assign, |x: $t, y: $t| x | y);
        int_ops!(@bin $v, BitXor, bitxor, BitXorAssign, bitxor_assign, |x: $t, y: $t| x ^ y);
        impl Not for $v {
            type Output = $v;
            fn not(self) -> $v {
                count(1);
                $v(map(&self.0, |x| !x))
            }
        }
        impl Shl<u32> for $v {
            type Output = $v;
            fn shl(self, s: u32) -> $v {
                count(1);
                $v(map(&self.0, |x| x.checked_shl(s).unwrap_or(0)))
            }
        }
        impl Shr<u32> for $v {
            type Output = $v;
            /// A logical shift (SFPSHFT shifts bits, whatever the type).
            fn shr(self, s: u32) -> $v {
                count(1);
                $v(map(&self.0, |x| (x as u32).checked_shr(s).unwrap_or(0) as $t))
            }
        }
    };
    (@bin $v:ident, $tr:ident, $f:ident, $atr:ident, $af:ident, $op:expr) => {
        impl<B: Into<$v>> $tr<B> for $v {
            type Output = $v;
            fn $f(self, b: B) -> $v {
                let b = b.into();
                count(1);
                $v(zip(&self.0, &b.0, $op))
            }
        }
        impl<B: Into<$v>> $atr<B> for $v {
            fn $af(&mut self, b: B) {
                *self = $tr::$f(*self, b);
            }
        }
    };
}
int_ops!(VInt, i32);
int_ops!(VUInt, u32);

impl BitAnd for VCond {
    type Output = VCond;
    /// Both conditions (`&&` in SFPI: one more compare under the first).
    fn bitand(self, b: VCond) -> VCond {
        count(1);
        VCond(zip(&self.0, &b.0, |x, y| x && y))
    }
}

impl BitOr for VCond {
    type Output = VCond;
    /// Either condition.
    fn bitor(self, b: VCond) -> VCond {
        count(1);
        VCond(zip(&self.0, &b.0, |x, y| x || y))
    }
}

impl Not for VCond {
    type Output = VCond;
    /// The complement.
    fn not(self) -> VCond {
        count(1);
        VCond(map(&self.0, |x| !x))
    }
}

/// `sfpi::abs`: |v|.
pub fn abs(v: VFloat) -> VFloat {
    count(1);
    VFloat(map(&v.0, f32::abs))
}

/// `sfpi::abs` on integers.
pub fn abs_int(v: VInt) -> VInt {
    count(1);
    VInt(map(&v.0, i32::wrapping_abs))
}

/// `sfpi::setsgn(v, s)`: v with the sign bit of `s` (0 positive, 1 negative).
pub fn setsgn(v: VFloat, sign: u32) -> VFloat {
    count(1);
    VFloat(map(&v.0, |x| f32::from_bits((x.to_bits() & 0x7fff_ffff) | ((sign & 1) << 31))))
}

/// `sfpi::exexp(v)`: the unbiased exponent.
pub fn exexp(v: VFloat) -> VInt {
    count(1);
    VInt(map(&v.0, |x| ((x.to_bits() >> 23) & 0xff) as i32 - 127))
}

/// `sfpi::exexp_nodebias(v)`: the biased exponent field.
pub fn exexp_nodebias(v: VFloat) -> VInt {
    count(1);
    VInt(map(&v.0, |x| ((x.to_bits() >> 23) & 0xff) as i32))
}

/// `sfpi::exman8(v)`: the mantissa with its hidden bit (bit 23).
pub fn exman8(v: VFloat) -> VInt {
    count(1);
    VInt(map(&v.0, |x| ((x.to_bits() & 0x7f_ffff) | 0x80_0000) as i32))
}

/// `sfpi::exman9(v)`: the mantissa without its hidden bit.
pub fn exman9(v: VFloat) -> VInt {
    count(1);
    VInt(map(&v.0, |x| (x.to_bits() & 0x7f_ffff) as i32))
}

/// `sfpi::setexp(v, e)`: v with the biased exponent field `e`.
pub fn setexp(v: VFloat, e: u32) -> VFloat {
    count(1);
    VFloat(map(&v.0, |x| f32::from_bits((x.to_bits() & 0x807f_ffff) | ((e & 0xff) << 23))))
}

/// `sfpi::setman(v, m)`: v with the mantissa field `m`.
pub fn setman(v: VFloat, m: u32) -> VFloat {
    count(1);
    VFloat(map(&v.0, |x| f32::from_bits((x.to_bits() & 0xff80_0000) | (m & 0x7f_ffff))))
}

/// `sfpi::addexp(v, n)`: v × 2ⁿ by adding to the exponent field.
pub fn addexp(v: VFloat, n: i32) -> VFloat {
    count(1);
    VFloat(map(&v.0, |x| {
        let b = x.to_bits();
        let e = (((b >> 23) & 0xff) as i32 + n).clamp(0, 255) as u32;
        f32::from_bits((b & 0x807f_ffff) | (e << 23))
    }))
}

/// `sfpi::lz(v)`: leading zeros of each lane's bits.
pub fn lz(v: VInt) -> VInt {
    count(1);
    VInt(map(&v.0, |x| x.leading_zeros() as i32))
}

/// `sfpi::int32_to_float(v)`.
pub fn int32_to_float(v: VInt) -> VFloat {
    count(1);
    VFloat(map(&v.0, |x| x as f32))
}

/// `sfpi::float_to_int16(v)`-style conversion to integer, rounding to nearest (saturating).
pub fn float_to_int(v: VFloat) -> VInt {
    count(1);
    VInt(map(&v.0, |x| x.round() as i32))
}

/// `sfpi::float_to_fp16b(v)`: rounded to bfloat16 precision (round to nearest even).
pub fn float_to_fp16b(v: VFloat) -> VFloat {
    count(1);
    VFloat(map(&v.0, crate::hw::compute::math::round_bf16))
}

/// `sfpi::vec_min_max`-style minimum per lane.
pub fn min(a: VFloat, b: VFloat) -> VFloat {
    count(1);
    VFloat(zip(&a.0, &b.0, f32::min))
}

/// Maximum per lane.
pub fn max(a: VFloat, b: VFloat) -> VFloat {
    count(1);
    VFloat(zip(&a.0, &b.0, f32::max))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arithmetic_is_per_lane_and_counted() {
        take_count();
        let a = VFloat([2.0; MAX_LANES]);
        let b = VFloat([3.0; MAX_LANES]);
        let c = a * b + 1.0f32;
        assert_eq!(c.0[5], 7.0);
        // mul, immediate load, add.
        assert_eq!(take_count(), 3);
        let i = exexp(VFloat([8.0; MAX_LANES]));
        assert_eq!(i.0[0], 3);
        assert_eq!(setexp(VFloat([1.5; MAX_LANES]), 128).0[0], 3.0);
        assert_eq!(addexp(VFloat([1.5; MAX_LANES]), 2).0[0], 6.0);
        assert_eq!((VInt([6; MAX_LANES]) >> 1).0[0], 3);
        assert_eq!(take_count(), 4);
        assert_eq!(VFloat::CONST_1.0[0], 1.0);
        assert_eq!(take_count(), 0);
    }
}
