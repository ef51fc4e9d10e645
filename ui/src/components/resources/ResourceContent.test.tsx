// Tests for a resource's contents by type: text, JSON pretty-printed and highlighted (never as
// HTML), images inline (PNG, SVG), any other blob as its size with Save, and what Save says.

import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeEach, describe, expect, it, vi } from "vitest";
import type { ResourceContentsView } from "../../api/gatehouse";
import * as fake from "../../test/fakeGatehouse";
import { renderWithClient } from "../../test/renderWithClient";
import { ResourceContent } from "./ResourceContent";

vi.mock("../../api/gatehouse", () => import("../../test/fakeGatehouse"));

beforeEach(() => fake.resetFakeGatehouse());

const PNG = "iVBORw0KGgo=";

function contents(fields: Partial<ResourceContentsView>): ResourceContentsView {
  return { uri: "demo://r/1", mimeType: null, text: null, blob: null, ...fields };
}

describe("ResourceContent", () => {
  it("shows text as it is", () => {
    renderWithClient(<ResourceContent content={contents({ mimeType: "text/plain", text: "line 1\n<b>line 2</b>" })} />);
    const text = screen.getByTestId("resource-text");
    expect(text.textContent).toBe("line 1\n<b>line 2</b>");
    expect(text.querySelector("b")).toBeNull();
  });

  it("pretty-prints and highlights JSON, keeping markup in strings as text", () => {
    const json = '{"name":"<img src=x>","n":3,"ok":true}';
    renderWithClient(<ResourceContent content={contents({ mimeType: "application/json; charset=utf-8", text: json })} />);
    const view = screen.getByTestId("resource-json");
    expect(view.textContent).toBe(JSON.stringify(JSON.parse(json), null, 2));
    expect(view.querySelector("img")).toBeNull();
    expect([...view.querySelectorAll(".json-key")].map((e) => e.textContent)).toEqual(['"name"', '"n"', '"ok"']);
    expect(view.querySelector(".json-number")?.textContent).toBe("3");
    expect(view.querySelector(".json-literal")?.textContent).toBe("true");
  });

  it("shows JSON that does not parse as plain text", () => {
    renderWithClient(<ResourceContent content={contents({ mimeType: "application/json", text: "{not json" })} />);
    expect(screen.queryByTestId("resource-json")).toBeNull();
    expect(screen.getByTestId("resource-text")).toHaveTextContent("{not json");
  });

  it("shows PNG and SVG blobs inline from their base64", () => {
    renderWithClient(
      <>
        <ResourceContent content={contents({ mimeType: "image/png", blob: PNG })} />
        <ResourceContent content={contents({ uri: "demo://r/svg", mimeType: "image/svg+xml", blob: "PHN2Zy8+" })} />
      </>,
    );
    const [png, svg] = screen.getAllByTestId("resource-image");
    expect(png).toHaveAttribute("src", `data:image/png;base64,${PNG}`);
    expect(svg).toHaveAttribute("src", "data:image/svg+xml;base64,PHN2Zy8+");
    expect(png).toHaveAccessibleName("Image demo://r/1");
  });

  it("shows another blob as its size, and saves it into Downloads", async () => {
    fake.saveResourceContents.mockResolvedValue("/home/me/Downloads/1");
    const blob = contents({ mimeType: "application/octet-stream", blob: "AAECAwQ=" });
    renderWithClient(<ResourceContent content={blob} />);
    const summary = screen.getByTestId("resource-blob");
    expect(summary).toHaveTextContent("Binary content (application/octet-stream), 5 bytes.");
    expect(screen.queryByTestId("resource-image")).toBeNull();
    await userEvent.click(within(summary).getByRole("button", { name: "Save demo://r/1 to Downloads" }));
    expect(fake.saveResourceContents).toHaveBeenCalledWith(blob);
    expect(await screen.findByRole("status")).toHaveTextContent("Saved to /home/me/Downloads/1");
  });

  it("says why a save failed", async () => {
    fake.saveResourceContents.mockRejectedValue(new Error("disk full"));
    renderWithClient(<ResourceContent content={contents({ blob: "AAE=" })} />);
    await userEvent.click(screen.getByRole("button", { name: /Save/ }));
    expect(await screen.findByRole("alert")).toHaveTextContent("disk full");
  });
});
