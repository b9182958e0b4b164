// tensim: CB indices and kernel-wide types live in tensim/common.h.
#pragma once
#include "tensim/common.h"
