// Stand-in for the amazon-bedrock provider plugin, which is not on npm (ClawHub only).
// Upstream registers the provider with the SDK's ANTHROPIC_BY_MODEL_REPLAY_HOOKS and no
// sanitizeReplayHistory / validateReplayTurns hooks; this registers exactly those replay
// hooks, taken from the installed OpenClaw's own plugin SDK, and nothing else.
import { definePluginEntry } from "openclaw/plugin-sdk/plugin-entry";
import { ANTHROPIC_BY_MODEL_REPLAY_HOOKS } from "openclaw/plugin-sdk/provider-model-shared";

export default definePluginEntry({
  id: "amazon-bedrock",
  name: "Amazon Bedrock (replaylens oracle stand-in)",
  description: "Replay policy of the amazon-bedrock provider plugin",
  register(api) {
    api.registerProvider({
      id: "amazon-bedrock",
      label: "Amazon Bedrock",
      docsPath: "/providers/models",
      auth: [],
      ...ANTHROPIC_BY_MODEL_REPLAY_HOOKS,
    });
  },
});
