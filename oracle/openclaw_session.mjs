#!/usr/bin/env node
// replaylens' loader oracle: OpenClaw's own session codec, from the plugin SDK of the release
// pinned in package.json (`dist/plugin-sdk/agent-sessions.js`), over a JSONL file or over the
// rows OpenClaw's own SQLite transcript reader returns from a per-agent database.
//
//   node openclaw_session.mjs --info           version and entry points
//   node openclaw_session.mjs --schema         the release's agent database DDL (stdout, SQL)
//   node openclaw_session.mjs --jsonl          one request per stdin line -> one reply per line
//   node openclaw_session.mjs REQUEST.json     one request -> one reply (pretty-printed)
//
// Request: {id?, path}           a session JSONL file (archived names such as
//                                `<id>.jsonl.reset.<ts>` included: OpenClaw reads them with the
//                                same codec)
//          {id?, path, session}  a session (`transcript_events.session_id`) of an
//                                `openclaw-agent.sqlite` database; `{id?, path, sessions: true}`
//                                lists the database's session ids instead
// Reply:   {id?, version, messages, thinkingLevel, model, provider, modelId, api, counts}
//          ({id?, version, sessions} for a listing) or {id?, error}
//
// A database is opened read-only with `node:sqlite` and read by the release's
// `ReadOnlySqliteTranscriptReader` (doctor-session-sqlite-transcript-readers): every row of
// the session in `seq` order, its event JSON as the release's own `transcriptEventJsonSql`
// yields it (`event_json`, else `event_zstd` decoded by the release's registered decoder).
// Each row is one entry line for parseSessionEntries; from there on both inputs take the same
// path.
//
// What runs, in the SDK's order:
//   entries = parseSessionEntries(text)     (file read as UTF-8, as SessionManager reads it;
//                                            for a database, each row's event JSON)
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

import { DatabaseSync } from "node:sqlite";

import {
  DIST,
  OPENCLAW_DIR,
  importFile,
  loadEntryPoints,
  locateEntryPoints,
  runMain,
  serve,
  writeOut,
} from "./oracle_common.mjs";

const ENTRY_POINTS = {
  isTranscriptOnlyOpenClawAssistantMessage: "function isTranscriptOnlyOpenClawAssistantMessage(",
  ReadOnlySqliteTranscriptReader: "var ReadOnlySqliteTranscriptReader = class",
};

// The release's agent database DDL (`src/state/openclaw-agent-schema.ts`), a string constant.
const SCHEMA_CONSTANT = "const OPENCLAW_AGENT_SCHEMA_SQL = ";

async function agentSchemaSql() {
  const where = locateEntryPoints({ OPENCLAW_AGENT_SCHEMA_SQL: SCHEMA_CONSTANT });
  const { file, export: alias } = where.OPENCLAW_AGENT_SCHEMA_SQL;
  const sql = (await importFile(path.join(DIST, file)))[alias];
  if (typeof sql !== "string") throw new Error(`${file}: export ${alias} is not the agent schema`);
  return sql;
}

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

// The rows of one database session as OpenClaw's read-only transcript reader returns them
// (every row: both of its predicates accept everything), or the database's session ids.
function withDatabase(codec, file, use) {
  const db = new DatabaseSync(file, { readOnly: true });
  try {
    return use(new codec.fns.ReadOnlySqliteTranscriptReader(db));
  } finally {
    db.close();
  }
}

function databaseEntries(codec, req) {
  const snapshot = withDatabase(codec, req.path, (reader) =>
    reader.repairSnapshot(req.session, () => true, () => true),
  );
  if (!snapshot.ok) throw snapshot.error;
  return snapshot.rows.flatMap((row) => codec.sdk.parseSessionEntries(row.eventJson));
}

function readSession(codec, req) {
  if (!req || typeof req.path !== "string") throw new Error("request needs a path");
  const { sdk, fns } = codec;
  if (req.sessions === true) {
    return { version: codec.version, sessions: withDatabase(codec, req.path, (reader) => reader.sessionIds()) };
  }
  const transcriptOnly = fns.isTranscriptOnlyOpenClawAssistantMessage;
  const entries =
    typeof req.session === "string"
      ? databaseEntries(codec, req)
      : sdk.parseSessionEntries(fs.readFileSync(req.path, "utf8"));
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
  if (args.includes("--schema")) {
    writeOut(await agentSchemaSql());
    return;
  }
  await serve(args, (req) => readSession(codec, req));
}

runMain("openclaw_session", main);
