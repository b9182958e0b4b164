// A small implementation of the part of the {fmt} library TT-Metalium programs use (fmt::print,
// fmt::format, fmt::println, fmt::join, fmt::runtime; replacement fields {} {0} {:spec} with fill, align,
// sign, '#', '0', width, precision and the d x X o b e f g s c p types; ranges print as [a, b, c]).
// Written for tensim so that the examples' printing needs nothing beyond the compiler.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstdio>
#include <cstring>
#include <iterator>
#include <ostream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace fmt {

class format_error : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

namespace detail {

struct Spec {
    char fill = ' ';
    char align = 0;  // '<', '>', '^' or 0
    char sign = 0;
    bool alt = false;
    bool zero = false;
    int width = 0;
    int precision = -1;
    char type = 0;
};

inline Spec parse_spec(std::string_view s) {
    Spec p;
    size_t i = 0;
    auto is_align = [](char c) { return c == '<' || c == '>' || c == '^'; };
    if (s.size() >= 2 && is_align(s[1])) {
        p.fill = s[0];
        p.align = s[1];
        i = 2;
    } else if (!s.empty() && is_align(s[0])) {
        p.align = s[0];
        i = 1;
    }
    if (i < s.size() && (s[i] == '+' || s[i] == '-' || s[i] == ' ')) p.sign = s[i++];
    if (i < s.size() && s[i] == '#') p.alt = true, i++;
    if (i < s.size() && s[i] == '0') p.zero = true, i++;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') p.width = p.width * 10 + (s[i++] - '0');
    if (i < s.size() && s[i] == '.') {
        i++;
        p.precision = 0;
        while (i < s.size() && s[i] >= '0' && s[i] <= '9') p.precision = p.precision * 10 + (s[i++] - '0');
    }
    if (i < s.size()) p.type = s[i++];
    if (i != s.size()) throw format_error("fmt: unsupported format spec '" + std::string(s) + "'");
    return p;
}

inline void pad(std::string& out, const std::string& body, const Spec& s, char default_align) {
    int n = static_cast<int>(body.size());
    if (s.width <= n) {
        out += body;
        return;
    }
    int fill = s.width - n;
    char a = s.align ? s.align : default_align;
    if (s.zero && !s.align) {
        size_t sign = (!body.empty() && (body[0] == '-' || body[0] == '+' || body[0] == ' ')) ? 1 : 0;
        size_t prefix = sign;
        if (body.size() > sign + 1 && body[sign] == '0' && (body[sign + 1] == 'x' || body[sign + 1] == 'X' ||
                                                           body[sign + 1] == 'b'))
            prefix += 2;
        out += body.substr(0, prefix);
        out.append(fill, '0');
        out += body.substr(prefix);
        return;
    }
    int left = a == '>' ? fill : a == '^' ? fill / 2 : 0;
    out.append(left, s.fill);
    out += body;
    out.append(fill - left, s.fill);
}

template <typename T>
void format_int(std::string& out, T v, const Spec& s) {
    if (s.type == 'c') {
        pad(out, std::string(1, static_cast<char>(v)), s, '<');
        return;
    }
    bool neg = false;
    unsigned long long u;
    if constexpr (std::is_signed_v<T>) {
        neg = v < 0;
        u = neg ? 0ull - static_cast<unsigned long long>(v) : static_cast<unsigned long long>(v);
    } else {
        u = static_cast<unsigned long long>(v);
    }
    int base = 10;
    const char* digits = "0123456789abcdef";
    std::string prefix;
    switch (s.type) {
        case 'x': base = 16; prefix = s.alt ? "0x" : ""; break;
        case 'X': base = 16; digits = "0123456789ABCDEF"; prefix = s.alt ? "0X" : ""; break;
        case 'o': base = 8; prefix = s.alt ? "0" : ""; break;
        case 'b': base = 2; prefix = s.alt ? "0b" : ""; break;
        case 0: case 'd': break;
        default: throw format_error(std::string("fmt: bad type '") + s.type + "' for an integer");
    }
    std::string d;
    do {
        d.insert(d.begin(), digits[u % base]);
        u /= base;
    } while (u);
    std::string body = (neg ? "-" : (s.sign == '+' ? "+" : s.sign == ' ' ? " " : "")) + prefix + d;
    pad(out, body, s, '>');
}

inline void format_float(std::string& out, double v, const Spec& s, bool single = false) {
    char conv = s.type ? s.type : 'g';
    std::string f = "%";
    if (s.sign == '+') f += '+';
    if (s.sign == ' ') f += ' ';
    if (s.alt) f += '#';
    char buf[512];
    if (!s.type && s.precision < 0) {
        // The fewest significant digits that round-trip, as {fmt} prints by default: fixed notation for
        // decimal exponents in [-4, 16) (floats: [-4, 7)), else exponential (70 → "70", 1e-05 → "1e-05").
        int p = 1;
        for (; p < 17; p++) {
            std::snprintf(buf, sizeof buf, "%.*e", p - 1, v);
            if (single ? static_cast<float>(std::strtod(buf, nullptr)) == static_cast<float>(v) : std::strtod(buf, nullptr) == v) break;
        }
        std::snprintf(buf, sizeof buf, "%.*e", p - 1, v);
        const char* e = std::strchr(buf, 'e');
        int exp10 = e && std::isfinite(v) ? std::atoi(e + 1) : 0;
        if (!std::isfinite(v)) {
            std::snprintf(buf, sizeof buf, (f + "g").c_str(), v);
        } else if (exp10 >= -4 && exp10 < (single ? 7 : 16)) {
            std::snprintf(buf, sizeof buf, (f + ".*f").c_str(), std::max(0, p - 1 - exp10), v);
        } else {
            std::snprintf(buf, sizeof buf, (f + ".*e").c_str(), p - 1, v);
        }
    } else {
        if (conv != 'f' && conv != 'F' && conv != 'e' && conv != 'E' && conv != 'g' && conv != 'G' && conv != 'a')
            throw format_error(std::string("fmt: bad type '") + conv + "' for a floating-point value");
        std::string spec = f + "." + std::to_string(s.precision < 0 ? 6 : s.precision) + conv;
        std::snprintf(buf, sizeof buf, spec.c_str(), v);
    }
    pad(out, buf, s, '>');
}

// Anything with operator<< prints through it.
template <typename T, typename = void>
struct streamable : std::false_type {};
template <typename T>
struct streamable<T, std::void_t<decltype(std::declval<std::ostream&>() << std::declval<const T&>())>>
    : std::true_type {};
template <typename T, typename = void>
struct is_range : std::false_type {};
template <typename T>
struct is_range<T, std::void_t<decltype(std::begin(std::declval<const T&>())),
                               decltype(std::end(std::declval<const T&>()))>> : std::true_type {};
template <typename T, typename = void>
struct has_str : std::false_type {};
template <typename T>
struct has_str<T, std::void_t<decltype(std::declval<const T&>().str())>> : std::true_type {};
template <typename T, typename = void>
struct has_to_float : std::false_type {};
template <typename T>
struct has_to_float<T, std::void_t<decltype(std::declval<const T&>().to_float())>> : std::true_type {};

template <typename T>
void format_value(std::string& out, const T& v, const Spec& s);

template <typename It, typename Sent>
struct join_view {
    It begin;
    Sent end;
    std::string sep;
};

template <typename T>
void format_value(std::string& out, const T& v, const Spec& s) {
    using U = std::remove_cvref_t<T>;
    if constexpr (std::is_same_v<U, bool>) {
        if (s.type && s.type != 's') format_int(out, static_cast<int>(v), s);
        else pad(out, v ? "true" : "false", s, '<');
    } else if constexpr (std::is_same_v<U, char>) {
        if (s.type && s.type != 'c') format_int(out, static_cast<int>(v), s);
        else pad(out, std::string(1, v), s, '<');
    } else if constexpr (std::is_integral_v<U>) {
        format_int(out, v, s);
    } else if constexpr (std::is_enum_v<U> && !streamable<U>::value) {
        format_int(out, static_cast<std::underlying_type_t<U>>(v), s);
    } else if constexpr (std::is_floating_point_v<U>) {
        format_float(out, static_cast<double>(v), s, std::is_same_v<U, float>);
    } else if constexpr (std::is_convertible_v<const U&, std::string_view>) {
        std::string_view sv = v;
        if (s.precision >= 0 && static_cast<size_t>(s.precision) < sv.size()) sv = sv.substr(0, s.precision);
        pad(out, std::string(sv), s, '<');
    } else if constexpr (std::is_pointer_v<U>) {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%p", static_cast<const void*>(v));
        pad(out, buf, s, '>');
    } else if constexpr (has_to_float<U>::value) {
        format_float(out, static_cast<double>(v.to_float()), s, true);
    } else if constexpr (has_str<U>::value) {
        pad(out, v.str(), s, '<');
    } else if constexpr (streamable<U>::value) {
        std::ostringstream os;
        os << v;
        pad(out, os.str(), s, '<');
    } else if constexpr (is_range<U>::value) {
        std::string body = "[";
        bool first = true;
        for (const auto& e : v) {
            if (!first) body += ", ";
            first = false;
            if constexpr (std::is_convertible_v<decltype(e), std::string_view> && !std::is_same_v<std::decay_t<decltype(e)>, char>) {
                body += '"';
                format_value(body, e, Spec{});
                body += '"';
            } else {
                format_value(body, e, Spec{});
            }
        }
        body += "]";
        pad(out, body, s, '<');
    } else if constexpr (std::is_constructible_v<float, const U&>) {
        format_float(out, static_cast<double>(static_cast<float>(v)), s, true);
    } else {
        static_assert(sizeof(U) == 0, "fmt (tensim): this type cannot be formatted");
    }
}

template <typename It, typename Sent>
void format_join(std::string& out, const join_view<It, Sent>& j, const Spec& s) {
    bool first = true;
    for (It it = j.begin; it != j.end; ++it) {
        if (!first) out += j.sep;
        first = false;
        format_value(out, *it, s);
    }
}

using Formatter = void (*)(std::string&, const void*, const Spec&);

struct Arg {
    const void* p;
    Formatter f;
};

inline std::string vformat(std::string_view f, const Arg* args, size_t n) {
    std::string out;
    size_t next = 0;
    for (size_t i = 0; i < f.size(); i++) {
        char c = f[i];
        if (c == '{') {
            if (i + 1 < f.size() && f[i + 1] == '{') {
                out += '{';
                i++;
                continue;
            }
            size_t close = f.find('}', i);
            if (close == std::string_view::npos) throw format_error("fmt: unmatched '{' in format string");
            std::string_view field = f.substr(i + 1, close - i - 1);
            std::string_view id = field.substr(0, field.find(':'));
            std::string_view spec = field.find(':') == std::string_view::npos ? std::string_view{} : field.substr(field.find(':') + 1);
            size_t index = next++;
            if (!id.empty()) {
                index = 0;
                for (char d : id) {
                    if (d < '0' || d > '9') throw format_error("fmt: named arguments are not supported");
                    index = index * 10 + (d - '0');
                }
            }
            if (index >= n) throw format_error("fmt: argument index out of range in \"" + std::string(f) + "\"");
            args[index].f(out, args[index].p, parse_spec(spec));
            i = close;
        } else if (c == '}') {
            if (i + 1 < f.size() && f[i + 1] == '}') i++;
            out += '}';
        } else {
            out += c;
        }
    }
    return out;
}

}  // namespace detail

template <typename It, typename Sent>
struct join_view : detail::join_view<It, Sent> {};

template <typename Range>
auto join(const Range& r, std::string_view sep) {
    using It = decltype(std::begin(r));
    return join_view<It, It>{{std::begin(r), std::end(r), std::string(sep)}};
}
template <typename It, typename Sent>
auto join(It b, Sent e, std::string_view sep) {
    return join_view<It, Sent>{{b, e, std::string(sep)}};
}

namespace detail {
template <typename It, typename Sent>
void format_value(std::string& out, const fmt::join_view<It, Sent>& j, const Spec& s) {
    format_join(out, j, s);
}
}  // namespace detail

struct runtime_format_string {
    std::string_view str;
};
inline runtime_format_string runtime(std::string_view s) { return {s}; }

namespace detail {
inline std::string_view view(std::string_view s) { return s; }
inline std::string_view view(runtime_format_string s) { return s.str; }
template <typename T>
void erased_plain(std::string& out, const void* p, const Spec& s) {
    format_value(out, *static_cast<const T*>(p), s);
}
}  // namespace detail

// fmt::format_string<Args...>: a format string checked (in {fmt}) against its arguments; here any string.
template <typename... Args>
using format_string = std::string_view;

template <typename F, typename... Args>
std::string format(const F& f, const Args&... args) {
    detail::Arg a[sizeof...(Args) + 1] = {detail::Arg{&args, &detail::erased_plain<std::remove_cvref_t<Args>>}...};
    return detail::vformat(detail::view(f), a, sizeof...(Args));
}

template <typename F, typename... Args>
void print(const F& f, const Args&... args) {
    std::string s = fmt::format(f, args...);
    std::fwrite(s.data(), 1, s.size(), stdout);
}
template <typename F, typename... Args>
void print(std::FILE* file, const F& f, const Args&... args) {
    std::string s = fmt::format(f, args...);
    std::fwrite(s.data(), 1, s.size(), file);
}
template <typename F, typename... Args>
void println(const F& f, const Args&... args) {
    std::string s = fmt::format(f, args...);
    s += '\n';
    std::fwrite(s.data(), 1, s.size(), stdout);
}
template <typename F, typename... Args>
void println(std::FILE* file, const F& f, const Args&... args) {
    std::string s = fmt::format(f, args...);
    s += '\n';
    std::fwrite(s.data(), 1, s.size(), file);
}
template <typename OutIt, typename F, typename... Args>
OutIt format_to(OutIt out, const F& f, const Args&... args) {
    std::string s = fmt::format(f, args...);
    return std::copy(s.begin(), s.end(), out);
}
template <typename T>
std::string to_string(const T& v) {
    return fmt::format("{}", v);
}

// {fmt}'s customisation point: a formatter<T> specialisation with format(v, ctx) is not supported by this
// implementation; types print through operator<<, str() or as ranges instead.
template <typename T, typename Char = char, typename Enable = void>
struct formatter {};

}  // namespace fmt
