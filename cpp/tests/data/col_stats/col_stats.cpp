// tensim test program: per-column mean and mean square of a float32 matrix stored row-major in DRAM (one
// row per page). Four cores each take a band of 32 columns: the reader gathers the band's 32-column slices
// of each row (reads at a byte offset into a page) and a float32 reduce scaler, compute tilizes them,
// squares them and reduces both along columns with fp32 accumulation, packing the two results out of order;
// the writer puts them into a WIDTH_SHARDED L1 buffer laid out COL_MAJOR, so most shards live on another
// core. The host checks every column against a float64 reference.
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include <fmt/base.h>
#include <tt-metalium/constants.hpp>
#include <tt-metalium/distributed.hpp>
#include <tt-metalium/host_api.hpp>
#include <tt-metalium/tensor_accessor_args.hpp>
#include <tt_stl/assert.hpp>

using namespace tt;
using namespace tt::tt_metal;

int main() {
    constexpr uint32_t H = 96, W = 128, bands = W / constants::TILE_WIDTH;
    constexpr uint32_t tile_bytes = sizeof(float) * constants::TILE_HW;
    auto mesh = distributed::MeshDevice::create_unit_mesh(0);
    auto& cq = mesh->mesh_command_queue();

    distributed::DeviceLocalBufferConfig rows{.page_size = W * sizeof(float), .buffer_type = BufferType::DRAM};
    auto x = distributed::MeshBuffer::create(distributed::ReplicatedBufferConfig{.size = H * W * sizeof(float)}, rows, mesh.get());
    // Output: a [32, 2 * W] float32 tiled tensor, shard k = columns 64k..64k+63 = the two result tiles of band k.
    CoreRange grid({0, 0}, {1, 1});
    ShardSpecBuffer shards(CoreRangeSet(grid), {constants::TILE_HEIGHT, 2 * constants::TILE_WIDTH}, ShardOrientation::COL_MAJOR,
                           {constants::TILE_HEIGHT, constants::TILE_WIDTH}, {1, 2 * bands});
    distributed::DeviceLocalBufferConfig l1{.page_size = tile_bytes, .buffer_type = BufferType::L1,
                                            .sharding_args = BufferShardingArgs(shards, TensorMemoryLayout::WIDTH_SHARDED)};
    auto out = distributed::MeshBuffer::create(distributed::ReplicatedBufferConfig{.size = 2 * bands * tile_bytes}, l1, mesh.get());

    std::mt19937 rng(7);
    std::uniform_real_distribution<float> dist(-2.0f, 2.0f);
    std::vector<float> vx(H * W);
    for (auto& v : vx) v = dist(rng);
    distributed::EnqueueWriteMeshBuffer(cq, x, vx, false);

    Program program = CreateProgram();
    auto cb = [&](CBIndex id, uint32_t pages) {
        CreateCircularBuffer(program, grid, CircularBufferConfig(pages * tile_bytes, {{id, DataFormat::Float32}}).set_page_size(id, tile_bytes));
    };
    cb(CBIndex::c_0, 2);   // row-major slices of one tile row
    cb(CBIndex::c_1, 3);   // the band's tiles
    cb(CBIndex::c_2, 1);   // reduce scaler 1/H
    cb(CBIndex::c_3, 3);   // squares
    cb(CBIndex::c_16, 2);  // mean, mean square
    std::vector<uint32_t> rct;
    TensorAccessorArgs(*x).append_to(rct);
    std::vector<uint32_t> wct;
    TensorAccessorArgs(*out).append_to(wct);
    auto reader = CreateKernel(program, "col_stats/kernels/reader.cpp", grid, ReaderDataMovementConfig(rct));
    auto writer = CreateKernel(program, "col_stats/kernels/writer.cpp", grid, WriterDataMovementConfig(wct));
    auto compute = CreateKernel(program, "col_stats/kernels/stats.cpp", grid,
                                ComputeConfig{.math_fidelity = MathFidelity::HiFi4, .fp32_dest_acc_en = true,
                                              .compile_args = {H / constants::TILE_HEIGHT}});
    const float inv_h = 1.0f / H;
    uint32_t scaler_bits;
    std::memcpy(&scaler_bits, &inv_h, 4);
    for (uint32_t k = 0; k < bands; k++) {
        CoreCoord core{k % 2, k / 2};  // row-major over the grid; the output shards go column-major
        SetRuntimeArgs(program, reader, core, {x->address(), k, H, scaler_bits});
        SetRuntimeArgs(program, writer, core, {out->address(), k});
    }
    distributed::MeshWorkload w;
    w.add_program(distributed::MeshCoordinateRange(mesh->shape()), std::move(program));
    distributed::EnqueueMeshWorkload(cq, w, false);
    std::vector<float> got;
    distributed::EnqueueReadMeshBuffer(cq, got, out, true);
    mesh->close();

    TT_FATAL(got.size() == 2 * bands * constants::TILE_HW, "read {} values", got.size());
    size_t bad = 0;
    for (uint32_t c = 0; c < W; c++) {
        double s = 0, s2 = 0;
        for (uint32_t r = 0; r < H; r++) {
            double v = vx[r * W + c];
            s += v;
            s2 += v * v;
        }
        const uint32_t band = c / 32, col = c % 32;
        const uint32_t in_tile = col < 16 ? col : 256 + col - 16;  // row 0 of faces 0 and 1
        const float mean = got[(2 * band) * constants::TILE_HW + in_tile];
        const float meansq = got[(2 * band + 1) * constants::TILE_HW + in_tile];
        if (std::fabs(mean - s / H) > 2e-3 && bad++ < 8) fmt::print(stderr, "column {} mean {} != {}\n", c, mean, s / H);
        if (std::fabs(meansq - s2 / H) > 2e-3 * std::max(1.0, s2 / H) && bad++ < 8)
            fmt::print(stderr, "column {} mean square {} != {}\n", c, meansq, s2 / H);
    }
    if (bad) TT_THROW("Test Failed: {} mismatches", bad);
    fmt::print("Test Passed\n");
}
