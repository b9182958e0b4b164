// tensim's C++ add_2_integers_in_compute: one bf16 tile of each operand (uniform in [0, 14)) read from
// DRAM, added on the FPU of one core, packed and written back, checked within 0.3. Classic host API.
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include <tt-metalium/bfloat16.hpp>
#include <tt-metalium/host_api.hpp>

#ifndef OVERRIDE_KERNEL_PREFIX
#define OVERRIDE_KERNEL_PREFIX ""
#endif

using namespace tt;
using namespace tt::tt_metal;

int main() {
    IDevice* device = CreateDevice(0);
    CommandQueue& cq = device->command_queue();
    Program program = CreateProgram();
    constexpr CoreCoord core = {0, 0};
    constexpr uint32_t tile_bytes = sizeof(bfloat16) * constants::TILE_HW;
    InterleavedBufferConfig dram{.device = device, .size = tile_bytes, .page_size = tile_bytes, .buffer_type = BufferType::DRAM};
    auto src0 = CreateBuffer(dram), src1 = CreateBuffer(dram), dst = CreateBuffer(dram);

    std::mt19937 rng(3);
    std::uniform_real_distribution<float> dist(0.0f, 14.0f);
    std::vector<bfloat16> a(constants::TILE_HW), b(constants::TILE_HW);
    for (auto& v : a) v = bfloat16(dist(rng));
    for (auto& v : b) v = bfloat16(dist(rng));
    EnqueueWriteBuffer(cq, src0, a, false);
    EnqueueWriteBuffer(cq, src1, b, false);

    for (auto cb : {CBIndex::c_0, CBIndex::c_1, CBIndex::c_16}) {
        CreateCircularBuffer(program, core,
                             CircularBufferConfig(tile_bytes, {{cb, tt::DataFormat::Float16_b}}).set_page_size(cb, tile_bytes));
    }
    KernelHandle reader = CreateKernel(
        program, OVERRIDE_KERNEL_PREFIX "add_2_integers_in_compute/kernels/dataflow/reader_binary_1_tile.cpp", core,
        ReaderDataMovementConfig{});
    KernelHandle writer = CreateKernel(
        program, OVERRIDE_KERNEL_PREFIX "add_2_integers_in_compute/kernels/dataflow/writer_1_tile.cpp", core,
        WriterDataMovementConfig{});
    CreateKernel(program, OVERRIDE_KERNEL_PREFIX "add_2_integers_in_compute/kernels/compute/add_2_tiles.cpp", core,
                 ComputeConfig{.math_fidelity = MathFidelity::HiFi4, .fp32_dest_acc_en = false, .math_approx_mode = false});
    SetRuntimeArgs(program, reader, core, {src0->address(), src1->address(), 1u, 0u});
    SetRuntimeArgs(program, writer, core, {dst->address(), 1u, 0u});

    EnqueueProgram(cq, program, false);
    Finish(cq);
    std::vector<bfloat16> result;
    EnqueueReadBuffer(cq, dst, result, true);
    CloseDevice(device);

    size_t bad = 0;
    for (size_t i = 0; i < result.size(); i++) {
        float want = static_cast<float>(a[i]) + static_cast<float>(b[i]);
        if (std::fabs(want - static_cast<float>(result[i])) > 0.3f) bad++;
    }
    if (bad != 0 || result.size() != a.size()) {
        fmt::print("Test Failed: {} of {} sums off by more than 0.3\n", bad, result.size());
        return 1;
    }
    fmt::print("Test Passed\n");
    return 0;
}
