// tensim test program: an SFPU operation approximates as its call's template flag says, not as the
// kernel's math_approx_mode alone. The kernel runs with math_approx_mode = true and fp32 DST (input
// unpacked straight to DST): exp_tile<false> and the default sigmoid_tile and rsqrt_tile<false> must be exact,
// while exp_tile (APPROX) and sigmoid_tile<RC, true> must differ from exact somewhere and stay close.
#include <cmath>
#include <cstdint>
#include <vector>

#include <fmt/base.h>
#include <tt-metalium/constants.hpp>
#include <tt-metalium/distributed.hpp>
#include <tt-metalium/host_api.hpp>
#include <tt-metalium/tensor_accessor_args.hpp>
#include <tt_stl/assert.hpp>

using namespace tt;
using namespace tt::tt_metal;

int main() {
    constexpr uint32_t tile = 4 * constants::TILE_HW, ops = 5;
    auto mesh = distributed::MeshDevice::create_unit_mesh(0);
    auto& cq = mesh->mesh_command_queue();
    distributed::DeviceLocalBufferConfig dram{.page_size = tile, .buffer_type = BufferType::DRAM};
    auto in = distributed::MeshBuffer::create(distributed::ReplicatedBufferConfig{.size = tile}, dram, mesh.get());
    auto out = distributed::MeshBuffer::create(distributed::ReplicatedBufferConfig{.size = ops * tile}, dram, mesh.get());
    std::vector<float> x(constants::TILE_HW);
    for (uint32_t i = 0; i < x.size(); i++) x[i] = -3.0f + 6.0f * i / x.size() + 1e-4f;
    distributed::EnqueueWriteMeshBuffer(cq, in, x, false);

    Program program = CreateProgram();
    CoreCoord core{0, 0};
    for (auto [id, pages] : {std::pair{CBIndex::c_0, 1u}, std::pair{CBIndex::c_16, 2u}}) {
        CreateCircularBuffer(program, core, CircularBufferConfig(pages * tile, {{id, DataFormat::Float32}}).set_page_size(id, tile));
    }
    std::vector<uint32_t> rct, wct;
    TensorAccessorArgs(*in).append_to(rct);
    TensorAccessorArgs(*out).append_to(wct);
    auto r = CreateKernel(program, "sfpu_approx/kernels/reader.cpp", core, ReaderDataMovementConfig(rct));
    auto w = CreateKernel(program, "sfpu_approx/kernels/writer.cpp", core, WriterDataMovementConfig(wct));
    std::vector<UnpackToDestMode> unpack(32, UnpackToDestMode::Default);
    unpack[0] = UnpackToDestMode::UnpackToDestFp32;
    CreateKernel(program, "sfpu_approx/kernels/ops.cpp", core,
                 ComputeConfig{.fp32_dest_acc_en = true, .unpack_to_dest_mode = unpack, .math_approx_mode = true});
    SetRuntimeArgs(program, r, core, {in->address()});
    SetRuntimeArgs(program, w, core, {out->address(), ops});
    distributed::MeshWorkload wl;
    wl.add_program(distributed::MeshCoordinateRange(mesh->shape()), std::move(program));
    distributed::EnqueueMeshWorkload(cq, wl, false);
    std::vector<float> got;
    distributed::EnqueueReadMeshBuffer(cq, got, out, true);
    mesh->close();

    // Element order does not matter: every op is element-wise on the same tile.
    auto exact = [&](uint32_t op, float v) -> double {
        switch (op) {
            case 0: case 1: return std::exp(double(v));
            case 2: case 3: return 1.0 / (1.0 + std::exp(-double(v)));
            default: return 1.0 / std::sqrt(std::fabs(double(v)));
        }
    };
    const bool approx[ops] = {false, true, false, true, false};
    size_t bad = 0;
    for (uint32_t op = 0; op < ops; op++) {
        double worst = 0;
        for (uint32_t i = 0; i < constants::TILE_HW; i++) {
            const float v = x[i];
            if (op == 4 && v <= 0) continue;
            const double want = exact(op, v), g = got[op * constants::TILE_HW + i];
            worst = std::max(worst, std::fabs(g - want) / std::max(1e-3, std::fabs(want)));
        }
        const bool ok = approx[op] ? (worst > 1e-5 && worst < 0.05) : worst < 1e-5;
        if (!ok) {
            bad++;
            fmt::print(stderr, "op {} ({}): worst relative error {}\n", op, approx[op] ? "approximate" : "exact", worst);
        }
    }
    if (bad) TT_THROW("Test Failed: {} operations approximated against their flags", bad);
    fmt::print("Test Passed\n");
}
