// Checks tensim's {fmt} subset against what {fmt} prints: returns the number of mismatches (each printed).
#include <cstdio>
#include <string>

#include <fmt/core.h>

static int bad = 0;
static void expect(const std::string& got, const char* want) {
    if (got != want) {
        std::printf("fmt: got \"%s\", want \"%s\"\n", got.c_str(), want);
        bad++;
    }
}

int main() {
    expect(fmt::format("{}", 70.0), "70");
    expect(fmt::format("{}", 70.0f), "70");
    expect(fmt::format("{}", 0.1), "0.1");
    expect(fmt::format("{}", 1.23f), "1.23");
    expect(fmt::format("{}", 1e-5), "1e-05");
    expect(fmt::format("{}", 0.0001), "0.0001");
    expect(fmt::format("{}", 1e15), "1000000000000000");
    expect(fmt::format("{}", 1e16), "1e+16");
    expect(fmt::format("{}", 1000000.0f), "1000000");
    expect(fmt::format("{}", 123456789.0f), "1.2345679e+08");
    expect(fmt::format("{}", -2.5), "-2.5");
    expect(fmt::format("{}", 0.0), "0");
    expect(fmt::format("{:.2f}", 3.14159), "3.14");
    expect(fmt::format("{:>6}", 1.5), "   1.5");
    expect(fmt::format("{:08.3f}", -1.5), "-001.500");
    expect(fmt::format("{} {:x} {:#x} {:5d}|", 42, 255, 255, 7), "42 ff 0xff     7|");
    return bad;
}
