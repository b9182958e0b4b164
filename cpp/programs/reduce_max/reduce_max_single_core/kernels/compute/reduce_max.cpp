// Compute kernel of tensim's reduce_max programs: the maximum of every row of `rows` tile-rows of Wt tiles
// (c_0), scaled by the scaler tile (c_2, 1.0), into column 0 of one output tile per tile-row (c_16). The
// PACK thread prints column 0 of the first output tile (every eighth row) with TSLICE.
// Runtime args: rows, Wt.
#include <cstdint>

#define REDUCE_OP PoolType::MAX
#define REDUCE_DIM ReduceDim::REDUCE_ROW

#include "compute_kernel_api/reduce.h"
#include "debug/dprint.h"

namespace NAMESPACE {
void MAIN {
    uint32_t rows = get_arg_val<uint32_t>(0);
    uint32_t wt = get_arg_val<uint32_t>(1);
    constexpr auto cb_in = tt::CBIndex::c_0;
    constexpr auto cb_scaler = tt::CBIndex::c_2;
    constexpr auto cb_out = tt::CBIndex::c_16;

    compute_kernel_hw_startup(cb_in, cb_scaler, cb_out);
    reduce_init(cb_in, cb_scaler, cb_out);
    cb_wait_front(cb_scaler, 1);
    for (uint32_t r = 0; r < rows; r++) {
        tile_regs_acquire();
        for (uint32_t w = 0; w < wt; w++) {
            cb_wait_front(cb_in, 1);
            reduce_tile(cb_in, cb_scaler, 0, 0, 0);
            cb_pop_front(cb_in, 1);
        }
        tile_regs_commit();
        tile_regs_wait();
        cb_reserve_back(cb_out, 1);
        pack_tile(0, cb_out);
        if (r == 0) {
            DPRINT_PACK(DPRINT << "max of rows 0, 8, 16, 24:" << ENDL()
                               << TSLICE(cb_out, 0, SliceRange{0, 32, 8, 0, 1, 1}) << ENDL());
        }
        cb_push_back(cb_out, 1);
        tile_regs_release();
    }
    reduce_uninit();
}
}  // namespace NAMESPACE
