// tensim's C++ distributed buffer read/write, in today's TT-Metalium API: on a 2x4 mesh, a bf16 tensor sharded
// over the devices (written whole, read back whole and shard by shard) and a replicated buffer (written once,
// read back from every device). Run without --system it takes the smallest built-in system with a 2x4 mesh.
#include <cstdint>
#include <vector>

#include <fmt/base.h>
#include <tt-metalium/allocator.hpp>
#include <tt-metalium/bfloat16.hpp>
#include <tt-metalium/distributed.hpp>
#include <tt-metalium/host_api.hpp>
#include <tt-metalium/mesh_config.hpp>
#include <tt-metalium/tt_align.hpp>
#include <tt_stl/assert.hpp>

using namespace tt;
using namespace tt::tt_metal;

int main() {
    auto mesh_device = distributed::MeshDevice::create(distributed::MeshDeviceConfig(distributed::MeshShape(2, 4)));
    distributed::MeshCommandQueue& cq = mesh_device->mesh_command_queue();
    const uint32_t align = mesh_device->allocator()->get_alignment(BufferType::DRAM);

    // A 64 x 256 tensor of bf16 sharded 32 x 64 per device, pages of one row of a shard.
    constexpr uint32_t H = 64, W = 256, shard_h = H / 2, shard_w = W / 4;
    const uint32_t page = tt::align(shard_w * sizeof(bfloat16), align);
    distributed::DeviceLocalBufferConfig dram{.page_size = page, .buffer_type = BufferType::DRAM, .bottom_up = false};
    distributed::ShardedBufferConfig sharded{.global_size = H * W * sizeof(bfloat16),
                                             .global_buffer_shape = {H, W * sizeof(bfloat16)},
                                             .shard_shape = {shard_h, shard_w * sizeof(bfloat16)}};
    auto buf = distributed::MeshBuffer::create(sharded, dram, mesh_device.get());
    std::vector<bfloat16> data(H * W);
    for (uint32_t i = 0; i < data.size(); i++) data[i] = bfloat16(static_cast<float>(i % 251));
    distributed::EnqueueWriteMeshBuffer(cq, buf, data, false);
    std::vector<bfloat16> back;
    distributed::EnqueueReadMeshBuffer(cq, back, buf, true);
    TT_FATAL(back.size() == data.size(), "read back {} values of {}", back.size(), data.size());
    size_t bad = 0;
    for (size_t i = 0; i < data.size(); i++) bad += back[i].to_uint16() != data[i].to_uint16();
    for (const auto& coord : distributed::MeshCoordinateRange(mesh_device->shape())) {
        std::vector<bfloat16> shard;
        distributed::ReadShard(cq, shard, buf, coord);
        for (uint32_t r = 0; r < shard_h; r++)
            for (uint32_t col = 0; col < shard_w; col++)
                bad += shard[r * shard_w + col].to_uint16() !=
                       data[(coord[0] * shard_h + r) * W + coord[1] * shard_w + col].to_uint16();
    }

    // A replicated buffer: the same bytes on every device.
    distributed::ReplicatedBufferConfig replicated{.size = 4096};
    distributed::DeviceLocalBufferConfig l1{.page_size = 1024, .buffer_type = BufferType::L1};
    auto rep = distributed::MeshBuffer::create(replicated, l1, mesh_device.get());
    std::vector<uint32_t> words(1024);
    for (uint32_t i = 0; i < words.size(); i++) words[i] = i * 2654435761u;
    distributed::EnqueueWriteMeshBuffer(cq, rep, words, true);
    for (const auto& coord : distributed::MeshCoordinateRange(mesh_device->shape())) {
        std::vector<uint32_t> got;
        distributed::ReadShard(cq, got, rep, coord);
        bad += got != words;
    }
    mesh_device->close();
    if (bad != 0) TT_THROW("Test Failed: {} values differ", bad);
    fmt::print("Test Passed: the sharded tensor and the replicated buffer read back on all {} devices\n",
               mesh_device->num_devices());
    return 0;
}
