// tensim: the device-print wire format shared by firmware and the print server has no counterpart in a
// simulator (prints go straight to tensim); kernels that include this header need nothing from it.
#pragma once
#include <cstdint>
