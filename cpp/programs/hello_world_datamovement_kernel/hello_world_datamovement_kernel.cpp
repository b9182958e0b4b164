// tensim's C++ hello world for data-movement kernels: the same kernel on both data-movement RISCs of core
// (0,0) prints its logical coordinates. Classic (pre-mesh) host API.
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
    const std::string kernel = OVERRIDE_KERNEL_PREFIX "hello_world_datamovement_kernel/kernels/dataflow/void_dataflow_kernel.cpp";
    CreateKernel(program, kernel, core,
                 DataMovementConfig{.processor = DataMovementProcessor::RISCV_0, .noc = NOC::RISCV_0_default});
    CreateKernel(program, kernel, core,
                 DataMovementConfig{.processor = DataMovementProcessor::RISCV_1, .noc = NOC::RISCV_1_default});
    fmt::print("Hello, Core {{0, 0}} on Device 0, I am sending you some data. Standby awaiting communication.\n");
    EnqueueProgram(cq, program, false);
    fmt::print("Waiting until the program finishes...\n");
    Finish(cq);
    fmt::print("Thank you, Core {{0, 0}} on Device 0, for the completed task.\n");
    CloseDevice(device);
    return 0;
}
