// tensim test program: sharded mesh buffers on a 2x4 mesh with replicated dimensions (a shard dimension of 0):
// split over the columns and replicated down the rows, split over the rows and replicated across, and both
// replicated; each device's shard checked with ReadShard, the whole with EnqueueReadMeshBuffer, and a grid
// that fits neither way refused with an error naming it. First the mesh coordinate helpers.
#include <cstdint>
#include <numeric>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/base.h>
#include <tt-metalium/distributed.hpp>
#include <tt-metalium/host_api.hpp>
#include <tt_stl/assert.hpp>

using namespace tt::tt_metal;
using namespace tt::tt_metal::distributed;

int main() {
    auto mesh = MeshDevice::create(MeshDeviceConfig(MeshShape(2, 4)));
    auto& cq = mesh->mesh_command_queue();
    // The coordinate helpers: strides, a coordinate from a span and back, locality, printing.
    {
        const MeshShape& s = mesh->shape();
        const std::vector<uint32_t> xy{1, 2};
        const MeshCoordinate c{tt::stl::Span<const uint32_t>(xy)};
        const auto back = c.coords();
        TT_FATAL(s.get_stride(0) == 4 && s.get_stride(1) == 1 && s == MeshShape(2, 4) && s != MeshShape(4, 2),
                 "mesh shape strides and comparison");
        TT_FATAL(back.size() == 2 && back[0] == 1 && back[1] == 2 && c == MeshCoordinate(1, 2), "coords()");
        TT_FATAL(to_linear_index(s, c) == 6 && mesh->is_local(c) && !mesh->is_local(MeshCoordinate(2, 0)),
                 "locality and linear index");
        TT_FATAL(!UsingDistributedEnvironment(), "one host");
        std::ostringstream os;
        os << c << " " << s;
        TT_FATAL(os.str() == "MeshCoordinate([1, 2]) MeshShape([2, 4])", "printed as {}", os.str());
    }
    constexpr uint32_t H = 16, W = 64;
    std::vector<uint32_t> global(H * W);
    std::iota(global.begin(), global.end(), 1000u);
    size_t bad = 0;
    struct Case {
        uint32_t sh, sw;  // shard shape in elements (0: replicated)
    };
    for (Case c : {Case{0, W / 4}, Case{H / 2, 0}, Case{0, 0}, Case{H / 2, W / 4}}) {
        const uint32_t ph = c.sh ? c.sh : H, pw = c.sw ? c.sw : W;
        distributed::ShardedBufferConfig cfg{.global_size = H * W * 4, .global_buffer_shape = {H, W}, .shard_shape = {c.sh, c.sw}};
        DeviceLocalBufferConfig local{.page_size = pw * 4, .buffer_type = BufferType::DRAM};
        auto buf = MeshBuffer::create(cfg, local, mesh.get());
        auto [rh, rw] = buf->global_shard_spec().replicated_dims();
        if (rh != (c.sh == 0) || rw != (c.sw == 0) || buf->global_shard_spec().physical_shard_shape().h != ph ||
            buf->size() != H * W * 4 || buf->device_local_size() != ph * pw * 4) {
            fmt::print(stderr, "shard ({}, {}): spec or sizes wrong\n", c.sh, c.sw);
            bad++;
        }
        EnqueueWriteMeshBuffer(cq, buf, global, false);
        for (uint32_t r = 0; r < 2; r++) {
            for (uint32_t col = 0; col < 4; col++) {
                std::vector<uint32_t> shard;
                ReadShard(cq, shard, buf, MeshCoordinate(r, col), true);
                const uint32_t r0 = c.sh ? r * ph : 0, c0 = c.sw ? col * pw : 0;
                for (uint32_t i = 0; i < ph; i++) {
                    for (uint32_t j = 0; j < pw; j++) {
                        if (shard.at(i * pw + j) != global[(r0 + i) * W + c0 + j] && bad++ < 10)
                            fmt::print(stderr, "shard ({}, {}) device ({}, {}) [{}, {}]: {} != {}\n", c.sh, c.sw, r, col, i, j,
                                       shard[i * pw + j], global[(r0 + i) * W + c0 + j]);
                    }
                }
            }
        }
        std::vector<uint32_t> back;
        EnqueueReadMeshBuffer(cq, back, buf, true);
        if (back != global) {
            fmt::print(stderr, "shard ({}, {}): the gathered buffer differs\n", c.sh, c.sw);
            bad++;
        }
    }
    // Two shards across four columns, not replicated: refused.
    try {
        distributed::ShardedBufferConfig cfg{.global_size = H * W * 4, .global_buffer_shape = {H, W}, .shard_shape = {0, W / 2}};
        MeshBuffer::create(cfg, DeviceLocalBufferConfig{.page_size = W * 2, .buffer_type = BufferType::DRAM}, mesh.get());
        fmt::print(stderr, "a 1x2 grid of shards on a 2x4 mesh was accepted\n");
        bad++;
    } catch (const std::exception& e) {
        std::string what = e.what();
        if (what.find("1x2 grid of shards") == std::string::npos || what.find("not modelled") == std::string::npos) {
            fmt::print(stderr, "unexpected error: {}\n", what);
            bad++;
        }
    }
    mesh->close();
    if (bad) TT_THROW("Test Failed: {} mismatches", bad);
    fmt::print("Test Passed\n");
}
