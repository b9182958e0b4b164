// tensim's C++ hello world for data types: the host writes one float (1.23) into a 2 KiB DRAM buffer of one
// page and a kernel on core (0,0) reads it back from the NoC coordinates (1, 0) it hard-codes and prints it.
// Those coordinates are DRAM bank 0 only on Grayskull; elsewhere the kernel reads another tile, and tensim
// says so. Classic (pre-mesh) host API.
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
    constexpr uint32_t bytes = 2048;
    InterleavedBufferConfig config{.device = device, .size = bytes, .page_size = bytes, .buffer_type = BufferType::DRAM};
    auto buffer = CreateBuffer(config);
    CreateCircularBuffer(program, core,
                         CircularBufferConfig(bytes, {{CBIndex::c_0, tt::DataFormat::Float16_b}})
                             .set_page_size(CBIndex::c_0, bytes));
    auto kernel = CreateKernel(program,
                               OVERRIDE_KERNEL_PREFIX "hello_world_datatypes_kernel/kernels/dataflow/float_dataflow_kernel.cpp",
                               core, DataMovementConfig{.processor = DataMovementProcessor::RISCV_0, .noc = NOC::RISCV_0_default});
    std::vector<float> value = {1.23f};
    EnqueueWriteBuffer(cq, buffer, value, false);
    SetRuntimeArgs(program, kernel, core, {static_cast<uint32_t>(buffer->address())});
    EnqueueProgram(cq, program, false);
    fmt::print("Hello, Core {{0, 0}} on Device 0, please handle the data.\n");
    Finish(cq);
    fmt::print("Thank you, Core {{0, 0}} on Device 0, for handling the data.\n");
    CloseDevice(device);
    return 0;
}
