// What openclaw_chain.mjs and openclaw_payload.mjs share: where OpenClaw is installed, stdout
// kept for the protocol, finding functions in OpenClaw's hashed dist/ chunks, the external
// provider plugins, and the request loop (one JSON request per stdin line, or one file).
//
// Importing this module sets OPENCLAW_LOG_LEVEL (unless set) and sends console output to
// stderr, before any OpenClaw code is loaded.
import fs from "node:fs";
import path from "node:path";
import readline from "node:readline";
import { fileURLToPath, pathToFileURL } from "node:url";

export const HERE = path.dirname(fileURLToPath(import.meta.url));
export const OPENCLAW_DIR = path.resolve(process.env.OPENCLAW_DIR || path.join(HERE, "node_modules", "openclaw"));
export const DIST = path.join(OPENCLAW_DIR, "dist");

// stdout carries the protocol; OpenClaw's own logging goes to stderr.
process.env.OPENCLAW_LOG_LEVEL ??= "error";
export const writeOut = process.stdout.write.bind(process.stdout);
export const toStderr = (...a) => process.stderr.write(a.map(String).join(" ") + "\n");
console.log = toStderr;
console.info = toStderr;
console.debug = toStderr;
console.warn = toStderr;

// The image tools rastermill falls back to when Photon cannot decode a format (ImageMagick,
// GraphicsMagick, ffmpeg, sips) are found by OpenClaw's resolveSystemBin in fixed system folders,
// not on PATH. The oracle answers as on a machine without any of them, so its replies do not
// depend on what this machine has installed (a tool's failure text names random temp folders).
const IMAGE_TOOLS = new Set(["magick", "convert", "gm", "ffmpeg", "sips"]);
const accessSync = fs.accessSync;
fs.accessSync = function accessSyncWithoutImageTools(file, mode) {
  if (IMAGE_TOOLS.has(path.basename(String(file)))) {
    throw Object.assign(new Error(`ENOENT: no such file or directory, access '${file}'`), { code: "ENOENT" });
  }
  return accessSync.call(this, file, mode);
};

// The local names a chunk exports, mapped to their export aliases (the last `export { … }`).
export function exportAliases(text) {
  const exportList = [...text.matchAll(/export\s*\{([^}]*)\}/g)].pop();
  const aliases = new Map();
  if (!exportList) return aliases;
  for (const item of exportList[1].split(",")) {
    const [local, alias] = item.trim().split(/\s+as\s+/);
    if (local) aliases.set(local.trim(), (alias ?? local).trim());
  }
  return aliases;
}

// The dist chunks have hashed names; each function is found by its definition text and the
// chunk's export list, so the scripts survive re-bundling. `definitions`: name -> definition.
// Names in `optional` may be missing (older releases lack some exports).
export function locateEntryPoints(definitions, optional = new Set()) {
  const found = {};
  // Releases up to 2026.8.x ship their chunks as `.js` (ES modules), later ones as `.mjs`.
  for (const file of fs.readdirSync(DIST).filter((f) => f.endsWith(".mjs") || f.endsWith(".js"))) {
    const text = fs.readFileSync(path.join(DIST, file), "utf8");
    for (const [name, definition] of Object.entries(definitions)) {
      if (found[name] || !text.includes(definition)) continue;
      const alias = exportAliases(text).get(name);
      if (alias) found[name] = { file, export: alias };
    }
  }
  const missing = Object.keys(definitions).filter((n) => !found[n] && !optional.has(n));
  if (missing.length) throw new Error(`${DIST}: cannot locate ${missing.join(", ")}`);
  return found;
}

export async function importFile(file) {
  return import(pathToFileURL(file).href);
}

// Locate and import the functions named in `definitions`: {fns, where, version}.
export async function loadEntryPoints(definitions, optional = new Set()) {
  if (!fs.existsSync(DIST)) throw new Error(`${OPENCLAW_DIR} has no dist/ (run npm ci in ${HERE})`);
  const where = locateEntryPoints(definitions, optional);
  const fns = {};
  for (const [name, { file, export: alias }] of Object.entries(where)) {
    const mod = await importFile(path.join(DIST, file));
    if (typeof mod[alias] !== "function") throw new Error(`${file}: export ${alias} is not ${name}`);
    fns[name] = mod[alias];
  }
  const { version } = JSON.parse(fs.readFileSync(path.join(OPENCLAW_DIR, "package.json"), "utf8"));
  return { fns, where, version };
}

// How a release gets the provider plugins that are not bundled with it, from
// `releases/<version>/oracle.json` beside its node_modules (the pinned release in this folder
// has none: every npm-published @openclaw/*-provider installed beside it is loaded):
//   {"mistral": "npm"}    the npm @openclaw/mistral-provider of this folder, its `pluginApi`
//                         range relaxed (it exists on npm only as 2026.9.5, which 2026.9.4
//                         refuses but runs)
//   {"mistral": "shim"}   plugins-by-release/mistral-replay-policy: the npm plugin's exact
//                         buildReplayPolicy alone (2026.8.1-2026.9.3 bundle no mistral and
//                         cannot import the npm build)
//   {"mistral": "bundled"} nothing to add (up to 2026.7.x)
//   {"bedrock": "bundled"} the release bundles amazon-bedrock: the stand-in is left out
export function releaseSetup() {
  const file = path.join(path.dirname(path.dirname(OPENCLAW_DIR)), "oracle.json");
  return fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, "utf8")) : null;
}

// The npm mistral plugin copied to `scratch` with its `openclaw.compat.pluginApi` relaxed.
function relaxedMistralPlugin(scratch) {
  const source = path.join(HERE, "node_modules", "@openclaw", "mistral-provider");
  const target = path.join(scratch, "mistral-provider");
  fs.cpSync(source, target, { recursive: true, dereference: true });
  const manifest = path.join(target, "package.json");
  const pkg = JSON.parse(fs.readFileSync(manifest, "utf8"));
  if (pkg.openclaw?.compat) pkg.openclaw.compat.pluginApi = ">=2026.1.0";
  fs.writeFileSync(manifest, JSON.stringify(pkg, null, 2));
  return target;
}

// External provider plugins: every npm-published @openclaw/*-provider installed beside
// openclaw, plus the stand-ins in ./plugins for plugins that are not on npm; for an older
// release, what its `oracle.json` says (`releaseSetup`). `scratch`: a folder for copies.
export function pluginPaths(scratch) {
  const paths = [];
  const setup = releaseSetup();
  if (setup) {
    if (setup.mistral === "npm") paths.push(relaxedMistralPlugin(scratch));
    if (setup.mistral === "shim") paths.push(path.join(HERE, "plugins-by-release", "mistral-replay-policy"));
  } else {
    const scope = path.join(path.dirname(OPENCLAW_DIR), "@openclaw");
    if (fs.existsSync(scope)) {
      for (const d of fs.readdirSync(scope).sort()) {
        const dir = path.join(scope, d);
        if (d.endsWith("-provider") && fs.existsSync(path.join(dir, "openclaw.plugin.json"))) paths.push(fs.realpathSync(dir));
      }
    }
  }
  const standIns = path.join(HERE, "plugins");
  if (fs.existsSync(standIns)) {
    for (const d of fs.readdirSync(standIns).sort()) {
      if (d === "amazon-bedrock" && setup?.bedrock === "bundled") continue;
      paths.push(path.join(standIns, d));
    }
  }
  return paths;
}

const defaultError = (e) => String(e?.stack ?? e).split("\n").slice(0, 3).join(" | ");

// Answer requests: with --jsonl one JSON request per stdin line and one reply per line, else
// one request from the file named (or stdin) and one pretty reply. `run(req)` returns the
// reply fields; a failure becomes `{id, error: describeError(e)}` and the loop goes on.
export async function serve(args, run, describeError = defaultError) {
  const handle = async (line) => {
    let req;
    try {
      req = JSON.parse(line);
    } catch (e) {
      return { error: `request is not JSON: ${e.message}` };
    }
    const id = req?.id !== undefined ? { id: req.id } : {};
    try {
      return { ...id, ...(await run(req)) };
    } catch (e) {
      return { ...id, error: describeError(e) };
    }
  };
  if (args.includes("--jsonl")) {
    const lines = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
    for await (const line of lines) if (line.trim()) writeOut(JSON.stringify(await handle(line)) + "\n");
    return;
  }
  const file = args.find((a) => !a.startsWith("--"));
  const reply = await handle(fs.readFileSync(file ?? 0, "utf8"));
  writeOut(JSON.stringify(reply, null, 2) + "\n");
  process.exitCode = reply.error ? 1 : 0;
}

// OpenClaw leaves timers and handles behind, so the process is ended explicitly, but only once
// stdout has been flushed: writes to a pipe are asynchronous, and exiting at once cuts the
// output at 64 KiB.
export function exitAfterFlush(code) {
  process.stdout.write("", () => process.exit(code));
}

// Run a script's main and exit once its output is out.
export function runMain(name, main) {
  main().then(
    () => exitAfterFlush(process.exitCode ?? 0),
    (e) => {
      process.stderr.write(`${name}: ${e?.stack ?? e}\n`);
      exitAfterFlush(2);
    },
  );
}

// The model object the runner resolves for provider/model under `config`: OpenClaw's own
// resolveModelAsync, with an agent folder inside the oracle's scratch folder.
export async function resolveConfiguredModel(fns, env, config, provider, modelId) {
  if (!fns.resolveModelAsync) throw new Error("this release exports no resolveModelAsync");
  const agentDir = path.join(env.workspaceDir, "agent");
  const resolved = await fns.resolveModelAsync(provider, modelId, agentDir, config, { workspaceDir: env.workspaceDir });
  if (resolved?.model) return { model: resolved.model };
  return { error: String(resolved?.error?.message ?? resolved?.error ?? "no model resolved") };
}

// The parts of a resolved model object replay reads, for the reply.
export function modelSummary(model) {
  const { api, reasoning, input, compat, params, baseUrl } = model;
  return { api, reasoning, input, compat, params, baseUrl };
}

// `extra` merged over `base`: objects key by key, anything else replaced.
export function mergeConfig(base, extra) {
  if (!extra || typeof extra !== "object" || Array.isArray(extra)) return extra;
  const out = base && typeof base === "object" && !Array.isArray(base) ? { ...base } : {};
  for (const [key, value] of Object.entries(extra)) out[key] = mergeConfig(out[key], value);
  return out;
}

// One configuration object per distinct request `config`, so OpenClaw's caches keyed on the
// object keep working across requests.
const configs = new Map();
export function configFor(env, extra) {
  if (extra === undefined) return env.config;
  const key = JSON.stringify(extra);
  if (!configs.has(key)) configs.set(key, mergeConfig(env.config, extra));
  return configs.get(key);
}
