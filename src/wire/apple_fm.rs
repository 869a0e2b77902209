//! Apple Foundation Models (provider `apple-fm`): the bundled plugin's own transport.
//!
//! OpenClaw 2026.9.6's `apple-fm` plugin registers a `createStreamFn` that takes over every
//! request of the provider, whatever API its model names: it builds
//! `{systemPrompt, messages: context.messages, tools, maxTokens, …}` and hands it to the
//! on-device bridge, which converts for the framework itself. `context.messages` are the agent's
//! messages after `convertToLlm` ([`super::llm_messages`]) with no transport transform: no id
//! normalisation, no failed-turn dropping, no synthetic results. The conversation shown is that
//! `messages` array, each message as it is.

use super::{WireInput, WireItem};
use crate::model::json::Value;

/// The `messages` the plugin hands to the bridge: every input message unchanged.
pub fn convert(inputs: &[WireInput]) -> Vec<WireItem> {
    inputs
        .iter()
        .map(|input| WireItem {
            value: Value::Object(input.message.as_map().clone()),
            source: input.source.clone(),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use crate::json;
    use crate::model::Message;
    use crate::wire::{WireApi, WireModel, build};

    #[test]
    fn apple_fm_sends_the_messages_as_they_are_whatever_the_api() {
        assert_eq!(
            WireApi::for_target("apple-fm", "anthropic-messages"),
            Some(WireApi::AppleFm)
        );
        assert_eq!(
            WireApi::for_target("anthropic", "anthropic-messages"),
            Some(WireApi::AnthropicMessages)
        );
        let stored = [
            json!({"role": "user", "content": "hi", "timestamp": 1}),
            json!({"role": "assistant", "content": [], "stopReason": "error", "timestamp": 2}),
            json!({"role": "toolResult", "toolCallId": "call_1|fc_2", "content": "x", "timestamp": 3}),
        ];
        let owned: Vec<Message> = stored.iter().filter_map(|m| Message::from_value(m.clone())).collect();
        let refs: Vec<&Message> = owned.iter().collect();
        let model = WireModel::new("apple-fm", "anthropic-messages", "apple-foundation");
        let body = build(WireApi::AppleFm, &refs, &model).body();
        assert_eq!(body, json!({"messages": stored}));
    }
}
