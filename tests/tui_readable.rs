//! The inspector reads on every terminal, in a real one (tmux at 80×24): `--theme auto` picks
//! the light theme when the terminal answers OSC 11 with a light background, and `NO_COLOR`
//! draws nothing struck through (SGR 9). Requires tmux (`.ci/run` installs it).

mod common;

use common::tmux::{Tmux, command, samples};

impl Tmux {
    /// The pane with its colours and attributes (SGR sequences kept).
    fn capture_styled(&self) -> String {
        String::from_utf8_lossy(&self.run(&["capture-pane", "-p", "-e", "-t", "t"]).stdout).into_owned()
    }
}

/// The inspector on a sample, started only once `setup` has configured the tmux server (the
/// shell waits for a line before it runs the inspector).
fn start_after(name: &str, sample: &str, env: &str, setup: &[&[&str]]) -> (Tmux, tempfile::TempDir) {
    let config = tempfile::tempdir().unwrap();
    let inner = command(&[&samples().join(sample)], config.path()).replace('\'', "\"");
    let tmux = Tmux::start_sized(name, &format!("sh -c 'read go; {env} {inner}'"), 80, 24);
    for args in setup {
        let out = tmux.run(args);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    }
    tmux.send(&["Enter"]);
    (tmux, config)
}

/// SGR parameter lists in a styled capture (`ESC [ … m`).
fn sgr_params(styled: &str) -> Vec<String> {
    styled
        .split("\u{1b}[")
        .skip(1)
        .filter_map(|s| s.split_once('m').map(|(p, _)| p.to_owned()))
        .filter(|p| p.chars().all(|c| c.is_ascii_digit() || c == ';' || c == ':'))
        .collect()
}

/// Whether an SGR parameter list turns on `code` (not as part of a colour such as `38;5;9`).
fn turns_on(params: &str, code: &str) -> bool {
    let parts: Vec<&str> = params.split(';').collect();
    let mut i = 0;
    while i < parts.len() {
        match parts[i] {
            "38" | "48" | "58" => i += if parts.get(i + 1) == Some(&"2") { 5 } else { 3 },
            p if p == code => return true,
            _ => i += 1,
        }
    }
    false
}

#[test]
fn auto_theme_picks_light_when_the_terminal_answers_osc_11_with_a_light_background() {
    // tmux answers OSC 11 from the pane's style.
    let (tmux, _config) = start_after(
        "light",
        "mistral-ids-and-images.jsonl",
        "",
        &[&["set-option", "-g", "window-style", "bg=#ffffff,fg=#000000"]],
    );
    tmux.wait_for("payload would be rejected");
    let styled = tmux.capture_styled();
    let params = sgr_params(&styled);
    // The light theme's body text (#1c1c1c), never the dark theme's (#d0d0d0).
    assert!(params.iter().any(|p| p.contains("38;2;28;28;28")), "{styled}");
    assert!(!params.iter().any(|p| p.contains("38;2;208;208;208")), "{styled}");
    tmux.send(&["q"]);
    tmux.wait_exit();
}

#[test]
fn auto_theme_stays_dark_on_a_dark_background() {
    let (tmux, _config) = start_after(
        "dark",
        "mistral-ids-and-images.jsonl",
        "",
        &[&["set-option", "-g", "window-style", "bg=#101010,fg=#e0e0e0"]],
    );
    tmux.wait_for("payload would be rejected");
    let styled = tmux.capture_styled();
    assert!(
        sgr_params(&styled).iter().any(|p| p.contains("38;2;208;208;208")),
        "{styled}"
    );
    tmux.send(&["q"]);
    tmux.wait_exit();
}

#[test]
fn no_color_draws_the_verdict_bold_and_nothing_struck_through() {
    let (tmux, _config) = start_after("nocolor", "mistral-ids-and-images.jsonl", "NO_COLOR=1", &[]);
    tmux.wait_for("✗ payload would be rejected");
    // The dropped rows and removed lines are further down: look at every screen of rows.
    let mut screens = vec![tmux.capture_styled()];
    for _ in 0..3 {
        tmux.send(&["PageDown"]);
        std::thread::sleep(std::time::Duration::from_millis(300));
        screens.push(tmux.capture_styled());
    }
    for styled in &screens {
        let params = sgr_params(styled);
        assert!(!params.iter().any(|p| turns_on(p, "9")), "SGR 9 in:\n{styled:?}");
        assert!(
            !params.iter().any(|p| p.starts_with("38;") || p.contains(";38;")),
            "a colour with NO_COLOR:\n{styled:?}"
        );
    }
    let first = &screens[0];
    let verdict_line = first.lines().find(|l| l.contains("payload would be rejected")).unwrap();
    assert!(
        sgr_params(verdict_line).iter().any(|p| turns_on(p, "1")),
        "{verdict_line:?}"
    );
    tmux.send(&["q"]);
    tmux.wait_exit();
}

/// The `toolCallId`s of a session file, in file order.
fn result_call_ids(path: &std::path::Path) -> Vec<String> {
    let text = std::fs::read_to_string(path).unwrap();
    text.split("\"toolCallId\":\"")
        .skip(1)
        .filter_map(|rest| rest.split_once('"').map(|(id, _)| id.to_owned()))
        .collect()
}

#[test]
fn slash_finds_a_full_tool_call_id_and_shift_y_sends_the_id_under_the_cursor_by_osc_52() {
    let session = samples().join("anthropic-tool-repair.jsonl");
    let ids = result_call_ids(&session);
    // The last result's id: its row is far from the first screen, and shown shortened.
    let id = ids.last().unwrap().clone();
    let (tmux, _config) = start_after(
        "copyid",
        "anthropic-tool-repair.jsonl",
        "",
        &[&["set-option", "-g", "set-clipboard", "on"]],
    );
    tmux.wait_for("replay projection (");
    tmux.send(&["/"]);
    tmux.send(&["-l", &id]);
    tmux.send(&["Enter"]);
    tmux.wait_for("match 1 of ");
    // Y copies the row's ids in turn; the searched id is one of them, the first is a call id.
    let mut copied = Vec::new();
    for n in 1..=3 {
        tmux.send(&["Y"]);
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
        loop {
            let out = tmux.run(&["list-buffers", "-F", "#{buffer_name}"]);
            let count = String::from_utf8_lossy(&out.stdout).lines().count();
            if count >= n {
                break;
            }
            assert!(
                std::time::Instant::now() < deadline,
                "no OSC 52 buffer after Y:\n{}",
                tmux.capture()
            );
            std::thread::sleep(std::time::Duration::from_millis(100));
        }
        let buffer = tmux.run(&["show-buffer"]);
        copied.push(String::from_utf8_lossy(&buffer.stdout).into_owned());
    }
    assert!(
        copied[0].starts_with("toolu_") && ids.contains(&copied[0]),
        "{copied:?}"
    );
    assert!(copied.contains(&id), "{copied:?}");
    tmux.send(&["q"]);
    tmux.wait_exit();
}

/// The inspector at 80×24 on `args`, with its own config folder.
fn start_80x24(name: &str, args: &[&std::path::Path]) -> (Tmux, tempfile::TempDir) {
    let config = tempfile::tempdir().unwrap();
    let tmux = Tmux::start_sized(name, &command(args, config.path()), 80, 24);
    (tmux, config)
}

/// The text inside a popup's borders, its lines joined (a wrapped line continues the last).
fn popup_text(screen: &str) -> String {
    screen
        .lines()
        .filter_map(|l| {
            let start = l.find('│')? + '│'.len_utf8();
            let end = l.rfind('│')?;
            (end > start).then(|| l[start..end].trim().to_owned())
        })
        .collect::<Vec<_>>()
        .join("")
}

#[test]
fn at_80_by_24_the_explain_answer_scrolls_to_its_end() {
    let (tmux, _config) = start_80x24("explain80", &[&samples().join("anthropic-tool-repair.jsonl")]);
    tmux.wait_for("payload accepted");
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
    let screen = tmux.wait_for("explained: lines 1–");
    let total: usize = screen
        .split("explained: lines 1–")
        .nth(1)
        .and_then(|r| r.split(" of ").nth(1))
        .and_then(|r| r.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no line count in the title:\n{screen}"));
    assert!(
        screen.contains("more lines"),
        "the answer is longer than the box:\n{screen}"
    );
    tmux.send(&["G"]);
    tmux.wait_for(&format!("–{total} of {total} "));
    // At its end: the provider's own text, and the id it names (once the frame is drawn whole).
    let screen = tmux.wait_for("previous message.");
    let inside = popup_text(&screen);
    assert!(inside.contains("previous message."), "{screen}");
    assert!(!screen.contains("more lines"), "{screen}");
    tmux.send(&["g"]);
    tmux.wait_for("explained: lines 1–");
    tmux.send(&["Escape"]);
    tmux.wait_gone("explained");
    tmux.send(&["q"]);
    tmux.wait_exit();
}

#[test]
fn at_80_by_24_the_export_overwrite_question_fits_and_takes_no_key_into_the_path() {
    let (tmux, config) = start_80x24("export80", &[&samples().join("anthropic-tool-repair.jsonl")]);
    let folder = config.path().join("a-rather-long-folder-for-the-reports-of-this-team");
    std::fs::create_dir_all(&folder).unwrap();
    let out = folder.join("replaylens-anthropic-tool-repair-report.html");
    std::fs::write(&out, "keep me").unwrap();
    let path = out.display().to_string();
    assert!(path.len() > 80, "the path is longer than the screen is wide");
    tmux.wait_for("payload accepted");
    tmux.send(&["e"]);
    tmux.wait_for("export the comparison");
    tmux.send(&["C-u"]);
    tmux.send(&["-l", &path]);
    tmux.send(&["Enter"]);
    let screen = tmux.wait_for("overwrite it? y (or Enter) overwrites · any other key keeps it");
    let inside = popup_text(&screen);
    assert!(
        inside.contains(&format!("{path} exists.")),
        "the path is cut:\n{screen}"
    );
    // A key typed now answers the question: the file stays, the path gets no `e`.
    tmux.send(&["e"]);
    let screen = tmux.wait_for("kept the existing file");
    assert!(!popup_text(&screen).contains(&format!("{path}e")), "{screen}");
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "keep me");
    tmux.send(&["Enter"]);
    tmux.wait_for("overwrite it?");
    tmux.send(&["y"]);
    tmux.wait_for("wrote ");
    let html = std::fs::read_to_string(&out).unwrap();
    assert!(html.contains("<html"), "overwritten after y");
    tmux.send(&["q"]);
    tmux.wait_exit();
}

#[test]
fn at_80_by_24_a_long_path_wraps_after_a_slash() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("paths.json");
    let text = "open /home/dev/projects/billing-service/src/components/InvoiceTable.tsx and fix the rounding";
    let json = replaylens::json!([{"role": "user", "content": [{"type": "text", "text": text}]}]);
    std::fs::write(&file, serde_json::to_string(&json).unwrap()).unwrap();
    let (tmux, _config) = start_80x24("path80", &[&file]);
    let screen = tmux.wait_for("replay projection (1)");
    assert!(
        screen.contains("InvoiceTable.tsx"),
        "the file name is broken:\n{screen}"
    );
    assert!(screen.contains("billing-service/"), "{screen}");
    // Some line of the stored column ends with the separator it broke after.
    let broke_at_slash = screen
        .lines()
        .filter_map(|l| l.split('│').next())
        .any(|left| left.trim_end().ends_with('/'));
    assert!(broke_at_slash, "{screen}");
    tmux.send(&["q"]);
    tmux.wait_exit();
}

#[test]
fn at_80_by_24_q_closes_the_session_picker_and_its_filter_ranks_the_named_file_first() {
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read(samples().join("gemini-signatures.jsonl")).unwrap();
    std::fs::write(dir.path().join("invoice-run.jsonl"), &text).unwrap();
    for name in [
        "invoice-run.checkpoint-1.jsonl",
        "invoice-run-checkpoint.jsonl",
        "run-invoice.jsonl",
    ] {
        std::fs::write(dir.path().join(name), &text).unwrap();
    }
    let (tmux, _config) = start_80x24("picker80", &[&samples().join("anthropic-tool-repair.jsonl")]);
    tmux.wait_for("payload accepted");
    tmux.send(&["o"]);
    tmux.wait_for("open session");
    tmux.send(&["q"]);
    tmux.wait_gone("open session");
    assert!(
        tmux.run(&["has-session", "-t", "t"]).status.success(),
        "q quit the inspector"
    );
    drop(tmux);

    let (tmux, _config) = start_80x24("rank80", &[dir.path()]);
    tmux.wait_for("open session");
    tmux.send(&["/"]);
    tmux.send(&["-l", "invoice-run"]);
    let screen = tmux.wait_for("▶ invoice-run.jsonl");
    let first = screen.lines().find(|l| l.contains(".jsonl")).unwrap_or_default();
    assert!(first.contains("▶ invoice-run.jsonl"), "{screen}");
    tmux.send(&["Escape"]);
    tmux.wait_gone("open session");
    tmux.send(&["q"]);
    tmux.wait_exit();
}
