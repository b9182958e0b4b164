// tensim's TT-Metalium host API: everything the `tt-metalium/*.hpp` headers (and the older `tt_metal/…`
// spellings) provide. Each of those headers includes this one. Written for tensim from the documented
// interface; every call forwards through tensim's host ABI table (tensim/host_abi.h).
#pragma once
// tt-metal's headers bring <iostream> (through tt_stl/assert.hpp); programs rely on it.
#include <iostream>

#include "hostdevcommon/common_values.hpp"
#include "hostdevcommon/kernel_structs.h"
#include "tensim/fmt.hpp"
#include "tensim/host/coords.hpp"
#include "tensim/host/types.hpp"
#include "tensim/host/device.hpp"
#include "tensim/host/mesh.hpp"
#include "tensim/host/helpers.hpp"
#include "tt-metalium/constants.hpp"
#include "tt-metalium/tt_align.hpp"
#include "tt_stl/assert.hpp"
#include "umd/device/types/xy_pair.hpp"
