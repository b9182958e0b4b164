// tensim's test of both API generations at once: a kernel of the one-word TensorAccessorArgs layout (hard-coded
// offsets, a scalar after the accessors), a kernel of today's layout over a sharded buffer whose accessor
// fields are all runtime args, a late-2025 experimental:: object-API kernel, a compute kernel of the fill,
// negative and softplus SFPU calls, and device prints. Every result is checked; the prints are checked by
// the test that runs this program.
#include <cmath>
#include <cstdint>
#include <vector>

#include <fmt/base.h>
#include <tt-metalium/bfloat16.hpp>
#include <tt-metalium/distributed.hpp>
#include <tt-metalium/host_api.hpp>
#include <tt-metalium/tensor_accessor_args.hpp>
#include <tt_stl/assert.hpp>
#include <tt_stl/small_vector.hpp>

using namespace tt;
using namespace tt::tt_metal;

int main() {
    auto mesh = distributed::MeshDevice::create_unit_mesh(0);
    auto& cq = mesh->mesh_command_queue();
    constexpr uint32_t tile = 2048, n = 8;
    distributed::DeviceLocalBufferConfig dram{.page_size = tile, .buffer_type = BufferType::DRAM};
    distributed::ReplicatedBufferConfig whole{.size = n * tile};
    auto a = distributed::MeshBuffer::create(whole, dram, mesh.get());
    auto b = distributed::MeshBuffer::create(whole, dram, mesh.get());
    auto c = distributed::MeshBuffer::create(whole, dram, mesh.get());
    auto d = distributed::MeshBuffer::create(whole, dram, mesh.get());
    auto e = distributed::MeshBuffer::create(distributed::ReplicatedBufferConfig{.size = tile}, dram, mesh.get());
    TT_FATAL(e->global_layout() == distributed::MeshBufferLayout::REPLICATED, "a replicated buffer's layout");
    // 8 tiles height-sharded over 4 cores of L1, 2 tiles each.
    const CoreRangeSet grid(CoreRange({0, 0}, {3, 0}));
    ShardSpecBuffer shards(grid, {64, 32}, ShardOrientation::ROW_MAJOR, {32, 32}, {n, 1});
    distributed::DeviceLocalBufferConfig l1{.page_size = tile,
                                            .buffer_type = BufferType::L1,
                                            .sharding_args = BufferShardingArgs(shards, TensorMemoryLayout::HEIGHT_SHARDED)};
    auto sharded = distributed::MeshBuffer::create(whole, l1, mesh.get());
    {
        // The 2025 spellings of a device-local config: layout and shard spec as members, bottom_up a bool.
        distributed::DeviceLocalBufferConfig l1_2025{.page_size = tile,
                                                     .buffer_type = BufferType::L1,
                                                     .buffer_layout = TensorMemoryLayout::HEIGHT_SHARDED,
                                                     .shard_parameters = shards,
                                                     .bottom_up = false};
        auto old_form = distributed::MeshBuffer::create(whole, l1_2025, mesh.get());
        const auto* dev_buf = old_form->get_device_buffer(distributed::MeshCoordinate(0, 0));
        TT_FATAL(dev_buf->buffer_layout() == TensorMemoryLayout::HEIGHT_SHARDED, "the 2025 config's layout");
        std::vector<uint32_t> probe(n * tile / 4), back;
        for (uint32_t i = 0; i < probe.size(); i++) probe[i] = i * 2654435761u;
        distributed::EnqueueWriteMeshBuffer(cq, old_form, probe, true);
        distributed::EnqueueReadMeshBuffer(cq, back, old_form, true);
        TT_FATAL(back == probe, "a buffer of the 2025 config round-trips");
        // Core (1,0) holds pages 2 and 3.
        std::vector<uint32_t> on_core;
        tt::tt_metal::detail::ReadFromDeviceL1(mesh->get_devices()[0], CoreCoord(1, 0), old_form->address(), tile, on_core);
        TT_FATAL(on_core.size() == tile / 4 && on_core[0] == probe[2 * tile / 4], "page 2 on core (1,0)");
    }
    auto scratch = distributed::MeshBuffer::create(distributed::ReplicatedBufferConfig{.size = tile},
                                                   distributed::DeviceLocalBufferConfig{.page_size = tile, .buffer_type = BufferType::L1},
                                                   mesh.get());
    std::vector<uint32_t> data(n * tile / 4);
    for (uint32_t i = 0; i < data.size(); i++) data[i] = i * 2654435761u + 7;
    distributed::EnqueueWriteMeshBuffer(cq, a, data, false);
    distributed::EnqueueWriteMeshBuffer(cq, sharded, data, false);

    Program program = CreateProgram();
    const CoreCoord core = {0, 1};
    CreateCircularBuffer(program, core, CircularBufferConfig(tile, {{CBIndex::c_0, tt::DataFormat::Float16_b}}).set_page_size(CBIndex::c_0, tile));
    CreateCircularBuffer(program, core, CircularBufferConfig(tile, {{CBIndex::c_1, tt::DataFormat::Float16_b}}).set_page_size(CBIndex::c_1, tile));
    CreateSemaphore(program, core, 0);

    std::vector<uint32_t> one_word;
    TensorAccessorArgs(*a).append_to(one_word);
    TensorAccessorArgs(*b).append_to(one_word);
    one_word.push_back(n);
    auto k0 = CreateKernel(program, "kernels/copy_one_word.cpp", core, ReaderDataMovementConfig(one_word));
    SetRuntimeArgs(program, k0, core, {a->address(), b->address()});

    std::vector<uint32_t> ct, crta;
    TensorAccessorArgs(*sharded, tensor_accessor::ArgConfig::Runtime).append_to(ct, crta);
    TensorAccessorArgs(*c).append_to(ct);
    auto k1 = CreateKernel(program, "kernels/gather_sharded.cpp", CoreCoord{1, 1}, WriterDataMovementConfig(ct));
    SetRuntimeArgs(program, k1, CoreCoord{1, 1}, {sharded->address(), c->address(), scratch->address()});
    SetCommonRuntimeArgs(program, k1, crta);

    std::vector<uint32_t> obj;
    TensorAccessorArgs(*a).append_to(obj);
    TensorAccessorArgs(*d).append_to(obj);
    auto k2 = CreateKernel(program, "kernels/object_2025.cpp", core, WriterDataMovementConfig(obj));
    // Runtime args gathered in a ttsl::SmallVector (what TTNN's program factories use) and passed as a span.
    ttsl::SmallVector<uint32_t, 4> k2_args{static_cast<uint32_t>(a->address())};
    k2_args.push_back(static_cast<uint32_t>(d->address()));
    SetRuntimeArgs(program, k2, core, tt::stl::Span<const uint32_t>(k2_args.data(), k2_args.size()));

    const CoreCoord sfpu_core = {3, 1};
    CreateCircularBuffer(program, sfpu_core,
                         CircularBufferConfig(tile, {{CBIndex::c_16, tt::DataFormat::Float16_b}}).set_page_size(CBIndex::c_16, tile));
    CreateKernel(program, "kernels/fill_softplus.cpp", sfpu_core, ComputeConfig{});
    std::vector<uint32_t> e_args;
    TensorAccessorArgs(*e).append_to(e_args);
    auto k3 = CreateKernel(program, "kernels/write_one_tile.cpp", sfpu_core, WriterDataMovementConfig(e_args));
    SetRuntimeArgs(program, k3, sfpu_core, {e->address()});

    CreateKernel(program, "kernels/prints.cpp", CoreCoord{2, 1}, ReaderDataMovementConfig());
    CreateKernel(program, "kernels/prints.cpp", CoreCoord{2, 1}, WriterDataMovementConfig());

    distributed::MeshWorkload workload;
    workload.add_program(distributed::MeshCoordinateRange(mesh->shape()), std::move(program));
    distributed::EnqueueMeshWorkload(cq, workload, false);
    auto done = distributed::EnqueueRecordEventToHost(cq);
    TT_FATAL(distributed::EventQuery(done), "the workload's event was not reached");
    std::vector<uint32_t> gb, gc, gd;
    std::vector<bfloat16> ge;
    distributed::EnqueueReadMeshBuffer(cq, ge, e, true);
    distributed::EnqueueReadMeshBuffer(cq, gb, b, true);
    distributed::EnqueueReadMeshBuffer(cq, gc, c, true);
    distributed::EnqueueReadMeshBuffer(cq, gd, d, true);
    mesh->close();
    TT_FATAL(gb == data, "the one-word-layout copy differs");
    TT_FATAL(gc == data, "the sharded gather differs");
    TT_FATAL(std::equal(gd.begin(), gd.begin() + tile / 4, data.begin()), "the object-API copy differs");
    const float want = std::log1p(std::exp(-2.5f));
    for (const auto& v : ge) {
        TT_FATAL(std::fabs(v.to_float() - want) < 0.01f * want, "softplus(-2.5) gave {}, not {}", v.to_float(), want);
    }
    fmt::print("Test Passed\n");
    return 0;
}
