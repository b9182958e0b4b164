// Compute kernel of tensim's add_2_integers_in_compute program: one tile of c_0 plus one tile of c_1 on the
// FPU, packed to c_16 (the older acquire_dst / release_dst pair).
#include <cstdint>
#include "compute_kernel_api/eltwise_binary.h"
#include "compute_kernel_api/tile_move_copy.h"

namespace NAMESPACE {
void MAIN {
    constexpr auto cb_in0 = tt::CBIndex::c_0;
    constexpr auto cb_in1 = tt::CBIndex::c_1;
    constexpr auto cb_out0 = tt::CBIndex::c_16;
    binary_op_init_common(cb_in0, cb_in1, cb_out0);
    add_tiles_init(cb_in0, cb_in1);
    cb_wait_front(cb_in0, 1);
    cb_wait_front(cb_in1, 1);
    acquire_dst();
    add_tiles(cb_in0, cb_in1, 0, 0, 0);
    cb_pop_front(cb_in0, 1);
    cb_pop_front(cb_in1, 1);
    cb_reserve_back(cb_out0, 1);
    pack_tile(0, cb_out0);
    cb_push_back(cb_out0, 1);
    release_dst();
}
}  // namespace NAMESPACE
