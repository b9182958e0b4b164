// DPRINT for tensim kernels: `DPRINT << "x = " << x << ENDL();` prints one line on the run's output,
// tagged by tensim with the core and RISC. A statement's text is sent when the statement ends.
#pragma once
#include <cstring>
#include <cstdio>
#include <string>

#include "tensim/common.h"

namespace tensim {
struct Endl {};
struct Hex {};
struct Oct {};
struct Dec {};
struct SetW { int w; };
struct SetPrecision { int p; };
struct Fixed {};
}  // namespace tensim
// Typed wrappers of the print stream: a bfloat16 given by its bits, a float, a 32-bit word.
struct BF16 {
    uint16_t bits;
    explicit BF16(uint16_t b) : bits(b) {}
};
struct F32 {
    float v;
    explicit F32(float f) : v(f) {}
};
struct U32 {
    uint32_t v;
    explicit U32(uint32_t u) : v(u) {}
};
// Tile slices: rows h0..h1 every hs, columns w0..w1 every ws of a 32x32 tile.
struct SliceRange {
    uint8_t h0, h1, hs, w0, w1, ws;
    static constexpr SliceRange hw0_32_16() { return {0, 32, 16, 0, 32, 16}; }
    static constexpr SliceRange hw0_32_8() { return {0, 32, 8, 0, 32, 8}; }
    static constexpr SliceRange hw0_32_4() { return {0, 32, 4, 0, 32, 4}; }
    static constexpr SliceRange h0_w0_32() { return {0, 1, 1, 0, 32, 1}; }
    static constexpr SliceRange h0_32_w0() { return {0, 32, 1, 0, 1, 1}; }
    static constexpr SliceRange h0_32_w1() { return {0, 32, 1, 1, 2, 1}; }
    static constexpr SliceRange hw041() { return {0, 4, 1, 0, 4, 1}; }
};
enum TSliceCbType { TSLICE_INPUT_CB = 0, TSLICE_OUTPUT_CB = 1, TSLICE_TYPE_UNSET = 2 };
enum TSlicePtrType { TSLICE_RD_PTR = 0, TSLICE_WR_PTR = 1, TSLICE_PTR_UNSET = 2 };
namespace tensim {
struct TileSlice {
    uint32_t cb, tile;
    SliceRange range;
    int cb_type, ptr_type;
    bool endl_rows, untilized;
};
}  // namespace tensim
// TSLICE(cb, tile, range [, cb type, pointer type] [, endl_rows, print_untilized]). Without selectors the
// UNPACK thread reads an input CB at its read pointer and the PACK thread an output CB at its write
// pointer; data-movement kernels must name the pointer, as on the device.
inline tensim::TileSlice TSLICE(uint32_t cb, uint32_t tile, SliceRange r, TSliceCbType t = TSLICE_TYPE_UNSET,
                                TSlicePtrType p = TSLICE_PTR_UNSET, bool endl_rows = true, bool untilized = true) {
    return {cb, tile, r, t, p, endl_rows, untilized};
}
inline tensim::TileSlice TSLICE(uint32_t cb, uint32_t tile, SliceRange r, bool endl_rows, bool untilized = true) {
    return {cb, tile, r, TSLICE_TYPE_UNSET, TSLICE_PTR_UNSET, endl_rows, untilized};
}
inline tensim::TileSlice TileSlice(uint32_t cb, uint32_t tile, SliceRange r, TSliceCbType t = TSLICE_TYPE_UNSET,
                                   TSlicePtrType p = TSLICE_PTR_UNSET, bool endl_rows = true, bool untilized = true) {
    return {cb, tile, r, t, p, endl_rows, untilized};
}
namespace tensim {
class Printer {
  public:
    Printer() = default;
    Printer(const Printer&) = delete;
    ~Printer() {
        if (!text_.empty()) api->dprint(text_.data(), static_cast<uint32_t>(text_.size()));
    }
    Printer& operator<<(const char* s) { text_ += s; return *this; }
    Printer& operator<<(char c) { text_ += c; return *this; }
    Printer& operator<<(Endl) { text_ += '\n'; return *this; }
    Printer& operator<<(Hex) { base_ = 16; return *this; }
    Printer& operator<<(Oct) { base_ = 8; return *this; }
    Printer& operator<<(Dec) { base_ = 10; return *this; }
    Printer& operator<<(SetW w) { width_ = w.w; return *this; }
    Printer& operator<<(const TileSlice& t) {
        bool wr = t.ptr_type == TSLICE_WR_PTR;
        if (t.ptr_type == TSLICE_PTR_UNSET) {
#if defined(TRISC_PACK)
            wr = true;
#elif defined(TRISC_UNPACK)
            wr = false;
#else
            if (t.cb_type == TSLICE_TYPE_UNSET)
                throw "TSLICE: a data-movement or MATH kernel must name the CB and pointer (TSLICE_INPUT_CB, TSLICE_RD_PTR…)";
            wr = t.cb_type == TSLICE_OUTPUT_CB;
#endif
        }
        uint64_t r = uint64_t(t.range.h0) | uint64_t(t.range.h1) << 8 | uint64_t(t.range.hs) << 16 |
                     uint64_t(t.range.w0) << 24 | uint64_t(t.range.w1) << 32 | uint64_t(t.range.ws) << 40;
        uint32_t flags = (wr ? 1u : 0u) | (t.endl_rows ? 2u : 0u) | (t.untilized ? 4u : 0u) |
                         static_cast<uint32_t>(precision_) << 8;
        std::string buf(4096, '\0');
        uint32_t n = api->tile_slice(t.cb, t.tile, r, flags, &buf[0], static_cast<uint32_t>(buf.size()));
        if (n > buf.size()) {
            buf.assign(n, '\0');
            n = api->tile_slice(t.cb, t.tile, r, flags, &buf[0], n);
        }
        text_.append(buf.data(), n);
        return *this;
    }
    Printer& operator<<(Fixed) { return *this; }
    Printer& operator<<(SetPrecision p) { precision_ = p.p; return *this; }
    Printer& operator<<(bool v) { text_ += v ? "1" : "0"; return *this; }
    Printer& operator<<(int8_t v) { return fmt("%d", static_cast<int>(v)); }
    Printer& operator<<(uint8_t v) { return fmt("%u", static_cast<unsigned>(v)); }
    Printer& operator<<(int16_t v) { return fmt("%d", static_cast<int>(v)); }
    Printer& operator<<(uint16_t v) { return fmt("%u", static_cast<unsigned>(v)); }
    Printer& operator<<(int32_t v) { return base_ == 10 ? fmt("%*d", width_, v) : *this << static_cast<uint32_t>(v); }
    Printer& operator<<(uint32_t v) {
        return base_ == 16 ? fmt("%*x", width_, v) : base_ == 8 ? fmt("%*o", width_, v) : fmt("%*u", width_, v);
    }
    Printer& operator<<(int64_t v) { return fmt("%lld", static_cast<long long>(v)); }
    Printer& operator<<(uint64_t v) { return fmt("%llu", static_cast<unsigned long long>(v)); }
    Printer& operator<<(float v) { return fmt("%.*f", precision_, static_cast<double>(v)); }
    Printer& operator<<(BF16 v) {
        uint32_t w = static_cast<uint32_t>(v.bits) << 16;
        float f;
        std::memcpy(&f, &w, sizeof f);
        return *this << f;
    }
    Printer& operator<<(F32 v) { return *this << v.v; }
    Printer& operator<<(U32 v) { return *this << v.v; }
    Printer& operator<<(double v) { return fmt("%.*f", precision_, v); }
    template <typename T>
    Printer& operator<<(const T* p) { return fmt("%p", static_cast<const void*>(p)); }

  private:
    template <typename... A>
    Printer& fmt(const char* f, A... a) {
        char buf[64];
        int n = std::snprintf(buf, sizeof buf, f, a...);
        if (n > 0) text_.append(buf, static_cast<size_t>(n) < sizeof buf ? n : sizeof buf - 1);
        return *this;
    }
    std::string text_;
    int precision_ = 6;
    int base_ = 10;
    int width_ = 0;
};
}  // namespace tensim

inline tensim::Endl ENDL() { return {}; }
inline tensim::Hex HEX() { return {}; }
inline tensim::Oct OCT() { return {}; }
inline tensim::SetW SETW(int w) { return {w}; }
inline tensim::Dec DEC() { return {}; }
inline tensim::Fixed FIXED() { return {}; }
inline tensim::SetPrecision SETPRECISION(int p) { return {p}; }
#define DPRINT tensim::Printer()
#ifdef TRISC_MATH
#define DPRINT_MATH(x) x
#else
#define DPRINT_MATH(x)
#endif
#ifdef TRISC_PACK
#define DPRINT_PACK(x) x
#else
#define DPRINT_PACK(x)
#endif
#ifdef TRISC_UNPACK
#define DPRINT_UNPACK(x) x
#else
#define DPRINT_UNPACK(x)
#endif
#if defined(COMPILE_FOR_NCRISC)
#define DPRINT_DATA0(x)
#define DPRINT_DATA1(x) x
#else
#define DPRINT_DATA0(x) x
#define DPRINT_DATA1(x)
#endif
