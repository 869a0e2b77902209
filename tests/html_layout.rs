//! The HTML export fits the window: exported samples loaded in headless Chromium at 1400 px
//! (sidebar, side-by-side diffs) and 800 px (header index, unified diffs) have no element
//! reaching past the right edge and no horizontal scrolling, with everything folded and
//! with every `<details>` opened.
//!
//! The report runs no script, so the check is injected into a copy made for the test: the
//! Content-Security-Policy `<meta>` removed, a `<script>` appended that measures every
//! element and writes what overflows into a `<pre id="overflow-result">`, read back from
//! `--dump-dom`. Skipped when Chromium is missing, unless `REPLAYLENS_REQUIRE_CHROMIUM=1`.

mod chromium;
mod common;

use std::path::Path;
use std::process::Command;

const CSP_META: &str =
    "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">";

/// Measures the page, folded and then with every `<details>` open.
const CHECK: &str = r#"<script>
(function () {
  function describe(e) {
    var s = e.tagName.toLowerCase();
    if (e.id) s += '#' + e.id;
    if (typeof e.className === 'string' && e.className) s += '.' + e.className.trim().split(/\s+/).join('.');
    var text = (e.textContent || '').replace(/\s+/g, ' ').trim().slice(0, 50);
    return s + ' "' + text + '"';
  }
  function check(label) {
    var root = document.documentElement;
    var width = root.clientWidth;
    var bad = [];
    if (root.scrollWidth > width) bad.push('html scrollWidth ' + root.scrollWidth);
    if (document.body.scrollWidth > document.body.clientWidth) bad.push('body scrollWidth ' + document.body.scrollWidth);
    var all = document.body.getElementsByTagName('*');
    for (var i = 0; i < all.length; i++) {
      var r = all[i].getBoundingClientRect();
      if (r.width === 0 && r.height === 0) continue;
      if (r.right > width + 0.5 || r.left < -0.5) {
        bad.push(describe(all[i]) + ' [' + Math.round(r.left) + ', ' + Math.round(r.right) + ']');
      }
    }
    return label + ' width=' + width + ' elements=' + all.length + ' overflowing=' + bad.length +
      (bad.length ? ': ' + bad.slice(0, 15).join(' | ') : '');
  }
  var folded = check('folded');
  var details = document.getElementsByTagName('details');
  for (var i = 0; i < details.length; i++) details[i].open = true;
  var opened = check('open');
  var pre = document.createElement('pre');
  pre.id = 'overflow-result';
  pre.textContent = 'RESULT ' + folded + '\nRESULT ' + opened + '\nEND';
  document.body.appendChild(pre);
})();
</script>"#;

fn export(args: &[&str]) -> String {
    let out = Command::new(common::bin()).arg("export").args(args).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

/// The report with its policy removed and the check appended: for the test only.
fn instrumented(html: &str) -> String {
    assert_eq!(
        html.matches(CSP_META).count(),
        1,
        "the report carries the strict policy"
    );
    assert!(!html.contains("<script"), "the report itself has no script");
    html.replacen(CSP_META, "", 1)
        .replacen("</body>", &format!("{CHECK}\n</body>"), 1)
}

/// The result lines of the check in a dumped DOM.
fn results(dom: &str) -> Vec<String> {
    let start = dom.find("<pre id=\"overflow-result\">").expect("the check ran");
    let body = &dom[start..start + dom[start..].find("END").expect("the check finished")];
    body.lines()
        .filter_map(|l| l.split_once("RESULT ").map(|(_, r)| r.to_owned()))
        .collect()
}

fn check_sample(browser: &Path, dir: &Path, name: &str, args: &[&str]) {
    let sample = common::bundled_samples().join(format!("{name}.jsonl"));
    let mut full = vec![sample.to_str().unwrap(), "--format", "html"];
    full.extend_from_slice(args);
    let file = dir.join(format!("{name}.html"));
    std::fs::write(&file, instrumented(&export(&full))).unwrap();
    for width in [1400, 800] {
        let out = chromium::dump_dom(
            browser,
            &dir.join(format!("profile-{name}-{width}")),
            &file,
            (width, 2000),
        );
        let dom = String::from_utf8_lossy(&out.stdout);
        let lines = results(&dom);
        assert_eq!(lines.len(), 2, "{name} at {width}: {lines:?}");
        for line in &lines {
            let reported: u32 = line
                .split(" width=")
                .nth(1)
                .and_then(|w| w.split(' ').next())
                .and_then(|w| w.parse().ok())
                .unwrap_or(0);
            assert!(
                reported + 20 >= width && reported <= width,
                "{name}: the window is {width} px wide, the page says {reported}: {line}"
            );
            assert!(
                line.contains(" overflowing=0"),
                "{name} at {width} px, elements past the right edge: {line}"
            );
        }
        eprintln!("{name} at {width} px: {}", lines.join("; "));
    }
}

#[test]
fn html_reports_fit_wide_and_narrow_windows() {
    let Some(browser) = chromium::find_or_skip() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    check_sample(
        &browser,
        dir.path(),
        "mistral-ids-and-images",
        &[
            "--provider",
            "mistral",
            "--api",
            "mistral-conversations",
            "--model",
            "devstral-medium-2507",
        ],
    );
    check_sample(&browser, dir.path(), "anthropic-tool-repair", &[]);
}
