// The optional project folder of the Import and Connect steps: typed freely, applied (and the
// agents looked for again) when the field is left or Enter is pressed.

import { FormField } from "../FormField";

type ProjectFolderFieldProps = {
  value: string;
  onChange: (value: string) => void;
  onApply: (value: string) => void;
  hint: string;
  testId: string;
};

export function ProjectFolderField({ value, onChange, onApply, hint, testId }: ProjectFolderFieldProps) {
  return (
    <FormField label="Project folder" optional hint={hint}>
      {(control) => (
        <input
          {...control}
          className="input"
          value={value}
          placeholder="/home/me/my-project"
          onChange={(e) => onChange(e.target.value)}
          onBlur={() => onApply(value.trim())}
          onKeyDown={(e) => e.key === "Enter" && onApply(value.trim())}
          data-testid={testId}
        />
      )}
    </FormField>
  );
}
