// A host program naming a kernel file that does not exist: CreateKernel must throw tensim's message.
#include <tt-metalium/host_api.hpp>
using namespace tt::tt_metal;
int main() {
    IDevice* device = CreateDevice(0);
    Program program = CreateProgram();
    CreateKernel(program, "kernels/no_such_kernel.cpp", CoreCoord{0, 0}, DataMovementConfig{});
    CloseDevice(device);
    return 0;
}
