// tensim test program: one program run three times on an IDevice, its circular buffers living in sharded L1
// buffers (globally allocated CBs) that are swapped between runs (UpdateDynamicCircularBufferAddress), with
// its common runtime args changed in place (GetCommonRuntimeArgs), a reader kernel given as a string
// (CreateKernelFromString), the slow-dispatch calls (detail::WriteToBuffer / LaunchProgram / ReadFromBuffer)
// beside the command-queue ones, a buffer deallocated and replaced between runs, and a circular buffer's page
// and total sizes updated between runs (UpdateCircularBufferPageSize / UpdateCircularBufferTotalSize); then
// raw DRAM channel and Ethernet L1 reads and writes (detail::*DeviceDRAMChannel, *DeviceL1 with CoreType::ETH).
#include <cmath>
#include <cstdint>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include <fmt/base.h>
#include <tt-metalium/bfloat16.hpp>
#include <tt-metalium/constants.hpp>
#include <tt-metalium/host_api.hpp>
#include <tt-metalium/device.hpp>
#include <tt_stl/assert.hpp>

using namespace tt;
using namespace tt::tt_metal;

namespace {
constexpr uint32_t cores = 2, tiles_per_core = 2, n_tiles = cores * tiles_per_core;
constexpr uint32_t tile_bytes = sizeof(bfloat16) * constants::TILE_HW;

std::shared_ptr<Buffer> sharded(IDevice* device, const CoreRangeSet& grid) {
    ShardSpecBuffer spec(grid, {tiles_per_core * constants::TILE_HEIGHT, constants::TILE_WIDTH}, ShardOrientation::ROW_MAJOR,
                         {constants::TILE_HEIGHT, constants::TILE_WIDTH}, {n_tiles, 1});
    return CreateBuffer(ShardedBufferConfig{.device = device, .size = n_tiles * tile_bytes, .page_size = tile_bytes,
                                            .buffer_type = BufferType::L1, .buffer_layout = TensorMemoryLayout::HEIGHT_SHARDED,
                                            .shard_parameters = spec});
}

std::vector<bfloat16> random_tiles(uint32_t seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> dist(-2.0f, 2.0f);
    std::vector<bfloat16> v(n_tiles * constants::TILE_HW);
    for (auto& x : v) x = bfloat16(dist(rng));
    return v;
}

size_t check(const char* run, const std::vector<bfloat16>& in, const std::vector<bfloat16>& out, bool square) {
    size_t bad = 0;
    if (out.size() != in.size()) {
        fmt::print(stderr, "{}: read {} values, expected {}\n", run, out.size(), in.size());
        return 1;
    }
    for (size_t i = 0; i < in.size(); i++) {
        float x = static_cast<float>(in[i]);
        float want = square ? x * x : x + x;
        if (std::fabs(static_cast<float>(out[i]) - want) > 0.02f * std::max(1.0f, std::fabs(want)) && bad++ < 5)
            fmt::print(stderr, "{} [{}]: {} != {}\n", run, i, static_cast<float>(out[i]), want);
    }
    return bad;
}
}  // namespace

int main() {
    IDevice* device = CreateDevice(0);
    CommandQueue& cq = device->command_queue();
    const CoreRange range({0, 0}, {cores - 1, 0});
    const CoreRangeSet grid(range);
    auto in_a = sharded(device, grid), out_a = sharded(device, grid);
    auto in_b = sharded(device, grid), out_b = sharded(device, grid);

    Program program = CreateProgram();
    auto cb_in = CreateCircularBuffer(program, range,
                                      CircularBufferConfig(tiles_per_core * tile_bytes, {{CBIndex::c_0, DataFormat::Float16_b}})
                                          .set_page_size(CBIndex::c_0, tile_bytes)
                                          .set_globally_allocated_address(*in_a));
    auto cb_out = CreateCircularBuffer(program, range,
                                       CircularBufferConfig(tiles_per_core * tile_bytes, {{CBIndex::c_16, DataFormat::Float16_b}})
                                           .set_page_size(CBIndex::c_16, tile_bytes)
                                           .set_globally_allocated_address(*out_a));
    // The shard is already in the CB: the reader only announces it.
    const std::string reader_src = R"(
#include <cstdint>
#include "api/dataflow/dataflow_api.h"
void kernel_main() {
    cb_push_back(tt::CBIndex::c_0, get_arg_val<uint32_t>(0));
}
)";
    auto reader = CreateKernelFromString(program, reader_src, range, ReaderDataMovementConfig{});
    auto writer = CreateKernel(program, "program_reuse/kernels/wait_out.cpp", range, WriterDataMovementConfig{});
    auto compute = CreateKernel(program, "program_reuse/kernels/twice_or_square.cpp", range, ComputeConfig{});
    for (uint32_t x = 0; x < cores; x++) {
        SetRuntimeArgs(program, reader, CoreCoord{x, 0}, {tiles_per_core});
        SetRuntimeArgs(program, writer, CoreCoord{x, 0}, {tiles_per_core});
        SetRuntimeArgs(program, compute, CoreCoord{x, 0}, {tiles_per_core});
    }
    SetCommonRuntimeArgs(program, compute, {0});  // 0: x + x, 1: x * x

    // A probe on another core reports a circular buffer's page size and page count into DRAM each run.
    const CoreCoord probe_core{cores, 0};
    auto cb_probe = CreateCircularBuffer(program, probe_core,
                                         CircularBufferConfig(2048, {{CBIndex::c_5, DataFormat::Float16_b}}).set_page_size(CBIndex::c_5, 1024));
    auto probe_out = CreateBuffer(InterleavedBufferConfig{.device = device, .size = 64, .page_size = 64, .buffer_type = BufferType::DRAM});
    const std::string probe_src = R"(
#include <cstdint>
#include "api/dataflow/dataflow_api.h"
#include "api/dataflow/dataflow_buffer.h"
void kernel_main() {
    DataflowBuffer dfb(5);
    dfb.reserve_back(1);
    uint32_t l1 = dfb.get_write_ptr();
    volatile uint32_t* w = reinterpret_cast<volatile uint32_t*>(l1);
    w[0] = dfb.get_entry_size();
    w[1] = dfb.get_total_num_entries();
    noc_async_write(l1, get_noc_addr_from_bank_id<true>(0, get_arg_val<uint32_t>(0)), 64);
    noc_async_write_barrier();
}
)";
    auto probe = CreateKernelFromString(program, probe_src, probe_core, WriterDataMovementConfig{});
    SetRuntimeArgs(program, probe, probe_core, {static_cast<uint32_t>(probe_out->address())});
    auto probed = [&](uint32_t run, uint32_t page, uint32_t pages) {
        std::vector<uint32_t> got;
        detail::ReadFromBuffer(probe_out, got);
        if (got.size() < 2 || got[0] != page || got[1] != pages) {
            fmt::print(stderr, "run {}: the probe saw pages of {} bytes x {}, expected {} x {}\n", run, got.at(0), got.at(1), page, pages);
            return size_t{1};
        }
        return size_t{0};
    };

    size_t bad = 0;
    // Run 1, slow dispatch: x + x in buffers a.
    auto x1 = random_tiles(1);
    detail::WriteToBuffer(in_a, x1);
    detail::LaunchProgram(device, program);
    std::vector<bfloat16> y1;
    detail::ReadFromBuffer(out_a, y1);
    bad += check("run 1", x1, y1, false);
    bad += probed(1, 1024, 2);
    // The probe's circular buffer: smaller pages, then a bigger buffer; a page size that does not divide it
    // is refused.
    UpdateCircularBufferPageSize(program, cb_probe, CBIndex::c_5, 512);
    try {
        UpdateCircularBufferPageSize(program, cb_probe, CBIndex::c_5, 3000);
        fmt::print(stderr, "a page size of 3000 bytes in a 2048-byte circular buffer was accepted\n");
        bad++;
    } catch (const std::exception& e) {
        if (std::string(e.what()).find("does not divide") == std::string::npos) {
            fmt::print(stderr, "unexpected error: {}\n", e.what());
            bad++;
        }
    }

    // Run 2, command queue: x * x in buffers b.
    UpdateDynamicCircularBufferAddress(program, cb_in, *in_b);
    UpdateDynamicCircularBufferAddress(program, cb_out, *out_b);
    GetCommonRuntimeArgs(program, compute)[0] = 1;
    auto x2 = random_tiles(2);
    EnqueueWriteBuffer(cq, in_b, x2, false);
    EnqueueProgram(cq, program, false);
    std::vector<bfloat16> y2;
    EnqueueReadBuffer(cq, out_b, y2, true);
    bad += check("run 2", x2, y2, true);
    bad += probed(2, 512, 4);
    UpdateCircularBufferTotalSize(program, cb_probe, 4096);

    // Run 3: buffer a's input freed and replaced, x + x again, one tile per core (the runtime args changed in
    // place; the CB keeps its size).
    DeallocateBuffer(*in_a);
    auto in_c = sharded(device, grid);
    UpdateDynamicCircularBufferAddress(program, cb_in, *in_c);
    UpdateDynamicCircularBufferAddress(program, cb_out, *out_a);
    GetCommonRuntimeArgs(program, compute)[0] = 0;
    for (uint32_t x = 0; x < cores; x++) {
        for (auto k : {reader, writer, compute}) GetRuntimeArgs(program, k, CoreCoord{x, 0})[0] = 1;
    }
    auto x3 = random_tiles(3);
    EnqueueWriteBuffer(cq, in_c, x3, false);
    std::vector<bfloat16> before;
    EnqueueReadBuffer(cq, out_a, before, true);  // run 1's results
    EnqueueProgram(cq, program, false);
    Finish(cq);
    std::vector<bfloat16> y3;
    EnqueueReadBuffer(cq, out_a, y3, true);
    // The first tile of each shard is new (x3 doubled); the second is still run 1's.
    std::vector<bfloat16> in3 = x3, want_rest = y1;
    size_t bad3 = 0;
    for (uint32_t t = 0; t < n_tiles; t++) {
        for (uint32_t i = 0; i < constants::TILE_HW; i++) {
            size_t k = t * constants::TILE_HW + i;
            float got = static_cast<float>(y3[k]);
            float want = t % tiles_per_core == 0 ? 2.0f * static_cast<float>(x3[k]) : static_cast<float>(before[k]);
            if (std::fabs(got - want) > 0.02f * std::max(1.0f, std::fabs(want)) && bad3++ < 5)
                fmt::print(stderr, "run 3 tile {} [{}]: {} != {}\n", t, i, got, want);
        }
    }
    bad += bad3;
    bad += probed(3, 512, 8);
    // Raw memory: a DRAM channel's address space, and an Ethernet core's L1 (which is not worker (0, 0)'s).
    std::vector<uint32_t> words(64), back;
    std::iota(words.begin(), words.end(), 0xD0000000u);
    detail::WriteToDeviceDRAMChannel(device, 1, 0x30000000, words);
    detail::ReadFromDeviceDRAMChannel(device, 1, 0x30000000, 256, back);
    if (back != words) {
        fmt::print(stderr, "DRAM channel 1 did not read back what was written\n");
        bad++;
    }
    std::vector<uint32_t> worker_before, worker_after, eth_back;
    detail::ReadFromDeviceL1(device, CoreCoord{0, 0}, 0x10000, 256, worker_before);
    detail::WriteToDeviceL1(device, CoreCoord{0, 0}, 0x10000, words, CoreType::ETH);
    detail::ReadFromDeviceL1(device, CoreCoord{0, 0}, 0x10000, 256, eth_back, CoreType::ETH);
    detail::ReadFromDeviceL1(device, CoreCoord{0, 0}, 0x10000, 256, worker_after);
    if (eth_back != words || worker_after != worker_before) {
        fmt::print(stderr, "Ethernet L1: read back {}, worker L1 {}\n", eth_back == words ? "right" : "wrong",
                   worker_after == worker_before ? "untouched" : "changed");
        bad++;
    }
    for (int channel : {-1, 1000}) {
        try {
            detail::WriteToDeviceDRAMChannel(device, channel, 0, words);
            fmt::print(stderr, "DRAM channel {} was accepted\n", channel);
            bad++;
        } catch (const std::exception& e) {
            if (std::string(e.what()).find("DRAM channel") == std::string::npos) {
                fmt::print(stderr, "unexpected error: {}\n", e.what());
                bad++;
            }
        }
    }
    CloseDevice(device);
    if (bad) TT_THROW("Test Failed: {} mismatches", bad);
    fmt::print("Test Passed\n");
}
