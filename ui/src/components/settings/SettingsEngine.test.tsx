// Tests for the Settings page's engine settings, theme, data directory and About: the stored
// values shown, a change saved as the engine's units (stop graces in milliseconds, retention
// emptied to keep everything), a value out of range refused before it is sent and the engine's
// own refusal shown, the theme chosen and kept, the data directory opened, the licences listed.

import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { GatehouseError } from "../../api/GatehouseError";
import { THEME_STORAGE_KEY } from "../../hooks/useTheme";
import * as fake from "../../test/fakeGatehouse";
import { renderWithClient } from "../../test/renderWithClient";
import { SettingsPage } from "./SettingsPage";

vi.mock("../../api/gatehouse", () => import("../../test/fakeGatehouse"));

beforeEach(() => {
  fake.resetFakeGatehouse();
  window.localStorage.clear();
});

const field = (key: string) => screen.getByTestId(`setting-${key}`);

async function replace(key: string, text: string) {
  await userEvent.clear(field(key));
  if (text !== "") await userEvent.type(field(key), text);
}

describe("SettingsPage engine settings", () => {
  it("shows the stored settings and saves a change in the engine's units", async () => {
    fake.engineSettings.mockResolvedValue({ ...fake.ENGINE_DEFAULTS, auditRetentionDays: 30 });
    fake.setEngineSettings.mockImplementation((s) => Promise.resolve(s));
    renderWithClient(<SettingsPage />);
    await screen.findByTestId("engine-settings");
    expect(field("approvalTimeout")).toHaveValue("300");
    expect(field("stopGrace")).toHaveValue("2");
    expect(field("retentionDays")).toHaveValue("30");

    await replace("approvalTimeout", "60");
    await replace("termGrace", "1.5");
    await replace("healthEvery", "10");
    await replace("retentionDays", "");
    await userEvent.click(screen.getByTestId("engine-settings-save"));

    await waitFor(() =>
      expect(fake.setEngineSettings).toHaveBeenCalledWith({
        approvalTimeoutSecs: 60,
        stopStdinMs: 2000,
        stopTermMs: 1500,
        healthEverySecs: 10,
        auditRetentionDays: null,
      }),
    );
    expect(await screen.findByText("Saved and applied.")).toBeInTheDocument();
  });

  it("refuses a value out of range before sending it, and shows the engine's refusal", async () => {
    renderWithClient(<SettingsPage />);
    await screen.findByTestId("engine-settings");
    await replace("healthEvery", "0");
    await replace("approvalTimeout", "ten");
    await userEvent.click(screen.getByTestId("engine-settings-save"));
    expect(await screen.findByText("The health-check interval (seconds) must be 1 to 3600.")).toBeInTheDocument();
    expect(screen.getByText("The approval timeout (seconds) must be a whole number.")).toBeInTheDocument();
    expect(field("healthEvery")).toHaveAttribute("aria-invalid", "true");
    expect(fake.setEngineSettings).not.toHaveBeenCalled();

    fake.setEngineSettings.mockRejectedValue(new GatehouseError("validation", "approval-timeout must be 1 to 86400 seconds, not 90000"));
    await replace("healthEvery", "30");
    await replace("approvalTimeout", "90");
    await userEvent.click(screen.getByTestId("engine-settings-save"));
    expect(await screen.findByText(/approval-timeout must be 1 to 86400 seconds/)).toBeInTheDocument();
  });

  it("chooses the theme, keeps it, and goes back to the system's", async () => {
    renderWithClient(<SettingsPage />);
    const theme = await screen.findByTestId("setting-theme");
    expect(screen.getByRole("radiogroup", { name: "Theme" })).toBe(theme);
    expect(within(theme).getByTestId("theme-system")).toBeChecked();
    await userEvent.click(within(theme).getByTestId("theme-dark"));
    expect(document.documentElement.dataset.theme).toBe("dark");
    expect(window.localStorage.getItem(THEME_STORAGE_KEY)).toBe("dark");
    await userEvent.click(within(theme).getByTestId("theme-light"));
    expect(document.documentElement.dataset.theme).toBe("light");
    await userEvent.click(within(theme).getByTestId("theme-system"));
    expect(window.localStorage.getItem(THEME_STORAGE_KEY)).toBeNull();
  });

  it("shows the data directory and opens it", async () => {
    renderWithClient(<SettingsPage />);
    await waitFor(() => expect(screen.getByTestId("data-dir")).toHaveTextContent("/home/me/.local/share/gatehouse"));
    await userEvent.click(screen.getByTestId("open-data-dir"));
    await waitFor(() => expect(fake.openDataDir).toHaveBeenCalled());
  });

  it("shows the version and the bundled libraries' licences, searchable", async () => {
    renderWithClient(<SettingsPage />);
    expect(await screen.findByTestId("about-version")).toHaveTextContent("0.1.0");
    expect(screen.getAllByTestId("licence-row")).toHaveLength(2);
    await userEvent.type(screen.getByLabelText("Find a library"), "react");
    expect(screen.getAllByTestId("licence-row")).toHaveLength(1);
    expect(screen.getByTestId("licence-row")).toHaveTextContent("MIT");
  });
});
