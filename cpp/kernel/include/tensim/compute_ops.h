// Operation codes of tensim_api::compute (the Rust side: cpp-kernels/src/abi.rs, enum ComputeOp).
#pragma once
namespace tensim {
enum ComputeOp : uint32_t {
    OP_HW_STARTUP = 0,          // icb0, icb1, ocb
    OP_BINARY_OP_INIT_COMMON,   // icb0, icb1, ocb
    OP_UNARY_OP_INIT_COMMON,    // icb, ocb
    OP_BINARY_INIT,             // kind (0 add, 1 sub, 2 mul), icb0, icb1, acc
    OP_BINARY_TILES,            // kind, cb0, cb1, t0, t1, dst
    OP_TILE_REGS,               // 0 acquire, 1 commit, 2 wait, 3 release, 4 acquire_dst, 5 release_dst
    OP_PACK_TILE,               // dst, cb, out_of_order, index
    OP_COPY_INIT,               // cb, transpose
    OP_COPY_TILE,               // cb, tile, dst
    OP_MM_INIT,                 // in0, in1, out, transpose
    OP_MM_INIT_SHORT,           // in0, in1, transpose
    OP_MATMUL_TILES,            // in0, in1, t0, t1, dst
    OP_SFPU_INIT,               // unary op code
    OP_SFPU,                    // unary op code, dst, param
    OP_PACK_RECONFIG,           // ocb
    OP_RECONFIG_DATA_FORMAT,    // srca, srcb
    OP_PACK_TILE_BLOCK,         // dst, cb, n
    OP_LLK_UNPACK_AB_INIT,      // cb0, cb1
    OP_LLK_UNPACK_AB,           // cb0, cb1, t0, t1
    OP_LLK_DATACOPY_INIT,       // kind (0 A2D, 1 B2D), cb
    OP_LLK_DATACOPY,            // kind, dst
    OP_SFPU_BINARY_INIT,        // kind (0 add, 1 sub, 2 mul, 3 div)
    OP_SFPU_BINARY,             // kind, dst0, dst1, odst
    OP_BCAST_INIT,              // kind, bcast, icb0, icb1, ocb, full (1: full init with ocb)
    OP_BCAST_TILES,             // kind | bcast << 8, cb0, cb1, t0, t1, dst
    OP_REDUCE_INIT,             // pool, dim, icb, scaler, ocb
    OP_REDUCE_TILE,             // pool | dim << 8, icb, scaler, itile, itile_scaler, dst
    OP_REDUCE_UNINIT,           //
    OP_TRANSPOSE_INIT,          // icb, ocb, full
    OP_TRANSPOSE_TILE,          // icb, itile, dst
    OP_MM_INIT_SHORT_WITH_DT,   // in0, in1, old srca, transpose
    OP_MATMUL_BLOCK,            // in0 | in1 << 8 | transpose << 16, t0, t1, dst, ct | rt << 16, kt
    OP_COPY_INIT_WITH_DT,       // old cb, new cb, transpose
    OP_RECONFIG_SRCA,           // srca
    OP_PACK_L1_ACC,             // enable
    OP_DEST_REUSE_INIT,         // kind, reuse, icb
    OP_DEST_REUSE,              // kind | reuse << 8, cb, tile, dst
    OP_TILIZE,                  // 0 init / 1 block / 2 uninit, icb, block, ocb, in tile, out tile
    OP_UNTILIZE,                // 0 init / 1 block / 2 uninit, icb, full_ct_dim, ocb
    OP_PACK_UNTILIZE,           // 0 init / 1 block / 2 uninit / 3 dest init / 4 dest block, icb, block_rt_dim, ocb,
                                // block_ct | full_ct << 16, c index (| DST tile offset << 16 for 4)
    OP_UNARY_BCAST,             // bcast, icb, tile, dst
    OP_FP32_DEST_ACC,           // enable
    OP_RECONFIG_SRCB,           // srcb
};
// Unary SFPU operations (OP_SFPU_INIT / OP_SFPU).
enum SfpuOp : uint32_t {
    SFPU_EXP = 0, SFPU_RECIP, SFPU_SQRT, SFPU_RSQRT, SFPU_LOG, SFPU_SIGMOID, SFPU_TANH, SFPU_GELU, SFPU_RELU,
    SFPU_ABS, SFPU_SQUARE, SFPU_POWER, SFPU_FILL, SFPU_NEGATIVE, SFPU_SOFTPLUS, SFPU_SILU, SFPU_RELU_MIN,
    SFPU_RELU_MAX, SFPU_LEAKY_RELU, SFPU_SIGN, SFPU_SIGNBIT, SFPU_EXP2, SFPU_EXPM1, SFPU_HEAVISIDE, SFPU_UNARY_MAX,
    SFPU_UNARY_MIN, SFPU_ADD_SCALAR, SFPU_SUB_SCALAR, SFPU_MUL_SCALAR, SFPU_DIV_SCALAR, SFPU_RSUB_SCALAR,
    SFPU_EXP_SCALED,
};
// Binary SFPU operations between DST tiles (OP_SFPU_BINARY_INIT / OP_SFPU_BINARY).
enum SfpuBinaryOp : uint32_t {
    SFPU_BIN_ADD = 0, SFPU_BIN_SUB, SFPU_BIN_MUL, SFPU_BIN_DIV, SFPU_BIN_RSUB, SFPU_BIN_POW, SFPU_BIN_MAX, SFPU_BIN_MIN,
    SFPU_BIN_EQ, SFPU_BIN_NE, SFPU_BIN_LT, SFPU_BIN_GT, SFPU_BIN_LE, SFPU_BIN_GE, SFPU_BIN_DIV_NO_NAN,
};
inline void compute(uint32_t op, uint32_t a = 0, uint32_t b = 0, uint32_t c = 0, uint32_t d = 0, uint32_t e = 0,
                    uint32_t f = 0) {
    api->compute(op, a, b, c, d, e, f);
}
}  // namespace tensim
