// tensim test program: a WIDTH_SHARDED buffer in DRAM, one shard per DRAM bank (the grid is
// dram_grid_size()). One worker per bank reads its bank's shard twice — by bank id and address
// (get_noc_addr_from_bank_id<true>) in the bank's slot order, and page by page through the sharded
// TensorAccessor — compares the two, and writes the pages to an interleaved DRAM buffer. The host checks the
// copy page for page and that no worker saw the two reads differ.
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
    IDevice* device = mesh->get_devices()[0];
    const uint32_t banks = device->dram_grid_size().x;
    constexpr uint32_t rows = 8, cols_per_shard = 2, page = 64;  // a page: 32 bf16 of one row
    const uint32_t cols = cols_per_shard * banks, pages = rows * cols;
    ShardSpecBuffer spec(CoreRangeSet(CoreRange({0, 0}, {banks - 1, 0})), {rows, 32 * cols_per_shard},
                         ShardOrientation::ROW_MAJOR, {1, 32}, {rows, cols});
    distributed::DeviceLocalBufferConfig sharded{.page_size = page, .buffer_type = BufferType::DRAM,
                                                 .sharding_args = BufferShardingArgs(spec, TensorMemoryLayout::WIDTH_SHARDED)};
    auto in = distributed::MeshBuffer::create(distributed::ReplicatedBufferConfig{.size = pages * page}, sharded, mesh.get());
    distributed::DeviceLocalBufferConfig inter{.page_size = page, .buffer_type = BufferType::DRAM};
    auto out = distributed::MeshBuffer::create(distributed::ReplicatedBufferConfig{.size = pages * page}, inter, mesh.get());
    distributed::DeviceLocalBufferConfig small{.page_size = 64, .buffer_type = BufferType::DRAM};
    auto diffs = distributed::MeshBuffer::create(distributed::ReplicatedBufferConfig{.size = 64 * banks}, small, mesh.get());

    std::vector<uint32_t> data(pages * page / 4);
    for (uint32_t i = 0; i < data.size(); i++) data[i] = (i / 16) * 1000 + i % 16;  // page number, word
    distributed::EnqueueWriteMeshBuffer(cq, in, data, false);

    Program program = CreateProgram();
    const auto grid = device->compute_with_storage_grid_size();
    std::vector<CoreCoord> cores;
    for (uint32_t k = 0; k < banks; k++) cores.push_back({k % grid.x, k / grid.x});
    CoreRangeSet all(CoreRange({0, 0}, {grid.x - 1, (banks - 1) / grid.x}));
    CreateCircularBuffer(program, all, CircularBufferConfig(2 * rows * cols_per_shard * page, {{CBIndex::c_0, DataFormat::Float16_b}})
                                           .set_page_size(CBIndex::c_0, page));
    std::vector<uint32_t> ct;
    TensorAccessorArgs(*in).append_to(ct);
    TensorAccessorArgs(*out).append_to(ct);
    TensorAccessorArgs(*diffs).append_to(ct);
    auto k = CreateKernel(program, "dram_shards/kernels/copy.cpp", all,
                          DataMovementConfig{.processor = DataMovementProcessor::RISCV_0, .noc = NOC::RISCV_0_default, .compile_args = ct});
    for (const auto& c : corerange_to_cores(all)) SetRuntimeArgs(program, k, c, {0u, 0u, 0u, 0u, 0u, 0u, 0u});
    for (uint32_t b = 0; b < banks; b++) {
        SetRuntimeArgs(program, k, cores[b], {in->address(), out->address(), diffs->address(), b, rows, cols_per_shard, banks});
    }
    distributed::MeshWorkload w;
    w.add_program(distributed::MeshCoordinateRange(mesh->shape()), std::move(program));
    distributed::EnqueueMeshWorkload(cq, w, false);
    std::vector<uint32_t> got, nd;
    distributed::EnqueueReadMeshBuffer(cq, got, out, true);
    distributed::EnqueueReadMeshBuffer(cq, nd, diffs, true);
    mesh->close();
    size_t bad = 0;
    for (uint32_t i = 0; i < data.size(); i++) {
        if (got[i] != data[i] && bad++ < 8) fmt::print(stderr, "word {} (page {}): {} != {}\n", i, i / 16, got[i], data[i]);
    }
    for (uint32_t b = 0; b < banks; b++) {
        if (nd[b * 16] != 0 && bad++ < 16) fmt::print(stderr, "bank {}: {} words differ between the two reads\n", b, nd[b * 16]);
        if (nd[b * 16 + 1] != rows * cols_per_shard && bad++ < 16) fmt::print(stderr, "bank {}: {} pages\n", b, nd[b * 16 + 1]);
    }
    if (bad) TT_THROW("Test Failed: {} mismatches over {} DRAM banks", bad, banks);
    fmt::print("Test Passed: {} DRAM banks\n", banks);
}
