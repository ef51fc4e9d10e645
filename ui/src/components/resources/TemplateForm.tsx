// A resource template filled in: one field per variable of its URI template, each completed as
// it is typed (`completion/complete` with the template as reference and the other variables
// as context); the URI it makes is shown as it changes, and Read opens it.

import { useState } from "react";
import type { TemplateItem } from "../../api/gatehouse";
import { expandTemplate, templateVariables } from "../../model/uriTemplate";
import { CompletionField } from "../CompletionField";

type TemplateFormProps = {
  serverId: string;
  template: TemplateItem;
  completes: boolean;
  onRead: (uri: string) => void;
};

export function TemplateForm({ serverId, template, completes, onRead }: TemplateFormProps) {
  const variables = templateVariables(template.uriTemplate);
  const [values, setValues] = useState<Record<string, string>>({});
  const uri = expandTemplate(template.uriTemplate, values);
  const missing = variables.filter((name) => (values[name] ?? "") === "");
  const others = (name: string) => Object.fromEntries(Object.entries(values).filter(([key, v]) => key !== name && v !== ""));
  return (
    <form
      className="detail-section template-form"
      data-testid="template-form"
      aria-labelledby="template-form-heading"
      onSubmit={(event) => {
        event.preventDefault();
        if (missing.length === 0) onRead(uri);
      }}
    >
      <h3 id="template-form-heading">{template.title ?? template.name}</h3>
      {template.description && <p className="muted">{template.description}</p>}
      <p className="muted">
        Template: <span className="mono">{template.uriTemplate}</span>
      </p>
      {variables.map((name) => (
        <CompletionField
          key={name}
          label={name}
          required
          value={values[name] ?? ""}
          onChange={(value) => setValues((old) => ({ ...old, [name]: value }))}
          target={{ serverId, reference: template.uriTemplate, template: true, argument: name }}
          context={others(name)}
          completes={completes}
        />
      ))}
      <p className="muted" data-testid="template-uri">
        URI: <span className="mono">{uri}</span>
      </p>
      <button type="submit" className="button button-primary" disabled={missing.length > 0} data-testid="template-read">
        Read
      </button>
      {missing.length > 0 && <p className="field-hint">Fill in {missing.join(", ")} to read the resource.</p>}
    </form>
  );
}
