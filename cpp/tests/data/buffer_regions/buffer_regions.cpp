// tensim test program: buffers at a given address and regions of buffers. On an IDevice: a DRAM buffer
// written whole and then in part (EnqueueWriteSubBuffer), read in part through a second buffer created at
// its address (CreateBuffer(config, address)); a kernel that fills an L1 buffer through such a view; a
// sharded view of a sharded buffer; freeing a view leaves the memory to its owner; misplaced views and
// regions are refused with an error. On a mesh: a MeshBuffer at another's address, and shard transfers of a
// region in both the 2026 (fluent) and the 2025 (aggregate) forms.
#include <cstdint>
#include <numeric>
#include <stdexcept>
#include <string>
#include <vector>

#include <fmt/base.h>
#include <tt-metalium/distributed.hpp>
#include <tt-metalium/host_api.hpp>
#include <tt-metalium/device.hpp>
#include <tt-metalium/tensor_accessor_args.hpp>
#include <tt_stl/assert.hpp>

using namespace tt;
using namespace tt::tt_metal;

namespace {
size_t bad = 0;

void expect(bool ok, const std::string& what) {
    if (!ok && bad++ < 20) fmt::print(stderr, "{}\n", what);
}

// `f` must throw an error whose message contains `needle`.
template <typename F>
void expect_error(const char* what, const char* needle, F f) {
    try {
        f();
        expect(false, fmt::format("{}: no error", what));
    } catch (const std::exception& e) {
        expect(std::string(e.what()).find(needle) != std::string::npos,
               fmt::format("{}: the error `{}` does not say `{}`", what, e.what(), needle));
    }
}

void classic() {
    constexpr uint32_t page = 1024, pages = 12, words = page / 4;
    IDevice* device = CreateDevice(0);
    CommandQueue& cq = device->command_queue();
    InterleavedBufferConfig cfg{.device = device, .size = pages * page, .page_size = page, .buffer_type = BufferType::DRAM};
    auto a = CreateBuffer(cfg);
    std::vector<uint32_t> zeros(pages * words, 0);
    EnqueueWriteBuffer(cq, a, zeros, true);
    std::vector<uint32_t> mid(5 * words);
    std::iota(mid.begin(), mid.end(), 1000u);
    EnqueueWriteSubBuffer(cq, a, mid, BufferRegion(3 * page, 5 * page), true);

    auto view = CreateBuffer(cfg, a->address());
    expect(view->address() == a->address(), "the view is not at the buffer's address");
    std::vector<uint32_t> part;
    EnqueueReadSubBuffer(cq, view, part, BufferRegion(2 * page, 4 * page), true);
    expect(part.size() == 4 * words, fmt::format("sub-buffer read gave {} words", part.size()));
    for (uint32_t i = 0; i < part.size(); i++) {
        uint32_t want = i < words ? 0 : 1000 + i - words;
        expect(part[i] == want, fmt::format("view word {}: {} != {}", i, part[i], want));
    }
    // Freeing the view does not free the owner's memory: a new buffer goes elsewhere, the owner keeps its data.
    DeallocateBuffer(*view);
    auto other = CreateBuffer(cfg);
    expect(other->address() != a->address(), "a buffer was allocated over a live one after freeing a view of it");
    std::vector<uint32_t> all;
    EnqueueReadBuffer(cq, a, all, true);
    expect(all.size() == pages * words && all[3 * words] == 1000 && all[8 * words - 1] == 1000 + 5 * words - 1,
           "the owner's data changed when a view of it was freed");

    // A kernel fills an L1 buffer through a view of it.
    InterleavedBufferConfig l1cfg{.device = device, .size = 6 * page, .page_size = page, .buffer_type = BufferType::L1};
    auto b = CreateBuffer(l1cfg);
    auto b_view = CreateBuffer(l1cfg, b->address());
    Program program = CreateProgram();
    CoreCoord core{0, 0};
    CreateCircularBuffer(program, core, CircularBufferConfig(page, {{CBIndex::c_0, DataFormat::Float16_b}}).set_page_size(CBIndex::c_0, page));
    std::vector<uint32_t> ct;
    TensorAccessorArgs(*b_view).append_to(ct);
    auto k = CreateKernel(program, "buffer_regions/kernels/fill.cpp", core,
                          DataMovementConfig{.processor = DataMovementProcessor::RISCV_0, .noc = NOC::RISCV_0_default, .compile_args = ct});
    SetRuntimeArgs(program, k, core, {b_view->address(), 6u});
    EnqueueProgram(cq, program, true);
    std::vector<uint32_t> got;
    EnqueueReadBuffer(cq, b, got, true);
    for (uint32_t i = 0; i < got.size(); i++) {
        expect(got[i] == (i / words) * 100000 + i % words, fmt::format("L1 word {}: {}", i, got[i]));
    }

    // A sharded view of a sharded buffer.
    CoreRangeSet grid(CoreRange({0, 0}, {1, 0}));
    ShardSpecBuffer spec(grid, {64, 32}, ShardOrientation::ROW_MAJOR, {32, 32}, {4, 1});
    ShardedBufferConfig scfg{.device = device, .size = 4 * 2048, .page_size = 2048, .buffer_type = BufferType::L1,
                             .buffer_layout = TensorMemoryLayout::HEIGHT_SHARDED, .shard_parameters = spec};
    auto s = CreateBuffer(scfg);
    std::vector<uint32_t> sv(4 * 512);
    std::iota(sv.begin(), sv.end(), 7u);
    EnqueueWriteBuffer(cq, s, sv, true);
    auto s_view = CreateBuffer(scfg, s->address());
    std::vector<uint32_t> s_part;
    EnqueueReadSubBuffer(cq, s_view, s_part, BufferRegion(2048, 2 * 2048), true);
    for (uint32_t i = 0; i < s_part.size(); i++) expect(s_part[i] == 7 + 512 + i, fmt::format("shard word {}", i));

    // Misplaced views and regions.
    expect_error("a view off the bank alignment", "alignment", [&] { CreateBuffer(cfg, a->address() + 4); });
    expect_error("a view past the banks' end", "buffer space", [&] { CreateBuffer(cfg, uint64_t(1) << 40); });
    expect_error("a region not in whole pages", "whole", [&] {
        std::vector<uint32_t> v;
        EnqueueReadSubBuffer(cq, a, v, BufferRegion(100, page), true);
    });
    expect_error("a region past the buffer", "inside", [&] {
        EnqueueWriteSubBuffer(cq, a, mid, BufferRegion(10 * page, 5 * page), true);
    });
    CloseDevice(device);
}

void mesh() {
    constexpr uint32_t page = 1024, pages = 8, words = page / 4;
    auto mesh = distributed::MeshDevice::create_unit_mesh(0);
    auto& cq = mesh->mesh_command_queue();
    distributed::DeviceLocalBufferConfig local{.page_size = page, .buffer_type = BufferType::DRAM};
    distributed::ReplicatedBufferConfig whole{.size = pages * page};
    auto m = distributed::MeshBuffer::create(whole, local, mesh.get());
    auto alias = distributed::MeshBuffer::create(whole, local, mesh.get(), m->address());
    expect(alias->address() == m->address(), "the mesh view is not at the buffer's address");
    std::vector<uint32_t> v(pages * words);
    std::iota(v.begin(), v.end(), 0u);
    distributed::EnqueueWriteMeshBuffer(cq, m, v, true);
    std::vector<uint32_t> part(2 * words, 0xabcd0000u);
    const distributed::MeshCoordinate at(0, 0);
    cq.enqueue_write_shards(alias, {distributed::ShardDataTransfer(at).host_data(part.data()).region(BufferRegion(4 * page, 2 * page))}, true);
    std::vector<uint32_t> got;
    distributed::EnqueueReadMeshBuffer(cq, got, m, true);
    for (uint32_t i = 0; i < got.size(); i++) {
        uint32_t want = (i >= 4 * words && i < 6 * words) ? 0xabcd0000u : i;
        expect(got[i] == want, fmt::format("mesh word {}: {:#x} != {:#x}", i, got[i], want));
    }
    std::vector<uint32_t> back(words, 0);
    cq.enqueue_read_shards({distributed::MeshCommandQueue::ShardDataTransfer{at, back.data(), BufferRegion(7 * page, page)}}, alias, true);
    for (uint32_t i = 0; i < words; i++) expect(back[i] == 7 * words + i, fmt::format("mesh region word {}", i));
    mesh->close();
}
}  // namespace

int main() {
    classic();
    mesh();
    if (bad) TT_THROW("Test Failed: {} mismatches", bad);
    fmt::print("Test Passed\n");
}
