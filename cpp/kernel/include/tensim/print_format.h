// The number and format-string formatting of tensim's device printing (tensim/dprint.h), kept small so
// that every kernel compiles quickly: numbers as a default std::ostream prints them (printf's %g with the
// stream's precision, %f when fixed, %x / %o in hex / octal), and {fmt}'s replacement fields ({}, {N},
// {:spec} with fill, align, sign, '#', '0', width, precision and the d x X o b e f g s c p types; {} prints
// a float in its shortest round-trip form, as {fmt} does).
#pragma once
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>
#include <type_traits>

namespace tensim::print {
// One format-string argument, type-erased.
struct Arg {
    enum Kind { Int, Uint, Float, Double, Bool, Char, Str, Ptr } kind;
    int64_t i = 0;
    uint64_t u = 0;
    double d = 0;
    std::string_view s;
};

template <typename T>
Arg make_arg(const T& v) {
    using U = std::remove_cv_t<std::remove_reference_t<T>>;
    Arg a{Arg::Int};
    if constexpr (std::is_same_v<U, bool>) {
        a.kind = Arg::Bool, a.u = v;
    } else if constexpr (std::is_same_v<U, char>) {
        a.kind = Arg::Char, a.i = v;
    } else if constexpr (std::is_enum_v<U>) {
        a.kind = Arg::Int, a.i = static_cast<int64_t>(v);
    } else if constexpr (std::is_integral_v<U> && std::is_signed_v<U>) {
        a.kind = Arg::Int, a.i = v;
    } else if constexpr (std::is_integral_v<U>) {
        a.kind = Arg::Uint, a.u = v;
    } else if constexpr (std::is_same_v<U, float>) {
        a.kind = Arg::Float, a.d = v;
    } else if constexpr (std::is_floating_point_v<U>) {
        a.kind = Arg::Double, a.d = static_cast<double>(v);
    } else if constexpr (std::is_array_v<U>) {
        a.kind = Arg::Str, a.s = std::string_view(v);
    } else if constexpr (std::is_convertible_v<U, std::string_view> && !std::is_pointer_v<U>) {
        a.kind = Arg::Str, a.s = std::string_view(v);
    } else if constexpr (std::is_pointer_v<U>) {
        a.kind = Arg::Ptr, a.u = reinterpret_cast<uintptr_t>(v);
    } else if constexpr (std::is_same_v<decltype(std::declval<const U&>().to_float()), float>) {
        a.kind = Arg::Float, a.d = v.to_float();
    } else {
        static_assert(sizeof(U) == 0, "DEVICE_PRINT: this argument type cannot be printed");
    }
    return a;
}

struct Spec {
    char fill = ' ', align = 0, sign = 0, type = 0;
    bool alt = false, zero = false;
    int width = 0, precision = -1;
};

inline void pad(std::string& out, const char* body, size_t n, const Spec& s, char default_align) {
    size_t w = s.width > 0 ? static_cast<size_t>(s.width) : 0;
    if (n >= w) {
        out.append(body, n);
        return;
    }
    size_t fill = w - n;
    char a = s.align ? s.align : default_align;
    if (s.zero && !s.align) {
        // Zero padding goes after a sign or base prefix.
        size_t lead = (n > 0 && (body[0] == '-' || body[0] == '+' || body[0] == ' ')) ? 1 : 0;
        if (n > lead + 1 && body[lead] == '0' && (body[lead + 1] == 'x' || body[lead + 1] == 'X' || body[lead + 1] == 'b'))
            lead += 2;
        out.append(body, lead);
        out.append(fill, '0');
        out.append(body + lead, n - lead);
        return;
    }
    size_t before = a == '>' ? fill : a == '^' ? fill / 2 : 0;
    out.append(before, s.fill);
    out.append(body, n);
    out.append(fill - before, s.fill);
}

// The shortest decimal form that reads back as the same value: fixed for exponents in [-4, 16) (floats:
// [-4, 7)), else exponential; no trailing point.
inline int shortest(char* buf, size_t cap, double v, bool single) {
    int p = 1;
    for (; p < 17; p++) {
        std::snprintf(buf, cap, "%.*e", p - 1, v);
        double back = std::strtod(buf, nullptr);
        if (single ? static_cast<float>(back) == static_cast<float>(v) : back == v) break;
    }
    std::snprintf(buf, cap, "%.*e", p - 1, v);
    const char* e = std::strchr(buf, 'e');
    int exp10 = e ? std::atoi(e + 1) : 0;
    if (exp10 >= -4 && exp10 < (single ? 7 : 16)) return std::snprintf(buf, cap, "%.*f", p - 1 - exp10 > 0 ? p - 1 - exp10 : 0, v);
    return std::snprintf(buf, cap, "%.*e", p - 1, v);
}

inline void format_one(std::string& out, const Arg& a, const Spec& s) {
    char buf[512];
    int n = 0;
    const char* sign = s.sign == '+' ? "+" : s.sign == ' ' ? " " : "";
    switch (a.kind) {
        case Arg::Str: {
            std::string_view v = a.s;
            if (s.precision >= 0 && static_cast<size_t>(s.precision) < v.size()) v = v.substr(0, s.precision);
            return pad(out, v.data(), v.size(), s, '<');
        }
        case Arg::Bool:
            if (!s.type || s.type == 's') return pad(out, a.u ? "true" : "false", a.u ? 4 : 5, s, '<');
            n = std::snprintf(buf, sizeof buf, "%llu", static_cast<unsigned long long>(a.u));
            return pad(out, buf, n, s, '>');
        case Arg::Char:
            if (!s.type || s.type == 'c') {
                char c = static_cast<char>(a.i);
                return pad(out, &c, 1, s, '<');
            }
            [[fallthrough]];
        case Arg::Int:
        case Arg::Uint: {
            bool neg = a.kind != Arg::Uint && a.i < 0;
            unsigned long long m = a.kind == Arg::Uint ? a.u : neg ? 0ull - static_cast<unsigned long long>(a.i)
                                                                   : static_cast<unsigned long long>(a.i);
            const char* pre = "";
            char digits[80];
            int dn = 0;
            switch (s.type) {
                case 'x': dn = std::snprintf(digits, sizeof digits, "%llx", m), pre = s.alt ? "0x" : ""; break;
                case 'X': dn = std::snprintf(digits, sizeof digits, "%llX", m), pre = s.alt ? "0X" : ""; break;
                case 'o': dn = std::snprintf(digits, sizeof digits, "%llo", m), pre = s.alt && m ? "0" : ""; break;
                case 'b': {
                    char tmp[65];
                    int k = 0;
                    do tmp[k++] = static_cast<char>('0' + (m & 1)), m >>= 1;
                    while (m);
                    for (int i = 0; i < k; i++) digits[i] = tmp[k - 1 - i];
                    dn = k;
                    pre = s.alt ? "0b" : "";
                    break;
                }
                case 'c': {
                    char c = static_cast<char>(m);
                    return pad(out, &c, 1, s, '<');
                }
                default: dn = std::snprintf(digits, sizeof digits, "%llu", m);
            }
            n = std::snprintf(buf, sizeof buf, "%s%s%.*s", neg ? "-" : sign, pre, dn, digits);
            return pad(out, buf, n, s, '>');
        }
        case Arg::Float:
        case Arg::Double: {
            if (!s.type && s.precision < 0) {
                n = std::snprintf(buf, sizeof buf, "%s", a.d < 0 || !sign[0] ? "" : sign);
                n += shortest(buf + n, sizeof buf - n, a.d, a.kind == Arg::Float);
            } else {
                char conv = s.type ? s.type : 'g';
                char f[16];
                std::snprintf(f, sizeof f, "%%%s%s.*%c", sign, s.alt ? "#" : "", conv);
                n = std::snprintf(buf, sizeof buf, f, s.precision < 0 ? 6 : s.precision, a.d);
            }
            return pad(out, buf, n, s, '>');
        }
        case Arg::Ptr:
            n = std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(a.u));
            return pad(out, buf, n, s, '>');
    }
}

inline Spec parse_spec(std::string_view t) {
    Spec p;
    size_t i = 0;
    auto is_align = [](char c) { return c == '<' || c == '>' || c == '^'; };
    if (t.size() >= 2 && is_align(t[1])) {
        p.fill = t[0], p.align = t[1], i = 2;
    } else if (!t.empty() && is_align(t[0])) {
        p.align = t[0], i = 1;
    }
    if (i < t.size() && (t[i] == '+' || t[i] == '-' || t[i] == ' ')) p.sign = t[i++];
    if (i < t.size() && t[i] == '#') p.alt = true, i++;
    if (i < t.size() && t[i] == '0') p.zero = true, i++;
    while (i < t.size() && t[i] >= '0' && t[i] <= '9') p.width = p.width * 10 + (t[i++] - '0');
    if (i < t.size() && t[i] == '.') {
        p.precision = 0;
        i++;
        while (i < t.size() && t[i] >= '0' && t[i] <= '9') p.precision = p.precision * 10 + (t[i++] - '0');
    }
    if (i < t.size()) p.type = t[i];
    return p;
}

// {fmt}'s replacement fields over `args`; a field naming a missing argument is a kernel error.
inline void vformat(std::string& out, std::string_view f, const Arg* args, size_t nargs, void (*fail)(const char*)) {
    size_t next = 0;
    for (size_t i = 0; i < f.size(); i++) {
        char c = f[i];
        if (c == '{' && i + 1 < f.size() && f[i + 1] == '{') {
            out += '{', i++;
        } else if (c == '}' && i + 1 < f.size() && f[i + 1] == '}') {
            out += '}', i++;
        } else if (c == '{') {
            size_t close = f.find('}', i);
            if (close == std::string_view::npos) return fail("DEVICE_PRINT: an unclosed { in the format string");
            std::string_view field = f.substr(i + 1, close - i - 1);
            size_t colon = field.find(':');
            std::string_view id = field.substr(0, colon);
            size_t index = next++;
            if (!id.empty()) {
                index = 0;
                for (char d : id) index = index * 10 + static_cast<size_t>(d - '0');
            }
            if (index >= nargs) return fail("DEVICE_PRINT: the format string names more arguments than it is given");
            format_one(out, args[index], colon == std::string_view::npos ? Spec{} : parse_spec(field.substr(colon + 1)));
            i = close;
        } else {
            out += c;
        }
    }
}

// A number as a default std::ostream in the given state prints it.
template <typename T>
void stream_number(std::string& out, T v, int base, bool fixed, int precision, int width) {
    char buf[512];
    int n;
    if constexpr (std::is_floating_point_v<T>) {
        n = std::snprintf(buf, sizeof buf, fixed ? "%*.*f" : "%*.*g", width, precision, static_cast<double>(v));
    } else if constexpr (std::is_signed_v<T>) {
        if (base == 10) {
            n = std::snprintf(buf, sizeof buf, "%*lld", width, static_cast<long long>(v));
        } else {
            // std::hex / std::oct print a negative number's bits as unsigned.
            auto u = static_cast<unsigned long long>(static_cast<std::make_unsigned_t<T>>(v));
            n = std::snprintf(buf, sizeof buf, base == 16 ? "%*llx" : "%*llo", width, u);
        }
    } else {
        auto u = static_cast<unsigned long long>(v);
        n = std::snprintf(buf, sizeof buf, base == 16 ? "%*llx" : base == 8 ? "%*llo" : "%*llu", width, u);
    }
    out.append(buf, static_cast<size_t>(n));
}
}  // namespace tensim::print
