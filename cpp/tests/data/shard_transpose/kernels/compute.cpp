// shard_transpose compute: every tile of the shard transposed (transpose_wh), then untilized (pack_untilize_block).
#include <cstdint>
#include "api/compute/common.h"
#include "api/compute/compute_kernel_hw_startup.h"
#include "api/compute/transpose_wh.h"
#include "api/compute/pack_untilize.h"
#include "api/compute/tile_move_copy.h"
#include "api/compute/pack.h"
#include "api/compute/cb_api.h"
#include "api/compute/reg_api.h"

void kernel_main() {
    constexpr uint32_t tiles = get_compile_time_arg_val(0);
    constexpr auto cb_in = tt::CBIndex::c_0, cb_t = tt::CBIndex::c_1, cb_rm = tt::CBIndex::c_16;
    compute_kernel_hw_startup(cb_in, cb_t);
    transpose_wh_init(cb_in, cb_t);
    for (uint32_t t = 0; t < tiles; t++) {
        cb_wait_front(cb_in, 1);
        tile_regs_acquire();
        transpose_wh_tile(cb_in, 0, 0);
        tile_regs_commit();
        cb_pop_front(cb_in, 1);
        cb_reserve_back(cb_t, 1);
        tile_regs_wait();
        pack_tile(0, cb_t);
        tile_regs_release();
        cb_push_back(cb_t, 1);
    }
    pack_untilize_init<1, 1>(cb_t, cb_rm);
    for (uint32_t t = 0; t < tiles; t++) {
        cb_wait_front(cb_t, 1);
        cb_reserve_back(cb_rm, 1);
        pack_untilize_block<1, 1>(cb_t, 1, cb_rm);
        cb_push_back(cb_rm, 1);
        cb_pop_front(cb_t, 1);
    }
    pack_untilize_uninit(cb_rm);
}
