// Device printing as on silicon: the stream form's manipulators stick to the RISC across statements, a
// line may be built by several prints, and the format-string form follows {fmt}.
#include <cstdint>

#include "api/dataflow/dataflow_api.h"
#include "api/debug/dprint.h"

void kernel_main() {
    DPRINT << HEX() << 255u << ENDL();
    DPRINT << 255u << " still hex" << ENDL();
    DPRINT << DEC() << SETPRECISION(3) << 3.14159f << " " << 1234567.0f << " " << SETW(5) << 7u << "|" << ENDL();
    DPRINT << FIXED() << 2.5f << ENDL();
    DPRINT << DEFAULTFLOAT() << SETPRECISION(6) << 0.1f << " " << 1e-5f << " " << int8_t(-3) << ENDL();
    DPRINT << "a line ";
    DPRINT << "made of two prints" << ENDL();
    DEVICE_PRINT("fmt: {} {} {:.2f} {:>5}|{:#x} {}\n", 0.1f, 1000000.0f, 3.14159, 42, 255u, true);
    DEVICE_PRINT_DATA0("only on BRISC\n");
    DEVICE_PRINT_DATA1("only on NCRISC\n");
    DPRINT("last {} without a newline", 1);
}
