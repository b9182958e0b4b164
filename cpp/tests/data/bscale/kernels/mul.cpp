// bscale compute: each tile times the broadcast tile.
#include <cstdint>
#include "api/compute/compute_kernel_api.h"
#include "api/compute/eltwise_binary.h"
#include "api/compute/tile_move_copy.h"
void kernel_main() {
    constexpr uint32_t n = get_compile_time_arg_val(0);
    constexpr auto in = tt::CBIndex::c_0, bc = tt::CBIndex::c_1, out = tt::CBIndex::c_16;
    binary_op_init_common(in, bc, out);
    mul_tiles_init(in, bc);
    cb_wait_front(bc, 1);
    for (uint32_t i = 0; i < n; i++) {
        cb_wait_front(in, 1);
        tile_regs_acquire();
        mul_tiles(in, bc, 0, 0, 0);
        tile_regs_commit();
        cb_pop_front(in, 1);
        cb_reserve_back(out, 1);
        tile_regs_wait();
        pack_tile(0, out);
        tile_regs_release();
        cb_push_back(out, 1);
    }
    cb_pop_front(bc, 1);
}
