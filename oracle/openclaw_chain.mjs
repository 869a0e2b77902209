#!/usr/bin/env node
// replaylens' differential oracle: OpenClaw's own replay-hygiene chain, from the published npm
// package pinned in package.json, with its provider plugins loaded the way the runtime loads
// them (config `plugins.load.paths`).
//
//   node openclaw_chain.mjs --info            version, entry points, plugin folders
//   node openclaw_chain.mjs --jsonl           one request per stdin line -> one reply per line
//   node openclaw_chain.mjs REQUEST.json      one request -> one reply (pretty-printed)
//
// Request: {id?, messages: [...], provider, api, model, tools?: [names], policyOnly?: bool}
// Reply:   {id?, version, policy: {...}, plugin: "<plugin id>" | null, messages: [...]}
//          or {id?, error: "..."}
//
// The chain is what the embedded runner's `prepareEmbeddedAttemptHistory` does to the stored
// history before a model call, minus history limiting, heartbeat filtering and the context
// engine (not transcript hygiene):
//
//   policy    = resolveTranscriptPolicy(ctx)                (once per attempt, as the runtime)
//   sanitized = sanitizeSessionHistory({...ctx, messages, allowedToolNames, sessionManager})
//   validated = validateReplayTurns({...ctx, messages: sanitized})
//   history   = policy.repairToolUseResultPairing
//                 ? sanitizeToolUseResultPairingForModel(validated, isResponsesApi) : validated
//
// Stream-time steps (trailing prefill strip, Bedrock user-turn merge, transport conversion) run
// later, on the live context; replaylens shows them as a separate stage and this oracle checks
// the history stage.
//
// Environment: OPENCLAW_DIR overrides the openclaw package folder (default:
// ./node_modules/openclaw beside this file).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import readline from "node:readline";
import { fileURLToPath, pathToFileURL } from "node:url";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const OPENCLAW_DIR = path.resolve(process.env.OPENCLAW_DIR || path.join(HERE, "node_modules", "openclaw"));
const DIST = path.join(OPENCLAW_DIR, "dist");

// stdout carries the protocol; OpenClaw's own logging goes to stderr.
process.env.OPENCLAW_LOG_LEVEL ??= "error";
const writeOut = process.stdout.write.bind(process.stdout);
const toStderr = (...a) => process.stderr.write(a.map(String).join(" ") + "\n");
console.log = toStderr;
console.info = toStderr;
console.debug = toStderr;

// The dist chunks have hashed names; each function is found by its definition and the
// chunk's export list, so the script survives re-bundling.
const ENTRY_POINTS = {
  sanitizeSessionHistory: "async function sanitizeSessionHistory(",
  validateReplayTurns: "async function validateReplayTurns(",
  sanitizeToolUseResultPairingForModel: "function sanitizeToolUseResultPairingForModel(",
  resolveTranscriptPolicy: "function resolveTranscriptPolicy(",
  resolveProviderRuntimePlugin: "resolveProviderRuntimePlugin,",
};

function locateEntryPoints() {
  const found = {};
  for (const file of fs.readdirSync(DIST).filter((f) => f.endsWith(".mjs"))) {
    const text = fs.readFileSync(path.join(DIST, file), "utf8");
    for (const [name, definition] of Object.entries(ENTRY_POINTS)) {
      if (found[name] || !text.includes(definition)) continue;
      const exportList = [...text.matchAll(/export\s*\{([^}]*)\}/g)].pop();
      if (!exportList) continue;
      for (const item of exportList[1].split(",")) {
        const [local, alias] = item.trim().split(/\s+as\s+/);
        if (local === name) found[name] = { file, export: (alias ?? local).trim() };
      }
    }
  }
  const missing = Object.keys(ENTRY_POINTS).filter((n) => !found[n]);
  if (missing.length) throw new Error(`${DIST}: cannot locate ${missing.join(", ")}`);
  return found;
}

async function loadOpenClaw() {
  if (!fs.existsSync(DIST)) throw new Error(`${OPENCLAW_DIR} has no dist/ (run npm ci in ${HERE})`);
  const where = locateEntryPoints();
  const fns = {};
  for (const [name, { file, export: alias }] of Object.entries(where)) {
    const mod = await import(pathToFileURL(path.join(DIST, file)).href);
    if (typeof mod[alias] !== "function") throw new Error(`${file}: export ${alias} is not ${name}`);
    fns[name] = mod[alias];
  }
  const { version } = JSON.parse(fs.readFileSync(path.join(OPENCLAW_DIR, "package.json"), "utf8"));
  return { fns, where, version };
}

// External provider plugins: every npm-published @openclaw/*-provider installed beside
// openclaw, plus the stand-ins in ./plugins for plugins that are not on npm.
function pluginPaths() {
  const paths = [];
  const scope = path.join(path.dirname(OPENCLAW_DIR), "@openclaw");
  if (fs.existsSync(scope)) {
    for (const d of fs.readdirSync(scope).sort()) {
      const dir = path.join(scope, d);
      if (d.endsWith("-provider") && fs.existsSync(path.join(dir, "openclaw.plugin.json"))) paths.push(fs.realpathSync(dir));
    }
  }
  const standIns = path.join(HERE, "plugins");
  if (fs.existsSync(standIns)) for (const d of fs.readdirSync(standIns).sort()) paths.push(path.join(standIns, d));
  return paths;
}

function isResponsesApi(api) {
  return api === "openai-responses" || api === "openai-chatgpt-responses" || api === "azure-openai-responses";
}

// A session manager holding no entries: custom entries the chain appends (model snapshot,
// Google's bootstrap marker) go to a throw-away list.
function emptySessionManager() {
  const entries = [];
  return {
    getEntries: () => [...entries],
    getBranch: () => [...entries],
    appendCustomEntry: (customType, data) => entries.push({ type: "custom", customType, data }),
  };
}

async function runChain(openclaw, env, req) {
  if (!req || !Array.isArray(req.messages)) throw new Error("request needs a messages array");
  const { fns } = openclaw;
  const provider = req.provider ?? "";
  const base = { provider, modelApi: req.api, modelId: req.model, config: env.config, workspaceDir: env.workspaceDir, env: process.env };
  const plugin = provider ? fns.resolveProviderRuntimePlugin({ ...base, modelId: req.model }) : undefined;
  const policy = fns.resolveTranscriptPolicy(base);
  const reply = { version: openclaw.version, policy, plugin: plugin?.pluginId ?? null };
  if (req.policyOnly) return reply;
  const ctx = { ...base, model: undefined, sessionId: "replaylens-oracle", policy };
  const sanitized = await fns.sanitizeSessionHistory({
    ...ctx,
    messages: structuredClone(req.messages),
    allowedToolNames: Array.isArray(req.tools) ? new Set(req.tools) : undefined,
    sessionManager: emptySessionManager(),
  });
  const validated = await fns.validateReplayTurns({ ...ctx, messages: sanitized });
  reply.messages = policy.repairToolUseResultPairing
    ? fns.sanitizeToolUseResultPairingForModel(validated, isResponsesApi(req.api))
    : validated;
  return reply;
}

async function main() {
  const args = process.argv.slice(2);
  const openclaw = await loadOpenClaw();
  const config = { plugins: { load: { paths: pluginPaths() } } };
  const workspaceDir = fs.mkdtempSync(path.join(os.tmpdir(), "replaylens-oracle-"));
  const env = { config, workspaceDir };
  if (args.includes("--info")) {
    writeOut(JSON.stringify({ openclaw: OPENCLAW_DIR, version: openclaw.version, entryPoints: openclaw.where, pluginPaths: config.plugins.load.paths }, null, 2) + "\n");
    return;
  }
  const handle = async (line) => {
    let req;
    try {
      req = JSON.parse(line);
    } catch (e) {
      return { error: `request is not JSON: ${e.message}` };
    }
    const id = req?.id !== undefined ? { id: req.id } : {};
    try {
      return { ...id, ...(await runChain(openclaw, env, req)) };
    } catch (e) {
      return { ...id, error: String(e?.stack ?? e).split("\n").slice(0, 3).join(" | ") };
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

main().then(
  // Exit only once stdout is flushed: a reply over the pipe buffer would be cut otherwise.
  () => process.stdout.write("", () => process.exit(process.exitCode ?? 0)),
  (e) => {
    process.stderr.write(`openclaw_chain: ${e?.stack ?? e}\n`);
    process.exit(2);
  },
);
