//! The secret forms the third hostile pass found surviving `--redact`, each planted the way a
//! transcript holds it; none may survive, and the text around it stays readable.

use super::*;
use crate::json;

fn redacted(text: &str) -> String {
    Redactor::new(Redaction::Secrets).text(text)
}

#[test]
fn every_form_found_surviving_is_redacted() {
    let cases = [
        (
            "SLACK_APP_TOKEN=xapp-1-A0123456789-1234567890123-0a1b2c3d4e5f607",
            "0a1b2c3d4e5f607",
        ),
        (
            "https://a.blob.core.windows.net/c/x.txt?sv=2022-11-02&sig=AbCdEf0123456789%2BghIJkl%3D",
            "AbCdEf0123456789",
        ),
        ("REDIS_URL=redis://:hunter2hunter2@cache:6379/0", "hunter2hunter2"),
        (
            "curl -H \"Authorization: Basic YWxhZGRpbjpvcGVuc2VzYW1l\" https://x",
            "YWxhZGRpbjpvcGVuc2VzYW1l",
        ),
        (
            r#"{"auths":{"ghcr.io":{"auth":"dXNlcjpzM2NyZXRwYXNzd29yZA=="}}}"#,
            "dXNlcjpzM2NyZXRwYXNzd29yZA",
        ),
        ("machine github.com login octo password Tr0ub4dor3xyz", "Tr0ub4dor3xyz"),
        ("mysql -h db -u root -pS3cretPass orders", "S3cretPass"),
        ("curl -u deploy:Winter2026! https://ci.example/api", "Winter2026!"),
        ("sshpass -p 'Qwerty!2026' ssh admin@10.0.0.5", "Qwerty!2026"),
        (r#"{"DB_PASS": "pg-pass-77"}"#, "pg-pass-77"),
        ("export DB_PASS=pg-pass-77", "pg-pass-77"),
        (r#"{"body": "{\"password\": \"inner-secret-1\"}"}"#, "inner-secret-1"),
        (
            "key: 9f86d081884c7d659a2feaa0c55ad015",
            "9f86d081884c7d659a2feaa0c55ad015",
        ),
    ];
    for (text, secret) in cases {
        let out = redacted(text);
        assert!(!out.contains(secret), "{text} → {out}");
    }
    assert!(redacted("curl -u deploy:Winter2026! https://ci.example/api").starts_with("curl -u deploy:"));
    assert_eq!(redacted("the basic setup is fine"), "the basic setup is fine");
}

#[test]
fn random_32_hex_keys_are_redacted() {
    let mut state = 0x2545_f491_4f6c_dd1du64;
    let mut missed = 0;
    for _ in 0..1000 {
        let key: String = (0..32)
            .map(|_| {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                char::from_digit((state % 16) as u32, 16).unwrap()
            })
            .collect();
        if redacted(&format!("key {key}")).contains(&key) {
            missed += 1;
        }
    }
    assert_eq!(missed, 0, "random 32-hex keys kept");
}

#[test]
fn a_truncated_key_block_is_redacted_and_swallows_nothing_after_it() {
    let text = "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEAwJ3p5g8sEcretMaterial\nQyNTUxOQAAACB3c2VjcmV0a2V5bWF0ZXJpYWw\n\
                The deploy notes say the build runs at noon.\n\
                -----BEGIN RSA PRIVATE KEY-----\nMIIBOgIBAAJBAKj34GkxFhD90vcNLYLInFEX\n-----END RSA PRIVATE KEY-----\n";
    let out = redacted(text);
    assert!(
        !out.contains("MIIEowIBAAKCAQEAwJ3p5g8sEcretMaterial") && !out.contains("MIIBOgIBAAJBAKj34GkxFhD90vcNLYLInFEX"),
        "{out}"
    );
    assert!(out.contains("The deploy notes say the build runs at noon."), "{out}");
}

#[test]
fn secret_named_keys_lose_numbers_arrays_and_objects_too() {
    let mut v = json!({
        "credentials": {"user": "alice", "pass": "pw-1234"},
        "pin_password": 4711,
        "tokens": ["tok-aaaa", "tok-bbbb"],
        "pass": "short",
        "count": 3
    });
    Redactor::new(Redaction::Secrets).value(&mut v);
    let text = v.to_string();
    for secret in ["pw-1234", "4711", "tok-aaaa", "tok-bbbb", "alice", "short"] {
        assert!(!text.contains(secret), "{secret}: {text}");
    }
    assert_eq!(v["count"], json!(3));
}
