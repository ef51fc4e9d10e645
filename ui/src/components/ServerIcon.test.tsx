import { screen, waitFor } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { renderWithClient } from "../test/renderWithClient";
import { connected } from "../test/serverFixtures";
import * as fake from "../test/fakeGatehouse";
import { ServerIcon } from "./ServerIcon";

vi.mock("../api/gatehouse", () => import("../test/fakeGatehouse"));

const PNG = "data:image/png;base64,iVBORw0KGgo=";

describe("ServerIcon", () => {
  beforeEach(() => {
    fake.resetFakeGatehouse();
    document.documentElement.dataset.theme = "dark";
  });
  afterEach(() => {
    delete document.documentElement.dataset.theme;
  });

  it("shows the icon the engine checked, asked for the window's theme", async () => {
    fake.serverIcon.mockResolvedValue(PNG);
    renderWithClient(<ServerIcon id="s1" name="files" status={connected(1)} />);
    const img = await screen.findByTestId("server-icon");
    expect(img.getAttribute("src")).toBe(PNG);
    expect(img.getAttribute("alt")).toBe("");
    expect(fake.serverIcon).toHaveBeenCalledWith("s1", "dark");
  });

  it("shows the initial when the server declares no icon that may be shown", async () => {
    fake.serverIcon.mockResolvedValue(null);
    renderWithClient(<ServerIcon id="s1" name="  files" status={connected(1)} />);
    await waitFor(() => expect(fake.serverIcon).toHaveBeenCalled());
    expect(screen.getByTestId("server-icon-initial").textContent).toBe("F");
    expect(screen.queryByTestId("server-icon")).toBeNull();
  });

  it("never loads an address, only a data: image", async () => {
    fake.serverIcon.mockResolvedValue("https://tracker.example/pixel.png");
    renderWithClient(<ServerIcon id="s1" name="x" status={connected(1)} />);
    await waitFor(() => expect(fake.serverIcon).toHaveBeenCalled());
    expect(screen.queryByTestId("server-icon")).toBeNull();
    expect(screen.getByTestId("server-icon-initial")).toBeTruthy();
  });

  it("does not ask for a server that is not connected", () => {
    renderWithClient(<ServerIcon id="s1" name="x" status={{ state: "connecting" }} />);
    expect(fake.serverIcon).not.toHaveBeenCalled();
    expect(screen.getByTestId("server-icon-initial").textContent).toBe("X");
  });
});
