// tensim: TT-Metalium's checks (tt_stl/assert.hpp), written for tensim from the documented interface.
// TT_THROW(fmt, args…) always throws; TT_FATAL(cond, fmt, args…) throws when cond is false; TT_ASSERT(cond,
// …) checks only when DEBUG is defined (its arguments are not evaluated otherwise). What is thrown is a
// std::runtime_error whose what() is "<TT_FATAL|TT_THROW|TT_ASSERT> @ <file>:<line>: <condition>\ninfo:\n
// <message>" (the message is logged at critical level first); with TT_ASSERT_ABORT set it aborts instead.
#pragma once
#include <cstdlib>
#include <cxxabi.h>
#include <execinfo.h>
#include <iostream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "tensim/fmt.hpp"
#include "tt-logger/tt-logger.hpp"

namespace tt::assert {
inline std::string demangle(const char* name) {
    int status = 0;
    char* d = abi::__cxa_demangle(name, nullptr, nullptr, &status);
    std::string r = status == 0 && d ? d : name;
    std::free(d);
    return r;
}
inline std::vector<std::string> backtrace(int size = 64, int skip = 1) {
    std::vector<void*> frames(static_cast<size_t>(size));
    int n = ::backtrace(frames.data(), size);
    std::vector<std::string> out;
    char** syms = ::backtrace_symbols(frames.data(), n);
    for (int i = skip; i < n && syms; i++) out.emplace_back(syms[i]);
    std::free(syms);
    return out;
}
inline std::string backtrace_to_string(int size = 64, int skip = 2, const std::string& prefix = "") {
    std::string s;
    for (const auto& f : backtrace(size, skip)) s += prefix + " --- " + f + "\n";
    return s;
}
template <typename... A>
[[noreturn]] void tt_throw(const char* file, int line, const char* assert_type, const char* condition_str,
                           const A&... a) {
    std::string m = fmt::format("{} @ {}:{}: {}", assert_type, file, line, condition_str);
    if constexpr (sizeof...(A) > 0) {
        std::string info = fmt::format(a...);
        tt::log_critical(tt::LogAlways, "{}", info);
        m += "\ninfo:\n" + info;
    }
    if (std::getenv("TT_ASSERT_ABORT")) {
        std::fprintf(stderr, "%s\n", m.c_str());
        std::abort();
    }
    throw std::runtime_error(m);
}
}  // namespace tt::assert

#ifndef TT_THROW
#define TT_THROW(...) ::tt::assert::tt_throw(__FILE__, __LINE__, "TT_THROW", "tt::exception" __VA_OPT__(, ) __VA_ARGS__)
#endif
#ifndef TT_FATAL
#define TT_FATAL(condition, message, ...)                                                                       \
    do {                                                                                                         \
        if (!(condition)) [[unlikely]]                                                                           \
            ::tt::assert::tt_throw(__FILE__, __LINE__, "TT_FATAL", #condition, message __VA_OPT__(, ) __VA_ARGS__); \
    } while (0)
#endif
#ifndef TT_ASSERT
#ifdef DEBUG
#define TT_ASSERT(condition, ...)                                                                               \
    do {                                                                                                         \
        if (!(condition)) [[unlikely]]                                                                           \
            ::tt::assert::tt_throw(__FILE__, __LINE__, "TT_ASSERT", #condition __VA_OPT__(, ) __VA_ARGS__);      \
    } while (0)
#else
#define TT_ASSERT(condition, ...)
#endif
#endif
