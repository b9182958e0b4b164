// tensim's C++ add_2_integers_in_riscv: one data-movement kernel reads two integers from DRAM into L1,
// adds them on the RISC-V through L1 pointers, and writes the sum back. Classic (pre-mesh) host API.
#include <cstdint>
#include <vector>

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

    InterleavedBufferConfig dram{.device = device, .size = 4, .page_size = 4, .buffer_type = BufferType::DRAM};
    InterleavedBufferConfig l1{.device = device, .size = 4, .page_size = 4, .buffer_type = BufferType::L1};
    auto src0 = CreateBuffer(dram), src1 = CreateBuffer(dram), dst = CreateBuffer(dram);
    auto src0_l1 = CreateBuffer(l1), src1_l1 = CreateBuffer(l1), dst_l1 = CreateBuffer(l1);

    std::vector<uint32_t> a{14}, b{7};
    EnqueueWriteBuffer(cq, src0, a, false);
    EnqueueWriteBuffer(cq, src1, b, false);

    KernelHandle k = CreateKernel(program, OVERRIDE_KERNEL_PREFIX "add_2_integers_in_riscv/kernels/reader_writer_add_in_riscv.cpp",
                                  core, DataMovementConfig{.processor = DataMovementProcessor::RISCV_0,
                                                           .noc = NOC::RISCV_0_default});
    SetRuntimeArgs(program, k, core,
                   {src0->address(), src1->address(), dst->address(), src0_l1->address(), src1_l1->address(),
                    dst_l1->address()});
    EnqueueProgram(cq, program, false);
    Finish(cq);

    std::vector<uint32_t> result;
    EnqueueReadBuffer(cq, dst, result, true);
    TT_FATAL(result.size() == 1, "expected one word back, got {}", result.size());
    log_info(tt::LogTest, "14 + 7 = {}", result[0]);
    CloseDevice(device);
    if (result[0] != 21) {
        fmt::print("Test Failed: {} != 21\n", result[0]);
        return 1;
    }
    fmt::print("Test Passed\n");
    return 0;
}
