#!/usr/bin/env node
// replaylens' loader oracle: OpenClaw's own JSONL session codec, from the plugin SDK of the
// release pinned in package.json (`dist/plugin-sdk/agent-sessions.js`).
//
//   node openclaw_session.mjs --info           version and entry points
//   node openclaw_session.mjs --jsonl          one request per stdin line -> one reply per line
//   node openclaw_session.mjs REQUEST.json     one request -> one reply (pretty-printed)
//
// Request: {id?, path}  (a session JSONL file, archived names such as `<id>.jsonl.reset.<ts>`
//                        included: OpenClaw reads them with the same codec)
// Reply:   {id?, version, messages, thinkingLevel, model, provider, modelId, api, counts}
//          or {id?, error}
//
// What runs, in the SDK's order:
//   entries = parseSessionEntries(text)     (file read as UTF-8, as SessionManager reads it)
//   migrateSessionEntries(entries)          (v1/v2 -> current: ids, parents, hookMessage)
//   ctx     = buildSessionContext(entries)  (active branch, leaf controls, compaction or
//                                            reset window, latest thinking level and model)
//
// `messages` and `thinkingLevel` are `ctx`'s. `model` is `ctx.model` as OpenClaw reports it
// ({provider, modelId} of the last `model_change` or assistant turn on the branch, or null).
// `provider`/`modelId`/`api` are the model the next call would use: the same
// buildSessionContext run over entries in which OpenClaw's own transcript-only predicate
// (`isTranscriptOnlyOpenClawAssistantMessage`: delivery mirrors, gateway-injected rows) turns
// those rows into `label` entries, which keep their place in the tree but never set the model
// (OpenClaw's session-store derivation, `extractTranscriptUsageSnapshot`, skips them the same
// way). The API is carried through that run inside the model id, so it is the `api` of the very
// assistant turn OpenClaw picked (null when a `model_change` set the model: it records none).
import fs from "node:fs";
import path from "node:path";

import { DIST, OPENCLAW_DIR, loadEntryPoints, runMain, serve, writeOut } from "./oracle_common.mjs";

const ENTRY_POINTS = {
  isTranscriptOnlyOpenClawAssistantMessage: "function isTranscriptOnlyOpenClawAssistantMessage(",
};

async function loadCodec() {
  const sdkFile = path.join(DIST, "plugin-sdk", "agent-sessions.js");
  const sdk = await import(sdkFile);
  for (const name of ["parseSessionEntries", "migrateSessionEntries", "buildSessionContext"]) {
    if (typeof sdk[name] !== "function") throw new Error(`${sdkFile} exports no ${name}`);
  }
  const found = await loadEntryPoints(ENTRY_POINTS);
  return { sdk, sdkFile, ...found };
}

const isObject = (v) => v !== null && typeof v === "object" && !Array.isArray(v);

// The entries with transcript-only assistant rows made into labels and every model id
// carrying its API, so that buildSessionContext's own choice names the API too.
function targetEntries(entries, transcriptOnly) {
  return entries.map((entry) => {
    if (!isObject(entry)) return entry;
    if (entry.type === "model_change") return { ...entry, modelId: JSON.stringify([entry.modelId ?? null, null]) };
    if (entry.type !== "message" || !isObject(entry.message) || entry.message.role !== "assistant") return entry;
    if (transcriptOnly(entry.message)) {
      const { message: _message, ...rest } = entry;
      return { ...rest, type: "label" };
    }
    const m = entry.message;
    return { ...entry, message: { ...m, model: JSON.stringify([m.model ?? null, m.api ?? null]) } };
  });
}

function decodeTarget(model) {
  if (!model) return { provider: null, modelId: null, api: null };
  let modelId = null;
  let api = null;
  try {
    [modelId, api] = JSON.parse(model.modelId);
  } catch {
    modelId = model.modelId ?? null;
  }
  return { provider: model.provider ?? null, modelId, api };
}

function counts(entries, ctx, transcriptOnly) {
  const c = { entries: 0, messageEntries: 0, transcriptOnly: 0, contextMessages: ctx.messages.length };
  for (const e of entries) {
    if (!isObject(e) || e.type === "session") continue;
    c.entries += 1;
    if (e.type === "message" && isObject(e.message)) {
      c.messageEntries += 1;
      if (transcriptOnly(e.message)) c.transcriptOnly += 1;
    }
  }
  return c;
}

function readSession(codec, req) {
  if (!req || typeof req.path !== "string") throw new Error("request needs a path");
  const { sdk, fns } = codec;
  const transcriptOnly = fns.isTranscriptOnlyOpenClawAssistantMessage;
  const text = fs.readFileSync(req.path, "utf8");
  const entries = sdk.parseSessionEntries(text);
  sdk.migrateSessionEntries(entries);
  const ctx = sdk.buildSessionContext(structuredClone(entries));
  const target = decodeTarget(sdk.buildSessionContext(targetEntries(entries, transcriptOnly)).model);
  return {
    version: codec.version,
    messages: ctx.messages,
    thinkingLevel: ctx.thinkingLevel,
    model: ctx.model,
    ...target,
    counts: counts(entries, ctx, transcriptOnly),
  };
}

async function main() {
  const args = process.argv.slice(2);
  const codec = await loadCodec();
  if (args.includes("--info")) {
    const info = { openclaw: OPENCLAW_DIR, version: codec.version, sdk: codec.sdkFile, entryPoints: codec.where };
    writeOut(JSON.stringify(info, null, 2) + "\n");
    return;
  }
  await serve(args, (req) => readSession(codec, req));
}

runMain("openclaw_session", main);
