// Compute kernel of tensim's vecadd_multi_core program, in today's compute API: cb_out0 = cb_in0 + cb_in1
// (CB indices from named compile-time args), tile by tile. Runtime arg 0: the number of tiles.
#include <cstdint>

#include "api/compute/common.h"
#include "api/compute/compute_kernel_hw_startup.h"
#include "api/compute/eltwise_binary.h"

void kernel_main() {
    uint32_t n = get_arg_val<uint32_t>(0);
    constexpr uint32_t cb_in0 = get_named_compile_time_arg_val("cb_in0");
    constexpr uint32_t cb_in1 = get_named_compile_time_arg_val("cb_in1");
    constexpr uint32_t cb_out = get_named_compile_time_arg_val("cb_out0");
    compute_kernel_hw_startup(cb_in0, cb_in1, cb_out);
    add_init(cb_in0, cb_in1);
    for (uint32_t i = 0; i < n; i++) {
        cb_wait_front(cb_in0, 1);
        cb_wait_front(cb_in1, 1);
        tile_regs_acquire();
        add_tiles(cb_in0, cb_in1, 0, 0, 0);
        tile_regs_commit();
        cb_pop_front(cb_in0, 1);
        cb_pop_front(cb_in1, 1);
        cb_reserve_back(cb_out, 1);
        tile_regs_wait();
        pack_tile(0, cb_out);
        tile_regs_release();
        cb_push_back(cb_out, 1);
    }
}
