// tensim's C++ distributed eltwise add, in today's TT-Metalium API: C = A + B over a 2x4 mesh of devices.
// A, B and C are 256 x 1024 bf16 tensors sharded over the mesh, a 128 x 256 shard per device; one program
// (contributed/vecadd's kernels on core (0,0)) runs on every device over its shard, captured as a mesh trace
// and replayed; an event orders the read-back; one shard is read back alone. Checked element-wise against the
// CPU. Run without --system it takes the smallest built-in system with a 2x4 mesh.
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include <fmt/base.h>
#include <tt-metalium/bfloat16.hpp>
#include <tt-metalium/constants.hpp>
#include <tt-metalium/distributed.hpp>
#include <tt-metalium/host_api.hpp>
#include <tt-metalium/mesh_config.hpp>
#include <tt-metalium/tensor_accessor_args.hpp>

#ifndef OVERRIDE_KERNEL_PREFIX
#define OVERRIDE_KERNEL_PREFIX ""
#endif

using namespace tt;
using namespace tt::tt_metal;

int main() {
    auto mesh_device = distributed::MeshDevice::create(distributed::MeshDeviceConfig(distributed::MeshShape(2, 4)));
    distributed::MeshCommandQueue& cq = mesh_device->mesh_command_queue();
    constexpr uint32_t H = 256, W = 1024, shard_h = H / 2, shard_w = W / 4;
    constexpr uint32_t tile_bytes = sizeof(bfloat16) * constants::TILE_HW;
    constexpr uint32_t shard_tiles = shard_h * shard_w / constants::TILE_HW;

    distributed::DeviceLocalBufferConfig dram{.page_size = tile_bytes, .buffer_type = BufferType::DRAM};
    distributed::ShardedBufferConfig sharded{.global_size = H * W * sizeof(bfloat16),
                                             .global_buffer_shape = {H, W},
                                             .shard_shape = {shard_h, shard_w}};
    auto a_buf = distributed::MeshBuffer::create(sharded, dram, mesh_device.get());
    auto b_buf = distributed::MeshBuffer::create(sharded, dram, mesh_device.get());
    auto c_buf = distributed::MeshBuffer::create(sharded, dram, mesh_device.get());

    std::mt19937 rng(11);
    std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
    std::vector<bfloat16> a(H * W), b(H * W);
    for (auto& v : a) v = bfloat16(dist(rng));
    for (auto& v : b) v = bfloat16(dist(rng));
    cq.enqueue_write_mesh_buffer(a_buf, a.data(), false);
    cq.enqueue_write_mesh_buffer(b_buf, b.data(), false);

    // The add is element-wise, so each shard's row-major bytes are added as whole tiles.
    Program program = CreateProgram();
    const CoreCoord core = {0, 0};
    for (auto cb : {CBIndex::c_0, CBIndex::c_1, CBIndex::c_16}) {
        CreateCircularBuffer(program, core,
                             CircularBufferConfig(2 * tile_bytes, {{cb, tt::DataFormat::Float16_b}}).set_page_size(cb, tile_bytes));
    }
    std::vector<uint32_t> reader_ct, writer_ct;
    TensorAccessorArgs(*a_buf).append_to(reader_ct);
    TensorAccessorArgs(*b_buf).append_to(reader_ct);
    TensorAccessorArgs(*c_buf).append_to(writer_ct);
    auto reader = CreateKernel(program, OVERRIDE_KERNEL_PREFIX "contributed/vecadd/kernels/interleaved_tile_read.cpp", core,
                               ReaderDataMovementConfig(reader_ct));
    auto writer = CreateKernel(program, OVERRIDE_KERNEL_PREFIX "contributed/vecadd/kernels/tile_write.cpp", core,
                               WriterDataMovementConfig(writer_ct));
    auto compute = CreateKernel(program, OVERRIDE_KERNEL_PREFIX "contributed/vecadd/kernels/add.cpp", core,
                                ComputeConfig{.math_fidelity = MathFidelity::HiFi4});
    SetRuntimeArgs(program, reader, core, {a_buf->address(), b_buf->address(), shard_tiles});
    SetRuntimeArgs(program, writer, core, {c_buf->address(), shard_tiles});
    SetRuntimeArgs(program, compute, core, {shard_tiles});

    distributed::MeshWorkload workload;
    workload.add_program(distributed::MeshCoordinateRange(mesh_device->shape()), std::move(program));
    auto trace = mesh_device->begin_mesh_trace(0);
    cq.enqueue_mesh_workload(workload, false);
    mesh_device->end_mesh_trace(0, trace);
    mesh_device->replay_mesh_trace(0, trace, false);
    auto done = cq.enqueue_record_event();
    cq.enqueue_wait_for_event(done);
    std::vector<bfloat16> c(H * W);
    cq.enqueue_read_mesh_buffer(c.data(), c_buf, true);
    mesh_device->release_mesh_trace(trace);

    // One shard read back alone matches its part of the global result.
    std::vector<bfloat16> shard(shard_h * shard_w);
    cq.enqueue_read_shards({distributed::ShardDataTransfer(distributed::MeshCoordinate(1, 2)).host_data(shard.data())},
                           c_buf, true);
    bool shard_ok = true;
    for (uint32_t r = 0; shard_ok && r < shard_h; r++)
        for (uint32_t col = 0; col < shard_w; col++)
            shard_ok &= shard[r * shard_w + col].to_uint16() == c[(shard_h + r) * W + 2 * shard_w + col].to_uint16();
    mesh_device->close();

    size_t bad = 0;
    for (size_t i = 0; i < c.size(); i++) {
        float want = static_cast<float>(bfloat16(static_cast<float>(a[i]) + static_cast<float>(b[i])));
        if (std::fabs(want - static_cast<float>(c[i])) > 1e-2f && bad++ < 5)
            fmt::print(stderr, "mismatch at {}: {} != {}\n", i, static_cast<float>(c[i]), want);
    }
    if (bad != 0 || !shard_ok) {
        fmt::print("Test Failed: {} mismatches, shard (1, 2) {}\n", bad, shard_ok ? "matches" : "differs");
        return 1;
    }
    fmt::print("Test Passed\n");
    return 0;
}
