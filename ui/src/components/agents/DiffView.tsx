// A unified diff as the Connect preview shows it: each line marked added, removed or kept, with
// the file's secret values already masked by the engine.

function lineClass(line: string): string {
  if (line.startsWith("+++") || line.startsWith("---")) return "diff-line diff-file";
  if (line.startsWith("@@")) return "diff-line diff-hunk";
  if (line.startsWith("+")) return "diff-line diff-added";
  if (line.startsWith("-")) return "diff-line diff-removed";
  return "diff-line";
}

export function DiffView({ diff }: { diff: string }) {
  const lines = diff.replace(/\n$/, "").split("\n");
  return (
    <pre className="diff-view" data-testid="connect-diff" aria-label="Changes to the file">
      {lines.map((line, i) => (
        <span key={i} className={lineClass(line)}>
          {line === "" ? " " : line}
          {"\n"}
        </span>
      ))}
    </pre>
  );
}
