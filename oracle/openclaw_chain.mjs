#!/usr/bin/env node
// replaylens' differential oracle: OpenClaw's own replay-hygiene chain, from the published npm
// package pinned in package.json, with its provider plugins loaded the way the runtime loads
// them (config `plugins.load.paths`).
//
//   node openclaw_chain.mjs --info            version, entry points, plugin folders
//   node openclaw_chain.mjs --jsonl           one request per stdin line -> one reply per line
//   node openclaw_chain.mjs REQUEST.json      one request -> one reply (pretty-printed)
//
// Request: {id?, messages: [...], provider, api, model, tools?: [names], policyOnly?: bool,
//          config?: {...}}
//          `config` is merged over the oracle's own configuration (objects merged key by key,
//          anything else replaced), so `{"plugins": {"load": {"paths": [...]}}}` chooses the
//          plugins loaded from paths (`--info` lists the default ones).
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

import { OPENCLAW_DIR, loadEntryPoints, pluginPaths, runMain, serve, writeOut } from "./oracle_common.mjs";

const ENTRY_POINTS = {
  sanitizeSessionHistory: "async function sanitizeSessionHistory(",
  validateReplayTurns: "async function validateReplayTurns(",
  sanitizeToolUseResultPairingForModel: "function sanitizeToolUseResultPairingForModel(",
  resolveTranscriptPolicy: "function resolveTranscriptPolicy(",
  resolveProviderRuntimePlugin: "resolveProviderRuntimePlugin,",
  // Releases up to 2026.8.x export no sanitizeToolUseResultPairingForModel: their runner's
  // local `repairAttemptToolUseResultPairing` calls this one with the options below.
  sanitizeToolUseResultPairing: "function sanitizeToolUseResultPairing(",
};
const OPTIONAL = new Set(["sanitizeToolUseResultPairingForModel", "sanitizeToolUseResultPairing"]);

async function loadOpenClaw() {
  const openclaw = await loadEntryPoints(ENTRY_POINTS, OPTIONAL);
  const { fns, where } = openclaw;
  if (!fns.sanitizeToolUseResultPairingForModel) {
    const pair = fns.sanitizeToolUseResultPairing;
    if (!pair) throw new Error("cannot locate sanitizeToolUseResultPairing(ForModel)");
    fns.sanitizeToolUseResultPairingForModel = (messages, isResponses) =>
      pair(messages, { erroredAssistantResultPolicy: "drop", ...(isResponses ? { missingToolResultText: "aborted" } : {}) });
    where.sanitizeToolUseResultPairingForModel = { emulated: "repairAttemptToolUseResultPairing: sanitizeToolUseResultPairing(messages, {erroredAssistantResultPolicy: \"drop\", …})" };
  }
  return openclaw;
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
function configFor(env, extra) {
  if (extra === undefined) return env.config;
  const key = JSON.stringify(extra);
  if (!configs.has(key)) configs.set(key, mergeConfig(env.config, extra));
  return configs.get(key);
}

async function runChain(openclaw, env, req) {
  if (!req || !Array.isArray(req.messages)) throw new Error("request needs a messages array");
  const { fns } = openclaw;
  const provider = req.provider ?? "";
  const config = configFor(env, req.config);
  const base = { provider, modelApi: req.api, modelId: req.model, config, workspaceDir: env.workspaceDir, env: process.env };
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
  const workspaceDir = fs.mkdtempSync(path.join(os.tmpdir(), "replaylens-oracle-"));
  const config = { plugins: { load: { paths: pluginPaths(workspaceDir) } } };
  const env = { config, workspaceDir };
  if (args.includes("--info")) {
    writeOut(JSON.stringify({ openclaw: OPENCLAW_DIR, version: openclaw.version, entryPoints: openclaw.where, pluginPaths: config.plugins.load.paths }, null, 2) + "\n");
    return;
  }
  await serve(args, (req) => runChain(openclaw, env, req));
}

runMain("openclaw_chain", main);
