// The Call form of one tool: fields generated from its input schema, a progress bar and Cancel
// while the call runs, then its result.

import Form from "@rjsf/core";
import { useMemo } from "react";
import type { ToolInfo } from "../api/gatehouse";
import { useToolCall } from "../hooks/useToolCall";
import { formSchema } from "../model/toolSchemaValidator";
import { CallProgressBar } from "./CallProgressBar";
import { CallResult } from "./CallResult";

type ToolCallPanelProps = { serverId: string; tool: ToolInfo };

export function ToolCallPanel({ serverId, tool }: ToolCallPanelProps) {
  const { schema, validator } = useMemo(() => formSchema(tool.inputSchema), [tool.inputSchema]);
  const { state, call, cancel } = useToolCall(serverId, tool.name);
  const running = state.phase === "running";
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
    </div>
  );
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
