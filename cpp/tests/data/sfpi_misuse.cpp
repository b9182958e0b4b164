// A compute kernel that misuses SFPI: with -DOUTSIDE it writes dst_reg outside any SFPU wrapper; otherwise
// its face function reads a vector far past the DST section.
#include <cstdint>
#include "compute_kernel_api/common.h"
#include "ckernel_sfpu.h"

void far_read() {
    vFloat x = dst_reg[1000];
    dst_reg[0] = x;
}

namespace NAMESPACE {
void MAIN {
    tile_regs_acquire();
#ifdef OUTSIDE
    MATH(dst_reg[0] = 1.0f);
#else
    MATH(_llk_math_eltwise_unary_sfpu_params_<false>(far_read, 0, VectorMode::RC));
#endif
    tile_regs_commit();
    tile_regs_wait();
    tile_regs_release();
}
}  // namespace NAMESPACE
