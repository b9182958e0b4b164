// Reductions (tt-metal's compute_kernel_api/reduce.h), written for tensim. The template defaults are the
// kernel's REDUCE_OP and REDUCE_DIM (defined before this header is included, or by the kernel config's
// defines); without them SUM over the whole tile.
#pragma once
#include "tensim/compute.h"

#ifndef REDUCE_OP
#define REDUCE_OP PoolType::SUM
#endif
#ifndef REDUCE_DIM
#define REDUCE_DIM ReduceDim::REDUCE_SCALAR
#endif

namespace ckernel {
template <PoolType reduce_type = REDUCE_OP, ReduceDim reduce_dim = REDUCE_DIM, bool enforce_fp32_accumulation = false>
ALWI void reduce_init(uint32_t icb, uint32_t icb_scaler, uint32_t ocb) {
    compute(tensim::OP_REDUCE_INIT, reduce_type, reduce_dim, icb, icb_scaler, ocb);
}
template <PoolType reduce_type = REDUCE_OP, ReduceDim reduce_dim = REDUCE_DIM, bool enforce_fp32_accumulation = false>
ALWI void reduce_tile(uint32_t icb, uint32_t icb_scaler, uint32_t itile, uint32_t itile_scaler, uint32_t idst) {
    compute(tensim::OP_REDUCE_TILE, uint32_t(reduce_type) | (uint32_t(reduce_dim) << 8), icb, icb_scaler, itile,
            itile_scaler, idst);
}
template <bool enforce_fp32_accumulation = false>
ALWI void reduce_uninit(uint32_t = 0) {
    compute(tensim::OP_REDUCE_UNINIT);
}
}  // namespace ckernel
