// The engine's typed error code reaches the UI: an IpcError from the (mocked) bindings goes
// through the real unwrapper into the add dialog, which shows it where that code belongs.

import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeEach, describe, expect, it, vi } from "vitest";
import type { ErrorCode, IpcError } from "../bindings";
import { emptyFormValues } from "../model/serverFormValues";
import { ServerFormDialog } from "../components/ServerFormDialog";

const bindings = vi.hoisted(() => ({ commands: { addServer: vi.fn() } }));
vi.mock("../bindings", () => ({ commands: bindings.commands, events: {} }));

import { addServer } from "./gatehouse";
import { GatehouseError } from "./GatehouseError";

beforeEach(() => vi.resetAllMocks());

function refuseWith(error: IpcError) {
  bindings.commands.addServer.mockResolvedValue({ status: "error", error });
}

async function submitEverything() {
  render(
    <ServerFormDialog
      mode="add"
      initialValues={emptyFormValues()}
      onSubmit={async (input) => {
        await addServer(input);
      }}
      onClose={vi.fn()}
    />,
  );
  await userEvent.type(screen.getByTestId("server-name"), "everything");
  await userEvent.type(screen.getByTestId("server-command"), "npx");
  await userEvent.click(screen.getByTestId("server-save"));
}

describe("an engine error code in the UI", () => {
  it("marks the name field for duplicate_name and shows the engine's message", async () => {
    refuseWith({ code: "duplicate_name", message: "a server named `everything` already exists" });
    await submitEverything();
    expect(await screen.findByTestId("server-form-error")).toHaveTextContent("a server named `everything` already exists");
    expect(screen.getByTestId("server-name")).toHaveAttribute("aria-invalid", "true");
  });

  it("shows another code's message without marking the name field", async () => {
    refuseWith({ code: "keyring_unavailable", message: "cannot store the secret: the OS keyring is not available" });
    await submitEverything();
    expect(await screen.findByTestId("server-form-error")).toHaveTextContent("the OS keyring is not available");
    expect(screen.getByTestId("server-name")).not.toHaveAttribute("aria-invalid", "true");
  });

  it("keeps every wire string of the engine's codes as the typed code", async () => {
    const codes: ErrorCode[] = ["io", "cancelled", "too_many_calls", "denied", "not_connected", "audit_broken"];
    for (const code of codes) {
      refuseWith({ code, message: code });
      const error = await addServer({ name: "x", enabled: true, roots: [], spec: { kind: "http", url: "http://h", transport: "auto", headers: [] } }).catch(
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(GatehouseError);
      expect((error as GatehouseError).code).toBe(code);
    }
  });

  it("turns a code the engine does not send into internal", async () => {
    refuseWith({ code: "no_such_code", message: "odd" } as unknown as IpcError);
    const error = await addServer({ name: "x", enabled: true, roots: [], spec: { kind: "http", url: "http://h", transport: "auto", headers: [] } }).catch(
      (e: unknown) => e,
    );
    expect((error as GatehouseError).code).toBe("internal");
  });
});
