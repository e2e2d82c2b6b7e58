// sweep/mpi/none.cpp: the one-process stand-in for builds without MPI.
#include "sweep/mpi.hpp"

namespace obliq::sweep {

Mpi::Mpi() = default;
Mpi::~Mpi() = default;
bool Mpi::any(bool flag) const { return flag; }
double Mpi::max(double value) const { return value; }
void Mpi::gather_merge(Statistics&) const {}

}  // namespace obliq::sweep
