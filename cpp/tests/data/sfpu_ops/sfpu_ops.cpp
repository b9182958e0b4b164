// tensim test program: the SFPU operations of today's compute API, each applied to the same input tiles on
// one core (unary ones to x, binary ones to x and y), every result checked on the host against its
// definition: silu, relu_min/max, leaky_relu, sign, signbit, exp2, expm1, heaviside, unary max/min, the five
// scalar operations, exp with a scale, sigmoid with a vector mode, and the binary rsub, power, max, min,
// comparisons and div_no_nan.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <random>
#include <vector>

#include <fmt/base.h>
#include <tt-metalium/bfloat16.hpp>
#include <tt-metalium/constants.hpp>
#include <tt-metalium/distributed.hpp>
#include <tt-metalium/host_api.hpp>
#include <tt-metalium/tensor_accessor_args.hpp>
#include <tt-metalium/tilize_utils.hpp>
#include <tt_stl/assert.hpp>

using namespace tt;
using namespace tt::tt_metal;

namespace {
uint32_t bits(float f) {
    uint32_t u;
    std::memcpy(&u, &f, 4);
    return u;
}
// The operations in the order the compute kernel produces them.
struct Op {
    const char* name;
    std::function<float(float, float)> f;
    // y's element from row 5 of its tile, same column (a row broadcast of row 5).
    bool y_row5 = false;
    // The output page is row-major (pack_untilize_dest), not a tile.
    bool row_major = false;
};
}  // namespace

int main() {
    constexpr uint32_t tile_bytes = sizeof(bfloat16) * constants::TILE_HW;
    const float relu_lo = 0.5f, relu_hi = 1.0f, slope = 0.1f, at0 = 0.5f, mx = 0.25f, mn = -0.25f, s = 1.5f;
    const std::vector<Op> ops = {
        {"silu", [](float x, float) { return x / (1.0f + std::exp(-x)); }},
        {"relu_min", [&](float x, float) { return std::max(x, relu_lo); }},
        {"relu_max", [&](float x, float) { return std::max(std::min(x, relu_hi), 0.0f); }},
        {"leaky_relu", [&](float x, float) { return x < 0 ? x * slope : x; }},
        {"sign", [](float x, float) { return x > 0 ? 1.0f : x < 0 ? -1.0f : 0.0f; }},
        {"signbit", [](float x, float) { return std::signbit(x) ? 1.0f : 0.0f; }},
        {"exp2", [](float x, float) { return std::exp2(x); }},
        {"expm1", [](float x, float) { return std::expm1(x); }},
        {"heaviside", [&](float x, float) { return x < 0 ? 0.0f : x == 0 ? at0 : 1.0f; }},
        {"unary_max", [&](float x, float) { return std::max(x, mx); }},
        {"unary_min", [&](float x, float) { return std::min(x, mn); }},
        {"add_unary", [&](float x, float) { return x + s; }},
        {"sub_unary", [&](float x, float) { return x - s; }},
        {"mul_unary", [&](float x, float) { return x * s; }},
        {"div_unary", [&](float x, float) { return x / s; }},
        {"rsub_unary", [&](float x, float) { return s - x; }},
        {"exp scaled by 0.5", [](float x, float) { return std::exp(0.5f * x); }},
        {"sigmoid<RC>", [](float x, float) { return 1.0f / (1.0f + std::exp(-x)); }},
        {"rsub_binary", [](float x, float y) { return y - x; }},
        {"power_binary of |x|", [](float x, float y) { return std::pow(std::fabs(x), y); }},
        {"binary_max", [](float x, float y) { return std::max(x, y); }},
        {"binary_min", [](float x, float y) { return std::min(x, y); }},
        {"eq", [](float x, float y) { return float(x == y); }},
        {"ne", [](float x, float y) { return float(x != y); }},
        {"lt", [](float x, float y) { return float(x < y); }},
        {"gt", [](float x, float y) { return float(x > y); }},
        {"le", [](float x, float y) { return float(x <= y); }},
        {"ge", [](float x, float y) { return float(x >= y); }},
        {"div_no_nan", [](float x, float y) { return y == 0 ? 0.0f : x / y; }},
        {"x + y[row 5] (FPU row broadcast)", [](float x, float y) { return x + y; }, true},
        {"x * y[row 31] via any_tiles_bcast", [](float x, float y) { return x * y; }, true},
        {"x + y, both copied by copy_block_matmul_partials", [](float x, float y) { return x + y; }},
        {"x untilized from DST (pack_untilize_dest)", [](float x, float) { return x; }, false, true},
    };
    const uint32_t n_out = ops.size();

    auto mesh = distributed::MeshDevice::create_unit_mesh(0);
    auto& cq = mesh->mesh_command_queue();
    distributed::DeviceLocalBufferConfig dram{.page_size = tile_bytes, .buffer_type = BufferType::DRAM};
    auto in = distributed::MeshBuffer::create(distributed::ReplicatedBufferConfig{.size = 2 * tile_bytes}, dram, mesh.get());
    auto out = distributed::MeshBuffer::create(distributed::ReplicatedBufferConfig{.size = n_out * tile_bytes}, dram, mesh.get());

    std::mt19937 rng(31);
    std::uniform_real_distribution<float> dist(-3.0f, 3.0f);
    std::vector<bfloat16> x(constants::TILE_HW), y(constants::TILE_HW);
    for (uint32_t i = 0; i < constants::TILE_HW; i++) {
        x[i] = bfloat16(i % 17 == 0 ? 0.0f : dist(rng));
        y[i] = i % 5 == 0 ? x[i] : bfloat16(i % 7 == 0 ? 0.0f : dist(rng));
    }
    x[1] = bfloat16(-0.0f);
    std::vector<bfloat16> both = tilize_nfaces(x, 32, 32);
    auto ty = tilize_nfaces(y, 32, 32);
    both.insert(both.end(), ty.begin(), ty.end());
    distributed::EnqueueWriteMeshBuffer(cq, in, both, false);

    Program program = CreateProgram();
    CoreCoord core{0, 0};
    for (auto [id, pages] : {std::pair{CBIndex::c_0, 2u}, std::pair{CBIndex::c_16, 2u}}) {
        CreateCircularBuffer(program, core, CircularBufferConfig(pages * tile_bytes, {{id, DataFormat::Float16_b}}).set_page_size(id, tile_bytes));
    }
    std::vector<uint32_t> rct, wct{n_out};
    TensorAccessorArgs(*in).append_to(rct);
    TensorAccessorArgs(*out).append_to(wct);
    auto reader = CreateKernel(program, "sfpu_ops/kernels/reader.cpp", core, ReaderDataMovementConfig(rct));
    auto writer = CreateKernel(program, "sfpu_ops/kernels/writer.cpp", core, WriterDataMovementConfig(wct));
    auto compute = CreateKernel(program, "sfpu_ops/kernels/ops.cpp", core, ComputeConfig{.math_approx_mode = false});
    SetRuntimeArgs(program, reader, core, {in->address()});
    SetRuntimeArgs(program, writer, core, {out->address()});
    SetRuntimeArgs(program, compute, core, {bits(relu_lo), bits(relu_hi), bits(slope), bits(at0), bits(mx), bits(mn), bits(s)});
    distributed::MeshWorkload w;
    w.add_program(distributed::MeshCoordinateRange(mesh->shape()), std::move(program));
    distributed::EnqueueMeshWorkload(cq, w, false);
    std::vector<bfloat16> got_tiled;
    distributed::EnqueueReadMeshBuffer(cq, got_tiled, out, true);
    mesh->close();

    size_t bad = 0;
    for (uint32_t k = 0; k < n_out; k++) {
        std::vector<bfloat16> tile(got_tiled.begin() + k * constants::TILE_HW, got_tiled.begin() + (k + 1) * constants::TILE_HW);
        auto got = ops[k].row_major ? tile : untilize_nfaces(tile, 32, 32);
        size_t wrong = 0;
        for (uint32_t i = 0; i < constants::TILE_HW; i++) {
            uint32_t yi = ops[k].y_row5 ? (k == 30 ? 31 : 5) * 32 + i % 32 : i;
            float want = static_cast<float>(bfloat16(ops[k].f(static_cast<float>(x[i]), static_cast<float>(y[yi]))));
            float g = static_cast<float>(got[i]);
            bool same = (std::isnan(want) && std::isnan(g)) || (std::isinf(want) && g == want) ||
                        std::fabs(g - want) <= 0.02f * std::max(1.0f, std::fabs(want));
            if (!same && wrong++ < 3)
                fmt::print(stderr, "{} [{}]: x = {}, y = {}: {} != {}\n", ops[k].name, i, static_cast<float>(x[i]), static_cast<float>(y[i]), g, want);
        }
        bad += wrong;
    }
    if (bad) TT_THROW("Test Failed: {} mismatches", bad);
    fmt::print("Test Passed: {} operations\n", n_out);
}
