// tensim test program: core (0,0) multicasts one tile to a 4x4 block of cores, itself included (Noc
// async_write_multicast with MCAST_INCL_SRC, CircularBuffer views, Semaphore set_multicast); every core
// multiplies its share of a DRAM tensor's tiles by it, element-wise, and writes them back.
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include <fmt/base.h>
#include <tt-metalium/bfloat16.hpp>
#include <tt-metalium/constants.hpp>
#include <tt-metalium/distributed.hpp>
#include <tt-metalium/host_api.hpp>
#include <tt-metalium/tensor_accessor_args.hpp>
#include <tt_stl/assert.hpp>

using namespace tt;
using namespace tt::tt_metal;

int main() {
    auto mesh = distributed::MeshDevice::create_unit_mesh(0);
    auto& cq = mesh->mesh_command_queue();
    constexpr uint32_t side = 4, cores = side * side, tiles_per_core = 3, n_tiles = cores * tiles_per_core;
    constexpr uint32_t tile_bytes = sizeof(bfloat16) * constants::TILE_HW;
    distributed::DeviceLocalBufferConfig dram{.page_size = tile_bytes, .buffer_type = BufferType::DRAM};
    auto src = distributed::MeshBuffer::create(distributed::ReplicatedBufferConfig{.size = n_tiles * tile_bytes}, dram, mesh.get());
    auto dst = distributed::MeshBuffer::create(distributed::ReplicatedBufferConfig{.size = n_tiles * tile_bytes}, dram, mesh.get());
    auto scale = distributed::MeshBuffer::create(distributed::ReplicatedBufferConfig{.size = tile_bytes}, dram, mesh.get());
    std::mt19937 rng(5);
    std::uniform_real_distribution<float> dist(-2.0f, 2.0f);
    std::vector<bfloat16> a(n_tiles * constants::TILE_HW), s(constants::TILE_HW);
    for (auto& v : a) v = bfloat16(dist(rng));
    for (auto& v : s) v = bfloat16(dist(rng));
    distributed::EnqueueWriteMeshBuffer(cq, src, a, false);
    distributed::EnqueueWriteMeshBuffer(cq, scale, s, false);

    Program program = CreateProgram();
    const CoreRange block({0, 0}, {side - 1, side - 1});
    for (auto [cb, pages] : {std::pair{CBIndex::c_0, 2u}, std::pair{CBIndex::c_1, 1u}, std::pair{CBIndex::c_16, 2u}}) {
        CreateCircularBuffer(program, block, CircularBufferConfig(pages * tile_bytes, {{cb, DataFormat::Float16_b}}).set_page_size(cb, tile_bytes));
    }
    uint32_t ready = CreateSemaphore(program, block, 0);
    auto start = mesh->worker_core_from_logical_core({0, 0});
    auto end = mesh->worker_core_from_logical_core({side - 1, side - 1});
    std::vector<uint32_t> rct;
    TensorAccessorArgs(*src).append_to(rct);
    TensorAccessorArgs(*scale).append_to(rct);
    std::vector<uint32_t> wct;
    TensorAccessorArgs(*dst).append_to(wct);
    auto reader = CreateKernel(program, "bscale/kernels/reader.cpp", block, ReaderDataMovementConfig(rct));
    auto writer = CreateKernel(program, "bscale/kernels/writer.cpp", block, WriterDataMovementConfig(wct));
    auto compute = CreateKernel(program, "bscale/kernels/mul.cpp", block, ComputeConfig{.math_fidelity = MathFidelity::HiFi4, .compile_args = {tiles_per_core}});
    for (uint32_t y = 0; y < side; y++) {
        for (uint32_t x = 0; x < side; x++) {
            uint32_t first = (y * side + x) * tiles_per_core;
            CoreCoord c{x, y};
            SetRuntimeArgs(program, reader, c, {src->address(), scale->address(), first, tiles_per_core, ready, start.x, start.y, end.x, end.y, cores, x == 0 && y == 0 ? 1u : 0u});
            SetRuntimeArgs(program, writer, c, {dst->address(), first, tiles_per_core});
        }
    }
    distributed::MeshWorkload w;
    w.add_program(distributed::MeshCoordinateRange(mesh->shape()), std::move(program));
    distributed::EnqueueMeshWorkload(cq, w, false);
    std::vector<bfloat16> out;
    distributed::EnqueueReadMeshBuffer(cq, out, dst, true);
    size_t bad = 0;
    for (size_t i = 0; i < out.size(); i++) {
        float want = static_cast<float>(a[i]) * static_cast<float>(s[i % constants::TILE_HW]);
        if (std::fabs(want - static_cast<float>(out[i])) > 0.02f * std::max(1.0f, std::fabs(want)) && bad++ < 5)
            fmt::print(stderr, "{}: {} != {}\n", i, static_cast<float>(out[i]), want);
    }
    mesh->close();
    if (bad) TT_THROW("Test Failed: {} mismatches", bad);
    fmt::print("Test Passed\n");
}
