// tensim: the profiler zone macros live in tensim/common.h.
#pragma once
#include "tensim/common.h"
