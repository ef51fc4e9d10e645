// Tests for a field the server completes: asked once typing pauses (debounced, with the other
// arguments as context), suggestions in a listbox chosen with the keyboard or the mouse, Escape
// closing them, and nothing asked of a server without completions.

import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useState } from "react";
import { beforeEach, describe, expect, it, vi } from "vitest";
import * as fake from "../test/fakeGatehouse";
import { renderWithClient } from "../test/renderWithClient";
import { CompletionField } from "./CompletionField";

vi.mock("../api/gatehouse", () => import("../test/fakeGatehouse"));

beforeEach(() => {
  fake.resetFakeGatehouse();
  fake.completeArgument.mockImplementation((_id, _ref, _template, _arg, value) =>
    Promise.resolve({
      values: ["Engineering", "Sales", "Support"].filter((d) => d.startsWith(value)),
      total: null,
      hasMore: false,
    }),
  );
});

function Field({ completes = true }: { completes?: boolean }) {
  const [value, setValue] = useState("");
  return (
    <>
      <CompletionField
        label="department"
        description="Choose the department."
        required
        value={value}
        onChange={setValue}
        target={{ serverId: "s1", reference: "completable-prompt", template: false, argument: "department" }}
        context={{ name: "Alice" }}
        completes={completes}
      />
      <output data-testid="value">{value}</output>
    </>
  );
}

describe("CompletionField", () => {
  it("asks once typing pauses, with the value typed and the other arguments", async () => {
    renderWithClient(<Field />);
    const input = screen.getByRole("combobox", { name: /department/ });
    expect(input).toHaveAttribute("aria-required", "true");
    await userEvent.type(input, "Su");
    const options = await screen.findAllByRole("option");
    expect(options.map((o) => o.textContent)).toEqual(["Support"]);
    const values = fake.completeArgument.mock.calls.map((call) => call[4]);
    expect(values).not.toContain("S");
    expect(fake.completeArgument).toHaveBeenLastCalledWith("s1", "completable-prompt", false, "department", "Su", {
      name: "Alice",
    });
  });

  it("chooses a suggestion with the arrow keys and Enter", async () => {
    renderWithClient(<Field />);
    const input = screen.getByRole("combobox", { name: /department/ });
    await userEvent.type(input, "S");
    await screen.findByRole("option", { name: "Support" });
    expect(input).toHaveAttribute("aria-expanded", "true");
    await userEvent.keyboard("{ArrowDown}{ArrowDown}");
    const active = screen.getByRole("option", { name: "Support" });
    expect(active).toHaveAttribute("aria-selected", "true");
    expect(input).toHaveAttribute("aria-activedescendant", active.id);
    await userEvent.keyboard("{Enter}");
    expect(screen.getByTestId("value")).toHaveTextContent("Support");
    expect(input).toHaveValue("Support");
    expect(screen.queryByRole("option")).toBeNull();
  });

  it("closes the suggestions with Escape and takes a click", async () => {
    renderWithClient(<Field />);
    const input = screen.getByRole("combobox", { name: /department/ });
    await userEvent.type(input, "S");
    await screen.findByRole("option", { name: "Sales" });
    await userEvent.keyboard("{Escape}");
    expect(screen.queryByRole("option")).toBeNull();
    expect(input).toHaveAttribute("aria-expanded", "false");
    await userEvent.keyboard("{ArrowDown}");
    await userEvent.click(await screen.findByRole("option", { name: "Sales" }));
    expect(screen.getByTestId("value")).toHaveTextContent("Sales");
  });

  it("asks nothing of a server that does not complete", async () => {
    renderWithClient(<Field completes={false} />);
    await userEvent.type(screen.getByRole("combobox", { name: /department/ }), "Su");
    await new Promise((resolve) => setTimeout(resolve, 400));
    await waitFor(() => expect(fake.completeArgument).not.toHaveBeenCalled());
    expect(screen.queryByRole("option")).toBeNull();
  });
});
