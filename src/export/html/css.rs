//! The report's only style sheet, inline: light and dark themes (`prefers-color-scheme`), a
//! sidebar index and side-by-side diffs from 1100 px, a header index and unified diffs below,
//! and print rules (no index, no backgrounds, folded parts opened where the browser allows).
//! No `url()`, no `@import`: the page loads nothing.

pub(super) const STYLE: &str = r#"
:root { color-scheme:light dark;
  --bg:#ffffff; --fg:#1f2328; --muted:#59636e; --card:#f6f8fa; --line:#d1d9e0; --accent:#0969da;
  --rm:#ffebe9; --rm-word:#ffb8b0; --rm-fg:#82071e; --add:#dafbe1; --add-word:#9ae6ae; --add-fg:#116329;
  --tag:#ddf4ff; --tag-fg:#0550ae; --ok:#1a7f37; --bad:#cf222e; --mod:#9a6700; --move:#8250df; }
@media (prefers-color-scheme: dark) {
  :root { --bg:#0d1117; --fg:#e6edf3; --muted:#9198a1; --card:#151b23; --line:#3d444d; --accent:#4493f8;
    --rm:#3c1618; --rm-word:#8e1519; --rm-fg:#ffa198; --add:#12261e; --add-word:#1f6f36; --add-fg:#7ee787;
    --tag:#122d4f; --tag-fg:#79c0ff; --ok:#3fb950; --bad:#f85149; --mod:#d29922; --move:#ab7df8; }
}
* { box-sizing:border-box; }
body { margin:0; background:var(--bg); color:var(--fg); font:14px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif;
  overflow-wrap:anywhere; }
a { color:var(--accent); text-decoration:none; } a:hover { text-decoration:underline; }
code, pre, .diff, .tag { font-family:ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
code { font-size:.92em; }
pre { margin:0; white-space:pre-wrap; font-size:12.5px; }
h1 { font-size:1.5rem; margin:0; font-weight:600; }
h2 { font-size:1.15rem; margin:1.6rem 0 .6rem; font-weight:600; }
h3 { font-size:1rem; margin:0; font-weight:600; }
.sub, .empty, .note { color:var(--muted); }
.empty, .note { font-style:italic; }
.ok { color:var(--ok); } .bad { color:var(--bad); }

.page { display:grid; grid-template-columns:minmax(0, 1fr); }
main { min-width:0; max-width:1560px; padding:1rem; }
main > header { margin-bottom:1rem; } main > header .sub { margin:.2rem 0 0; }

nav.index { background:var(--card); border-bottom:1px solid var(--line); padding:.6rem 1rem; font-size:13px; }
nav.index ul, nav.index ol { list-style:none; margin:0; padding:0; display:flex; flex-wrap:wrap; gap:.25rem .4rem; }
nav.index h2 { font-size:11px; text-transform:uppercase; letter-spacing:.06em; color:var(--muted); margin:.6rem 0 .3rem; }
nav.index .brand { margin:0 0 .3rem; font-weight:700; }
nav.index .brand a { color:var(--fg); }
nav.index li a { display:inline-block; padding:.05rem .35rem; border-radius:4px; }
nav.index li a:hover { background:var(--tag); text-decoration:none; }
nav.index .by-msg { max-height:6.5em; overflow-y:auto; font-family:ui-monospace, monospace; font-size:12px; }
nav.index .n, .rule .n { color:var(--muted); font-size:12px; font-weight:400; }
.mk { display:inline-block; width:1.3em; font-weight:700; }
.k-modified .mk { color:var(--mod); } .k-dropped .mk { color:var(--bad); } .k-inserted .mk { color:var(--ok); }
.k-merged .mk, .k-moved .mk, .k-movedFrom .mk { color:var(--move); }

.card { background:var(--card); border:1px solid var(--line); border-radius:8px; padding:.4rem 1.1rem .9rem; margin:0 0 1rem; }
.card h2 { margin:.5rem 0 .4rem; }
.verdict { border-left:4px solid var(--accent); }
.verdict .target { margin:.2rem 0 .6rem; }
.verdict dl, dl.meta { display:grid; grid-template-columns:max-content minmax(0, 1fr); gap:.3rem 1rem; margin:0; }
.verdict dt, dl.meta dt { color:var(--muted); font-weight:600; }
.verdict dd, dl.meta dd { margin:0; min-width:0; }
.verdict dd ul { margin:.2rem 0 0; padding-left:1.2rem; }
.verdict strong { font-weight:700; }
.repro { margin:.9rem 0 .3rem; color:var(--muted); }
pre.command { background:var(--bg); border:1px solid var(--line); border-radius:6px; padding:.5rem .7rem; }
@media (max-width: 700px) { .verdict dl, dl.meta { grid-template-columns:minmax(0, 1fr); gap:0; }
  .verdict dd, dl.meta dd { margin-bottom:.4rem; } }
details.policy { margin-top:.6rem; } details.policy pre { margin-top:.4rem; }
summary { cursor:pointer; color:var(--muted); }

table.lint { border-collapse:collapse; width:100%; table-layout:fixed; font-size:13px; margin:.4rem 0; }
table.lint th, table.lint td { border-top:1px solid var(--line); padding:.3rem .45rem; text-align:left; vertical-align:top; }
table.lint th { color:var(--muted); font-weight:600; }
table.lint .c-stage { width:4.6rem; } table.lint .c-where { width:22%; } table.lint .c-constraint { width:19%; }
table.lint .c-stored { width:4rem; } table.lint .c-fix { width:17%; }
table.lint tr.replay td:first-child { color:var(--bad); font-weight:600; }
table.left-out { border-collapse:collapse; font-size:13px; margin:.4rem 0; }
table.left-out th, table.left-out td { border-top:1px solid var(--line); padding:.3rem .6rem; text-align:left; }
table.left-out td + td, table.left-out th + th { text-align:right; }
.tag { display:inline-block; background:var(--tag); color:var(--tag-fg); border-radius:4px; padding:0 .4rem; font-size:12px; }

.change { border:1px solid var(--line); border-left:4px solid var(--mod); border-radius:8px; margin:.8rem 0; padding:.6rem .9rem .7rem; }
.change.dropped { border-left-color:var(--bad); } .change.inserted { border-left-color:var(--ok); }
.change.merged, .change.moved, .change.movedFrom { border-left-color:var(--move); }
.change.same { border-left-color:var(--line); }
.change h3 { display:flex; flex-wrap:wrap; align-items:baseline; gap:.2rem .6rem; }
.change .kind { font-size:11px; text-transform:uppercase; letter-spacing:.05em; padding:.05rem .45rem; border-radius:10px;
  background:var(--card); border:1px solid var(--line); color:var(--mod); }
.change.dropped .kind { color:var(--bad); } .change.inserted .kind { color:var(--ok); }
.change.merged .kind, .change.moved .kind, .change.movedFrom .kind { color:var(--move); }
.change.dropped .ids { text-decoration:line-through; text-decoration-color:var(--bad); }
.ids { font-family:ui-monospace, monospace; } .role { color:var(--muted); font-weight:400; }
.srcs { display:inline-flex; flex-direction:column; vertical-align:middle; border-right:2px solid var(--move);
  padding-right:.35rem; line-height:1.25; }
ul.why { list-style:none; margin:.45rem 0 .5rem; padding:0; }
ul.why li { margin:.15rem 0; }
ul.why .tag:hover { text-decoration:none; filter:brightness(.95); }
.act { color:var(--muted); font-size:12px; font-family:ui-monospace, monospace; }
details.more { display:inline; } details.more summary { display:inline; }
.note, p.sub { margin:.4rem 0; }
p.sub { color:var(--muted); font-size:13px; }

.diff { font-size:12.5px; line-height:1.45; border:1px solid var(--line); border-radius:6px; overflow:hidden; }
.diff .l { white-space:pre-wrap; padding:0 .6rem 0 2.6ch; text-indent:-2ch; min-height:1.45em; }
.diff .rm { background:var(--rm); } .diff .add { background:var(--add); }
.diff .sg { color:var(--muted); user-select:none; }
.diff .rm .sg { color:var(--rm-fg); } .diff .add .sg { color:var(--add-fg); }
.diff .p { color:var(--muted); }
del { background:var(--rm-word); color:inherit; text-decoration:none; border-radius:2px; }
ins { background:var(--add-word); color:inherit; text-decoration:none; border-radius:2px; }
.el { color:var(--muted); font-style:italic; border:1px dashed var(--line); border-radius:3px; padding:0 .2rem;
  font-family:system-ui, sans-serif; font-size:11.5px; white-space:nowrap; }
details.l > summary { list-style:none; color:inherit; display:block; }
details.l > summary::-webkit-details-marker { display:none; }
details.l > summary:hover .el { border-color:var(--accent); color:var(--accent); }
details.l .fold { display:none; }
details.l[open] > summary .v { display:none; }
details.l[open] > summary .fold { display:inline; color:var(--accent); font-family:system-ui, sans-serif; font-size:11.5px; }
.whole { text-indent:0; padding-bottom:.2rem; }
.split .sides { display:none; }
.split .l.none, .split .l.dup { display:none; }
.split .l.none { background:repeating-linear-gradient(135deg, transparent 0 5px, var(--card) 5px 10px); }

.gap { margin:.5rem 0; color:var(--muted); font-style:italic; text-align:center; font-size:13px; }
details.gap > summary { list-style:none; }
details.gap > summary::-webkit-details-marker { display:none; }
details.gap > summary:hover { color:var(--accent); }
details.gap > summary::after { content:" show"; font-style:normal; color:var(--accent); font-size:12px; }
details.gap[open] > summary::after { content:" hide"; }
details.gap[open] > summary { margin-bottom:.3rem; }
.folded { text-align:left; font-style:normal; color:var(--fg); }
div.same { margin:.4rem 0; }
div.same .mh { font-size:12px; color:var(--muted); margin:.2rem 0 .1rem; }
div.same .diff { border-style:dashed; }

.rule { border-top:1px solid var(--line); padding:.7rem 0 .2rem; }
.rule .summary { font-weight:600; margin:.4rem 0; }
.rule p { margin:.35rem 0; max-width:110ch; }
.rule .ref, .rule .touched { color:var(--muted); font-size:13px; }
.rule .touched a { font-family:ui-monospace, monospace; margin-right:.5rem; white-space:nowrap; }
:target { scroll-margin-top:.5rem; }
.change:target, .rule:target { outline:2px solid var(--accent); outline-offset:2px; }

@media (min-width: 1100px) {
  .page { grid-template-columns:16.5rem minmax(0, 1fr); }
  nav.index { position:sticky; top:0; height:100vh; overflow-y:auto; border-bottom:0; border-right:1px solid var(--line);
    padding:1rem .8rem; }
  nav.index ul, nav.index ol { display:block; }
  nav.index .sections li a { display:block; }
  nav.index .by-rule li a { display:flex; justify-content:space-between; gap:.5rem; }
  nav.index .by-msg { max-height:none; overflow:visible; }
  nav.index .by-msg li a { display:block; }
  main { padding:1.4rem 2rem 3rem; }
  dl.meta { grid-template-columns:max-content minmax(0, 1fr) max-content minmax(0, 1fr); }
  .split .sides { display:grid; grid-template-columns:minmax(0, 1fr) minmax(0, 1fr); font-size:11.5px; color:var(--muted);
    background:var(--card); border-bottom:1px solid var(--line); }
  .split .sides span { padding:.15rem .6rem; }
  .split .sides span + span, .split .pair > :nth-child(2) { border-left:1px solid var(--line); }
  .split .pair { display:grid; grid-template-columns:minmax(0, 1fr) minmax(0, 1fr); }
  .split .l.none, .split .l.dup { display:block; }
}

@media print {
  nav.index { display:none; }
  .page { display:block; }
  main { max-width:none; padding:0; }
  body { font-size:11pt; }
  *, *::before, *::after { background:transparent !important; box-shadow:none !important; }
  :root { --fg:#000; --muted:#444; --line:#999; }
  del { text-decoration:line-through; } ins { text-decoration:underline; }
  .change, div.same, .diff .l, tr { break-inside:avoid; }
  h2, h3 { break-after:avoid; }
  a { color:inherit; }
  details > summary .fold { display:none !important; }
  details.gap > summary::after { content:""; }
}
@supports selector(::details-content) {
  @media print {
    details::details-content { content-visibility:visible; }
    details.l > summary .v { display:none; }
  }
}
"#;
