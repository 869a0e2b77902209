//! The inspector in a real terminal: the binary runs under tmux (120×40), keys are sent, the
//! pane is captured and checked. Requires tmux (`.ci/run` installs it).

mod common;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use common::tmux::{Tmux, command, samples};

#[test]
fn inspector_opens_navigates_switches_profile_and_quits() {
    let config = tempfile::tempdir().unwrap();
    let session = samples().join("anthropic-tool-repair.jsonl");
    let inner = command(&[&session], config.path()).replace('\'', "\"");
    let shell = format!("sh -c '{inner}; echo EXITED rc=$?; stty -a | grep -q \" icanon\" && echo COOKED; sleep 60'");
    let tmux = Tmux::start("main", &shell);
    let screen = tmux.wait_for("stored 30 → replay");
    assert!(
        screen.contains("stored (30)") && screen.contains("replay projection ("),
        "{screen}"
    );
    assert!(screen.contains("16ef695f-a786-4000-a7be-fae1faf4236f"), "{screen}");
    tmux.send(&["j", "j"]);
    tmux.wait_for("3/");
    tmux.send(&["?"]);
    tmux.wait_for("next rewrite");
    // Esc and the next key must not arrive together (they would read as Alt-p).
    tmux.send(&["Escape"]);
    tmux.wait_gone("next rewrite");
    tmux.send(&["p"]);
    tmux.wait_for("profile: replay target");
    // The picker lists the release's profiles; typing after `/` filters them.
    tmux.send(&["-l", "/xai"]);
    tmux.wait_for("grok");
    tmux.send(&["Enter"]);
    let screen = tmux.wait_for("family openai-compatible");
    assert!(screen.contains("target xai / openai-responses / grok"), "{screen}");
    tmux.send(&["e"]);
    tmux.wait_for("export the comparison");
    let out = config.path().join("export.html");
    tmux.send(&["Tab", "C-u"]);
    tmux.send(&["-l", &out.display().to_string()]);
    tmux.send(&["Enter"]);
    let screen = tmux.wait_for("wrote ");
    assert!(screen.contains(&format!("wrote {}", out.display())), "{screen}");
    let html = std::fs::read_to_string(&out).unwrap();
    assert!(
        html.contains("<html") && html.contains("grok-"),
        "export for the chosen target"
    );
    tmux.send(&["C-c"]);
    let screen = tmux.wait_for("EXITED rc=0");
    assert!(
        !screen.contains("replay projection"),
        "alternate screen not left:\n{screen}"
    );
    tmux.wait_for("COOKED");
}

#[test]
fn escape_sequences_leave_title_and_screen_untouched() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("evil.json");
    let evil = "before \u{1b}]0;pwned\u{7} middle \u{1b}[2J after";
    let json = replaylens::json!([{"role": "user", "content": [{"type": "text", "text": evil}]}]);
    std::fs::write(&file, serde_json::to_string(&json).unwrap()).unwrap();
    let tmux = Tmux::start("evil", &command(&[&file], dir.path()));
    tmux.wait_for("after");
    // The projection is computed in the background: wait for it rather than race it.
    let screen = tmux.wait_for("replay projection (1)");
    assert!(
        screen.contains("before \\e]0;pwned\\x07 middle \\e[2J after"),
        "{screen}"
    );
    let title =
        String::from_utf8_lossy(&tmux.run(&["display-message", "-p", "-t", "t", "#{pane_title}"]).stdout).into_owned();
    assert!(!title.contains("pwned"), "terminal title changed to {title:?}");
    tmux.send(&["q"]);
    tmux.wait_exit();
}

#[test]
fn no_argument_opens_the_picker_over_the_bundled_samples() {
    let dir = tempfile::tempdir().unwrap();
    let bin = env!("CARGO_BIN_EXE_replaylens");
    let shell = format!(
        "env TERM=xterm-256color HOME='{0}' OPENCLAW_STATE_DIR='{0}/none' CLAUDE_CONFIG_DIR='{0}/none' CODEX_HOME='{0}/none' REPLAYLENS_CONFIG_DIR='{0}' '{bin}'",
        dir.path().display()
    );
    let tmux = Tmux::start("picker", &shell);
    let screen = tmux.wait_for("open session");
    assert!(screen.contains("bundled samples"), "{screen}");
    tmux.send(&["-l", "/gemsig"]);
    tmux.wait_for("▶ gemini-signatures.jsonl");
    tmux.send(&["Enter"]);
    let screen = tmux.wait_for("stored (12)");
    assert!(
        screen.contains("da56ef03-bbb3-4f51-a3e0-1da7b27bcb59  openclaw-jsonl"),
        "{screen}"
    );
    tmux.send(&["q"]);
    tmux.wait_exit();
}

#[test]
fn payload_view_and_finding_jump_in_a_real_terminal() {
    let config = tempfile::tempdir().unwrap();
    let session = samples().join("mistral-ids-and-images.jsonl");
    let tmux = Tmux::start("payload", &command(&[&session], config.path()));
    let screen = tmux.wait_for("payload would be rejected (2, x)");
    assert!(screen.contains("mistral-conversations"), "{screen}");
    tmux.send(&["x"]);
    tmux.wait_for("4/");
    tmux.send(&["w"]);
    let screen = tmux.wait_for("wire payload (w: rewrites)");
    assert!(screen.contains("✗ mistral-user-after-tool  messages[4]"), "{screen}");
    assert!(
        screen.contains("messages[3]  (the provider's messages[4]: the system prompt comes first)"),
        "{screen}"
    );
    assert!(screen.contains("Unexpected role 'user' after role 'tool'"), "{screen}");
    assert!(screen.contains("not fixed by hygiene"), "{screen}");
    assert!(screen.contains("\"role\": \"user\""), "{screen}");
    tmux.send(&["x"]);
    let screen = tmux.wait_for("✗ mistral-user-after-tool  messages[7]");
    assert!(screen.contains("7/"), "{screen}");
    tmux.send(&["x"]);
    tmux.wait_for("wrapped to the first lint finding");
    tmux.send(&["w"]);
    tmux.wait_gone("wire payload (w: rewrites)");
    tmux.send(&["q"]);
    tmux.wait_exit();
}

#[test]
fn a_claude_code_session_opens_with_its_own_target_and_notes() {
    let Some(root) = common::shared_samples() else { return };
    let config = tempfile::tempdir().unwrap();
    let session = root.join("claude-code/claude-code-log/representative_messages.jsonl");
    let tmux = Tmux::start("claude", &command(&[&session], config.path()));
    // The detail pane appears once the loading overlay is gone (a loaded machine takes longer).
    let screen = tmux.wait_for("(stored side mapped from line 1)");
    assert!(screen.contains("Claude Code · claude-code-jsonl"), "{screen}");
    assert!(
        screen.contains("anthropic / anthropic-messages / claude-3-sonnet"),
        "{screen}"
    );
    assert!(screen.contains("stored (11)"), "{screen}");
    tmux.wait_for("2 load notes (!)");
    tmux.wait_for("payload accepted");
    tmux.send(&["!"]);
    let screen = tmux.wait_for("notes: 2");
    assert!(
        screen.contains("line 12: note: `summary` line: a session title"),
        "{screen}"
    );
    tmux.send(&["Escape"]);
    tmux.wait_gone("notes: 2");
    tmux.send(&["j", "j", "j"]);
    tmux.wait_for("4/");
    tmux.send(&["w"]);
    // The pane's title is drawn in the same frame as its body; wait for the body itself, so
    // a capture taken while the terminal is still drawing that frame cannot fail the test.
    let screen = tmux.wait_for("\"tool_use\"");
    assert!(screen.contains("wire payload (w: rewrites)"), "{screen}");
    tmux.send(&["q"]);
    tmux.wait_exit();
}

#[test]
fn the_session_picker_counts_sorts_by_findings_and_opens_at_the_first_finding() {
    let dir = tempfile::tempdir().unwrap();
    let bin = env!("CARGO_BIN_EXE_replaylens");
    let shell = format!(
        "env TERM=xterm-256color HOME='{0}' OPENCLAW_STATE_DIR='{0}/none' CLAUDE_CONFIG_DIR='{0}/none' CODEX_HOME='{0}/none' REPLAYLENS_CONFIG_DIR='{0}' '{bin}'",
        dir.path().display()
    );
    let tmux = Tmux::start("scan", &shell);
    let screen = tmux.wait_for("open session · newest first (/ filters · Tab: sort by findings)");
    assert!(screen.contains("bundled samples"), "{screen}");
    let screen = tmux.wait_for("6→2 lint ✗");
    let row = screen
        .lines()
        .find(|l| l.contains("mistral-ids-and-images.jsonl"))
        .unwrap_or_default();
    assert!(row.contains("12 rw     6→2 lint ✗"), "{screen}");
    tmux.wait_gone("counting (");
    tmux.send(&["Tab"]);
    let screen = tmux.wait_for("most replay findings first (10)");
    let first = screen
        .lines()
        .skip_while(|l| !l.contains("most replay findings first (10)"))
        .nth(1)
        .unwrap_or_default();
    assert!(first.contains("▶ mistral-ids-and-images.jsonl"), "{screen}");
    tmux.send(&["Enter"]);
    let screen = tmux.wait_for("at the first replay lint finding (stored #3; x: next)");
    assert!(screen.contains(" 4/12"), "{screen}");
    let screen = tmux.wait_for("payload would be rejected (2, x)");
    assert!(
        screen.contains(" ✗ "),
        "the selected row carries the finding marker:\n{screen}"
    );
    tmux.send(&["w"]);
    let screen = tmux.wait_for("wire payload (w: rewrites)");
    assert!(screen.contains("✗ mistral-user-after-tool  messages[4]"), "{screen}");
    tmux.send(&["q"]);
    tmux.wait_exit();
}

#[test]
fn a_double_esc_from_a_picker_leaves_the_inspector_running() {
    let config = tempfile::tempdir().unwrap();
    let session = samples().join("anthropic-tool-repair.jsonl");
    let tmux = Tmux::start("double-esc", &command(&[&session], config.path()));
    // Once the projection and the payload lint are in (a picker opened earlier would be
    // closed by the finished load).
    tmux.wait_for("payload accepted");
    tmux.send(&["p"]);
    tmux.wait_for("profile: replay target");
    // Esc and the next key must not arrive together (they would read as Alt-Esc).
    tmux.send(&["Escape"]);
    tmux.wait_gone("profile: replay target");
    tmux.send(&["Escape"]);
    let screen = tmux.wait_for("press q to quit");
    assert!(screen.contains("replay projection ("), "{screen}");
    assert!(
        tmux.run(&["has-session", "-t", "t"]).status.success(),
        "the inspector exited"
    );
    tmux.send(&["q"]);
    tmux.wait_exit();
}

#[test]
fn at_80_by_24_the_header_shows_the_verdict_and_the_help_scrolls_to_its_end() {
    let config = tempfile::tempdir().unwrap();
    let session = samples().join("mistral-ids-and-images.jsonl");
    let inner = command(&[&session], config.path());
    let tmux = Tmux::start_sized("small", &inner, 80, 24);
    let screen = tmux.wait_for("payload would be rejected");
    let header: Vec<&str> = screen.lines().take(2).collect();
    assert!(header[1].starts_with("✗ payload would be rejected"), "{screen}");
    assert!(header[0].starts_with("target mistral"), "{screen}");
    tmux.send(&["?"]);
    tmux.wait_for("keys 1–");
    tmux.send(&["End"]);
    let screen = tmux.wait_for("markers: ~ modified");
    assert!(!screen.contains("more lines"), "{screen}");
    tmux.send(&["Escape", "q"]);
}

impl Tmux {
    /// The pane with its colours (SGR sequences kept).
    fn capture_styled(&self) -> String {
        String::from_utf8_lossy(&self.run(&["capture-pane", "-p", "-e", "-t", "t"]).stdout).into_owned()
    }
}

#[test]
fn at_80_by_24_a_finding_a_structural_diff_and_a_search_show_where_the_eye_is() {
    let config = tempfile::tempdir().unwrap();
    let session = samples().join("mistral-ids-and-images.jsonl");
    let tmux = Tmux::start_sized("small-detail", &command(&[&session], config.path()), 80, 24);
    tmux.wait_for("payload would be rejected");

    // `x` lands on the finding, and the detail pane names it with the provider's text.
    tmux.send(&["x"]);
    let screen = tmux.wait_for("✗ mistral-user-after-tool (messages[4])");
    assert!(screen.contains("Unexpected role 'user' after role 'tool'"), "{screen}");
    assert!(screen.contains("not fixed by hygiene"), "{screen}");

    // The tool result above it: its JSON is a structural diff, the removed `details`
    // member on a line of its own, the rewritten id as a removed and an added line.
    tmux.send(&["k"]);
    tmux.wait_for(" 3/12");
    tmux.send(&["Tab"]);
    let scroll_to = |what: &str| {
        for _ in 0..80 {
            let screen = tmux.capture();
            if screen.lines().any(|l| l.starts_with(what)) {
                return screen;
            }
            tmux.send(&["j"]);
            std::thread::sleep(Duration::from_millis(50));
        }
        panic!("{what:?} never scrolled into view:\n{}", tmux.capture());
    };
    let screen = scroll_to("+ toolCallId: \"callabcfc");
    let lines: Vec<&str> = screen.lines().collect();
    let added = lines.iter().position(|l| l.starts_with("+ toolCallId")).unwrap();
    assert!(
        lines[added - 1].starts_with("- toolCallId: \"call_abc|fc_123\""),
        "{screen}"
    );
    let screen = scroll_to("- details: {");
    assert!(
        !screen.contains("│ replay JSON"),
        "no two-column JSON any more:\n{screen}"
    );

    // Search: the term is highlighted where it stands, and the status counts the matches.
    tmux.send(&["Escape"]);
    // Apart from Esc, or the terminal reads Alt-/.
    std::thread::sleep(Duration::from_millis(300));
    tmux.send(&["/"]);
    tmux.send(&["-l", "invoice"]);
    tmux.send(&["Enter"]);
    let screen = tmux.wait_for(" of 7");
    let k: usize = screen
        .split("match ")
        .nth(1)
        .and_then(|r| r.split(' ').next())
        .and_then(|k| k.parse().ok())
        .unwrap_or_else(|| panic!("no \"match k of 7\":\n{screen}"));
    let styled = tmux.capture_styled();
    let highlighted = styled
        .lines()
        .any(|l| l.contains("m\u{1b}[") && (l.contains("mInvoice\u{1b}[") || l.contains("minvoice\u{1b}[")));
    assert!(highlighted, "the match is styled on its own:\n{styled}");
    tmux.send(&["n"]);
    tmux.wait_for(&format!("match {} of 7", k % 7 + 1));
    tmux.send(&["Escape"]);
    tmux.send(&["q"]);
    tmux.wait_exit();
}

/// Ids a session's tool calls carry (`"id":"…"`, `"toolCallId":"…"`), 10 characters or longer.
fn tool_ids(path: &Path) -> Vec<String> {
    let text = std::fs::read(path)
        .map(|b| String::from_utf8_lossy(&b).into_owned())
        .unwrap_or_default();
    let mut ids = Vec::new();
    for key in ["\"id\":\"", "\"toolCallId\":\"", "\"tool_use_id\":\""] {
        for part in text.split(key).skip(1) {
            let id: String = part.chars().take_while(|c| *c != '"').collect();
            if id.chars().count() >= 10 && !ids.contains(&id) {
                ids.push(id);
            }
        }
    }
    ids
}

#[test]
fn at_80_by_24_no_rule_tag_or_id_breaks_across_lines_in_any_bundled_sample() {
    let config = tempfile::tempdir().unwrap();
    let mut screens = 0;
    let mut sessions: Vec<PathBuf> = std::fs::read_dir(samples())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "jsonl"))
        .collect();
    sessions.sort();
    for session in &sessions {
        let ids = tool_ids(session);
        let name = session.file_stem().unwrap().to_string_lossy().into_owned();
        let tmux = Tmux::start_sized(&format!("tags-{name}"), &command(&[session], config.path()), 80, 24);
        tmux.wait_for("? help");
        tmux.wait_gone("computing");
        let mut last = String::new();
        for _ in 0..40 {
            std::thread::sleep(Duration::from_millis(150));
            let screen = tmux.capture();
            if screen == last {
                break;
            }
            screens += 1;
            for line in screen.lines() {
                // Both panes share a line: check each side on its own.
                for side in line.split(" │ ") {
                    // A tag's head without its end, or an end glued to text without its
                    // head (`› ` alone is a breadcrumb separator, not a tag).
                    let head_alone = side.rfind('‹').is_some_and(|at| !side[at..].contains('›'));
                    let tail_alone = side.char_indices().any(|(at, c)| {
                        c == '›'
                            && !side[..at].contains('‹')
                            && side[..at].chars().last().is_some_and(|p| !p.is_whitespace())
                    });
                    assert!(
                        !head_alone && !tail_alone,
                        "{name}: a rule tag broken across lines:\n{screen}"
                    );
                    // An id wider than the screen cannot be whole on one line.
                    for id in ids.iter().filter(|id| id.chars().count() < 78) {
                        let head: String = id.chars().take(8).collect();
                        if let Some(at) = side.find(&head) {
                            // The id as shown: whole, cut in the middle (`…`), or rewritten;
                            // never a bare prefix of it (the rest on the next line).
                            let word: String = side[at..]
                                .chars()
                                .take_while(|c| !c.is_whitespace() && !matches!(c, '"' | ',' | ')'))
                                .collect();
                            let broken = word.len() < id.len() && id.starts_with(&word) && !word.contains('…');
                            assert!(!broken, "{name}: id {id} broken across lines as {word:?}:\n{screen}");
                        }
                    }
                }
            }
            last = screen;
            tmux.send(&["Space"]);
        }
        tmux.send(&["q"]);
        tmux.wait_exit();
    }
    assert!(screens >= sessions.len() * 2, "{screens} screens checked");
}

#[test]
fn e_explains_a_pasted_error_and_jumps_to_its_message() {
    let config = tempfile::tempdir().unwrap();
    let session = samples().join("anthropic-tool-repair.jsonl");
    let tmux = Tmux::start("explain", &command(&[&session], config.path()));
    tmux.wait_for("payload accepted");
    tmux.send(&["E"]);
    tmux.wait_for("explain a provider error");
    // A bracketed paste (tmux wraps it when the inspector asked for it), wrapped over two
    // lines as a terminal copies it: the line break must not submit.
    let error = "messages.13.content.2: unexpected `tool_use_id` found in `tool_result` blocks:\ntoolu_01OvWOYRsMCFltjuQJSeeuAV. Each `tool_result` block must have a corresponding `tool_use` block in the previous message.";
    assert!(tmux.run(&["set-buffer", "-b", "err", error]).status.success());
    assert!(
        tmux.run(&["paste-buffer", "-p", "-b", "err", "-t", "t"])
            .status
            .success()
    );
    let screen = tmux.wait_for("previous message.");
    assert!(!screen.contains("explained ("), "the paste submitted:\n{screen}");
    tmux.send(&["Enter"]);
    let screen = tmux.wait_for("the error points at stored #16");
    assert!(screen.contains("rule tool-result-pairing"), "{screen}");
    assert!(screen.contains("stored #16 (selected)"), "{screen}");
    tmux.send(&["Escape"]);
    tmux.wait_gone("explained (");
    // Without bracketed paste the text is typed out, its line break as Enter among the keys:
    // it stays a line break too.
    tmux.send(&["g"]);
    tmux.wait_for(" 1/");
    tmux.send(&["E"]);
    tmux.wait_for("explain a provider error");
    assert!(tmux.run(&["paste-buffer", "-b", "err", "-t", "t"]).status.success());
    let screen = tmux.wait_for("previous message.");
    assert!(
        !screen.contains("explained ("),
        "the typed-out paste submitted:\n{screen}"
    );
    tmux.send(&["Enter"]);
    tmux.wait_for("the error points at stored #16");
    tmux.send(&["Escape"]);
    tmux.wait_gone("explained (");
    tmux.send(&["q"]);
    tmux.wait_exit();
}

/// A generated session of about `mb` megabytes: user and assistant turns, each assistant
/// turn with a tool call whose id strict providers rewrite and a result with `details`.
fn generated_session(path: &Path, mb: usize) {
    use std::io::Write;
    let mut out = std::io::BufWriter::new(std::fs::File::create(path).unwrap());
    writeln!(
        out,
        r#"{{"type":"session","version":3,"id":"big","timestamp":"2026-03-09T08:41:07.000Z","cwd":"/"}}"#
    )
    .unwrap();
    let filler = "lorem ipsum dolor sit amet ".repeat(80);
    let (mut written, mut i, mut parent) = (0usize, 0usize, "null".to_owned());
    while written < mb << 20 {
        let message = match i % 3 {
            0 => format!(r#"{{"role":"user","content":"turn {i}: {filler}","timestamp":{i}}}"#),
            1 => format!(
                r#"{{"role":"assistant","content":[{{"type":"text","text":"{filler}"}},{{"type":"toolCall","id":"call_{i}|fc_{i}","name":"read","arguments":{{"path":"f{i}.rs"}}}}],"stopReason":"toolUse","provider":"anthropic","model":"claude-sonnet-4-6","api":"anthropic-messages","timestamp":{i}}}"#
            ),
            _ => format!(
                r#"{{"role":"toolResult","toolCallId":"call_{}|fc_{}","toolName":"read","content":[{{"type":"text","text":"{filler}"}}],"details":{{"lines":3}},"isError":false,"timestamp":{i}}}"#,
                i - 1,
                i - 1
            ),
        };
        let line = format!(
            r#"{{"type":"message","id":"m{i}","parentId":{parent},"timestamp":"2026-03-09T08:41:08.000Z","message":{message}}}"#
        );
        writeln!(out, "{line}").unwrap();
        written += line.len() + 1;
        parent = format!("\"m{i}\"");
        i += 1;
    }
    out.flush().unwrap();
}

#[test]
fn on_a_60_mb_session_a_profile_switch_shows_busy_at_once_keys_keep_working_and_an_export_reports_progress() {
    let dir = tempfile::tempdir().unwrap();
    let config = tempfile::tempdir().unwrap();
    let session = dir.path().join("big.jsonl");
    generated_session(&session, 60);
    let tmux = Tmux::start_sized("big", &command(&[&session], config.path()), 80, 24);
    let deadline = Instant::now() + Duration::from_secs(300);
    while !tmux.capture().contains("payload accepted") && !tmux.capture().contains("payload would be rejected") {
        assert!(Instant::now() < deadline, "never loaded:\n{}", tmux.capture());
        std::thread::sleep(Duration::from_millis(200));
    }

    // Another profile: the header says so at once, and the cursor keeps moving meanwhile.
    tmux.send(&["p"]);
    tmux.wait_for("profile");
    tmux.send(&["Down"]);
    tmux.send(&["Enter"]);
    std::thread::sleep(Duration::from_millis(150));
    let screen = tmux.capture();
    let second = screen.lines().nth(1).unwrap_or_default().to_owned();
    assert!(
        second.starts_with("⟳ re-projecting"),
        "no busy mark after one frame:\n{screen}"
    );
    tmux.send(&["j"]);
    tmux.send(&["j"]);
    let moved = tmux.wait_for(" 3/");
    assert!(
        moved.lines().nth(1).unwrap_or_default().starts_with("⟳ re-projecting"),
        "the cursor moved while the projection was recomputed:\n{moved}"
    );
    let deadline = Instant::now() + Duration::from_secs(300);
    while tmux.capture().contains("re-projecting") {
        assert!(Instant::now() < deadline, "the switch never ended:\n{}", tmux.capture());
        std::thread::sleep(Duration::from_millis(200));
    }

    // An HTML export from the dialog: progress in the header, keys working, a bounded report.
    let out = dir.path().join("big.html");
    tmux.send(&["e"]);
    tmux.wait_for("export");
    tmux.send(&["Tab"]);
    tmux.send(&["C-u"]);
    tmux.send(&["-l", &out.display().to_string()]);
    tmux.send(&["Enter"]);
    let busy = tmux.wait_for("⟳ export");
    assert!(busy.lines().nth(1).unwrap_or_default().contains("⟳ export"), "{busy}");
    tmux.send(&["j"]);
    tmux.wait_for(" 4/");
    let deadline = Instant::now() + Duration::from_secs(300);
    while !tmux.capture().contains("wrote ") {
        assert!(Instant::now() < deadline, "the export never ended:\n{}", tmux.capture());
        std::thread::sleep(Duration::from_millis(200));
    }
    // Within the default budget, and the report says how to get it all.
    let report = std::fs::read_to_string(&out).unwrap();
    let budget = replaylens::export::DEFAULT_HTML_MAX_CHARS;
    let chars = report.chars().count();
    assert!(
        chars <= budget,
        "the HTML report is {chars} characters, over its budget of {budget}"
    );
    assert!(report.contains("--max-chars 0"), "a cut report says how to get it all");
    tmux.send(&["q"]);
    tmux.wait_exit();
}
