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

/// Issue 45 finding 11: the forms the fourth hostile pass found surviving `--redact`.
#[test]
fn the_fourth_passes_forms_are_redacted() {
    let cases = [
        (
            "Cookie: sessionid=k3j4h5g6f7d8s9a0q1w2e3r4; theme=dark",
            "k3j4h5g6f7d8s9a0q1w2e3r4",
        ),
        (
            "Set-Cookie: PHPSESSID=9a8b7c6d5e4f3a2b1c0d; path=/",
            "9a8b7c6d5e4f3a2b1c0d",
        ),
        ("GET /app?sid=Zq81mWv02Lk9Tn3R HTTP/1.1", "Zq81mWv02Lk9Tn3R"),
        ("https://x.example/a?session_id=sess0Kp2Lw9Qe", "sess0Kp2Lw9Qe"),
        ("https://x.example/a?auth=au7hV4lu3xYz&b=1", "au7hV4lu3xYz"),
        ("https://maps.example/api?key=K3yV4lu3Abc123Def", "K3yV4lu3Abc123Def"),
        (
            "Authorization: ApiKey dGhpcy1pcy1hLXNlY3JldC1rZXk=",
            "dGhpcy1pcy1hLXNlY3JldC1rZXk",
        ),
        (
            "headers = {'X-Auth': 'Basic YWxhZGRpbjpvcGVuc2VzYW1l'}",
            "YWxhZGRpbjpvcGVuc2VzYW1l",
        ),
        ("admin:$apr1$r31.....$HqJZimcKQFAMYayBlzkrA/", "HqJZimcKQFAMYayBlzkrA"),
        (
            "bob:$2y$10$abcdefghijklmnopqrstuvABCDEFGHIJKLMNOPQRSTUVWXYZ012",
            "abcdefghijklmnopqrstuv",
        ),
        ("db.internal:5432:orders:app:pgS3cret!value", "pgS3cret!value"),
        (
            "apiVersion: v1\nkind: Secret\ndata:\n  password: cGFzc3dvcmQxMjM0NQ==\n",
            "cGFzc3dvcmQxMjM0NQ",
        ),
        (
            "MAILCHIMP=0123456789abcdef0123456789abcdef-us21",
            "0123456789abcdef0123456789abcdef",
        ),
        ("POST https://hooks.zapier.com/hooks/catch/1234567/abcd3fg/", "abcd3fg"),
        ("access id LTAI5tQx7Rb2Ck9Dm4Ne8Pf1 for oss", "LTAI5tQx7Rb2Ck9Dm4Ne8Pf1"),
        (
            "secret value abc8Q~aB3dE5fG7hI9jK1lM3nO5pQ7rS9tU1vW3x",
            "aB3dE5fG7hI9jK1lM3nO5pQ7rS9tU1vW3x",
        ),
        (
            "Driver={ODBC Driver 18};Server=db;Uid=sa;Pwd={p@ss;word!};",
            "p@ss;word!",
        ),
        (
            "here is my api token 3f1c2b9e-8a7d-4e6f-9b0a-1c2d3e4f5a6b ok",
            "3f1c2b9e-8a7d-4e6f-9b0a-1c2d3e4f5a6b",
        ),
        ("mysql -uroot -pTopSecret99 app", "TopSecret99"),
        (
            r#"{"cmd": "curl", "headers": "{\"cookie\": \"sid-77aa88bb99\"}"}"#,
            "sid-77aa88bb99",
        ),
        (
            r#"{\"sessionid\": \"abcdef123456\", \"pin\": \"8642\"}"#,
            "abcdef123456",
        ),
        (r#"{\"pin\": \"8642\"}"#, "8642"),
    ];
    let mut kept = Vec::new();
    for (text, secret) in cases {
        let out = redacted(text);
        if out.contains(secret) {
            kept.push(format!("{text} → {out}"));
        }
    }
    assert!(kept.is_empty(), "{kept:#?}");
}

/// Issue 45 finding 11 in structured values: an object key `session`, numbers under
/// secret-named keys, a Codex `function_call`'s JSON-string arguments.
#[test]
fn session_keys_numbers_and_function_call_arguments_are_redacted() {
    let mut v = json!({
        "session": "s3ss-9f8e7d6c5b4a",
        "api_token": 982734982734_u64,
        "pin": 4711,
        "type": "function_call",
        "arguments": "{\"cookie\":\"c00kie-value-1\",\"sessionid\":\"sid-value-22\",\"pin\":\"9753\"}"
    });
    Redactor::new(Redaction::Secrets).value(&mut v);
    let text = v.to_string();
    for secret in [
        "s3ss-9f8e7d6c5b4a",
        "982734982734",
        "4711",
        "c00kie-value-1",
        "sid-value-22",
        "9753",
    ] {
        assert!(!text.contains(secret), "{secret}: {text}");
    }
}

#[test]
fn an_indented_yaml_word_is_not_a_kubernetes_secret() {
    let yaml = "metadata:\n  name: myapplicationname\n  namespace: production\n";
    assert_eq!(redacted(yaml), yaml);
}
