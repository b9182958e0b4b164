// tensim: one spelling of the reduce API (tensim/reduce.h: defaults from REDUCE_OP / REDUCE_DIM).
#pragma once
#include "tensim/reduce.h"
