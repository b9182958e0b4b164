// Host helpers of tensim's reduce_max programs: the random input, the circular buffers every core uses,
// and the exact check of the row maxima against the CPU.
#pragma once
#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include <tt-metalium/bfloat16.hpp>
#include <tt-metalium/distributed.hpp>
#include <tt-metalium/host_api.hpp>
#include <tt-metalium/tilize_utils.hpp>

namespace reduce_max {
using namespace tt;
using namespace tt::tt_metal;

constexpr uint32_t tile_bytes = sizeof(bfloat16) * constants::TILE_HW;
/// bf16 bits of the scaler 1.0.
constexpr uint32_t scaler_one = 0x3f80;

/// H × W bf16 values uniform in [-10, 10).
inline std::vector<bfloat16> input(uint32_t H, uint32_t W, uint32_t seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> dist(-10.0f, 10.0f);
    std::vector<bfloat16> x(H * W);
    for (auto& v : x) v = bfloat16(dist(rng));
    return x;
}

/// The H × W input (tilized, written) and the Ht-tile output, interleaved in DRAM.
struct Buffers {
    std::shared_ptr<distributed::MeshBuffer> src, dst;
};
inline Buffers buffers(distributed::MeshDevice& dev, const std::vector<bfloat16>& x, uint32_t H, uint32_t W) {
    const uint32_t Ht = H / constants::TILE_HEIGHT, Wt = W / constants::TILE_WIDTH;
    distributed::DeviceLocalBufferConfig dram{.page_size = tile_bytes, .buffer_type = BufferType::DRAM};
    Buffers b{distributed::MeshBuffer::create(distributed::ReplicatedBufferConfig{.size = Ht * Wt * tile_bytes}, dram, &dev),
              distributed::MeshBuffer::create(distributed::ReplicatedBufferConfig{.size = Ht * tile_bytes}, dram, &dev)};
    distributed::EnqueueWriteMeshBuffer(dev.mesh_command_queue(), b.src, tilize_nfaces(x, H, W), false);
    return b;
}

inline int check(const std::vector<bfloat16>& x, const std::vector<bfloat16>& result, uint32_t H, uint32_t W);

/// Run `program` on the unit mesh, read the output, close the device and check the row maxima: main's exit code.
inline int run_and_check(std::shared_ptr<distributed::MeshDevice> dev, Program program, const Buffers& b,
                         const std::vector<bfloat16>& x, uint32_t H, uint32_t W) {
    auto& cq = dev->mesh_command_queue();
    distributed::MeshWorkload workload;
    workload.add_program(distributed::MeshCoordinateRange(dev->shape()), std::move(program));
    distributed::EnqueueMeshWorkload(cq, workload, false);
    std::vector<bfloat16> result;
    auto dst = b.dst;  // EnqueueReadMeshBuffer takes the shared_ptr by non-const reference, as tt-metal's does
    distributed::EnqueueReadMeshBuffer(cq, result, dst, true);
    dev->close();
    return check(x, untilize_nfaces(result, H, constants::TILE_WIDTH), H, W);
}

/// c_0 (input, 2 tiles), c_2 (scaler, 1 tile), c_16 (output, 2 tiles) on `cores`, all bf16.
template <typename Cores>
void create_cbs(Program& program, const Cores& cores) {
    for (auto [cb, tiles] : {std::pair{CBIndex::c_0, 2u}, {CBIndex::c_2, 1u}, {CBIndex::c_16, 2u}}) {
        CreateCircularBuffer(program, cores,
                             CircularBufferConfig(tiles * tile_bytes, {{cb, tt::DataFormat::Float16_b}})
                                 .set_page_size(cb, tile_bytes));
    }
}

/// Compare column 0 of the untilized H × 32 `result` with the maximum of every row of `x`; print the
/// verdict and return main's exit code.
inline int check(const std::vector<bfloat16>& x, const std::vector<bfloat16>& result, uint32_t H, uint32_t W) {
    uint32_t wrong = 0;
    for (uint32_t r = 0; r < H; r++) {
        float m = x[r * W].to_float();
        for (uint32_t c = 1; c < W; c++) m = std::max(m, x[r * W + c].to_float());
        float got = result[r * constants::TILE_WIDTH].to_float();
        if (got != m) {
            if (wrong < 5) fmt::print("row {}: max {} but got {}\n", r, m, got);
            wrong++;
        }
    }
    fmt::print("{} of {} row maxima differ from the CPU's\n", wrong, H);
    if (wrong > 0) {
        fmt::print("Test Failed\n");
        return 1;
    }
    fmt::print("Test Passed\n");
    return 0;
}
}  // namespace reduce_max
