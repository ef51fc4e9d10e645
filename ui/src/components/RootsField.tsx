// Form field for a server's MCP roots: the directories it may work in, one per line.
// Shared by both kinds, since any server can ask the host for its roots.

import { FormField } from "./FormField";

type RootsFieldProps = {
  value: string;
  error: string | undefined;
  onChange: (value: string) => void;
};

export function RootsField({ value, error, onChange }: RootsFieldProps) {
  return (
    <FormField
      label="Roots (directories the server may use)"
      error={error}
      hint="Absolute paths or file:// URIs. The server is told when you change them."
    >
      {(control) => (
        <textarea
          {...control}
          className="input mono"
          data-testid="server-roots"
          rows={3}
          value={value}
          onChange={(e) => onChange(e.target.value)}
          placeholder={"/home/me/project\n/home/me/notes"}
          spellCheck={false}
        />
      )}
    </FormField>
  );
}
