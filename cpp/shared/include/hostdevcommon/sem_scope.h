// tensim: the scope of a semaphore of the object kernel API (hostdevcommon/sem_scope.h). tensim runs every
// scope alike: its cores' updates are serialised, so only the atomicity of up/down could differ.
#pragma once
#include <cstdint>

enum class SemScope : std::uint8_t { LOCAL_NONATOMIC = 0, DM_LOCAL_CACHED = 1, EXTERNAL = 2 };
