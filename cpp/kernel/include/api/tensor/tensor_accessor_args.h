// tensim: TensorAccessor (in tensim/accessor.h, reachable through dataflow_api.h).
#pragma once
#include "dataflow_api.h"
