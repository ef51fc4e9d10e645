// The browser permissions a UI resource may declare (SEP-1865 `_meta.ui.permissions`: camera,
// microphone, geolocation and clipboard-write) and what the person agreed to: only agreed ones
// reach the sandbox (its `allow` attribute and the `permissions` of `sandbox-resource-ready`);
// none by default.

import type { AppPermissions } from "../api/gatehouse";

export type PermissionName = keyof AppPermissions;

/** Each permission with what the person is asked, in a fixed order. */
export const PERMISSION_LABELS: readonly [PermissionName, string][] = [
  ["camera", "Use the camera"],
  ["microphone", "Use the microphone"],
  ["geolocation", "Know your location"],
  ["clipboardWrite", "Write to the clipboard"],
];

/** The permissions a resource declares, in the order they are asked. */
export function declaredPermissions(permissions: AppPermissions): PermissionName[] {
  return PERMISSION_LABELS.map(([name]) => name).filter((name) => permissions[name]);
}

/** The agreed permissions, as `AppPermissions` (only those both declared and agreed). */
export function agreedPermissions(declared: AppPermissions, agreed: ReadonlySet<PermissionName>): AppPermissions {
  return {
    camera: declared.camera && agreed.has("camera"),
    microphone: declared.microphone && agreed.has("microphone"),
    geolocation: declared.geolocation && agreed.has("geolocation"),
    clipboardWrite: declared.clipboardWrite && agreed.has("clipboardWrite"),
  };
}

/** SEP-1865's shape of granted permissions (`{ camera: {} }`, …): only the true ones. */
export function permissionObjects(permissions: AppPermissions): Partial<Record<PermissionName, Record<string, never>>> {
  const out: Partial<Record<PermissionName, Record<string, never>>> = {};
  for (const [name] of PERMISSION_LABELS) if (permissions[name]) out[name] = {};
  return out;
}
