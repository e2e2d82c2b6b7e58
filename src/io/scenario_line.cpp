// io/scenario_line.cpp: two parsed scenario lines compared bit for bit (io/scenario_line.hpp).
#include "io/scenario_line.hpp"

#include <cstring>

namespace obliq::io {
namespace {

template <class M> bool same_bits(const M& a, const M& b) {
  if (a.rows() != b.rows() || a.cols() != b.cols()) return false;
  return a.size() == 0 || std::memcmp(a.data(), b.data(), sizeof(double) * std::size_t(a.size())) == 0;
}

bool same_friction(const std::optional<Friction>& a, const std::optional<Friction>& b) {
  if (a.has_value() != b.has_value()) return false;
  if (!a) return true;
  return a->dim == b->dim && same_bits(a->mu, b->mu) && same_bits(a->A_t, b->A_t) && same_bits(a->e_t, b->e_t) &&
         same_bits(a->Adot_qdot_t, b->Adot_qdot_t);
}

std::string id_text(const ScenarioLine& l) { return l.id.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace); }

}  // namespace

bool same_scenario_line(const ScenarioLine& a, const ScenarioLine& b) {
  if (a.blank != b.blank || a.error != b.error || id_text(a) != id_text(b)) return false;
  if (a.blank || !a.error.empty()) return true;
  const Scenario &s = a.scenario, &t = b.scenario;
  return s.id == t.id && s.law == t.law && std::memcmp(&s.gap_tol, &t.gap_tol, sizeof(double)) == 0 &&
         std::memcmp(&s.vel_tol, &t.vel_tol, sizeof(double)) == 0 && same_bits(s.M, t.M) && same_bits(s.qdot, t.qdot) &&
         same_bits(s.h, t.h) && same_bits(s.u, t.u) && same_bits(s.i_u, t.i_u) && same_bits(s.A_b, t.A_b) &&
         same_bits(s.A_u, t.A_u) && same_bits(s.phi_u, t.phi_u) && same_bits(s.Adot_qdot, t.Adot_qdot) &&
         same_bits(s.e, t.e) && same_friction(a.friction, b.friction);
}

}  // namespace obliq::io
