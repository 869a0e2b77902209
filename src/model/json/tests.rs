use super::*;

/// Every line of every bundled and shared sample, read and written back by both models.
fn sample_lines() -> Vec<String> {
    let mut lines = Vec::new();
    for dir in ["sample-sessions", "../shared/samples"] {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(dir);
        for entry in walkdir::WalkDir::new(root).into_iter().flatten() {
            let path = entry.path();
            if path.extension().is_some_and(|e| e == "jsonl" || e == "json")
                && let Ok(text) = std::fs::read_to_string(path)
            {
                lines.extend(text.lines().filter(|l| !l.trim().is_empty()).map(str::to_owned));
            }
        }
    }
    lines
}

#[test]
fn writes_every_sample_line_byte_for_byte_as_serde_json() {
    let lines = sample_lines();
    assert!(lines.len() > 100, "the samples were found ({} lines)", lines.len());
    let mut compared = 0;
    for line in &lines {
        let Ok(theirs) = serde_json::from_str::<serde_json::Value>(line) else {
            continue;
        };
        let ours: Value = serde_json::from_str(line).expect("serde_json read it");
        assert_eq!(
            serde_json::to_string(&ours).unwrap(),
            serde_json::to_string(&theirs).unwrap()
        );
        assert_eq!(
            serde_json::to_string_pretty(&ours).unwrap(),
            serde_json::to_string_pretty(&theirs).unwrap()
        );
        assert_eq!(ours.to_serde(), theirs);
        assert_eq!(Value::from_serde(theirs), ours);
        compared += 1;
    }
    assert!(compared > 100);
}

#[test]
fn numbers_keep_their_text() {
    let v: Value = serde_json::from_str(r#"{"a":1.50,"b":1e400,"c":-0,"d":123456789012345678901234567890}"#).unwrap();
    assert_eq!(
        serde_json::to_string(&v).unwrap(),
        r#"{"a":1.50,"b":1e+400,"c":-0,"d":123456789012345678901234567890}"#
    );
    assert_eq!(v["a"].as_f64(), Some(1.5));
    assert_eq!(v["b"].as_f64(), None);
    assert_eq!(crate::json!({"n": 3}), crate::json!({"n": 3}));
    assert_eq!(crate::json!(7), 7);
    assert_ne!(crate::json!(7.0), 7);
}

#[test]
fn an_object_with_serde_json_s_number_key_reads_as_serde_json_reads_it() {
    for text in [
        r#"{"$serde_json::private::Number":"12"}"#,
        r#"{"$serde_json::private::Number":"1e400"}"#,
        r#"{"$serde_json::private::Number":"abc"}"#,
        r#"{"$serde_json::private::Number":5}"#,
        r#"[{"$serde_json::private::Number":"-0.50"}]"#,
    ] {
        let ours = serde_json::from_str::<Value>(text).map(|v| serde_json::to_string(&v).unwrap());
        let theirs = serde_json::from_str::<serde_json::Value>(text).map(|v| serde_json::to_string(&v).unwrap());
        assert_eq!(ours.is_ok(), theirs.is_ok(), "{text}");
        if let (Ok(o), Ok(t)) = (ours, theirs) {
            assert_eq!(o, t, "{text}");
        }
    }
}

#[test]
fn repeated_keys_keep_the_first_place_and_the_last_value_as_serde_json_does() {
    let text = r#"{"a":1,"b":2,"a":3}"#;
    let ours: Value = serde_json::from_str(text).unwrap();
    let theirs: serde_json::Value = serde_json::from_str(text).unwrap();
    assert_eq!(
        serde_json::to_string(&ours).unwrap(),
        serde_json::to_string(&theirs).unwrap()
    );
}

#[test]
fn a_value_takes_24_bytes_an_entry_32_and_short_strings_need_no_allocation() {
    assert_eq!(std::mem::size_of::<Value>(), 24);
    assert_eq!(std::mem::size_of::<(Key, Value)>(), 32);
    let s = Str::from("fifteen bytes!!");
    assert_eq!(s.len(), 15);
    assert_eq!(std::mem::size_of_val(&s), 16);
}

#[test]
fn copies_share_until_changed() {
    let mut a = crate::json!({"content": [{"type": "text", "text": "hi"}], "usage": {"input": 1}});
    let b = a.clone();
    a["usage"] = crate::json!({"input": 0});
    assert_eq!(b["usage"]["input"], 1);
    assert_eq!(a["usage"]["input"], 0);
    assert_eq!(a["content"], b["content"]);
    if let Value::Array(items) = &mut a["content"] {
        items[0]["text"] = Value::from("changed");
    }
    assert_eq!(b["content"][0]["text"], "hi");
}

#[test]
fn indexing_and_pointers_follow_serde_json() {
    let mut v = crate::json!({"a": [10, {"b~/c": true}]});
    assert_eq!(v.pointer("/a/1/b~0~1c"), Some(&Value::Bool(true)));
    assert_eq!(v["missing"], Value::Null);
    assert_eq!(v["a"][5], Value::Null);
    v["new"] = Value::from("x");
    assert_eq!(v.as_object().unwrap().keys().last().map(Key::as_str), Some("new"));
    assert_eq!(v.get("a").and_then(|a| a.get(0)), Some(&Value::from(10)));
    assert_eq!(format!("{v}"), r#"{"a":[10,{"b~/c":true}],"new":"x"}"#);
}

#[test]
fn deep_nesting_is_read_and_dropped() {
    let depth = 2000;
    let text = format!("{}{}", "[".repeat(depth), "]".repeat(depth));
    let mut de = serde_json::Deserializer::from_str(&text);
    de.disable_recursion_limit();
    let de = serde_stacker::Deserializer::new(&mut de);
    let v = Value::deserialize(de).unwrap();
    assert!(v.is_array());
}

use serde::Deserialize;
