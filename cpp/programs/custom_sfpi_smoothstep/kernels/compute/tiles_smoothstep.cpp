// Compute kernel of tensim's custom_sfpi_smoothstep program: c_0 copied to DST 0, smoothstep(edge0, edge1, x)
// computed in place by an SFPI face function with v_if clamping, packed to c_16.
// Runtime args: the number of tiles, edge0 and edge1 as float bit patterns.
#include <cstdint>
#include <cstring>
#include "compute_kernel_api/common.h"
#include "compute_kernel_api/tile_move_copy.h"
#include "compute_kernel_api/eltwise_unary/eltwise_unary.h"

#ifdef TRISC_MATH
#include "ckernel_sfpu.h"
using namespace sfpi;

// One face: t = clamp((x - edge0) / (edge1 - edge0), 0, 1), then t * t * (3 - 2t).
void smoothstep_face(float edge0, float inv_width) {
    for (int i = 0; i < 8; i++) {
        vFloat x = dst_reg[0];
        vFloat t = (x - edge0) * inv_width;
        v_if(t < 0.0f) { t = vConst0; }
        v_elseif(t > 1.0f) { t = vConst1; }
        v_endif;
        dst_reg[0] = t * t * (3.0f - 2.0f * t);
        dst_reg++;
    }
}
#endif

static float from_bits(uint32_t b) {
    float f;
    std::memcpy(&f, &b, sizeof f);
    return f;
}

namespace NAMESPACE {
void MAIN {
    uint32_t n_tiles = get_arg_val<uint32_t>(0);
    float edge0 = from_bits(get_arg_val<uint32_t>(1));
    float edge1 = from_bits(get_arg_val<uint32_t>(2));
    float inv_width = 1.0f / (edge1 - edge0);
    constexpr auto cb_in = tt::CBIndex::c_0;
    constexpr auto cb_out = tt::CBIndex::c_16;
    init_sfpu(cb_in, cb_out);
    for (uint32_t i = 0; i < n_tiles; i++) {
        cb_wait_front(cb_in, 1);
        tile_regs_acquire();
        copy_tile(cb_in, 0, 0);
        MATH(_llk_math_eltwise_unary_sfpu_params_<false>(smoothstep_face, 0, VectorMode::RC, edge0, inv_width));
        tile_regs_commit();
        tile_regs_wait();
        cb_reserve_back(cb_out, 1);
        pack_tile(0, cb_out);
        cb_push_back(cb_out, 1);
        cb_pop_front(cb_in, 1);
        tile_regs_release();
    }
}
}  // namespace NAMESPACE
