// Compute kernel of tensim's sfpu_eltwise_chain program, in today's compute API: softplus(x) = log(1 + exp(x)) as a chain of SFPU
// operations in DST: DST0 = exp(x), DST1 = ones, DST0 += DST1, DST0 = log(DST0). Runtime arg 0: tiles.
#include <cstdint>

#include "api/compute/common.h"
#include "api/compute/compute_kernel_api.h"
#include "api/compute/eltwise_binary_sfpu.h"
#include "api/compute/eltwise_unary/eltwise_unary.h"
#include "api/compute/eltwise_unary/exp.h"
#include "api/compute/tile_move_copy.h"

void kernel_main() {
    uint32_t n_tiles = get_arg_val<uint32_t>(0);
    constexpr auto cb_in = tt::CBIndex::c_0;
    constexpr auto cb_ones = tt::CBIndex::c_1;
    constexpr auto cb_out = tt::CBIndex::c_16;
    init_sfpu(cb_in, cb_out);
    cb_wait_front(cb_ones, 1);
    for (uint32_t i = 0; i < n_tiles; i++) {
        cb_wait_front(cb_in, 1);
        tile_regs_acquire();
        copy_init(cb_in);
        copy_tile(cb_in, 0, 0);
        exp_tile_init();
        exp_tile(0);
        copy_init(cb_ones);
        copy_tile(cb_ones, 0, 1);
        add_binary_tile_init();
        add_binary_tile(0, 1, 0);
        log_tile_init();
        log_tile(0);
        tile_regs_commit();
        cb_pop_front(cb_in, 1);
        cb_reserve_back(cb_out, 1);
        tile_regs_wait();
        pack_tile(0, cb_out);
        tile_regs_release();
        cb_push_back(cb_out, 1);
    }
    cb_pop_front(cb_ones, 1);
}
