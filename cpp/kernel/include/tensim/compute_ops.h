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
};
// Unary SFPU operations (OP_SFPU_INIT / OP_SFPU).
enum SfpuOp : uint32_t {
    SFPU_EXP = 0, SFPU_RECIP, SFPU_SQRT, SFPU_RSQRT, SFPU_LOG, SFPU_SIGMOID, SFPU_TANH, SFPU_GELU, SFPU_RELU,
    SFPU_ABS, SFPU_SQUARE, SFPU_POWER,
};
inline void compute(uint32_t op, uint32_t a = 0, uint32_t b = 0, uint32_t c = 0, uint32_t d = 0, uint32_t e = 0,
                    uint32_t f = 0) {
    api->compute(op, a, b, c, d, e, f);
}
}  // namespace tensim
