//! The SFPU's functions on DST tiles: the unary operations (exact and approximate modes, those with a
//! parameter), the operations with a scalar, and the binary operations between two DST tiles.

use super::math::{Tile, round_bf16};

/// SFPU unary operations.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum SfpuUnary {
    /// e^x.
    Exp,
    /// 1/x.
    Recip,
    /// √x.
    Sqrt,
    /// 1/√x.
    Rsqrt,
    /// ln x.
    Log,
    /// 1/(1+e^-x).
    Sigmoid,
    /// tanh x.
    Tanh,
    /// GELU (tanh form).
    Gelu,
    /// max(x, 0).
    Relu,
    /// |x|.
    Abs,
    /// x².
    Square,
    /// x^p for a whole exponent p.
    Power(u32),
    /// Every element set to a value (the f32's bits).
    Fill(u32),
    /// −x.
    Negative,
    /// (1/β)·ln(1 + e^(βx)), or x where βx exceeds the threshold (β, 1/β and the threshold as f32 bits).
    Softplus { beta: u32, beta_reciprocal: u32, threshold: u32 },
    /// x·sigmoid(x).
    Silu,
    /// max(x, t) (t as f32 bits).
    ReluMin(u32),
    /// max(min(x, t), 0) (t as f32 bits).
    ReluMax(u32),
    /// x, or slope·x below 0 (the slope as f32 bits).
    LeakyRelu(u32),
    /// −1, 0 or 1.
    Sign,
    /// 1 where the sign bit is set (−0 included), else 0.
    Signbit,
    /// 2^x.
    Exp2,
    /// e^x − 1.
    Expm1,
    /// 0 below 0, v at 0, 1 above (v as f32 bits).
    Heaviside(u32),
    /// max(x, v) (v as f32 bits).
    UnaryMax(u32),
    /// min(x, v) (v as f32 bits).
    UnaryMin(u32),
    /// x op s with a scalar s (as f32 bits): `add_unary_tile` and its kin.
    Scalar(ScalarOp, u32),
    /// e^(s·x), s a bfloat16 (its 16 bits): `exp_tile<…, scale_en = true>(idst, mode, s)`.
    ExpScaled(u16),
}

/// The operation of a `*_unary_tile(idst, scalar)` call (`binop_with_scalar.h`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ScalarOp {
    Add,
    Sub,
    Mul,
    Div,
    /// s − x.
    Rsub,
}

impl SfpuUnary {
    /// The API name.
    pub fn name(self) -> &'static str {
        match self {
            SfpuUnary::Exp => "exp",
            SfpuUnary::Recip => "recip",
            SfpuUnary::Sqrt => "sqrt",
            SfpuUnary::Rsqrt => "rsqrt",
            SfpuUnary::Log => "log",
            SfpuUnary::Sigmoid => "sigmoid",
            SfpuUnary::Tanh => "tanh",
            SfpuUnary::Gelu => "gelu",
            SfpuUnary::Relu => "relu",
            SfpuUnary::Abs => "abs",
            SfpuUnary::Square => "square",
            SfpuUnary::Power(_) => "power",
            SfpuUnary::Fill(_) => "fill",
            SfpuUnary::Negative => "negative",
            SfpuUnary::Softplus { .. } => "softplus",
            SfpuUnary::Silu => "silu",
            SfpuUnary::ReluMin(_) => "relu_min",
            SfpuUnary::ReluMax(_) => "relu_max",
            SfpuUnary::LeakyRelu(_) => "leaky_relu",
            SfpuUnary::Sign => "sign",
            SfpuUnary::Signbit => "signbit",
            SfpuUnary::Exp2 => "exp2",
            SfpuUnary::Expm1 => "expm1",
            SfpuUnary::Heaviside(_) => "heaviside",
            SfpuUnary::UnaryMax(_) => "unary_max",
            SfpuUnary::UnaryMin(_) => "unary_min",
            // One init for the five (`binop_with_scalar_tile_init`).
            SfpuUnary::Scalar(..) => "binop_with_scalar",
            SfpuUnary::ExpScaled(_) => "exp",
        }
    }
}

/// Approximate e^x as the SFPU's fast mode does: 2^(x·log2 e) from the float's exponent field plus a
/// second-order polynomial for the fractional part.
fn exp_approx(x: f32) -> f32 {
    if x < -88.0 {
        return 0.0;
    }
    if x > 88.0 {
        return f32::INFINITY;
    }
    let t = x * std::f32::consts::LOG2_E;
    let i = t.floor();
    let f = t - i;
    let p = 1.0 + f * (0.656_285_4 + 0.343_714_6 * f);
    f32::from_bits((((i as i32) + 127) as u32) << 23) * p
}

/// Approximate 1/x: a bit-trick first guess and one Newton step.
fn recip_approx(x: f32) -> f32 {
    if x == 0.0 {
        return f32::INFINITY.copysign(x);
    }
    let y = f32::from_bits(0x7ef3_11c7u32.wrapping_sub(x.abs().to_bits())).copysign(x);
    y * (2.0 - x * y)
}

/// `dst[i] = f(dst[i])`.
pub fn sfpu_unary(t: &mut Tile, op: SfpuUnary, approx: bool, fp32_dest: bool) {
    for x in t.iter_mut() {
        let v = *x;
        let r = match op {
            SfpuUnary::Exp if approx => exp_approx(v),
            SfpuUnary::Exp => v.exp(),
            SfpuUnary::Recip if approx => recip_approx(v),
            SfpuUnary::Recip => 1.0 / v,
            SfpuUnary::Sqrt => v.sqrt(),
            SfpuUnary::Rsqrt if approx => recip_approx(v.sqrt()),
            SfpuUnary::Rsqrt => 1.0 / v.sqrt(),
            SfpuUnary::Log => v.ln(),
            SfpuUnary::Sigmoid if approx => recip_approx(1.0 + exp_approx(-v)),
            SfpuUnary::Sigmoid => 1.0 / (1.0 + (-v).exp()),
            SfpuUnary::Tanh => v.tanh(),
            SfpuUnary::Gelu => 0.5 * v * (1.0 + (0.797_884_6 * (v + 0.044_715 * v * v * v)).tanh()),
            SfpuUnary::Relu => v.max(0.0),
            SfpuUnary::Abs => v.abs(),
            SfpuUnary::Square => v * v,
            SfpuUnary::Power(p) => v.powi(p as i32),
            SfpuUnary::Fill(bits) => f32::from_bits(bits),
            SfpuUnary::Negative => -v,
            SfpuUnary::Softplus { beta, beta_reciprocal, threshold } => {
                let bx = f32::from_bits(beta) * v;
                if bx > f32::from_bits(threshold) { v } else { f32::from_bits(beta_reciprocal) * bx.exp().ln_1p() }
            }
            SfpuUnary::Silu if approx => v * recip_approx(1.0 + exp_approx(-v)),
            SfpuUnary::Silu => v / (1.0 + (-v).exp()),
            SfpuUnary::ReluMin(t) => v.max(f32::from_bits(t)),
            SfpuUnary::ReluMax(t) => v.min(f32::from_bits(t)).max(0.0),
            SfpuUnary::LeakyRelu(s) => {
                if v < 0.0 {
                    v * f32::from_bits(s)
                } else {
                    v
                }
            }
            SfpuUnary::Sign => {
                if v > 0.0 {
                    1.0
                } else if v < 0.0 {
                    -1.0
                } else {
                    0.0
                }
            }
            SfpuUnary::Signbit => {
                if v.is_sign_negative() {
                    1.0
                } else {
                    0.0
                }
            }
            SfpuUnary::Exp2 => v.exp2(),
            SfpuUnary::Expm1 => v.exp_m1(),
            SfpuUnary::Heaviside(h) => {
                if v < 0.0 {
                    0.0
                } else if v == 0.0 {
                    f32::from_bits(h)
                } else {
                    1.0
                }
            }
            SfpuUnary::UnaryMax(m) => v.max(f32::from_bits(m)),
            SfpuUnary::UnaryMin(m) => v.min(f32::from_bits(m)),
            SfpuUnary::Scalar(op, s) => {
                let s = f32::from_bits(s);
                match op {
                    ScalarOp::Add => v + s,
                    ScalarOp::Sub => v - s,
                    ScalarOp::Mul => v * s,
                    ScalarOp::Div => v / s,
                    ScalarOp::Rsub => s - v,
                }
            }
            SfpuUnary::ExpScaled(s) => {
                let x = v * f32::from_bits((s as u32) << 16);
                if approx { exp_approx(x) } else { x.exp() }
            }
        };
        *x = if fp32_dest { r } else { round_bf16(r) };
    }
}

/// SFPU binary operations on two DST tiles.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SfpuBinary {
    /// a + b.
    Add,
    /// a − b.
    Sub,
    /// a × b.
    Mul,
    /// a ÷ b.
    Div,
    /// b − a.
    Rsub,
    /// a^b.
    Pow,
    /// max(a, b).
    Max,
    /// min(a, b).
    Min,
    /// 1 where a == b, else 0 (and so on for the other comparisons).
    Eq,
    Ne,
    Lt,
    Gt,
    Le,
    Ge,
    /// a ÷ b, 0 where b is 0.
    DivNoNan,
}

impl SfpuBinary {
    /// The API name (`…_binary_tile`, or `binary_max_tile` / `binary_min_tile`).
    pub fn name(self) -> &'static str {
        match self {
            SfpuBinary::Add => "add_binary_tile",
            SfpuBinary::Sub => "sub_binary_tile",
            SfpuBinary::Mul => "mul_binary_tile",
            SfpuBinary::Div => "div_binary_tile",
            SfpuBinary::Rsub => "rsub_binary_tile",
            SfpuBinary::Pow => "power_binary_tile",
            SfpuBinary::Max => "binary_max_tile",
            SfpuBinary::Min => "binary_min_tile",
            SfpuBinary::Eq => "eq_binary_tile",
            SfpuBinary::Ne => "ne_binary_tile",
            SfpuBinary::Lt => "lt_binary_tile",
            SfpuBinary::Gt => "gt_binary_tile",
            SfpuBinary::Le => "le_binary_tile",
            SfpuBinary::Ge => "ge_binary_tile",
            SfpuBinary::DivNoNan => "div_no_nan_binary_tile",
        }
    }
}

/// `out[i] = a[i] op b[i]`.
pub fn sfpu_binary(out: &mut Tile, a: &Tile, b: &Tile, op: SfpuBinary, fp32_dest: bool) {
    for i in 0..1024 {
        let r = match op {
            SfpuBinary::Add => a[i] + b[i],
            SfpuBinary::Sub => a[i] - b[i],
            SfpuBinary::Mul => a[i] * b[i],
            SfpuBinary::Div => a[i] / b[i],
            SfpuBinary::Rsub => b[i] - a[i],
            SfpuBinary::Pow => a[i].powf(b[i]),
            SfpuBinary::Max => a[i].max(b[i]),
            SfpuBinary::Min => a[i].min(b[i]),
            SfpuBinary::Eq => (a[i] == b[i]) as u32 as f32,
            SfpuBinary::Ne => (a[i] != b[i]) as u32 as f32,
            SfpuBinary::Lt => (a[i] < b[i]) as u32 as f32,
            SfpuBinary::Gt => (a[i] > b[i]) as u32 as f32,
            SfpuBinary::Le => (a[i] <= b[i]) as u32 as f32,
            SfpuBinary::Ge => (a[i] >= b[i]) as u32 as f32,
            SfpuBinary::DivNoNan => {
                if b[i] == 0.0 {
                    0.0
                } else {
                    a[i] / b[i]
                }
            }
        };
        out[i] = if fp32_dest { r } else { round_bf16(r) };
    }
}

#[cfg(test)]
mod tests {
    use super::super::math::tests::tile;
    use super::*;

    #[test]
    fn sfpu_functions_and_approximations() {
        let mut t = *tile(|i, j| (i as f32 - 16.0) / 8.0 + j as f32 / 256.0);
        let orig = t;
        sfpu_unary(&mut t, SfpuUnary::Exp, false, true);
        assert!((t[0] - orig[0].exp()).abs() < 1e-6);
        let mut ap = orig;
        sfpu_unary(&mut ap, SfpuUnary::Exp, true, true);
        for (x, y) in ap.iter().zip(t.iter()) {
            assert!((x - y).abs() / y < 2e-2, "approx exp within 2%: {x} vs {y}");
        }
        let mut r = *tile(|i, j| 1.0 + (i * 32 + j) as f32);
        sfpu_unary(&mut r, SfpuUnary::Recip, true, true);
        assert!((r[0] - 1.0).abs() < 1e-2 && (r[1023] - 1.0 / 1024.0).abs() < 1e-5);
    }

    #[test]
    fn parameterised_sfpu_operations_take_their_parameter_as_float_bits() {
        let one = |op: SfpuUnary, x: f32| {
            let mut t = [x; 1024];
            sfpu_unary(&mut t, op, false, true);
            t[0]
        };
        let b = f32::to_bits;
        assert_eq!(one(SfpuUnary::ReluMax(b(1.0)), 3.0), 1.0);
        assert_eq!(one(SfpuUnary::ReluMax(b(1.0)), -3.0), 0.0);
        assert_eq!(one(SfpuUnary::ReluMin(b(0.5)), 0.25), 0.5);
        assert_eq!(one(SfpuUnary::LeakyRelu(b(0.1)), -2.0), -0.2);
        assert_eq!(one(SfpuUnary::Heaviside(b(0.5)), 0.0), 0.5);
        assert_eq!(one(SfpuUnary::Signbit, -0.0), 1.0);
        assert_eq!(one(SfpuUnary::Sign, -0.0), 0.0);
        assert_eq!(one(SfpuUnary::Scalar(ScalarOp::Rsub, b(1.0)), 3.0), -2.0);
        assert_eq!(one(SfpuUnary::Scalar(ScalarOp::Div, b(4.0)), 2.0), 0.5);
        // exp's scale is a bfloat16: 0x3F00 is 0.5.
        assert!((one(SfpuUnary::ExpScaled(0x3F00), 2.0) - 1f32.exp()).abs() < 1e-6);
        let two = |op: SfpuBinary, x: f32, y: f32| {
            let mut o = [0f32; 1024];
            sfpu_binary(&mut o, &[x; 1024], &[y; 1024], op, true);
            o[0]
        };
        assert_eq!(two(SfpuBinary::DivNoNan, 1.0, 0.0), 0.0);
        assert_eq!(two(SfpuBinary::Rsub, 1.0, 3.0), 2.0);
        assert_eq!(two(SfpuBinary::Le, 2.0, 2.0), 1.0);
        assert_eq!(two(SfpuBinary::Lt, 2.0, 2.0), 0.0);
        assert_eq!(two(SfpuBinary::Pow, 2.0, 3.0), 8.0);
    }
}
