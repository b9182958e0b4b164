// tensim: the current include spelling of the data-movement API.
#pragma once
#include "dataflow_api.h"
