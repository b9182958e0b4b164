// tensim test program: Y = transpose(X) for a bf16 matrix held height-sharded in the L1 of a 4x2 block of cores.
// Each core reads its own shard through the sharded TensorAccessor (shard_pages, ShardView), transposes its tiles
// (transpose_wh), untilizes them (pack_untilize_block) and writes 64-byte sticks of the row-major Y into DRAM; it
// also reads and writes its shard whole (noc_async_read_shard / noc_async_write_shard) and checks the pages.
// Then the cores report to a leader (inline writes, remote semaphore increments), which stores the reports with
// state-based writes and sends them back out (a multicast to a MulticastEndpoint, relay_multicast,
// inc_multicast, relay_unicast). The host checks Y and every report word.
#include <cstdint>
#include <random>
#include <vector>

#include <fmt/base.h>
#include <tt-metalium/bfloat16.hpp>
#include <tt-metalium/constants.hpp>
#include <tt-metalium/distributed.hpp>
#include <tt-metalium/host_api.hpp>
#include <tt-metalium/tensor_accessor_args.hpp>
#include <tt-metalium/tilize_utils.hpp>
#include <tt_stl/assert.hpp>

using namespace tt;
using namespace tt::tt_metal;

int main() {
    constexpr uint32_t cores_x = 4, cores_y = 2, cores = cores_x * cores_y;
    constexpr uint32_t R = 2, Wt = 3;  // tile rows per shard, tiles per row
    constexpr uint32_t Ht = R * cores, M = Ht * constants::TILE_HEIGHT, N = Wt * constants::TILE_WIDTH;
    constexpr uint32_t tile_bytes = sizeof(bfloat16) * constants::TILE_HW;
    constexpr uint32_t report_bytes = 64;  // one DRAM write of 16 words (aligned on both chips)
    constexpr uint32_t report_page = 2 * report_bytes;

    auto mesh = distributed::MeshDevice::create_unit_mesh(0);
    auto& cq = mesh->mesh_command_queue();
    const CoreRange block({0, 0}, {cores_x - 1, cores_y - 1});

    ShardSpecBuffer shards(CoreRangeSet(block), {R * constants::TILE_HEIGHT, N}, ShardOrientation::ROW_MAJOR,
                           {constants::TILE_HEIGHT, constants::TILE_WIDTH}, {Ht, Wt});
    distributed::DeviceLocalBufferConfig sharded{.page_size = tile_bytes, .buffer_type = BufferType::L1,
                                                 .sharding_args = BufferShardingArgs(shards, TensorMemoryLayout::HEIGHT_SHARDED)};
    auto x_buf = distributed::MeshBuffer::create(distributed::ReplicatedBufferConfig{.size = Ht * Wt * tile_bytes}, sharded, mesh.get());
    distributed::DeviceLocalBufferConfig rows{.page_size = M * sizeof(bfloat16), .buffer_type = BufferType::DRAM};
    auto y_buf = distributed::MeshBuffer::create(distributed::ReplicatedBufferConfig{.size = N * M * sizeof(bfloat16)}, rows, mesh.get());
    distributed::DeviceLocalBufferConfig reports{.page_size = report_page, .buffer_type = BufferType::DRAM};
    auto r_buf = distributed::MeshBuffer::create(distributed::ReplicatedBufferConfig{.size = (cores + 1) * report_page}, reports, mesh.get());

    std::mt19937 rng(17);
    std::uniform_real_distribution<float> dist(-8.0f, 8.0f);
    std::vector<bfloat16> x(M * N);
    for (auto& v : x) v = bfloat16(dist(rng));
    distributed::EnqueueWriteMeshBuffer(cq, x_buf, tilize_nfaces(x, M, N), false);
    std::vector<uint32_t> poison((cores + 1) * report_page / 4, 0xDEADBEEF);
    distributed::EnqueueWriteMeshBuffer(cq, r_buf, poison, false);

    Program program = CreateProgram();
    auto cb = [&](CBIndex id, uint32_t pages, uint32_t page_bytes) {
        CreateCircularBuffer(program, block, CircularBufferConfig(pages * page_bytes, {{id, DataFormat::Float16_b}}).set_page_size(id, page_bytes));
    };
    cb(CBIndex::c_0, 2, tile_bytes);       // shard tiles as read
    cb(CBIndex::c_1, R * Wt, tile_bytes);  // transposed tiles
    cb(CBIndex::c_16, 2, tile_bytes);      // untilized transposed tiles
    cb(CBIndex::c_20, 1, report_bytes);    // the leader's slots (one word per core)
    cb(CBIndex::c_21, 1, report_bytes);    // the reader's checks, handed to the writer
    cb(CBIndex::c_22, 1, report_bytes);    // the writer's report
    cb(CBIndex::c_24, R * Wt, tile_bytes); // the reader's copy of its whole shard
    uint32_t done = CreateSemaphore(program, block, 0);
    uint32_t go_src = CreateSemaphore(program, block, 0);
    uint32_t go = CreateSemaphore(program, block, 0);
    uint32_t bump = CreateSemaphore(program, block, 0);
    uint32_t echo = CreateSemaphore(program, block, 0);

    std::vector<uint32_t> rct{Wt, R * Wt};
    TensorAccessorArgs(*x_buf).append_to(rct);
    std::vector<uint32_t> wct{R, Wt, cores};
    TensorAccessorArgs(*y_buf).append_to(wct);
    TensorAccessorArgs(*r_buf).append_to(wct);
    auto reader = CreateKernel(program, "shard_transpose/kernels/reader.cpp", block, ReaderDataMovementConfig(rct));
    auto writer = CreateKernel(program, "shard_transpose/kernels/writer.cpp", block, WriterDataMovementConfig(wct));
    CreateKernel(program, "shard_transpose/kernels/compute.cpp", block, ComputeConfig{.compile_args = {R * Wt}});

    auto leader = mesh->worker_core_from_logical_core({0, 0});
    auto last = mesh->worker_core_from_logical_core({cores_x - 1, cores_y - 1});
    for (uint32_t s = 0; s < cores; s++) {
        CoreCoord c{s % cores_x, s / cores_x};  // row-major, as the shards are dealt
        SetRuntimeArgs(program, reader, c, {x_buf->address(), s});
        SetRuntimeArgs(program, writer, c,
                       {y_buf->address(), r_buf->address(), s, leader.x, leader.y, last.x, last.y, done, go_src, go, bump, echo});
    }
    distributed::MeshWorkload workload;
    workload.add_program(distributed::MeshCoordinateRange(mesh->shape()), std::move(program));
    distributed::EnqueueMeshWorkload(cq, workload, false);
    std::vector<bfloat16> y;
    distributed::EnqueueReadMeshBuffer(cq, y, y_buf, true);
    std::vector<uint32_t> rep;
    distributed::EnqueueReadMeshBuffer(cq, rep, r_buf, true);
    mesh->close();

    size_t bad = 0;
    for (uint32_t i = 0; i < N; i++) {
        for (uint32_t j = 0; j < M; j++) {
            if (y[i * M + j] != x[j * N + i] && bad++ < 5)
                fmt::print(stderr, "Y({}, {}) = {} but X({}, {}) = {}\n", i, j, static_cast<float>(y[i * M + j]), j, i, static_cast<float>(x[j * N + i]));
        }
    }
    auto word = [&](uint32_t page, uint32_t w) { return rep[page * report_page / 4 + w]; };
    auto expect = [&](uint32_t page, uint32_t w, uint32_t want, const char* what) {
        if (word(page, w) != want && bad++ < 20) fmt::print(stderr, "report page {} word {} ({}): {:#x}, expected {:#x}\n", page, w, what, word(page, w), want);
    };
    for (uint32_t copy = 0; copy < 2; copy++) {  // page 0: the leader's slots, stored twice with state
        for (uint32_t s = 0; s < cores; s++) expect(0, copy * report_bytes / 4 + s, 0xAB00 | R * Wt, "tiles written by core, byte 1 set apart");
        const uint32_t stored[] = {0x11111111, 0x11111111, 0x22222222, 0x22222222, 0x33333333, 0x44444444};
        for (uint32_t k = 0; k < 6; k++) expect(0, copy * report_bytes / 4 + 9 + k, stored[k], "inline writes with state");
    }
    for (uint32_t s = 0; s < cores; s++) {
        uint32_t p = 1 + s;
        expect(p, 0, 0, "reader's shard-address mismatches");
        expect(p, 1, R * Wt, "pages the reader found in its shard");
        expect(p, 2, 0, "slot mismatches after the multicast");
        expect(p, 3, s == 0 ? 0 : cores, "go value relayed by multicast");
        expect(p, 4, s == 0 ? 0 : 1, "inc_multicast bump");
        expect(p, 5, s == cores - 1 ? cores : 0, "done value relayed to the last core");
    }
    if (bad) TT_THROW("Test Failed: {} mismatches", bad);
    fmt::print("Test Passed\n");
}
