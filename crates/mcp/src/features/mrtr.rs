//! Multi round-trip requests (2026-07-28 basic/patterns/mrtr): a `tools/call`, `prompts/get` or
//! `resources/read` may come back as `resultType: "input_required"` with `inputRequests`
//! (elicitation, sampling, roots) and an opaque `requestState`. Each input request goes to the
//! same handler that answers legacy server-initiated requests, all at once, each within the
//! scope of its key and round (`input_round`); the original request is then sent
//! again, with a new id, the answers under the same keys and the state echoed byte for byte.
//! A result without `resultType` is complete; one this request cannot have is refused by the
//! peer. Callers see one logical request, of at most 8 rounds. Only a first-round result is
//! cached, and a cached one is served while fresh.

use std::sync::Arc;

use serde_json::{Map, Value};

use crate::client::Client;
use crate::error::{McpError, Result};
use crate::features::input_round::{InputRound, answering};
use crate::peer::RequestOptions;

/// Rounds before a server that keeps asking is given up on.
const MAX_ROUNDS: usize = 8;

impl Client {
    /// Sends `method` and answers input requests until the result is complete.
    pub(crate) async fn request_completing_input(
        &self,
        method: &str,
        mut params: Map<String, Value>,
        options: RequestOptions,
    ) -> Result<Value> {
        let cacheable = crate::cache::is_cacheable(method);
        if cacheable
            && let Some(hit) = self
                .peer()
                .cache()
                .get(method, Some(&Value::Object(params.clone())))
        {
            return Ok(hit);
        }
        for _ in 0..MAX_ROUNDS {
            let sent = Value::Object(params.clone());
            let kept = cacheable.then(|| sent.clone());
            let result = self
                .peer()
                .request_with(method, Some(sent), options.clone())
                .await?;
            // The peer has refused any `resultType` this request cannot have (`peer::result_type`).
            if result.get("resultType").and_then(Value::as_str) != Some("input_required") {
                // Only a first-round result can be cached (a retry's depends on its answers).
                self.peer().cache().put(method, kept.as_ref(), &result);
                return Ok(result);
            }
            match result.get("inputRequests").and_then(Value::as_object) {
                Some(requests) => {
                    let responses = self.answer_input_requests(requests).await?;
                    params.insert("inputResponses".into(), Value::Object(responses));
                }
                None => {
                    params.remove("inputResponses");
                }
            }
            // Echo the state exactly, and never invent one (the MRTR client requirements).
            match result.get("requestState") {
                Some(state) => params.insert("requestState".into(), state.clone()),
                None => params.remove("requestState"),
            };
        }
        Err(McpError::InvalidResponse {
            method: method.to_owned(),
            message: format!("the server still wanted input after {MAX_ROUNDS} rounds"),
        })
    }

    /// Answers the input requests with the connection's handler, all at once, keyed as the
    /// server keyed them; each is answered within the scope of its key and round
    /// (`input_round`), so that a handler relaying them can keep both.
    pub(crate) async fn answer_input_requests(
        &self,
        requests: &Map<String, Value>,
    ) -> Result<Map<String, Value>> {
        let handler = self.peer().handler();
        let round = Arc::new(InputRound::new(requests.len()));
        let answers = requests.iter().map(|(key, request)| {
            let method = request
                .get("method")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_owned();
            let answer = handler.on_request(method.clone(), request.get("params").cloned());
            let round = round.clone();
            async move {
                let answer = answering(key, &round, answer).await;
                (key, method, answer)
            }
        });
        let mut responses = Map::new();
        for (key, method, answer) in futures_util::future::join_all(answers).await {
            let answer = answer.map_err(|error| McpError::Rpc {
                method,
                error: Box::new(error),
                http_status: None,
            })?;
            responses.insert(key.clone(), answer);
        }
        Ok(responses)
    }
}
