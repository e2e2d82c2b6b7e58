// sweep/mpi/open_mpi.cpp: MPI (Open MPI from Debian's libopenmpi-dev) for `mpirun obliq sweep`.
#include <mpi.h>

#include <cstdlib>
#include <vector>

#include "sweep/mpi.hpp"

namespace obliq::sweep {
namespace {
bool under_mpirun() {
  for (const char* v : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK"})
    if (std::getenv(v)) return true;
  return false;
}
}  // namespace

Mpi::Mpi() {
  if (!under_mpirun()) return;
  int provided = 0;
  MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided);
  initialised_ = true;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &size_);
}

Mpi::~Mpi() {
  if (initialised_) MPI_Finalize();
}

bool Mpi::any(bool flag) const {
  if (!initialised_) return flag;
  int in = flag, out = 0;
  MPI_Allreduce(&in, &out, 1, MPI_INT, MPI_LOR, MPI_COMM_WORLD);
  return out != 0;
}

double Mpi::max(double value) const {
  if (!initialised_) return value;
  double out = value;
  MPI_Allreduce(&value, &out, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return out;
}

void Mpi::gather_merge(Statistics& stats) const {
  if (!initialised_ || size_ == 1) return;
  const std::vector<std::uint8_t> mine = rank_ == 0 ? std::vector<std::uint8_t>() : stats.serialize();
  const long long n = static_cast<long long>(mine.size());
  std::vector<long long> sizes(size_);
  MPI_Gather(&n, 1, MPI_LONG_LONG, sizes.data(), 1, MPI_LONG_LONG, 0, MPI_COMM_WORLD);
  std::vector<int> counts(size_), offsets(size_);
  std::vector<std::uint8_t> all;
  if (rank_ == 0) {
    long long at = 0;
    for (int r = 0; r < size_; ++r) {
      counts[r] = int(sizes[r]);
      offsets[r] = int(at);
      at += sizes[r];
    }
    all.resize(std::size_t(at));
  }
  MPI_Gatherv(mine.data(), int(n), MPI_BYTE, all.data(), counts.data(), offsets.data(), MPI_BYTE, 0, MPI_COMM_WORLD);
  if (rank_ != 0) return;
  for (int r = 1; r < size_; ++r)
    stats.merge(std::vector<std::uint8_t>(all.begin() + offsets[r], all.begin() + offsets[r] + counts[r]));
}

}  // namespace obliq::sweep
