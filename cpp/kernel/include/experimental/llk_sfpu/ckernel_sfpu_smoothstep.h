// Smoothstep as a custom SFPU face function (the programming examples'
// experimental/llk_sfpu/ckernel_sfpu_smoothstep.h), written for tensim from its documented behaviour: for
// each of a face's 8 vectors, t = (x - edge0) * inv_delta clamped to [0, 1], then t * t * (3 - 2t).
#pragma once
#include "tensim/compute.h"

namespace ckernel::sfpu {
inline void smoothstep_tile_face(float edge0, float edge1, float inv_delta) {
    (void)edge1;
    for (uint32_t i = 0; i < 8; i++) {
        sfpi::vFloat x = sfpi::dst_reg[i];
        sfpi::vFloat t = (x - edge0) * inv_delta;
        v_if(t < 0.0f) { t = sfpi::vConst0; }
        v_elseif(t > 1.0f) { t = sfpi::vConst1; }
        v_endif;
        sfpi::dst_reg[i] = t * t * (3.0f - 2.0f * t);
    }
}
}  // namespace ckernel::sfpu
