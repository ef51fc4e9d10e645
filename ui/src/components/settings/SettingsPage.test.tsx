// Tests for the Settings page: starting at login turned on and off (what the engine answers is
// shown, its error too), and pausing the agents, which follows a pause made in the tray.

import { act, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { GatehouseError } from "../../api/GatehouseError";
import * as fake from "../../test/fakeGatehouse";
import { renderWithClient } from "../../test/renderWithClient";
import { SettingsPage } from "./SettingsPage";

vi.mock("../../api/gatehouse", () => import("../../test/fakeGatehouse"));

beforeEach(() => fake.resetFakeGatehouse());

const ENTRY = "/home/me/.config/autostart/gatehouse.desktop";

describe("SettingsPage", () => {
  it("turns starting at login on and off", async () => {
    fake.setStartAtLogin.mockImplementation((on) => Promise.resolve({ enabled: on, entry: ENTRY }));
    renderWithClient(<SettingsPage />);
    const login = await screen.findByRole("switch", { name: "Start Gatehouse at login" });
    await waitFor(() => expect(login).toBeEnabled());
    expect(login).toHaveAttribute("aria-checked", "false");

    await userEvent.click(login);
    await waitFor(() => expect(fake.setStartAtLogin).toHaveBeenLastCalledWith(true));
    await waitFor(() => expect(login).toHaveAttribute("aria-checked", "true"));
    expect(screen.getByText(new RegExp(ENTRY.replaceAll(".", "\\.")))).toBeInTheDocument();

    await userEvent.click(login);
    await waitFor(() => expect(fake.setStartAtLogin).toHaveBeenLastCalledWith(false));
    await waitFor(() => expect(login).toHaveAttribute("aria-checked", "false"));
  });

  it("says why starting at login could not be changed", async () => {
    fake.setStartAtLogin.mockRejectedValue(new GatehouseError("io", "cannot write the autostart entry: read-only file system"));
    renderWithClient(<SettingsPage />);
    const login = await screen.findByRole("switch", { name: "Start Gatehouse at login" });
    await waitFor(() => expect(login).toBeEnabled());
    await userEvent.click(login);
    expect(await screen.findByRole("alert")).toHaveTextContent(/read-only file system/);
    expect(login).toHaveAttribute("aria-checked", "false");
  });

  it("pauses the agents, and follows a pause made in the tray", async () => {
    fake.setAgentsPaused.mockImplementation((paused) => Promise.resolve(paused));
    renderWithClient(<SettingsPage />);
    const pause = await screen.findByRole("switch", { name: "Pause all agents" });
    await waitFor(() => expect(pause).toBeEnabled());
    await userEvent.click(pause);
    await waitFor(() => expect(fake.setAgentsPaused).toHaveBeenLastCalledWith(true));
    await waitFor(() => expect(pause).toHaveAttribute("aria-checked", "true"));

    act(() => fake.emitAgentsPaused({ paused: false }));
    await waitFor(() => expect(pause).toHaveAttribute("aria-checked", "false"));
  });
});
