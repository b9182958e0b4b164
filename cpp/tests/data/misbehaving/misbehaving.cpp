// tensim's test of user C++ that misbehaves: argv[1] names what goes wrong (a kernel's bad pointer, stack
// overflow, trap, exception, exit, division by zero, endless spin or poll; the host's null pointer or
// exit), and tensim must end the run with exit code 1 (the host's exit: its own code) and one message
// naming the culprit.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include <tt-metalium/host_api.hpp>

using namespace tt::tt_metal;

int main(int argc, char** argv) {
    const std::string what = argc > 1 ? argv[1] : "";
    if (what == "host_null") {
        volatile int* p = nullptr;
        std::printf("the host dereferences a null pointer\n");
        return *p;
    }
    if (what == "host_exit") {
        std::printf("the host calls exit(3)\n");
        std::exit(3);
    }
    IDevice* device = CreateDevice(0);
    Program program = CreateProgram();
    const CoreCoord core = {0, 0};
    CreateCircularBuffer(program, core,
                         CircularBufferConfig(2048, {{tt::CBIndex::c_0, tt::DataFormat::Float16_b}}).set_page_size(tt::CBIndex::c_0, 2048));
    const std::string file = "kernels/" + what + ".cpp";
    auto k = CreateKernel(program, file, core, DataMovementConfig{.processor = DataMovementProcessor::RISCV_0});
    SetRuntimeArgs(program, k, core, {argc > 2 ? static_cast<uint32_t>(std::strtoul(argv[2], nullptr, 0)) : 0u});
    EnqueueProgram(device->command_queue(), program, true);
    CloseDevice(device);
    std::printf("the run ended normally\n");
    return 0;
}
