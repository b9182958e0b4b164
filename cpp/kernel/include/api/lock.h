// tensim: the scoped lock guard of the object kernel API (api/lock.h): a profiling hook upstream, nothing
// to do in a simulator.
#pragma once

struct Lock {
    Lock() = default;
    Lock(const Lock&) = delete;
    Lock(Lock&&) = default;
};
