// Tests for the header: app name and the persisted light/dark theme toggle.

import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeEach, describe, expect, it } from "vitest";
import { THEME_STORAGE_KEY } from "../hooks/useTheme";
import { AppHeader } from "./AppHeader";

beforeEach(() => {
  window.localStorage.clear();
  delete document.documentElement.dataset.theme;
});

describe("AppHeader", () => {
  it("shows the app name", () => {
    render(<AppHeader />);
    expect(screen.getByText("Gatehouse")).toBeInTheDocument();
  });

  it("toggles the theme on <html> and remembers the choice", async () => {
    render(<AppHeader />);
    // jsdom has no matchMedia, so the system theme is light.
    expect(document.documentElement.dataset.theme).toBe("light");
    await userEvent.click(screen.getByRole("button", { name: "Dark theme" }));
    expect(document.documentElement.dataset.theme).toBe("dark");
    expect(window.localStorage.getItem(THEME_STORAGE_KEY)).toBe("dark");
    await userEvent.click(screen.getByRole("button", { name: "Light theme" }));
    expect(document.documentElement.dataset.theme).toBe("light");
    expect(window.localStorage.getItem(THEME_STORAGE_KEY)).toBe("light");
  });

  it("starts from the stored theme", () => {
    window.localStorage.setItem(THEME_STORAGE_KEY, "dark");
    render(<AppHeader />);
    expect(document.documentElement.dataset.theme).toBe("dark");
    expect(screen.getByRole("button", { name: "Light theme" })).toBeInTheDocument();
  });
});
