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
//        bench_lcp_vs_siconos --instructions M [problems, default 200]
// The second form solves the cold table's full-rank problems of size M once with Siconos's
// lcp_lexicolemke (siconos_lemke_pass) and once with obliq's Lemke (obliq_lemke_pass), each
// pass its own function, for callgrind's --toggle-collect (bench/peer_instructions.sh).
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <random>
#include <string>
#include <utility>
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

// A random contact LCP, and its drift: the problem at time t uses A + t dA and v_f + t dv (the
// mass matrix fixed), as the LCPs of consecutive time steps. The draws of the problem at t = 0
// come first, in the same order as ever, so the cold tables' problems do not depend on `drift`.
struct ContactDrift {
  int m, n;
  Eigen::MatrixXd Minv, A, dA;  // Minv: M^-1 (n x n)
  Eigen::VectorXd v, dv;
  ContactDrift(std::mt19937& g, int m_, bool rank_deficient, bool drift) : m(m_), n(m_ + 3) {
    std::normal_distribution<double> N;
    Eigen::MatrixXd B(n, n);
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) B(i, j) = N(g);
    const Eigen::MatrixXd Mass = B * B.transpose() + n * Eigen::MatrixXd::Identity(n, n);
    Minv = Mass.llt().solve(Eigen::MatrixXd::Identity(n, n));
    A.resize(m, n);
    for (int i = 0; i < m; ++i)
      for (int k = 0; k < n; ++k) A(i, k) = N(g);
    std::vector<std::pair<double, double>> mix;  // dependent row i: mix a A_{i % r} + b A_{(i + 1) % r}
    const int r = std::max(1, m / 2);
    if (rank_deficient) {
      std::uniform_real_distribution<double> U(0.2, 1.0);
      for (int i = r; i < m; ++i) {
        const double a = U(g), b = U(g);
        mix.emplace_back(a, b);
        A.row(i) = a * A.row(i % r) + b * A.row((i + 1) % r);
      }
    }
    v.resize(n);
    for (int k = 0; k < n; ++k) v(k) = N(g);
    dA = Eigen::MatrixXd::Zero(m, n);
    dv = Eigen::VectorXd::Zero(n);
    if (!drift) return;
    for (int i = 0; i < m; ++i)
      for (int k = 0; k < n; ++k) dA(i, k) = N(g);
    for (int k = 0; k < n; ++k) dv(k) = N(g);
    for (int i = r; i < m && rank_deficient; ++i)
      dA.row(i) = mix[std::size_t(i - r)].first * dA.row(i % r) + mix[std::size_t(i - r)].second * dA.row((i + 1) % r);
  }
  Instance at(double t) const {
    const Eigen::MatrixXd At = A + t * dA;
    Eigen::MatrixXd W = At * Minv * At.transpose();
    W = 0.5 * (W + W.transpose());
    const Eigen::VectorXd q = At * (v + t * dv);
    Instance p;
    p.m = m;
    p.M_row.resize(std::size_t(m * m));
    p.M_col.resize(std::size_t(m * m));
    p.q.assign(q.data(), q.data() + m);
    for (int i = 0; i < m; ++i)
      for (int j = 0; j < m; ++j) p.M_row[std::size_t(i * m + j)] = W(i, j), p.M_col[std::size_t(i + j * m)] = W(i, j);
    return p;
  }
};

Instance contact_instance(std::mt19937& g, int m, bool rank_deficient) {
  return ContactDrift(g, m, rank_deficient, false).at(0);
}

struct Stats {
  double us_per_problem = 0;
  int ok = 0, total = 0;
  double worst_residual = 0;
  long pivots = 0;  // summed over the batch (obliq: iterations; Siconos: iparam ITER_DONE)
  int warm_hits = 0;
};

using obliq::bench::best_time_us;

// warm (optional, one per problem): the active set to warm-start problem k from (solve_warm).
Stats run_obliq(const std::vector<Instance>& batch, obliq::LcpSolver solver,
                const std::vector<std::vector<int>>* warm = nullptr) {
  Stats st;
  int m = batch.front().m;
  for (const auto& p : batch) m = std::max(m, p.m);
  std::vector<double> scratch(obliq::lcp::solve_workspace<double>(m));
  std::vector<double> z(static_cast<std::size_t>(m)), w(static_cast<std::size_t>(m));
  std::vector<obliq::Status> status(batch.size());
  std::vector<int> pivots(batch.size());
  std::vector<char> hit(batch.size());
  std::vector<std::vector<double>> zs(batch.size());
  const auto pass = [&] {
    for (std::size_t k = 0; k < batch.size(); ++k) {
      const Instance& p = batch[k];
      obliq::Arena<double> arena{scratch.data(), scratch.size()};
      const obliq::MatView<const double> M{p.M_row.data(), p.m, p.m, p.m, 1};
      const obliq::VecView<const double> q{p.q.data(), p.m, 1};
      const obliq::VecView<double> zv{z.data(), p.m, 1}, wv{w.data(), p.m, 1};
      bool h = false;
      const auto r = warm ? obliq::lcp::solve_warm<double>(M, q, zv, wv, arena, solver, (*warm)[k].data(),
                                                           int((*warm)[k].size()), &h)
                          : obliq::lcp::solve<double>(M, q, zv, wv, arena, solver);
      status[k] = r.status;
      pivots[k] = r.iterations;
      hit[k] = h;
      zs[k].assign(z.begin(), z.begin() + p.m);
    }
  };
  st.us_per_problem = best_time_us(pass, int(batch.size()));
  for (std::size_t k = 0; k < batch.size(); ++k) {
    ++st.total;
    st.pivots += pivots[k];
    st.warm_hits += hit[k];
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
  std::vector<int> info(batch.size()), pivots(batch.size());
  const auto pass = [&] {
    for (std::size_t k = 0; k < batch.size(); ++k) {
      std::fill(zs[k].begin(), zs[k].end(), 0.0);
      info[k] = linearComplementarity_driver(&problems[k], zs[k].data(), ws[k].data(), options);
      pivots[k] = options->iparam[SICONOS_IPARAM_ITER_DONE];
    }
  };
  st.us_per_problem = best_time_us(pass, int(batch.size()));
  for (std::size_t k = 0; k < batch.size(); ++k) {
    ++st.total;
    st.pivots += pivots[k];
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

// One pass of each library over a batch, nothing else (no set-up, no checks): what
// bench/peer_instructions.sh counts.
[[gnu::noinline]] void obliq_lemke_pass(const std::vector<Instance>& batch, std::vector<double>& scratch,
                                        std::vector<double>& z, std::vector<double>& w) {
  for (const Instance& p : batch) {
    obliq::Arena<double> arena{scratch.data(), scratch.size()};
    obliq::lcp::solve<double>({p.M_row.data(), p.m, p.m, p.m, 1}, {p.q.data(), p.m, 1}, {z.data(), p.m, 1},
                              {w.data(), p.m, 1}, arena, obliq::LcpSolver::lemke);
  }
}
[[gnu::noinline]] void siconos_lemke_pass(std::vector<LinearComplementarityProblem>& problems,
                                          std::vector<std::vector<double>>& zs, std::vector<std::vector<double>>& ws,
                                          SolverOptions* options) {
  for (std::size_t k = 0; k < problems.size(); ++k)
    linearComplementarity_driver(&problems[k], zs[k].data(), ws[k].data(), options);
}

int count_instructions(int m, int count) {
  std::mt19937 g(1000u * unsigned(m));  // the cold table's full-rank batch of size m
  std::vector<Instance> batch;
  for (int k = 0; k < count; ++k) batch.push_back(contact_instance(g, m, false));
  const std::size_t mm = std::size_t(m);
  std::vector<double> scratch(obliq::lcp::solve_workspace<double>(m)), z(mm), w(mm);
  obliq_lemke_pass(batch, scratch, z, w);
  std::vector<LinearComplementarityProblem> problems(batch.size());
  std::vector<std::vector<double>> Mcopy(batch.size()), zs(batch.size(), z), ws(batch.size(), w);
  for (std::size_t k = 0; k < batch.size(); ++k) {
    Mcopy[k] = batch[k].M_col;
    problems[k].size = m;
    problems[k].M = NM_create_from_data(NM_DENSE, m, m, Mcopy[k].data());
    problems[k].q = batch[k].q.data();
  }
  SolverOptions* options = solver_options_create(SICONOS_LCP_LEMKE);
  siconos_lemke_pass(problems, zs, ws, options);
  for (auto& p : problems) {
    p.M->matrix0 = nullptr;  // owned by Mcopy
    NM_free(p.M);
  }
  solver_options_delete(options);
  return 0;
}

void row(const char* what, int m, const char* solver, const Stats& s, double ref_us) {
  std::printf("| %s | %d | %s | %.3f | %.2fx | %d/%d | %.1e |\n", what, m, solver, s.us_per_problem,
              ref_us / s.us_per_problem, s.ok, s.total, s.worst_residual);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc > 2 && std::string(argv[1]) == "--instructions")
    return count_instructions(std::atoi(argv[2]), argc > 3 ? std::atoi(argv[3]) : 200);
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

  // Warm starts: sequences of nearly equal problems (time-stepping-like drift: A + t dA,
  // v_f + t dv with t = 1e-3 per step), each problem warm-started from the active set of the
  // previous step's answer (obliq's cold answer, computed before the timing; a real time stepper
  // would pass its previous answer, which is the same one).
  const int steps = 20, sequences = std::max(1, count / steps);
  std::printf("\nWarm starts: %d sequences of %d drifting problems (step t = 1e-3) per row, one core; "
              "speed-up = Siconos lemke time / this time; pivots per problem (mean); hits = answers taken "
              "from the warm active set.\n\n", sequences, steps);
  std::printf("| W | m | solver | us/problem | vs Siconos lemke | pivots | hits | success |\n");
  std::printf("|---|---|---|---|---|---|---|---|\n");
  for (bool deficient : {false, true}) {
    for (int m : {4, 8, 12, 16, 24}) {
      std::mt19937 g(7000u * unsigned(m) + (deficient ? 1u : 0u));
      std::vector<Instance> batch;
      for (int s = 0; s < sequences; ++s) {
        const ContactDrift d(g, m, deficient, true);
        for (int k = 0; k < steps; ++k) batch.push_back(d.at(1e-3 * k));
      }
      std::vector<std::vector<int>> warm(batch.size());
      for (std::size_t k = 0; k < batch.size(); ++k) {
        if (k % std::size_t(steps) == 0) continue;  // a sequence's first problem: nothing to start from
        const Instance& p = batch[k - 1];
        obliq::LcpProblem lp{p.m, p.M_row, p.q, obliq::LcpSolver::lemke, std::nullopt};
        warm[k] = obliq::lcp_active_set(obliq::solve_lcp(lp));
      }
      const char* what = deficient ? "rank-deficient" : "full rank";
      const double n = double(batch.size());
      const auto line = [&](const char* solver, const Stats& st, double ref_us) {
        std::printf("| %s | %d | %s | %.3f | %.2fx | %.1f | %d/%d | %d/%d |\n", what, m, solver, st.us_per_problem,
                    ref_us / st.us_per_problem, double(st.pivots) / n, st.warm_hits, st.total, st.ok, st.total);
      };
      const Stats sl = run_siconos(batch, SICONOS_LCP_LEMKE);
      line("Siconos lemke (cold)", sl, sl.us_per_problem);
      line("obliq lemke cold", run_obliq(batch, obliq::LcpSolver::lemke), sl.us_per_problem);
      line("obliq lemke warm", run_obliq(batch, obliq::LcpSolver::lemke, &warm), sl.us_per_problem);
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
