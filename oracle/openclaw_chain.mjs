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
//          config?: {...}, resolveModel?: bool}
//          `config` is merged over the oracle's own configuration (objects merged key by key,
//          anything else replaced), so `{"plugins": {"load": {"paths": [...]}}}` chooses the
//          plugins loaded from paths (`--info` lists the default ones).
//          `resolveModel` (the user's configuration replayed, as `replaylens --config` does):
//          the model object is resolved from that configuration by OpenClaw's own
//          `resolveModelAsync` (catalog merged with `models.providers`), and the policy and the
//          chain receive it as the runner's `model`; the request's `api` is then the model's.
// Reply:   {id?, version, policy: {...}, plugin: "<plugin id>" | null, messages: [...],
//          model?: {api, reasoning, input, compat, params, baseUrl} | modelError?: "..."}
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

import { OPENCLAW_DIR, loadEntryPoints, configFor, modelSummary, pluginPaths, resolveConfiguredModel, runMain, serve, writeOut } from "./oracle_common.mjs";

const ENTRY_POINTS = {
  sanitizeSessionHistory: "async function sanitizeSessionHistory(",
  validateReplayTurns: "async function validateReplayTurns(",
  sanitizeToolUseResultPairingForModel: "function sanitizeToolUseResultPairingForModel(",
  resolveTranscriptPolicy: "function resolveTranscriptPolicy(",
  resolveProviderRuntimePlugin: "resolveProviderRuntimePlugin,",
  // Releases up to 2026.8.x export no sanitizeToolUseResultPairingForModel: their runner's
  // local `repairAttemptToolUseResultPairing` calls this one with the options below.
  sanitizeToolUseResultPairing: "function sanitizeToolUseResultPairing(",
  // The embedded runner's model resolution (src/agents/embedded-agent-runner/model.ts).
  resolveModelAsync: "async function resolveModelAsync(",
};
const OPTIONAL = new Set(["sanitizeToolUseResultPairingForModel", "sanitizeToolUseResultPairing", "resolveModelAsync"]);

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

async function runChain(openclaw, env, req) {
  if (!req || !Array.isArray(req.messages)) throw new Error("request needs a messages array");
  const { fns } = openclaw;
  const provider = req.provider ?? "";
  const config = configFor(env, req.config);
  let model;
  const extra = {};
  if (req.resolveModel) {
    const found = await resolveConfiguredModel(fns, env, config, provider, req.model);
    model = found.model;
    if (found.error) extra.modelError = found.error;
    else extra.model = modelSummary(model);
  }
  const modelApi = model?.api ?? req.api;
  const base = { provider, modelApi, modelId: req.model, model, config, workspaceDir: env.workspaceDir, env: process.env };
  const plugin = provider ? fns.resolveProviderRuntimePlugin({ ...base, modelId: req.model }) : undefined;
  const policy = fns.resolveTranscriptPolicy(base);
  const reply = { version: openclaw.version, policy, plugin: plugin?.pluginId ?? null, ...extra };
  if (req.policyOnly) return reply;
  const ctx = { ...base, sessionId: "replaylens-oracle", policy };
  const sanitized = await fns.sanitizeSessionHistory({
    ...ctx,
    messages: structuredClone(req.messages),
    allowedToolNames: Array.isArray(req.tools) ? new Set(req.tools) : undefined,
    sessionManager: emptySessionManager(),
  });
  const validated = await fns.validateReplayTurns({ ...ctx, messages: sanitized });
  reply.messages = policy.repairToolUseResultPairing
    ? fns.sanitizeToolUseResultPairingForModel(validated, isResponsesApi(modelApi))
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
