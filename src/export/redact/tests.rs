//! Unit tests of the redactor.

use super::*;
use crate::json;

#[test]
fn a_tally_counted_again_equals_redacting_the_message_again() {
    let message = json!({"role": "assistant", "content": [
        {"type": "text", "text": "key AKIAIOSFODNN7EXAMPLE and mail a@b.example"},
        {"type": "toolCall", "id": "c1", "name": "run", "arguments": {"password": "hunter2"}}
    ]});
    for mode in [Redaction::Secrets, Redaction::AllText] {
        let mut twice = Redactor::new(mode);
        let (mut first, mut second) = (message.clone(), message.clone());
        twice.message(&mut first);
        twice.message(&mut second);
        let mut once = Redactor::new(mode);
        let mut redacted = message.clone();
        let tally = once.message_tally(&mut redacted);
        assert!(!tally.0.is_empty(), "{mode:?}: something was redacted");
        once.count_again(&tally);
        assert_eq!(redacted, second, "{mode:?}: the same placeholders");
        assert_eq!(once.counts(), twice.counts(), "{mode:?}");
    }
    let mut none = Redactor::new(Redaction::None);
    assert_eq!(none.message_tally(&mut message.clone()), Tally::default());
}

#[test]
fn every_rule_redacts_its_own_example() {
    for p in PATTERNS.iter() {
        let hit = p.re.captures(&p.example).and_then(|c| c.get(p.group));
        assert!(hit.is_some(), "rule {} does not match its example", p.id);
        let mut r = Redactor::new(Redaction::Secrets);
        let secret = hit.unwrap().as_str().to_owned();
        let out = r.text(&p.example);
        assert!(!out.contains(&secret), "rule {}: {out}", p.id);
    }
    assert!(PATTERNS.len() >= 30);
}

#[test]
fn the_families_the_issue_lists_are_redacted() {
    let mut r = Redactor::new(Redaction::Secrets);
    for (input, secret) in [
        (
            "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
            "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
        ),
        (
            "AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
            "wJalrXUtnFEMI",
        ),
        (
            "[default]\naws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
            "wJalrXUtnFEMI",
        ),
        ("password=hunter2", "hunter2"),
        ("stripe sk_live_51HqLyjABCDEFGHIJklmnop", "sk_live_"),
        ("hf_AbCdEfGhIjKlMnOpQrStUvWxYz01234567", "hf_AbCd"),
        ("glpat-xYz1234567890AbCdEfGh", "glpat-"),
        ("npm_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789", "npm_AbCd"),
    ] {
        let out = r.text(input);
        assert!(!out.contains(secret), "{input} → {out}");
    }
    let mut args = json!({"cmd": "deploy", "aws_secret_access_key": "short1", "nested": {"Password": "x1"}});
    r.value(&mut args);
    assert_eq!(args["cmd"], "deploy");
    assert!(args["aws_secret_access_key"].as_str().unwrap().starts_with("[secret:"));
    assert!(args["nested"]["Password"].as_str().unwrap().starts_with("[secret:"));
    // Ordinary words and short ids stay.
    assert_eq!(
        r.text("call_XWB5cFkRnCv1kghW6dYQHh6O ran `cargo test`"),
        "call_XWB5cFkRnCv1kghW6dYQHh6O ran `cargo test`"
    );
}

#[test]
fn large_objects_keep_their_key_order() {
    let mut fields: Vec<(String, crate::model::json::Value)> =
        (0..20_000).map(|i| (format!("field{i}"), json!(i))).collect();
    fields.insert(3, ("password".into(), json!("hunter2")));
    fields.push(("key sk-ant-api03-abcdefghijklmnop".into(), json!(1)));
    let mut big = crate::model::json::Value::Object(fields.into_iter().collect());
    Redactor::new(Redaction::Secrets).value(&mut big);
    let map = big.as_object().unwrap();
    assert_eq!(map.len(), 20_002);
    assert_eq!(map.get_index(0).map(|(k, _)| k.as_str()), Some("field0"));
    assert_eq!(map.get_index(3).map(|(k, _)| k.as_str()), Some("password"));
    assert!(map["password"].as_str().unwrap().starts_with("[secret:"));
    assert_eq!(map.get_index(20_001).map(|(k, _)| k.as_str()), Some("key [secret:2]"));
}

#[test]
fn all_text_covers_tool_output_and_arguments() {
    let mut r = Redactor::new(Redaction::AllText);
    let mut tool =
        json!({"role": "toolResult", "toolCallId": "c1", "content": [{"type": "text", "text": "Private notes 12"}]});
    r.message(&mut tool);
    assert_eq!(tool["content"][0]["text"], "xxxxxxx xxxxx 00");
    let mut call = json!({"role": "assistant", "content": [{"type": "toolCall", "id": "c1", "name": "write", "arguments": {"path": "notes.txt", "body": "Dear Bob"}}]});
    r.message(&mut call);
    assert_eq!(call["content"][0]["arguments"]["body"], "xxxx xxx");
    assert_eq!(call["content"][0]["name"], "write", "names and ids stay");
}

#[test]
fn stable_placeholders_per_value() {
    let mut r = Redactor::new(Redaction::Secrets);
    let a = r.text("key sk-ant-api03-abcdefghijklmnop and again sk-ant-api03-abcdefghijklmnop");
    assert_eq!(a, "key [secret:1] and again [secret:1]");
    assert_eq!(
        r.text("mail bob@example.com, call +1 415-555-0100"),
        "mail [email:1], call [phone:1]"
    );
    assert_eq!(r.text("other sk-proj-ZZZZZZZZZZZZZZZZZZZZ"), "other [secret:2]");
    assert_eq!(r.counts()["secret"], 3);
}

#[test]
fn url_passwords_bearer_and_aws_keep_their_context() {
    let mut r = Redactor::new(Redaction::Secrets);
    assert_eq!(
        r.text("postgres://admin:hunter2@db:5432/x"),
        "postgres://admin:[secret:1]@db:5432/x"
    );
    assert_eq!(
        r.text("Authorization: Bearer abcdefghijklmnopqrstuv"),
        "Authorization: Bearer [secret:2]"
    );
    let aws = r.text("AKIAIOSFODNN7EXAMPLE aws_secret_access_key=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY");
    assert_eq!(aws, "[secret:3] aws_secret_access_key=[secret:4]");
}

#[test]
fn images_become_notes_and_prose_keeps_length() {
    let mut r = Redactor::new(Redaction::AllText);
    let png_1x1 = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";
    let mut m = json!({"role": "user", "content": [
        {"type": "text", "text": "Hello World 42"},
        {"type": "image", "data": png_1x1, "mimeType": "image/png"}
    ]});
    r.message(&mut m);
    assert_eq!(m["content"][0]["text"], "xxxxx xxxxx 00");
    assert_eq!(m["content"][1]["data"], "[image: 1×1 image/png 70 bytes]");
    let mut tool = json!({"role": "toolResult", "toolCallId": "call_1", "content": [{"type": "text", "text": "y".repeat(10_000)}]});
    r.message(&mut tool);
    let t = tool["content"][0]["text"].as_str().unwrap();
    assert!(t.len() < 2200 && t.ends_with("[truncated: 10000 bytes in all]"));
    assert_eq!(tool["toolCallId"], "call_1", "structure and ids are kept");
}

#[test]
fn placeholders_are_not_redacted_again() {
    let mut r = Redactor::new(Redaction::Secrets);
    for text in [
        "token: [secret:1234]",
        "[secret:1457]: 9715",
        "DB_PASSWORD=[secret:20481] rest",
    ] {
        assert_eq!(r.text(text), text);
    }
    let out = r.text("[secret:1] password=hunter2");
    assert!(
        !out.contains("hunter2") && out.starts_with("[secret:1] password=[secret:"),
        "{out}"
    );
}

#[test]
fn a_secret_split_over_two_text_blocks_is_redacted_in_both() {
    let mut r = Redactor::new(Redaction::Secrets);
    let mut m = json!({"role": "user", "content": [
        {"type": "text", "text": "key: sk-ant-api03-Zx9Qw7Er5Ty3Ui"},
        {"type": "text", "text": "1OpAsDfGhJkL8mN2bV4cX6zQ (new)"},
        {"type": "text", "text": "DB_PASSWORD="},
        {"type": "text", "text": "Wq8!rTz5Lp # prod"},
        {"type": "text", "text": "asana: 9715483104997870"}
    ]});
    r.message(&mut m);
    let text = m.to_string();
    for part in [
        "Zx9Qw7Er5Ty3Ui",
        "1OpAsDfGhJkL8mN2bV4cX6zQ",
        "Wq8!rTz5Lp",
        "9715483104997870",
    ] {
        assert!(!text.contains(part), "{part}: {text}");
    }
    assert!(
        text.contains("(new)") && text.contains("# prod") && text.contains("asana: "),
        "{text}"
    );
}

#[test]
fn an_argument_vector_is_read_as_one_command() {
    let mut r = Redactor::new(Redaction::Secrets);
    let mut v = json!({"action": {"type": "exec", "command": ["mysql", "-uroot", "-pTopSecret99", "app"]}});
    r.value(&mut v);
    let text = v.to_string();
    assert!(!text.contains("TopSecret99"), "{text}");
    assert!(text.contains("\"mysql\"") && text.contains("\"app\""), "{text}");
}
