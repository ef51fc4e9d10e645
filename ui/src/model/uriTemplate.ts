// RFC 6570 URI templates as MCP resource templates use them: the variables a template names
// (levels 1-4 expressions: `{id}`, `{+path}`, `{/a,b}`, `{?q}`, `{var*}`, `{var:3}`), and the
// template expanded with the values a person typed (each value percent-encoded as its operator
// says; an empty value leaves a query or path variable out).

const EXPRESSION = /\{([+#./;?&]?)([^}]*)\}/g;

type Spec = { name: string; prefix: number | null; explode: boolean };

function specsOf(list: string): Spec[] {
  return list
    .split(",")
    .map((raw) => raw.trim())
    .filter((raw) => raw !== "")
    .map((raw) => {
      const explode = raw.endsWith("*");
      const bare = explode ? raw.slice(0, -1) : raw;
      const [name, prefix] = bare.split(":");
      const length = prefix === undefined ? null : Number.parseInt(prefix, 10);
      return { name: name ?? bare, prefix: Number.isFinite(length) ? length : null, explode };
    });
}

/** The variable names of a URI template, in order, each once. */
export function templateVariables(template: string): string[] {
  const names: string[] = [];
  for (const match of template.matchAll(EXPRESSION)) {
    for (const spec of specsOf(match[2] ?? "")) {
      if (!names.includes(spec.name)) names.push(spec.name);
    }
  }
  return names;
}

// Reserved expansion (`+`, `#`) keeps the reserved characters; the others encode them.
function encode(value: string, reserved: boolean): string {
  const encoded = encodeURIComponent(value);
  if (!reserved) return encoded.replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return encoded.replace(/%(2F|3A|40|3F|23|5B|5D|21|24|26|27|28|29|2A|2B|2C|3B|3D)/gi, (_, hex: string) =>
    String.fromCharCode(Number.parseInt(hex, 16)),
  );
}

const OPERATORS: Record<string, { first: string; sep: string; named: boolean; reserved: boolean }> = {
  "": { first: "", sep: ",", named: false, reserved: false },
  "+": { first: "", sep: ",", named: false, reserved: true },
  "#": { first: "#", sep: ",", named: false, reserved: true },
  ".": { first: ".", sep: ".", named: false, reserved: false },
  "/": { first: "/", sep: "/", named: false, reserved: false },
  ";": { first: ";", sep: ";", named: true, reserved: false },
  "?": { first: "?", sep: "&", named: true, reserved: false },
  "&": { first: "&", sep: "&", named: true, reserved: false },
};

/** The template with each variable replaced by its value (a missing or empty one left out). */
export function expandTemplate(template: string, values: Record<string, string>): string {
  return template.replace(EXPRESSION, (_, operator: string, list: string) => {
    const op = OPERATORS[operator] ?? OPERATORS[""]!;
    const parts = specsOf(list)
      .map((spec) => {
        const raw = values[spec.name] ?? "";
        if (raw === "") return null;
        const value = spec.prefix === null ? raw : raw.slice(0, spec.prefix);
        const encoded = encode(value, op.reserved);
        return op.named ? `${spec.name}=${encoded}` : encoded;
      })
      .filter((part): part is string => part !== null);
    return parts.length === 0 ? "" : op.first + parts.join(op.sep);
  });
}
