//! Claude Code and Codex files read from their own truth: over generated sessions and every
//! shared sample, each tool result the file holds on the main conversation reaches the replay
//! projection, and no result is synthesized for an id the file answers
//! (docs/internals.md, "Claude Code").

mod common;

use std::collections::HashSet;
use std::path::Path;

use proptest::prelude::*;

use common::agent_gen::{Generated, Rng, answered_in_file, claude_session, codex_rollout, load, results_seen, write};

fn check(g: &Generated, what: &str) -> Result<(), TestCaseError> {
    let file = write(&g.lines);
    let session = load(file.path());
    let seen = results_seen(&session);
    for id in &g.expected {
        prop_assert!(
            seen.carried.contains(id),
            "{what}: the result of {id} did not reach the projection"
        );
    }
    for id in &seen.synthesized {
        prop_assert!(
            !g.answered.contains(id),
            "{what}: a result was synthesized for {id}, which the file answers"
        );
    }
    let adjacency: Vec<&str> = seen
        .stored_findings
        .iter()
        .copied()
        .filter(|c| c.contains("adjacency"))
        .collect();
    prop_assert!(
        adjacency.is_empty(),
        "{what}: the stored transcript breaks {adjacency:?}"
    );
    for q in &g.queued {
        prop_assert!(
            seen.user_texts.iter().any(|t| t.contains(q.as_str())),
            "{what}: the queued prompt {q:?} is not user content of the projection"
        );
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn generated_claude_code_sessions_keep_every_result(seed in any::<u64>()) {
        let g = claude_session(&mut Rng::new(seed));
        check(&g, "Claude Code")?;
    }

    #[test]
    fn generated_codex_rollouts_keep_every_result(seed in any::<u64>()) {
        let g = codex_rollout(&mut Rng::new(seed));
        check(&g, "Codex")?;
    }
}

/// The session files under one agent's folder of the shared samples.
fn sample_files(agent: &str) -> Vec<std::path::PathBuf> {
    let Some(dir) = common::shared_samples() else {
        return Vec::new();
    };
    common::files_under(&dir.join(agent))
        .into_iter()
        .filter(|p| common::is_shared_session_file(p) && p.extension().is_some_and(|e| e == "jsonl"))
        .collect()
}

fn no_invented_results(agent: &str) {
    let files = sample_files(agent);
    if common::shared_samples().is_none() {
        return;
    }
    assert!(!files.is_empty(), "no {agent} samples");
    let mut invented = Vec::new();
    let mut results = 0;
    for path in &files {
        let Ok(session) = replaylens::load::load_path(path, &replaylens::load::LoadOptions::default()) else {
            continue;
        };
        let answered = answered_in_file(path);
        let seen = results_seen(&session);
        results += seen.carried.len();
        invented.extend(
            seen.synthesized
                .iter()
                .filter(|id| answered.contains(id.as_str()))
                .map(|id| format!("{}: {id}", path.display())),
        );
    }
    assert!(
        invented.is_empty(),
        "results synthesized for ids the file answers: {invented:#?}"
    );
    assert!(results > 0, "{agent}: no tool result reached any projection");
}

#[test]
fn no_shared_claude_code_sample_gets_a_result_it_holds_invented() {
    no_invented_results("claude-code");
}

#[test]
fn no_shared_codex_sample_gets_a_result_it_holds_invented() {
    no_invented_results("codex");
}

/// The IDAHO-VAULT side-question file (Claude Code 2.1.86) has two parallel groups whose
/// first result hangs from the first call's line: both results are read from the file.
#[test]
fn real_parallel_calls_are_paired_from_the_file() {
    let Some(dir) = common::shared_samples() else { return };
    let path = dir.join(
        "claude-code/IDAHO-VAULT/projects/c--Users-loganf-Documents-IDAHO-VAULT/237326ca-5e6a-4313-b3dd-44df36143943/subagents/agent-aside_question-f0d9d80758d763dd.jsonl",
    );
    let seen = results_seen(&load(&path));
    let answered: HashSet<String> = answered_in_file(Path::new(&path));
    assert!(seen.synthesized.is_empty(), "{:?}", seen.synthesized);
    assert_eq!(
        seen.carried, answered,
        "every result of the file reaches the projection"
    );
    assert_eq!(answered.len(), 19);
    assert!(
        !seen.stored_findings.iter().any(|c| c.contains("adjacency")),
        "the stored transcript, read as Claude Code reads it, has every result after its call: {:?}",
        seen.stored_findings
    );
}
