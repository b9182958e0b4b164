// tensim test program: C = A + B on bf16 tiles in DRAM, split over a 2x2 block of cores. The reader builds
// its accessors as a tuple from chained args (make_tensor_accessor_args_tuple / make_tensor_accessor_tuple)
// and reads A through a type-erased wrapper and through state-based reads, B through a PageView with a
// transaction id; the writer drains a DataflowBuffer with posted writes on a chosen VC. Output and page
// counts are checked on the host.
#include <cstdint>
#include <random>
#include <vector>

#include <fmt/base.h>
#include <tt-metalium/bfloat16.hpp>
#include <tt-metalium/constants.hpp>
#include <tt-metalium/distributed.hpp>
#include <tt-metalium/host_api.hpp>
#include <tt-metalium/tensor_accessor_args.hpp>
#include <tt-metalium/work_split.hpp>
#include <tt_stl/assert.hpp>

using namespace tt;
using namespace tt::tt_metal;

int main() {
    constexpr uint32_t n_tiles = 21;
    constexpr uint32_t tile_bytes = sizeof(bfloat16) * constants::TILE_HW;
    auto mesh = distributed::MeshDevice::create_unit_mesh(0);
    auto& cq = mesh->mesh_command_queue();
    distributed::DeviceLocalBufferConfig dram{.page_size = tile_bytes, .buffer_type = BufferType::DRAM};
    distributed::ReplicatedBufferConfig whole{.size = n_tiles * tile_bytes};
    auto a = distributed::MeshBuffer::create(whole, dram, mesh.get());
    auto b = distributed::MeshBuffer::create(whole, dram, mesh.get());
    auto c = distributed::MeshBuffer::create(whole, dram, mesh.get());
    distributed::DeviceLocalBufferConfig small{.page_size = 128, .buffer_type = BufferType::DRAM};
    auto counts = distributed::MeshBuffer::create(distributed::ReplicatedBufferConfig{.size = 4 * 128}, small, mesh.get());

    std::mt19937 rng(23);
    std::uniform_real_distribution<float> dist(-3.0f, 3.0f);
    std::vector<bfloat16> va(n_tiles * constants::TILE_HW), vb(va.size());
    for (auto& v : va) v = bfloat16(dist(rng));
    for (auto& v : vb) v = bfloat16(dist(rng));
    distributed::EnqueueWriteMeshBuffer(cq, a, va, false);
    distributed::EnqueueWriteMeshBuffer(cq, b, vb, false);

    Program program = CreateProgram();
    auto [num_cores, all, g1, g2, n1, n2] = split_work_to_cores(CoreCoord{2, 2}, n_tiles);
    for (auto [id, pages] : {std::pair{CBIndex::c_0, 2u}, std::pair{CBIndex::c_1, 2u}, std::pair{CBIndex::c_16, 3u}}) {
        CreateCircularBuffer(program, all, CircularBufferConfig(pages * tile_bytes, {{id, DataFormat::Float16_b}}).set_page_size(id, tile_bytes));
    }
    CreateCircularBuffer(program, all, CircularBufferConfig(128, {{CBIndex::c_17, DataFormat::Float16_b}}).set_page_size(CBIndex::c_17, 128));
    std::vector<uint32_t> rct;
    TensorAccessorArgs(*a).append_to(rct);
    TensorAccessorArgs(*b).append_to(rct);
    std::vector<uint32_t> wct;
    TensorAccessorArgs(*c).append_to(wct);
    TensorAccessorArgs(*counts).append_to(wct);
    auto reader = CreateKernel(program, "pair_add/kernels/reader.cpp", all, ReaderDataMovementConfig(rct));
    auto writer = CreateKernel(program, "pair_add/kernels/writer.cpp", all, WriterDataMovementConfig(wct));
    auto compute = CreateKernel(program, "pair_add/kernels/add.cpp", all, ComputeConfig{});
    uint32_t first = 0, slot = 0;
    for (const auto& [group, n] : {std::pair{g1, n1}, std::pair{g2, n2}}) {
        for (const auto& range : group.ranges()) {
            for (const auto& core : range) {
                SetRuntimeArgs(program, reader, core, {a->address(), b->address(), first, n});
                SetRuntimeArgs(program, writer, core, {c->address(), counts->address(), first, n, slot++});
                SetRuntimeArgs(program, compute, core, {n});
                first += n;
            }
        }
    }
    TT_FATAL(first == n_tiles && slot == num_cores, "split {} tiles over {} cores", first, slot);
    distributed::MeshWorkload w;
    w.add_program(distributed::MeshCoordinateRange(mesh->shape()), std::move(program));
    distributed::EnqueueMeshWorkload(cq, w, false);
    std::vector<bfloat16> vc;
    distributed::EnqueueReadMeshBuffer(cq, vc, c, true);
    std::vector<uint32_t> got;
    distributed::EnqueueReadMeshBuffer(cq, got, counts, true);
    mesh->close();

    size_t bad = 0;
    for (size_t i = 0; i < vc.size(); i++) {
        bfloat16 want(static_cast<float>(va[i]) + static_cast<float>(vb[i]));
        if (std::fabs(static_cast<float>(vc[i]) - static_cast<float>(want)) > 0.02f * std::max(1.0f, std::fabs(static_cast<float>(want))) && bad++ < 5)
            fmt::print(stderr, "{}: {} != {}\n", i, static_cast<float>(vc[i]), static_cast<float>(want));
    }
    // Per core: tiles written, the DataflowBuffer's entry size, entries and bytes, and the count word page.
    for (uint32_t s = 0; s < num_cores; s++) {
        const uint32_t* r = &got[s * 32];
        uint32_t n = s < g1.num_cores() ? n1 : n2;
        const uint32_t want[] = {n, tile_bytes, 3, 3 * tile_bytes, 128, 1, 128, 0};
        for (uint32_t k = 0; k < 8; k++) {
            if (r[k] != want[k] && bad++ < 20) fmt::print(stderr, "core {} word {}: {} != {}\n", s, k, r[k], want[k]);
        }
        // The second half of the page, written with a byte offset through an address generator.
        for (uint32_t k = 16; k < 32; k++) {
            if (r[k] != 0x0FF5E700 + k && bad++ < 20) fmt::print(stderr, "core {} word {}: {:#x}\n", s, k, r[k]);
        }
    }
    if (bad) TT_THROW("Test Failed: {} mismatches", bad);
    fmt::print("Test Passed\n");
}
