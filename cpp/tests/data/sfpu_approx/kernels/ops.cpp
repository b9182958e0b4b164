// sfpu_approx compute (math_approx_mode = true): five operations on copies of the input tile, each with
// its own approximation flag.
#include <cstdint>
#include "api/compute/common.h"
#include "api/compute/compute_kernel_hw_startup.h"
#include "api/compute/tile_move_copy.h"
#include "api/compute/eltwise_unary/eltwise_unary.h"
#include "api/compute/eltwise_unary/exp.h"
#include "api/compute/compute_kernel_api.h"
#include "api/compute/pack.h"
#include "api/compute/cb_api.h"
#include "api/compute/reg_api.h"

template <typename F>
void one(F op) {
    tile_regs_acquire();
    copy_tile(tt::CBIndex::c_0, 0, 0);
    op();
    tile_regs_commit();
    cb_reserve_back(tt::CBIndex::c_16, 1);
    tile_regs_wait();
    pack_tile(0, tt::CBIndex::c_16);
    tile_regs_release();
    cb_push_back(tt::CBIndex::c_16, 1);
}

void kernel_main() {
    compute_kernel_hw_startup(tt::CBIndex::c_0, tt::CBIndex::c_16);
    copy_tile_to_dst_init_short(tt::CBIndex::c_0);
    cb_wait_front(tt::CBIndex::c_0, 1);
    exp_tile_init<false>();
    one([] { exp_tile<false>(0); });
    exp_tile_init();
    one([] { exp_tile(0); });
    sigmoid_tile_init();
    one([] { sigmoid_tile(0); });
    sigmoid_tile_init<true>();
    one([] { sigmoid_tile<VectorMode::RC, true>(0); });
    rsqrt_tile_init<false>();
    one([] { rsqrt_tile<false>(0); });
    cb_pop_front(tt::CBIndex::c_0, 1);
}
