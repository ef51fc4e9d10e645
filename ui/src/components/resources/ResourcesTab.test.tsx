// Tests for the Resources tab in the server detail: pages loaded with Load more, the search,
// a resource read, a template filled in through completion and read, a subscription's updates
// re-reading the resource, actionable errors, and the Prompts tab getting a prompt.

import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeEach, describe, expect, it, vi } from "vitest";
import type { ResourceItem, ResourceUpdate } from "../../api/gatehouse";
import { GatehouseError } from "../../api/GatehouseError";
import * as fake from "../../test/fakeGatehouse";
import { renderDetail } from "../../test/renderDetail";
import { connected } from "../../test/serverFixtures";

vi.mock("../../api/gatehouse", () => import("../../test/fakeGatehouse"));

beforeEach(() => fake.resetFakeGatehouse());

function resource(n: number): ResourceItem {
  return { uri: `demo://r/${n}`, name: `Resource ${n}`, title: null, description: null, mimeType: "text/plain", size: null };
}

const OFFERS = connected(0, "legacy", ["resources", "prompts", "completions"]);

async function openTab(name: "Resources" | "Prompts") {
  renderDetail(OFFERS);
  await userEvent.click(screen.getByRole("tab", { name }));
}

describe("Resources tab", () => {
  it("loads more pages with the cursor and searches what is loaded", async () => {
    fake.listResourcesPage.mockImplementation((_id, cursor) =>
      Promise.resolve(
        cursor === null
          ? { items: [resource(1), resource(2)], malformed: [], nextCursor: "c2" }
          : { items: [resource(3)], malformed: [], nextCursor: null },
      ),
    );
    await openTab("Resources");
    const list = await screen.findByTestId("resource-list");
    await within(list).findByText("Resource 2");
    await userEvent.click(within(list).getByRole("button", { name: "Load more resources" }));
    await within(list).findByText("Resource 3");
    expect(fake.listResourcesPage).toHaveBeenLastCalledWith(expect.any(String), "c2");
    expect(within(list).queryByRole("button", { name: /Load more/ })).toBeNull();
    await userEvent.type(screen.getByRole("searchbox", { name: "Search resources and templates" }), "r/3");
    expect(within(list).queryByText("Resource 1")).toBeNull();
    expect(within(list).getByText("Resource 3")).toBeInTheDocument();
  });

  it("reads a template's resource with a value chosen from the server's completions", async () => {
    fake.listResourceTemplatesPage.mockResolvedValue({
      items: [
        {
          uriTemplate: "demo://resource/dynamic/text/{resourceId}",
          name: "Dynamic Text Resource",
          title: null,
          description: null,
          mimeType: "text/plain",
        },
      ],
      malformed: [],
      nextCursor: null,
    });
    fake.completeArgument.mockResolvedValue({ values: ["42"], total: null, hasMore: false });
    fake.readResource.mockResolvedValue([
      { uri: "demo://resource/dynamic/text/42", mimeType: "text/plain", text: "Resource 42", blob: null },
    ]);
    await openTab("Resources");
    await userEvent.click(await screen.findByRole("button", { name: /Dynamic Text Resource/ }));
    await userEvent.type(screen.getByRole("combobox", { name: /resourceId/ }), "4");
    await userEvent.click(await screen.findByRole("option", { name: "42" }));
    expect(fake.completeArgument).toHaveBeenCalledWith(
      expect.any(String),
      "demo://resource/dynamic/text/{resourceId}",
      true,
      "resourceId",
      "4",
      {},
    );
    expect(screen.getByTestId("template-uri")).toHaveTextContent("demo://resource/dynamic/text/42");
    await userEvent.click(screen.getByRole("button", { name: "Read" }));
    expect(await screen.findByTestId("resource-text")).toHaveTextContent("Resource 42");
    expect(fake.readResource).toHaveBeenCalledWith(expect.any(String), "demo://resource/dynamic/text/42");
  });

  it("re-reads a subscribed resource on each update and unsubscribes when it closes", async () => {
    fake.listResourcesPage.mockResolvedValue({ items: [resource(1)], malformed: [], nextCursor: null });
    let reads = 0;
    fake.readResource.mockImplementation(() => {
      reads += 1;
      return Promise.resolve([{ uri: "demo://r/1", mimeType: "text/plain", text: `version ${reads}`, blob: null }]);
    });
    let push: (update: ResourceUpdate) => void = () => undefined;
    fake.subscribeResource.mockImplementation((_id, _uri, onUpdate) => {
      push = onUpdate;
      return Promise.resolve(null);
    });
    await openTab("Resources");
    await userEvent.click(await screen.findByRole("button", { name: /Resource 1/ }));
    expect(await screen.findByTestId("resource-text")).toHaveTextContent("version 1");
    await userEvent.click(screen.getByTestId("resource-subscribe"));
    expect(await screen.findByTestId("resource-updated")).toHaveTextContent("waiting for the server's first update");
    push({ uri: "demo://r/1", coalesced: 2, missed: false });
    await waitFor(() => expect(screen.getByTestId("resource-text")).toHaveTextContent("version 2"));
    expect(screen.getByTestId("resource-updated")).toHaveTextContent(/Updated at .* \(2 updates\)/);
    await userEvent.click(screen.getByTestId("resource-unsubscribe"));
    expect(fake.unsubscribeResource).toHaveBeenCalledWith(expect.any(String), "demo://r/1");
  });

  it("says what to do when the server is not connected", async () => {
    fake.listResourcesPage.mockRejectedValue(new GatehouseError("not_connected", "`everything` is not connected"));
    await openTab("Resources");
    expect(await within(await screen.findByTestId("resource-list")).findByRole("alert")).toHaveTextContent(
      "Start or reconnect the server",
    );
  });
});

describe("Prompts tab", () => {
  it("gets a prompt with its required argument and shows its messages", async () => {
    fake.listPromptsPage.mockResolvedValue({
      items: [
        {
          name: "args-prompt",
          title: "Arguments Prompt",
          description: "A prompt with two arguments",
          arguments: [
            { name: "city", title: null, description: "Name of the city", required: true },
            { name: "state", title: null, description: null, required: false },
          ],
        },
      ],
      malformed: [],
      nextCursor: null,
    });
    fake.getPrompt.mockResolvedValue({
      description: null,
      messages: [{ role: "user", content: { type: "text", text: "What's weather in Paris?" } }],
    });
    await openTab("Prompts");
    await userEvent.click(await screen.findByRole("button", { name: /Arguments Prompt/ }));
    const get = screen.getByRole("button", { name: "Get prompt" });
    expect(get).toBeDisabled();
    await userEvent.type(screen.getByRole("combobox", { name: /city/ }), "Paris");
    await userEvent.click(get);
    expect(await screen.findByTestId("prompt-messages")).toHaveTextContent("What's weather in Paris?");
    expect(fake.getPrompt).toHaveBeenCalledWith(expect.any(String), "args-prompt", { city: "Paris" });
  });
});
