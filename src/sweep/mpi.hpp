// sweep/mpi.hpp: the sweep's use of MPI (docs/sweep.md "Clusters"). Built against Open MPI when
// CMake finds it (src/sweep/mpi/open_mpi.cpp), else a one-process stand-in (mpi/none.cpp).
// MPI is initialised only when the process was started by mpirun (its environment says so), so
// a plain `obliq sweep` never touches MPI.
#pragma once

#include "sweep/statistics.hpp"

namespace obliq::sweep {

class Mpi {
 public:
  Mpi();
  ~Mpi();
  Mpi(const Mpi&) = delete;
  Mpi& operator=(const Mpi&) = delete;
  int rank() const { return rank_; }
  int size() const { return size_; }
  bool any(bool flag) const;        // logical or over ranks
  double max(double value) const;   // maximum over ranks
  // Rank 0 merges every rank's finished statistics in rank order (exact: Statistics::merge).
  void gather_merge(Statistics& stats) const;

 private:
  int rank_ = 0, size_ = 1;
  bool initialised_ = false;
};

}  // namespace obliq::sweep
