// Compute kernel of tensim's matmul_multi_core program, in today's compute API: for each of n output tiles, DST = the sum
// over Kt of A·B tile products, packed to c_16. Runtime args: n, Kt.
#include <cstdint>

#include "api/compute/common.h"
#include "api/compute/compute_kernel_hw_startup.h"
#include "api/compute/matmul.h"
#include "api/compute/tile_move_copy.h"

void kernel_main() {
    uint32_t n = get_arg_val<uint32_t>(0);
    uint32_t Kt = get_arg_val<uint32_t>(1);
    constexpr auto cb_a = tt::CBIndex::c_0;
    constexpr auto cb_b = tt::CBIndex::c_1;
    constexpr auto cb_out = tt::CBIndex::c_16;
    compute_kernel_hw_startup<SrcOrder::Reverse>(cb_a, cb_b, cb_out);
    matmul_init(cb_a, cb_b);
    for (uint32_t i = 0; i < n; i++) {
        tile_regs_acquire();
        for (uint32_t k = 0; k < Kt; k++) {
            cb_wait_front(cb_a, 1);
            cb_wait_front(cb_b, 1);
            matmul_tiles(cb_a, cb_b, 0, 0, 0);
            cb_pop_front(cb_a, 1);
            cb_pop_front(cb_b, 1);
        }
        tile_regs_commit();
        tile_regs_wait();
        cb_reserve_back(cb_out, 1);
        pack_tile(0, cb_out);
        cb_push_back(cb_out, 1);
        tile_regs_release();
    }
}
