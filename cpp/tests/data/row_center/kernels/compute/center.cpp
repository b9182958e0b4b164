// row_center compute: per tile row, the row sums times 1/N (reduce_tile, REDUCE_ROW), then x minus them (column broadcast).
#include <cstdint>
#include "api/compute/compute_kernel_api.h"
#include "api/compute/compute_kernel_hw_startup.h"
#include "api/compute/reduce.h"
#include "api/compute/bcast.h"
#include "api/compute/tile_move_copy.h"
#include "api/compute/pack.h"
#include "api/compute/reg_api.h"
#include "api/compute/cb_api.h"

void kernel_main() {
    const uint32_t num_rows = get_arg_val<uint32_t>(0);
    constexpr uint32_t Wt = get_compile_time_arg_val(0);
    constexpr auto cb_x = tt::CBIndex::c_0, cb_s = tt::CBIndex::c_2, cb_mean = tt::CBIndex::c_3, cb_out = tt::CBIndex::c_16;

    compute_kernel_hw_startup(cb_x, cb_s, cb_out);
    cb_wait_front(cb_s, 1);
    for (uint32_t r = 0; r < num_rows; r++) {
        cb_wait_front(cb_x, Wt);
        // mean of the row of tiles: one reduce per tile into DST 0
        reduce_init(cb_x, cb_s, cb_mean);
        tile_regs_acquire();
        for (uint32_t t = 0; t < Wt; t++) reduce_tile(cb_x, cb_s, t, 0, 0);
        tile_regs_commit();
        tile_regs_wait();
        cb_reserve_back(cb_mean, 1);
        pack_tile(0, cb_mean);
        cb_push_back(cb_mean, 1);
        tile_regs_release();
        reduce_uninit();

        cb_wait_front(cb_mean, 1);
        sub_bcast_cols_init_short(cb_x, cb_mean);
        for (uint32_t t = 0; t < Wt; t++) {
            tile_regs_acquire();
            sub_tiles_bcast_cols(cb_x, cb_mean, t, 0, 0);
            tile_regs_commit();
            tile_regs_wait();
            cb_reserve_back(cb_out, 1);
            pack_tile(0, cb_out);
            cb_push_back(cb_out, 1);
            tile_regs_release();
        }
        cb_pop_front(cb_mean, 1);
        cb_pop_front(cb_x, Wt);
    }
}
