//! What a newcomer trips over (issue 15): every error is one sentence naming the file and
//! saying what it is, with exit status 2 for unusable input; a closed stdout ends quietly.

mod common;

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

const SAMPLE: &str = "anthropic-tool-repair.jsonl";

fn sample() -> PathBuf {
    common::bundled_samples().join(SAMPLE)
}

/// Run the binary without a terminal: stdin empty, stdout and stderr captured.
fn run(args: &[&std::ffi::OsStr]) -> Output {
    Command::new(common::bin())
        .args(args)
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// One line on stderr, with no escaped line break in it.
fn assert_one_sentence(out: &Output) -> String {
    let err = stderr(out);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(!err.contains("\\n"), "a literal \\n: {err}");
    err
}

// 1. repair on what is not session JSONL says what it is.

fn assert_repair_refuses(file: &Path, expected: &str) {
    let before = std::fs::read(file).unwrap();
    for dry_run in [true, false] {
        let mut args = vec!["repair".as_ref()];
        if dry_run {
            args.push("--dry-run".as_ref());
        }
        args.push(file.as_os_str());
        let out = run(&args);
        assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
        let err = assert_one_sentence(&out);
        assert!(err.contains(&file.display().to_string()), "{err}");
        assert!(err.contains(expected), "{err}");
        assert!(
            err.contains("repair rewrites OpenClaw session JSONL files only"),
            "{err}"
        );
        assert!(!err.contains("empty session file"), "{err}");
        assert_eq!(std::fs::read(file).unwrap(), before, "{} is unchanged", file.display());
    }
    let leftovers: Vec<_> = std::fs::read_dir(file.parent().unwrap())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains(".bak-"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
}

#[test]
fn repair_says_a_database_is_a_database() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("openclaw-agent.sqlite");
    std::fs::copy(common::bundled_samples().join("openclaw-agent.sqlite"), &db).unwrap();
    assert_repair_refuses(&db, "is an OpenClaw SQLite database");
    let other = dir.path().join("other.sqlite");
    rusqlite::Connection::open(&other)
        .unwrap()
        .execute_batch("CREATE TABLE t (x TEXT); INSERT INTO t VALUES ('{\"type\":\"session\",\"id\":\"x\"}');")
        .unwrap();
    assert_repair_refuses(&other, "is an SQLite database");
}

#[test]
fn repair_says_a_zstd_file_is_compressed() {
    let dir = tempfile::tempdir().unwrap();
    let zst = dir.path().join("session.jsonl.zst");
    let raw = std::fs::read(sample()).unwrap();
    std::fs::write(&zst, zstd::bulk::compress(&raw, 3).unwrap()).unwrap();
    assert_repair_refuses(&zst, "is zstd-compressed");
}

#[test]
fn repair_says_a_json_file_is_a_message_array_or_document() {
    let dir = tempfile::tempdir().unwrap();
    let array = dir.path().join("messages.json");
    std::fs::write(
        &array,
        "[\n  {\"role\": \"user\", \"content\": \"hi\"},\n  {\"role\": \"assistant\", \"content\": [{\"type\": \"text\", \"text\": \"hello\"}]}\n]\n",
    )
    .unwrap();
    assert_repair_refuses(&array, "is a JSON message array");
    let one_line = dir.path().join("one-line.json");
    std::fs::write(&one_line, "[{\"role\":\"user\",\"content\":\"hi\"}]").unwrap();
    assert_repair_refuses(&one_line, "is a JSON message array");
    let document = dir.path().join("export.json");
    std::fs::write(
        &document,
        "{\n  \"messages\": [\n    {\"role\": \"user\", \"content\": \"hi\"}\n  ]\n}\n",
    )
    .unwrap();
    assert_repair_refuses(&document, "is a single JSON document");
}

#[test]
fn repair_still_says_empty_only_for_an_empty_file_and_repairs_a_damaged_first_line() {
    let dir = tempfile::tempdir().unwrap();
    let empty = dir.path().join("empty.jsonl");
    std::fs::write(&empty, "\n\n").unwrap();
    let out = run(&["repair".as_ref(), empty.as_os_str()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("is an empty session file"), "{}", stderr(&out));
    let text = dir.path().join("notes.txt");
    std::fs::write(&text, "hello\nworld\n").unwrap();
    let out = run(&["repair".as_ref(), "--dry-run".as_ref(), text.as_os_str()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("has no JSON line"), "{}", stderr(&out));
    // A lone `{` before the header looks like a JSON document's first line; the file is still
    // session JSONL and is repaired.
    let damaged = dir.path().join("damaged.jsonl");
    std::fs::write(&damaged, format!("{{\n{}", std::fs::read_to_string(sample()).unwrap())).unwrap();
    let out = run(&["repair".as_ref(), "--dry-run".as_ref(), damaged.as_os_str()]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(String::from_utf8_lossy(&out.stdout).contains("line 1: drop"));
}

// 2. Every I/O error names its file.

#[test]
fn export_to_a_folder_names_the_folder() {
    let dir = tempfile::tempdir().unwrap();
    let out = run(&[
        "export".as_ref(),
        sample().as_os_str(),
        "--format".as_ref(),
        "md".as_ref(),
        "-o".as_ref(),
        dir.path().as_os_str(),
    ]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let err = assert_one_sentence(&out);
    assert!(
        err.contains(&format!(
            "{} is a folder, not a file; nothing written",
            dir.path().display()
        )),
        "{err}"
    );
    let missing = dir.path().join("no-such-folder/report.md");
    let out = run(&[
        "export".as_ref(),
        sample().as_os_str(),
        "--format".as_ref(),
        "md".as_ref(),
        "-o".as_ref(),
        missing.as_os_str(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains(&missing.display().to_string()),
        "{}",
        stderr(&out)
    );
}

#[test]
fn a_full_disk_names_the_output_file_or_stdout() {
    if !Path::new("/dev/full").exists() {
        eprintln!("SKIPPED: no /dev/full");
        return;
    }
    let out = run(&[
        "export".as_ref(),
        sample().as_os_str(),
        "--format".as_ref(),
        "html".as_ref(),
        "-o".as_ref(),
        "/dev/full".as_ref(),
    ]);
    // The safe writer (src/write) writes only regular files: a device given as -o is refused
    // before any work, naming it (a full disk under a real file name is tests/safe_writer.rs').
    assert_eq!(out.status.code(), Some(2));
    let err = assert_one_sentence(&out);
    assert!(
        err.contains("/dev/full is a device, not a file; nothing written"),
        "{err}"
    );
    for args in [
        &["show", "--format", "text"][..],
        &["show", "--format", "json"],
        &["replay", "--format", "json"],
    ] {
        let full = std::fs::OpenOptions::new().write(true).open("/dev/full").unwrap();
        let out = Command::new(common::bin())
            .args(args)
            .arg(sample())
            .stdout(full)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        let err = assert_one_sentence(&out);
        assert!(
            err.contains("cannot write to standard output: No space left on device"),
            "{args:?}: {err}"
        );
    }
}

#[test]
fn show_on_a_folder_says_how_to_open_a_folder() {
    let dir = tempfile::tempdir().unwrap();
    for command in ["show", "replay"] {
        let out = run(&[command.as_ref(), dir.path().as_os_str()]);
        assert_eq!(out.status.code(), Some(2));
        let err = assert_one_sentence(&out);
        let shown = dir.path().display().to_string();
        assert!(err.contains(&format!("{shown} is a folder")), "{err}");
        assert!(err.contains(&format!("`replaylens {shown}`")), "{err}");
        assert!(err.contains(&format!("`replaylens sessions {shown}`")), "{err}");
        assert!(!err.contains("reads regular files, databases and folders"), "{err}");
    }
}

// 3. Theme and keymap files: one line, the file, the position, exit 2.

#[test]
fn a_broken_theme_file_is_named_with_its_line_and_column() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("config");
    std::fs::create_dir(&config).unwrap();
    let cases = [
        ("syntax.toml", "name = \"x\"\n[roles\n", "line 2, column 7"),
        (
            "colour.toml",
            "[roles]\nmodified = { fg = \"purpl\" }\n",
            "line 2, column 19",
        ),
        ("role.toml", "[roles]\n\nnope = { fg = \"red\" }\n", "line 3, column 1"),
        (
            "type.toml",
            "[roles]\nadded = { modifiers = \"bold\" }\n",
            "line 2, column",
        ),
    ];
    for (name, text, position) in cases {
        let theme = dir.path().join(name);
        std::fs::write(&theme, text).unwrap();
        let out = Command::new(common::bin())
            .arg("--theme")
            .arg(&theme)
            .arg(sample())
            .env("REPLAYLENS_CONFIG_DIR", &config)
            .stdin(Stdio::null())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{name}: {}", stderr(&out));
        let err = assert_one_sentence(&out);
        assert!(
            err.contains(&format!("theme {}, {position}", theme.display())),
            "{name}: {err}"
        );
    }
    let out = Command::new(common::bin())
        .args(["--theme", "no-such-theme"])
        .arg(sample())
        .env("REPLAYLENS_CONFIG_DIR", &config)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = assert_one_sentence(&out);
    assert!(err.contains("theme no-such-theme: neither a built-in theme"), "{err}");
}

#[test]
fn a_broken_keymap_file_is_named_with_its_line_and_column() {
    let dir = tempfile::tempdir().unwrap();
    let keys = dir.path().join("keys.toml");
    for (text, expected) in [
        ("[keys]\n\"x\" = \"fly\"\n", "line 2, column 7: unknown variant `fly`"),
        (
            "[keys]\n\"xyz\" = \"quit\"\n",
            "line 2, column 1: cannot read key \"xyz\"",
        ),
        ("[keys\n", "line 1, column 6"),
    ] {
        std::fs::write(&keys, text).unwrap();
        let out = Command::new(common::bin())
            .arg(sample())
            .env("REPLAYLENS_CONFIG_DIR", dir.path())
            .stdin(Stdio::null())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
        let err = assert_one_sentence(&out);
        assert!(err.contains(&format!("keymap {}, {expected}", keys.display())), "{err}");
    }
}

// 4. No terminal: one sentence, exit 2.

#[test]
fn the_inspector_without_a_terminal_says_so() {
    let dir = tempfile::tempdir().unwrap();
    for args in [vec![sample().into_os_string()], vec![]] {
        let out = Command::new(common::bin())
            .args(&args)
            .env("REPLAYLENS_CONFIG_DIR", dir.path())
            .env("OPENCLAW_STATE_DIR", dir.path())
            .env("CLAUDE_CONFIG_DIR", dir.path())
            .env("CODEX_HOME", dir.path())
            .stdin(Stdio::null())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
        let err = assert_one_sentence(&out);
        assert!(
            err.contains("the inspector needs a terminal (standard output is not one); use `replaylens show|replay|export …` for plain output"),
            "{err}"
        );
        assert!(!err.contains("os error"), "{err}");
        assert!(out.stdout.is_empty(), "nothing is drawn");
    }
}

// 5. A closed stdout ends quietly with exit status 0.

/// Spawn with stdout piped, read a few bytes, close the pipe, and expect a quiet exit 0.
fn assert_quiet_on_closed_stdout(args: &[&std::ffi::OsStr]) {
    let mut child = Command::new(common::bin())
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let mut head = [0u8; 16];
    stdout.read_exact(&mut head).unwrap();
    drop(stdout);
    let mut err = String::new();
    child.stderr.take().unwrap().read_to_string(&mut err).unwrap();
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(0), "{args:?}: {err}");
    assert_eq!(err, "", "{args:?}");
}

/// A session whose outputs are far larger than a pipe's buffer, so the writes surely fail.
fn large_session(dir: &Path) -> PathBuf {
    let mut text = String::from(
        "{\"type\":\"session\",\"version\":3,\"id\":\"big\",\"timestamp\":\"2026-03-09T08:41:07.000Z\",\"cwd\":\"/w\"}\n",
    );
    let mut parent = String::from("null");
    for i in 0..3000 {
        let message = if i % 2 == 0 {
            format!(
                "{{\"role\":\"user\",\"content\":\"question {i} {}\",\"timestamp\":1773045670030}}",
                "é".repeat(200)
            )
        } else {
            format!(
                "{{\"role\":\"assistant\",\"content\":[{{\"type\":\"text\",\"text\":\"answer {i} {}\"}}],\"api\":\"anthropic-messages\",\"provider\":\"anthropic\",\"model\":\"claude-sonnet-4-6\",\"stopReason\":\"stop\",\"timestamp\":1773045670030}}",
                "x".repeat(200)
            )
        };
        text.push_str(&format!(
            "{{\"type\":\"message\",\"id\":\"e{i}\",\"parentId\":{parent},\"timestamp\":\"2026-03-09T08:41:10.032Z\",\"message\":{message}}}\n"
        ));
        parent = format!("\"e{i}\"");
    }
    let path = dir.join("big.jsonl");
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn a_closed_stdout_ends_quietly_with_status_0() {
    let dir = tempfile::tempdir().unwrap();
    let big = large_session(dir.path());
    for session in [sample(), big] {
        let session = session.as_os_str();
        assert_quiet_on_closed_stdout(&["replay".as_ref(), "--format".as_ref(), "json".as_ref(), session]);
        assert_quiet_on_closed_stdout(&["replay".as_ref(), session]);
        assert_quiet_on_closed_stdout(&["show".as_ref(), session]);
        assert_quiet_on_closed_stdout(&["show".as_ref(), "--format".as_ref(), "json".as_ref(), session]);
        assert_quiet_on_closed_stdout(&["payload".as_ref(), "--format".as_ref(), "json".as_ref(), session]);
        assert_quiet_on_closed_stdout(&["export".as_ref(), "--format".as_ref(), "html".as_ref(), session]);
    }
    let samples = common::bundled_samples();
    assert_quiet_on_closed_stdout(&[
        "sessions".as_ref(),
        "--format".as_ref(),
        "json".as_ref(),
        samples.as_os_str(),
    ]);
    assert_quiet_on_closed_stdout(&[
        "scan".as_ref(),
        "--format".as_ref(),
        "csv".as_ref(),
        samples.as_os_str(),
    ]);
}
