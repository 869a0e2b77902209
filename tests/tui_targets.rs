//! The inspector's targets agree with the command line's, at 80×24 under tmux: the profile
//! picker offers every API profile a provider has (Mistral: `mistral-conversations`, the API
//! `--provider mistral` answers with, beside the catalog's `openai-completions`), marks the
//! session's own, and a choice there gives the target and verdict `lint` gives for the same
//! provider, API and model; `E` explains the session's own error against the session's own
//! target after a profile switch, and names it.

mod common;

use std::process::Command;

use common::tmux::{Tmux, command, samples};

/// `(target line, verdict line)`: the header's first two lines.
fn header(screen: &str) -> (String, String) {
    let mut lines = screen.lines().map(str::to_owned);
    (lines.next().unwrap_or_default(), lines.next().unwrap_or_default())
}

/// The screen once the header's verdict is computed (`✓` or `✗` opens its second line).
fn settled(tmux: &Tmux) -> String {
    let start = std::time::Instant::now();
    loop {
        let screen = tmux.capture();
        let (_, verdict) = header(&screen);
        if verdict.starts_with('✓') || verdict.starts_with('✗') {
            return screen;
        }
        assert!(start.elapsed().as_secs() < 60, "no verdict:\n{screen}");
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
}

/// `lint`'s target (`provider / api / model`) and whether it accepts, for the same flags.
fn lint(session: &std::path::Path, provider: &str, api: &str, model: &str) -> (String, bool) {
    let out = Command::new(env!("CARGO_BIN_EXE_replaylens"))
        .arg("lint")
        .arg(session)
        .args(["--provider", provider, "--api", api, "--model", model])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let target = text
        .lines()
        .next()
        .and_then(|l| l.split(" → ").nth(1))
        .unwrap_or_default()
        .to_owned();
    assert!(text.contains("verdict:"), "{text}");
    (target, out.status.success())
}

#[test]
fn the_picker_offers_both_mistral_apis_marks_the_sessions_own_and_equals_the_command_line() {
    let config = tempfile::tempdir().unwrap();
    let session = samples().join("mistral-ids-and-images.jsonl");
    let tmux = Tmux::start_sized("targets", &command(&[&session], config.path()), 80, 24);
    tmux.wait_for("payload would be rejected");
    for down in [0, 1] {
        tmux.send(&["p"]);
        tmux.wait_for("profile: replay target");
        tmux.send(&["-l", "/mistral"]);
        let screen = tmux.wait_for("filter: mistral");
        let own = screen
            .lines()
            .find(|l| l.contains("mistral ●"))
            .unwrap_or_else(|| panic!("no marked profile:\n{screen}"));
        assert!(own.contains("mistral-conversations"), "{screen}");
        assert!(
            screen
                .lines()
                .any(|l| l.contains("mistral ") && !l.contains('●') && l.contains("openai-completions")),
            "{screen}"
        );
        if down == 1 {
            tmux.send(&["Down"]);
        }
        tmux.send(&["Enter"]);
        tmux.wait_gone("profile: replay target");
        let api = if down == 0 {
            "mistral-conversations"
        } else {
            "openai-completions"
        };
        tmux.wait_for(&format!("target mistral / {api} / "));
        let screen = settled(&tmux);
        let (target, verdict) = header(&screen);
        let shown = target.trim_start_matches("target ").trim().to_owned();
        let parts: Vec<&str> = shown.split(" / ").collect();
        assert_eq!(parts.len(), 3, "{screen}");
        let (cli_target, accepted) = lint(&session, parts[0], parts[1], parts[2]);
        assert_eq!(shown, cli_target, "{screen}");
        assert_eq!(
            verdict.starts_with("✓ payload accepted"),
            accepted,
            "inspector and lint disagree for {shown}:\n{screen}"
        );
    }
    tmux.send(&["q"]);
    tmux.wait_exit();
}

#[test]
fn after_a_profile_switch_e_explains_the_sessions_error_against_its_own_target_and_names_it() {
    let config = tempfile::tempdir().unwrap();
    let session = samples().join("anthropic-tool-repair.jsonl");
    let tmux = Tmux::start_sized("own-error", &command(&[&session], config.path()), 80, 24);
    tmux.wait_for("payload accepted");
    tmux.send(&["p"]);
    tmux.wait_for("profile: replay target");
    tmux.send(&["-l", "/xai"]);
    tmux.wait_for("grok");
    tmux.send(&["Enter"]);
    tmux.wait_for("target xai / ");
    tmux.send(&["E"]);
    tmux.wait_for("explain a provider error");
    let error = "messages.13.content.2: unexpected `tool_use_id` found in `tool_result` blocks: toolu_01OvWOYRsMCFltjuQJSeeuAV. Each `tool_result` block must have a corresponding `tool_use` block in the previous message.";
    assert!(tmux.run(&["set-buffer", "-b", "err", error]).status.success());
    assert!(
        tmux.run(&["paste-buffer", "-p", "-b", "err", "-t", "t"])
            .status
            .success()
    );
    tmux.wait_for("previous message.");
    tmux.send(&["Enter"]);
    let screen = tmux.wait_for("explained");
    assert!(screen.contains("anthropic / anthropic-messages"), "{screen}");
    assert!(screen.contains("session's own"), "{screen}");
    assert!(
        screen.lines().any(|l| l.contains("points at") && l.contains("16")),
        "the message is found:\n{screen}"
    );
    // The profile on screen stays the one chosen.
    assert!(header(&screen).0.starts_with("target xai / "), "{screen}");
    tmux.send(&["Escape"]);
    tmux.send(&["q"]);
    tmux.wait_exit();
}
