// bench_model_vs_pinocchio: model evaluation + impact solve per state, obliq against Pinocchio in
// C++, one thread, on the same states, side by side in one process (README "Benchmarks",
// docs/model.md "Benchmark"). bench/pinocchio/model_vs_pinocchio.py writes the inputs and runs it.
//
//   bench_model_vs_pinocchio --urdf FILE --pinocchio-model FILE.txt --states FILE
//                            --contact LINK:x,y,z ... [--e E] [--rounds R] [--tol T]
//                            [--profile obliq|obliq-dense|pinocchio]
//
// obliq: its own URDF loader (urdfdom), evaluate_batch (M, h, contact rows, gaps, Adot qdot for
// the whole batch) then solve_impact with the projection law (every row closed, restitution e),
// threads = 1, M factored along the kinematic tree (docs/math.md 9); "obliq dense M" is the same
// with the model's tree removed (the dense Cholesky of M, as for raw scenarios). Pinocchio: the model its own URDF parser built, saved by Python's pin as a text
// archive (Pinocchio's parser library cannot share a process with Debian's urdfdom that obliq
// links); contact frames c0, c1, ... added there on the same links and points. Pinocchio is used
// header-only, compiled here with the same compiler and flags as obliq. Per state it does the same
// work two ways (the faster one is the Pinocchio figure):
//   fk+crba+nle:  forwardKinematics(q, v, 0), crba (world convention: M and the joint Jacobians),
//                 nonLinearEffects, per contact frame the placement (gap), the +z row of the frame
//                 Jacobian (LOCAL_WORLD_ALIGNED) and the classical acceleration (Adot qdot),
//                 impulseDynamics(v, J, e) on that M (Cholesky of M, of J M^-1 J^T, the solve);
//   allterms:     computeAllTerms (also com, Jcom, centroidal map: more than needed) instead of the
//                 first three calls.
// Both sides must give the same post-impact velocity on every state to `--tol` relative to the
// size of the velocities (so that the times compare equal work); a mismatch is printed and the
// exit status is 1. Timing: bench/siconos/best_time.hpp (best of five passes over all states),
// repeated `--rounds` times alternating obliq and Pinocchio, best kept. Output: one JSON line.
// --profile SIDE: only that side's evaluation + impact, `--rounds` x 5 passes, no output (for
// `perf record`).
#include <pinocchio/algorithm/compute-all-terms.hpp>
#include <pinocchio/algorithm/contact-dynamics.hpp>
#include <pinocchio/algorithm/crba.hpp>
#include <pinocchio/algorithm/frames.hpp>
#include <pinocchio/algorithm/kinematics.hpp>
#include <pinocchio/algorithm/rnea.hpp>
#include <pinocchio/multibody.hpp>
#include <pinocchio/serialization.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "obliq/batch.hpp"
#include "obliq/model/host.hpp"
#include "siconos/best_time.hpp"

namespace {

struct Args {
  std::string urdf, pin_model, states;
  std::vector<std::string> contacts;
  double e = 0.5, tol = 1e-9;
  int rounds = 3;
  std::string profile;
};

Args parse(int argc, char** argv) {
  Args a;
  for (int i = 1; i < argc; ++i) {
    const std::string k = argv[i];
    auto next = [&]() -> std::string {
      if (i + 1 >= argc) throw std::invalid_argument(k + " needs a value");
      return argv[++i];
    };
    if (k == "--urdf") a.urdf = next();
    else if (k == "--pinocchio-model") a.pin_model = next();
    else if (k == "--states") a.states = next();
    else if (k == "--contact") a.contacts.push_back(next());
    else if (k == "--e") a.e = std::stod(next());
    else if (k == "--rounds") a.rounds = std::stoi(next());
    else if (k == "--tol") a.tol = std::stod(next());
    else if (k == "--profile") a.profile = next();
    else throw std::invalid_argument("unknown argument " + k);
  }
  if (a.urdf.empty() || a.pin_model.empty() || a.states.empty() || a.contacts.empty())
    throw std::invalid_argument("--urdf, --pinocchio-model, --states and --contact are required");
  return a;
}

// Pinocchio, one state: M, h, contact rows, gaps, Adot qdot, then the impulse solve.
struct PinocchioSide {
  const pinocchio::Model& model;
  pinocchio::Data data;
  std::vector<pinocchio::FrameIndex> frames;
  Eigen::MatrixXd J, J6;
  Eigen::VectorXd phi, Adot_qdot, zero;
  double e;

  PinocchioSide(const pinocchio::Model& m, int ncontacts, double e_)
      : model(m), data(m), J(ncontacts, m.nv), J6(6, m.nv), phi(ncontacts), Adot_qdot(ncontacts),
        zero(Eigen::VectorXd::Zero(m.nv)), e(e_) {
    for (int k = 0; k < ncontacts; ++k) {
      const std::string name = "c" + std::to_string(k);
      if (!m.existFrame(name)) throw std::runtime_error("Pinocchio model has no contact frame " + name);
      frames.push_back(m.getFrameId(name));
    }
  }
  void contact_rows() {
    for (int k = 0; k < int(frames.size()); ++k) {
      const auto f = frames[k];
      pinocchio::updateFramePlacement(model, data, f);
      J6.setZero();
      pinocchio::getFrameJacobian(model, data, f, pinocchio::LOCAL_WORLD_ALIGNED, J6);
      J.row(k) = J6.row(2);
      phi(k) = data.oMf[f].translation()(2);
      Adot_qdot(k) = pinocchio::getFrameClassicalAcceleration(model, data, f, pinocchio::LOCAL_WORLD_ALIGNED).linear()(2);
    }
  }
  const Eigen::VectorXd& fk_crba_nle(const Eigen::VectorXd& q, const Eigen::VectorXd& v) {
    pinocchio::forwardKinematics(model, data, q, v, zero);
    pinocchio::crba(model, data, q, pinocchio::Convention::WORLD);
    pinocchio::nonLinearEffects(model, data, q, v);
    contact_rows();
    return pinocchio::impulseDynamics(model, data, v, J, e, 0.0);
  }
  const Eigen::VectorXd& allterms(const Eigen::VectorXd& q, const Eigen::VectorXd& v) {
    pinocchio::computeAllTerms(model, data, q, v);
    contact_rows();
    return pinocchio::impulseDynamics(model, data, v, J, e, 0.0);
  }
};

}  // namespace

int main(int argc, char** argv) try {
  const Args args = parse(argc, argv);

  // obliq's model from the URDF, contact points on the links.
  // Standard inertial checks, as `obliq model`: Go1's "base" link (a rod-like inertia that breaks
  // the triangle inequality) loads with a warning, which this program does not print.
  obliq::model::Model om = obliq::model::load_urdf(args.urdf, /*free_base=*/true);
  for (const auto& c : args.contacts) {
    const auto colon = c.find(':');
    Eigen::Vector3d p = Eigen::Vector3d::Zero();
    if (colon != std::string::npos && !obliq::model::parse_triple(c.substr(colon + 1), p))
      throw std::invalid_argument("bad contact point in " + c);
    obliq::model::add_ground_contact(om, c.substr(0, colon), p, 0.0);
  }
  pinocchio::Model pm;
  pm.loadFromText(args.pin_model);
  if (pm.nq != om.nq || pm.nv != om.nv)
    throw std::runtime_error("obliq and Pinocchio models differ in size (nq, nv)");

  // States {"q": [...], "qdot": [...]} per line.
  std::vector<Eigen::VectorXd> qs, vs;
  std::ifstream in(args.states);
  if (!in) throw std::runtime_error("cannot read " + args.states);
  for (std::string line; std::getline(in, line);) {
    if (line.empty()) continue;
    const auto j = nlohmann::json::parse(line);
    const auto q = j.at("q").get<std::vector<double>>();
    const auto v = j.at("qdot").get<std::vector<double>>();
    if (int(q.size()) != om.nq || int(v.size()) != om.nv) throw std::runtime_error("state of the wrong size");
    qs.push_back(Eigen::Map<const Eigen::VectorXd>(q.data(), om.nq));
    vs.push_back(Eigen::Map<const Eigen::VectorXd>(v.data(), om.nv));
  }
  const int count = int(qs.size());
  if (count == 0) throw std::runtime_error("no states in " + args.states);
  obliq::RowMat<double> Q(count, om.nq), V(count, om.nv);
  for (int s = 0; s < count; ++s) {
    Q.row(s) = qs[s].transpose();
    V.row(s) = vs[s].transpose();
  }

  // obliq: evaluation alone, and evaluation + impact (projection law, all rows closed).
  obliq::Batch<double> batch;
  std::vector<obliq::Status> eval_status;
  obliq::ImpactResults<double> res;
  obliq::RunOptions run;
  run.threads = 1;
  obliq::model::Model om_dense = om;  // the same model without its tree: the dense factor of M
  om_dense.velocity_parent.clear();
  auto obliq_eval = [&] { obliq::model::evaluate_batch(om, Q, V, batch, eval_status, 1); };
  auto obliq_impact_of = [&](const obliq::model::Model& model) {
    obliq::model::evaluate_batch(model, Q, V, batch, eval_status, 1);
    std::fill(batch.phi_u.begin(), batch.phi_u.end(), 0.0);
    std::fill(batch.e.begin(), batch.e.end(), args.e);
    std::fill(batch.law.begin(), batch.law.end(), std::uint8_t(obliq::Law::projection));
    obliq::solve_impact(batch, res, run);
  };
  auto obliq_impact = [&] { obliq_impact_of(om); };
  auto obliq_impact_dense = [&] { obliq_impact_of(om_dense); };
  PinocchioSide pin(pm, om.ncontacts(), args.e);
  auto pin_eval = [&] {
    for (int s = 0; s < count; ++s) {
      pinocchio::forwardKinematics(pm, pin.data, qs[s], vs[s], pin.zero);
      pinocchio::crba(pm, pin.data, qs[s], pinocchio::Convention::WORLD);
      pinocchio::nonLinearEffects(pm, pin.data, qs[s], vs[s]);
      pin.contact_rows();
    }
  };
  auto pin_fk = [&] {
    for (int s = 0; s < count; ++s) pin.fk_crba_nle(qs[s], vs[s]);
  };
  auto pin_all = [&] {
    for (int s = 0; s < count; ++s) pin.allterms(qs[s], vs[s]);
  };

  if (!args.profile.empty()) {
    if (args.profile != "obliq" && args.profile != "obliq-dense" && args.profile != "pinocchio")
      throw std::invalid_argument("--profile obliq|obliq-dense|pinocchio");
    for (int r = 0; r < 5 * args.rounds; ++r)
      args.profile == "obliq" ? obliq_impact() : args.profile == "obliq-dense" ? obliq_impact_dense() : pin_fk();
    return 0;
  }

  // Equal work: the same post-impact velocities (and gaps/drift rows as a check of the model).
  obliq_impact();
  int bad_status = 0, mismatched = 0;
  double worst = 0, worst_rows = 0;
  const int n = om.nv, nc = om.ncontacts();
  for (int s = 0; s < count; ++s) {
    if (res.status[s] != obliq::Status::ok) {
      ++bad_status;
      continue;
    }
    const Eigen::Map<const Eigen::VectorXd> vo(res.qdot_plus.data() + std::size_t(s) * n, n);
    for (int variant = 0; variant < 2; ++variant) {
      const Eigen::VectorXd vp = variant == 0 ? pin.fk_crba_nle(qs[s], vs[s]) : pin.allterms(qs[s], vs[s]);
      const double scale = std::max(vp.norm(), vs[s].norm());
      const double d = (vo - vp).norm() / scale;
      worst = std::max(worst, d);
      if (!(d <= args.tol)) ++mismatched;
    }
    const Eigen::Map<const obliq::RowMat<double>> Ao(batch.A_u.data() + std::size_t(s) * nc * n, nc, n);
    const Eigen::Map<const Eigen::VectorXd> ado(batch.Adot_qdot.data() + std::size_t(s) * nc, nc);
    worst_rows = std::max(worst_rows, (Ao - pin.J).norm() / pin.J.norm());
    worst_rows = std::max(worst_rows, (ado - pin.Adot_qdot).norm() / std::max(pin.Adot_qdot.norm(), 1e-300));
  }

  // The tree and the dense factor give the same answers to rounding (tests/model/tree_factor_test.cpp).
  const std::vector<double> tree_v = res.qdot_plus;
  obliq_impact_dense();
  double worst_dense = 0;
  for (std::size_t k = 0; k < tree_v.size(); ++k)
    worst_dense = std::max(worst_dense, std::abs(tree_v[k] - res.qdot_plus[k]) / (1 + std::abs(res.qdot_plus[k])));

  double t_oe = 1e300, t_oi = 1e300, t_od = 1e300, t_pe = 1e300, t_pf = 1e300, t_pa = 1e300;
  for (int r = 0; r < args.rounds; ++r) {
    t_oi = std::min(t_oi, obliq::bench::best_time_us(obliq_impact, count));
    t_od = std::min(t_od, obliq::bench::best_time_us(obliq_impact_dense, count));
    t_pf = std::min(t_pf, obliq::bench::best_time_us(pin_fk, count));
    t_pa = std::min(t_pa, obliq::bench::best_time_us(pin_all, count));
    t_oe = std::min(t_oe, obliq::bench::best_time_us(obliq_eval, count));
    t_pe = std::min(t_pe, obliq::bench::best_time_us(pin_eval, count));
  }
  const double t_pin = std::min(t_pf, t_pa);
  nlohmann::json out = {{"nq", om.nq},
                        {"nv", om.nv},
                        {"contacts", nc},
                        {"states", count},
                        {"e", args.e},
                        {"obliq_eval_us", t_oe},
                        {"obliq_eval_impact_us", t_oi},
                        {"obliq_eval_impact_dense_us", t_od},
                        {"worst_tree_vs_dense_rel_diff", worst_dense},
                        {"pinocchio_eval_us", t_pe},
                        {"pinocchio_fk_crba_nle_impulse_us", t_pf},
                        {"pinocchio_allterms_impulse_us", t_pa},
                        {"pinocchio_best_us", t_pin},
                        {"speedup", t_pin / t_oi},
                        {"obliq_failed_states", bad_status},
                        {"velocity_mismatches", mismatched},
                        {"worst_velocity_rel_diff", worst},
                        {"worst_rows_rel_diff", worst_rows},
                        {"tol", args.tol}};
  std::cout << out.dump() << std::endl;
  if (mismatched || bad_status) {
    std::fprintf(stderr, "bench_model_vs_pinocchio: %d states failed in obliq, %d velocity mismatches (worst %.3g)\n",
                 bad_status, mismatched, worst);
    return 1;
  }
  return 0;
} catch (const std::exception& ex) {
  std::fprintf(stderr, "bench_model_vs_pinocchio: %s\n", ex.what());
  return 2;
}
