// Compute kernel of tensim's vecadd_sharding program, in today's compute API: n tiles of c = a + b, all three CBs aliasing this
// core's shards. Runtime arg 0: n.
#include <cstdint>

#include "api/compute/common.h"
#include "api/compute/compute_kernel_hw_startup.h"
#include "api/compute/eltwise_binary.h"

void kernel_main() {
    uint32_t n = get_arg_val<uint32_t>(0);
    constexpr auto cb_a = tt::CBIndex::c_0;
    constexpr auto cb_b = tt::CBIndex::c_1;
    constexpr auto cb_c = tt::CBIndex::c_2;
    compute_kernel_hw_startup(cb_a, cb_b, cb_c);
    add_init(cb_a, cb_b);
    cb_reserve_back(cb_c, n);
    for (uint32_t i = 0; i < n; i++) {
        cb_wait_front(cb_a, 1);
        cb_wait_front(cb_b, 1);
        tile_regs_acquire();
        add_tiles(cb_a, cb_b, 0, 0, 0);
        tile_regs_commit();
        tile_regs_wait();
        pack_tile(0, cb_c);
        tile_regs_release();
        cb_pop_front(cb_a, 1);
        cb_pop_front(cb_b, 1);
    }
    cb_push_back(cb_c, n);
}
