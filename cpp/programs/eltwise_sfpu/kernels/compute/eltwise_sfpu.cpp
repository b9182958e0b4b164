// Compute kernel of tensim's eltwise_sfpu program, in today's compute API: exp of each c_0 tile on the SFPU,
// packed to c_16. Runtime arg 0: the number of tiles.
#include <cstdint>

#include "api/compute/common.h"
#include "api/compute/compute_kernel_hw_startup.h"
#include "api/compute/eltwise_unary/eltwise_unary.h"
#include "api/compute/eltwise_unary/exp.h"
#include "api/compute/tile_move_copy.h"

void kernel_main() {
    uint32_t n_tiles = get_arg_val<uint32_t>(0);
    constexpr auto cb_in0 = tt::CBIndex::c_0;
    constexpr auto cb_out0 = tt::CBIndex::c_16;
    compute_kernel_hw_startup(cb_in0, cb_out0);
    copy_init(cb_in0);
    exp_tile_init();
    for (uint32_t i = 0; i < n_tiles; i++) {
        tile_regs_acquire();
        cb_wait_front(cb_in0, 1);
        copy_tile(cb_in0, 0, 0);
        exp_tile(0);
        tile_regs_commit();
        tile_regs_wait();
        cb_reserve_back(cb_out0, 1);
        pack_tile(0, cb_out0);
        cb_push_back(cb_out0, 1);
        cb_pop_front(cb_in0, 1);
        tile_regs_release();
    }
}
