// A prompt's argument form: one field per argument (the required ones marked), each completed as
// it is typed (`completion/complete` with the prompt as reference and the other arguments as
// context); Get fills the prompt in through the gate and shows its messages.

import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import * as api from "../../api/gatehouse";
import type { PromptItem } from "../../api/gatehouse";
import { offerErrorText } from "../../model/offerErrors";
import { CompletionField } from "../CompletionField";
import { ErrorBanner } from "../ErrorBanner";
import { PromptMessages } from "./PromptMessages";

type PromptFormProps = { serverId: string; prompt: PromptItem; completes: boolean };

export function PromptForm({ serverId, prompt, completes }: PromptFormProps) {
  const [values, setValues] = useState<Record<string, string>>({});
  const get = useMutation({
    mutationFn: (args: Record<string, string>) => api.getPrompt(serverId, prompt.name, args),
  });
  const filled = Object.fromEntries(Object.entries(values).filter(([, v]) => v !== ""));
  const missing = prompt.arguments.filter((a) => a.required && (values[a.name] ?? "") === "").map((a) => a.name);
  const others = (name: string) => Object.fromEntries(Object.entries(filled).filter(([key]) => key !== name));
  return (
    <section className="detail-section prompt-form" aria-labelledby="prompt-form-heading" data-testid="prompt-form">
      <h3 id="prompt-form-heading">{prompt.title ?? prompt.name}</h3>
      {prompt.description && <p className="muted">{prompt.description}</p>}
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (missing.length === 0) get.mutate(filled);
        }}
      >
        {prompt.arguments.length === 0 && <p className="muted">This prompt takes no arguments.</p>}
        {prompt.arguments.map((argument) => (
          <CompletionField
            key={argument.name}
            label={argument.title ?? argument.name}
            description={argument.description}
            required={argument.required}
            value={values[argument.name] ?? ""}
            onChange={(value) => setValues((old) => ({ ...old, [argument.name]: value }))}
            target={{ serverId, reference: prompt.name, template: false, argument: argument.name }}
            context={others(argument.name)}
            completes={completes}
          />
        ))}
        <button
          type="submit"
          className="button button-primary"
          disabled={missing.length > 0 || get.isPending}
          data-testid="prompt-get"
        >
          {get.isPending ? "Getting…" : "Get prompt"}
        </button>
        {missing.length > 0 && <p className="field-hint">Fill in {missing.join(", ")} (required).</p>}
      </form>
      {get.error !== null && <ErrorBanner message={offerErrorText(get.error)} />}
      {get.data !== undefined && <PromptMessages result={get.data} />}
    </section>
  );
}
