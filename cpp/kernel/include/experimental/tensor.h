// tensim: the late-2025 spelling (namespace experimental) of the object kernel API; see experimental/noc.h.
#pragma once
#include "experimental/noc.h"
