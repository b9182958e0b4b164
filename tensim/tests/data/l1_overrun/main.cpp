// A host program whose kernel writes past the end of L1 through a pointer: tensim must name the access.
#include <tt-metalium/host_api.hpp>
using namespace tt::tt_metal;
int main() {
    IDevice* device = CreateDevice(0);
    Program program = CreateProgram();
    CreateKernel(program, "kernels/overrun.cpp", CoreCoord{0, 0}, DataMovementConfig{});
    EnqueueProgram(device->command_queue(), program, true);
    CloseDevice(device);
    return 0;
}
