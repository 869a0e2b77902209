// The mistral provider's replay policy alone, for OpenClaw 2026.8.1-2026.9.3: those releases
// bundle no mistral plugin, and the only npm build (@openclaw/mistral-provider 2026.9.5)
// imports SDK functions they lack. The policy is the one that build registers
// (dist/index.js: buildReplayPolicy); nothing else of the provider matters to the chain.
import { definePluginEntry } from "openclaw/plugin-sdk/plugin-entry";

export default definePluginEntry({
  id: "mistral",
  name: "Mistral (replay policy only)",
  description: "Replay policy of @openclaw/mistral-provider, for releases that cannot load it",
  register(api) {
    api.registerProvider({
      id: "mistral",
      label: "Mistral",
      docsPath: "/providers/models",
      auth: [],
      buildReplayPolicy: () => ({ sanitizeToolCallIds: true, toolCallIdMode: "strict9" }),
    });
  },
});
