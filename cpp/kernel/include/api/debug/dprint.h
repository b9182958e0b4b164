// tensim: DPRINT (current spelling).
#pragma once
#include "tensim/dprint.h"
