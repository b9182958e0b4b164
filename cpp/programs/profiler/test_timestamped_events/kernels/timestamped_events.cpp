// Kernel of tensim's profiler/test_timestamped_events: `n` iterations, each a zone around a short spin and
// a timestamped value (the iteration times 1000), then a recorded event. Runtime args: n.
#include <cstdint>

#include "tools/profiler/kernel_profiler.hpp"

void kernel_main() {
    uint32_t n = get_arg_val<uint32_t>(0);
    for (uint32_t i = 0; i < n; i++) {
        DeviceZoneScopedN("STEP");
        DeviceTimestampedData("step value", uint64_t{i} * 1000);
    }
    DeviceRecordEvent(42);
}
