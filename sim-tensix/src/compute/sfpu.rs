//! SFPU operations on DST tiles (MATH thread): unary functions with exact and approximate modes, and
//! binary operations between DST tiles.

use super::*;

impl Compute<'_> {
    /// Any SFPU unary operation on DST tile `dst`.
    pub fn sfpu_unary(&mut self, op: SfpuUnary, dst: u32) {
        self.sfpu_unary_approx(op, dst, None);
    }

    /// [`Compute::sfpu_unary`] approximated as the call's template flag says (`exp_tile<true>`,
    /// `sigmoid_tile<RC, true>`, …; `None`: the kernel's `math_approx_mode`, what `APPROX` gives).
    pub fn sfpu_unary_approx(&mut self, op: SfpuUnary, dst: u32, approx: Option<bool>) {
        if self.role != ComputeRole::Math {
            return;
        }
        let api = op.name();
        if !self.sfpu.contains(&api) {
            self.ctx.host.borrow_mut().warn(self.ctx.k.fiber, format!("{api}_tile ran without {api}_tile_init"));
        }
        let slot = self.math_slot(api, dst);
        self.ctx.spend(self.cost().sfpu_unary(op));
        let approx = approx.unwrap_or(self.settings.approx);
        self.dst_write(slot, |d, fp32, _| math::sfpu_unary(d, op, approx, fp32));
    }

    /// `exp_tile_init()`.
    pub fn exp_tile_init(&mut self) {
        self.sfpu_init("exp");
    }
    /// `exp_tile(dst)`.
    pub fn exp_tile(&mut self, dst: u32) {
        self.sfpu_unary(SfpuUnary::Exp, dst);
    }
    /// `recip_tile_init()`.
    pub fn recip_tile_init(&mut self) {
        self.sfpu_init("recip");
    }
    /// `recip_tile(dst)`.
    pub fn recip_tile(&mut self, dst: u32) {
        self.sfpu_unary(SfpuUnary::Recip, dst);
    }
    /// `sqrt_tile_init()`.
    pub fn sqrt_tile_init(&mut self) {
        self.sfpu_init("sqrt");
    }
    /// `sqrt_tile(dst)`.
    pub fn sqrt_tile(&mut self, dst: u32) {
        self.sfpu_unary(SfpuUnary::Sqrt, dst);
    }
    /// `rsqrt_tile_init()`.
    pub fn rsqrt_tile_init(&mut self) {
        self.sfpu_init("rsqrt");
    }
    /// `rsqrt_tile(dst)`.
    pub fn rsqrt_tile(&mut self, dst: u32) {
        self.sfpu_unary(SfpuUnary::Rsqrt, dst);
    }
    /// `log_tile_init()`.
    pub fn log_tile_init(&mut self) {
        self.sfpu_init("log");
    }
    /// `log_tile(dst)`.
    pub fn log_tile(&mut self, dst: u32) {
        self.sfpu_unary(SfpuUnary::Log, dst);
    }
    /// `sigmoid_tile_init()`.
    pub fn sigmoid_tile_init(&mut self) {
        self.sfpu_init("sigmoid");
    }
    /// `sigmoid_tile(dst)`.
    pub fn sigmoid_tile(&mut self, dst: u32) {
        self.sfpu_unary(SfpuUnary::Sigmoid, dst);
    }
    /// `tanh_tile_init()`.
    pub fn tanh_tile_init(&mut self) {
        self.sfpu_init("tanh");
    }
    /// `tanh_tile(dst)`.
    pub fn tanh_tile(&mut self, dst: u32) {
        self.sfpu_unary(SfpuUnary::Tanh, dst);
    }
    /// `gelu_tile_init()`.
    pub fn gelu_tile_init(&mut self) {
        self.sfpu_init("gelu");
    }
    /// `gelu_tile(dst)`.
    pub fn gelu_tile(&mut self, dst: u32) {
        self.sfpu_unary(SfpuUnary::Gelu, dst);
    }
    /// `relu_tile_init()`.
    pub fn relu_tile_init(&mut self) {
        self.sfpu_init("relu");
    }
    /// `relu_tile(dst)`.
    pub fn relu_tile(&mut self, dst: u32) {
        self.sfpu_unary(SfpuUnary::Relu, dst);
    }
    /// `abs_tile_init()`.
    pub fn abs_tile_init(&mut self) {
        self.sfpu_init("abs");
    }
    /// `abs_tile(dst)`.
    pub fn abs_tile(&mut self, dst: u32) {
        self.sfpu_unary(SfpuUnary::Abs, dst);
    }
    /// `square_tile_init()`.
    pub fn square_tile_init(&mut self) {
        self.sfpu_init("square");
    }
    /// `square_tile(dst)`.
    pub fn square_tile(&mut self, dst: u32) {
        self.sfpu_unary(SfpuUnary::Square, dst);
    }
    /// `power_tile_init()`.
    pub fn power_tile_init(&mut self) {
        self.sfpu_init("power");
    }
    /// `power_tile(dst, p)`.
    pub fn power_tile(&mut self, dst: u32, p: u32) {
        self.sfpu_unary(SfpuUnary::Power(p), dst);
    }
    /// `fill_tile_init()`.
    pub fn fill_tile_init(&mut self) {
        self.sfpu_init("fill");
    }
    /// `fill_tile(dst, value)`: every element of DST tile `dst` set to `value`.
    pub fn fill_tile(&mut self, dst: u32, value: f32) {
        self.sfpu_unary(SfpuUnary::Fill(value.to_bits()), dst);
    }
    /// `negative_tile_init()`.
    pub fn negative_tile_init(&mut self) {
        self.sfpu_init("negative");
    }
    /// `negative_tile(dst)`.
    pub fn negative_tile(&mut self, dst: u32) {
        self.sfpu_unary(SfpuUnary::Negative, dst);
    }
    /// `softplus_tile_init()`.
    pub fn softplus_tile_init(&mut self) {
        self.sfpu_init("softplus");
    }
    /// `softplus_tile(dst, beta, beta_reciprocal, threshold)` (each an f32's bits, as the C++ call takes them).
    pub fn softplus_tile(&mut self, dst: u32, beta: u32, beta_reciprocal: u32, threshold: u32) {
        self.sfpu_unary(SfpuUnary::Softplus { beta, beta_reciprocal, threshold }, dst);
    }

    /// The init of an SFPU unary operation (`<name>_tile_init()`; one for the five scalar operations).
    pub fn sfpu_unary_init(&mut self, op: SfpuUnary) {
        self.sfpu_init(op.name());
    }

    /// The init of an SFPU binary operation (`<name>_init()`).
    pub fn sfpu_binary_init(&mut self, op: SfpuBinary) {
        self.sfpu_init(op.name());
    }

    /// Any SFPU binary operation: `DST[out] = DST[i0] op DST[i1]`.
    pub fn sfpu_binary(&mut self, op: SfpuBinary, i0: u32, i1: u32, out: u32) {
        if self.role != ComputeRole::Math {
            return;
        }
        let api = op.name();
        if !self.sfpu.contains(&api) {
            self.ctx.host.borrow_mut().warn(self.ctx.k.fiber, format!("{api} ran without {api}_init"));
        }
        let (s0, s1, so) = (self.math_slot(api, i0), self.math_slot(api, i1), self.math_slot(api, out));
        self.ctx.spend(self.cost().sfpu_binary(op));
        let fp32 = self.settings.fp32_dest_acc;
        if !self.data {
            return;
        }
        self.state(|s| {
            // One read at a time: both operands may be the same DST tile.
            let a = *s.dst(s0);
            let b = *s.dst(s1);
            math::sfpu_binary(&mut s.dst_mut(so), &a, &b, op, fp32);
        });
    }

    /// `add_binary_tile_init()`.
    pub fn add_binary_tile_init(&mut self) {
        self.sfpu_init("add_binary_tile");
    }
    /// `add_binary_tile(i0, i1, out)`: `DST[out] = DST[i0] + DST[i1]`.
    pub fn add_binary_tile(&mut self, i0: u32, i1: u32, out: u32) {
        self.sfpu_binary(SfpuBinary::Add, i0, i1, out);
    }
    /// `sub_binary_tile_init()`.
    pub fn sub_binary_tile_init(&mut self) {
        self.sfpu_init("sub_binary_tile");
    }
    /// `sub_binary_tile(i0, i1, out)`.
    pub fn sub_binary_tile(&mut self, i0: u32, i1: u32, out: u32) {
        self.sfpu_binary(SfpuBinary::Sub, i0, i1, out);
    }
    /// `mul_binary_tile_init()`.
    pub fn mul_binary_tile_init(&mut self) {
        self.sfpu_init("mul_binary_tile");
    }
    /// `mul_binary_tile(i0, i1, out)`.
    pub fn mul_binary_tile(&mut self, i0: u32, i1: u32, out: u32) {
        self.sfpu_binary(SfpuBinary::Mul, i0, i1, out);
    }
    /// `div_binary_tile_init()`.
    pub fn div_binary_tile_init(&mut self) {
        self.sfpu_init("div_binary_tile");
    }
    /// `div_binary_tile(i0, i1, out)`.
    pub fn div_binary_tile(&mut self, i0: u32, i1: u32, out: u32) {
        self.sfpu_binary(SfpuBinary::Div, i0, i1, out);
    }
}
