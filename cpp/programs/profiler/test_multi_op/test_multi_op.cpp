// tensim's C++ profiler/test_multi_op: the same program enqueued three times with more work each time (its
// runtime args updated between runs) on core (0,0); each run's zone is reported, and the profiler results
// are read once at the end.
#include <cstdint>

#include <tt-metalium/host_api.hpp>

#ifndef OVERRIDE_KERNEL_PREFIX
#define OVERRIDE_KERNEL_PREFIX ""
#endif

using namespace tt;
using namespace tt::tt_metal;

int main() {
    IDevice* device = CreateDevice(0);
    CommandQueue& cq = device->command_queue();
    InterleavedBufferConfig config{.device = device, .size = 256, .page_size = 256, .buffer_type = BufferType::L1};
    auto scratch = CreateBuffer(config);
    Program program = CreateProgram();
    constexpr CoreCoord core = {0, 0};
    auto kernel = CreateKernel(program, OVERRIDE_KERNEL_PREFIX "profiler/test_multi_op/kernels/multi_op.cpp", core,
                               DataMovementConfig{.processor = DataMovementProcessor::RISCV_0, .noc = NOC::RISCV_0_default});
    for (uint32_t run = 1; run <= 3; run++) {
        SetRuntimeArgs(program, kernel, core, {static_cast<uint32_t>(scratch->address()), 100 * run});
        EnqueueProgram(cq, program, false);
    }
    Finish(cq);
    DumpDeviceProfileResults(device, program);
    CloseDevice(device);
    fmt::print("Test Passed\n");
    return 0;
}
