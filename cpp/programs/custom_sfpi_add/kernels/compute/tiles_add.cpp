// Compute kernel of tensim's custom_sfpi_add program: c_0 and c_1 copied to DST 0 and 1, added by an SFPI
// face function under the binary SFPU wrapper, DST 0 packed to c_16. Runtime arg 0: the number of tiles.
#include <cstdint>
#include "compute_kernel_api/common.h"
#include "compute_kernel_api/tile_move_copy.h"
#include "compute_kernel_api/eltwise_binary.h"
#include "compute_kernel_api.h"

#ifdef TRISC_MATH
#include "ckernel_sfpu.h"
using namespace sfpi;

// One face: 8 vectors of 32 lanes, each tile's vectors 32 apart in dst_reg.
void my_add_tile_face(const uint32_t dst_index_in0, const uint32_t dst_index_in1, const uint32_t dst_index_out) {
    constexpr uint32_t n_vector_in_tile = 32;
    const uint32_t in0_base = dst_index_in0 * n_vector_in_tile;
    const uint32_t in1_base = dst_index_in1 * n_vector_in_tile;
    const uint32_t out_base = dst_index_out * n_vector_in_tile;
    for (uint32_t i = 0; i < 8; i++) {
        vFloat a = dst_reg[in0_base + i];
        vFloat b = dst_reg[in1_base + i];
        dst_reg[out_base + i] = a + b;
    }
}
#endif

void my_add_tiles(uint32_t idx_dst0, uint32_t idx_dst1, uint32_t idx_out0) {
    MATH(_llk_math_eltwise_binary_sfpu_params_<false>(my_add_tile_face, idx_dst0, idx_dst1, idx_out0));
}

namespace NAMESPACE {
void MAIN {
    uint32_t n_tiles = get_arg_val<uint32_t>(0);
    constexpr auto cb_in0 = tt::CBIndex::c_0;
    constexpr auto cb_in1 = tt::CBIndex::c_1;
    constexpr auto cb_out0 = tt::CBIndex::c_16;
    init_sfpu(cb_in0, cb_out0);
    for (uint32_t i = 0; i < n_tiles; i++) {
        cb_wait_front(cb_in0, 1);
        cb_wait_front(cb_in1, 1);
        tile_regs_acquire();
        copy_tile_init(cb_in0);
        copy_tile(cb_in0, 0, 0);
        copy_tile_init(cb_in1);
        copy_tile(cb_in1, 0, 1);
        my_add_tiles(0, 1, 0);
        tile_regs_commit();
        tile_regs_wait();
        cb_reserve_back(cb_out0, 1);
        pack_tile(0, cb_out0);
        cb_push_back(cb_out0, 1);
        cb_pop_front(cb_in0, 1);
        cb_pop_front(cb_in1, 1);
        tile_regs_release();
    }
}
}  // namespace NAMESPACE
