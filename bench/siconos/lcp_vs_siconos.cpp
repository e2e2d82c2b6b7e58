// bench/siconos/lcp_vs_siconos.cpp: obliq's LCP solvers against Siconos numerics (Debian
// libsiconos-numerics 4.4.0) on the same problems, one core.
//
// Problems: batches of random contact LCPs W = A M^-1 A^T, q = A v_f (random SPD mass matrix M
// with n = m + 3 dofs, random A, random v_f; the KKT system of min 1/2 |v - v_f|_M^2 s.t. A v >= 0,
// so always solvable), m = 2..24, full rank and rank-deficient (half of the rows are positive
// combinations of the others: redundant contacts, W PSD singular); and Siconos's 20 test files.
// For each solver: time per problem (the best of 5 passes over the batch, divided by its size),
// success rate (the same acceptance rule for both libraries: min-map residual
// <= 1e-9 max(max|q|, max|W| max|z|), recomputed here; for Siconos also info == 0) and the
// largest residual among successes. Output: Markdown tables (docs/lcp.md).
//
// Usage: bench_lcp_vs_siconos [problems per batch, default 200]
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include <Eigen/Dense>

#include "obliq/lcp.hpp"
#include "best_time.hpp"

extern "C" {
#include <LCP_Solvers.h>
#include <LinearComplementarityProblem.h>
#include <NonSmoothDrivers.h>
#include <NumericsMatrix.h>
#include <SolverOptions.h>
#include <lcp_cst.h>
}

namespace {

struct Instance {
  int m;
  std::vector<double> M_row, M_col, q;  // row-major for obliq, column-major for Siconos
};

double minmap(const Instance& p, const double* z) {
  double r = 0;
  for (int i = 0; i < p.m; ++i) {
    double w = p.q[std::size_t(i)];
    for (int j = 0; j < p.m; ++j) w += p.M_row[std::size_t(i * p.m + j)] * z[j];
    r = std::max(r, std::fabs(std::min(z[i], w)));
  }
  return r;
}
bool accepted(const Instance& p, const double* z, double r) {
  double qm = 0, mm = 0, zm = 0;
  for (int i = 0; i < p.m; ++i) qm = std::max(qm, std::fabs(p.q[std::size_t(i)])), zm = std::max(zm, std::fabs(z[i]));
  for (double x : p.M_row) mm = std::max(mm, std::fabs(x));
  return std::isfinite(r) && r <= 1e-9 * std::max(qm, mm * zm);
}

Instance contact_instance(std::mt19937& g, int m, bool rank_deficient) {
  std::normal_distribution<double> N;
  const int n = m + 3;
  Eigen::MatrixXd B(n, n);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) B(i, j) = N(g);
  const Eigen::MatrixXd Mass = B * B.transpose() + n * Eigen::MatrixXd::Identity(n, n);
  Eigen::MatrixXd A(m, n);
  for (int i = 0; i < m; ++i)
    for (int k = 0; k < n; ++k) A(i, k) = N(g);
  if (rank_deficient) {
    const int r = std::max(1, m / 2);
    std::uniform_real_distribution<double> U(0.2, 1.0);
    for (int i = r; i < m; ++i) A.row(i) = U(g) * A.row(i % r) + U(g) * A.row((i + 1) % r);
  }
  Eigen::MatrixXd W = A * Mass.llt().solve(A.transpose());
  W = 0.5 * (W + W.transpose());
  Eigen::VectorXd v(n);
  for (int k = 0; k < n; ++k) v(k) = N(g);
  const Eigen::VectorXd q = A * v;
  Instance p;
  p.m = m;
  p.M_row.resize(std::size_t(m * m));
  p.M_col.resize(std::size_t(m * m));
  p.q.assign(q.data(), q.data() + m);
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < m; ++j) p.M_row[std::size_t(i * m + j)] = W(i, j), p.M_col[std::size_t(i + j * m)] = W(i, j);
  return p;
}

struct Stats {
  double us_per_problem = 0;
  int ok = 0, total = 0;
  double worst_residual = 0;
};

using obliq::bench::best_time_us;

Stats run_obliq(const std::vector<Instance>& batch, obliq::LcpSolver solver) {
  Stats st;
  int m = batch.front().m;
  for (const auto& p : batch) m = std::max(m, p.m);
  std::vector<double> scratch(obliq::lcp::solve_workspace<double>(m));
  std::vector<double> z(static_cast<std::size_t>(m)), w(static_cast<std::size_t>(m));
  std::vector<obliq::Status> status(batch.size());
  std::vector<std::vector<double>> zs(batch.size());
  const auto pass = [&] {
    for (std::size_t k = 0; k < batch.size(); ++k) {
      const Instance& p = batch[k];
      obliq::Arena<double> arena{scratch.data(), scratch.size()};
      const auto r = obliq::lcp::solve<double>(obliq::MatView<const double>{p.M_row.data(), p.m, p.m, p.m, 1},
                                               obliq::VecView<const double>{p.q.data(), p.m, 1},
                                               obliq::VecView<double>{z.data(), p.m, 1},
                                               obliq::VecView<double>{w.data(), p.m, 1}, arena, solver);
      status[k] = r.status;
      zs[k].assign(z.begin(), z.begin() + p.m);
    }
  };
  st.us_per_problem = best_time_us(pass, int(batch.size()));
  for (std::size_t k = 0; k < batch.size(); ++k) {
    ++st.total;
    const double r = minmap(batch[k], zs[k].data());
    if (status[k] == obliq::Status::ok && accepted(batch[k], zs[k].data(), r)) {
      ++st.ok;
      st.worst_residual = std::max(st.worst_residual, r);
    }
  }
  return st;
}

Stats run_siconos(const std::vector<Instance>& batch, int solver_id) {
  Stats st;
  std::vector<LinearComplementarityProblem> problems(batch.size());
  std::vector<std::vector<double>> Mcopy(batch.size()), qcopy(batch.size()), zs(batch.size()), ws(batch.size());
  for (std::size_t k = 0; k < batch.size(); ++k) {
    Mcopy[k] = batch[k].M_col;
    qcopy[k] = batch[k].q;
    problems[k].size = batch[k].m;
    problems[k].M = NM_create_from_data(NM_DENSE, batch[k].m, batch[k].m, Mcopy[k].data());
    problems[k].q = qcopy[k].data();
    zs[k].assign(std::size_t(batch[k].m), 0.0);
    ws[k].assign(std::size_t(batch[k].m), 0.0);
  }
  SolverOptions* options = solver_options_create(solver_id);
  std::vector<int> info(batch.size());
  const auto pass = [&] {
    for (std::size_t k = 0; k < batch.size(); ++k) {
      std::fill(zs[k].begin(), zs[k].end(), 0.0);
      info[k] = linearComplementarity_driver(&problems[k], zs[k].data(), ws[k].data(), options);
    }
  };
  st.us_per_problem = best_time_us(pass, int(batch.size()));
  for (std::size_t k = 0; k < batch.size(); ++k) {
    ++st.total;
    const double r = minmap(batch[k], zs[k].data());
    if (info[k] == 0 && accepted(batch[k], zs[k].data(), r)) {
      ++st.ok;
      st.worst_residual = std::max(st.worst_residual, r);
    }
    problems[k].M->matrix0 = nullptr;  // owned by Mcopy
    NM_free(problems[k].M);
  }
  solver_options_delete(options);
  return st;
}

void row(const char* what, int m, const char* solver, const Stats& s, double ref_us) {
  std::printf("| %s | %d | %s | %.3f | %.2fx | %d/%d | %.1e |\n", what, m, solver, s.us_per_problem,
              ref_us / s.us_per_problem, s.ok, s.total, s.worst_residual);
}

}  // namespace

int main(int argc, char** argv) {
  const int count = argc > 1 ? std::atoi(argv[1]) : 200;
  std::printf("Random contact LCPs, %d problems per row, one core; speed-up = Siconos lemke time / this time.\n\n", count);
  std::printf("| W | m | solver | us/problem | vs Siconos lemke | success | worst residual |\n");
  std::printf("|---|---|---|---|---|---|---|\n");
  for (bool deficient : {false, true}) {
    for (int m : {2, 4, 6, 8, 12, 16, 20, 24}) {
      std::mt19937 g(1000u * unsigned(m) + (deficient ? 1u : 0u));
      std::vector<Instance> batch;
      for (int k = 0; k < count; ++k) batch.push_back(contact_instance(g, m, deficient));
      const char* what = deficient ? "rank-deficient" : "full rank";
      const Stats sl = run_siconos(batch, SICONOS_LCP_LEMKE);
      row(what, m, "Siconos lemke", sl, sl.us_per_problem);
      row(what, m, "Siconos pivot", run_siconos(batch, SICONOS_LCP_PIVOT), sl.us_per_problem);
      row(what, m, "Siconos pgs", run_siconos(batch, SICONOS_LCP_PGS), sl.us_per_problem);
      row(what, m, "obliq lemke", run_obliq(batch, obliq::LcpSolver::lemke), sl.us_per_problem);
      row(what, m, "obliq auto", run_obliq(batch, obliq::LcpSolver::automatic), sl.us_per_problem);
      row(what, m, "obliq pivot", run_obliq(batch, obliq::LcpSolver::pivot), sl.us_per_problem);
      row(what, m, "obliq pgs", run_obliq(batch, obliq::LcpSolver::pgs), sl.us_per_problem);
    }
  }

  // Siconos's own test files: each as a batch of one (timed the same way).
  std::printf("\nSiconos LCP test problems (tests/data/siconos-lcp), one core.\n\n");
  std::printf("| file | m | Siconos lemke us | ok | obliq auto us | ok | speed-up |\n|---|---|---|---|---|---|---|\n");
  const char* files[] = {"lcp_CPS_1", "lcp_CPS_2", "lcp_CPS_3", "lcp_CPS_4", "lcp_CPS_4bis", "lcp_CPS_5",
                         "lcp_Pang_isolated_sol", "lcp_Pang_isolated_sol_perturbed", "lcp_inf_sol_perturbed",
                         "lcp_deudeu", "lcp_enum_fails", "lcp_exp_murty", "lcp_exp_murty2", "lcp_mmc", "lcp_ortiz",
                         "lcp_tobenna", "lcp_trivial"};
  for (const char* f : files) {
    const obliq::LcpProblem lp = obliq::read_siconos_lcp_file(std::string(OBLIQ_SOURCE_DIR) + "/tests/data/siconos-lcp/" + f + ".dat");
    Instance p;
    p.m = lp.m;
    p.M_row = lp.M;
    p.q = lp.q;
    p.M_col.resize(lp.M.size());
    for (int i = 0; i < p.m; ++i)
      for (int j = 0; j < p.m; ++j) p.M_col[std::size_t(i + j * p.m)] = lp.M[std::size_t(i * p.m + j)];
    std::vector<Instance> batch(50, p);
    const Stats s = run_siconos(batch, SICONOS_LCP_LEMKE);
    const Stats o = run_obliq(batch, obliq::LcpSolver::automatic);
    std::printf("| %s | %d | %.3f | %s | %.3f | %s | %.1fx |\n", f, p.m, s.us_per_problem, s.ok ? "yes" : "no",
                o.us_per_problem, o.ok ? "yes" : "no", s.us_per_problem / o.us_per_problem);
  }
  return 0;
}
