// col_stats compute: tilize the band's tile rows, square them, and reduce both sets along columns (SUM with
// the 1/H scaler, fp32 accumulation in DST) into DST 0 and 1; pack mean and mean square out of order.
#include <cstdint>
#include "api/compute/common.h"
#include "api/compute/compute_kernel_hw_startup.h"
#include "api/compute/tilize.h"
#include "api/compute/eltwise_binary.h"
#include "api/compute/reduce.h"
#include "api/compute/pack.h"
#include "api/compute/cb_api.h"
#include "api/compute/reg_api.h"

void kernel_main() {
    constexpr uint32_t ht = get_compile_time_arg_val(0);
    constexpr auto cb_rm = tt::CBIndex::c_0, cb_x = tt::CBIndex::c_1, cb_s = tt::CBIndex::c_2;
    constexpr auto cb_sq = tt::CBIndex::c_3, cb_out = tt::CBIndex::c_16;
    compute_kernel_hw_startup(cb_rm, cb_x);

    tilize_init(cb_rm, 1, cb_x);
    for (uint32_t t = 0; t < ht; t++) {
        cb_wait_front(cb_rm, 1);
        cb_reserve_back(cb_x, 1);
        tilize_block(cb_rm, 1, cb_x);
        cb_push_back(cb_x, 1);
        cb_pop_front(cb_rm, 1);
    }
    tilize_uninit(cb_rm, cb_x);

    cb_wait_front(cb_x, ht);
    mul_tiles_init(cb_x, cb_x);
    for (uint32_t t = 0; t < ht; t++) {
        tile_regs_acquire();
        mul_tiles(cb_x, cb_x, t, t, 0);
        tile_regs_commit();
        cb_reserve_back(cb_sq, 1);
        tile_regs_wait();
        pack_tile(0, cb_sq);
        tile_regs_release();
        cb_push_back(cb_sq, 1);
    }

    cb_wait_front(cb_s, 1);
    cb_wait_front(cb_sq, ht);
    reduce_init<PoolType::SUM, ReduceDim::REDUCE_COL>(cb_x, cb_s, cb_out);
    tile_regs_acquire();
    for (uint32_t t = 0; t < ht; t++) {
        reduce_tile<PoolType::SUM, ReduceDim::REDUCE_COL>(cb_x, cb_s, t, 0, 0);
        reduce_tile<PoolType::SUM, ReduceDim::REDUCE_COL>(cb_sq, cb_s, t, 0, 1);
    }
    tile_regs_commit();
    reduce_uninit();
    cb_reserve_back(cb_out, 2);
    tile_regs_wait();
    pack_tile<true>(1, cb_out, 1);
    pack_tile<true>(0, cb_out, 0);
    tile_regs_release();
    cb_push_back(cb_out, 2);
    cb_pop_front(cb_x, ht);
    cb_pop_front(cb_sq, ht);
    cb_pop_front(cb_s, 1);
}
