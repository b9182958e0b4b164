// tensim: TSLICE / TileSlice live in tensim/dprint.h.
#pragma once
#include "tensim/dprint.h"
