// tensim's TT-Metalium host headers: the helpers host programs use — bfloat16 and its vector helpers,
// tilize/untilize, split_work_to_cores, and the host side of TensorAccessorArgs. Written for tensim from
// the documented interface.
#pragma once
#include <bit>
#include <cmath>
#include <random>
#include <tuple>

#include "hostdevcommon/tensor_accessor/arg_config.hpp"
#include "tensim/host/mesh.hpp"

class bfloat16 {
public:
    constexpr bfloat16() = default;
    template <typename T>
        requires std::is_arithmetic_v<T>
    constexpr bfloat16(T v) : bits_(round(static_cast<float>(v))) {}
    static constexpr bfloat16 truncate(float f) {
        bfloat16 b;
        b.bits_ = static_cast<uint16_t>(std::bit_cast<uint32_t>(f) >> 16);
        return b;
    }
    static constexpr bfloat16 from_bits(uint16_t bits) {
        bfloat16 b;
        b.bits_ = bits;
        return b;
    }
    constexpr operator float() const { return std::bit_cast<float>(static_cast<uint32_t>(bits_) << 16); }
    constexpr float to_float() const { return static_cast<float>(*this); }
    constexpr uint16_t to_uint16() const { return bits_; }
    constexpr uint32_t to_packed() const { return bits_; }
    friend constexpr bool operator==(bfloat16 a, bfloat16 b) { return a.bits_ == b.bits_; }
    bfloat16& operator+=(bfloat16 o) { return *this = bfloat16(float(*this) + float(o)); }
    bfloat16& operator-=(bfloat16 o) { return *this = bfloat16(float(*this) - float(o)); }
    bfloat16& operator*=(bfloat16 o) { return *this = bfloat16(float(*this) * float(o)); }
    bfloat16& operator/=(bfloat16 o) { return *this = bfloat16(float(*this) / float(o)); }

private:
    // Round to nearest, ties to even (NaN stays NaN).
    static constexpr uint16_t round(float f) {
        uint32_t u = std::bit_cast<uint32_t>(f);
        if ((u & 0x7fffffffu) > 0x7f800000u) return static_cast<uint16_t>((u >> 16) | 0x40);
        u += 0x7fffu + ((u >> 16) & 1u);
        return static_cast<uint16_t>(u >> 16);
    }
    uint16_t bits_ = 0;
};
inline std::ostream& operator<<(std::ostream& os, const bfloat16& b) { return os << static_cast<float>(b); }

inline uint32_t pack_two_bfloat16_into_uint32(std::pair<bfloat16, bfloat16> p) {
    return static_cast<uint32_t>(p.first.to_uint16()) | (static_cast<uint32_t>(p.second.to_uint16()) << 16);
}
inline std::pair<bfloat16, bfloat16> unpack_two_bfloat16_from_uint32(uint32_t v) {
    return {bfloat16::from_bits(static_cast<uint16_t>(v & 0xffff)), bfloat16::from_bits(static_cast<uint16_t>(v >> 16))};
}
inline std::vector<bfloat16> create_random_vector_of_bfloat16_native(std::size_t num_bytes, float rand_max_float, int seed,
                                                                     float offset = 0.0f) {
    std::mt19937 gen(seed);
    std::uniform_real_distribution<float> dist(0.0f, rand_max_float);
    std::vector<bfloat16> v(num_bytes / sizeof(bfloat16));
    for (auto& x : v) x = bfloat16(dist(gen) + offset);
    return v;
}
inline std::vector<uint32_t> pack_bfloat16_vec_into_uint32_vec(const std::vector<bfloat16>& v) {
    std::vector<uint32_t> out((v.size() + 1) / 2);
    for (std::size_t i = 0; i < v.size(); i++)
        out[i / 2] |= static_cast<uint32_t>(v[i].to_uint16()) << (16 * (i % 2));
    return out;
}
inline std::vector<uint32_t> create_random_vector_of_bfloat16(std::size_t num_bytes, int rand_max_float, int seed,
                                                             float offset = 0.0f) {
    return pack_bfloat16_vec_into_uint32_vec(
        create_random_vector_of_bfloat16_native(num_bytes, static_cast<float>(rand_max_float), seed, offset));
}
inline std::vector<uint32_t> create_constant_vector_of_bfloat16(std::size_t num_bytes, float value) {
    return pack_bfloat16_vec_into_uint32_vec(std::vector<bfloat16>(num_bytes / 2, bfloat16(value)));
}
inline std::vector<bfloat16> unpack_uint32_vec_into_bfloat16_vec(
    const std::vector<uint32_t>& v, const std::function<bfloat16(const bfloat16&)>& transform = [](const bfloat16& b) { return b; }) {
    std::vector<bfloat16> out;
    out.reserve(v.size() * 2);
    for (uint32_t w : v) {
        auto [a, b] = unpack_two_bfloat16_from_uint32(w);
        out.push_back(transform(a));
        out.push_back(transform(b));
    }
    return out;
}
inline std::vector<bfloat16> create_arange_vector_of_bfloat16(std::size_t num_bytes, bool print = false) {
    std::vector<bfloat16> v(num_bytes / 2);
    for (std::size_t i = 0; i < v.size(); i++) v[i] = bfloat16(static_cast<float>(i));
    (void)print;
    return v;
}
inline std::vector<bfloat16> create_identity_matrix(int rows, int cols, int num_ones) {
    std::vector<bfloat16> v(static_cast<std::size_t>(rows) * cols, bfloat16(0.0f));
    for (int i = 0; i < num_ones && i < rows && i < cols; i++) v[static_cast<std::size_t>(i) * cols + i] = bfloat16(1.0f);
    return v;
}
inline bool is_close(float a, float b, float rtol = 0.01f, float atol = 0.001f) {
    return std::fabs(a - b) <= atol + rtol * std::fabs(b);
}
inline bool equal_within_n_sig_figs(float a, float b, int n) {
    if (a == b) return true;
    float scale = std::pow(10.0f, n - 1 - std::floor(std::log10(std::fmax(std::fabs(a), std::fabs(b)))));
    return std::round(a * scale) == std::round(b * scale);
}
inline bool packed_uint32_t_vector_comparison(const std::vector<uint32_t>& a, const std::vector<uint32_t>& b,
                                              const std::function<bool(float, float)>& cmp,
                                              int* argfail = nullptr) {
    if (a.size() != b.size()) return false;
    auto x = unpack_uint32_vec_into_bfloat16_vec(a), y = unpack_uint32_vec_into_bfloat16_vec(b);
    for (std::size_t i = 0; i < x.size(); i++)
        if (!cmp(float(x[i]), float(y[i]))) {
            if (argfail) *argfail = static_cast<int>(i);
            return false;
        }
    return true;
}

// ---- Tilize ----
enum class TensorLayoutType { LIN_ROW_MAJOR = 0, TILED_SWIZZLED = 1, TILED_NFACES = 2 };
struct PhysicalSize {
    uint32_t h, w;
};
namespace tensim {
// Row-major m x n to tiles (row-major over the tile grid), each tile as four 16x16 faces (or the reverse).
template <typename T>
std::vector<T> nfaces(const std::vector<T>& in, uint32_t m, uint32_t n, bool to_tiles) {
    if (m % 32 || n % 32) TT_THROW("tilize/untilize: {}x{} is not a whole number of 32x32 tiles", m, n);
    if (in.size() < static_cast<std::size_t>(m) * n)
        TT_THROW("tilize/untilize: {} values for a {}x{} matrix", in.size(), m, n);
    std::vector<T> out(static_cast<std::size_t>(m) * n);
    std::size_t i = 0;
    for (uint32_t tr = 0; tr < m / 32; tr++)
        for (uint32_t tc = 0; tc < n / 32; tc++)
            for (uint32_t f = 0; f < 4; f++)
                for (uint32_t r = 0; r < 16; r++)
                    for (uint32_t c = 0; c < 16; c++, i++) {
                        std::size_t rm = static_cast<std::size_t>(tr * 32 + (f / 2) * 16 + r) * n + tc * 32 + (f % 2) * 16 + c;
                        if (to_tiles) out[i] = in[rm];
                        else out[rm] = in[i];
                    }
    return out;
}
template <typename T>
std::vector<T> swizzled(const std::vector<T>& in, uint32_t m, uint32_t n, bool to_tiles) {
    if (m % 32 || n % 32) TT_THROW("tilize/untilize: {}x{} is not a whole number of 32x32 tiles", m, n);
    std::vector<T> out(static_cast<std::size_t>(m) * n);
    std::size_t i = 0;
    for (uint32_t tr = 0; tr < m / 32; tr++)
        for (uint32_t tc = 0; tc < n / 32; tc++)
            for (uint32_t r = 0; r < 32; r++)
                for (uint32_t c = 0; c < 32; c++, i++) {
                    std::size_t rm = static_cast<std::size_t>(tr * 32 + r) * n + tc * 32 + c;
                    if (to_tiles) out[i] = in[rm];
                    else out[rm] = in[i];
                }
    return out;
}
}  // namespace tensim
template <typename T>
std::vector<T> tilize_nfaces(const std::vector<T>& in, uint32_t m, uint32_t n) {
    return tensim::nfaces(in, m, n, true);
}
template <typename T>
std::vector<T> untilize_nfaces(const std::vector<T>& in, uint32_t m, uint32_t n) {
    return tensim::nfaces(in, m, n, false);
}
template <typename T>
std::vector<T> tilize_swizzled(const std::vector<T>& in, uint32_t m, uint32_t n) {
    return tensim::swizzled(in, m, n, true);
}
template <typename T>
std::vector<T> untilize_swizzled(const std::vector<T>& in, uint32_t m, uint32_t n) {
    return tensim::swizzled(in, m, n, false);
}
template <typename T>
void tilize(std::vector<T>& v, uint32_t m, uint32_t n) {
    v = tilize_nfaces(v, m, n);
}
template <typename T>
void untilize(std::vector<T>& v, uint32_t m, uint32_t n) {
    v = untilize_nfaces(v, m, n);
}
template <typename T>
std::vector<T> convert_layout(tt::stl::Span<const T> in, const PhysicalSize& shape, TensorLayoutType from,
                              TensorLayoutType to, std::optional<PhysicalSize> tile = {},
                              std::optional<PhysicalSize> face = {}, bool transpose_within_face = false,
                              bool transpose_of_faces = false) {
    if ((tile && (tile->h != 32 || tile->w != 32)) || (face && (face->h != 16 || face->w != 16)) ||
        transpose_within_face || transpose_of_faces)
        TT_THROW("convert_layout: only 32x32 tiles of 16x16 faces without transposes are modelled");
    std::vector<T> v(in.begin(), in.end());
    if (from == to) return v;
    auto rm = from == TensorLayoutType::LIN_ROW_MAJOR ? v
              : from == TensorLayoutType::TILED_NFACES ? untilize_nfaces(v, shape.h, shape.w)
                                                      : untilize_swizzled(v, shape.h, shape.w);
    return to == TensorLayoutType::LIN_ROW_MAJOR ? rm
           : to == TensorLayoutType::TILED_NFACES ? tilize_nfaces(rm, shape.h, shape.w)
                                                 : tilize_swizzled(rm, shape.h, shape.w);
}
template <typename T>
std::vector<T> convert_layout(const std::vector<T>& in, const PhysicalSize& shape, TensorLayoutType from,
                              TensorLayoutType to) {
    return convert_layout(tt::stl::Span<const T>(in.data(), in.size()), shape, from, to);
}
inline uint32_t round_up_to_mul16(uint32_t v) { return (v + 15) & ~15u; }
inline uint32_t round_up_to_mul32(uint32_t v) { return (v + 31) & ~31u; }
inline uint32_t round_up_to_tile(uint32_t v, uint32_t tile = 32) { return (v + tile - 1) / tile * tile; }

namespace tt::tt_metal {
using ::bfloat16;

// ---- Work split ----
inline std::tuple<uint32_t, CoreRangeSet, CoreRangeSet, CoreRangeSet, uint32_t, uint32_t> split_work_to_cores(
    const CoreRangeSet& grid, uint32_t units, bool row_wise = false) {
    auto cores = corerange_to_cores(grid, std::nullopt, row_wise);
    uint32_t total = static_cast<uint32_t>(cores.size());
    if (units == 0 || total == 0) return {0, CoreRangeSet(), CoreRangeSet(), CoreRangeSet(), 0, 0};
    uint32_t n = std::min(units, total);
    uint32_t per1 = (units + n - 1) / n;
    uint32_t extra = units % n;
    uint32_t g1 = extra == 0 ? n : extra;
    auto as_set = [](const std::vector<CoreCoord>& cs) {
        std::vector<CoreRange> rs;
        for (const auto& c : cs) rs.emplace_back(c);
        return CoreRangeSet(std::move(rs));
    };
    std::vector<CoreCoord> all(cores.begin(), cores.begin() + n), a(cores.begin(), cores.begin() + g1),
        b(cores.begin() + g1, cores.begin() + n);
    return {n, as_set(all), as_set(a), as_set(b), per1, extra == 0 ? 0 : per1 - 1};
}
inline std::tuple<uint32_t, CoreRangeSet, CoreRangeSet, CoreRangeSet, uint32_t, uint32_t> split_work_to_cores(
    const CoreCoord grid_size, uint32_t units, bool row_wise = false) {
    return split_work_to_cores(CoreRangeSet(CoreRange({0, 0}, {grid_size.x - 1, grid_size.y - 1})), units, row_wise);
}
inline CoreRangeSet num_cores_to_corerangeset(CoreCoord start, uint32_t target, CoreCoord grid, bool row_wise = false) {
    std::vector<CoreRange> rs;
    uint32_t begin = row_wise ? static_cast<uint32_t>(start.y * grid.x + start.x) : static_cast<uint32_t>(start.x * grid.y + start.y);
    if (begin + target > grid.x * grid.y) TT_THROW("num_cores_to_corerangeset: {} cores do not fit the grid", target);
    for (uint32_t i = begin; i < begin + target; i++)
        rs.emplace_back(row_wise ? CoreCoord{i % grid.x, i / grid.x} : CoreCoord{i / grid.y, i % grid.y});
    return CoreRangeSet(std::move(rs));
}
inline CoreRangeSet num_cores_to_corerangeset(uint32_t target, CoreCoord grid, bool row_wise = false) {
    return num_cores_to_corerangeset({0, 0}, target, grid, row_wise);
}

// ---- TensorAccessorArgs (host side) ----
// The words describing a buffer to a kernel's TensorAccessorArgs, in today's layout: the ArgsConfig word and
// the aligned page size (all an interleaved buffer needs), then for a sharded buffer its rank, number of
// banks, tensor and shard shapes in pages and bank coordinates, each into the common runtime args instead
// where the config marks it runtime. Where each block is appended is told to tensim, so kernels written
// for the older one-word layout are recognised and built for it.
class TensorAccessorArgs {
public:
    TensorAccessorArgs() = default;
    explicit TensorAccessorArgs(const Buffer& b, tensor_accessor::ArgsConfig cfg = tensor_accessor::ArgConfig::None) {
        init(b, cfg);
    }
    explicit TensorAccessorArgs(const Buffer* b, tensor_accessor::ArgsConfig cfg = tensor_accessor::ArgConfig::None) {
        if (b) init(*b, cfg);
    }
    explicit TensorAccessorArgs(const std::shared_ptr<Buffer>& b,
                                tensor_accessor::ArgsConfig cfg = tensor_accessor::ArgConfig::None) {
        if (b) init(*b, cfg);
    }
    explicit TensorAccessorArgs(const distributed::MeshBuffer& b,
                                tensor_accessor::ArgsConfig cfg = tensor_accessor::ArgConfig::None) {
        init(*b.get_reference_buffer(), cfg);
    }
    explicit TensorAccessorArgs(const distributed::MeshBuffer* b,
                                tensor_accessor::ArgsConfig cfg = tensor_accessor::ArgConfig::None) {
        if (b) init(*b->get_reference_buffer(), cfg);
    }
    explicit TensorAccessorArgs(const std::shared_ptr<distributed::MeshBuffer>& b,
                                tensor_accessor::ArgsConfig cfg = tensor_accessor::ArgConfig::None) {
        if (b) init(*b->get_reference_buffer(), cfg);
    }
    static TensorAccessorArgs create_dram_interleaved() { return TensorAccessorArgs(std::vector<uint32_t>{2, 0}); }
    static TensorAccessorArgs create_l1_interleaved() { return TensorAccessorArgs(std::vector<uint32_t>{0, 0}); }
    void append_to(std::vector<uint32_t>& ct) const {
        if (!crta_.empty() || (ct_[0] & static_cast<uint32_t>(tensor_accessor::ArgConfig::Runtime)) != 0) {
            TT_THROW("TensorAccessorArgs::append_to(compile_time_args): the args have runtime fields; use "
                     "append_to(compile_time_args, common_runtime_args)");
        }
        note(ct);
        ct.insert(ct.end(), ct_.begin(), ct_.end());
    }
    void append_to(std::vector<uint32_t>& ct, std::vector<uint32_t>& crta) const {
        note(ct);
        ct.insert(ct.end(), ct_.begin(), ct_.end());
        crta.insert(crta.end(), crta_.begin(), crta_.end());
    }
    void append_args(std::vector<uint32_t>& ct) const { append_to(ct); }
    std::vector<uint32_t> get_compile_time_args() const { return ct_; }
    std::vector<uint32_t> get_common_runtime_args() const { return crta_; }
    static constexpr size_t MAX_NUM_DIMENSIONS = 8;

private:
    explicit TensorAccessorArgs(std::vector<uint32_t> w) : ct_(std::move(w)) {}
    void init(const Buffer& b, tensor_accessor::ArgsConfig cfg) {
        uint32_t n_ct = 0, n_crta = 0;
        tensim::check(tensim::api().accessor_args(b.handle_, cfg.raw(), nullptr, 0, &n_ct, &n_crta));
        std::vector<uint32_t> all(n_ct + n_crta);
        tensim::check(tensim::api().accessor_args(b.handle_, cfg.raw(), all.data(), n_ct + n_crta, &n_ct, &n_crta));
        ct_.assign(all.begin(), all.begin() + n_ct);
        crta_.assign(all.begin() + n_ct, all.end());
    }
    void note(const std::vector<uint32_t>& ct) const {
        tensim::check(tensim::api().accessor_appended(static_cast<uint32_t>(ct.size()), ct_.data(),
                                                      static_cast<uint32_t>(ct_.size())));
    }
    std::vector<uint32_t> ct_{0, 0};
    std::vector<uint32_t> crta_;
};
}  // namespace tt::tt_metal
