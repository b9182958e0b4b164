// Compute kernel of tensim's API-generations test: fill a DST tile with 2.5 (fill.h), negate it
// (negative.h), take softplus with beta 1 and threshold 20 (softplus.h), and pack it to c_16.
#include "api/compute/compute_kernel_api.h"
#include "api/compute/eltwise_unary/eltwise_unary.h"
#include "api/compute/eltwise_unary/fill.h"
#include "api/compute/eltwise_unary/negative.h"
#include "api/compute/eltwise_unary/softplus.h"
#include "api/compute/sentinel/compute_kernel_sentinel.h"

void kernel_main() {
    constexpr uint32_t cb_out = tt::CBIndex::c_16;
    init_sfpu(tt::CBIndex::c_0, cb_out);
    cb_reserve_back(cb_out, 1);
    tile_regs_acquire();
    fill_tile_init();
    fill_tile(0, 2.5f);
    negative_tile_init();
    negative_tile(0);
    softplus_tile_init();
    softplus_tile(0, __builtin_bit_cast(uint32_t, 1.0f), __builtin_bit_cast(uint32_t, 1.0f),
                  __builtin_bit_cast(uint32_t, 20.0f));
    tile_regs_commit();
    tile_regs_wait();
    pack_tile(0, cb_out);
    tile_regs_release();
    cb_push_back(cb_out, 1);
}
