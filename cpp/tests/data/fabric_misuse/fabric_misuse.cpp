// tensim test program: misuses of the C++ mesh and fabric host API, one per argument (argv[1]); each must
// end the program with tensim's error.
#include <cstdint>
#include <string>
#include <vector>

#include <tt-metalium/distributed.hpp>
#include <tt-metalium/fabric.hpp>
#include <tt-metalium/host_api.hpp>

using namespace tt::tt_metal;

int main(int argc, char** argv) {
    const std::string what = argc > 1 ? argv[1] : "";
    if (what == "torus") tt::tt_fabric::SetFabricConfig(tt::tt_fabric::FabricConfig::FABRIC_2D_TORUS_X);
    if (what != "no_fabric") tt::tt_fabric::SetFabricConfig(tt::tt_fabric::FabricConfig::FABRIC_1D);
    const uint32_t cols = what == "too_big" ? 16 : 4;
    auto mesh = distributed::MeshDevice::create(distributed::MeshDeviceConfig(distributed::MeshShape(1, cols)));
    Program p = CreateProgram();
    std::vector<uint32_t> args;
    const distributed::MeshCoordinate a(0, 0);
    const distributed::MeshCoordinate b(0, what == "not_neighbour" ? 2 : 1);
    const uint32_t link = what == "link" ? 2 : 0;
    const CoreCoord core = {0, 0};
    tt::tt_fabric::append_fabric_connection_rt_args(mesh->get_fabric_node_id(a), mesh->get_fabric_node_id(b), link, p,
                                                    core, args);
    fmt::print("{} connection words\n", args.size());
    if (what == "payload") {
        auto k = CreateKernel(p, "kernels/bad_send.cpp", core, DataMovementConfig{});
        SetRuntimeArgs(p, k, core, args);
        distributed::MeshWorkload w;
        w.add_program(distributed::MeshCoordinateRange(a, a), std::move(p));
        distributed::EnqueueMeshWorkload(mesh->mesh_command_queue(), w, true);
    }
    return 0;
}
