//! The generator's message and block builders: prose, tool calls and results, images, usage.

use std::io::Write;

use replaylens::json;
use replaylens::model::json::Value;

use super::vocab::{PROVIDERS, WORDS};
use super::{Gen, base64};

impl<W: Write> Gen<W> {
    pub(super) fn words(&mut self, lo: u64, hi: u64) -> String {
        let n = self.rng.range(lo, hi);
        let mut s = String::new();
        for i in 0..n {
            if i > 0 {
                s.push(if self.rng.chance(0.08) { '\n' } else { ' ' });
            }
            s.push_str(self.rng.pick(WORDS));
        }
        s
    }

    /// Tool output text of about `len` bytes: log lines, listings and code.
    pub(super) fn output_text(&mut self, len: usize) -> String {
        let mut s = String::with_capacity(len + 200);
        while s.len() < len {
            match self.rng.below(4) {
                0 => {
                    let t = self.now / 1000 + self.rng.below(3600) as i64;
                    let lvl = self.rng.pick(&["INFO", "WARN", "DEBUG", "ERROR"]);
                    let w = self.words(4, 14).replace('\n', " ");
                    s.push_str(&format!("{t} [{lvl}] {}: {w}\n", self.rng.pick(WORDS)));
                }
                1 => {
                    let size = self.rng.below(90_000);
                    let name = format!(
                        "{}_{}.{}",
                        self.rng.pick(WORDS),
                        self.rng.pick(WORDS),
                        self.rng.pick(&["rs", "ts", "md", "json"])
                    );
                    s.push_str(&format!("-rw-r--r--  1 user staff {size:>7} Mar  1 08:00 {name}\n"));
                }
                2 => {
                    let indent = "    ".repeat(self.rng.below(3) as usize);
                    let f = self.rng.pick(WORDS);
                    let a = self.rng.pick(WORDS);
                    s.push_str(&format!(
                        "{indent}let {a} = {f}(\"{}\", {})?;\n",
                        self.rng.alnum(6),
                        self.rng.below(1000)
                    ));
                }
                _ => {
                    let w = self.words(3, 10).replace('\n', " ");
                    s.push_str(&format!(
                        "\t\"{w}\": {{\"ok\": true, \"n\": {}}},\n",
                        self.rng.below(100)
                    ));
                }
            }
        }
        s
    }

    pub(super) fn image_block(&mut self) -> Value {
        self.stats.images += 1;
        if self.config.screenshots > 0 {
            return self.screenshot_block();
        }
        let target = self.rng.range(50_000, 500_000) as usize * 3 / 4;
        let (bytes, mime) = if self.rng.chance(0.5) {
            (self.png(target), "image/png")
        } else {
            (self.jpeg_like(target), "image/jpeg")
        };
        json!({"type": "image", "data": base64(&bytes), "mimeType": mime})
    }

    /// One of the distinct screenshots (made once, then repeated).
    fn screenshot_block(&mut self) -> Value {
        if self.screenshot_pool.is_empty() {
            self.screenshot_pool = (0..self.config.screenshots)
                .map(|i| {
                    let (w, h) = if i % 2 == 0 { (1600, 900) } else { (2880, 1800) };
                    base64(&self.screenshot(w, h))
                })
                .collect();
        }
        let i = self.rng.below(self.screenshot_pool.len() as u64) as usize;
        json!({"type": "image", "data": self.screenshot_pool[i], "mimeType": "image/png"})
    }

    /// A UI-like RGB PNG: a title bar, a sidebar, panels of flat colour and rows of
    /// "text" (short dark runs on light ground), compressing as real screenshots do.
    pub(super) fn screenshot(&mut self, width: u32, height: u32) -> Vec<u8> {
        use image::ImageEncoder;
        let (w, h) = (width as usize, height as usize);
        let mut raw = vec![0u8; 3 * w * h];
        let accent = [self.rng.below(200) as u8, self.rng.below(200) as u8, 180];
        let sidebar = w / 5;
        let mut text_run = vec![false; w];
        for y in 0..h {
            let in_text_row = y > h / 12 && (y % 28) >= 8 && (y % 28) < 20;
            if (y % 28) == 8 {
                // A new row of words: runs of "ink" of random length.
                let mut x = 0;
                while x < w {
                    let word = self.rng.range(8, 90) as usize;
                    let gap = self.rng.range(6, 20) as usize;
                    for v in text_run.iter_mut().skip(x).take(word) {
                        *v = true;
                    }
                    for v in text_run.iter_mut().skip(x + word).take(gap) {
                        *v = false;
                    }
                    x += word + gap;
                }
            }
            for x in 0..w {
                let px = if y < h / 12 {
                    accent
                } else if x < sidebar {
                    [236, 238, 242]
                } else if in_text_row && text_run[x] && x > sidebar + 24 && x < w - 24 {
                    [40 + (x % 7) as u8, 44, 52]
                } else {
                    [252, 252, 253]
                };
                raw[3 * (y * w + x)..3 * (y * w + x) + 3].copy_from_slice(&px);
            }
        }
        let mut png = Vec::new();
        image::codecs::png::PngEncoder::new_with_quality(
            &mut png,
            image::codecs::png::CompressionType::Default,
            image::codecs::png::FilterType::Adaptive,
        )
        .write_image(&raw, width, height, image::ExtendedColorType::Rgb8)
        .expect("encode a PNG in memory");
        png
    }

    /// A real, decodable RGB PNG of noise, about `target` bytes (noise does not compress).
    pub(super) fn png(&mut self, target: usize) -> Vec<u8> {
        use image::ImageEncoder;
        let width = 256u32;
        let height = (target / (3 * width as usize)).max(1) as u32;
        let mut raw = vec![0u8; 3 * (width * height) as usize];
        self.rng.fill(&mut raw);
        let mut png = Vec::with_capacity(raw.len() + 1024);
        image::codecs::png::PngEncoder::new_with_quality(
            &mut png,
            image::codecs::png::CompressionType::Fast,
            image::codecs::png::FilterType::NoFilter,
        )
        .write_image(&raw, width, height, image::ExtendedColorType::Rgb8)
        .expect("encode a PNG in memory");
        png
    }

    /// Random bytes behind a JFIF header, ending in an EOI marker (not decodable).
    pub(super) fn jpeg_like(&mut self, target: usize) -> Vec<u8> {
        let mut v = b"\xFF\xD8\xFF\xE0\x00\x10JFIF\x00\x01\x01\x00\x00\x01\x00\x01\x00\x00".to_vec();
        let start = v.len();
        v.resize(target.max(start + 2), 0);
        self.rng.fill(&mut v[start..]);
        let n = v.len();
        v[n - 2..].copy_from_slice(&[0xFF, 0xD9]);
        v
    }

    pub(super) fn usage(&mut self) -> Value {
        let input = self.rng.range(2_000, 180_000);
        let output = self.rng.range(20, 4_000);
        let cache_read = self.rng.below(input);
        let cache_write = self.rng.below(3_000);
        let cost = |n: u64, per_m: f64| (n as f64 * per_m / 1e6 * 1e6).round() / 1e6;
        let c = json!({
            "input": cost(input, 3.0),
            "output": cost(output, 15.0),
            "cacheRead": cost(cache_read, 0.3),
            "cacheWrite": cost(cache_write, 3.75),
            "total": cost(input, 3.0) + cost(output, 15.0),
        });
        json!({
            "input": input,
            "output": output,
            "cacheRead": cache_read,
            "cacheWrite": cache_write,
            "totalTokens": input + output + cache_read + cache_write,
            "cost": c,
        })
    }

    pub(super) fn tool_call_id(&mut self) -> String {
        self.call_counter += 1;
        if PROVIDERS[self.provider].1.starts_with("openai") {
            format!("call_{}|fc_{}", self.rng.alnum(24), self.rng.hex(48))
        } else {
            format!("toolu_01{}", self.rng.alnum(22))
        }
    }

    pub(super) fn tool_arguments(&mut self, tool: &str) -> Value {
        let file = format!("src/{}/{}.rs", self.rng.pick(WORDS), self.rng.pick(WORDS));
        match tool {
            "exec" => {
                json!({"command": format!("{} {}", self.rng.pick(&["ls -la", "cargo test", "git status", "rg -n"]), self.rng.pick(WORDS)), "timeout": 120})
            }
            "read" => json!({"path": file}),
            "write" => {
                let len = self.rng.range(200, 3_000) as usize;
                json!({"path": file, "content": self.output_text(len)})
            }
            "edit" => json!({"path": file, "oldText": self.words(3, 12), "newText": self.words(3, 12)}),
            "web_fetch" => {
                json!({"url": format!("https://docs.example.org/{}/{}", self.rng.pick(WORDS), self.rng.alnum(8))})
            }
            _ => json!({"query": self.words(2, 8)}),
        }
    }

    pub(super) fn user_message(&mut self) -> Value {
        let mut text = self.words(5, 80);
        if self.rng.chance(0.3) {
            let sender = json!({"label": "Telegram", "sender": format!("user{}", self.rng.below(100))});
            text =
                format!("Sender (untrusted metadata):\n```json\n{sender}\n```\n\n[Sun 2026-03-08 22:03 GMT+9] {text}");
        }
        let mut content = vec![json!({"type": "text", "text": text})];
        if self.byte_deficit() > 300_000 && self.rng.chance(0.2) {
            content.push(self.image_block());
        }
        let key = format!("run-{}:user", self.rng.hex(12));
        let mut m = json!({"role": "user", "content": content, "timestamp": self.now});
        if self.rng.chance(0.5) {
            m["__openclaw"] = json!({"idempotencyKey": key, "seq": self.stats.messages, "modelPromptProjection": {"version": 1, "text": text}});
            m["turnId"] = json!(self.rng.hex(16));
        }
        json!({"message": m})
    }

    pub(super) fn assistant_message(&mut self, blocks: Vec<Value>, stop: &str) -> Value {
        let (provider, api, model) = PROVIDERS[self.provider];
        let mut m = json!({
            "role": "assistant",
            "content": blocks,
            "api": api,
            "provider": provider,
            "model": model,
            "usage": self.usage(),
            "stopReason": stop,
            "timestamp": self.now,
        });
        if api.starts_with("openai") {
            m["responseId"] = json!(format!("resp_{}", self.rng.hex(48)));
        }
        if self.rng.chance(0.05) {
            m["diagnostics"] = json!({"latencyMs": self.rng.range(300, 30_000), "retries": self.rng.below(3)});
        }
        json!({"message": m})
    }

    pub(super) fn thinking_block(&mut self) -> Value {
        let sig_len = self.rng.range(200, 1_600) as usize;
        let mut sig = vec![0u8; sig_len];
        self.rng.fill(&mut sig);
        let mut b = json!({"type": "thinking", "thinking": self.words(10, 120), "thinkingSignature": base64(&sig)});
        if self.rng.chance(0.02) {
            b["redacted"] = json!(true);
        }
        b
    }

    pub(super) fn text_block(&mut self, lo: u64, hi: u64) -> Value {
        let mut b = json!({"type": "text", "text": self.words(lo, hi)});
        if PROVIDERS[self.provider].1.starts_with("openai") && self.rng.chance(0.5) {
            b["textSignature"] = json!({"v": 1, "id": format!("msg_{}", self.rng.hex(32)), "phase": "final_answer"})
                .to_string()
                .into();
        }
        b
    }

    pub(super) fn tool_result(&mut self, call_id: &str, tool: &str) -> Value {
        let behind = self.byte_deficit() > 150_000;
        let big = behind && self.rng.chance(0.3);
        let screenshot = self.config.screenshots > 0 && tool == "browser" && self.rng.chance(0.03);
        let image = screenshot || (big && (tool == "browser" || self.rng.chance(0.35))) || self.rng.chance(0.002);
        let long = (big && !image) || self.rng.chance(0.002);
        let len = if long {
            self.stats.long_outputs += 1;
            self.rng.range(20_000, 200_000) as usize
        } else {
            self.rng.range(30, 2_500) as usize
        };
        let mut content = vec![json!({"type": "text", "text": self.output_text(len)})];
        if image {
            content.push(self.image_block());
        }
        let is_error = self.rng.chance(0.04);
        let mut m = json!({
            "role": "toolResult",
            "toolCallId": call_id,
            "toolName": tool,
            "content": content,
            "isError": is_error,
            "timestamp": self.now,
        });
        if self.rng.chance(0.3) {
            m["details"] = json!({"exitCode": i32::from(is_error), "durationMs": self.rng.range(5, 90_000), "truncated": long, "cwd": "/home/user/.openclaw/workspace"});
        }
        json!({"message": m})
    }
}
