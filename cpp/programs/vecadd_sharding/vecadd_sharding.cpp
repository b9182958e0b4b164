// tensim's C++ vecadd_sharding: c = a + b for a 2048 × 512 bf16 tensor height-sharded in L1 over the 8×8
// grid (16 tiles a core). The circular buffers alias the shards (set_globally_allocated_address), so only
// the compute kernel works: nothing crosses the NoC. Today's host API: a unit mesh, its L1 buffers sharded
// through DeviceLocalBufferConfig's sharding args.
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include <fmt/base.h>
#include <tt-metalium/bfloat16.hpp>
#include <tt-metalium/constants.hpp>
#include <tt-metalium/distributed.hpp>
#include <tt-metalium/host_api.hpp>

#ifndef OVERRIDE_KERNEL_PREFIX
#define OVERRIDE_KERNEL_PREFIX ""
#endif

using namespace tt;
using namespace tt::tt_metal;

int main() {
    auto mesh_device = distributed::MeshDevice::create_unit_mesh(0);
    distributed::MeshCommandQueue& cq = mesh_device->mesh_command_queue();
    constexpr uint32_t H = 2048, W = 512, cores_x = 8, cores_y = 8;
    constexpr uint32_t tile_bytes = sizeof(bfloat16) * constants::TILE_HW;
    constexpr uint32_t tiles = H * W / constants::TILE_HW;
    constexpr uint32_t tiles_per_core = tiles / (cores_x * cores_y);
    const CoreRangeSet grid(CoreRange({0, 0}, {cores_x - 1, cores_y - 1}));
    ShardSpecBuffer shards(grid, {H / (cores_x * cores_y), W}, ShardOrientation::ROW_MAJOR, {32, 32}, {H / 32, W / 32});
    distributed::DeviceLocalBufferConfig l1{.page_size = tile_bytes,
                                            .buffer_type = BufferType::L1,
                                            .sharding_args = BufferShardingArgs(shards, TensorMemoryLayout::HEIGHT_SHARDED)};
    distributed::ReplicatedBufferConfig whole{.size = tiles * tile_bytes};
    auto a_buf = distributed::MeshBuffer::create(whole, l1, mesh_device.get());
    auto b_buf = distributed::MeshBuffer::create(whole, l1, mesh_device.get());
    auto c_buf = distributed::MeshBuffer::create(whole, l1, mesh_device.get());

    // The add is element-wise, so the host writes and reads the tiles in page order as they are.
    std::mt19937 rng(13);
    std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
    std::vector<bfloat16> a(H * W), b(H * W);
    for (auto& v : a) v = bfloat16(dist(rng));
    for (auto& v : b) v = bfloat16(dist(rng));
    distributed::EnqueueWriteMeshBuffer(cq, a_buf, a, false);
    distributed::EnqueueWriteMeshBuffer(cq, b_buf, b, false);

    Program program = CreateProgram();
    const std::pair<CBIndex, Buffer*> cbs[] = {{CBIndex::c_0, a_buf->get_reference_buffer()},
                                               {CBIndex::c_1, b_buf->get_reference_buffer()},
                                               {CBIndex::c_2, c_buf->get_reference_buffer()}};
    for (const auto& [cb, buf] : cbs) {
        CreateCircularBuffer(program, grid,
                             CircularBufferConfig(tiles_per_core * tile_bytes, {{cb, tt::DataFormat::Float16_b}})
                                 .set_page_size(cb, tile_bytes)
                                 .set_globally_allocated_address(*buf));
    }
    auto reader = CreateKernel(program, OVERRIDE_KERNEL_PREFIX "vecadd_sharding/kernels/publish_inputs.cpp", grid,
                               ReaderDataMovementConfig{});
    auto writer = CreateKernel(program, OVERRIDE_KERNEL_PREFIX "vecadd_sharding/kernels/wait_output.cpp", grid,
                               WriterDataMovementConfig{});
    auto compute = CreateKernel(program, OVERRIDE_KERNEL_PREFIX "vecadd_sharding/kernels/add_sharding.cpp", grid,
                                ComputeConfig{.math_fidelity = MathFidelity::HiFi4});
    for (const auto& core : corerange_to_cores(grid)) {
        for (auto k : {reader, writer, compute}) SetRuntimeArgs(program, k, core, {tiles_per_core});
    }
    distributed::MeshWorkload workload;
    workload.add_program(distributed::MeshCoordinateRange(mesh_device->shape()), std::move(program));
    distributed::EnqueueMeshWorkload(cq, workload, false);
    distributed::Finish(cq);
    std::vector<bfloat16> c;
    distributed::EnqueueReadMeshBuffer(cq, c, c_buf, true);
    mesh_device->close();

    size_t bad = 0;
    for (size_t i = 0; i < c.size(); i++) {
        float want = static_cast<float>(a[i]) + static_cast<float>(b[i]);
        if (std::fabs(want - static_cast<float>(c[i])) > 1e-2f + 1e-2f * std::fabs(want)) bad++;
    }
    if (bad != 0 || c.size() != a.size()) {
        fmt::print("Test Failed: {} mismatches\n", bad);
        return 1;
    }
    fmt::print("Test Passed\n");
    return 0;
}
