// program_reuse compute: x + x or x * x (common runtime arg 0) for each tile of the shard.
#include <cstdint>
#include "api/compute/common.h"
#include "api/compute/compute_kernel_hw_startup.h"
#include "api/compute/eltwise_binary.h"
#include "api/compute/pack.h"
#include "api/compute/cb_api.h"
#include "api/compute/reg_api.h"

void kernel_main() {
    const uint32_t n = get_arg_val<uint32_t>(0);
    const bool square = get_common_arg_val<uint32_t>(0) != 0;
    constexpr auto in = tt::CBIndex::c_0, out = tt::CBIndex::c_16;
    compute_kernel_hw_startup(in, in, out);
    if (square) {
        mul_init(in, in);
    } else {
        add_init(in, in);
    }
    cb_wait_front(in, n);
    cb_reserve_back(out, n);
    for (uint32_t t = 0; t < n; t++) {
        tile_regs_acquire();
        if (square) {
            mul_tiles(in, in, t, t, 0);
        } else {
            add_tiles(in, in, t, t, 0);
        }
        tile_regs_commit();
        tile_regs_wait();
        pack_tile(0, out, t);
        tile_regs_release();
    }
    cb_push_back(out, n);
    cb_pop_front(in, n);
}
