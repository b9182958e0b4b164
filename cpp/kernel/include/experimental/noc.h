// The late-2025 object NoC API (`experimental/noc.h`, namespace experimental), written for tensim as an
// adapter over today's api/dataflow/noc.h: the same endpoints, options given as template enums nested in
// Noc and the VC and transaction id as trailing arguments.
#pragma once
#include "api/dataflow/noc.h"
#include "api/dataflow/noc_semaphore.h"

namespace experimental {
using ::AllocatorBank;
using ::AllocatorBankType;
using ::CircularBuffer;
using ::CoreLocalMem;
using ::MulticastEndpoint;
using ::noc_traits_t;
using ::UnicastEndpoint;

class Noc : public ::Noc {
public:
    enum class TxnIdMode { ENABLED, DISABLED };
    enum class ResponseMode { NON_POSTED, POSTED };
    enum class BarrierMode { TXN_ID, FULL };
    enum class McastMode { INCLUDE_SRC, EXCLUDE_SRC };
    enum class VcSelection { DEFAULT, CUSTOM };
    using ::Noc::Noc;

    template <TxnIdMode txn = TxnIdMode::DISABLED, uint32_t max_page_size = NOC_MAX_BURST_SIZE + 1,
              bool enable_noc_tracing = true, typename Src, typename Dst>
    void async_read(const Src& src, const Dst& dst, uint32_t size_bytes, const src_args_t<Src>& src_args,
                    const dst_args_t<Dst>& dst_args, uint32_t read_req_vc = NOC_UNICAST_WRITE_VC,
                    uint32_t trid = INVALID_TXN_ID) const {
        if constexpr (txn == TxnIdMode::ENABLED) {
            ::Noc::async_read<NocOptions::TXN_ID | NocOptions::CUSTOM_VC, max_page_size, enable_noc_tracing>(
                src, dst, size_bytes, src_args, dst_args, NocOptVals{read_req_vc, trid});
        } else {
            ::Noc::async_read<NocOptions::CUSTOM_VC, max_page_size, enable_noc_tracing>(
                src, dst, size_bytes, src_args, dst_args, NocOptVals{read_req_vc, 0});
        }
    }
    template <TxnIdMode txn = TxnIdMode::DISABLED, ResponseMode resp = ResponseMode::NON_POSTED,
              uint32_t max_page_size = NOC_MAX_BURST_SIZE + 1, bool enable_noc_tracing = true, typename Src, typename Dst>
    void async_write(const Src& src, const Dst& dst, uint32_t size_bytes, const src_args_t<Src>& src_args,
                     const dst_args_t<Dst>& dst_args, uint32_t vc = NOC_UNICAST_WRITE_VC,
                     uint32_t trid = INVALID_TXN_ID) const {
        constexpr NocOptions posted = resp == ResponseMode::POSTED ? NocOptions::POSTED : NocOptions::DEFAULT;
        constexpr NocOptions id = txn == TxnIdMode::ENABLED ? NocOptions::TXN_ID : NocOptions::DEFAULT;
        ::Noc::async_write<posted | id | NocOptions::CUSTOM_VC, max_page_size, enable_noc_tracing>(
            src, dst, size_bytes, src_args, dst_args, NocOptVals{vc, trid});
    }
    template <McastMode mcast = McastMode::EXCLUDE_SRC, TxnIdMode txn = TxnIdMode::DISABLED,
              ResponseMode resp = ResponseMode::NON_POSTED, uint32_t max_page_size = NOC_MAX_BURST_SIZE + 1,
              bool enable_noc_tracing = true, typename Src, typename Dst>
    void async_write_multicast(const Src& src, const Dst& dst, uint32_t size_bytes, uint32_t num_dsts,
                               const src_args_t<Src>& src_args, const dst_args_mcast_t<Dst>& dst_args,
                               bool linked = false, uint32_t trid = INVALID_TXN_ID) const {
        constexpr NocOptions incl = mcast == McastMode::INCLUDE_SRC ? NocOptions::MCAST_INCL_SRC : NocOptions::DEFAULT;
        ::Noc::async_write_multicast<incl, max_page_size, enable_noc_tracing>(src, dst, size_bytes, num_dsts, src_args,
                                                                              dst_args, linked);
    }
    template <VcSelection sel = VcSelection::DEFAULT, uint32_t max_page_size = NOC_MAX_BURST_SIZE + 1, typename Src>
    void set_async_read_state(const Src& src, uint32_t size_bytes, const src_args_t<Src>& src_args,
                              uint8_t vc = 0) const {
        ::Noc::set_async_read_state<sel == VcSelection::CUSTOM ? NocOptions::CUSTOM_VC : NocOptions::DEFAULT,
                                    max_page_size>(src, size_bytes, src_args, NocOptVals{vc, 0});
    }
    template <VcSelection sel = VcSelection::DEFAULT, uint32_t max_page_size = NOC_MAX_BURST_SIZE + 1, typename Src,
              typename Dst>
    void async_read_with_state(const Src& src, const Dst& dst, uint32_t size_bytes, const src_args_t<Src>& src_args,
                               const dst_args_t<Dst>& dst_args, uint8_t vc = 0) const {
        ::Noc::async_read_with_state<sel == VcSelection::CUSTOM ? NocOptions::CUSTOM_VC : NocOptions::DEFAULT,
                                     max_page_size>(src, dst, size_bytes, src_args, dst_args, NocOptVals{vc, 0});
    }
    template <BarrierMode mode = BarrierMode::FULL>
    void async_read_barrier(uint32_t trid = INVALID_TXN_ID) const {
        if constexpr (mode == BarrierMode::TXN_ID) {
            ::Noc::async_read_barrier<NocOptions::TXN_ID>(NocOptVals{NOC_UNICAST_WRITE_VC, trid});
        } else {
            ::Noc::async_read_barrier();
        }
    }
    template <BarrierMode mode = BarrierMode::FULL>
    void async_write_barrier(uint32_t trid = INVALID_TXN_ID) const {
        if constexpr (mode == BarrierMode::TXN_ID) {
            ::Noc::async_write_barrier<NocOptions::TXN_ID>(NocOptVals{NOC_UNICAST_WRITE_VC, trid});
        } else {
            ::Noc::async_write_barrier();
        }
    }
    template <BarrierMode mode = BarrierMode::FULL>
    void async_writes_flushed(uint32_t trid = INVALID_TXN_ID) const {
        if constexpr (mode == BarrierMode::TXN_ID) {
            ::Noc::async_writes_flushed<NocOptions::TXN_ID>(NocOptVals{NOC_UNICAST_WRITE_VC, trid});
        } else {
            ::Noc::async_writes_flushed();
        }
    }
};

template <ProgrammableCoreType core_type = ProgrammableCoreType::TENSIX>
class Semaphore : public ::Semaphore<core_type> {
public:
    using ::Semaphore<core_type>::Semaphore;
    template <Noc::McastMode mode = Noc::McastMode::EXCLUDE_SRC>
    void set_multicast(const ::Noc& noc, uint32_t x_start, uint32_t y_start, uint32_t x_end, uint32_t y_end,
                       uint32_t num_dests, bool linked = false) {
        this->relay_to(noc, this->addr_, x_start, y_start, x_end, y_end, num_dests, linked,
                       mode == Noc::McastMode::INCLUDE_SRC);
    }
};
}  // namespace experimental
