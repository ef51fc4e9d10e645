//! A server's request put to the agent whose call it serves ([`super::agent_relay`]) passes the
//! gate as it does for the person: received and answered on the audit log (source `server`, by
//! [`super::from_server`]), and a policy rule denying the server's requests refuses it; no rule
//! asks the person, since the agent, not the person, gives the answer (the decision row says
//! `answeredBy: agent` and the client's name). `roots/list` has no rule of its own (the host
//! answers it without one too).

use std::sync::Arc;

use gatehouse_mcp::error::RpcError;
use gatehouse_mcp::peer::Withdrawal;
use serde_json::{Value, json};

use super::agent_relay::AgentAnswers;
use super::person::{ServerAsk, refusal};

impl ServerAsk<'_> {
    /// Puts the request to the agent instead of the person: the server's deny rules hold, the
    /// agent's answer is on record.
    pub(super) async fn relay(
        &self,
        agent: Arc<dyn AgentAnswers>,
        params: Option<Value>,
        withdrawal: Withdrawal,
    ) -> Result<Value, RpcError> {
        let sampling = self.method == "sampling/createMessage";
        if self.method != "roots/list"
            && let Some(reason) = self.denied_by_policy().await?
        {
            return refusal(sampling, &reason);
        }
        let client = agent.client().to_owned();
        let answer = agent.ask(self.method, params, withdrawal).await;
        let why = match &answer {
            Ok(_) => format!("answered by the agent `{client}`"),
            Err(e) => format!("the agent `{client}` gave no answer: {}", e.message),
        };
        self.record(answer.is_ok(), "agent", &why, json!({ "client": client }))
            .await?;
        answer
    }
}
