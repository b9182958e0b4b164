// Compute kernel of tensim's softmax program: for each tile-row, exp every tile into c_24; sum the row
// with reduce_tile (REDUCE_ROW) and take the reciprocal into c_25; multiply every exp tile by it with a
// column broadcast into c_16. Runtime args: rows, Wt.
#include <cstdint>

#define REDUCE_OP PoolType::SUM
#define REDUCE_DIM ReduceDim::REDUCE_ROW

#include "compute_kernel_api/bcast.h"
#include "compute_kernel_api/eltwise_binary.h"
#include "compute_kernel_api/eltwise_unary/exp.h"
#include "compute_kernel_api/eltwise_unary/recip.h"
#include "compute_kernel_api/reduce.h"
#include "compute_kernel_api/tile_move_copy.h"

namespace NAMESPACE {
void MAIN {
    uint32_t rows = get_arg_val<uint32_t>(0);
    uint32_t wt = get_arg_val<uint32_t>(1);
    constexpr auto cb_in = tt::CBIndex::c_0;
    constexpr auto cb_scaler = tt::CBIndex::c_2;
    constexpr auto cb_out = tt::CBIndex::c_16;
    constexpr auto cb_exps = tt::CBIndex::c_24;
    constexpr auto cb_recipsumexps = tt::CBIndex::c_25;

    binary_op_init_common(cb_in, cb_scaler, cb_out);
    cb_wait_front(cb_scaler, 1);
    for (uint32_t r = 0; r < rows; r++) {
        copy_tile_init(cb_in);
        exp_tile_init();
        for (uint32_t w = 0; w < wt; w++) {
            acquire_dst();
            cb_wait_front(cb_in, 1);
            copy_tile(cb_in, 0, 0);
            cb_pop_front(cb_in, 1);
            cb_reserve_back(cb_exps, 1);
            exp_tile(0);
            pack_tile(0, cb_exps);
            cb_push_back(cb_exps, 1);
            release_dst();
        }

        reduce_init(cb_exps, cb_scaler, cb_recipsumexps);
        recip_tile_init();
        acquire_dst();
        cb_reserve_back(cb_recipsumexps, 1);
        for (uint32_t w = 0; w < wt; w++) {
            cb_wait_front(cb_exps, w + 1);
            reduce_tile(cb_exps, cb_scaler, w, 0, 0);
        }
        recip_tile(0);
        pack_tile(0, cb_recipsumexps);
        cb_push_back(cb_recipsumexps, 1);
        release_dst();
        reduce_uninit();

        mul_bcast_cols_init_short(cb_exps, cb_recipsumexps);
        cb_wait_front(cb_recipsumexps, 1);
        for (uint32_t w = 0; w < wt; w++) {
            acquire_dst();
            cb_reserve_back(cb_out, 1);
            mul_tiles_bcast_cols(cb_exps, cb_recipsumexps, w, 0, 0);
            pack_tile(0, cb_out);
            cb_push_back(cb_out, 1);
            release_dst();
        }
        cb_pop_front(cb_recipsumexps, 1);
        cb_pop_front(cb_exps, wt);
    }
}
}  // namespace NAMESPACE
