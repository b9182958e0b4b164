// The entry of a kernel built by tensim: sets up the API table, runs the kernel, and turns what would end
// the process from inside a kernel into a kernel error tensim reports with the kernel's name, core and
// RISC: a C++ exception that leaves the kernel (its type and what()), and a call to exit, _exit, _Exit or
// quick_exit (linked with --wrap), which jumps back to the entry as exit would leave the kernel's frames
// (unwinding through `exit`, declared noexcept, would terminate). Included once, by the wrapper tensim
// compiles around each kernel; written for tensim.
#pragma once
#include <cxxabi.h>

#include <csetjmp>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <new>
#include <stdexcept>
#include <string>
#include <typeinfo>

#include "tensim/abi.h"

extern "C" __attribute__((visibility("default"))) unsigned tensim_abi_version() { return TENSIM_ABI_VERSION; }

namespace tensim {
// The message of an exception that left the kernel, written in the catch handler and reported after it
// (tensim's error unwinds as a foreign exception, which must not start inside a C++ catch handler).
inline char kernel_threw[512];

// "std::runtime_error" for a type's mangled name (the mangled name if it does not demangle).
inline void note_exception(const std::type_info& t, const char* what) {
    int status = 0;
    char* name = abi::__cxa_demangle(t.name(), nullptr, nullptr, &status);
    std::snprintf(kernel_threw, sizeof kernel_threw, "the kernel threw a C++ exception (%s): %s",
                  status == 0 && name ? name : t.name(), what);
    std::free(name);
}

inline void enter(const tensim_api* table) {
    api = table;
    l1_end = table->l1_size();
    kernel_threw[0] = 0;
}

inline void leave() {
    if (kernel_threw[0] != 0) api->fail(kernel_threw);
}

[[noreturn]] inline void kernel_exit(const char* how, int code) {
    std::snprintf(kernel_threw, sizeof kernel_threw,
                  "the kernel called %s(%d): a kernel cannot end the program; return from kernel_main instead", how,
                  code);
    void* jump = api->exit_jump(nullptr);
    if (jump == nullptr) api->fail(kernel_threw);
    std::longjmp(*static_cast<std::jmp_buf*>(jump), 1);
}
}  // namespace tensim

extern "C" {
[[noreturn]] void __wrap_exit(int code) { tensim::kernel_exit("exit", code); }
[[noreturn]] void __wrap__exit(int code) { tensim::kernel_exit("_exit", code); }
[[noreturn]] void __wrap__Exit(int code) { tensim::kernel_exit("_Exit", code); }
[[noreturn]] void __wrap_quick_exit(int code) { tensim::kernel_exit("quick_exit", code); }
}

// Run the kernel call `body` with its exit jump set; an exception or exit ends it with a report.
#define TENSIM_RUN_KERNEL(body)                                                                                \
    {                                                                                                          \
        std::jmp_buf tensim_jump;                                                                              \
        if (setjmp(tensim_jump) == 0) {                                                                        \
            api->exit_jump(&tensim_jump);                                                                      \
            try {                                                                                              \
                body;                                                                                          \
            }                                                                                                  \
            TENSIM_KERNEL_CATCH                                                                                \
        }                                                                                                      \
        tensim::leave();                                                                                       \
    }

// Typed catch clauses only: tensim's own errors unwind through the kernel as foreign exceptions, which these
// do not match (a catch (...) here would swallow them). An exception of another type ends in std::terminate,
// which the fault handler reports as an abort.
#define TENSIM_KERNEL_CATCH                                                                                    \
    catch (const std::exception& e) {                                                                          \
        tensim::note_exception(typeid(e), e.what());                                                           \
    }                                                                                                          \
    catch (const char* s) {                                                                                    \
        std::snprintf(tensim::kernel_threw, sizeof tensim::kernel_threw, "the kernel threw a C++ exception: \"%s\"", \
                      s ? s : "(null)");                                                                       \
    }                                                                                                          \
    catch (const std::string& s) {                                                                             \
        std::snprintf(tensim::kernel_threw, sizeof tensim::kernel_threw,                                       \
                      "the kernel threw a C++ exception: std::string \"%s\"", s.c_str());                      \
    }                                                                                                          \
    catch (int v) {                                                                                            \
        std::snprintf(tensim::kernel_threw, sizeof tensim::kernel_threw, "the kernel threw a C++ exception: int %d", v); \
    }
