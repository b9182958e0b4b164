// tensim's TT-Metalium host headers: the fabric's host calls (tt::tt_fabric): FabricConfig and
// SetFabricConfig (before the mesh is opened), FabricNodeId / MeshId, and
// append_fabric_connection_rt_args, which gives a worker kernel the runtime args of its connection to the
// router facing a neighbouring device. The fabric needs a run on a system's chips (`--system`). Written for
// tensim from the documented interface.
#pragma once
#include "tensim/host/device.hpp"

namespace tt::tt_fabric {

enum class FabricConfig : uint32_t {
    DISABLED = 0,
    FABRIC_1D = 1,
    FABRIC_1D_NEIGHBOR_EXCHANGE = 2,
    FABRIC_1D_RING = 3,
    FABRIC_2D = 4,
    FABRIC_2D_TORUS_X = 5,
    FABRIC_2D_TORUS_Y = 6,
    FABRIC_2D_TORUS_XY = 7,
    CUSTOM = 8,
};
enum class FabricReliabilityMode : uint32_t {
    STRICT_SYSTEM_HEALTH_SETUP_MODE = 0,
    RELAXED_SYSTEM_HEALTH_SETUP_MODE = 1,
    DYNAMIC_RECONFIGURATION_SETUP_MODE = 2,
};

// Trailing arguments (reliability mode, routing planes, tensix config, router config) take their defaults:
// tensim's fabric runs one routing plane with the payload size of the arch's data file.
template <typename... Rest>
void SetFabricConfig(FabricConfig config, const Rest&...) {
    uint32_t code = 0;
    switch (config) {
        case FabricConfig::DISABLED: code = 0; break;
        case FabricConfig::FABRIC_1D: code = 1; break;
        case FabricConfig::FABRIC_1D_RING: code = 2; break;
        case FabricConfig::FABRIC_2D: code = 3; break;
        default:
            TT_THROW("SetFabricConfig: configuration {} is not modelled (DISABLED, FABRIC_1D, FABRIC_1D_RING and "
                     "FABRIC_2D are)",
                     static_cast<uint32_t>(config));
    }
    tensim::check(tensim::api().set_fabric(code));
}

struct MeshId {
    uint32_t id = 0;
    constexpr MeshId() = default;
    constexpr explicit MeshId(uint32_t v) : id(v) {}
    uint32_t operator*() const { return id; }
    bool operator==(const MeshId& o) const { return id == o.id; }
};
struct FabricNodeId {
    MeshId mesh_id;
    uint32_t chip_id = 0;
    FabricNodeId(MeshId m, uint32_t c) : mesh_id(m), chip_id(c) {}
    bool operator==(const FabricNodeId& o) const { return mesh_id == o.mesh_id && chip_id == o.chip_id; }
};

// The connection args of a worker on `core` (of the device `src`) to the router towards the neighbouring
// device `dst`, appended to `args`; a semaphore for the router's credits is created on `core` in `program`.
inline void append_fabric_connection_rt_args(const FabricNodeId& src, const FabricNodeId& dst, uint32_t link_idx,
                                             tt::tt_metal::Program& program, const tt::tt_metal::CoreCoord& core,
                                             std::vector<uint32_t>& args,
                                             tt::tt_metal::CoreType core_type = tt::tt_metal::CoreType::WORKER) {
    if (core_type != tt::tt_metal::CoreType::WORKER)
        TT_THROW("append_fabric_connection_rt_args: a connection from an Ethernet core is not modelled");
    if (*src.mesh_id != 0 || *dst.mesh_id != 0)
        TT_THROW("append_fabric_connection_rt_args: tensim's fabric spans one mesh (id 0)");
    uint32_t words[32];
    uint32_t n = 0;
    tensim::check(tensim::api().fabric_args(program.handle_, src.chip_id, dst.chip_id, link_idx,
                                            static_cast<uint32_t>(core.x), static_cast<uint32_t>(core.y), words, 32,
                                            &n));
    if (n > 32) TT_THROW("append_fabric_connection_rt_args: {} words: these headers are older than tensim", n);
    args.insert(args.end(), words, words + n);
}

}  // namespace tt::tt_fabric
