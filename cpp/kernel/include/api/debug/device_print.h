// tensim: DEVICE_PRINT and its per-RISC forms live in tensim/dprint.h.
#pragma once
#include "tensim/dprint.h"
