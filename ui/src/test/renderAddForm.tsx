// Renders the server form in "add" mode, empty, for tests; its submit handler is returned.

import { render } from "@testing-library/react";
import { vi } from "vitest";
import type { ServerInput } from "../api/gatehouse";
import { ServerFormDialog } from "../components/ServerFormDialog";
import { emptyFormValues } from "../model/serverFormValues";

export function renderAddForm() {
  const onSubmit = vi.fn<(input: ServerInput) => Promise<void>>().mockResolvedValue(undefined);
  render(<ServerFormDialog mode="add" initialValues={emptyFormValues()} onSubmit={onSubmit} onClose={vi.fn()} />);
  return onSubmit;
}
