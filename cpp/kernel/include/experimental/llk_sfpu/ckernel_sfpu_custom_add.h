// An element-wise add of two DST tiles as a custom SFPU face function (the programming examples'
// experimental/llk_sfpu/ckernel_sfpu_custom_add.h), written for tensim from its documented behaviour: for
// each of a face's 8 vectors, out = in0 + in1, the tiles 32 vectors apart.
#pragma once
#include "tensim/compute.h"

namespace ckernel::sfpu {
inline void my_add_tile_face(const uint32_t dst_index_in0, const uint32_t dst_index_in1, const uint32_t dst_index_out) {
    constexpr uint32_t vectors_per_tile = 32;
    for (uint32_t i = 0; i < 8; i++) {
        sfpi::vFloat a = sfpi::dst_reg[dst_index_in0 * vectors_per_tile + i];
        sfpi::vFloat b = sfpi::dst_reg[dst_index_in1 * vectors_per_tile + i];
        sfpi::dst_reg[dst_index_out * vectors_per_tile + i] = a + b;
    }
}
}  // namespace ckernel::sfpu
