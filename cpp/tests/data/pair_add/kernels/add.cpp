// pair_add compute: one add per tile.
#include <cstdint>
#include "api/compute/common.h"
#include "api/compute/compute_kernel_hw_startup.h"
#include "api/compute/eltwise_binary.h"
#include "api/compute/tile_move_copy.h"
#include "api/compute/pack.h"
#include "api/compute/cb_api.h"
#include "api/compute/reg_api.h"

void kernel_main() {
    const uint32_t n = get_arg_val<uint32_t>(0);
    constexpr auto ca = tt::CBIndex::c_0, cb = tt::CBIndex::c_1, co = tt::CBIndex::c_16;
    compute_kernel_hw_startup(ca, cb, co);
    add_tiles_init(ca, cb);
    for (uint32_t t = 0; t < n; t++) {
        cb_wait_front(ca, 1);
        cb_wait_front(cb, 1);
        tile_regs_acquire();
        add_tiles(ca, cb, 0, 0, 0);
        tile_regs_commit();
        cb_pop_front(ca, 1);
        cb_pop_front(cb, 1);
        cb_reserve_back(co, 1);
        tile_regs_wait();
        pack_tile(0, co);
        tile_regs_release();
        cb_push_back(co, 1);
    }
}
