// The Call form of one tool: fields generated from its input schema, a progress bar and Cancel
// while the call runs, then its result, and for a tool with a UI resource its app below it. The
// form is rjsf's (`@rjsf/core`) with the validator of model/toolSchemaValidator. This module,
// with the form library and its validator, is loaded the first time a tool's Call button is used.

import Form from "@rjsf/core";
import { useMemo } from "react";
import type { ToolInfo } from "../api/gatehouse";
import { useToolCall } from "../hooks/useToolCall";
import type { ToolCallState } from "../hooks/useToolCall";
import { formSchema } from "../model/toolSchemaValidator";
import { toolResourceUri } from "../model/toolUi";
import type { AppCall } from "./apps/AppPanel";
import { ToolAppViews } from "./apps/ToolAppViews";
import { CallProgressBar } from "./CallProgressBar";
import { CallResult } from "./CallResult";

type ToolCallPanelProps = { serverId: string; tool: ToolInfo };

export function ToolCallPanel({ serverId, tool }: ToolCallPanelProps) {
  const { schema, validator } = useMemo(() => formSchema(tool.inputSchema), [tool.inputSchema]);
  const { state, call, cancel } = useToolCall(serverId, tool.name);
  const running = state.phase === "running";
  const uri = toolResourceUri(tool);
  const appCall = useMemo(() => appCallOf(state), [state]);
  return (
    <div className="tool-call-panel" data-testid="tool-call-panel">
      <Form
        schema={schema}
        validator={validator}
        idPrefix={`call-${tool.name}`}
        disabled={running}
        showErrorList={false}
        onSubmit={({ formData }) => call(isRecord(formData) ? formData : {})}
      >
        <button type="submit" className="button button-small" data-testid="tool-call-submit" disabled={running}>
          Call
        </button>
      </Form>
      {state.phase === "running" && (
        <CallProgressBar
          progress={state.progress}
          taskStatus={state.taskStatus}
          cancelling={state.cancelling}
          onCancel={cancel}
        />
      )}
      {state.phase === "done" && <CallResult result={state.result} />}
      {state.phase === "failed" && (
        <p className="form-error" role="alert" data-testid="call-failed">
          The call failed: {state.error}
        </p>
      )}
      {uri !== null && <ToolAppViews serverId={serverId} tool={tool} uri={uri} call={appCall} />}
    </div>
  );
}

/** A finished call as its app view gets it; null while none has finished (or one runs). */
function appCallOf(state: ToolCallState): (AppCall & { key: string }) | null {
  if (state.phase === "done") {
    const { result, callId, args } = state;
    if (result.cancelled) return { key: callId, input: args, outcome: { kind: "cancelled", reason: "The call was cancelled." } };
    const toolResult = {
      // The content blocks cross IPC as MCP spells them.
      content: result.content as CallToolResultContent,
      ...(result.structuredContent !== null && { structuredContent: result.structuredContent as Record<string, unknown> }),
      isError: result.isError,
    };
    return { key: callId, input: args, outcome: { kind: "result", result: toolResult } };
  }
  if (state.phase === "failed") {
    const { error, callId, args } = state;
    return { key: callId, input: args, outcome: { kind: "cancelled", reason: `The call failed: ${error}` } };
  }
  return null;
}

type CallToolResultContent = Extract<AppCall["outcome"], { kind: "result" }>["result"]["content"];

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
