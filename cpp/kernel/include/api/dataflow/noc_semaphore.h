// Semaphores as objects (tt-metal's api/dataflow/noc_semaphore.h), written for tensim: each method is the
// classic semaphore call it stands for (dataflow_api.h), on this core's semaphore `id` of the program.
#pragma once
#include "api/dataflow/noc.h"
#include "hostdevcommon/sem_scope.h"

template <ProgrammableCoreType core_type = ProgrammableCoreType::TENSIX, SemScope Scope = SemScope::LOCAL_NONATOMIC>
class Semaphore {
public:
    explicit Semaphore(uint32_t semaphore_id) : addr_(get_semaphore<core_type>(semaphore_id)) {}
    uint32_t get_address() const { return addr_; }
    // A local increment (a read-modify-write by this RISC).
    void up(uint32_t value) { *word() += value; }
    // A remote atomic increment of the same semaphore on core (noc_x, noc_y).
    void up(const Noc& noc, uint32_t noc_x, uint32_t noc_y, uint32_t value, uint8_t vc = NOC_UNICAST_WRITE_VC) {
        noc_semaphore_inc(get_noc_addr(noc_x, noc_y, addr_, noc.get_noc_id()), value, noc.get_noc_id(), vc);
    }
    // Wait until the value is at least `value`, then take it away.
    void down(uint32_t value) {
        noc_semaphore_wait_min(addr_, value);
        *word() -= value;
    }
    void wait(uint32_t value) { noc_semaphore_wait(addr_, value); }
    void wait_min(uint32_t value) { noc_semaphore_wait_min(addr_, value); }
    void set(uint32_t value) { noc_semaphore_set(addr_, value); }
    uint32_t value() const { return *word(); }
    // Write this semaphore's value into `dst_sem` on core (noc_x, noc_y).
    template <ProgrammableCoreType dct = core_type, SemScope ds = Scope>
    void relay_unicast(const Noc& noc, const Semaphore<dct, ds>& dst_sem, uint32_t noc_x, uint32_t noc_y) {
        noc_semaphore_set_remote(addr_, get_noc_addr(noc_x, noc_y, dst_sem.get_address(), noc.get_noc_id()),
                                 noc.get_noc_id());
    }
    // Write this semaphore's value into the same semaphore on every core of the rectangle.
    template <NocOptions opts = NocOptions::DEFAULT>
    void set_multicast(const Noc& noc, uint32_t x_start, uint32_t y_start, uint32_t x_end, uint32_t y_end,
                       uint32_t num_dests, bool linked = false) {
        relay_to(noc, addr_, x_start, y_start, x_end, y_end, num_dests, linked, has_flag(opts, NocOptions::MCAST_INCL_SRC));
    }
    template <NocOptions opts = NocOptions::DEFAULT, ProgrammableCoreType dct = core_type, SemScope ds = Scope>
    void relay_multicast(const Noc& noc, const Semaphore<dct, ds>& dst_sem, uint32_t x_start, uint32_t y_start,
                         uint32_t x_end, uint32_t y_end, uint32_t num_dests, bool linked = false) {
        relay_to(noc, dst_sem.get_address(), x_start, y_start, x_end, y_end, num_dests, linked,
                 has_flag(opts, NocOptions::MCAST_INCL_SRC));
    }
    void inc_multicast(const Noc& noc, uint32_t x_start, uint32_t y_start, uint32_t x_end, uint32_t y_end,
                       uint32_t value, uint32_t num_dests) {
        noc_semaphore_inc_multicast(get_noc_multicast_addr(x_start, y_start, x_end, y_end, addr_, noc.get_noc_id()),
                                    value, num_dests, noc.get_noc_id());
    }

protected:
    volatile uint32_t* word() const { return reinterpret_cast<volatile uint32_t*>(static_cast<uintptr_t>(addr_)); }
    void relay_to(const Noc& noc, uint32_t dst, uint32_t x_start, uint32_t y_start, uint32_t x_end, uint32_t y_end,
                  uint32_t num_dests, bool linked, bool include_src) {
        uint64_t m = get_noc_multicast_addr(x_start, y_start, x_end, y_end, dst, noc.get_noc_id());
        if (include_src) {
            noc_semaphore_set_multicast_loopback_src(addr_, m, num_dests, linked, noc.get_noc_id());
        } else {
            noc_semaphore_set_multicast(addr_, m, num_dests, linked, noc.get_noc_id());
        }
    }
    uint32_t addr_;
};
