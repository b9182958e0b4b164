// Compute kernel of seed 002's custom SFPU add: per tile, llk_unpack_AB puts a c_0 tile in SrcA and a c_1
// tile in SrcB; MATH copies them to DST 0 and 1 (A2D, B2D) and runs sfpu_custom_func, which adds DST 1 into
// DST 0 one vector at a time; PACK writes DST 0 to c_16. Runtime arg 0: the number of tiles.
#include <cstdint>
#include "compute_kernel_api/common.h"
#include "compute_kernel_api/eltwise_binary.h"
#include "compute_kernel_api/tile_move_copy.h"
#include "ckernel_sfpu.h"

// A face is ITERATIONS vectors and DST tile 1 starts TILE_VECTORS vectors after tile 0: 4 and 16 on
// Grayskull's 64-lane SFPU (the seed's values), 8 and 32 on the 32-lane SFPU of Wormhole and Blackhole.
#ifdef ARCH_GRAYSKULL
constexpr int TILE_VECTORS = 16;
constexpr int FACE_ITERATIONS = 4;
#else
constexpr int TILE_VECTORS = 32;
constexpr int FACE_ITERATIONS = 8;
#endif

template <bool APPROXIMATION_MODE, int ITERATIONS = FACE_ITERATIONS>
inline void sfpu_custom_func() {
    for (int d = 0; d < ITERATIONS; d++) {
        vFloat a = dst_reg[0];             // SrcA
        vFloat b = dst_reg[TILE_VECTORS];  // SrcB
        dst_reg[0] = a + b;
        dst_reg++;
    }
}

namespace NAMESPACE {
void MAIN {
    uint32_t n_tiles = get_arg_val<uint32_t>(0);
    constexpr uint32_t dst_reg0 = 0;
    constexpr uint32_t dst_reg1 = 1;
    constexpr uint32_t output_dst_index = 0;

    binary_op_init_common(tt::CB::c_in0, tt::CB::c_in1, tt::CB::c_out0);

    for (uint32_t i = 0; i < n_tiles; i++) {
        acquire_dst(tt::DstMode::Full);
        cb_wait_front(tt::CB::c_in0, 1);
        cb_wait_front(tt::CB::c_in1, 1);

        UNPACK((llk_unpack_AB_init<BroadcastType::NONE>(tt::CB::c_in0, tt::CB::c_in1)));
        UNPACK((llk_unpack_AB(tt::CB::c_in0, tt::CB::c_in1, 0, 0)));

        MATH((llk_math_eltwise_unary_datacopy_init<A2D, BroadcastType::NONE, DST_ACCUM_MODE>(false, false, tt::CB::c_in0)));
        MATH((llk_math_eltwise_unary_datacopy<A2D, BroadcastType::NONE, DST_ACCUM_MODE, UnpackToDestEn>(dst_reg0)));
        MATH((llk_math_eltwise_unary_datacopy_init<B2D, BroadcastType::NONE, DST_ACCUM_MODE>(false, false, tt::CB::c_in1)));
        MATH((llk_math_eltwise_unary_datacopy<B2D, BroadcastType::NONE, DST_ACCUM_MODE, UnpackToDestEn>(dst_reg1)));

        MATH(llk_math_eltwise_unary_sfpu_0_param<APPROX>(sfpu_custom_func<APPROX>, sfpu_custom_func<APPROX>,
                                                         output_dst_index, VectorMode::RC);)

        cb_reserve_back(tt::CB::c_out0, 1);
        pack_tile(output_dst_index, tt::CB::c_out0);
        cb_push_back(tt::CB::c_out0, 1);
        cb_pop_front(tt::CB::c_in0, 1);
        cb_pop_front(tt::CB::c_in1, 1);
        release_dst(tt::DstMode::Half);
    }
}
}  // namespace NAMESPACE
