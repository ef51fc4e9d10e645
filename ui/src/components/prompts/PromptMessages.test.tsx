// Tests for a prompt's messages by content type: text, image, audio (a player, or its size when
// its type is not audio), an embedded resource (as a read shows it), a resource link, and an
// unknown type as JSON; each with its role.

import { screen, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import type { JsonValue } from "../../api/gatehouse";
import { renderWithClient } from "../../test/renderWithClient";
import { embeddedResource, PromptMessages } from "./PromptMessages";

vi.mock("../../api/gatehouse", () => import("../../test/fakeGatehouse"));

function render(contents: JsonValue[], roles: string[] = []) {
  const messages = contents.map((content, i) => ({ role: roles[i] ?? "user", content }));
  renderWithClient(<PromptMessages result={{ description: "A test prompt", messages }} />);
  return screen.getAllByRole("listitem");
}

describe("PromptMessages", () => {
  it("shows each message's role and text", () => {
    const items = render(
      [
        { type: "text", text: "What's the weather in Paris?" },
        { type: "text", text: "Sunny." },
      ],
      ["user", "assistant"],
    );
    expect(screen.getByText("A test prompt")).toBeInTheDocument();
    expect(items.map((i) => within(i).getByTestId("prompt-role").textContent)).toEqual(["user", "assistant"]);
    expect(within(items[0]!).getByTestId("call-text")).toHaveTextContent("What's the weather in Paris?");
  });

  it("shows an image inline and audio as a player", () => {
    render([
      { type: "image", data: "iVBORw0KGgo=", mimeType: "image/png" },
      { type: "audio", data: "UklGRg==", mimeType: "audio/wav" },
    ]);
    expect(screen.getByTestId("call-image")).toHaveAttribute("src", "data:image/png;base64,iVBORw0KGgo=");
    expect(screen.getByTestId("call-audio")).toHaveAttribute("src", "data:audio/wav;base64,UklGRg==");
  });

  it("shows audio of a type that is not audio as its size", () => {
    render([{ type: "audio", data: "AAECAwQ=", mimeType: "application/octet-stream" }]);
    expect(screen.queryByTestId("call-audio")).toBeNull();
    expect(screen.getByTestId("prompt-audio-size")).toHaveTextContent("Audio (application/octet-stream), 5 bytes.");
  });

  it("shows an embedded resource as a read shows it, JSON highlighted", () => {
    render([{ type: "resource", resource: { uri: "demo://r/1", mimeType: "application/json", text: '{"a":1}' } }]);
    const embedded = screen.getByTestId("prompt-embedded-resource");
    expect(within(embedded).getByTestId("resource-json").textContent).toBe('{\n  "a": 1\n}');
    expect(embedded).toHaveTextContent("demo://r/1");
  });

  it("shows an embedded blob resource as its size", () => {
    render([{ type: "resource", resource: { uri: "demo://r/2", blob: "AAE=" } }]);
    expect(screen.getByTestId("resource-blob")).toHaveTextContent("2 bytes");
  });

  it("shows a resource link by its URI and name", () => {
    render([{ type: "resource_link", uri: "file:///notes.md", name: "notes" }]);
    expect(screen.getByTestId("call-resource-link")).toHaveTextContent("Resource link: file:///notes.md notes");
  });

  it("shows a content type it does not know as JSON", () => {
    render([{ type: "hologram", beam: 3 }]);
    expect(screen.getByTestId("call-unknown")).toHaveTextContent('"type": "hologram"');
  });

  it("finds an embedded resource only where the shape is one", () => {
    expect(embeddedResource({ type: "resource", resource: { uri: "a://1", text: "x" } })).toEqual({
      uri: "a://1",
      mimeType: null,
      text: "x",
      blob: null,
    });
    expect(embeddedResource({ type: "resource", resource: { text: "no uri" } })).toBeNull();
    expect(embeddedResource({ type: "text", text: "x" })).toBeNull();
    expect(embeddedResource(null)).toBeNull();
  });
});
