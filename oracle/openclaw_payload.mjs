#!/usr/bin/env node
// replaylens' wire oracle: the conversation part of the request body OpenClaw's own transports
// build for a message array, from the published npm package pinned in package.json.
//
//   node openclaw_payload.mjs --info           version, entry points, the route of every API
//   node openclaw_payload.mjs --jsonl          one request per stdin line -> one reply per line
//   node openclaw_payload.mjs REQUEST.json     one request -> one reply (pretty-printed)
//
// Request: {id?, messages: [...AgentMessage], provider, api, model,
//           thinkingLevel?: "off"|"minimal"|"low"|"medium"|"high"|"xhigh"   (default "medium"),
//           cacheRetention?: "none"|"short"|"long"                            (default "short"),
//           convertToLlm?: bool                                              (default true),
//           modelFields?: {...}   (merged over the model object below, e.g. {input: ["text"]}),
//           capture?: "onPayload"  (the params object instead of the sent body, see CAPTURE),
//           sessionId?, authProfileId?  (as the runner passes them; Responses reasoning replay
//                                        only keeps encrypted_content recorded under the same
//                                        provider/api/model/baseUrl/session/auth-profile hashes),
//           config?: {...}        (merged over the oracle's own configuration, as in
//                                  openclaw_chain.mjs; the stream is picked under it),
//           resolveModel?: bool   (the model object is the one OpenClaw's resolveModelAsync
//                                  resolves from that configuration instead of the one below;
//                                  `modelFields` still merge over it)}
// Reply:   {id?, api, payload: {messages|input|contents: [...]}, route: {...}, capture}
//          or {id?, error: "..."}
//
// The messages are expected to be the replay projection (OpenClaw's hygiene chain already run,
// see openclaw_chain.mjs). What this script adds is what happens on the live request:
//
//   1. the agent loop's own message step: `openclaw:turn-aborted` custom messages become user
//      messages (agent-core normalizeCoreContextMessages, copied: not exported), then
//      convertToLlm (session-*.mjs, the real function): compactionSummary / branchSummary /
//      bashExecution / custom -> user messages; only user, assistant, toolResult go on;
//   2. stream selection exactly as the embedded runner's prepareEmbeddedAttemptTransport:
//      registerProviderStreamForModel (provider plugin createStreamFn, e.g. Google) then
//      resolveEmbeddedAgentStream (anthropic-vertex, native Codex, boundary-aware OpenClaw
//      transports, else the session's default stream = the pi-ai API registry);
//   3. for the providers in WRAPPED_PROVIDERS only, the provider plugin's wrapStreamFn around
//      that stream, as applyExtraParamsToAgent does (the other runner wrappers are not run);
//   4. the chosen stream function, called with a dummy API key, the thinking level and an
//      onPayload callback; the request body is captured and never sent (see "capture").
//
// No system prompt and no tools are passed (context = {messages}); no transport needed tools to
// convert the conversation.
//
// THE MODEL OBJECT (deterministic; these are the fields a transport reads while converting):
//   {id: model, name: model, provider, api,
//    baseUrl: provider openai + api openai-chatgpt-responses -> CODEX_BASE_URL, else
//             DEFAULT_BASE_URLS[provider] ?? FALLBACK_BASE_URLS[api] ?? CUSTOM_BASE_URL,
//    reasoning: true, input: ["text", "image"],
//    contextWindow: 200000, maxTokens: 8192,
//    cost: {input: 0, output: 0, cacheRead: 0, cacheWrite: 0}}
// No `compat`, `params`, `thinkingLevelMap` or `headers`: OpenAI-compatible compat is then
// detected from provider + baseUrl, as for a catalog model without overrides.
// Fields that change the conversion (mirror them on the Rust side):
//   provider, api, id   same-model test (thinking/signature/tool-id handling), Claude/Gemini
//                        model families, per-provider id rules (openai, mistral, github-copilot)
//   input               "image" absent -> images become text placeholders
//   reasoning           completions reasoning_content / developer role; Responses reasoning
//   baseUrl             completions compat detection (openrouter, native OpenAI, local servers),
//                        Anthropic long cache TTL, Azure client kind
//   contextWindow/maxTokens  only max_tokens (not in the payload shown)
//
// CAPTURE. A fetch that records the body and answers HTTP 400 is installed as the transport
// host's model fetch (`buildModelFetch`, used by every @openclaw/ai transport and the Mistral
// SDK) and as globalThis.fetch; the reply's `capture` says which copy is shown:
//   "fetch"      the JSON body exactly as sent (after post-onPayload steps such as the
//                Responses image sanitizer and the Mistral SDK's camelCase -> snake_case);
//   "onPayload"  the params object handed to onPayload, for routes whose fetch is not the host
//                port (Google plugin transport, pi-ai Codex stream): the callback throws there,
//                so the request is never built further.
// As a backstop every socket connection and DNS lookup in this process is refused.
//
// Environment: OPENCLAW_DIR overrides the openclaw package folder (default:
// ./node_modules/openclaw beside this file).
import dns from "node:dns";
import fs from "node:fs";
import { createRequire } from "node:module";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import tls from "node:tls";

import {
  DIST,
  OPENCLAW_DIR,
  configFor,
  importFile,
  loadEntryPoints,
  pluginPaths,
  resolveConfiguredModel,
  runMain,
  serve,
  toStderr,
  writeOut,
} from "./oracle_common.mjs";

// The request settings are the ones a request names (or the defaults below), not the caller's.
delete process.env.OPENCLAW_CACHE_RETENTION;

// ---- no network, whatever a code path tries -------------------------------------------------
const NETWORK_OFF = "replaylens oracle: network access is disabled in this process";
function refuse() {
  process.stderr.write(`openclaw_payload: refused a network connection attempt\n`);
  throw new Error(NETWORK_OFF);
}
net.Socket.prototype.connect = refuse;
net.connect = refuse;
net.createConnection = refuse;
tls.connect = refuse;
dns.lookup = (_host, opts, cb) => {
  process.stderr.write(`openclaw_payload: refused a DNS lookup\n`);
  (typeof opts === "function" ? opts : cb)?.(new Error(NETWORK_OFF));
};
dns.promises.lookup = async () => refuse();

const DUMMY_API_KEY = "replaylens-oracle-dummy-key";
// The ChatGPT-login (Codex) stream reads the account id out of its OAuth token: an unsigned
// token carrying only that claim.
const DUMMY_CODEX_TOKEN = [
  { alg: "none", typ: "JWT" },
  { "https://api.openai.com/auth": { chatgpt_account_id: "replaylens-oracle" } },
].map((part) => Buffer.from(JSON.stringify(part)).toString("base64url")).join(".") + ".oracle";

function dummyApiKey(model) {
  return model.provider === "openai" && model.api === "openai-chatgpt-responses" ? DUMMY_CODEX_TOKEN : DUMMY_API_KEY;
}

// Errors that are answers (no converter, bad request), reported without a stack.
class OracleError extends Error {}
const DEFAULT_THINKING_LEVEL = "medium"; // OpenClaw's DEFAULT_THINKING_LEVEL for a new session
const REQUEST_TIMEOUT_MS = 30000;

// Provider default base URLs, from the bundled plugin manifests (modelCatalog.providers.*.baseUrl)
// and provider constants of openclaw 2026.9.6.
const DEFAULT_BASE_URLS = {
  anthropic: "https://api.anthropic.com",
  openai: "https://api.openai.com/v1",
  "azure-openai-responses": "https://example-resource.openai.azure.com/openai/v1",
  google: "https://generativelanguage.googleapis.com/v1beta",
  // the Google plugin's Vertex catalog (the transport fills {location} in when sending)
  "google-vertex": "https://{location}-aiplatform.googleapis.com",
  "google-gemini-cli": "https://generativelanguage.googleapis.com/v1beta", // the google provider's templates
  mistral: "https://api.mistral.ai/v1",
  openrouter: "https://openrouter.ai/api/v1",
  "amazon-bedrock": "https://bedrock-runtime.us-east-1.amazonaws.com",
  xai: "https://api.x.ai/v1",
  together: "https://api.together.xyz/v1",
  nvidia: "https://integrate.api.nvidia.com/v1",
  huggingface: "https://router.huggingface.co/v1",
  "github-copilot": "https://api.individual.githubcopilot.com",
  vllm: "http://127.0.0.1:8000/v1",
  sglang: "http://127.0.0.1:30000/v1",
  lmstudio: "http://localhost:1234/v1",
  litellm: "http://localhost:4000",
  ollama: "http://127.0.0.1:11434",
};
// The native Codex backend for the ChatGPT-login Responses API of provider openai.
const CODEX_BASE_URL = "https://chatgpt.com/backend-api/codex";
// Providers without a default above: the API's own public endpoint where it has one ...
const FALLBACK_BASE_URLS = {
  "anthropic-messages": "https://api.anthropic.com",
  "google-generative-ai": "https://generativelanguage.googleapis.com/v1beta",
  "google-vertex": "https://{location}-aiplatform.googleapis.com",
  "mistral-conversations": "https://api.mistral.ai/v1",
  "bedrock-converse-stream": "https://bedrock-runtime.us-east-1.amazonaws.com",
  "azure-openai-responses": "https://example-resource.openai.azure.com/openai/v1",
};
// ... else (OpenAI-compatible custom providers) an address of no known endpoint class.
const CUSTOM_BASE_URL = "https://llm.example.com/v1";

const CONVERSATION_KEYS = {
  "google-generative-ai": "contents",
  "google-vertex": "contents",
  "openai-responses": "input",
  "openai-chatgpt-responses": "input",
  "azure-openai-responses": "input",
};
// The APIs replaylens shows, with the provider --info uses for each.
const INFO_TARGETS = [
  ["anthropic-messages", "anthropic", "claude-sonnet-4-6"],
  ["openai-completions", "openrouter", "anthropic/claude-sonnet-4.6"],
  ["openai-responses", "openai", "gpt-5.2"],
  ["openai-chatgpt-responses", "openai", "gpt-5.2-codex"],
  ["azure-openai-responses", "azure-openai-responses", "gpt-5.2"],
  ["google-generative-ai", "google", "gemini-2.5-pro"],
  ["google-vertex", "google-vertex", "gemini-2.5-pro"],
  ["google-vertex", "vllm", "gemini-2.5-pro"],
  ["google-generative-ai", "google-gemini-cli", "gemini-2.5-pro"],
  ["google-gemini-cli", "google-gemini-cli", "gemini-2.5-pro"],
  ["anthropic-messages", "github-copilot", "claude-sonnet-4.6"],
  ["openai-responses", "github-copilot", "gpt-5.4"],
  ["openai-completions", "github-copilot", "gemini-2.5-pro"],
  ["github-copilot", "github-copilot", "gpt-5.4"],
  ["bedrock-converse-stream", "amazon-bedrock", "us.anthropic.claude-sonnet-4-5-20250929-v1:0"],
  ["mistral-conversations", "mistral", "devstral-medium-2507"],
];
// API ids the release no longer routes (it has no converter for them), with the reason.
const LEGACY_APIS = {
  "openai-codex-responses": "legacy API id, `openclaw doctor --fix` migrates it to openai-chatgpt-responses",
  "google-gemini-cli":
    "not a model API of this release: provider google-gemini-cli models are built from the Google plugin's templates with api google-generative-ai (no Cloud Code Assist transport ships)",
  "github-copilot":
    "accepted in config (MODEL_APIS) but no stream is registered for it: the Copilot catalog puts Claude on anthropic-messages, Gemini on openai-completions, GPT on openai-responses",
};
// Providers whose plugin wrapStreamFn rewrites the conversation part of the body, so the oracle
// runs it (step 3): github-copilot strips assistant thinking and re-allocates tool ids on
// anthropic-messages, drops replay-less reasoning items and rehashes connection-bound item ids
// on openai-responses (extensions/github-copilot/stream.js, connection-bound-ids.js).
const WRAPPED_PROVIDERS = new Set(["github-copilot"]);

function conversationKey(api) {
  return CONVERSATION_KEYS[api] ?? "messages";
}

function buildModel(req) {
  const { provider, api, model: id } = req;
  const baseUrl =
    provider === "openai" && api === "openai-chatgpt-responses"
      ? CODEX_BASE_URL
      : (DEFAULT_BASE_URLS[provider] ?? FALLBACK_BASE_URLS[api] ?? CUSTOM_BASE_URL);
  return {
    id,
    name: id,
    provider,
    api,
    baseUrl,
    reasoning: true,
    input: ["text", "image"],
    contextWindow: 200000,
    maxTokens: 8192,
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
    ...(req.modelFields && typeof req.modelFields === "object" ? req.modelFields : {}),
  };
}

// ---- locating the functions in the hashed dist/ chunks --------------------------------------
const ENTRY_POINTS = {
  registerProviderStreamForModel: "function registerProviderStreamForModel(",
  resolveEmbeddedAgentStream: "function resolveEmbeddedAgentStream(",
  bindStreamLlmRuntime: "function bindStreamLlmRuntime(",
  convertToLlm: "function convertToLlm(",
  resolveAgentReasoningOption: "function resolveAgentReasoningOption(",
  configureAiTransportRuntimeHost: "function configureAiTransportRuntimeHost(",
  transformTransportMessages: "function transformTransportMessages(",
  // defined inside the plugin loader's bindings, exported by the chunk that destructures them
  resolveProviderRuntimePlugin: "resolveProviderRuntimePlugin,",
  // The embedded runner's model resolution (src/agents/embedded-agent-runner/model.ts).
  resolveModelAsync: "async function resolveModelAsync(",
};

// Definitions named in --info (which file of which package holds the converter).
const CONVERTER_DEFINITIONS = {
  createAnthropicMessagesTransportStreamFn: "function createAnthropicMessagesTransportStreamFn(",
  buildAnthropicParams: "async function buildAnthropicParams(",
  convertAnthropicMessages: "async function convertAnthropicMessages(",
  createOpenAICompletionsTransportStreamFn: "function createOpenAICompletionsTransportStreamFn(",
  buildOpenAICompletionsParams: "function buildOpenAICompletionsParams(",
  "convertMessages (chat completions)": "function convertMessages(model, context, compat",
  createOpenAIResponsesTransportStreamFn: "function createOpenAIResponsesTransportStreamFn(",
  createAzureOpenAIResponsesTransportStreamFn: "function createAzureOpenAIResponsesTransportStreamFn(",
  buildOpenAIResponsesParams: "function buildOpenAIResponsesParams(",
  convertResponsesMessagesWithStyle: "function convertResponsesMessagesWithStyle(",
  streamSimpleOpenAICodexResponses: "const streamSimpleOpenAICodexResponses =",
  "buildRequestBody (codex)": "function buildRequestBody(model, context, options, replayMode",
  createGoogleGenerativeAiTransportStreamFn: "function createGoogleGenerativeAiTransportStreamFn(",
  createGoogleVertexTransportStreamFn: "function createGoogleVertexTransportStreamFn(",
  buildGoogleGenerativeAiParams: "function buildGoogleGenerativeAiParams(",
  projectGoogleMessages: "function projectGoogleMessages(",
  streamSimpleGoogleVertex: "const streamSimpleGoogleVertex =",
  buildGoogleGenerateContentParams: "function buildGoogleGenerateContentParams(",
  "convertMessages (google-shared, signed-parts replay)": "function convertMessages(model, context) {\n\treturn projectGoogleMessages(",
  streamSimpleMistral: "const streamSimpleMistral =",
  toChatMessages: "function toChatMessages(",
  transformProviderMessages: "function transformProviderMessages(",
  "transformMessages (pi-ai)": "function transformMessages(messages, model, normalizeToolCallId)",
  "transformTransportMessages (OpenClaw host)": "function transformTransportMessages(messages, model, normalizeToolCallId, options) {\n\tconst allow",
};

// The functions each route goes through, outermost first (names of CONVERTER_DEFINITIONS).
function converterChain(strategy, api) {
  const hostTransform = "transformTransportMessages (OpenClaw host)";
  const piTransform = ["transformProviderMessages", "transformMessages (pi-ai)"];
  if (strategy === "boundary-aware:anthropic-messages") return ["createAnthropicMessagesTransportStreamFn", "buildAnthropicParams", hostTransform, "convertAnthropicMessages"];
  if (strategy === "boundary-aware:openai-completions") return ["createOpenAICompletionsTransportStreamFn", "buildOpenAICompletionsParams", "convertMessages (chat completions)", ...piTransform];
  const google = ["buildGoogleGenerativeAiParams", hostTransform, "projectGoogleMessages"];
  if (strategy === "provider" && api === "google-vertex") return ["createGoogleVertexTransportStreamFn", ...google];
  if ((strategy === "provider" || strategy === "boundary-aware:google-generative-ai") && api === "google-generative-ai") return ["createGoogleGenerativeAiTransportStreamFn", ...google];
  if (strategy === "boundary-aware:azure-openai-responses") return ["createAzureOpenAIResponsesTransportStreamFn", "buildOpenAIResponsesParams", "convertResponsesMessagesWithStyle", hostTransform];
  if (strategy.startsWith("boundary-aware:")) return ["createOpenAIResponsesTransportStreamFn", "buildOpenAIResponsesParams", "convertResponsesMessagesWithStyle", hostTransform];
  if (strategy === "openclaw-native-codex-responses") return ["streamSimpleOpenAICodexResponses", "buildRequestBody (codex)", "convertResponsesMessagesWithStyle", ...piTransform];
  if (api === "mistral-conversations") return ["streamSimpleMistral", ...piTransform, "toChatMessages"];
  // Providers other than google / google-vertex have no Vertex stream of their own: the
  // registry's built-in provider converts with google-shared's convertMessages
  // (transformProviderMessages, then projectGoogleMessages in its signed-parts replay).
  if (strategy === "session-custom" && api === "google-vertex")
    return ["streamSimpleGoogleVertex", "buildGoogleGenerateContentParams", "convertMessages (google-shared, signed-parts replay)", ...piTransform, "projectGoogleMessages"];
  return [];
}

function locateDefinitions(dirs) {
  const found = {};
  for (const dir of dirs) {
    for (const file of fs.readdirSync(dir).filter((f) => f.endsWith(".mjs"))) {
      const text = fs.readFileSync(path.join(dir, file), "utf8");
      for (const [name, definition] of Object.entries(CONVERTER_DEFINITIONS)) {
        if (!found[name] && text.includes(definition)) found[name] = path.relative(path.dirname(OPENCLAW_DIR), path.join(dir, file));
      }
    }
  }
  return found;
}

async function loadOpenClaw() {
  const { fns, where, version } = await loadEntryPoints(ENTRY_POINTS);
  // Importing the runtime-host chunk configured the transport host (OpenClaw's
  // transformTransportMessages, Anthropic image normalization, ...); calling it again is a no-op.
  fns.configureAiTransportRuntimeHost();
  // @openclaw/ai as openclaw itself resolves it (one module instance, one transport host).
  const req = createRequire(path.join(DIST, "index.js"));
  const aiFiles = {
    ai: req.resolve("@openclaw/ai"),
    providers: req.resolve("@openclaw/ai/providers"),
    transports: req.resolve("@openclaw/ai/transports"),
  };
  const ai = await importFile(aiFiles.ai);
  const providers = await importFile(aiFiles.providers);
  const transports = await importFile(aiFiles.transports);
  const aiVersion = JSON.parse(fs.readFileSync(path.join(path.dirname(path.dirname(aiFiles.ai)), "package.json"), "utf8")).version;
  return { fns, where, version, aiVersion, ai, providers, transports, aiDist: path.dirname(aiFiles.ai) };
}

// ---- capture --------------------------------------------------------------------------------
let activeCapture; // one request at a time

async function readBody(input, init) {
  let body = init?.body;
  if (body === undefined && input instanceof Request) body = await input.clone().text();
  if (body === undefined || body === null) return undefined;
  if (typeof body === "string") return body;
  if (body instanceof Uint8Array || body instanceof ArrayBuffer) return Buffer.from(body).toString("utf8");
  return await new Response(body).text();
}

async function capturingFetch(input, init) {
  const capture = activeCapture;
  // A request of a stream that outlived its deadline (its signal is aborted) is not recorded.
  if (capture && capture.fetchBody === undefined && !init?.signal?.aborted) {
    try {
      capture.fetchBody = await readBody(input, init);
    } catch (e) {
      capture.fetchError = String(e?.message ?? e);
    }
  }
  return new Response(JSON.stringify({ error: { type: "invalid_request_error", message: "replaylens oracle: request captured, not sent" } }), {
    status: 400,
    headers: { "content-type": "application/json" },
  });
}

function installCapture(openclaw) {
  const { configureAiTransportHost, getAiTransportHost } = openclaw.ai;
  configureAiTransportHost({ ...getAiTransportHost(), buildModelFetch: () => capturingFetch });
  globalThis.fetch = capturingFetch;
}

// Routes whose requests go through the host's model fetch; on the others the onPayload
// callback stops the request. The boundary-aware Google route hands over to the Google
// plugin's own transport (its guarded fetch is not the host port).
function fetchIsHostPort(strategy, api) {
  if (strategy === "boundary-aware:google-generative-ai") return false;
  if (strategy.startsWith("boundary-aware:")) return true;
  return api === "mistral-conversations" && (strategy === "stream-simple" || strategy === "session-custom");
}

// ---- one request ----------------------------------------------------------------------------
function normalizeCoreContextMessages(messages) {
  // agent-core's normalizeCoreContextMessages (not exported): the turn-aborted marker is a user turn.
  return messages.map((message) =>
    message?.role === "custom" && message.customType === "openclaw:turn-aborted"
      ? { role: "user", content: typeof message.content === "string" ? [{ type: "text", text: message.content }] : message.content, timestamp: message.timestamp }
      : message,
  );
}

function createRuntime(openclaw) {
  const { createApiRegistry, createLlmRuntime } = openclaw.ai;
  const registry = createApiRegistry();
  openclaw.providers.registerBuiltInApiProviders(registry);
  const llmRuntime = createLlmRuntime(registry);
  // The session's default stream (resource-loader: auth, then llmRuntime.streamSimple).
  const sessionStreamFn = (model, context, options) => llmRuntime.streamSimple(model, context, { ...options, apiKey: options?.apiKey || DUMMY_API_KEY });
  openclaw.fns.bindStreamLlmRuntime(sessionStreamFn, llmRuntime);
  openclaw.fns.bindStreamLlmRuntime(llmRuntime.streamSimple, llmRuntime);
  return { registry, llmRuntime, sessionStreamFn };
}

function resolveRoute(openclaw, env, model) {
  const providerStreamFn = openclaw.fns.registerProviderStreamForModel({ model, cfg: env.config, workspaceDir: env.workspaceDir });
  const { streamFn, strategy } = openclaw.fns.resolveEmbeddedAgentStream({
    currentStreamFn: env.runtime.sessionStreamFn,
    providerStreamFn,
    model,
    resolvedApiKey: dummyApiKey(model),
    transportAuthAvailable: true,
  });
  let via;
  if (strategy === "provider") via = `provider plugin ${model.provider}: createStreamFn`;
  else if (strategy.startsWith("boundary-aware:")) via = `@openclaw/ai/transports createBoundaryAwareStreamFnForModel (${model.api})`;
  else {
    const registered = env.runtime.registry.getApiProvider(model.api);
    via = registered ? `pi-ai API registry: ${model.api} (registerBuiltInApiProviders)` : `pi-ai API registry: nothing registered for ${model.api}`;
  }
  const registered = strategy === "provider" || strategy.startsWith("boundary-aware:") || Boolean(env.runtime.registry.getApiProvider(model.api));
  const wrapped = registered && WRAPPED_PROVIDERS.has(model.provider) ? wrapProviderStream(openclaw, env, model, streamFn) : undefined;
  if (wrapped) via += `, wrapped by provider plugin ${model.provider}: wrapStreamFn`;
  return { streamFn: wrapped ?? streamFn, strategy, via, registered };
}

// The provider plugin's wrapStreamFn around the resolved stream, with the context
// applyExtraParamsToAgent gives it (no extra params); undefined when the plugin has none.
function wrapProviderStream(openclaw, env, model, streamFn) {
  const plugin = openclaw.fns.resolveProviderRuntimePlugin({ provider: model.provider, modelId: model.id, config: env.config, workspaceDir: env.workspaceDir });
  return (
    plugin?.wrapStreamFn?.({
      config: env.config,
      workspaceDir: env.workspaceDir,
      provider: model.provider,
      modelId: model.id,
      model,
      extraParams: {},
      streamFn,
    }) ?? undefined
  );
}

class StopAtPayload extends Error {
  constructor() {
    super("replaylens oracle: payload captured at onPayload, request stopped");
  }
}

async function buildPayload(openclaw, baseEnv, req) {
  if (!req || !Array.isArray(req.messages)) throw new OracleError("request needs a messages array");
  for (const key of ["provider", "api", "model"]) if (typeof req[key] !== "string" || !req[key]) throw new OracleError(`request needs a ${key} string`);
  const env = req.config === undefined ? baseEnv : { ...baseEnv, config: configFor(baseEnv, req.config) };
  let model = buildModel(req);
  if (req.resolveModel) {
    const found = await resolveConfiguredModel(openclaw.fns, env, env.config, req.provider, req.model);
    if (found.error) throw new OracleError(`no model resolved: ${found.error}`);
    model = { ...found.model, ...(req.modelFields && typeof req.modelFields === "object" ? req.modelFields : {}) };
    // The configured model's API is the one sent (the reply names it).
    req = { ...req, api: model.api };
  }
  const route = resolveRoute(openclaw, env, model);
  if (!route.registered) {
    const why = LEGACY_APIS[req.api] ? ` (${LEGACY_APIS[req.api]})` : "";
    throw new OracleError(`no converter for ${req.api} in openclaw ${openclaw.version}${why}`);
  }
  const thinkingLevel = req.thinkingLevel ?? DEFAULT_THINKING_LEVEL;
  let messages = normalizeCoreContextMessages(structuredClone(req.messages));
  if (req.convertToLlm !== false) messages = openclaw.fns.convertToLlm(messages);
  const stopAtOnPayload = !fetchIsHostPort(route.strategy, model.api);
  const capture = {};
  activeCapture = capture;
  const controller = new AbortController();
  let timer;
  const deadline = new Promise((_, reject) => {
    timer = setTimeout(() => {
      controller.abort(new Error("replaylens oracle: timed out"));
      reject(new OracleError(`no payload built: the stream did not end within ${REQUEST_TIMEOUT_MS} ms`));
    }, REQUEST_TIMEOUT_MS);
  });
  try {
    const options = {
      ...(typeof req.sessionId === "string" && req.sessionId ? { sessionId: req.sessionId } : {}),
      ...(typeof req.authProfileId === "string" && req.authProfileId ? { authProfileId: req.authProfileId } : {}),
      apiKey: dummyApiKey(model),
      reasoning: openclaw.fns.resolveAgentReasoningOption(model, thinkingLevel),
      thinkingLevel,
      cacheRetention: req.cacheRetention ?? "short",
      signal: controller.signal,
      onPayload: (params) => {
        if (capture.onPayload === undefined) capture.onPayload = structuredClone(params);
        if (stopAtOnPayload) throw new StopAtPayload();
        return undefined;
      },
    };
    let failure;
    const consume = async () => {
      const stream = await route.streamFn(model, { messages }, options);
      for await (const event of stream) if (event?.type === "error") failure = event.error?.errorMessage ?? failure;
    };
    await Promise.race([consume(), deadline]);
    if (req.capture === "onPayload" && capture.onPayload !== undefined) return done(req, route, "onPayload", capture.onPayload);
    if (capture.fetchBody !== undefined) {
      const body = JSON.parse(capture.fetchBody);
      return done(req, route, "fetch", body);
    }
    if (capture.onPayload !== undefined) return done(req, route, "onPayload", capture.onPayload);
    throw new OracleError(`no payload built: ${capture.fetchError ?? failure ?? "the stream ended without a request"}`);
  } finally {
    clearTimeout(timer);
    activeCapture = undefined;
  }
}

function done(req, route, capture, body) {
  const key = conversationKey(req.api);
  if (!Array.isArray(body?.[key])) throw new OracleError(`captured body has no ${key} array (keys: ${Object.keys(body ?? {}).join(", ")})`);
  return { api: req.api, payload: { [key]: body[key] }, route: { strategy: route.strategy, via: route.via }, capture };
}

async function info(openclaw, env) {
  const converters = locateDefinitions([openclaw.aiDist, DIST]);
  const routes = {};
  for (const [api, provider, model] of INFO_TARGETS) {
    const m = buildModel({ provider, api, model });
    const key = routes[api] ? `${api} (provider ${provider})` : api;
    try {
      const route = resolveRoute(openclaw, env, m);
      routes[key] = route.registered
        ? {
            provider,
            model,
            baseUrl: m.baseUrl,
            strategy: route.strategy,
            via: route.via,
            functions: converterChain(route.strategy, api).map((name) => `${name} @ ${converters[name] ?? "(not found)"}`),
            capture: fetchIsHostPort(route.strategy, api) ? "fetch" : "onPayload",
          }
        : {
            provider,
            model,
            strategy: route.strategy,
            error:
              `no converter for ${api} in openclaw ${openclaw.version}: ${route.via}` +
              (LEGACY_APIS[api] ? `; ${LEGACY_APIS[api]}` : "") +
              (api === "bedrock-converse-stream"
                ? "; the stream belongs to the amazon-bedrock provider plugin (createStreamFn), published on ClawHub only, and the stand-in in ./plugins registers its replay hooks only (oracle/README.md describes the conversion)"
                : ""),
          };
    } catch (e) {
      routes[key] = { provider, model, error: String(e?.message ?? e) };
    }
  }
  return {
    openclaw: OPENCLAW_DIR,
    version: openclaw.version,
    aiVersion: openclaw.aiVersion,
    entryPoints: openclaw.where,
    pluginPaths: env.config.plugins.load.paths,
    routes,
  };
}

async function main() {
  const args = process.argv.slice(2);
  const openclaw = await loadOpenClaw();
  installCapture(openclaw);
  const workspaceDir = fs.mkdtempSync(path.join(os.tmpdir(), "replaylens-oracle-"));
  const config = { plugins: { load: { paths: pluginPaths(workspaceDir) } } };
  const env = { config, workspaceDir, runtime: createRuntime(openclaw) };
  if (args.includes("--info")) {
    writeOut(JSON.stringify(await info(openclaw, env), null, 2) + "\n");
    return;
  }
  await serve(
    args,
    (req) => buildPayload(openclaw, env, req),
    (e) => (e instanceof OracleError ? e.message : String(e?.stack ?? e).split("\n").slice(0, 3).join(" | ")),
  );
}

// A stray rejection from a transport's background work must not end the process.
process.on("unhandledRejection", (e) => toStderr(`openclaw_payload: unhandled rejection: ${e?.message ?? e}`));

runMain("openclaw_payload", main);
