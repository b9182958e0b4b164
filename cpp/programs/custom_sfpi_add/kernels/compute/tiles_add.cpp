// Compute kernel of tensim's custom_sfpi_add program, in today's compute API: c_0 and c_1 copied to DST 0
// and 1, added by the shipped custom SFPU face function (experimental/llk_sfpu/ckernel_sfpu_custom_add.h)
// through SFPU_BINARY_CALL_NO_TEMPLATE_ARGS, DST 0 packed to c_16. Runtime arg 0: the number of tiles.
#include <cstdint>

#include "api/compute/common.h"
#include "api/compute/compute_kernel_api.h"
#include "api/compute/eltwise_binary_sfpu.h"
#include "api/compute/eltwise_unary/eltwise_unary.h"
#include "api/compute/tile_move_copy.h"

#ifdef TRISC_MATH
#include "experimental/llk_sfpu/ckernel_sfpu_custom_add.h"
#endif

inline void my_add_tile(uint32_t idst0, uint32_t idst1, uint32_t odst) {
    MATH(SFPU_BINARY_CALL_NO_TEMPLATE_ARGS(DST_SYNC_MODE, DST_ACCUM_MODE, my_add_tile_face, idst0, idst1, odst,
                                           VectorMode::RC));
}

void kernel_main() {
    uint32_t n_tiles = get_arg_val<uint32_t>(0);
    constexpr auto cb_in0 = tt::CBIndex::c_0;
    constexpr auto cb_in1 = tt::CBIndex::c_1;
    constexpr auto cb_out0 = tt::CBIndex::c_16;
    init_sfpu(cb_in0, cb_out0);
    for (uint32_t i = 0; i < n_tiles; i++) {
        cb_wait_front(cb_in0, 1);
        cb_wait_front(cb_in1, 1);
        tile_regs_acquire();
        copy_init(cb_in0);
        copy_tile(cb_in0, 0, 0);
        copy_init(cb_in1);
        copy_tile(cb_in1, 0, 1);
        my_add_tile(0, 1, 0);
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
