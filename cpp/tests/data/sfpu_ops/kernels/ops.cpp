// sfpu_ops compute: x (tile 0 of c_0) and y (tile 1) through each SFPU operation in turn, one output tile each.
#include <cstdint>
#include "api/compute/common.h"
#include "api/compute/compute_kernel_hw_startup.h"
#include "api/compute/tile_move_copy.h"
#include "api/compute/eltwise_unary/eltwise_unary.h"
#include "api/compute/eltwise_unary/exp.h"
#include "api/compute/eltwise_unary/relu.h"
#include "api/compute/eltwise_unary/binop_with_scalar.h"
#include "api/compute/eltwise_binary_sfpu.h"
#include "api/compute/binary_max_min.h"
#include "api/compute/compute_kernel_api.h"
#include "api/compute/bcast.h"
#include "api/compute/pack.h"
#include "api/compute/cb_api.h"
#include "api/compute/reg_api.h"

namespace {
constexpr auto cb_in = tt::CBIndex::c_0, cb_out = tt::CBIndex::c_16;

// An operation writing DST 0, packed out.
template <typename F>
void fpu(F op) {
    tile_regs_acquire();
    op();
    tile_regs_commit();
    cb_reserve_back(cb_out, 1);
    tile_regs_wait();
    pack_tile(0, cb_out);
    tile_regs_release();
    cb_push_back(cb_out, 1);
}

// DST 0 = x (and DST 1 = y with `two`), then `op` on it, packed out.
template <typename F>
void one(bool two, F op) {
    fpu([&] {
        copy_tile_to_dst_init_short(cb_in);
        copy_tile(cb_in, 0, 0);
        if (two) copy_tile(cb_in, 1, 1);
        op();
    });
}
}  // namespace

void kernel_main() {
    uint32_t a = 0;
    const uint32_t relu_lo = get_arg_val<uint32_t>(a++), relu_hi = get_arg_val<uint32_t>(a++), slope = get_arg_val<uint32_t>(a++);
    const uint32_t at0 = get_arg_val<uint32_t>(a++), mx = get_arg_val<uint32_t>(a++), mn = get_arg_val<uint32_t>(a++);
    const uint32_t s = get_arg_val<uint32_t>(a++);
    init_sfpu(cb_in, cb_out);
    cb_wait_front(cb_in, 2);
    one(false, [] { silu_tile_init(); silu_tile(0); });
    one(false, [&] { relu_min_tile_init(); relu_min_tile(0, relu_lo); });
    one(false, [&] { relu_max_tile_init(); relu_max_tile(0, relu_hi); });
    one(false, [&] { leaky_relu_tile_init(); leaky_relu_tile(0, slope); });
    one(false, [] { sign_tile_init(); sign_tile(0); });
    one(false, [] { signbit_tile_init(); signbit_tile(0); });
    one(false, [] { exp2_tile_init(); exp2_tile(0); });
    one(false, [] { expm1_tile_init(); expm1_tile<false>(0); });
    one(false, [&] { heaviside_tile_init(); heaviside_tile(0, at0); });
    one(false, [&] { unary_max_tile_init(); unary_max_tile(0, mx); });
    one(false, [&] { unary_min_tile_init(); unary_min_tile(0, mn); });
    one(false, [&] { binop_with_scalar_tile_init(); add_unary_tile(0, s); });
    one(false, [&] { binop_with_scalar_tile_init(); sub_unary_tile(0, s); });
    one(false, [&] { binop_with_scalar_tile_init(); mul_unary_tile(0, s); });
    one(false, [&] { binop_with_scalar_tile_init(); div_unary_tile(0, s); });
    one(false, [&] { binop_with_scalar_tile_init(); rsub_unary_tile(0, s); });
    one(false, [] { exp_tile_init<false>(); exp_tile<false, true>(0, VectorMode::RC, 0x3F00); });
    one(false, [] { sigmoid_tile_init<false>(); sigmoid_tile<VectorMode::RC, false>(0); });
    one(true, [] { rsub_binary_tile_init(); rsub_binary_tile(0, 1, 0); });
    one(true, [] { abs_tile_init(); abs_tile(0); power_binary_tile_init(); power_binary_tile(0, 1, 0); });
    one(true, [] { binary_max_tile_init(); binary_max_tile(0, 1, 0); });
    one(true, [] { binary_min_tile_init(); binary_min_tile(0, 1, 0); });
    one(true, [] { eq_binary_tile_init(); eq_binary_tile(0, 1, 0); });
    one(true, [] { ne_binary_tile_init(); ne_binary_tile(0, 1, 0); });
    one(true, [] { lt_binary_tile_init(); lt_binary_tile(0, 1, 0); });
    one(true, [] { gt_binary_tile_init(); gt_binary_tile(0, 1, 0); });
    one(true, [] { le_binary_tile_init(); le_binary_tile(0, 1, 0); });
    one(true, [] { ge_binary_tile_init(); ge_binary_tile(0, 1, 0); });
    one(true, [] { div_no_nan_binary_tile_init(); div_no_nan_binary_tile(0, 1, 0); });
    // FPU broadcasts of one row of y (tile 1), straight from the CB into DST 0.
    fpu([] { add_bcast_rows_init(cb_in, cb_in); add_tiles_bcast_rows(cb_in, cb_in, 0, 1, 0, 5); });
    fpu([] { bcast_init<ELWMUL, BroadcastType::ROW>(cb_in, cb_in); any_tiles_bcast<ELWMUL, BroadcastType::ROW>(cb_in, cb_in, 0, 1, 0, 31); });
    fpu([] {
        copy_tile_to_dst_init_short(cb_in);
        reconfig_data_format_srcb<false>(cb_in, cb_in);
        copy_block_matmul_partials(cb_in, 0, 0, 2);
        add_binary_tile_init();
        add_binary_tile(0, 1, 0);
    });
    // x into DST, then packed row-major straight from DST.
    tile_regs_acquire();
    copy_tile_to_dst_init_short(cb_in);
    copy_tile(cb_in, 0, 0);
    tile_regs_commit();
    cb_reserve_back(cb_out, 1);
    pack_untilize_dest_init<1>(cb_out);
    tile_regs_wait();
    pack_untilize_dest<1>(cb_out);
    tile_regs_release();
    pack_untilize_uninit(cb_out);
    cb_push_back(cb_out, 1);
    cb_pop_front(cb_in, 2);
}
