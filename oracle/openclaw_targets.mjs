#!/usr/bin/env node
// replaylens' target enumeration: every provider a user of the installed OpenClaw release can
// pick, read from the release itself, and the replay targets (provider, API, model) that tell
// its replay policies apart.
//
//   node openclaw_targets.mjs            the enumeration as JSON (see "Reply")
//   node openclaw_targets.mjs --summary  one line per provider, for people
//
// Sources, all from the installed packages (nothing here names a provider):
//   bundled     every dist/extensions/*/openclaw.plugin.json that lists `providers`
//   npm         every @openclaw/*-provider package installed beside openclaw (pinned in
//               package.json), and the stand-ins in ./plugins (see oracle/README.md)
//   clawhub     every `@openclaw/<name>-provider` package the release's dist/ names that is
//               neither bundled nor installed: its provider falls back to the unowned policy
//   apis        the release's model API vocabulary (MODEL_DATA_APIS in dist/), plus any API a
//               catalog declares
//
// Targets. For each provider, the APIs its catalogs declare (manifest `modelCatalog`, the
// runtime plugin's `staticCatalog`, `api: "…"` literals in its plugin files), or every API of
// the vocabulary when it declares none (the user configures it). For each such API the models
// of its catalogs plus one probe model per model family found across all catalogs (the first
// word of the id's last path segment: `claude`, `gemini`, `gpt`, …, with and without a vendor
// prefix). Every (provider, API, model) goes through `resolveTranscriptPolicy`; a provider keeps
// one target per distinct (API, policy, owning plugin). Unowned providers are represented by the
// provider id `custom-provider` on every API.
//
// Provider ids. Every id the release's catalog knows (manifest `providers`, `providerAuthAliases`,
// `cliBackends`, `modelCatalog` providers and aliases, the runtime registrations' `aliases` and
// `hookAliases`, the ClawHub-only names) goes through `resolveProviderRuntimePlugin` on every API
// with and without each probe model: the owning plugin and the registration it resolves to. An
// id owned only for some models (a hook alias reached through a plugin's `modelSupport`) records
// those model prefixes; an ownership no prefix rule explains stops the enumeration.
//
// Routes. APIs the release names as legacy (`LEGACY_…_API` constants; the doctor message
// says what replaces them) and providers whose stream is a bundled plugin surface the release
// does not ship (`loadBundledPluginPublicSurfaceModuleSync({dirName})` in `src/agents/*-stream`
// regions without `dist/extensions/<dirName>`): OpenClaw throws before sending.
//
// Reply: {version, apis: [...], providers: [{provider, plugin, origin, package?, apis, models}],
//         clawhubOnly: [{package, provider}], targets: [{provider, api, model, plugin, origin}],
//         ids: [{id, plugin, as, source, modelPlugin?, modelAs?}], modelPrefixes: {plugin: [...]},
//         noRoute: {apis: {api: why}, providers: {id: why}}}
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

import { DIST, OPENCLAW_DIR, loadEntryPoints, pluginPaths, runMain, writeOut } from "./oracle_common.mjs";

const ENTRY_POINTS = {
  resolveTranscriptPolicy: "function resolveTranscriptPolicy(",
  resolveProviderRuntimePlugin: "resolveProviderRuntimePlugin,",
};

// The provider id standing for "a provider no plugin owns" (a user's own endpoint).
export const UNOWNED_PROVIDER = "custom-provider";

function readJson(file) {
  return JSON.parse(fs.readFileSync(file, "utf8"));
}

// The release's model API vocabulary: the `MODEL_DATA_APIS = [...]` array in dist/.
function releaseApis() {
  for (const file of fs.readdirSync(DIST).filter((f) => f.endsWith(".mjs") || f.endsWith(".js"))) {
    const text = fs.readFileSync(path.join(DIST, file), "utf8");
    const m = text.match(/MODEL_DATA_APIS = \[([^\]]*)\]/);
    if (m) return [...m[1].matchAll(/"([^"]+)"/g)].map((x) => x[1]);
  }
  throw new Error(`${DIST}: cannot locate MODEL_DATA_APIS`);
}

// Every `@openclaw/<name>-provider` package name the release's dist/ mentions.
function namedProviderPackages() {
  const names = new Set();
  const walk = (dir) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(p);
      else if (/\.(m?js|json)$/.test(entry.name)) {
        for (const m of fs.readFileSync(p, "utf8").matchAll(/@openclaw\/([a-z0-9-]+)-provider\b/g)) names.add(m[1]);
      }
    }
  };
  walk(DIST);
  return [...names].sort();
}

// The plugin folders: bundled extensions, then external packages and stand-ins.
function pluginFolders(externalPaths) {
  const folders = [];
  const bundled = path.join(DIST, "extensions");
  for (const d of fs.readdirSync(bundled).sort()) folders.push({ dir: path.join(bundled, d), origin: "bundled" });
  for (const dir of externalPaths) {
    const pkg = path.join(dir, "package.json");
    const name = fs.existsSync(pkg) ? readJson(pkg).name : undefined;
    folders.push({ dir, origin: name?.startsWith("@openclaw/") ? "npm" : "stand-in", package: name });
  }
  return folders.filter((f) => fs.existsSync(path.join(f.dir, "openclaw.plugin.json")));
}

// `api: "…"` literals in a plugin's own files that name a known API.
function apiLiterals(dir, known) {
  const found = new Set();
  const walk = (d) => {
    for (const entry of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== "node_modules") walk(p);
      } else if (/\.m?js$/.test(entry.name)) {
        for (const m of fs.readFileSync(p, "utf8").matchAll(/\bapi:\s*"([a-z0-9-]+)"/g)) if (known.has(m[1])) found.add(m[1]);
      }
    }
  };
  walk(dir);
  return found;
}

// Catalog entries `{providers: {id: {api, models}}}` or `{provider: {api, models}}` as
// [provider id | null, api, models].
function catalogEntries(catalog) {
  if (!catalog || typeof catalog !== "object") return [];
  if (catalog.providers) return Object.entries(catalog.providers).map(([id, c]) => [id, c?.api, c?.models ?? []]);
  if (catalog.provider) return [[null, catalog.provider.api, catalog.provider.models ?? []]];
  return [];
}

async function staticCatalog(plugin, config) {
  const fn = plugin?.staticCatalog;
  if (!fn) return null;
  try {
    return typeof fn === "function" ? await fn({ config, env: {} }) : await fn.run?.({ config, env: {} });
  } catch {
    return null;
  }
}

// The model-family probe ids: one per first word of the last path segment, across all
// catalogs, plus the first vendor-prefixed id per family.
function probeModels(allModelIds) {
  const byKey = new Map();
  for (const id of [...allModelIds].sort()) {
    const last = id.split("/").pop().toLowerCase();
    const word = last.match(/^[a-z]+/)?.[0];
    if (!word) continue;
    const key = `${id.includes("/") ? "prefixed:" : ""}${word}`;
    if (!byKey.has(key)) byKey.set(key, id);
  }
  return [...byKey.values()];
}

// `const LEGACY_…_API = "…"` ids outside the vocabulary, with the doctor's message for each.
function legacyApis(known) {
  const found = {};
  for (const file of fs.readdirSync(DIST).filter((f) => f.endsWith(".mjs") || f.endsWith(".js"))) {
    const text = fs.readFileSync(path.join(DIST, file), "utf8");
    for (const m of text.matchAll(/const LEGACY_[A-Z0-9_]+_API = "([a-z0-9-]+)"/g)) {
      if (known.has(m[1])) continue;
      const quoted = text.match(new RegExp(`message: ("${m[1]} is legacy(?:[^"\\\\]|\\\\.)*")`))?.[1];
      if (quoted || !found[m[1]]) found[m[1]] = quoted ? JSON.parse(quoted) : `${m[1]} is a legacy API id`;
    }
  }
  return found;
}

// Stream facades loaded from a bundled plugin surface that dist/extensions does not hold.
function missingStreamSurfaces() {
  const found = {};
  for (const file of fs.readdirSync(DIST).filter((f) => f.endsWith(".mjs") || f.endsWith(".js"))) {
    const text = fs.readFileSync(path.join(DIST, file), "utf8");
    for (const region of text.split("//#region ").slice(1)) {
      if (!/^src\/agents\/[a-z0-9-]+-stream\.ts/.test(region)) continue;
      for (const m of region.matchAll(/loadBundledPluginPublicSurfaceModuleSync\(\{\s*dirName: "([a-z0-9-]+)",\s*artifactBasename: "([^"]+)"/g)) {
        if (!fs.existsSync(path.join(DIST, "extensions", m[1]))) {
          found[m[1]] = `its stream is the bundled plugin surface ${m[1]}/${m[2]}, which the release does not ship`;
        }
      }
    }
  }
  return found;
}

// Every provider id a manifest names (providers, auth aliases, CLI backends, catalog ids).
function manifestIds(manifest) {
  const ids = [];
  const add = (list, source) => {
    for (const id of list) if (typeof id === "string" && id) ids.push([id, source]);
  };
  add(manifest.providers ?? [], "provider");
  add(Object.keys(manifest.providerAuthAliases ?? {}), "auth-alias");
  add(manifest.cliBackends ?? [], "cli-backend");
  add(Object.keys(manifest.modelCatalog?.providers ?? {}), "catalog");
  add(Object.keys(manifest.modelCatalog?.aliases ?? {}), "catalog-alias");
  return ids;
}

// The owner of `id` over every API, without a model and with each probe model: a plugin for
// any model, plus the plugin some models load (see "Provider ids"), checked by `modelLoads`.
function ownership(fns, env, id, apis, probes) {
  const seen = [];
  for (const api of apis) {
    for (const model of [undefined, ...probes]) {
      const p = fns.resolveProviderRuntimePlugin({ provider: id, modelApi: api, modelId: model, ...env });
      seen.push({ api, model, plugin: p?.pluginId ?? null, as: p?.id ?? null, registration: p });
    }
  }
  const base = seen.filter((s) => s.model === undefined);
  const plugins = new Set(base.map((s) => s.plugin));
  if (plugins.size !== 1) throw new Error(`${id}: owner depends on the API (${[...plugins].join(", ")})`);
  const entry = { id, plugin: base[0].plugin, as: base[0].as };
  const other = seen.find((s) => s.plugin !== entry.plugin);
  if (other) Object.assign(entry, { modelPlugin: other.plugin, modelAs: other.as });
  return { entry, seen, registrations: seen.map((s) => s.registration).filter(Boolean) };
}

// Whether `model` makes OpenClaw load `plugin` for the lookup (`resolveOwningPluginIdsForModelRef`):
// `vendor/…` loads the owner of `vendor`; a bare id loads the plugins whose `modelSupport`
// prefixes it starts with.
export function modelLoads(model, plugin, ownerOf, prefixesOf) {
  const m = model.trim();
  const slash = m.indexOf("/");
  if (slash !== -1) return ownerOf(m.slice(0, slash).trim().toLowerCase()) === plugin;
  return prefixesOf(plugin).some((p) => m.startsWith(p));
}

async function enumerate() {
  const { fns, version } = await loadEntryPoints(ENTRY_POINTS);
  const workspaceDir = fs.mkdtempSync(path.join(os.tmpdir(), "replaylens-targets-"));
  const config = { plugins: { load: { paths: pluginPaths(workspaceDir) } } };
  const apis = releaseApis();
  const known = new Set(apis);
  const folders = pluginFolders(config.plugins.load.paths);
  const named = new Map();
  const modelPrefixes = new Map();

  const providers = [];
  const installed = new Set();
  for (const folder of folders) {
    const manifest = readJson(path.join(folder.dir, "openclaw.plugin.json"));
    installed.add(path.basename(folder.dir).replace(/-provider$/, ""));
    if (folder.package) installed.add(folder.package.replace(/^@openclaw\//, "").replace(/-provider$/, ""));
    installed.add(manifest.id);
    for (const [id, source] of manifestIds(manifest)) if (!named.has(id)) named.set(id, source);
    if (manifest.modelSupport?.modelPrefixes?.length) modelPrefixes.set(manifest.id, manifest.modelSupport.modelPrefixes.map((p) => p.trim()));
    if (!Array.isArray(manifest.providers) || manifest.providers.length === 0) continue;
    const literals = apiLiterals(folder.dir, known);
    for (const provider of manifest.providers) {
      const plugin = fns.resolveProviderRuntimePlugin({ provider, config, workspaceDir, env: process.env });
      const declared = new Set();
      const models = [];
      const catalogs = [manifest.modelCatalog, await staticCatalog(plugin, config)];
      for (const catalog of catalogs) {
        for (const [id, api, list] of catalogEntries(catalog)) {
          if (id !== null && id !== provider) continue;
          if (api) declared.add(api);
          for (const m of list) {
            if (!m?.id) continue;
            const modelApi = m.api ?? api;
            if (modelApi) declared.add(modelApi);
            models.push({ id: m.id, api: modelApi ?? null });
          }
        }
      }
      for (const api of literals) declared.add(api);
      for (const api of declared) known.add(api);
      providers.push({
        provider,
        plugin: plugin?.pluginId ?? null,
        origin: folder.origin,
        ...(folder.package ? { package: folder.package } : {}),
        apis: [...declared].sort(),
        models,
      });
    }
  }
  const allApis = [...known];
  const clawhubOnly = namedProviderPackages()
    .filter((name) => !installed.has(name))
    .map((name) => ({ package: `@openclaw/${name}-provider`, provider: name }));

  const probes = probeModels(providers.flatMap((p) => p.models.map((m) => m.id)));
  const targets = [];
  const policyOf = (provider, api, model) =>
    JSON.stringify(fns.resolveTranscriptPolicy({ provider, modelApi: api, modelId: model, config, workspaceDir, env: process.env }));
  const add = (entry, candidates) => {
    const seen = new Set();
    for (const [api, model] of candidates) {
      const plugin = fns.resolveProviderRuntimePlugin({ provider: entry.provider, modelApi: api, modelId: model, config, workspaceDir, env: process.env });
      const key = `${api}\u0000${plugin?.pluginId ?? ""}\u0000${policyOf(entry.provider, api, model)}`;
      if (seen.has(key)) continue;
      seen.add(key);
      targets.push({ provider: entry.provider, api, model, plugin: plugin?.pluginId ?? null, origin: entry.origin });
    }
  };
  for (const entry of providers) {
    const candidates = [];
    const entryApis = entry.apis.length ? entry.apis : allApis;
    for (const api of entryApis) {
      const own = entry.models.filter((m) => (m.api ?? api) === api).map((m) => m.id);
      for (const model of [...own, ...probes]) candidates.push([api, model]);
    }
    add(entry, candidates);
  }
  const unowned = { provider: UNOWNED_PROVIDER, origin: "unowned" };
  add(unowned, allApis.flatMap((api) => probes.map((model) => [api, model])));
  for (const c of clawhubOnly) if (!named.has(c.provider)) named.set(c.provider, "clawhub-only");
  const ids = [];
  const checks = [];
  const env = { config, workspaceDir, env: process.env };
  const prefixesOf = (plugin) => modelPrefixes.get(plugin) ?? [];
  const queue = [...named.keys()];
  while (queue.length) {
    const id = queue.shift();
    const { entry, seen, registrations } = ownership(fns, env, id, allApis, probes);
    ids.push({ ...entry, source: named.get(id) });
    if (entry.modelPlugin) checks.push({ entry, seen });
    for (const r of registrations) {
      for (const [list, source] of [[r.aliases, "alias"], [r.hookAliases, "hook-alias"]]) {
        for (const alias of list ?? []) {
          if (named.has(alias)) continue;
          named.set(alias, source);
          queue.push(alias);
        }
      }
    }
  }
  const owners = new Map(ids.map((e) => [e.id, e.plugin]));
  const ownerOf = (id) => owners.get(id) ?? null;
  for (const { entry, seen } of checks) {
    for (const s of seen.filter((x) => x.model !== undefined)) {
      const want = modelLoads(s.model, entry.modelPlugin, ownerOf, prefixesOf) ? entry.modelPlugin : entry.plugin;
      if (s.plugin !== want) throw new Error(`${entry.id} on ${s.api}: model ${s.model} resolves to ${s.plugin}, the model rule says ${want}`);
    }
  }
  ids.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const noRoute = { apis: legacyApis(new Set(allApis)), providers: missingStreamSurfaces() };
  return { openclaw: OPENCLAW_DIR, version, apis: allApis.sort(), providers, clawhubOnly, probes, targets, ids, modelPrefixes: Object.fromEntries([...modelPrefixes].sort()), noRoute };
}

async function main() {
  const result = await enumerate();
  if (process.argv.includes("--summary")) {
    for (const p of result.providers) {
      const n = result.targets.filter((t) => t.provider === p.provider).length;
      writeOut(`${p.provider.padEnd(22)} ${p.origin.padEnd(8)} plugin ${String(p.plugin).padEnd(18)} ${n} targets  apis ${p.apis.join(",") || "(any)"}\n`);
    }
    writeOut(`clawhub-only: ${result.clawhubOnly.map((c) => c.provider).join(", ")}\n`);
    writeOut(`${result.providers.length} providers, ${result.targets.length} targets\n`);
    return;
  }
  writeOut(JSON.stringify(result, null, 2) + "\n");
}

runMain("openclaw_targets", main);
