// tensim: DPRINT.
#pragma once
#include "tensim/dprint.h"
