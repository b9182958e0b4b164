// tensim test program: a periodic 3-point stencil over rows of uint32, height-sharded in L1 over a row of
// cores; each core fetches its neighbours' edge rows (Noc, UnicastEndpoint), averages through L1 pointers
// (CoreLocalMem), writes its rows to DRAM, and the cores meet at a barrier (Semaphore, set_multicast).
#include <cstdint>
#include <vector>

#include <fmt/base.h>
#include <tt-metalium/distributed.hpp>
#include <tt-metalium/host_api.hpp>
#include <tt-metalium/tensor_accessor_args.hpp>
#include <tt_stl/assert.hpp>

using namespace tt;
using namespace tt::tt_metal;

int main() {
    auto mesh = distributed::MeshDevice::create_unit_mesh(0);
    auto& cq = mesh->mesh_command_queue();
    constexpr uint32_t cores = 8, rows_per_core = 16, width = 256;  // uint32 per row
    constexpr uint32_t row_bytes = width * sizeof(uint32_t);
    constexpr uint32_t rows = cores * rows_per_core;
    const CoreRangeSet grid(CoreRange({0, 0}, {cores - 1, 0}));
    ShardSpecBuffer shards(grid, {rows_per_core, width}, ShardOrientation::ROW_MAJOR, {1, width}, {rows, 1});
    distributed::DeviceLocalBufferConfig l1{.page_size = row_bytes,
                                            .buffer_type = BufferType::L1,
                                            .sharding_args = BufferShardingArgs(shards, TensorMemoryLayout::HEIGHT_SHARDED)};
    distributed::DeviceLocalBufferConfig dram{.page_size = row_bytes, .buffer_type = BufferType::DRAM};
    distributed::ReplicatedBufferConfig whole{.size = rows * row_bytes};
    auto in = distributed::MeshBuffer::create(whole, l1, mesh.get());
    auto out = distributed::MeshBuffer::create(whole, dram, mesh.get());

    std::vector<uint32_t> x(rows * width);
    for (uint32_t i = 0; i < x.size(); i++) x[i] = (i * 2654435761u) % 9000;
    distributed::EnqueueWriteMeshBuffer(cq, in, x, false);

    Program program = CreateProgram();
    // Scratch: the two halo rows and the output rows.
    CreateCircularBuffer(program, grid,
                         CircularBufferConfig((rows_per_core + 2) * row_bytes, {{CBIndex::c_0, DataFormat::UInt32}})
                             .set_page_size(CBIndex::c_0, row_bytes));
    uint32_t sem = CreateSemaphore(program, grid, 0);
    std::vector<uint32_t> ct{rows_per_core, width, cores};
    TensorAccessorArgs(*out).append_to(ct);
    auto k = CreateKernel(program, "stencil/kernels/stencil.cpp", grid,
                          DataMovementConfig{.processor = DataMovementProcessor::RISCV_0, .noc = NOC::RISCV_0_default,
                                             .compile_args = ct});
    auto c0 = mesh->worker_core_from_logical_core({0, 0});
    for (uint32_t c = 0; c < cores; c++) {
        auto left = mesh->worker_core_from_logical_core({(c + cores - 1) % cores, 0});
        auto right = mesh->worker_core_from_logical_core({(c + 1) % cores, 0});
        auto last = mesh->worker_core_from_logical_core({cores - 1, 0});
        SetRuntimeArgs(program, k, CoreCoord{c, 0},
                       {in->address(), out->address(), c, left.x, left.y, right.x, right.y, sem, c0.x, c0.y, last.x, last.y});
    }
    distributed::MeshWorkload w;
    w.add_program(distributed::MeshCoordinateRange(mesh->shape()), std::move(program));
    distributed::EnqueueMeshWorkload(cq, w, true);
    std::vector<uint32_t> y;
    distributed::EnqueueReadMeshBuffer(cq, y, out, true);
    size_t bad = 0;
    for (uint32_t r = 0; r < rows; r++) {
        for (uint32_t j = 0; j < width; j++) {
            uint32_t up = x[((r + rows - 1) % rows) * width + j], mid = x[r * width + j], dn = x[((r + 1) % rows) * width + j];
            uint32_t want = (up + mid + dn) / 3;
            if (y[r * width + j] != want && bad++ < 5) fmt::print(stderr, "({}, {}): {} != {}\n", r, j, y[r * width + j], want);
        }
    }
    mesh->close();
    if (bad) TT_THROW("Test Failed: {} mismatches", bad);
    fmt::print("Test Passed\n");
}
