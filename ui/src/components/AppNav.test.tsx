// Tests for the page navigation: every page is reachable, the current one is marked, and a
// count badge shows only when above zero.

import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { AppFrame } from "../App";
import * as fake from "../test/fakeGatehouse";
import { renderWithClient } from "../test/renderWithClient";
import { MemoryRouter } from "react-router";
import { AppNav } from "./AppNav";

vi.mock("../api/gatehouse", () => import("../test/fakeGatehouse"));

beforeEach(() => fake.resetFakeGatehouse());

describe("AppNav", () => {
  it("reaches every page and marks the current one", async () => {
    renderWithClient(<AppFrame />, "/");
    const nav = screen.getByRole("navigation", { name: "Pages" });
    expect([...nav.querySelectorAll("a")].map((a) => a.textContent)).toEqual(["Servers", "Approvals", "Audit", "Policies", "Clients", "Settings"]);
    expect(await screen.findByRole("heading", { level: 1, name: /Servers/ })).toBeInTheDocument();
    expect(screen.getByTestId("nav-servers")).toHaveAttribute("aria-current", "page");

    await userEvent.click(screen.getByTestId("nav-audit"));
    expect(await screen.findByRole("heading", { level: 1, name: /Audit log/ })).toBeInTheDocument();
    expect(screen.getByTestId("nav-audit")).toHaveAttribute("aria-current", "page");

    await userEvent.click(screen.getByTestId("nav-policies"));
    expect(await screen.findByRole("heading", { level: 1, name: "Policies" })).toBeInTheDocument();

    await userEvent.click(screen.getByTestId("nav-clients"));
    expect(await screen.findByRole("heading", { level: 1, name: "Clients" })).toBeInTheDocument();
    expect(screen.getByTestId("nav-clients")).toHaveAttribute("aria-current", "page");

    await userEvent.click(screen.getByTestId("nav-settings"));
    expect(await screen.findByRole("heading", { level: 1, name: "Settings" })).toBeInTheDocument();

    await userEvent.click(screen.getByTestId("nav-approvals"));
    expect(screen.getByRole("heading", { level: 1, name: "Approvals" })).toBeInTheDocument();
  });

  it("shows a count badge only when above zero", () => {
    const { unmount } = render(
      <MemoryRouter>
        <AppNav badges={{ "/approvals": 3 }} />
      </MemoryRouter>,
    );
    expect(screen.getByTestId("nav-approvals")).toHaveTextContent("Approvals3");
    expect(screen.getByLabelText("3 pending")).toBeInTheDocument();
    unmount();
    render(
      <MemoryRouter>
        <AppNav badges={{ "/approvals": 0 }} />
      </MemoryRouter>,
    );
    expect(screen.queryByTestId("nav-badge")).toBeNull();
  });
});
