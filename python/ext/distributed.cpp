// primlab.distributed's C++ side: sort and radix partition over shards that one process drives,
// through the library's distributed.h. All shards on one GPU run over the loopback (virtual ranks
// on that GPU); shards on distinct GPUs over NCCL, whose group the Python layer gets from
// primlab._nccl, or over CUDA peer copies (peer_group below): either reaches `run` as a capsule
// holding the Exchange.
#include <nanobind/stl/vector.h>

#include <map>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "glue.h"
#include "primlab/distributed.h"
#include "primlab/exchange.h"

namespace primlab::python {
namespace {

constexpr const char* kExchangeCapsule = "primlab.Exchange";

// An event on `from` that `to` waits for: orders the rank streams after the callers' streams and
// back, so that nothing is synchronized for the ordering.
void order_after(cudaStream_t from, cudaStream_t to, const char* fn) {
  if (from == to) return;
  cudaEvent_t e = nullptr;
  check_cuda(cudaEventCreateWithFlags(&e, cudaEventDisableTiming), fn, "cudaEventCreate");
  check_cuda(cudaEventRecord(e, from), fn, "cudaEventRecord");
  check_cuda(cudaStreamWaitEvent(to, e, 0), fn, "cudaStreamWaitEvent");
  cudaEventDestroy(e);  // released once the wait is done
}

// The GPUs' group over CUDA peer copies (PeerExchange), one stream per GPU, made once per set of
// devices and kept for the life of the process, as primlab._nccl keeps its groups.
nb::capsule peer_group(const std::vector<int>& devices) {
  const char* fn = "primlab.distributed";
  static auto* groups = new std::map<std::vector<int>, std::unique_ptr<PeerExchange>>();  // never freed
  auto it = groups->find(devices);
  if (it == groups->end()) {
    require_device(fn);
    std::vector<PeerRank> ranks(devices.size());
    {
      DeviceSwitch on;
      for (std::size_t i = 0; i < devices.size(); ++i) {
        ranks[i].device = devices[i];
        on.to(devices[i], fn);
        check_cuda(cudaStreamCreateWithFlags(&ranks[i].stream, cudaStreamNonBlocking), fn, "cudaStreamCreate");
      }
    }
    std::unique_ptr<PeerExchange> exchange;
    std::string error;
    if (PeerExchange::create(ranks, exchange, &error) != Status::Success) {
      raise(PyExc_RuntimeError, std::string(fn) + ": PeerExchange: " + error);
    }
    it = groups->emplace(devices, std::move(exchange)).first;
  }
  return nb::capsule(static_cast<Exchange*>(it->second.get()), kExchangeCapsule);
}

// The value type of a keys-only call: the key type, whose Shard<K, K> is Shard<K>.
template <class K>
struct KeysOnly {
  using type = K;
};

struct Job {
  const char* fn;
  bool partition = false;
  bool descending = false;
  int begin_bit = 0, end_bit = -1, num_bits = 0;
};

// Runs one distributed call. shards, values: lists of arrays (values may be None); streams: the
// callers' stream per shard; exchange: None for the loopback, else a capsule from primlab._nccl
// or peer_group.
nb::tuple run(const Job& job, nb::list shards, nb::handle values, nb::handle alloc, std::vector<std::intptr_t> streams,
              nb::handle exchange) {
  const char* fn = job.fn;
  const std::size_t G = nb::len(shards);
  if (G == 0 || G > std::size_t(kDistributedMaxRanks)) {
    raise(PyExc_ValueError, std::string(fn) + ": takes 1 to " + std::to_string(kDistributedMaxRanks) + " shards, got " +
                                std::to_string(G));
  }
  if (streams.size() != G) raise(PyExc_ValueError, std::string(fn) + ": one stream per shard");
  const bool pairs = !values.is_none();
  if (pairs && nb::len(values) != G) raise(PyExc_ValueError, std::string(fn) + ": one values array per shard");
  std::vector<ArrayRef> k(G), v(G);
  std::int64_t total = 0;
  for (std::size_t r = 0; r < G; ++r) {
    k[r] = take_array(shards[r], fn, "a shard", dlpack_stream(streams[r]));
    if (k[r].dtype != k[0].dtype) raise(PyExc_TypeError, std::string(fn) + ": shards have dtypes " + k[0].dtype_text() + " and " + k[r].dtype_text());
    if (pairs) {
      v[r] = take_array(nb::handle(values[r]), fn, "a values shard", dlpack_stream(streams[r]));
      require_same_length(k[r], v[r], fn);
      if (v[r].dtype != v[0].dtype) raise(PyExc_TypeError, std::string(fn) + ": values shards have dtypes " + v[0].dtype_text() + " and " + v[r].dtype_text());
    }
    total += k[r].size;
  }
  require_device(fn);
  for (std::size_t r = 0; r < G; ++r) {
    DeviceScope check_devices(fn, {&k[r], pairs ? &v[r] : nullptr});
    if (k[r].device < 0) check_cuda(cudaGetDevice(&k[r].device), fn, "cudaGetDevice");
  }
  // The exchange: the caller's group of GPUs, or G virtual ranks on the first shard's stream.
  std::unique_ptr<LoopbackExchange> loopback;
  Exchange* ex = nullptr;
  if (exchange.is_none()) {
    DeviceScope on(fn, {&k[0]});
    loopback = std::make_unique<LoopbackExchange>(int(G), reinterpret_cast<cudaStream_t>(streams[0]));
    ex = loopback.get();
  } else {
    ex = static_cast<Exchange*>(PyCapsule_GetPointer(exchange.ptr(), kExchangeCapsule));
    if (!ex) throw nb::python_error();
    for (std::size_t r = 0; r < G; ++r) {
      if (ex->local_count() != int(G) || ex->device(int(r)) != k[r].device) {
        raise(PyExc_ValueError, std::string(fn) + ": the exchange's GPUs do not match the shards' devices");
      }
    }
  }
  const std::int64_t capacity = distributed_capacity(total, int(G));
  const std::int64_t partitions = job.partition ? partition_offsets(job.num_bits) : 0;
  nb::list key_outs, value_outs, offset_outs;
  std::vector<ArrayRef> ko(G), vo(G), off(G);
  std::vector<std::unique_ptr<PoolBuffer>> ws(G);
  std::vector<Workspace> kept(G);  // the transport's kept workspaces, where it keeps one for every rank
  nb::tuple result;
  dispatch(SortTypes{}, k[0], fn, [&](auto key) {
    using K = typename decltype(key)::type;
    auto go = [&](auto value) {
      constexpr bool kPairs = !std::is_same_v<decltype(value), KeysOnly<K>>;
      using V = typename decltype(value)::type;
      std::vector<Shard<K, V>> shard(G);
      std::vector<std::size_t> workspace_bytes(G);  // each rank's
      for (std::size_t r = 0; r < G; ++r)
        workspace_bytes[r] =
            job.partition ? (pairs ? distributed_partition_pairs_workspace_bytes<K, V>(k[r].size, capacity, int(G), job.num_bits)
                                   : distributed_partition_keys_workspace_bytes<K>(k[r].size, capacity, int(G), job.num_bits))
                          : (pairs ? distributed_sort_pairs_workspace_bytes<K, V>(k[r].size, capacity, int(G))
                                   : distributed_sort_keys_workspace_bytes<K>(k[r].size, capacity, int(G)));
      // NCCL's registered memory (NcclExchange): every rank's or none (NCCL's rule).
      bool keeps = true;
      for (std::size_t r = 0; r < G && keeps; ++r) keeps = ex->kept_workspace(int(r), workspace_bytes[r], &kept[r]) == Status::Success;
      for (std::size_t r = 0; r < G; ++r) {
        nb::handle like = shards[r];
        nb::object o = alloc(like, capacity, dtype_name(k[r].dtype));
        ko[r] = take_array(o, fn, "an output", dlpack_stream(streams[r]));
        key_outs.append(o);
        if (pairs) {
          nb::object p = alloc(nb::handle(values[r]), capacity, dtype_name(v[r].dtype));
          vo[r] = take_array(p, fn, "an output", dlpack_stream(streams[r]));
          value_outs.append(p);
        }
        if (job.partition) {
          nb::object p = alloc(like, partitions, "uint32");
          off[r] = take_array(p, fn, "an output", dlpack_stream(streams[r]));
          offset_outs.append(p);
        }
        DeviceScope on(fn, {&k[r]});
        const cudaStream_t rank_stream = ex->stream(int(r));
        order_after(reinterpret_cast<cudaStream_t>(streams[r]), rank_stream, fn);
        if (!keeps) ws[r] = std::make_unique<PoolBuffer>(workspace_bytes[r], rank_stream, fn);
        Shard<K, V>& s = shard[r];
        s.d_keys_in = static_cast<const K*>(k[r].ptr);
        s.d_keys_out = static_cast<K*>(ko[r].ptr);
        s.n = k[r].size;
        s.capacity = capacity;
        s.ws = keeps ? Workspace{kept[r].ptr, workspace_bytes[r]} : ws[r]->workspace();
        if constexpr (kPairs) {
          s.d_values_in = static_cast<const V*>(v[r].ptr);
          s.d_values_out = static_cast<V*>(vo[r].ptr);
        }
        if (job.partition) s.d_offsets = static_cast<std::uint32_t*>(off[r].ptr);
      }
      Status st = Status::Success;
      {
        nb::gil_scoped_release unlocked;  // the call waits for its all-gathers
        const SortOrder order = job.descending ? SortOrder::Descending : SortOrder::Ascending;
        const int end = job.end_bit < 0 ? int(8 * sizeof(K)) : job.end_bit;
        if constexpr (kPairs) {
          st = job.partition ? distributed_partition_pairs(*ex, shard.data(), job.begin_bit, job.num_bits)
                             : distributed_sort_pairs(*ex, shard.data(), order, job.begin_bit, end);
        } else {
          st = job.partition ? distributed_partition_keys(*ex, shard.data(), job.begin_bit, job.num_bits)
                             : distributed_sort_keys(*ex, shard.data(), order, job.begin_bit, end);
        }
      }
      const std::string comm = st == Status::CommError ? ex->last_error() : "";
      for (std::size_t r = 0; r < G; ++r) {
        DeviceScope on(fn, {&k[r]});
        order_after(ex->stream(int(r)), reinterpret_cast<cudaStream_t>(streams[r]), fn);
        ws[r].reset();
      }
      check(st, fn, comm.empty() ? std::to_string(G) + " shards, " + std::to_string(total) + " keys" : comm);
      nb::list counts;
      for (const Shard<K, V>& s : shard) counts.append(s.count);
      result = nb::make_tuple(key_outs, pairs ? nb::object(value_outs) : nb::none(),
                              job.partition ? nb::object(offset_outs) : nb::none(), counts);
    };
    if (pairs) dispatch(SortTypes{}, v[0], fn, go);
    else go(KeysOnly<K>{});
  });
  return result;
}

}  // namespace

void bind_distributed(nb::module_& m) {
  m.def("peer_group", &peer_group);
  m.def("device_of", [](nb::handle array) {
    ArrayRef a = take_array(array, "primlab.distributed", "a shard", 1);
    require_device("primlab.distributed");
    locate(a, "primlab.distributed");
    if (a.device < 0) check_cuda(cudaGetDevice(&a.device), "primlab.distributed", "cudaGetDevice");
    return a.device;
  });
  using namespace nb::literals;
  const auto opt = [](const char* name) { return nb::arg(name).none(); };
  m.def("distributed_sort", [](nb::list shards, nb::handle values, nb::handle alloc, std::vector<std::intptr_t> streams,
                               nb::handle exchange, bool descending, int begin_bit, nb::handle end_bit) {
    Job job{"primlab.distributed.sort"};
    job.descending = descending;
    job.begin_bit = begin_bit;
    job.end_bit = end_bit.is_none() ? -1 : nb::cast<int>(end_bit);
    return run(job, shards, values, alloc, std::move(streams), exchange);
  }, "shards"_a, opt("values"), "alloc"_a, "streams"_a, opt("exchange"), "descending"_a, "begin_bit"_a, opt("end_bit"));
  m.def("distributed_partition", [](nb::list shards, nb::handle values, nb::handle alloc,
                                    std::vector<std::intptr_t> streams, nb::handle exchange, int begin_bit, int num_bits) {
    Job job{"primlab.distributed.partition"};
    job.partition = true;
    job.begin_bit = begin_bit;
    job.num_bits = num_bits;
    return run(job, shards, values, alloc, std::move(streams), exchange);
  }, "shards"_a, opt("values"), "alloc"_a, "streams"_a, opt("exchange"), "begin_bit"_a, "num_bits"_a);
}

}  // namespace primlab::python
