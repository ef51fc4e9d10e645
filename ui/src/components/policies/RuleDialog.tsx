// Adding or editing a rule: the server (or every server), an optional tool, an optional
// argument condition (a JSON Pointer, a glob or regex, and whether the value must fall outside
// it), the source it is for (or every source) and, for the gateway, the one client it is for (or
// every agent), and the decision. Editing adds the changed rule first and then removes the old
// one, so a rule the engine refuses leaves the old one in place. The engine's message is shown
// as is.

import * as RadioGroup from "@radix-ui/react-radio-group";
import { useMutation } from "@tanstack/react-query";
import { useId, useState } from "react";
import type { Effect, RuleInput, RuleView, ServerPolicyView, Source } from "../../api/gatehouse";
import * as api from "../../api/gatehouse";
import { errorMessage } from "../../api/GatehouseError";
import { Dialog } from "../Dialog";
import { useDefinitions, useRefreshPolicy } from "./policyQueries";

type RuleDialogProps = {
  servers: ServerPolicyView[];
  /** The rule being edited; none to add one. */
  editing: RuleView | null;
  onClose: () => void;
};

type PatternKind = "glob" | "regex";

const SOURCES: readonly [Source, string][] = [
  ["user", "Your own calls"],
  ["app", "MCP App views"],
  ["server", "Servers' own requests"],
  ["model", "A chat model"],
  ["gateway", "Agents through the gateway"],
];

const EFFECTS: readonly [Effect, string, string][] = [
  ["allow", "Allow", "without asking"],
  ["ask", "Ask", "each time"],
  ["deny", "Deny", "refuse, even your own calls"],
];

export function RuleDialog({ servers, editing, onClose }: RuleDialogProps) {
  const ids = { server: useId(), tool: useId(), pointer: useId(), pattern: useId(), tools: useId(), source: useId(), client: useId() };
  const [server, setServer] = useState(editing?.serverId ?? servers[0]?.serverId ?? "");
  const [tool, setTool] = useState(editing?.tool ?? "");
  const [withArgument, setWithArgument] = useState((editing?.argument ?? null) !== null);
  const [pointer, setPointer] = useState(editing?.argument?.pointer ?? "");
  const [kind, setKind] = useState<PatternKind>(editing?.argument?.pattern.kind ?? "glob");
  const [pattern, setPattern] = useState(editing?.argument?.pattern.pattern ?? "");
  const [outside, setOutside] = useState(editing?.argument?.outside === true);
  const [decision, setDecision] = useState<Effect>(editing?.decision ?? "ask");
  const [source, setSource] = useState<Source | "">(editing?.source ?? "");
  const [client, setClient] = useState(editing?.client ?? "");
  const definitions = useDefinitions(server);
  const refresh = useRefreshPolicy();
  const toolNames = [...new Set((definitions.data ?? []).map((d) => d.tool))];

  const input = (): RuleInput => ({
    server: server === "" ? null : server,
    tool: tool.trim() === "" ? null : tool.trim(),
    argument: withArgument ? { pointer: pointer.trim(), pattern: { kind, pattern }, outside } : null,
    decision,
    source: source === "" ? null : source,
    client: source === "gateway" && client.trim() !== "" ? client.trim() : null,
  });
  const save = useMutation({
    mutationFn: async (rule: RuleInput) => {
      const added = await api.policyAddRule(rule);
      if (editing !== null) await api.policyRemoveRule(editing.id);
      return added;
    },
    onSuccess: onClose,
    onSettled: refresh,
  });
  const localProblem =
    withArgument && tool.trim() === ""
      ? "An argument rule is about one tool: name the tool."
      : server === "" && tool.trim() !== ""
        ? "A rule for a tool must name its server."
        : null;

  return (
    <Dialog title={editing === null ? "Add rule" : "Edit rule"} onClose={onClose} size="large" testId="rule-dialog">
      <form
        className="server-form"
        onSubmit={(e) => {
          e.preventDefault();
          if (localProblem === null) save.mutate(input());
        }}
      >
        <div className="form-body">
          <div className="field">
            <label className="field-label" htmlFor={ids.server}>
              Server
            </label>
            <select id={ids.server} className="input" value={server} onChange={(e) => setServer(e.target.value)} data-autofocus data-testid="rule-server">
              <option value="">Every server (global default)</option>
              {servers.map((s) => (
                <option key={s.serverId} value={s.serverId}>
                  {s.server}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label className="field-label" htmlFor={ids.tool}>
              Tool <span className="field-optional">(optional)</span>
            </label>
            <input
              id={ids.tool}
              className="input mono"
              list={ids.tools}
              value={tool}
              onChange={(e) => setTool(e.target.value)}
              placeholder="every tool"
              disabled={server === ""}
              data-testid="rule-tool"
              spellCheck={false}
            />
            <datalist id={ids.tools}>
              {toolNames.map((name) => (
                <option key={name} value={name} />
              ))}
            </datalist>
            <p className="field-hint">
              Empty: the server&apos;s default. A rule for a tool is made for the tool&apos;s current definition; if the
              server changes the tool, an allow rule stops allowing until it is renewed.
            </p>
          </div>
          <fieldset className="field">
            <label className="checkbox">
              <input type="checkbox" checked={withArgument} onChange={(e) => setWithArgument(e.target.checked)} data-testid="rule-with-argument" />
              Only when an argument matches
            </label>
            {withArgument && (
              <div className="argument-fields">
                <div className="field">
                  <label className="field-label" htmlFor={ids.pointer}>
                    Argument (JSON Pointer)
                  </label>
                  <input
                    id={ids.pointer}
                    className="input mono"
                    value={pointer}
                    onChange={(e) => setPointer(e.target.value)}
                    placeholder="/path"
                    data-testid="rule-pointer"
                    spellCheck={false}
                  />
                </div>
                <div className="field">
                  <label className="field-label" htmlFor={ids.pattern}>
                    Pattern
                  </label>
                  <div className="inline-fields">
                    <select className="input input-compact" value={kind} onChange={(e) => setKind(e.target.value as PatternKind)} aria-label="Pattern kind" data-testid="rule-pattern-kind">
                      <option value="glob">glob</option>
                      <option value="regex">regex</option>
                    </select>
                    <input
                      id={ids.pattern}
                      className="input mono"
                      value={pattern}
                      onChange={(e) => setPattern(e.target.value)}
                      placeholder={kind === "glob" ? "~/projects/**" : "[a-z]+"}
                      data-testid="rule-pattern"
                      spellCheck={false}
                    />
                  </div>
                </div>
                <label className="checkbox">
                  <input type="checkbox" checked={outside} onChange={(e) => setOutside(e.target.checked)} data-testid="rule-outside" />
                  When the value is outside the pattern (does not match)
                </label>
              </div>
            )}
          </fieldset>
          <div className="field">
            <label className="field-label" htmlFor={ids.source}>
              From
            </label>
            <select id={ids.source} className="input" value={source} onChange={(e) => setSource(e.target.value as Source | "")} data-testid="rule-source">
              <option value="">Every source</option>
              {SOURCES.map(([value, label]) => (
                <option key={value} value={value}>
                  {label}
                </option>
              ))}
            </select>
          </div>
          {source === "gateway" && (
            <div className="field">
              <label className="field-label" htmlFor={ids.client}>
                Client <span className="field-optional">(optional)</span>
              </label>
              <input
                id={ids.client}
                className="input mono"
                value={client}
                onChange={(e) => setClient(e.target.value)}
                placeholder="every agent"
                data-testid="rule-client"
                spellCheck={false}
              />
              <p className="field-hint">
                The name the agent connects with (<span className="mono">gatehouse mcp --client NAME</span>). A rule for one
                client comes before a rule for every agent.
              </p>
            </div>
          )}
          <fieldset className="field">
            <legend className="field-label">Decision</legend>
            <RadioGroup.Root
              className="segmented segmented-3"
              aria-label="Decision"
              value={decision}
              onValueChange={(value) => setDecision(value as Effect)}
            >
              {EFFECTS.map(([value, label, hint]) => (
                <label key={value} className={`segment${decision === value ? " segment-active" : ""}`} data-testid={`rule-decision-${value}`}>
                  <RadioGroup.Item value={value} className="segment-radio" aria-label={label}>
                    <RadioGroup.Indicator className="segment-radio-dot" />
                  </RadioGroup.Item>
                  <span className="segment-label">{label}</span>
                  <span className="segment-hint">{hint}</span>
                </label>
              ))}
            </RadioGroup.Root>
          </fieldset>
          {(localProblem !== null || save.isError) && (
            <p className="form-error" role="alert" data-testid="rule-error">
              {localProblem ?? errorMessage(save.error)}
            </p>
          )}
        </div>
        <div className="dialog-actions">
          <button type="button" className="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="button button-primary" disabled={save.isPending || localProblem !== null} data-testid="rule-save">
            {save.isPending ? "Saving…" : editing === null ? "Add rule" : "Save rule"}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
