// Compute kernel of tensim's custom_sfpi_smoothstep program, in today's compute API: c_0 copied to DST 0,
// smoothstep(edge0, edge1, x) computed in place by the shipped custom SFPU face function
// (experimental/llk_sfpu/ckernel_sfpu_smoothstep.h) through SFPU_UNARY_CALL_NO_TEMPLATE_ARGS, packed to c_16.
// Runtime args: the number of tiles, edge0 and edge1 as float bits.
#include <cstdint>
#include <cstring>

#include "api/compute/common.h"
#include "api/compute/compute_kernel_api.h"
#include "api/compute/eltwise_unary/eltwise_unary.h"
#include "api/compute/tile_move_copy.h"

#ifdef TRISC_MATH
#include "experimental/llk_sfpu/ckernel_sfpu_smoothstep.h"
#endif

inline void my_smoothstep_tiles(uint32_t idst, float edge0, float edge1, float inv_delta) {
    MATH(SFPU_UNARY_CALL_NO_TEMPLATE_ARGS(DST_SYNC_MODE, DST_ACCUM_MODE, smoothstep_tile_face, idst, VectorMode::RC,
                                          edge0, edge1, inv_delta));
}

static float from_bits(uint32_t b) {
    float f;
    std::memcpy(&f, &b, sizeof f);
    return f;
}

void kernel_main() {
    uint32_t n_tiles = get_arg_val<uint32_t>(0);
    float edge0 = from_bits(get_arg_val<uint32_t>(1));
    float edge1 = from_bits(get_arg_val<uint32_t>(2));
    float inv_delta = 1.0f / (edge1 - edge0);
    constexpr auto cb_in = tt::CBIndex::c_0;
    constexpr auto cb_out = tt::CBIndex::c_16;
    init_sfpu(cb_in, cb_out);
    for (uint32_t i = 0; i < n_tiles; i++) {
        cb_wait_front(cb_in, 1);
        tile_regs_acquire();
        copy_tile(cb_in, 0, 0);
        my_smoothstep_tiles(0, edge0, edge1, inv_delta);
        tile_regs_commit();
        tile_regs_wait();
        cb_reserve_back(cb_out, 1);
        pack_tile(0, cb_out);
        cb_push_back(cb_out, 1);
        cb_pop_front(cb_in, 1);
        tile_regs_release();
    }
}
