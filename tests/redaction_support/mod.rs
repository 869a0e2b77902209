//! The redaction corpus' secret forms: its own ([`forms`]) and those in the shapes of gitleaks'
//! rules ([`gitleaks`]).

pub mod forms;
pub mod gitleaks;
