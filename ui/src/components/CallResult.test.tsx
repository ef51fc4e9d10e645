// Tests for a tool result: each content type as a person should see it, server text never
// taken for HTML, structured content with its schema problem, tool errors and cancellation.

import { render, screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { CallResultView } from "../api/gatehouse";
import { CallResult } from "./CallResult";
import { base64Size } from "./ContentBlock";

function result(extra: Partial<CallResultView>): CallResultView {
  return { content: [], structuredContent: null, isError: false, schemaProblem: null, cancelled: false, ...extra };
}

describe("CallResult", () => {
  it("renders each content type by what it is", () => {
    render(
      <CallResult
        result={result({
          content: [
            { type: "text", text: "line one\n  line two" },
            { type: "image", data: "iVBORw0KGgo=", mimeType: "image/png" },
            { type: "audio", data: "UklGRg==", mimeType: "audio/wav" },
            { type: "resource_link", uri: "file:///notes/a.md", name: "a.md" },
            { type: "resource", resource: { uri: "memo://one", mimeType: "text/plain", text: "embedded text" } },
            { type: "resource", resource: { uri: "memo://two", blob: "AAECAw==" } },
          ],
        })}
      />,
    );
    expect(screen.getByTestId("call-text").textContent).toBe("line one\n  line two");
    expect(screen.getByTestId("call-image")).toHaveAttribute("src", "data:image/png;base64,iVBORw0KGgo=");
    expect(screen.getByTestId("call-audio")).toHaveAttribute("src", "data:audio/wav;base64,UklGRg==");
    expect(screen.getByTestId("call-resource-link")).toHaveTextContent("file:///notes/a.md a.md");
    const [embedded, binary] = screen.getAllByTestId("call-resource");
    expect(embedded).toHaveTextContent("embedded text");
    expect(binary).toHaveTextContent("Binary content, 4 bytes.");
    expect(screen.queryByRole("alert")).toBeNull();
  });

  it("shows server text as text, never as markup", () => {
    const { container } = render(
      <CallResult result={result({ content: [{ type: "text", text: '<img src=x onerror="alert(1)"><b>bold</b>' }] })} />,
    );
    expect(screen.getByTestId("call-text")).toHaveTextContent('<img src=x onerror="alert(1)"><b>bold</b>');
    expect(container.querySelector("img, b")).toBeNull();
  });

  it("does not make a data URL of media whose type is not what the block says", () => {
    render(<CallResult result={result({ content: [{ type: "image", data: "AA==", mimeType: "text/html" }] })} />);
    expect(screen.queryByTestId("call-image")).toBeNull();
    expect(screen.getByTestId("call-unknown")).toHaveTextContent("text/html");
  });

  it("marks a tool error as an alert and keeps its content", () => {
    render(<CallResult result={result({ isError: true, content: [{ type: "text", text: "disk full" }] })} />);
    expect(screen.getByRole("alert")).toHaveTextContent("The tool reported an error.");
    expect(screen.getByTestId("call-text")).toHaveTextContent("disk full");
  });

  it("shows structured content collapsed, with the schema problem", () => {
    render(
      <CallResult
        result={result({ structuredContent: { sum: 3 }, schemaProblem: "`sum` must be a string" })}
      />,
    );
    const details = screen.getByTestId("call-structured");
    expect(details).not.toHaveAttribute("open");
    expect(within(details).getByTestId("call-schema-problem")).toHaveTextContent("`sum` must be a string");
    expect(details).toHaveTextContent('"sum": 3');
  });

  it("says a cancelled call was cancelled", () => {
    render(<CallResult result={result({ cancelled: true })} />);
    expect(screen.getByTestId("call-cancelled")).toHaveTextContent("The call was cancelled.");
    expect(screen.queryByTestId("call-result")).toBeNull();
  });

  it("counts the bytes of base64 data", () => {
    expect(base64Size("AAECAw==")).toBe(4);
    expect(base64Size("AAECAwQ=")).toBe(5);
    expect(base64Size("")).toBe(0);
  });
});
