// DPRINT for tensim kernels: `DPRINT << "x = " << x << ENDL();` prints one line on the run's output,
// tagged by tensim with the core and RISC. A statement's text is sent when the statement ends.
#pragma once
#include <cstring>
#include <cstdio>
#include <string>

#include "tensim/common.h"

namespace tensim {
struct Endl {};
struct Hex { uint32_t v; };
struct Dec {};
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
    Printer& operator<<(Hex h) { return fmt("0x%x", h.v); }
    Printer& operator<<(Dec) { return *this; }
    Printer& operator<<(Fixed) { return *this; }
    Printer& operator<<(SetPrecision p) { precision_ = p.p; return *this; }
    Printer& operator<<(bool v) { text_ += v ? "1" : "0"; return *this; }
    Printer& operator<<(int8_t v) { return fmt("%d", static_cast<int>(v)); }
    Printer& operator<<(uint8_t v) { return fmt("%u", static_cast<unsigned>(v)); }
    Printer& operator<<(int16_t v) { return fmt("%d", static_cast<int>(v)); }
    Printer& operator<<(uint16_t v) { return fmt("%u", static_cast<unsigned>(v)); }
    Printer& operator<<(int32_t v) { return fmt("%d", v); }
    Printer& operator<<(uint32_t v) { return fmt("%u", v); }
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
};
}  // namespace tensim

inline tensim::Endl ENDL() { return {}; }
inline tensim::Hex HEX(uint32_t v = 0) { return {v}; }
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
