// The engine settings form's values (text, as typed) and their reading into EngineSettings,
// each checked against the range the engine accepts, with a message that says what is allowed.
// Stop graces are typed in seconds (as in the server form) and stored in milliseconds.

import type { EngineSettings } from "../api/gatehouse";

export type EngineSettingsValues = {
  approvalTimeout: string;
  stopGrace: string;
  termGrace: string;
  healthEvery: string;
  retentionDays: string;
};

export type EngineSettingsErrors = Partial<Record<keyof EngineSettingsValues, string>>;

export function valuesFromSettings(settings: EngineSettings): EngineSettingsValues {
  return {
    approvalTimeout: String(settings.approvalTimeoutSecs),
    stopGrace: String(settings.stopStdinMs / 1000),
    termGrace: String(settings.stopTermMs / 1000),
    healthEvery: String(settings.healthEverySecs),
    retentionDays: settings.auditRetentionDays === null ? "" : String(settings.auditRetentionDays),
  };
}

function whole(text: string, least: number, most: number, what: string): number | string {
  const value = Number(text.trim());
  if (text.trim() === "" || !Number.isInteger(value)) return `${what} must be a whole number.`;
  if (value < least || value > most) return `${what} must be ${least} to ${most}.`;
  return value;
}

function seconds(text: string, what: string): number | string {
  const value = Number(text.trim());
  if (text.trim() === "" || !Number.isFinite(value)) return `${what} must be a number of seconds.`;
  if (value < 0 || value > 600) return `${what} must be 0 to 600 seconds.`;
  return Math.round(value * 1000);
}

/** The settings the values say, or the errors per field. */
export function readSettings(
  values: EngineSettingsValues,
): { ok: true; settings: EngineSettings } | { ok: false; errors: EngineSettingsErrors } {
  const read = {
    approvalTimeout: whole(values.approvalTimeout, 1, 86_400, "The approval timeout (seconds)"),
    stopGrace: seconds(values.stopGrace, "The wait after closing stdin"),
    termGrace: seconds(values.termGrace, "The wait after SIGTERM"),
    healthEvery: whole(values.healthEvery, 1, 3_600, "The health-check interval (seconds)"),
    retentionDays: values.retentionDays.trim() === "" ? null : whole(values.retentionDays, 1, 36_500, "The retention (days)"),
  };
  const errors: EngineSettingsErrors = {};
  for (const [key, value] of Object.entries(read)) {
    if (typeof value === "string") errors[key as keyof EngineSettingsValues] = value;
  }
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return {
    ok: true,
    settings: {
      approvalTimeoutSecs: read.approvalTimeout as number,
      stopStdinMs: read.stopGrace as number,
      stopTermMs: read.termGrace as number,
      healthEverySecs: read.healthEvery as number,
      auditRetentionDays: read.retentionDays as number | null,
    },
  };
}
