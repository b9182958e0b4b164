// tensim: tt-logger (tt-logger/tt-logger.hpp), written for tensim from the documented interface on the
// shipped {fmt}: tt::log_{trace,debug,info,warning,error,critical,fatal}(type, fmt, args…) print one line
// "<Type> | <LEVEL> | <message>" (info and below to stdout, warnings and errors to stderr); trace and debug
// only with TT_LOGGER_LEVEL=trace|debug. log_fatal logs; it does not throw or abort.
#pragma once
#include <array>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <ostream>
#include <string>

#include "tensim/fmt.hpp"

namespace tt {
enum LogType {
    LogAlways, LogTest, LogTimer, LogDevice, LogModel, LogLLRuntime, LogLoader, LogIO, LogCompileTrisc,
    LogBuildKernels, LogVerif, LogGolden, LogOp, LogHLK, LogHLKC, LogReportify, LogGraphCompiler, LogDispatch,
    LogFabric, LogMetal, LogMetalTrace, LogSiliconDriver, LogEmulationDriver,
};
constexpr std::array<const char*, 23> log_type_names = {
    "Always", "Test", "Timer", "Device", "Model", "LLRuntime", "Loader", "IO", "CompileTrisc", "BuildKernels",
    "Verif", "Golden", "Op", "HLK", "HLKC", "Reportify", "GraphCompiler", "Dispatch", "Fabric", "Metal",
    "MetalTrace", "SiliconDriver", "EmulationDriver",
};
constexpr const char* logtype_to_string(LogType t) noexcept {
    return static_cast<size_t>(t) < log_type_names.size() ? log_type_names[t] : "Unknown";
}
}  // namespace tt

namespace tensim::log {
inline int threshold() {
    static int t = [] {
        const char* v = std::getenv("TT_LOGGER_LEVEL");
        std::string s = v ? v : "";
        for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        return s == "trace" ? 0 : s == "debug" ? 1 : s == "warning" ? 3 : s == "error" ? 4 : 2;
    }();
    return t;
}
template <typename F, typename... A>
void emit(int level, const char* name, tt::LogType type, const F& f, const A&... a) {
    if (level < threshold()) return;
    std::string m = fmt::format(f, a...);
    std::fflush(stdout);
    fmt::print(level >= 3 ? stderr : stdout, "{:>18} | {:<8} | {}\n", tt::logtype_to_string(type), name, m);
}
}  // namespace tensim::log

#define TENSIM_LOG_FN(fn, level, label)                                                           \
    template <typename F, typename... A>                                                          \
    void fn(tt::LogType type, const F& f, const A&... a) {                                        \
        tensim::log::emit(level, label, type, f, a...);                                           \
    }                                                                                             \
    template <typename F, typename... A>                                                          \
        requires(!std::is_same_v<F, tt::LogType>)                                                 \
    void fn(const F& f, const A&... a) {                                                          \
        tensim::log::emit(level, label, tt::LogAlways, f, a...);                                  \
    }
namespace tt {
TENSIM_LOG_FN(log_trace, 0, "TRACE")
TENSIM_LOG_FN(log_debug, 1, "DEBUG")
TENSIM_LOG_FN(log_info, 2, "INFO")
TENSIM_LOG_FN(log_warning, 3, "WARNING")
TENSIM_LOG_FN(log_error, 4, "ERROR")
TENSIM_LOG_FN(log_critical, 4, "CRITICAL")
TENSIM_LOG_FN(log_fatal, 4, "FATAL")
}  // namespace tt
#undef TENSIM_LOG_FN
// Older programs call them unqualified without `using namespace tt`.
using tt::log_critical;
using tt::log_debug;
using tt::log_error;
using tt::log_fatal;
using tt::log_info;
using tt::log_trace;
using tt::log_warning;

namespace tt {
// A log type prints as its name.
inline std::ostream& operator<<(std::ostream& o, LogType t) { return o << logtype_to_string(t); }
}  // namespace tt
