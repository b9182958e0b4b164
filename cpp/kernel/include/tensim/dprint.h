// Device printing for tensim kernels, both forms tt-metal has had: the stream `DPRINT << "x=" << x << ENDL();`
// and the format strings `DPRINT("x={}\n", x)` / `DEVICE_PRINT("x={}\n", x)` (api/debug/device_print.h).
// A statement's text goes to tensim when the statement ends; tensim splits it into lines at its newlines
// (text without one waits for the RISC's next print) and prefixes each line as tt-metal's print server does
// (`0:(x=18,y=18):BR: …`). The stream formats values as a default std::ostream does (6 significant digits,
// 1 → "1", 1e-5 → "1e-05"), and its manipulators (HEX, OCT, DEC, FIXED, DEFAULTFLOAT, SETPRECISION) stick
// to the RISC across statements and ENDL, as on silicon; SETW applies to the next value only. Format
// strings follow {fmt} ({} prints a float in its shortest round-trip form; tensim/print_format.h); a runtime
// `const char*` argument prints as its address, as on silicon (string literals and CTSTR print their text).
#pragma once
#include <cstdio>
#include <cstring>
#include <string>
#include <type_traits>

#include "tensim/common.h"
#include "tensim/print_format.h"

namespace tensim {
struct Endl {};
struct Hex {};
struct Oct {};
struct Dec {};
struct SetW {
    int w;
};
struct SetPrecision {
    int p;
};
struct Fixed {};
struct DefaultFloat {};
struct U32Array {
    const uint32_t* p;
    uint32_t n;
};
}  // namespace tensim
// Typed wrappers of the print stream: a bfloat16 given by its bits, a float, a 32-bit word.
struct BF16 {
    uint16_t bits;
    explicit BF16(uint16_t b) : bits(b) {}
    float to_float() const {
        uint32_t w = static_cast<uint32_t>(bits) << 16;
        float f;
        std::memcpy(&f, &w, sizeof f);
        return f;
    }
};
struct F32 {
    float v;
    explicit F32(float f) : v(f) {}
};
struct U32 {
    uint32_t v;
    explicit U32(uint32_t u) : v(u) {}
};
// DEVICE_PRINT's bfloat16 (by its bits; prints as the float value).
struct bf16_t {
    uint16_t bits;
    float to_float() const { return BF16(bits).to_float(); }
};
// A compile-time string for DEVICE_PRINT (its text prints).
#define CTSTR(s) (std::string_view(s))
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
// The RISC's sticky stream state, packed: bit 16 set once stored; bits 0-1 the integer base (0 dec, 1 hex,
// 2 oct); bit 2 fixed floats; bits 8-15 the float precision.
inline uint32_t pack_print_state(int base, bool fixed, int precision) {
    return (1u << 16) | (base == 16 ? 1u : base == 8 ? 2u : 0u) | (fixed ? 4u : 0u) |
           (static_cast<uint32_t>(precision & 0xff) << 8);
}

class Printer {
public:
    Printer() {
        uint32_t s = api->dprint_state(0, 0);
        if (s & (1u << 16)) {
            base_ = (s & 3) == 1 ? 16 : (s & 3) == 2 ? 8 : 10;
            fixed_ = (s & 4) != 0;
            precision_ = static_cast<int>((s >> 8) & 0xff);
        }
    }
    Printer(const Printer&) = delete;
    ~Printer() {
        api->dprint_state(1, pack_print_state(base_, fixed_, precision_));
        if (!text_.empty()) api->dprint(text_.data(), static_cast<uint32_t>(text_.size()));
    }

    // The format-string form: DPRINT("x={}\n", x), DEVICE_PRINT(…).
    template <typename... A>
    Printer& operator()(const char* format, const A&... a) {
        const print::Arg args[sizeof...(A) + 1] = {print::make_arg(a)...};
        print::vformat(text_, format, args, sizeof...(A), [](const char* m) { tensim::fail(m); });
        slice_ended_line_ = false;
        return *this;
    }

    // The stream form.
    Printer& operator<<(const char* s) { return put(std::string_view(s)); }
    Printer& operator<<(std::string_view s) { return put(s); }
    Printer& operator<<(char c) { return put(std::string_view(&c, 1)); }
    Printer& operator<<(Endl) {
        // Directly after a tile slice that ended its text with a newline, ENDL adds none.
        if (!slice_ended_line_) text_ += '\n';
        slice_ended_line_ = false;
        return *this;
    }
    Printer& operator<<(Hex) { base_ = 16; return *this; }
    Printer& operator<<(Oct) { base_ = 8; return *this; }
    Printer& operator<<(Dec) { base_ = 10; return *this; }
    Printer& operator<<(SetW w) { width_ = w.w; return *this; }
    Printer& operator<<(Fixed) { fixed_ = true; return *this; }
    Printer& operator<<(DefaultFloat) { fixed_ = false; return *this; }
    Printer& operator<<(SetPrecision p) { precision_ = p.p; return *this; }
    Printer& operator<<(bool v) { return number(static_cast<int>(v)); }
    Printer& operator<<(int8_t v) { return number(static_cast<int>(v)); }
    Printer& operator<<(uint8_t v) { return number(static_cast<unsigned>(v)); }
    Printer& operator<<(int16_t v) { return number(v); }
    Printer& operator<<(uint16_t v) { return number(v); }
    Printer& operator<<(int32_t v) { return number(v); }
    Printer& operator<<(uint32_t v) { return number(v); }
    Printer& operator<<(long v) { return number(v); }
    Printer& operator<<(unsigned long v) { return number(v); }
    Printer& operator<<(long long v) { return number(v); }
    Printer& operator<<(unsigned long long v) { return number(v); }
    Printer& operator<<(float v) { return number(v); }
    Printer& operator<<(double v) { return number(v); }
    Printer& operator<<(BF16 v) { return number(v.to_float()); }
    Printer& operator<<(F32 v) { return number(v.v); }
    Printer& operator<<(U32 v) { return number(v.v); }
    // U32_ARRAY: each word as 0x<hex> and a space; the stream stays in hex.
    Printer& operator<<(U32Array a) {
        base_ = 16;
        for (uint32_t i = 0; i < a.n; i++) {
            char buf[16];
            std::snprintf(buf, sizeof buf, "0x%x ", a.p[i]);
            text_ += buf;
        }
        slice_ended_line_ = false;
        return *this;
    }
    template <typename T>
    Printer& operator<<(const T* p) {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%p", static_cast<const void*>(p));
        return put(buf);
    }
    Printer& operator<<(const TileSlice& t) {
        bool wr = t.ptr_type == TSLICE_WR_PTR;
        if (t.ptr_type == TSLICE_PTR_UNSET) {
#if defined(TRISC_PACK)
            wr = true;
#elif defined(TRISC_UNPACK)
            wr = false;
#else
            if (t.cb_type == TSLICE_TYPE_UNSET)
                fail("TSLICE: a data-movement or MATH kernel must name the CB and pointer (TSLICE_INPUT_CB, TSLICE_RD_PTR…)");
            wr = t.cb_type == TSLICE_OUTPUT_CB;
#endif
        }
        uint64_t r = uint64_t(t.range.h0) | uint64_t(t.range.h1) << 8 | uint64_t(t.range.hs) << 16 |
                     uint64_t(t.range.w0) << 24 | uint64_t(t.range.w1) << 32 | uint64_t(t.range.ws) << 40;
        uint32_t flags = (wr ? 1u : 0u) | (t.endl_rows ? 2u : 0u) | (t.untilized ? 4u : 0u) | (fixed_ ? 8u : 0u) |
                         static_cast<uint32_t>(precision_ & 0xff) << 8;
        std::string buf(4096, '\0');
        uint32_t n = api->tile_slice(t.cb, t.tile, r, flags, &buf[0], static_cast<uint32_t>(buf.size()));
        if (n > buf.size()) {
            buf.assign(n, '\0');
            n = api->tile_slice(t.cb, t.tile, r, flags, &buf[0], n);
        }
        text_.append(buf.data(), n);
        slice_ended_line_ = n > 0 && buf[n - 1] == '\n';
        return *this;
    }

private:
    Printer& put(std::string_view s) {
        if (width_ > 0 && s.size() < static_cast<size_t>(width_)) text_.append(static_cast<size_t>(width_) - s.size(), ' ');
        width_ = 0;
        text_.append(s.data(), s.size());
        slice_ended_line_ = false;
        return *this;
    }
    // A number as a default std::ostream prints it, in the stream's sticky state.
    template <typename T>
    Printer& number(T v) {
        print::stream_number(text_, v, base_, fixed_, precision_, width_);
        width_ = 0;
        slice_ended_line_ = false;
        return *this;
    }
    std::string text_;
    int precision_ = 6;
    int base_ = 10;
    bool fixed_ = false;
    int width_ = 0;
    bool slice_ended_line_ = false;
};
}  // namespace tensim

inline tensim::Endl ENDL() { return {}; }
inline tensim::Hex HEX() { return {}; }
inline tensim::Oct OCT() { return {}; }
inline tensim::SetW SETW(int w) { return {w}; }
inline tensim::Dec DEC() { return {}; }
inline tensim::Fixed FIXED() { return {}; }
inline tensim::DefaultFloat DEFAULTFLOAT() { return {}; }
inline tensim::SetPrecision SETPRECISION(int p) { return {p}; }
inline tensim::U32Array U32_ARRAY(const volatile uint32_t* p, uint32_t n) {
    return {const_cast<const uint32_t*>(p), n};
}
// DPRINT is both the stream (`DPRINT << …`) and the format-string call (`DPRINT("…", …)`).
#define DPRINT tensim::Printer()
#define DEVICE_PRINT(...) tensim::Printer()(__VA_ARGS__)
#ifdef TRISC_MATH
#define DPRINT_MATH(x) x
#define DEVICE_PRINT_MATH(...) DEVICE_PRINT(__VA_ARGS__)
#else
#define DPRINT_MATH(x)
#define DEVICE_PRINT_MATH(...)
#endif
#ifdef TRISC_PACK
#define DPRINT_PACK(x) x
#define DEVICE_PRINT_PACK(...) DEVICE_PRINT(__VA_ARGS__)
#else
#define DPRINT_PACK(x)
#define DEVICE_PRINT_PACK(...)
#endif
#ifdef TRISC_UNPACK
#define DPRINT_UNPACK(x) x
#define DEVICE_PRINT_UNPACK(...) DEVICE_PRINT(__VA_ARGS__)
#else
#define DPRINT_UNPACK(x)
#define DEVICE_PRINT_UNPACK(...)
#endif
#if defined(COMPILE_FOR_NCRISC)
#define DPRINT_DATA0(x)
#define DPRINT_DATA1(x) x
#define DEVICE_PRINT_DATA0(...)
#define DEVICE_PRINT_DATA1(...) DEVICE_PRINT(__VA_ARGS__)
#elif defined(COMPILE_FOR_BRISC) || defined(COMPILE_FOR_ERISC)
#define DPRINT_DATA0(x) x
#define DPRINT_DATA1(x)
#define DEVICE_PRINT_DATA0(...) DEVICE_PRINT(__VA_ARGS__)
#define DEVICE_PRINT_DATA1(...)
#else
#define DPRINT_DATA0(x)
#define DPRINT_DATA1(x)
#define DEVICE_PRINT_DATA0(...)
#define DEVICE_PRINT_DATA1(...)
#endif
