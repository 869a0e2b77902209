//! Exit status: how a command can end, the code each ending exits with, and the one mapping from
//! an error to its ending. README's exit table lists the same codes (a test holds it).

use std::process::ExitCode;

use replaylens::load::LoadError;
use replaylens::repair::RepairError;
use replaylens::write::WriteError;

use super::{OutputFileError, export, lint, providers, reduce, rules, scan};

/// How a command ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, strum::EnumIter)]
pub enum Exit {
    /// It did what was asked (a closed standard output, as under `| head`, counts as done).
    Success,
    /// `lint`: the payload would be rejected.
    Rejected,
    /// It failed on its own side: a full disk, an I/O error writing standard output, a bug.
    Internal,
    /// The input or the arguments cannot be used: the sentence on stderr says why.
    Unusable,
    /// `reduce`: the session does not reproduce what it was asked to keep.
    NothingToKeep,
}

impl Exit {
    /// The process exit code.
    pub const fn code(self) -> u8 {
        match self {
            Self::Success => 0,
            Self::Rejected | Self::Internal => 1,
            Self::Unusable => 2,
            Self::NothingToKeep => 3,
        }
    }
}

impl From<Exit> for ExitCode {
    fn from(exit: Exit) -> Self {
        Self::from(exit.code())
    }
}

/// Does `err` hold an error of type `T`?
fn is<T: std::fmt::Display + std::fmt::Debug + Send + Sync + 'static>(err: &anyhow::Error) -> bool {
    err.downcast_ref::<T>().is_some()
}

/// The errors that say the input or the arguments cannot be used; every other error is an
/// internal failure.
const UNUSABLE: &[fn(&anyhow::Error) -> bool] = &[
    is::<LoadError>,
    is::<rules::UnknownRule>,
    is::<providers::NoProviderList>,
    is::<export::OverwritesInput>,
    is::<export::FormatError>,
    is::<scan::ArgumentError>,
    is::<reduce::UnknownKeep>,
    is::<replaylens::wire::WireError>,
    is::<crate::tui::theme::SettingsFileError>,
    is::<crate::tui::terminal::NoTerminal>,
    |e| {
        e.downcast_ref::<WriteError>()
            .is_some_and(WriteError::is_unusable_argument)
    },
    |e| {
        e.downcast_ref::<OutputFileError>()
            .is_some_and(OutputFileError::is_unusable_argument)
    },
    |e| {
        matches!(
            e.downcast_ref::<RepairError>(),
            Some(RepairError::Read { .. } | RepairError::Refused(_) | RepairError::Unsafe(_))
        )
    },
];

/// How a command that returned `err` ended.
pub fn of_error(err: &anyhow::Error) -> Exit {
    if super::is_broken_pipe(err) {
        Exit::Success
    } else if is::<lint::Rejected>(err) {
        Exit::Rejected
    } else if is::<reduce::NothingToKeep>(err) {
        Exit::NothingToKeep
    } else if UNUSABLE.iter().any(|unusable| unusable(err)) {
        Exit::Unusable
    } else {
        Exit::Internal
    }
}

#[cfg(test)]
mod tests {
    use strum::IntoEnumIterator;

    use super::*;

    #[test]
    fn the_readme_table_lists_every_code() {
        let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
        let table: std::collections::BTreeSet<u8> = readme
            .lines()
            .skip_while(|l| !l.starts_with("| exit | meaning |"))
            .skip(2)
            .take_while(|l| l.starts_with('|'))
            .filter_map(|l| l.split('|').nth(1)?.trim().parse().ok())
            .collect();
        let codes: std::collections::BTreeSet<u8> = Exit::iter().map(Exit::code).collect();
        assert_eq!(table, codes, "README's exit table and Exit disagree");
    }

    #[test]
    fn an_unlisted_error_is_internal_and_a_listed_one_unusable() {
        assert_eq!(of_error(&anyhow::anyhow!("a bug")), Exit::Internal);
        assert_eq!(of_error(&rules::UnknownRule("x".into()).into()), Exit::Unusable);
        assert_eq!(of_error(&lint::Rejected.into()), Exit::Rejected);
    }
}
