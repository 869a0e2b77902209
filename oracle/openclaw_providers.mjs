#!/usr/bin/env node
// replaylens' provider list: the enumeration of openclaw_targets.mjs reduced to what replaylens
// ships (src/policy/providers/openclaw-<version>.json): per provider its id, where its plugin
// comes from, the plugin that owns its replay policy, its APIs and one model per API; and the
// providers published on ClawHub only; every provider id and alias the release knows with the
// plugin that owns it (`ids`), the model prefixes that load a plugin for a hook alias
// (`modelPrefixes`), and the APIs and providers the release cannot route (`noRoute`). No catalog
// is copied beyond that one model.
//
//   node openclaw_providers.mjs                 run openclaw_targets.mjs, print the data file
//   node openclaw_providers.mjs ENUMERATION     read a saved `openclaw_targets.mjs` reply instead
//
// The model of a (provider, API): the provider's first catalog model on that API; else its
// first catalog model on any API; else the first catalog model any provider of the release
// lists for that API (or, for an API that carries another API's models, for that one: see
// CARRIES); else the release's first catalog model; else the enumeration's first probe. A provider whose catalogs declare no
// API (the user configures it) gets one model for every API of the release's vocabulary, and
// `apis: []`. Providers are sorted by id; the output is deterministic (one provider a line).
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

import { HERE, runMain, writeOut } from "./oracle_common.mjs";

// APIs no catalog declares models for that carry the models of another API: the Responses
// variants carry OpenAI's, Bedrock Converse carries Anthropic's (what its policy keys on).
const CARRIES = {
  "azure-openai-responses": "openai-responses",
  "openai-chatgpt-responses": "openai-responses",
  "bedrock-converse-stream": "anthropic-messages",
};

function enumeration() {
  const file = process.argv[2];
  if (file) return JSON.parse(fs.readFileSync(file, "utf8"));
  const script = path.join(HERE, "openclaw_targets.mjs");
  const out = execFileSync(process.execPath, [script], { maxBuffer: 1 << 28, stdio: ["ignore", "pipe", "inherit"] });
  return JSON.parse(out.toString("utf8"));
}

// The first catalog model per API across every provider, in enumeration order.
function releaseModels(providers) {
  const byApi = new Map();
  for (const p of providers) {
    for (const m of p.models) {
      const api = m.api ?? p.apis[0];
      if (api && !byApi.has(api)) byApi.set(api, m.id);
    }
  }
  return byApi;
}

function reduce(e) {
  const fallback = releaseModels(e.providers);
  const first = e.providers.flatMap((p) => p.models)[0]?.id ?? e.probes[0];
  const providers = e.providers.map((p) => {
    const apis = p.apis.length ? p.apis : e.apis;
    const models = apis.map((api) => {
      const own = p.models.find((m) => (m.api ?? api) === api) ?? p.models[0];
      return [api, own?.id ?? fallback.get(api) ?? fallback.get(CARRIES[api]) ?? first];
    });
    return {
      id: p.provider,
      origin: p.origin,
      plugin: p.plugin,
      ...(p.package ? { package: p.package } : {}),
      apis: p.apis,
      models,
    };
  });
  providers.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const clawhubOnly = e.clawhubOnly.map((c) => c.provider).sort();
  const ids = e.ids.map(({ id, plugin, as, source, modelPlugin, modelAs }) => ({
    id,
    plugin,
    as,
    source,
    ...(modelPlugin ? { modelPlugin, modelAs } : {}),
  }));
  return { openclaw: e.version, apis: [...e.apis].sort(), providers, clawhubOnly, ids, modelPrefixes: e.modelPrefixes, noRoute: e.noRoute };
}

// Pretty enough to review in a diff: one provider a line.
function render(data) {
  const line = (v) => JSON.stringify(v);
  return [
    "{",
    `  "openclaw": ${line(data.openclaw)},`,
    `  "apis": ${line(data.apis)},`,
    `  "providers": [`,
    data.providers.map((p) => `    ${line(p)}`).join(",\n"),
    "  ],",
    `  "clawhubOnly": ${line(data.clawhubOnly)},`,
    `  "ids": [`,
    data.ids.map((p) => `    ${line(p)}`).join(",\n"),
    "  ],",
    `  "modelPrefixes": ${line(data.modelPrefixes)},`,
    `  "noRoute": ${line(data.noRoute)}`,
    "}",
    "",
  ].join("\n");
}

async function main() {
  writeOut(render(reduce(enumeration())));
}

runMain("openclaw_providers", main);
