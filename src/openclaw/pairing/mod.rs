//! OpenClaw's tool-result pairing planner: the newest planner by occurrence ([`classify`]),
//! the result-id and name handling it shares ([`results`]) and the 2026.7.35 planner
//! ([`legacy`]). They only decide; the `tool-result-pairing` rule applies the plan.

pub mod classify;
pub mod legacy;
pub mod order;
pub mod results;

#[cfg(test)]
mod tests;
